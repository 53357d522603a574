// The tutorial page: /tutorial?game=meitora&lang=ja.  Every word comes from the server (the
// catalogue); cards are drawn by cards.js.  The page keeps only the step number: each step's
// frame comes from /api/tutorials/{game}/{step}, built from the learner's view.
"use strict";

// cards.js names a face-down card and the joker through t(), as the table page does
let WORDS = {};
function t(key) { return WORDS["web." + key] || key; }

const Tutorial = {
  game: null, lang: "ja", step: 0, frame: null, picked: new Set(), busy: false,

  start() {
    const q = new URLSearchParams(location.search);
    const kept = localStorage.getItem("kf:lang");   // the choice the table and the lobby keep
    this.lang = ["ja", "en"].includes(q.get("lang")) ? q.get("lang")
      : ["ja", "en"].includes(kept) ? kept : ((navigator.language || "").startsWith("ja") ? "ja" : "en");
    localStorage.setItem("kf:lang", this.lang);
    document.documentElement.lang = this.lang;
    this.game = q.get("game");
    for (const l of ["ja", "en"]) {
      const u = new URLSearchParams(location.search); u.set("lang", l);
      if (l !== this.lang) u.delete("step");
      document.getElementById("lang-" + l).href = "/tutorial?" + u.toString();
    }
    document.getElementById("next").addEventListener("click", () => this.go(this.step + 1));
    document.getElementById("discard").addEventListener("click", () => this.submitDiscard());
    if (this.game) this.go(parseInt(q.get("step") || "0", 10) || 0);
    else this.list();
  },

  async get(url) {
    const r = await fetch(url);
    const body = await r.json();
    if (!r.ok) throw new Error(body.detail || r.statusText);
    return body;
  },

  words(w) {
    WORDS = w;
    document.getElementById("others").textContent = w["tutorial.others"];
    document.getElementById("others").href = "/tutorial?lang=" + this.lang;
    document.getElementById("lobby").textContent = w["tutorial.lobby"];
    document.getElementById("lobby").href = "/?lang=" + this.lang;
  },

  async list() {
    const data = await this.get(`/api/tutorials?lang=${this.lang}`);
    this.words(data.words);
    document.getElementById("title").textContent = data.words["tutorial.page"];
    document.getElementById("pick-title").textContent = data.words["tutorial.pick"];
    const list = document.getElementById("game-list");
    list.replaceChildren();
    for (const g of data.games) {
      const a = document.createElement("a");
      a.href = `/tutorial?game=${encodeURIComponent(g.game)}&lang=${this.lang}`;
      a.textContent = `${g.name} — ${g.title}`;
      a.dataset.game = g.game;
      list.append(a);
    }
    document.getElementById("pick").classList.remove("hidden");
  },

  async go(step) {
    if (this.busy) return;
    this.busy = true;
    try {
      const f = await this.get(`/api/tutorials/${encodeURIComponent(this.game)}/${step}?lang=${this.lang}`);
      this.step = step;
      this.frame = f;
      this.picked.clear();
      this.say("");
      const u = new URLSearchParams(location.search); u.set("step", String(step));
      history.replaceState(null, "", "/tutorial?" + u.toString());
      this.render(f);
    } catch (e) {
      this.say(String(e.message || e), false);
    } finally {
      this.busy = false;
    }
  },

  say(text, ok) {
    const m = document.getElementById("message");
    m.textContent = text || "";
    m.className = ok === undefined ? "" : (ok ? "ok" : "bad");
  },

  cardEl(code, label) {
    const b = document.createElement("button");
    b.className = "card";
    b.type = "button";
    b.innerHTML = cardSVG(code);
    b.dataset.card = code || "";
    if (label) { const s = document.createElement("div"); s.textContent = label; b.append(s); }
    return b;
  },

  render(f) {
    const w = f.words;
    this.words(w);
    document.getElementById("title").textContent = f.title;
    document.title = `kirifuda — ${f.title}`;
    for (const id of ["notes-box", "table-box", "hand-box"]) document.getElementById(id).classList.remove("hidden");
    document.getElementById("step").textContent = `${Math.min(f.step + 1, f.total)} / ${f.total}`;
    const notes = document.getElementById("notes");
    notes.replaceChildren(...f.notes.map(t => { const p = document.createElement("p"); p.textContent = t; return p; }));
    document.getElementById("notes-box").classList.toggle("empty", f.notes.length === 0);

    document.getElementById("table-title").textContent = w["tutorial.on_table"];
    const table = document.getElementById("table");
    const done = !f.table.length && f.event && f.event.trick;  // the trick just completed stays in view
    const n = f.seat_names.length;
    const shown = done ? f.event.trick.cards.map((c, k) => ({ card: c, seat: (f.event.trick.leader + k) % n })) : f.table;
    table.replaceChildren(...shown.map(p => {
      const el = this.cardEl(p.card, f.seat_names[p.seat]);
      if (done && p.seat === f.event.trick.winner) el.classList.add("winner");
      return el;
    }));
    document.getElementById("event").textContent = f.event ? `${f.event.who}: ${f.event.text}` : "";
    document.getElementById("trick").textContent = f.event && f.event.trick ? f.event.trick.text : "";

    document.getElementById("hand-title").textContent = w["your_hand"];
    for (const id of ["hand-title", "hand", "lines"]) document.getElementById(id).classList.toggle("hidden", f.done);
    const hand = document.getElementById("hand");
    const plays = new Map();
    for (const c of f.choices) if (c.action.play) plays.set(c.action.play, (plays.get(c.action.play) || []).concat([c]));
    const discard = f.choices.length && f.choices[0].action.discard ? f.choices[0].action.discard.length : 0;
    hand.replaceChildren(...f.hand.map(code => {
      const b = this.cardEl(code);
      if (plays.get(code) && plays.get(code).length === 1) {
        b.classList.add("playable");
        b.addEventListener("click", () => this.answer(plays.get(code)[0].action));
      } else if (discard > 1) {
        b.classList.add("playable");
        b.addEventListener("click", () => { this.picked.has(code) ? this.picked.delete(code) : this.picked.add(code); b.classList.toggle("picked"); });
      }
      return b;
    }));
    const lines = document.getElementById("lines");
    lines.replaceChildren(...f.lines.map(t => { const li = document.createElement("li"); li.textContent = t; return li; }));
    document.getElementById("guide").textContent = f.learner_turn ? [f.guide || w["tutorial.choose"], f.pick || ""].join(" ") : "";
    const choices = document.getElementById("choices");
    const d = document.getElementById("discard");
    d.classList.toggle("hidden", !(f.learner_turn && discard > 1));
    d.textContent = w["tutorial.discard_button"];
    choices.replaceChildren(...(discard > 1 ? [] : f.choices.map(c => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = c.label;
      b.dataset.action = JSON.stringify(c.action);
      b.addEventListener("click", () => this.answer(c.action));
      return b;
    })));
    const next = document.getElementById("next");
    next.textContent = w["tutorial.next_button"];
    next.classList.toggle("hidden", f.learner_turn || f.done);
    const result = document.getElementById("result");
    result.classList.toggle("hidden", !f.done);
    result.textContent = f.result ? [w["tutorial.result"], ...f.result.lines].join("\n") : "";
    if (f.done) {
      const again = document.createElement("a");
      again.id = "restart";
      again.href = `/tutorial?game=${encodeURIComponent(f.game)}&lang=${this.lang}&step=0`;
      again.textContent = w["tutorial.restart"];
      const others = document.createElement("a");
      others.href = `/tutorial?lang=${this.lang}`;
      others.textContent = w["tutorial.others"];
      const links = document.createElement("p");
      links.className = "links";
      links.append(again, " · ", others);
      result.append(links);
    }
  },

  submitDiscard() {
    const want = [...this.picked].sort().join(" ");
    const c = this.frame.choices.find(c => c.action.discard && [...c.action.discard].sort().join(" ") === want);
    if (c) this.answer(c.action);
    else this.say(this.frame.pick, false);
  },

  async answer(action) {
    if (this.busy) return;
    this.busy = true;
    let body;
    try {
      const r = await fetch(`/api/tutorials/${encodeURIComponent(this.game)}/${this.step}`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ action, lang: this.lang }),
      });
      body = await r.json();
      if (!r.ok) throw new Error(body.detail || r.statusText);
    } catch (e) {
      this.busy = false;
      this.say(String(e.message || e), false);
      return;
    }
    this.busy = false;
    if (body.accepted) {
      await this.go(body.next);
      this.say(body.message, true);
    } else {
      this.say(body.message, false);
    }
  },
};

document.addEventListener("DOMContentLoaded", () => Tutorial.start());
