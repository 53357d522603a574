// The table's sounds: short tones made with WebAudio (no sound files), one per event, so that a
// player who looks away can tell them apart by ear:
//   turn  — your turn: two rising notes;        trick — a trick taken: one soft low knock;
//   deal  — a deal ended: three notes, falling;  warn  — your turn clock is running out: two sharp beeps.
// Off by default; the header's speaker button (and the settings) turns it on or off, and the
// choice is kept with the other settings (PREFS.sound, localStorage kf:prefs).  A reader who asks
// for reduced motion gets the same events as plain, shorter tones (no glide); nothing plays while
// the page is hidden, nor before the reader has touched the page (the browser's own rule).
"use strict";

const Sound = {
  ctx: null,
  // each sound: [frequency Hz, start s, length s, wave, glide-to Hz or 0]
  SHAPES: {
    turn: [[660, 0, 0.11, "sine", 0], [880, 0.12, 0.16, "sine", 0]],
    trick: [[196, 0, 0.09, "triangle", 150]],
    deal: [[784, 0, 0.14, "sine", 0], [659, 0.15, 0.14, "sine", 0], [523, 0.30, 0.26, "sine", 0]],
    warn: [[1046, 0, 0.07, "square", 0], [1046, 0.13, 0.07, "square", 0]],
  },
  played: [],   // what was played, newest last (the tests read it; at most 20)
  on() { return !!PREFS.sound; },
  play(kind) {
    if (!this.on() || document.hidden) return false;
    const shape = this.SHAPES[kind];
    if (!shape) return false;
    this.played.push(kind); if (this.played.length > 20) this.played.shift();
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return false;
      const ctx = this.ctx || (this.ctx = new Ctx());
      if (ctx.state === "suspended") ctx.resume();
      const t0 = ctx.currentTime + 0.01, reduced = !PREFS.motion;
      for (const [freq, at, len, wave, glide] of shape) {
        const o = ctx.createOscillator(), g = ctx.createGain(), dur = reduced ? Math.min(len, 0.1) : len;
        o.type = wave; o.frequency.setValueAtTime(freq, t0 + at);
        if (glide && !reduced) o.frequency.exponentialRampToValueAtTime(glide, t0 + at + dur);
        const peak = wave === "square" ? 0.03 : 0.08;   // a square wave sounds louder
        g.gain.setValueAtTime(0.0001, t0 + at);
        g.gain.exponentialRampToValueAtTime(peak, t0 + at + 0.01);
        g.gain.exponentialRampToValueAtTime(0.0001, t0 + at + dur);
        o.connect(g); g.connect(ctx.destination);
        o.start(t0 + at); o.stop(t0 + at + dur + 0.02);
      }
      return true;
    } catch (e) { return false; }   // no sound here: the page goes on silent
  },
  set(on) {
    PREFS.sound = !!on; applyPrefs(); this.label();
    if (on) this.play("turn");   // a sample, and the browser's permission to play from now on
  },
  ICON_ON: '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 9v6h4l5 5V4L7 9H3zm13.5 3A4.5 4.5 0 0 0 14 7.97v8.05A4.5 4.5 0 0 0 16.5 12zM14 3.23v2.06a7 7 0 0 1 0 13.42v2.06a9 9 0 0 0 0-17.54z"/></svg>',
  ICON_OFF: '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 9v6h4l5 5V4L7 9H3z"/><path d="M15.5 9.5l5 5m0-5l-5 5" stroke="currentColor" stroke-width="2" fill="none"/></svg>',
  // the header's toggle: a speaker, crossed out when muted; its name in the page's language
  label() {
    const b = document.getElementById("mute");
    if (!b) return;
    b.innerHTML = this.on() ? this.ICON_ON : this.ICON_OFF;
    b.setAttribute("aria-pressed", String(this.on()));
    b.setAttribute("aria-label", t("sound_toggle")); b.title = t(this.on() ? "sound_on" : "sound_off");
  },
  // the turn clock: one warning per deadline, when 10 s are left for the seat to act
  warnedFor: null,
  clock(left, mine, deadlineAt) {
    if (!mine || left === null || left > 10 || left <= 0 || this.warnedFor === deadlineAt) return;
    this.warnedFor = deadlineAt; this.play("warn");
  },
};
window.Sound = Sound;
