// kirifuda's browser client: the lobby, the table, the replay viewer.  Plain JS, no build step.
// Everything the page knows about a table comes from the server's frames, each built from this
// seat's view only.  Each game is drawn from its UI descriptor (GET /api/ui): this file holds no
// per-game code.  Every word comes from the shared catalogue (also GET /api/ui).
"use strict";

// the language: ?lang= in the address first (a shared link), then the reader's last choice, then
// the browser's; the choice is kept (kf:lang) for every page
const URL_LANG = new URLSearchParams(location.search).get("lang");
let LANG = ["ja", "en"].includes(URL_LANG) ? URL_LANG
  : localStorage.getItem("kf:lang") || ((navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en");
let GAMES = null;      // /api/games: names, options, bots, field terms
let UI = null;         // /api/ui: {games: descriptors, i18n: {ja, en}}
let current = null;    // the open page: Lobby, Table or Replay
const REDUCED = !!(window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
const PREFS = Object.assign({ size: "1", four: false, motion: !REDUCED, sound: false },
  JSON.parse(localStorage.getItem("kf:prefs") || "{}"));
const STRAIN = { S: "♠", H: "♥", D: "♦", C: "♣" };
const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

// -- words ----------------------------------------------------------------------------------
function has(key) { const c = UI ? UI.i18n[LANG] : {}; return ("web." + key) in c || key in c; }
function t(key, params) {
  const c = UI ? UI.i18n[LANG] : {}, en = UI ? UI.i18n.en : {};
  let s = c["web." + key] ?? c[key] ?? en["web." + key] ?? en[key];
  if (s === undefined) return key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? params[k] : m));
}
function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
function toast(msg) {
  const el = $("#toast"); el.textContent = msg; el.hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { el.hidden = true; }, 5000);
}
function announce(msg) {
  if (!msg) return;
  const el = $("#live"); el.textContent = ""; setTimeout(() => { el.textContent = msg; }, 30);
}
let dialogReturn = null;
function dialog(html, cls = "", label = "") {
  dialogReturn = document.activeElement;
  $("#dialog-body").innerHTML = html; $("#dialog").className = cls; $("#overlay").hidden = false;
  $("#dialog").setAttribute("aria-label", label || ($("#dialog-body h3") || {}).textContent || "");
  // a question: its first answer has the focus; anything else is read from its top
  const first = $("#dialog-body .choices button") || $("#dialog");
  first.focus({ preventScroll: first.id === "dialog" });
  $("#dialog").scrollTop = 0;
}
// a dialog shown at once, drawn again when its words (the server's sentences) arrive
function dialogLater(render, later, cls = "") {
  dialog(render(null), cls);
  const body = $("#dialog-body"), token = String(Math.random());
  body.dataset.token = token;
  later.then((words) => {
    if ($("#overlay").hidden || body.dataset.token !== token) return;
    const keep = $("#dialog").scrollTop; body.innerHTML = render(words); $("#dialog").scrollTop = keep;
  });
}
function closeDialog() {
  if ($("#overlay").hidden) return;
  $("#overlay").hidden = true; $("#dialog-body").innerHTML = "";
  if (current && current.afterDialog) current.afterDialog();
  else if (dialogReturn && document.contains(dialogReturn)) dialogReturn.focus();
}
function confirmIn(title, body, okLabel, onOk, cls = "") {
  dialog(`<h3>${esc(title)}</h3>${body}<div class="choices confirm"><button class="primary ${cls}" data-ok>${esc(okLabel)}</button><button data-cancel>${esc(t("cancel"))}</button></div>`);
  $("#dialog-body [data-ok]").addEventListener("click", () => { closeDialog(); onOk(); });
  $("#dialog-body [data-cancel]").addEventListener("click", closeDialog);
  // a costly answer (a claim that may end the deal as a chombo) is never the one a second
  // Enter or a double tap gives: the focus waits on "cancel"
  if (cls.split(" ").includes("danger")) $("#dialog-body [data-cancel]").focus();
}
async function api(path, opts = {}) {
  const r = await fetch(path, opts);
  const body = await r.json().catch(() => null);
  if (!r.ok) {
    const d = body && body.detail;
    const e = new Error(typeof d === "string" ? d : (d && d.message) || r.statusText);
    if (body && typeof body.code === "string") { e.code = body.code; e.params = body.params || {}; }
    throw e;
  }
  return body;
}
// a refusal the server gave a code (kirifuda/server/refusals.py): worded from the catalogue, its
// params as the lobby shows them (an option by its label, a seat by its number)
function refusalText(e, game) {
  if (!e.code || !has("refusal." + e.code)) return `${t("error")}: ${e.message}`;
  const p = Object.assign({}, e.params);
  if ("seat" in p) p.seat = t("seat", { n: p.seat });
  if ("option" in p && game && has(`opt.${game}.${p.option}`)) p.option = t(`opt.${game}.${p.option}`);
  if ("options" in p && game) p.options = String(p.options).split(/,\s*/).map((o) => has(`opt.${game}.${o}`) ? t(`opt.${game}.${o}`) : o).join(t("and"));
  if ("bot" in p && has("bots." + p.bot)) p.bot = t("bots." + p.bot);
  const words = t("refusal." + e.code, p);
  return e.code === "refused" && p.text ? `${words}: ${p.text}` : words;
}
// each deal's result in words (the server's sentences, the terminal's too), both languages
const Results = {
  cache: new Map(),
  async get(game, deals, names) {
    const body = JSON.stringify({ game, deals: deals.map((d) => Object.assign({}, d, { sentences: undefined })), names });
    if (!this.cache.has(body)) {
      try { this.cache.set(body, await api("/api/results", { method: "POST", headers: { "Content-Type": "application/json" }, body })); }
      catch (e) { return deals.map(() => null); }
    }
    const r = this.cache.get(body);
    return deals.map((_, i) => ({ ja: r.ja[i], en: r.en[i] }));
  },
};
async function boot() {
  if (!GAMES) [GAMES, UI] = await Promise.all([api("/api/games"), api("/api/ui")]);
}
function gameOf(id) { return (GAMES || []).find((g) => g.id === id); }
function descOf(id) { return UI.games[id]; }
function term(game, key) {
  // a game's own word for the fact first, then the shared one, its view's label, its option's name
  for (const k of [`field.${game}.${key}`, `field.${key}`]) if (has(k)) return t(k);
  const g = gameOf(game); const e = g && g.terms[key];
  if (e && !(e.ja === e.en && e.en === key.replace(/_/g, " "))) return e[LANG];   // (a label, not its stand-in)
  return has(`opt.${game}.${key}`) ? t(`opt.${game}.${key}`) : key.replace(/_/g, " ");
}
// an option's value in the words of the lobby
function optionValue(game, name, x) {
  if (x === null || x === undefined) return t("not_set");
  if (typeof x === "boolean") return t(x ? "yes" : "no");
  const k = `opt.${game}.${name}.${x}`;
  return has(k) ? t(k) : String(x);
}

// -- the one place for a table's tokens ------------------------------------------------------
// kf:seats = {table id: {token, seat}} (the seat this browser plays); kf:hosts = {table id: {host,
// links, watch}} (the tables this browser created).  Older keys are folded in once.
const Keys = {
  read(k) { try { return JSON.parse(localStorage.getItem(k) || "{}"); } catch (e) { return {}; } },
  write(k, v) { localStorage.setItem(k, JSON.stringify(v)); },
  seat(id) { return this.read("kf:seats")[id]; },
  setSeat(id, token, seat = null) { const s = this.read("kf:seats"); s[id] = { token, seat }; this.write("kf:seats", s); },
  dropSeat(id) { const s = this.read("kf:seats"); delete s[id]; this.write("kf:seats", s); },
  host(id) { return this.read("kf:hosts")[id]; },
  setHost(id, v) { const h = this.read("kf:hosts"); h[id] = Object.assign(h[id] || {}, v); this.write("kf:hosts", h); },
  migrate() {
    for (const k of Object.keys(localStorage)) {   // a copy: the loop adds and removes keys
      let m;
      if ((m = /^kf:table:(.+)$/.exec(k))) { if (!this.seat(m[1])) this.setSeat(m[1], localStorage.getItem(k)); localStorage.removeItem(k); }
      else if ((m = /^kf:tok:(.+):(\d+)$/.exec(k))) { if (!this.seat(m[1])) this.setSeat(m[1], localStorage.getItem(k), +m[2]); localStorage.removeItem(k); }
    }
  },
};

// -- values ---------------------------------------------------------------------------------
function suitHTML(s) { return `<span class="suit s${s}">${STRAIN[s]}</span>`; }
function bidText(b) {
  if (b && typeof b === "object" && "bid" in b) b = b.bid;
  if (b === "pass") return t("act.pass");
  const m = /^(\d+)([SHDCN])$/.exec(b || "");
  if (!m) return String(b);
  return m[1] + (m[2] === "N" ? t("nt") : STRAIN[m[2]]);
}
function bidHTML(b) {
  if (b && typeof b === "object" && "bid" in b) b = b.bid;
  const m = /^(\d+)([SHDC])$/.exec(b || "");
  return m ? `${m[1]}${suitHTML(m[2])}` : esc(bidText(b));
}
function requestText(r) { return r === "any" ? t("req.any") : STRAIN[r]; }
function ctext(c) { return cardText(c, LANG); }
function cardHTML(c) { return isCard(c) ? (c === "JK" ? esc(ctext(c)) : `<span class="ctext s${c[1]}">${esc(ctext(c))}</span>`) : esc(t("face_down")); }
function actionText(a) {
  if (!a || typeof a !== "object") return String(a);
  if ("play" in a) {
    const card = ctext(a.play);
    if (a.request) return t("act.request", { card, req: requestText(a.request) });
    if (a.call_joker) return t("act.call_joker", { card });
    return card;
  }
  if ("bid" in a) return bidText(a.bid);
  if ("broken" in a) return t("act.broken");
  if ("discard" in a) return t("act.discard", { cards: a.discard.map(ctext).join(" ") });
  if ("adjutant" in a) return t("act.adjutant", { card: ctext(a.adjutant) });
  if ("redeclare" in a) return a.redeclare === "none" ? t("act.redeclare_none") : t("act.redeclare", { bid: bidText(a.redeclare) });
  if ("approve" in a) return a.approve ? t("act.approve") : t("act.reject");
  if ("trump" in a) return a.trump === "keep" ? t("act.trump_keep") : t("act.trump", { suit: STRAIN[a.trump] });
  if ("leader" in a) return t("act.leader", { who: seatName(a.leader) });
  if ("claim" in a) return t("act.claim");
  return JSON.stringify(a);
}
function kindOf(a) { return Object.keys(a)[0]; }
function fmtPts(x) {
  if (typeof x !== "number") return esc(x);
  const sign = x > 0 ? "+" : x < 0 ? "−" : "±";
  const a = Math.abs(x), whole = Math.floor(a);
  return sign + (a - whole === 0.5 ? (whole ? whole : "") + "½" : String(a));
}
function fmtTotal(x) {
  if (typeof x !== "number") return esc(x);
  const a = Math.abs(x), whole = Math.floor(a);
  return (x < 0 ? "−" : "") + (a - whole === 0.5 ? (whole ? whole : "") + "½" : String(a));
}
function isPlays(v) {
  return Array.isArray(v) && v.length > 0 && v.every((x) => Array.isArray(x) && x.length === 2 && typeof x[0] === "number" && (x[1] === null || isCard(x[1])));
}
function isTrick(v) { return v && typeof v === "object" && !Array.isArray(v) && "leader" in v && Array.isArray(v.cards); }
function normTrick(v) {
  if (!v) return null;
  if (isPlays(v)) return { leader: v[0][0], cards: v.map((x) => x[1]), seats: v.map((x) => x[0]) };
  if (isTrick(v)) return v;
  return null;
}
function trickSeats(tr, n) { return tr.seats || tr.cards.map((_, i) => (tr.leader + i) % n); }
function isAction(v) { return v && typeof v === "object" && !Array.isArray(v) && ["play", "bid", "broken", "discard", "adjutant", "redeclare", "approve", "trump", "leader", "claim"].some((k) => k in v); }
function valueHTML(v, game, n, field) {
  if (v === null || v === undefined) return "–";
  if (field === "options" && typeof v === "object" && !Array.isArray(v))   // the local rules, as the lobby words them
    return Object.entries(v).map(([k, x]) => `${esc(has(`opt.${game}.${k}`) ? t(`opt.${game}.${k}`) : term(game, k))}: ${esc(optionValue(game, k, x))}`).join("; ");
  if (typeof v === "boolean") return v ? t("yes") : t("no");
  if (isCard(v)) return cardHTML(v);
  if (typeof v === "string" && v.length === 1 && STRAIN[v]) return suitHTML(v);
  if (typeof v === "number" && SEATLIKE.has(field)) return esc(seatName(v));
  if (v === "any" && /request/.test(field || "")) return esc(t("req.any"));
  if (typeof v === "string" && field === "phase") return esc(has(`phase.${game}.${v}`) ? t(`phase.${game}.${v}`) : has(`phase.${v}`) ? t(`phase.${v}`) : v);
  if (typeof v === "string" && has(`value.${game}.${field}.${v}`)) return esc(t(`value.${game}.${field}.${v}`));
  if (typeof v === "string") return has("outcome." + v) ? esc(t("outcome." + v)) : bidHTML(v);
  if (typeof v === "number") return fmtTotal(v);
  if (Array.isArray(v)) {
    if (!v.length) return "–";
    if (v.every((x) => Array.isArray(x) && x.length === 2 && typeof x[0] === "number" && isAction(x[1])))
      return v.map(([s, a]) => `${esc(seatName(s))}: ${esc(actionText(a))}`).join(", ");
    if (isPlays(v)) return valueHTML(normTrick(v), game, n);
    if (v.every((x) => Array.isArray(x) && x.length === 2 && isTrick(x[0]) && typeof x[1] === "number"))
      return v.map(([tr, w]) => `${valueHTML(tr, game, n)} → <b>${esc(seatName(w))}</b>`).join("<br>");
    return v.map((x) => valueHTML(x, game, n)).join(" ");
  }
  if (isTrick(v)) { const ss = trickSeats(v, n); return v.cards.map((c, i) => `${esc(seatName(ss[i]))} ${c === null ? esc(t("face_down")) : cardHTML(c)}`).join(", "); }
  if (isAction(v)) return "bid" in v ? bidHTML(v.bid) : esc(actionText(v));
  return Object.entries(v).map(([k, x]) => `${esc(term(game, k))}: ${valueHTML(x, game, n, k)}`).join("; ");
}
const SEATLIKE = new Set(["to_act", "declarer", "first_bidder", "dealer", "starting_player", "last_player",
  "last_trick_last_player", "napoleon", "adjutant", "leader", "broken", "chombo", "last_trick_winner"]);

// -- seats and units (from the descriptor) ---------------------------------------------------
function seatNames() {
  if (current === Table && Table.frame) return Table.frame.table.seats.map((s) => s.name);
  if (current === Replay && Replay.data) return Replay.data.players;
  return [];
}
function seatName(s) {
  if (s === null || s === undefined) return "–";
  const name = seatNames()[s] || t("seat", { n: s });
  const mine = current === Table && Table.frame && Table.frame.seat === s;
  return mine ? `${name} (${t("you")})` : name;
}
function unitsOf(desc, view, n) {
  const u = desc.units;
  if (u === "seats") return Array.from({ length: n }, (_, i) => [i]);
  if (u.teams) return u.teams;
  if (u.field && Array.isArray(view[u.field]) && view[u.field].length) return view[u.field];
  return Array.from({ length: n }, (_, i) => [i]);
}
function unitOf(units, s) { return units.findIndex((u) => u.includes(s)); }
function unitName(units, i) { return (units[i] || []).map((s) => seatNames()[s] || t("seat", { n: s })).join(t("and")); }

// -- routing --------------------------------------------------------------------------------
function route() {
  const path = location.pathname;
  const m = /^\/t\/([0-9a-zA-Z_-]+)$/.exec(path);
  if (m) return Table.open(m[1]);
  if (path === "/replay") return Replay.open();
  return Lobby.open();
}
function applyPrefs() {
  const root = document.documentElement;
  root.style.setProperty("--scale", PREFS.size);
  root.classList.toggle("four", !!PREFS.four);
  root.classList.toggle("still", !PREFS.motion);
  localStorage.setItem("kf:prefs", JSON.stringify(PREFS));
}
function setLang(l) {
  LANG = l; localStorage.setItem("kf:lang", l); document.documentElement.lang = l;
  const q = new URLSearchParams(location.search);
  if (q.has("lang") && q.get("lang") !== l) { q.set("lang", l); history.replaceState(history.state, "", `${location.pathname}?${q}${location.hash}`); }
  if (window.Sound) Sound.label();
  $("#lang").value = l;
  $("#settings").setAttribute("aria-label", t("settings")); $("#settings").title = t("settings");
  $("#close").setAttribute("aria-label", t("close"));
  if (current && current.render) current.render();
}
function openSettings() {
  dialog(`<h3>${esc(t("settings"))}</h3>
    <div class="setting"><label for="set-lang">${esc(t("language"))}</label><select id="set-lang">${$("#lang").innerHTML}</select></div>
    <fieldset class="setting"><legend>${esc(t("text_size"))}</legend>${["1", "1.5", "2"].map((s) => `<label><input type="radio" name="size" value="${s}" ${PREFS.size === s ? "checked" : ""}> ${s}×</label>`).join(" ")}</fieldset>
    <div class="setting"><label><input type="checkbox" id="set-four" ${PREFS.four ? "checked" : ""}> ${esc(t("four_colour"))}</label></div>
    <div class="setting"><label><input type="checkbox" id="set-motion" ${PREFS.motion ? "checked" : ""}> ${esc(t("motion"))}</label></div>
    <div class="setting"><label><input type="checkbox" id="set-sound" ${PREFS.sound ? "checked" : ""}> ${esc(t("sound"))}</label></div>`);
  $("#set-lang").value = LANG;
  $("#set-lang").addEventListener("change", (e) => { setLang(e.target.value); closeDialog(); openSettings(); });
  $$('#dialog-body [name="size"]').forEach((el) => el.addEventListener("change", () => { PREFS.size = el.value; applyPrefs(); }));
  $("#set-four").addEventListener("change", (e) => { PREFS.four = e.target.checked; applyPrefs(); });
  $("#set-motion").addEventListener("change", (e) => { PREFS.motion = e.target.checked; applyPrefs(); });
  $("#set-sound").addEventListener("change", (e) => Sound.set(e.target.checked));
}
// the events' sounds (sound.js), one after another when a frame brings several
function sounds(kinds) {
  kinds.forEach((k, i) => (i ? setTimeout(() => Sound.play(k), 380 * i) : Sound.play(k)));
}

// -- the lobby ------------------------------------------------------------------------------
const Lobby = {
  game: null, created: null,
  async open() {
    current = this; $("#title").textContent = t("lobby");
    this.game = this.game || GAMES[0].id;
    this.render();
    this.loadTables();
    this.loadTutorials();
  },
  // the games with a tutorial (a guided first deal): a link beside the game picked
  async loadTutorials() {
    if (this.tutorials) return;
    try { this.tutorials = (await api("/api/tutorials?lang=en")).games.map((g) => g.game); } catch (e) { this.tutorials = []; }
    if (current === this) this.render();
  },
  tutorialHTML() {
    const g = gameOf(this.game);
    if (!this.tutorials || !this.tutorials.includes(g.id)) return "";
    return `<p class="learn"><a class="button" id="tutorial-link" href="/tutorial?game=${encodeURIComponent(g.id)}&lang=${LANG}">${esc(t("tutorial_link", { game: g.name[LANG] }))}</a>
      <a href="/tutorial?lang=${LANG}">${esc(t("tutorials_all"))}</a></p>`;
  },
  options(g) {
    const out = {};
    for (const o of g.options) {
      const el = $(`[name="opt-${o.name}"]`);
      if (!el) continue;
      let v;
      if (o.type === "bool") v = el.checked;
      else if (o.type === "int") { v = parseInt(el.value, 10); if (Number.isNaN(v)) continue; }   // left empty: the default
      else if (o.type === "choice") v = JSON.parse(el.value);
      else v = el.value.trim() === "" ? null : (Number.isFinite(+el.value) ? parseInt(el.value, 10) : el.value);
      if (JSON.stringify(v) !== JSON.stringify(o.default)) out[o.name] = v;
    }
    return out;
  },
  seatCount(g) {
    const p = $('[name="opt-players"]');
    if (p) { try { return JSON.parse(p.value); } catch (e) { /* fall through */ } }
    return g.min_players;
  },
  render() {
    if (current !== this) return;
    $("#title").textContent = t("lobby");
    const g = gameOf(this.game);
    $("#app").innerHTML = `
    <section class="lobby">
      <div class="panel"><h2>${esc(t("game"))}</h2><div class="games" role="radiogroup" aria-label="${esc(t("game"))}">${GAMES.map((x) => `
        <label class="gamepick ${x.id === this.game ? "on" : ""}"><input type="radio" name="game" value="${x.id}" ${x.id === this.game ? "checked" : ""}>
        <b>${esc(x.name[LANG])}</b><small>${esc(x.name[LANG === "ja" ? "en" : "ja"])} · ${esc(t("players", { n: x.min_players + (x.max_players > x.min_players ? "–" + x.max_players : "") }))}</small></label>`).join("")}</div>${this.tutorialHTML()}</div>
      <div class="panel"><h2>${esc(t("options"))}</h2><div class="opts">${g.options.map((o) => this.optionHTML(g, o)).join("")}</div></div>
      <div class="panel"><h2>${esc(t("seats"))}</h2><div id="seats"></div>
        <label class="row">${esc(t("timer"))} <select name="timer">${[0, 30, 60, 120].map((s) => `<option value="${s}">${esc(s ? t("sec", { n: s }) : t("off"))}</option>`).join("")}</select></label>
        <div class="opt"><label for="hints"><span>${esc(t("coach.allow_hints"))}</span> <input type="checkbox" id="hints" checked></label><small>${esc(t("coach.allow_hints_doc"))}</small></div>
        ${window.Practice ? Practice.lobbyHTML(g) : ""}
        <button id="create" class="primary">${esc(t("create"))}</button>
        <div id="created"></div></div>
      <div class="panel"><h2>${esc(t("tables"))}</h2><div id="tables">…</div>
        <h2>${esc(t("open_record"))}</h2><label class="upload">${esc(t("upload"))} <input type="file" id="upload" accept=".json,application/json"></label></div>
    </section>`;
    $$('input[name="game"]').forEach((el) => el.addEventListener("change", () => { this.game = el.value; this.created = null; this.render(); }));
    $$(".opts [name]").forEach((el) => el.addEventListener("change", () => this.renderSeats()));
    this.renderSeats();
    if (window.Practice) Practice.bindLobby(this, g);
    $("#create").addEventListener("click", () => this.create());
    $("#upload").addEventListener("change", (e) => Replay.upload(e.target.files[0]));
    if (this.created) this.showCreated();
    if (this.tables) this.renderTables();
    if (typeof Clubs !== "undefined") Clubs.lobby(this);   // clubs.js: presets, rated tables, clubs
    if (typeof MySeats !== "undefined") MySeats.sync();   // myseats.js: the account's seats, from any device
  },
  optionHTML(g, o) {
    const id = `opt-${o.name}`, key = `opt.${g.id}.${o.name}`;
    const choice = (c) => (c === null ? t("unlimited") : has(`${key}.${c}`) ? t(`${key}.${c}`) : String(c));
    let input;
    if (o.type === "bool") input = `<input type="checkbox" id="${id}" name="${id}" ${o.default ? "checked" : ""}>`;
    else if (o.type === "choice") input = `<select id="${id}" name="${id}">${o.choices.map((c) => `<option value='${esc(JSON.stringify(c))}' ${JSON.stringify(c) === JSON.stringify(o.default) ? "selected" : ""}>${esc(choice(c))}</option>`).join("")}</select>`;
    else if (o.type === "int") input = `<input type="number" id="${id}" name="${id}" value="${o.default}" min="1" max="999">`;
    else input = `<input type="number" id="${id}" name="${id}" min="1" max="999" value="${o.default ?? ""}" placeholder="${esc(t("unlimited"))}">`;
    const def = o.default === null ? t("not_set") : typeof o.default === "boolean" ? t(o.default ? "yes" : "no") : choice(o.default);
    return `<div class="opt"><label for="${id}"><span>${esc(t(key))}</span> ${input}</label><small>${esc(t(key + ".doc"))} <i>(${esc(t("default"))}: ${esc(def)})</i></small></div>`;
  },
  renderSeats() {
    const g = gameOf(this.game); const n = this.seatCount(g);
    const prev = $$("#seats .seat-row").map((r) => ({ kind: $("select", r).value, name: $("input", r).value }));
    const botDefault = g.default_bot && g.bots.includes(g.default_bot) ? g.default_bot : g.bots[0];
    $("#seats").innerHTML = Array.from({ length: n }, (_, i) => {
      const p = prev[i] || { kind: i === 0 ? "human" : "bot:" + botDefault, name: "" };
      return `<div class="seat-row"><span id="seatlbl-${i}">${esc(t("seat", { n: i }))}</span><select data-seat="${i}" aria-labelledby="seatlbl-${i}">
        <option value="human" ${p.kind === "human" ? "selected" : ""}>${esc(t("human"))}</option>
        ${g.bots.map((b) => `<option value="bot:${b}" ${p.kind === "bot:" + b ? "selected" : ""}>${esc(t("bot"))}: ${esc(t("bots." + b))}</option>`).join("")}
      </select><input placeholder="${esc(t("name"))}" aria-label="${esc(t("name"))} ${esc(t("seat", { n: i }))}" maxlength="40" value="${esc(p.name)}"></div>`;
    }).join("");
  },
  async create() {
    const g = gameOf(this.game);
    const seats = $$("#seats .seat-row").map((r, i) => {
      const v = $("select", r).value, name = $("input", r).value.trim();
      return v === "human" ? { kind: "human", name: name || t("player_default", { n: i + 1 }) }
        : { kind: "bot", bot: v.slice(4), name: name || t("bot_default", { n: i + 1 }) };
    });
    try {
      const club = typeof Clubs !== "undefined" ? Clubs.tableFields() : {};   // a club's table, rated or not
      const res = await api(`/api/tables?lang=${LANG}`, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(Object.assign({ game: g.id, options: this.options(g), seats, timer: parseInt($('[name="timer"]').value, 10), hints: $("#hints").checked },
          club, window.Practice ? Practice.createBody(g) : {})) });
      Keys.setHost(res.id, { host: res.host.split("#host=")[1], links: res.links, watch: res.watch, game: g.id });
      const mine = res.tokens.findIndex((x) => x);
      if (mine >= 0) Keys.setSeat(res.id, res.tokens[mine], mine);
      this.created = res;
      this.showCreated();
      // told, and the focus on the links it made (the first: a seat to play at)
      announce(t("created"));
      const go = $("#created a.button"); if (go) go.focus();
      this.loadTables();
    } catch (e) {
      const msg = refusalText(e, g.id);
      $("#created").innerHTML = `<p class="warn refusal" role="alert">${esc(msg)}</p>`; toast(msg);
    }
  },
  showCreated() {
    const r = this.created; const base = location.origin;
    const row = (label, url, open) => `<div class="invite"><span>${esc(label)}</span><input readonly aria-label="${esc(label)}" value="${esc(base + url)}"><button class="copy" aria-label="${esc(t("copy"))}: ${esc(label)}">${esc(t("copy"))}</button>${open}</div>`;
    $("#created").innerHTML = `<p class="ok" role="status">${esc(t("created"))}</p>` +
      r.links.map((l, i) => l ? row(t("seat", { n: i }), l, `<a class="button" href="${esc(l)}" data-seat="${i}">${esc(t("play_here"))}</a>`) : "").join("") +
      row(t("watch"), r.watch, `<a class="button" href="${esc(r.watch)}">${esc(t("watch"))}</a>`) +
      row(t("host_link"), r.host, `<a class="button" href="${esc(r.host)}">${esc(t("host"))}</a>`);
    $$("#created .copy").forEach((b) => b.addEventListener("click", async () => {
      const inp = b.previousElementSibling; inp.select();
      try { await navigator.clipboard.writeText(inp.value); } catch (e) { document.execCommand("copy"); }
      toast(t("copied"));
    }));
    $$("#created a[data-seat]").forEach((a) => a.addEventListener("click", () => {
      const tok = /token=([^&]+)/.exec(a.getAttribute("href"));
      if (tok) Keys.setSeat(r.id, decodeURIComponent(tok[1]), +a.dataset.seat);
    }));
  },
  async loadTables() {
    try { this.tables = await api("/api/tables"); } catch (e) { this.tables = []; }
    if (current === this && $("#tables")) this.renderTables();
  },
  renderTables() {
    $("#tables").innerHTML = this.tables.length ? `<ul class="tables">${this.tables.slice(0, 30).map((x) => {
      const mine = Keys.seat(x.id), host = Keys.host(x.id);
      return `<li><a href="/t/${esc(x.id)}" class="tablelink" data-id="${esc(x.id)}">${esc(x.name[LANG])} <code>${esc(x.id)}</code></a> ${x.seats.map((s) => esc(s.name)).join(" · ")}
      ${x.rated ? `<span class="tag rated">${esc(t("clubs.rated"))}</span>` : ""}${x.club_table && !x.rated ? `<span class="tag">${esc(t("clubs.club_table"))}</span>` : ""}
      ${mine ? `<span class="tag mine">${esc(t("your_seat"))}</span>` : ""}${host ? ` <span class="tag">${esc(t("host"))}</span>` : ""}${window.Practice ? Practice.tag(x) : ""}
      ${x.over ? `<span class="tag">${esc(t("match_over"))}</span> <a href="/replay?table=${esc(x.id)}">${esc(t("replay"))}</a>` : ""}</li>`;
    }).join("")}</ul>` : `<p>${esc(t("no_tables"))}</p>`;
  },
};

// -- the table ------------------------------------------------------------------------------
const Table = {
  id: null, ws: null, frame: null, token: null, seenDeal: null, retry: 0, selected: [], online: true,
  queue: [], pumping: false, holdUntil: 0,
  async open(id) {
    current = this; this.id = id; this.frame = null; this.seenDeal = null; this.prev = null; this.selected = [];
    this.coach = null; this.coachOn = false;
    api(`/api/tables/${encodeURIComponent(id)}/coach`).then((r) => {
      if (current === this && this.id === id) { this.coachOn = !!r.hints; this.render(); }
    }).catch(() => {});
    this.queue = []; this.holdUntil = 0;
    const tok = /token=([^&]+)/.exec(location.hash), host = /host=([^&]+)/.exec(location.hash);
    if (tok) Keys.setSeat(id, decodeURIComponent(tok[1]));
    if (host) Keys.setHost(id, { host: decodeURIComponent(host[1]) });
    if (tok || host) history.replaceState(null, "", location.pathname);   // the token leaves the address bar
    const mine = Keys.seat(id);
    this.token = mine ? mine.token : null;
    $("#app").innerHTML = `<p class="center">…</p>`;
    this.connect();
  },
  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${this.id}`);
    this.ws = ws;
    ws.onopen = () => { this.retry = 0; ws.send(JSON.stringify({ type: "hello", token: this.token || null })); };
    ws.onmessage = (ev) => this.onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      if (this.ws !== ws || current !== this) return;
      this.setOnline(false);
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => { if (current === this && this.ws === ws) this.connect(); }, 400 * this.retry);
    };
  },
  setOnline(on) {
    const was = this.online; this.online = on;
    document.body.classList.toggle("offline", !on);
    $("#offline").hidden = on; $("#offline").textContent = on ? "" : t("offline");
    const app = $("#app"); if (on) app.removeAttribute("inert"); else app.setAttribute("inert", "");
    if (on && !was) { toast(t("back_online")); announce(t("back_online")); }
  },
  send(action) {
    if (!this.frame || !this.ws || this.ws.readyState !== 1 || !this.online) return;
    this.ws.send(JSON.stringify({ type: "act", version: this.frame.version, action }));
  },
  onMessage(m) {
    if (m.type === "welcome") {
      if (this.token && m.seat !== null) Keys.setSeat(this.id, this.token, m.seat);
      if (this.token && m.seat !== null && typeof MySeats !== "undefined") MySeats.keep(this.id, m.seat, this.token);   // myseats.js
      this.setOnline(true);
    } else if (m.type === "state") {
      this.setOnline(true);
      this.queue.push(m); this.pump();
    } else if (m.type === "presence") {
      // who is connected changed (a join or a leave): the last state frame's seats, updated in place
      if (!this.frame) return;
      m.seats.forEach((p, i) => Object.assign(this.frame.table.seats[i] || {}, p));
      this.frame.table.spectators = m.spectators;
      if (m.drop_in) { this.frame.table.drop_in = m.drop_in; this.receivedAt = Date.now(); }
      this.render();
    } else if (m.type === "error") {
      if (m.code === "unknown_table") { $("#app").innerHTML = `<p class="center">${esc(t("not_found"))}</p>`; this.ws = null; return; }
      if (m.code === "unauthenticated" && this.token) {      // a retired link: watch instead
        Keys.dropSeat(this.id); this.token = null; toast(t("err.unauthenticated"));
        this.ws.send(JSON.stringify({ type: "hello", token: null })); return;
      }
      if (m.code.startsWith("rated_")) {   // a rated table's seat (clubs.js): say why, and watch
        this.refused(m); this.ws.send(JSON.stringify({ type: "hello", token: null })); return;
      }
      if (m.code === "replaced") { Keys.dropSeat(this.id); this.token = null; toast(t("replaced")); return; }
      this.refused(m);
    }
  },
  // frames are shown in order; a trick just taken stays a moment before the next card covers it
  // (with the motion setting on)
  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        const wait = this.holdUntil - Date.now();
        if (wait > 0 && PREFS.motion && this.queue.length) await new Promise((r) => setTimeout(r, wait));
        if (current !== this) { this.queue = []; break; }
        const m = this.queue.shift();
        this.show(m);
      }
    } finally { this.pumping = false; }
  },
  show(m) {
    const before = this.frame;
    this.frame = m; this.selected = []; this.receivedAt = Date.now();
    this.deadlineAt = m.deadline != null ? Date.now() + m.deadline * 1000 : null;
    this.render();
    this.tell(before, m);
    const v = m.view, b = before && before.view;
    const taken = b && b.deal_number === v.deal_number && !normTrick(v.trick) && normTrick(v.last_trick) && normTrick(b.trick);
    this.holdUntil = taken ? Date.now() + 1300 : 0;
    if (this.seenDeal !== null && v.deal_number > this.seenDeal && (v.last_deal || m.finished_deal) && !m.table.over) this.showLastDeal();
    if (m.table.over && (!before || !before.table.over)) this.showOver();
    this.seenDeal = v.deal_number;
  },
  // a refusal in the player's language: the code's words, and the engine's reason as the
  // catalogue words it
  async refused(m) {
    const head = has("err." + m.code) ? t("err." + m.code) : t("error");
    let why = "";
    if (m.code === "illegal") {
      try { why = (await api("/api/reason", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: m.message }) }))[LANG]; }
      catch (e) { why = m.message; }
    }
    const msg = why ? `${head}: ${why}` : head;
    toast(msg); announce(msg);
  },
  // what changed, in words: the live region, the toasts for events
  tell(before, f) {
    const v = f.view, n = f.table.seats.length, msgs = [], heard = [];
    if (before && before.view.deal_number === v.deal_number) {
      const desc = descOf(f.table.game);
      if (desc.bids) {
        const a = before.view[desc.bids] || [], b = v[desc.bids] || [];
        for (const [s, act] of b.slice(a.length)) msgs.push(t("played", { who: seatName(s), card: actionText(act) }));
      }
      const tb = normTrick(before.view.trick), ta = normTrick(v.trick);
      const had = tb ? tb.cards.length : 0;
      if (ta && ta.cards.length > had) {
        const ss = trickSeats(ta, n);
        for (let k = had; k < ta.cards.length; k++) msgs.push(t("played", { who: seatName(ss[k]), card: ta.cards[k] === null ? t("face_down") : ctext(ta.cards[k]) }));
      }
      if ((v.tricks_played || 0) > (before.view.tricks_played || 0) || (v.last_trick && !before.view.last_trick)) {
        const lt = normTrick(v.last_trick);
        if (lt) { const ss = trickSeats(lt, n); for (let k = tb ? tb.cards.length : 0; k < lt.cards.length; k++) msgs.push(t("played", { who: seatName(ss[k]), card: lt.cards[k] === null ? t("face_down") : ctext(lt.cards[k]) })); }
        if (v.last_trick_winner != null) msgs.push(t("trick_won_by", { who: seatName(v.last_trick_winner) }));
        heard.push("trick");
      }
    }
    if (before && (v.deal_number > before.view.deal_number || (f.table.over && !before.table.over))) heard.push("deal");
    const sp = f.table.standin_played;
    if (sp && (!this.lastStandin || this.lastStandin < sp.version) && before) {
      const m = sp.seat === f.seat ? t("bot_played_for_you") : t("bot_played_for", { who: seatName(sp.seat) });
      toast(m); msgs.push(m);
    }
    if (sp) this.lastStandin = sp.version;
    if (v.to_act === f.seat && f.legal.length && (!before || before.view.to_act !== f.seat || before.version !== f.version)) {
      if (!before || before.view.to_act !== f.seat) { msgs.push(t("your_turn")); heard.push("turn"); }
    }
    announce(msgs.join(". "));
    sounds(heard);
  },
  render() {
    if (current !== this || !this.frame) return;
    const f = this.frame, v = f.view;
    const focus = this.focusKey();
    $("#title").textContent = (f.table.rated ? `${t("clubs.rated")} · ` : "") + f.table.name[LANG];   // first: a phone cuts the end
    const sheetBtn = `<button data-tool="sheet">${esc(t("sheet"))}</button>`;
    const canClaim = f.legal.some((e) => "claim" in e.action);
    const host = Keys.host(f.table.id);
    $("#app").innerHTML = `
    <section class="table" aria-label="${esc(t("table_label"))}">
      <div class="tablemain">
      ${tableHTML(f, { live: true })}
      ${this.hint(f)}
      <div class="controls" id="controls" role="group" aria-label="${esc(t("controls_label"))}"></div>
      <div class="hand" id="hand" role="group" aria-label="${esc(t("hand_label"))}"></div>
      </div>
      <div class="tableside">
      <div class="toolbar">
        <button data-tool="last">${esc(t("last_trick"))}</button>${sheetBtn}
        <button data-tool="deal" ${v.last_deal || f.finished_deal ? "" : "disabled"}>${esc(t("last_deal"))}</button>
        <button data-tool="rules">${esc(t("rules"))}</button>
        ${host && host.host ? `<button data-tool="host">${esc(t("host"))}</button>` : ""}
        ${canClaim ? `<button data-tool="claim" class="claimbtn">${esc(t("claim"))}</button>` : ""}
        ${this.canHint(f) ? `<button data-tool="hint" class="hintbtn" aria-controls="coach" aria-expanded="${this.coachShown(f)}">${esc(t("coach.hint_button"))}</button>` : ""}
        ${f.table.over ? `<a class="button" href="/api/tables/${esc(f.table.id)}/record" download>${esc(t("download"))}</a><a class="button" href="/replay?table=${esc(f.table.id)}">${esc(t("replay"))}</a>` : ""}
      </div>
      ${this.coachHTML(f)}
      ${window.Practice ? Practice.panelHTML(this, f) : ""}
      <details class="info" id="info"><summary>${esc(t("details"))}</summary>${infoHTML(v, f.table.game, f.table.seats.length)}</details>
      </div>
    </section>`;
    this.renderHand(); this.renderControls(); this.markSuggested(); this.tick();
    if (window.Practice) Practice.bind(this, f);
    const shut = $("#coach [data-coach-close]");
    if (shut) shut.addEventListener("click", () => { this.coach = null; this.render(); const b = $('[data-tool="hint"]'); if (b) b.focus(); });
    $$(".toolbar [data-tool]").forEach((b) => b.addEventListener("click", () => this.tool(b.dataset.tool)));
    this.restoreFocus(focus);
  },
  focusKey() {
    const a = document.activeElement;
    if (!a || a === document.body) return { where: "none" };
    if (a.closest("#hand")) return { where: "hand", code: a.dataset.code };
    if (a.closest("#controls")) return { where: "controls", act: a.dataset.act, id: a.id };
    if (a.closest(".toolbar")) return { where: "tool", tool: a.dataset.tool };
    return { where: "other" };
  },
  restoreFocus(k) {
    if (!$("#overlay").hidden) return;
    const ok = (sel) => $(sel + ":not(:disabled)");
    const any = () => ok("#hand .card.legal") || ok("#controls button");
    let el = null;
    if (k.where === "hand") el = (k.code && ok(`#hand .card[data-code="${k.code}"]`)) || any() || ok("#hand .card");
    else if (k.where === "controls") el = (k.act && ok(`#controls [data-act='${k.act}']`)) || (k.id && ok("#" + k.id)) || any();
    else if (k.where === "tool") el = ok(`.toolbar [data-tool="${k.tool}"]`);
    else if (k.where === "none" && this.frame.legal.length && this.frame.view.to_act === this.frame.seat) el = any();
    if (el) el.focus({ preventScroll: true });
  },
  afterDialog() { this.restoreFocus({ where: "none" }); },
  hint(f) {
    const key = `hint.${f.table.game}.${f.view.phase}`;
    return f.legal.length && has(key) ? `<p class="hint">${esc(t(key))}</p>` : "";
  },
  tick() {
    clearInterval(this.clock);
    const f = this.frame;
    const upd = () => {
      const el = $("#clock");
      if (el) {
        const left = this.deadlineAt ? Math.max(0, Math.ceil((this.deadlineAt - Date.now()) / 1000)) : null;
        el.textContent = left === null ? "" : (f.view.to_act === f.seat ? t("clock_you", { n: left }) : t("clock", { n: left }));
        el.classList.toggle("urgent", left !== null && left <= 10);
        Sound.clock(left, f.view.to_act === f.seat && f.legal.length > 0, this.deadlineAt);
      }
      const since = (Date.now() - this.receivedAt) / 1000;
      const drops = (f.table.drop_in || []).map((x, s) => (x === null ? null : [s, Math.max(0, Math.ceil(x - since))])).filter(Boolean);
      const dl = $("#drops");
      if (dl) dl.textContent = drops.map(([s, n]) => t("dropped", { who: seatName(s), n })).join(" · ");
      for (const [s, n] of drops) { const b = $(`.seatbadge[data-seat="${s}"] .drop`); if (b) b.textContent = t("sec", { n }); }
    };
    upd();
    if (this.deadlineAt || (f.table.drop_in || []).some((x) => x !== null)) this.clock = setInterval(upd, 500);
  },
  legalByCard() {
    const plays = new Map(), discards = new Map(); let discardN = 0;
    for (const e of this.frame.legal) {
      const a = e.action;
      if ("play" in a) { if (!plays.has(a.play)) plays.set(a.play, []); plays.get(a.play).push(e); }
      else if ("discard" in a) {
        discardN = a.discard.length;
        for (const c of a.discard) { if (!discards.has(c)) discards.set(c, []); discards.get(c).push(e); }
      }
    }
    return { plays, discards, discardN };
  },
  renderHand() {
    const f = this.frame; const { plays, discards } = this.legalByCard();
    const active = plays.size || discards.size;
    $("#hand").style.setProperty("--n", Math.max(f.hand.length, 6));
    // a hand dealt but not yet to be looked at (by the game's rule): its backs, counted
    const unseen = !f.hand.length && f.seat !== null && f.seat !== undefined ? ((f.view.hand_sizes || [])[f.seat] || 0) : 0;
    if (unseen) {
      $("#hand").style.setProperty("--n", Math.max(unseen, 6));
      $("#hand").innerHTML = `<div class="unseen" role="img" aria-label="${esc(t("hand_unseen", { n: unseen }))}">${Array.from({ length: unseen }, () => `<span class="card back">${cardSVG(null)}</span>`).join("")}</div><p class="unseen-note" aria-hidden="true">${esc(t("hand_unseen", { n: unseen }))}</p>`;
      return;
    }
    $("#hand").innerHTML = f.hand.map((c) => {
      const legal = plays.has(c) || discards.has(c);
      const sel = this.selected.includes(c);
      return `<button class="card ${active ? (legal ? "legal" : "dim") : ""} ${sel ? "sel" : ""}" data-code="${esc(c)}" ${active && !legal ? "disabled" : ""} aria-pressed="${discards.size ? sel : "false"}" aria-label="${esc(ctext(c))}">${cardSVG(c)}</button>`;
    }).join("");
    $$("#hand .card.legal").forEach((b) => b.addEventListener("click", () => this.pick(b.dataset.code)));
    $("#hand").onkeydown = (e) => {
      if (e.key !== "ArrowLeft" && e.key !== "ArrowRight" && e.key !== "Home" && e.key !== "End") return;
      const cards = $$("#hand .card:not(:disabled)"); const i = cards.indexOf(document.activeElement);
      const j = e.key === "Home" ? 0 : e.key === "End" ? cards.length - 1 : Math.max(0, Math.min(cards.length - 1, i + (e.key === "ArrowLeft" ? -1 : 1)));
      if (cards[j]) { cards[j].focus(); e.preventDefault(); }
    };
  },
  pick(c) {
    const { plays, discards, discardN } = this.legalByCard();
    if (plays.has(c)) return this.choose(plays.get(c));
    if (!discards.has(c)) return;
    const i = this.selected.indexOf(c);
    if (i >= 0) this.selected.splice(i, 1);
    else if (this.selected.length < discardN) this.selected.push(c);
    else if (discardN === 1) this.selected = [c];
    this.renderHand(); this.renderControls();
    const el = $(`#hand .card[data-code="${c}"]`); if (el) el.focus();
  },
  choose(entries) {
    if (entries.length === 1) return this.act(entries[0].action);
    dialog(`<h3>${esc(t("choose"))}</h3><div class="choices">${entries.map((e, i) => `<button data-i="${i}">${esc(actionText(e.action))}</button>`).join("")}</div>`);
    $$("#dialog-body [data-i]").forEach((b) => b.addEventListener("click", () => { closeDialog(); this.act(entries[+b.dataset.i].action); }));
  },
  // every irreversible choice the descriptor names is confirmed in the page first
  act(action) {
    const desc = descOf(this.frame.table.game), kind = kindOf(action);
    const skip = kind === "redeclare" && action.redeclare === "none";
    if (!desc.confirm.includes(kind) || skip) return this.send(action);
    let body;
    if (kind === "discard") body = t("confirm_discard", { cards: action.discard.map(ctext).join(" ") });
    else if (kind === "adjutant") body = t("confirm_adjutant", { card: ctext(action.adjutant) });
    else if (kind === "approve") body = t(action.approve ? "confirm_approve" : "confirm_reject");
    else body = t("confirm_action", { label: actionText(action) });
    const cards = kind === "discard" ? action.discard : kind === "adjutant" ? [action.adjutant] : [];
    confirmIn(t("confirm_title"), `<p>${esc(body)}</p>${cards.length ? `<div class="trickrow">${cards.map((c) => `<div class="mini">${cardSVG(c)}</div>`).join("")}</div>` : ""}`,
      actionText(action), () => this.send(action));
  },
  renderControls() {
    const f = this.frame, v = f.view, el = $("#controls"), desc = descOf(f.table.game);
    const others = f.legal.filter((e) => !("play" in e.action) && !("discard" in e.action) && !("claim" in e.action));
    const { discardN } = this.legalByCard();
    let html = "";
    // the high bidder, asked again, stands or raises
    const bids = desc.bids ? (v[desc.bids] || []) : [];
    const high = [...bids].reverse().find(([, a]) => "bid" in a && a.bid !== "pass");
    const holding = high && high[0] === f.seat && v.phase === "bidding" && f.legal.length;
    if (holding) html += `<p class="standraise" role="status">${t("stand_or_raise", { bid: bidHTML(high[1].bid) })}</p>`;
    const bidEntries = others.filter((e) => "bid" in e.action && e.action.bid !== "pass");
    if (bidEntries.length) {
      const counts = [...new Set(bidEntries.map((e) => parseInt(e.action.bid, 10)))].sort((a, b) => a - b);
      const order = desc.strains;
      const strains = [...new Set(bidEntries.map((e) => e.action.bid.slice(-1)))].sort((a, b) => order.indexOf(a) - order.indexOf(b));
      const have = new Set(bidEntries.map((e) => e.action.bid));
      html += `<div class="bidgrid" style="--cols:${strains.length + 1}"><span></span>${strains.map((s) => `<span class="sh">${s === "N" ? esc(t("nt")) : suitHTML(s)}</span>`).join("")}` +
        counts.map((c) => `<span class="ch">${c}</span>` + strains.map((s) => have.has(`${c}${s}`) ? `<button data-act='${esc(JSON.stringify({ bid: `${c}${s}` }))}' class="bid" aria-label="${esc(bidText(`${c}${s}`))}">${c}<span class="st">${s === "N" ? esc(t("nt")) : suitHTML(s)}</span></button>` : `<span></span>`).join("")).join("") + `</div>`;
    }
    const rest = others.filter((e) => !bidEntries.includes(e));
    const cardValued = rest.filter((e) => isCard(Object.values(e.action)[0]));
    if (cardValued.length > 6) {   // a card to name (the adjutant): a grid by suit
      const bySuit = {};
      for (const e of cardValued) { const c = Object.values(e.action)[0]; (bySuit[c === "JK" ? "J" : c[1]] ||= []).push(e); }
      html += `<div class="cardpick">${Object.entries(bySuit).map(([s, es]) => `<div class="pickrow">${es.map((e) => `<button data-act='${esc(JSON.stringify(e.action))}' class="pick" aria-label="${esc(actionText(e.action))}">${cardHTML(Object.values(e.action)[0])}</button>`).join("")}</div>`).join("")}</div>`;
    }
    const buttons = rest.filter((e) => !(cardValued.length > 6 && cardValued.includes(e)));
    if (buttons.length) html += `<div class="buttons">${buttons.map((e) => `<button data-act='${esc(JSON.stringify(e.action))}' class="${"bid" in e.action && e.action.bid === "pass" ? "pass" : ""}">${holding && "bid" in e.action && e.action.bid === "pass" ? t("stand", { bid: bidHTML(high[1].bid) }) : esc(actionText(e.action))}</button>`).join("")}</div>`;
    if (discardN) html += `<div class="buttons"><span>${esc(t("select_n", { n: discardN, k: this.selected.length }))}</span><button id="discard" class="primary" ${this.selected.length === discardN ? "" : "disabled"}>${esc(t("ok"))}</button></div>`;
    el.innerHTML = html;
    $$("#controls [data-act]").forEach((b) => b.addEventListener("click", () => this.act(JSON.parse(b.dataset.act))));
    const d = $("#discard");
    if (d) d.addEventListener("click", () => {
      const want = [...this.selected].sort().join(" ");
      const e = f.legal.find((x) => "discard" in x.action && [...x.action.discard].sort().join(" ") === want);
      if (e) this.act(e.action);
    });
  },
  claim() {
    const f = this.frame, desc = descOf(f.table.game);
    const rule = desc.claim_option ? f.table.options[desc.claim_option] : null;
    const cost = rule && has(`claim_cost.${rule}`) ? `<p class="warn">${esc(t(`claim_cost.${rule}`))}</p>` : "";
    confirmIn(t("claim_title"), `<p>${esc(t("claim_explain"))}</p>${cost}`, t("claim_do"), () => this.send({ claim: true }), "danger");
  },
  tool(k) {
    const f = this.frame, v = f.view, n = f.table.seats.length;
    if (k === "last") {
      const tr = v.last_trick;
      dialog(`<h3>${esc(t("last_trick"))}</h3>` + (tr ? trickCardsHTML(tr, n) + (v.last_trick_winner != null ? `<p>${esc(t("trick_won_by", { who: seatName(v.last_trick_winner) }))}</p>` : "") : `<p>${esc(t("no_trick"))}</p>`));
    } else if (k === "sheet") dialogLater((words) => sheetHTML(f.sheet, f.table.game, v, n, words), this.withSentences(f.sheet), "wide");
    else if (k === "deal") this.showLastDeal();
    else if (k === "rules") dialog(rulesHTML(f.table.game));
    else if (k === "claim") this.claim();
    else if (k === "host") Host.open(f.table.id);
    else if (k === "hint") this.askHint();
  },
  // -- the coach: a hint at your turn (it shows, it never plays) ------------------------------
  canHint(f) {
    return this.coachOn && !!this.token && f.seat !== null && f.seat !== undefined && !f.table.over
      && f.view.to_act === f.seat && f.legal.length > 0;
  },
  coachShown(f) { return !!(this.coach && this.coach.version === f.version); },
  async askHint() {
    const f = this.frame, version = f.version;
    if (this.coach && this.coach.version === version && this.coach.state !== "error") {
      const p = $("#coach"); if (p) p.scrollIntoView({ block: "nearest" });
      if (this.coach.state === "done") announce(this.coachWords(this.coach.data));
      return;
    }
    this.coach = { version, state: "wait" }; this.render(); announce(t("coach.thinking"));
    let state;
    try {
      const data = await api(`/api/tables/${encodeURIComponent(this.id)}/hint`, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token: this.token, lang: LANG, version, seat: f.seat }) });
      state = { version, state: "done", data };
    } catch (e) { state = { version, state: "error", message: e.message }; }
    if (current !== this || !this.coach || this.coach.version !== version) return;
    this.coach = state; this.render();
    announce(state.state === "done" ? this.coachWords(state.data) : `${t("coach.failed")}: ${state.message}`);
  },
  coachWords(d) { return `${t("coach.suggest", { action: actionText(d.hint.action) })}. ${d.reasons[LANG] || d.hint.reason}`; },
  coachHTML(f) {
    if (!this.coachShown(f)) return "";
    const c = this.coach;
    let body;
    if (c.state === "wait") body = `<p class="thinking">${esc(t("coach.thinking"))}</p>`;
    else if (c.state === "error") body = `<p class="warn">${esc(t("coach.failed"))}: ${esc(c.message)}</p>`;
    else {
      const h = c.data.hint, alts = h.alternatives || [];
      const pct = (x) => Math.round(100 * x);
      const altWhy = (o) => o.make_share !== null && o.make_share !== undefined ? t("coach.alt_makes", { pct: pct(o.make_share) })
        : o.best_share !== null && o.best_share !== undefined ? t("coach.alt_best", { pct: pct(o.best_share) })
          : o.score !== null && o.score !== undefined ? t("coach.alt_score", { score: o.score.toFixed(1) }) : "";
      body = `<p class="suggest" id="coach-suggest">${esc(t("coach.suggest", { action: "" }))}<b>${esc(actionText(h.action))}</b></p>
        <p class="reason">${esc(c.data.reasons[LANG] || h.reason)}</p>
        ${alts.length ? `<h4>${esc(t("coach.alternatives"))}</h4><ul class="alts">${alts.map((o) => `<li><b>${esc(actionText(o.action))}</b> <small>${esc(altWhy(o))}</small></li>`).join("")}</ul>` : ""}
        <p class="muted yours">${esc(t("coach.yours"))}</p>`;
    }
    return `<section class="coach" id="coach" aria-labelledby="coach-h" aria-busy="${c.state === "wait"}"><h3 id="coach-h">${esc(t("coach.hint"))}</h3>
      <button class="shut" data-coach-close aria-label="${esc(t("coach.close"))}" title="${esc(t("coach.close"))}">×</button>${body}</section>`;
  },
  // the suggested card or button stands out; nothing is chosen for the player
  markSuggested() {
    const f = this.frame;
    if (!this.coachShown(f) || this.coach.state !== "done") return;
    const a = this.coach.data.hint.action;
    const canon = (x) => JSON.stringify(x, Object.keys(x).sort());
    let els = [];
    if ("play" in a) els = $$("#hand .card").filter((b) => b.dataset.code === a.play);
    else if ("discard" in a) els = $$("#hand .card").filter((b) => a.discard.includes(b.dataset.code));
    else els = $$("#controls [data-act]").filter((b) => { try { return canon(JSON.parse(b.dataset.act)) === canon(a); } catch (e) { return false; } });
    for (const el of els) { el.classList.add("suggested"); el.setAttribute("aria-describedby", "coach-suggest"); }
  },
  lastDeal() {
    const f = this.frame, v = f.view;
    if (!v.last_deal && !f.finished_deal) return null;
    const d = Object.assign({}, v.last_deal || (f.finished_deal && f.sheet[f.finished_deal.deal]) || {});
    if (!d.hands && f.finished_deal) { d.hands = f.finished_deal.hands; if (!("rest" in d)) d.rest = f.finished_deal.rest; }
    return d;
  },
  async withSentences(deals) { return Results.get(this.frame.table.game, deals, this.frame.table.seats.map((s) => s.name)); },
  showLastDeal() {
    const d = this.lastDeal(); if (!d) return;
    const f = this.frame;
    dialogLater((words) => `<h3>${esc(t("deal_result", { n: f.view.deal_number }))}</h3>` +
      dealResultHTML(Object.assign({}, d, { sentences: words && words[0] }), f.table.game, f.view, f.table.seats.length) +
      `<p class="links">${reviewButton(f.table.id, null)} ${this.marksLink(f)}</p>`,
    this.withSentences([d]), "wide");
  },
  // the deal just played, replayed with the review's marks on each card (in a new tab: the
  // table goes on here)
  marksLink(f) {
    const deal = f.finished_deal ? f.finished_deal.deal : f.view.deal_number - 1;
    if (deal < 0) return "";
    return `<a class="button" id="replay-marks" target="_blank" rel="noopener" href="/replay?table=${encodeURIComponent(f.table.id)}&finished=1&deal=${deal}&marks=1">${esc(t("coach.replay_marks"))}</a>`;
  },
  showOver() {
    const f = this.frame, v = f.view, n = f.table.seats.length, desc = descOf(f.table.game);
    const units = unitsOf(desc, v, n);
    const w = f.table.winners || [];
    const who = w.map((u) => unitName(units, u)).join(t("and"));
    const last = this.lastDeal();
    const words = Promise.all([this.withSentences(f.sheet), last ? this.withSentences([last]) : Promise.resolve([null])]);
    dialogLater((ws) => `<h3>${esc(t("match_over"))}</h3><p class="winner">${esc(!w.length ? t("match_draw") : w.length > 1 || (units[w[0]] || []).length > 1 ? t("match_winners", { who }) : t("match_winner", { who }))}</p>` +
      sheetHTML(f.sheet, f.table.game, v, n, ws && ws[0]) +
      (last ? `<h4>${esc(t("last_deal"))}</h4>` + dealResultHTML(Object.assign({}, last, { sentences: ws && ws[1][0] }), f.table.game, v, n) : "") +
      `<p class="links"><a class="button" href="/api/tables/${esc(f.table.id)}/record" download>${esc(t("download"))}</a> <a class="button primary" href="/replay?table=${esc(f.table.id)}">${esc(t("replay"))}</a> ${last ? reviewButton(f.table.id, null) : ""}</p>`, words, "wide");
  },
};

// -- drawing the table (the live table and the replay viewer alike) ---------------------------
function tableHTML(f, opts) {
  const v = f.view, game = f.table.game, desc = descOf(game), n = f.table.seats.length;
  const me = f.seat ?? 0, dir = desc.direction;
  const units = unitsOf(desc, v, n);
  const pos = (s) => {
    const r = (s - me + n) % n;
    const ang = (Math.PI / 2) + (dir === "cw" ? 1 : -1) * r * 2 * Math.PI / n;
    return [Math.cos(ang), Math.sin(ang)];
  };
  const live = normTrick(v.trick), trick = live || normTrick(v.last_trick);
  const tss = trick ? trickSeats(trick, n) : [];
  // bids as bubbles while bidding: each seat's last word
  const bubble = {};
  if (desc.bids && v.phase === "bidding") for (const [s, a] of v[desc.bids] || []) bubble[s] = a;
  const roleField = desc.seat_roles.length ? desc.seat_roles[0][0] : null;
  const seatsHTML = f.table.seats.map((s, i) => {
    const [x, y] = pos(i);
    const roles = desc.seat_roles.filter(([fld]) => v[fld] === i).map(([, r]) => t("role." + r));
    if (desc.partner_role && roleField && v[roleField] != null && v[roleField] !== i && unitOf(units, v[roleField]) === unitOf(units, i) && unitOf(units, i) >= 0) roles.push(t("role." + desc.partner_role));
    for (const [fld, r] of desc.unit_roles) if (v[fld] !== null && v[fld] !== undefined && units[v[fld]] && units[v[fld]].includes(i)) roles.push(t("role." + r));
    const stats = desc.stats.filter((st) => st.per === "seat" && Array.isArray(v[st.field])).map((st) => statHTML(st, v[st.field][i]));
    const away = s.kind === "human" && !s.connected;
    const status = s.kind === "bot" ? `${t("bot")} · ${t("bots." + s.bot)}` : s.standin ? t("standin") : s.connected ? t("connected") : t("disconnected");
    const drop = f.table.drop_in && f.table.drop_in[i] !== null && f.table.drop_in[i] !== undefined;
    // a seat role that already names the trick's leader (third element "leads") needs no mark
    const leads = trick && trick.leader === i && live && !desc.seat_roles.some(([fld, , kind]) => kind === "leads" && v[fld] === i);
    const u = unitOf(units, i);
    const cls = ["seatbadge", v.to_act === i ? "act" : "", f.seat === i ? "me" : "", away ? "away" : "", units.length < n && u >= 0 ? "u" + (u % 3) : ""].join(" ");
    return `<div class="${cls}" data-seat="${i}" style="left:calc(50% + ${x.toFixed(3)} * var(--rx));top:calc(50% + ${y.toFixed(3)} * var(--ry))">
      <b class="nm">${esc(s.name)}${f.seat === i && opts.live ? ` (${esc(t("you"))})` : ""}</b>
      ${roles.length ? `<span class="roles">${roles.map((r) => `<i class="role">${esc(r)}</i>`).join("")}</span>` : ""}
      ${leads ? `<i class="role lead">${esc(t("leader_mark"))}</i>` : ""}
      <small>${s.kind === "replay" ? "" : `<i class="dot ${s.kind === "bot" || s.connected ? "on" : ""}" aria-hidden="true"></i>${esc(status)}${drop ? ` <b class="drop"></b>` : ""} · `}<span class="nw">${esc(t("cards", { n: (v.hand_sizes || [])[i] ?? 0 }))}</span></small>
      ${stats.join("")}
      ${i in bubble ? `<span class="bubble ${"bid" in bubble[i] && bubble[i].bid === "pass" ? "passb" : ""}">${"bid" in bubble[i] ? bidHTML(bubble[i].bid) : esc(actionText(bubble[i]))}</span>` : ""}
    </div>`;
  }).join("");
  const prevKey = opts.live && Table.prevTrick ? Table.prevTrick : "";
  const played = v.tricks_played ?? (v.tricks || []).length;
  const key = trick ? `${v.deal_number}:${live ? played : played - 1}:${trick.leader}` : "";
  const seenCards = key && prevKey.startsWith(key + "|") ? +prevKey.split("|")[1] : 0;
  if (opts.live) Table.prevTrick = trick ? `${key}|${trick.cards.length}` : "";
  const winnerPos = !live && v.last_trick_winner != null ? pos(v.last_trick_winner) : null;
  const goneKey = winnerPos ? `${v.deal_number}:${played}` : "";
  const goneBefore = opts.live && goneKey && Table.goneKey === goneKey;
  if (opts.live) Table.goneKey = goneKey;
  const trickHTML = trick ? trick.cards.map((c, k) => {
    const [x, y] = pos(tss[k]);
    const fresh = opts.live && k >= seenCards;
    const mv = winnerPos ? `--tx:${(50 + winnerPos[0] * 41).toFixed(1)}%;--ty:${(50 + winnerPos[1] * 40).toFixed(1)}%;` : "";
    const cls = ["tcard", live ? "" : "done", fresh ? "enter" : "", trick.leader === tss[k] ? "led" : "", opts.live && winnerPos ? (goneBefore ? "gone" : "going") : ""].join(" ");
    return `<div class="${cls}" data-code="${esc(c ?? "")}" data-seat="${tss[k]}" role="img" aria-label="${esc(t("played", { who: seatName(tss[k]), card: c === null ? t("face_down") : ctext(c) }))}"
      style="left:calc(50% + ${x.toFixed(3)} * var(--tsx));top:calc(50% + ${y.toFixed(3)} * var(--tsy));z-index:${k + 1};--sx:${(50 + x * 41).toFixed(1)}%;--sy:${(50 + y * 40).toFixed(1)}%;${mv}">${cardSVG(c)}</div>`;
  }).join("") : "";
  return `
    <div class="status" role="status">
      <span class="turn">${turnHTML(f)}</span><span class="clock" id="clock"></span>
      <span class="who">${f.seat === null || f.seat === undefined ? (opts.live ? esc(t("spectator")) : "") : ""}${f.table.spectators ? ` · ${esc(t("spectators", { n: f.table.spectators }))}` : ""}</span>
      <span class="drops" id="drops"></span>
      ${headlineHTML(f)}
    </div>
    <div class="felt" id="felt">${seatsHTML}<div class="trickzone" role="group" aria-label="${esc(t("trick"))}">${trickHTML}</div></div>
    ${scoreboardHTML(f, units)}`;
}
function turnHTML(f) {
  const v = f.view;
  if (f.table.over) return esc(t("match_over"));
  if (v.to_act === null || v.to_act === undefined) return "";
  if (v.to_act === f.seat && f.legal && f.legal.length) return `<b class="yourturn">${esc(t("your_turn"))}</b>`;
  const key = has("turn." + v.phase) ? "turn." + v.phase : "turn.other";
  return esc(t(key, { who: seatName(v.to_act) }));
}
function headlineHTML(f) {
  const v = f.view, desc = descOf(f.table.game);
  const chips = [`<span class="chip deal">${esc(t("deal_n", { n: v.deal_number + 1 }))}</span>`];
  for (const k of desc.headline) {
    const x = v[k];
    if (x === null || x === undefined || (Array.isArray(x) && !x.length)) continue;
    const g = gameOf(f.table.game), own = g && g.terms[k];   // the game's own word first
    const label = own ? own[LANG] : has("field." + k) ? t("field." + k) : term(f.table.game, k);
    const Label = label.charAt(0).toUpperCase() + label.slice(1);
    const val = k === "joker_request" ? esc(requestText(x)) : valueHTML(x, f.table.game, f.table.seats.length, k);
    chips.push(`<span class="chip" data-field="${esc(k)}">${esc(Label)}: <b>${val}</b></span>`);
  }
  return `<div class="headline">${chips.join("")}</div>`;
}
function statHTML(st, x) {
  if (x === null || x === undefined) return "";
  if (st.show === "tricks") return `<small class="stat">${esc(t("tricks_won", { n: Array.isArray(x) ? x.length : x }))}</small>`;
  const cards = Array.isArray(x) ? x : [];
  return `<span class="stat facecards" title="${esc(t("face_cards_n", { n: cards.length }))}"><small>${esc(t("face_cards_n", { n: cards.length }))}</small>${cards.length ? `<span class="fc">${cards.map((c) => cardHTML(c)).join(" ")}</span>` : ""}</span>`;
}
function scoreboardHTML(f, units) {
  const v = f.view, desc = descOf(f.table.game);
  const unitStats = desc.stats.filter((st) => st.per === "unit" && Array.isArray(v[st.field]));
  return `<div class="scoreboard">${units.map((u, i) => {
    const mine = u.includes(f.seat);
    const role = desc.unit_roles.filter(([fld]) => v[fld] === i).map(([, r]) => t("role." + r));
    return `<div class="unit ${mine ? "mine" : ""} ${units.length < f.table.seats.length ? "u" + (i % 3) : ""}"><span class="un">${esc(unitName(units, i))}</span> <b class="tot">${fmtTotal((v.totals || [])[i])}</b>
      ${role.length ? `<i class="role">${esc(role.join(" · "))}</i>` : ""}${unitStats.map((st) => statHTML(st, v[st.field][i])).join("")}</div>`;
  }).join("")}</div>`;
}
function infoHTML(v, game, n) {
  const skip = new Set(["game", "seat", "hand", "legal_actions", "attempts", "last_deal"]);
  const rows = Object.keys(v).filter((k) => !skip.has(k)).map((k) =>
    `<tr data-field="${esc(k)}"><th>${esc(term(game, k))}</th><td>${valueHTML(v[k], game, n, k)}</td></tr>`).join("");
  return `<table class="kv">${rows}</table>`;
}
function trickCardsHTML(tr, n) {
  tr = normTrick(tr); if (!tr) return "";
  const ss = trickSeats(tr, n);
  return `<div class="trickrow">${tr.cards.map((c, i) => `<div class="mini ${tr.winner === ss[i] ? "won" : ""}"><small>${esc(seatName(ss[i]))}</small>${cardSVG(c)}</div>`).join("")}</div>`;
}
function handsHTML(hands, only) {
  return hands.map((h, s) => `<div class="handrow"><span>${esc(seatName(s))}</span><span class="minis">${(only === undefined || only === null || only === s) ? h.map((c) => `<span class="mini" data-code="${esc(c)}">${cardSVG(c)}</span>`).join("") : esc(t("cards", { n: h.length }))}</span></div>`).join("");
}
// a deal's result: the sentences the server gives (shared with the terminal) where it gives them,
// then what each scoring unit got, then the deal's public facts, then every hand face up
function dealResultHTML(d, game, v, n) {
  const desc = descOf(game), units = unitsOf(desc, v, n);
  let html = "";
  const sentences = d.sentences && (d.sentences[LANG] ?? d.sentences);
  if (Array.isArray(sentences) && sentences.length) html += `<div class="sentences">${sentences.map((s) => `<p>${esc(s)}</p>`).join("")}</div>`;
  else html += `<p class="outcome"><b>${esc(has("outcome." + d.outcome) ? t("outcome." + d.outcome) : d.outcome || "")}</b></p>`;
  if (Array.isArray(d.score)) html += `<ul class="scores">${d.score.map((x, i) => `<li>${esc(unitName(units, i))}: <b>${fmtPts(x)}</b></li>`).join("")}</ul>`;
  const rows = Object.entries(d).filter(([k]) => !["hands", "tricks", "score", "outcome", "sentences", "rest"].includes(k)).map(([k, x]) =>
    `<tr><th>${esc(term(game, k))}</th><td>${valueHTML(x, game, n, k)}</td></tr>`).join("");
  html += `<details><summary>${esc(t("details_deal"))}</summary><table class="kv">${rows}</table></details>`;
  if (d.hands) html += `<h4>${esc(t("hands_up"))}</h4>` + handsHTML(d.hands);
  if (d.tricks && d.tricks.length) html += `<details><summary>${esc(t("tricks_count", { n: d.tricks.length }))}</summary>${d.tricks.map((tr) => trickCardsHTML(tr, n)).join("")}</details>`;
  return html;
}
function capital(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
function sheetHTML(sheet, game, v, n, words) {
  const desc = descOf(game), units = unitsOf(desc, v, n);
  const extra = ["contract", "declarer", "napoleon", "trump", "indicator"].filter((k) => sheet.some((d) => k in d));
  return `<h3>${esc(t("sheet"))}</h3><div class="scroll"><table class="sheet"><tr><th>${esc(t("deal"))}</th><th>${esc(t("outcome"))}</th>${extra.map((k) => `<th>${esc(capital(term(game, k)))}</th>`).join("")}${units.map((u, i) => `<th>${esc(unitName(units, i))}</th>`).join("")}</tr>` +
    sheet.map((d, i) => `<tr><td>${i + 1}</td><td class="says">${words && words[i] ? words[i][LANG].map(esc).join("<br>") : esc(has("outcome." + d.outcome) ? t("outcome." + d.outcome) : d.outcome)}</td>${extra.map((k) => `<td>${valueHTML(d[k], game, n, k)}</td>`).join("")}${(d.score || []).map((x) => `<td>${fmtPts(x)}</td>`).join("")}</tr>`).join("") +
    `<tr class="tot"><td colspan="${2 + extra.length}">${esc(t("total"))}</td>${(v.totals || []).map((x) => `<td>${fmtTotal(x)}</td>`).join("")}</tr></table></div>`;
}
function rulesHTML(game) {
  // the rules are the catalogue's own trusted text (it marks the games' terms with <b>)
  return `<h3>${esc(t("rules"))}</h3><ul class="rules">${t("rules." + game).split("\n").map((x) => `<li>${x}</li>`).join("")}</ul>`;
}

// -- the coach's review of a finished deal ----------------------------------------------------
function reviewButton(table, deal) {
  return `<button class="reviewbtn" data-review data-table="${esc(table)}" data-deal="${deal === null ? "" : deal}">${esc(t("coach.review_button"))}</button>`;
}
function unitText(unit, x) {
  const one = Math.abs(x) === 1;
  const u = { tricks: one ? t("coach.unit.tricks.one") : t("coach.unit.tricks"), face_cards: one ? t("coach.unit.face_cards.one") : t("coach.unit.face_cards"),
    points: one ? t("coach.unit.points.one") : t("coach.unit.points"), chips: one ? t("coach.unit.chips.one") : t("coach.unit.chips") }[unit];
  return u ?? String(unit || "");
}
function coachNum(x) { return String(Math.round(x * 100) / 100); }
const Review = {
  cache: new Map(), records: 0,
  get(table, deal) {
    if (!table && !Replay.data.reviewId) Replay.data.reviewId = ++this.records;   // the open record, once
    const key = `${table || "record:" + Replay.data.reviewId}|${deal}|${LANG}`;
    if (!this.cache.has(key)) {
      const q = new URLSearchParams({ lang: LANG }); if (deal !== null) q.set("deal", deal);
      // a table's deal, or (no table) the deal of the record open in the replay viewer
      const p = (table ? api(`/api/tables/${encodeURIComponent(table)}/review?${q}`)
        : api(`/api/review?${q}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: Replay.data.record_text })
          .then((r) => Object.assign({ deal: r.review.deals.length ? r.review.deals[0].deal : deal }, r))).catch((e) => { this.cache.delete(key); return { error: e.message }; });
      this.cache.set(key, p);
    }
    return this.cache.get(key);
  },
  open(table, deal) {
    announce(t("coach.reviewing"));
    const title = (n) => `<h3>${esc(n ? t("coach.review_title", { n }) : t("coach.review_button"))}</h3>`;
    const later = this.get(table, deal).then((r) => { announce(r.error ? t("coach.review_failed") : t("coach.review_title", { n: r.deal + 1 })); return r; });
    dialogLater((r) => {
      if (!r) return title(deal === null ? null : deal + 1) + `<p class="thinking" role="status">${esc(t("coach.reviewing"))}</p>`;
      if (r.error) return title(deal === null ? null : deal + 1) + `<p class="warn">${esc(t("coach.review_failed"))}: ${esc(r.error)}</p>`;
      return title(r.deal + 1) + reviewHTML(r);
    }, later, "wide review");
  },
};
// one seat's review in words: "North lost 2 tricks: trick 4, trick 7"
function seatSummary(d, s) {
  const who = seatName(s.seat), lines = [];
  const trickList = (ks) => ks.map((n) => t("coach.trick_no", { n })).join(", ");
  if (s.lost > 0) lines.push(t("coach.seat_lost", { who, amount: coachNum(s.lost), unit: unitText(d.unit, s.lost), where: trickList(s.tricks) }));
  if (s.estimated > 0) lines.push(t("coach.seat_estimated", { who, amount: coachNum(s.estimated), unit: unitText(d.unit, s.estimated), where: trickList(s.estimated_tricks) }));
  if (s.decisions >= 0.005) lines.push(t("coach.seat_decisions", { who, amount: coachNum(s.decisions), unit: unitText(d.score_unit, s.decisions) }));
  if (!lines.length) lines.push(t("coach.seat_clean", { who }));
  return lines;
}
// a mark as a badge: the loss ("−1"), a tick for the best play, nothing where nothing was judged
function markBadge(m) {
  if (!m || m.method === "none") return "";
  const est = m.method === "rollouts" || m.method === "sampled", lost = m.loss >= 0.005;
  const words = lost
    ? t("coach.mark_loss", { amount: coachNum(m.loss), unit: unitText(m.unit, m.loss), best: m.best_label || (m.best ? actionText(m.best) : "–") }) + (est ? ` (${t("coach.estimated")})` : "")
    : t("coach.mark_ok");
  return `<span class="mark ${lost ? "loss" : "ok"}${est ? " est" : ""}" title="${esc(words)}" aria-label="${esc(words)}">${lost ? "−" + esc(coachNum(m.loss)) : "✓"}</span>`;
}
function reviewHTML(r) {
  const d = r.review.deals[0];
  if (!d) return `<pre class="reviewtext">${esc(r.text)}</pre>`;
  const seats = d.seats.map((s) => {
    const lines = seatSummary(d, s);
    const costly = d.marks.filter((m) => m.seat === s.seat && m.loss > 0 && m.best);
    const rows = costly.map((m) => `<tr><td>${m.trick === null ? esc(t("coach.choice")) : esc(t("coach.trick_no", { n: m.trick }))}</td>
      <td>${esc(m.label || actionText(m.action))}</td><td>${esc(m.best_label || actionText(m.best))}</td>
      <td>${esc(t("coach.amount", { amount: coachNum(m.loss), unit: unitText(m.unit, m.loss) }))}${m.method === "rollouts" || m.method === "sampled" ? ` <small>(${esc(t("coach.estimated"))})</small>` : ""}</td></tr>`).join("");
    return `<div class="seatreview" data-seat="${s.seat}"><h4>${esc(seatName(s.seat))}</h4>${lines.map((x) => `<p>${esc(x)}</p>`).join("")}
      ${costly.length ? `<div class="scroll"><table class="costly"><caption>${esc(t("coach.costly"))}</caption><tr><th scope="col">${esc(t("coach.col_trick"))}</th><th scope="col">${esc(t("coach.col_card"))}</th><th scope="col">${esc(t("coach.col_best"))}</th><th scope="col">${esc(t("coach.col_loss"))}</th></tr>${rows}</table></div>` : `<p class="muted">${esc(t("coach.none_costly"))}</p>`}</div>`;
  }).join("");
  return `<h4>${esc(t("coach.summary"))}</h4><div class="seatreviews">${seats}</div>
    ${d.positions ? `<p class="muted">${esc(t("coach.exact_share", { solved: d.exact, total: d.positions }))}</p>` : ""}
    <details><summary>${esc(t("coach.full_text"))}</summary><pre class="reviewtext">${esc(r.text)}</pre></details>`;
}

// -- the host -------------------------------------------------------------------------------
const Host = {
  async open(id) {
    const h = Keys.host(id);
    if (!h || !h.host) return;
    let info;
    try { info = await api(`/api/tables/${id}/host`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ host: h.host }) }); }
    catch (e) { toast(e.code ? refusalText(e) : `${t("host_denied")}: ${e.message}`); return; }
    const base = location.origin, links = h.links || [];
    dialog(`<h3>${esc(t("host_title"))}</h3><p>${esc(t("host_help"))}</p><div class="hostseats">${info.seats.map((s) => `
      <div class="hostseat" data-seat="${s.seat}"><b>${esc(s.name)}</b> <small>${esc(s.kind === "bot" ? t("bot") : s.connected ? t("connected") : t("disconnected"))}</small>
      ${s.kind === "human" ? `${links[s.seat] ? `<input readonly class="link" aria-label="${esc(t("invite"))} ${esc(s.name)}" value="${esc(base + links[s.seat])}">` : ""}
        <span class="buttons"><button data-new="${s.seat}">${esc(t("new_link"))}</button><button data-bot="${s.seat}">${esc(t("to_bot"))}</button></span>` : ""}</div>`).join("")}</div>`, "wide");
    $$("#dialog-body [data-new]").forEach((b) => b.addEventListener("click", () => this.newLink(id, +b.dataset.new, info.seats[+b.dataset.new].name)));
    $$("#dialog-body [data-bot]").forEach((b) => b.addEventListener("click", () => {
      const s = +b.dataset.bot, who = info.seats[s].name;
      confirmIn(t("to_bot"), `<p>${esc(t("to_bot_confirm", { who }))}</p>`, t("to_bot"), () => this.toBot(id, s, who));
    }));
  },
  async newLink(id, seat, who) {
    const h = Keys.host(id);
    try {
      const r = await api(`/api/tables/${id}/host/link`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ host: h.host, seat }) });
      const links = (h.links || []).slice(); links[seat] = r.link; Keys.setHost(id, { links });
      const mine = Keys.seat(id);
      if (mine && mine.seat === seat) Keys.setSeat(id, r.token, seat);   // the host's own seat: keep it
      toast(t("link_issued", { who }));
      await this.open(id);
      if (mine && mine.seat === seat && current === Table) { Table.token = r.token; Table.ws.close(); }
    } catch (e) { toast(refusalText(e)); }
  },
  async toBot(id, seat, who) {
    const h = Keys.host(id);
    try {
      await api(`/api/tables/${id}/host/bot`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ host: h.host, seat }) });
      toast(t("seat_to_bot", { who }));
      await this.open(id);
    } catch (e) { toast(refusalText(e)); }
  },
};

// -- the replay viewer: the table, step by step -----------------------------------------------
const Replay = {
  data: null, i: 0, seat: null, marksOn: false,
  async open() {
    current = this; Table.frame = null;
    const q = new URLSearchParams(location.search);
    try {
      this.table = q.get("table");
      // ?finished=1: a match still in play, its deals that are over (the deal just played)
      if (q.get("table")) this.data = await api(`/api/tables/${encodeURIComponent(q.get("table"))}/replay${q.get("finished") ? "/finished" : ""}`);
      else { const s = sessionStorage.getItem("kf:replay"); this.data = s ? JSON.parse(s) : null; }
    } catch (e) { $("#app").innerHTML = `<p class="center">${esc(refusalText(e))}</p>`; return; }
    if (!this.data) { location.href = "/"; return; }
    this.i = 0; this.seat = null;
    // ?deal=N opens at that deal (0-based), ?marks=1 with the review's marks on its cards
    const deal = q.get("deal") === null ? -1 : this.data.steps.findIndex((s) => s.deal === +q.get("deal"));
    if (deal >= 0) this.i = deal;
    this.marksOn = q.get("marks") === "1";
    this.render();
    document.onkeydown = (e) => {
      if (current !== this || e.target.closest("input, select")) return;
      if (e.key === "ArrowRight") this.go(this.i + 1);
      if (e.key === "ArrowLeft") this.go(this.i - 1);
    };
  },
  async upload(file) {
    if (!file) return;
    const text = await file.text();
    try {
      const data = await api("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
      sessionStorage.setItem("kf:replay", JSON.stringify(data));
      history.pushState(null, "", "/replay"); this.open();
    } catch (e) { toast(`${t("refusal.bad_record")} (${e.message})`); }
  },
  go(i) { this.i = Math.max(0, Math.min(this.data.steps.length - 1, i)); this.render(); const s = $("#slider"); if (s) s.focus(); },
  // the totals as they stood at this step: a deal's score counts once its last step is passed
  totalsAt(i) {
    const d = this.data, st = d.steps[i];
    const lastOfDeal = i === d.steps.length - 1 || d.steps[i + 1].deal !== st.deal;
    const deals = d.summary.deals;
    const units = d.units.en.length;
    const tot = Array(units).fill(0);
    for (let k = 0; k < deals.length; k++) {
      if (k > st.deal || (k === st.deal && !lastOfDeal) || deals[k].outcome === "in-progress") continue;
      (deals[k].score || []).forEach((x, u) => { tot[u] += x; });
    }
    return { tot, lastOfDeal };
  },
  // the deal review's marks on each card (like a double-dummy review's button): a badge on the
  // cards of the trick in view and on the step's own decision, then every decision of the deal
  // card by card (each one a step to jump to) and each seat's summary in words
  showMarks(st, d) {
    const box = $("#marksheet"), deal = st.deal, at = this.i;
    box.innerHTML = `<h4 id="marks-h">${esc(t("coach.marks_title"))}</h4><p class="thinking" role="status">${esc(t("coach.reviewing"))}</p>`;
    Review.get(this.table || "", deal).then((r) => {
      if (current !== this || this.i !== at || !this.marksOn || !document.contains(box)) return;
      if (r.error || !r.review.deals[0]) { box.innerHTML = `<h4 id="marks-h">${esc(t("coach.marks_title"))}</h4><p class="warn">${esc(t("coach.review_failed"))}${r.error ? ": " + esc(r.error) : ""}</p>`; return; }
      const rd = r.review.deals[0], n = st.hands.length;
      // the felt: the trick in view, its cards marked by (trick, seat)
      const done = st.view.tricks_played ?? (st.view.tricks || []).length;
      const live = normTrick(st.view.trick), shown = live || normTrick(st.view.last_trick);
      const number = live ? done + 1 : done;
      if (shown) for (const el of $$("#felt .tcard")) {
        const m = rd.marks.find((x) => x.trick === number && x.seat === +el.dataset.seat && (x.kind === "play" || x.kind === "claim"));
        if (m) el.insertAdjacentHTML("beforeend", markBadge(m));
      }
      const here = rd.marks.find((m) => m.index === st.index);
      if (here && st.index >= 0) $("#steplabel").insertAdjacentHTML("beforeend", " " + markBadge(here));
      // every step of the deal, each card under its trick: a card with no choice has no mark
      const byIndex = new Map(rd.marks.map((m) => [m.index, m]));
      const doneAt = (k) => d.steps[k].view.tricks_played ?? (d.steps[k].view.tricks || []).length;
      const rows = new Map(), choices = [];
      d.steps.forEach((s, k) => {
        if (s.deal !== deal || s.index < 0 || !s.action) return;
        const item = { k, s, m: byIndex.get(s.index) };
        if ("play" in s.action) {
          const n = k > 0 && d.steps[k - 1].deal === deal ? doneAt(k - 1) + 1 : 1;
          if (!rows.has(n)) rows.set(n, []);
          rows.get(n).push(item);
        } else if (item.m) choices.push(item);
      });
      const chip = ({ k, s, m }) => {
        const card = s.action.play;
        return `<button class="markchip ${k === this.i ? "now" : ""}" data-step="${k}"><small>${esc(seatName(s.seat))}</small> ${card ? cardHTML(card) : esc((m && m.label) || actionText(s.action))} ${markBadge(m)}</button>`;
      };
      const tricks = [...rows.keys()].sort((a, b) => a - b);
      box.innerHTML = `<h4 id="marks-h">${esc(t("coach.marks_title"))}</h4>
        <div class="marksum">${rd.seats.map((s) => seatSummary(rd, s).map((x) => `<p data-seat="${s.seat}">${esc(x)}</p>`).join("")).join("")}</div>
        ${choices.length ? `<div class="markrow"><span class="mr">${esc(t("coach.choice"))}</span>${choices.map(chip).join("")}</div>` : ""}
        ${tricks.map((k) => `<div class="markrow" data-trick="${k}"><span class="mr">${esc(t("trick_n", { n: k }))}</span>${rows.get(k).map(chip).join("")}</div>`).join("")}
        ${rd.positions ? `<p class="muted">${esc(t("coach.exact_share", { solved: rd.exact, total: rd.positions }))}</p>` : ""}`;
      $$("#marksheet [data-step]").forEach((b) => b.addEventListener("click", () => { if (+b.dataset.step >= 0) this.go(+b.dataset.step); }));
      announce(rd.seats.map((s) => seatSummary(rd, s).join(" ")).join(" "));
    });
  },
  frameAt(i) {
    const d = this.data, st = d.steps[i];
    const view = Object.assign({}, st.view, { hand: [] });
    const { tot } = this.totalsAt(i);
    // a game whose totals start elsewhere (chips) keeps the view's own figures
    if (d.game && st.view.totals && st.view.totals.length === tot.length) view.totals = st.view.totals;
    return { seat: this.seat, view, legal: [], table: { game: d.game, seats: d.players.map((name) => ({ kind: "replay", name })), over: false, spectators: 0 } };
  },
  render() {
    if (current !== this) return;
    const d = this.data, st = d.steps[this.i], n = st.hands.length, game = d.game;
    $("#title").textContent = `${t("replay")} · ${gameOf(game).name[LANG]}`;
    const deals = d.summary.deals, dealSum = deals[st.deal] || {};
    const { lastOfDeal } = this.totalsAt(this.i);
    const f = this.frameAt(this.i);
    const dealStarts = d.steps.map((s, k) => [s, k]).filter(([s, k]) => s.index < 0);
    const done = (x) => x.view.tricks_played ?? (x.view.tricks || []).length;
    const trickStarts = d.steps.map((s, k) => [s, k]).filter(([s, k]) => s.deal === st.deal && k > 0 && d.steps[k - 1].deal === s.deal && done(s) > done(d.steps[k - 1]));
    const seatOpts = `<option value="">${esc(t("hands_face_up"))}</option>` + d.players.map((p, s) => `<option value="${s}" ${this.seat === s ? "selected" : ""}>${esc(t("as_seat_saw", { who: p }))}</option>`).join("");
    $("#app").innerHTML = `<section class="replay table">
      <div class="stepbar"><button data-go="first">« ${esc(t("first"))}</button><button data-go="prev">◀ ${esc(t("prev"))}</button>
        <input type="range" id="slider" aria-label="${esc(t("step"))}" min="0" max="${d.steps.length - 1}" value="${this.i}">
        <button data-go="next">${esc(t("next"))} ▶</button><button data-go="last">${esc(t("last"))} »</button></div>
      <div class="stepbar">
        <label>${esc(t("jump_deal"))} <select id="jdeal">${dealStarts.map(([s, k]) => `<option value="${k}" ${s.deal === st.deal ? "selected" : ""}>${esc(t("deal_n", { n: s.deal + 1 }))}</option>`).join("")}</select></label>
        <label>${esc(t("jump_trick"))} <select id="jtrick"><option value="">–</option>${trickStarts.map(([s, k], j) => `<option value="${k}">${esc(t("trick_n", { n: j + 1 }))}</option>`).join("")}</select></label>
        <select id="jseat" aria-label="${esc(t("hands_face_up"))}">${seatOpts}</select></div>
      <p class="steplabel" id="steplabel"><b>${esc(t("deal_n", { n: st.deal + 1 }))}</b> · ${st.index < 0 ? esc(t("dealt")) : `${esc(t("step"))} ${st.index + 1}: ${esc(seatName(st.seat))} — <b>${esc(st.label[LANG])}</b>`}
        <span class="muted">(${esc(t("step_of", { i: this.i + 1, n: d.steps.length }))})</span></p>
      ${tableHTML(f, { live: false })}
      <div class="hands">${handsHTML(st.hands, this.seat)}</div>
      ${lastOfDeal && dealSum.outcome && dealSum.outcome !== "in-progress" ? `<div class="panel result" data-deal="${st.deal}"><h4>${esc(t("deal_result", { n: st.deal + 1 }))}</h4>${dealResultHTML(Object.assign({}, dealSum, { hands: undefined, tricks: undefined }), game, f.view, n)}</div>` : ""}
      <p class="toolbar"><a class="button" id="dl" download="${esc(game)}-record.json">${esc(t("download"))}</a> <button data-tool="sheet">${esc(t("sheet"))}</button>${dealSum.outcome && dealSum.outcome !== "in-progress" ? ` ${reviewButton(this.table || "", st.deal)} <button id="marks" aria-pressed="${this.marksOn}" aria-controls="marksheet">${esc(t("coach.marks_button"))}</button>` : ""}</p>
      <section class="marksheet" id="marksheet" aria-labelledby="marks-h" ${this.marksOn && dealSum.outcome && dealSum.outcome !== "in-progress" ? "" : "hidden"}></section>
    </section>`;
    if ($("#marks")) $("#marks").addEventListener("click", () => { this.marksOn = !this.marksOn; this.render(); if ($("#marks")) $("#marks").focus(); });
    if (this.marksOn && $("#marks")) this.showMarks(st, d);
    const blob = new Blob([d.record_text], { type: "application/json" });
    $("#dl").href = URL.createObjectURL(blob);
    $$("[data-go]").forEach((b) => b.addEventListener("click", () => {
      const k = b.dataset.go; this.go(k === "first" ? 0 : k === "last" ? d.steps.length - 1 : k === "prev" ? this.i - 1 : this.i + 1);
    }));
    $("#slider").addEventListener("input", (e) => { this.i = +e.target.value; this.render(); $("#slider").focus(); });
    $("#jdeal").addEventListener("change", (e) => this.go(+e.target.value));
    $("#jtrick").addEventListener("change", (e) => { if (e.target.value !== "") this.go(+e.target.value); });
    $("#jseat").addEventListener("change", (e) => { this.seat = e.target.value === "" ? null : +e.target.value; this.render(); });
    const finished = deals.filter((x) => x.outcome !== "in-progress");
    $('[data-tool="sheet"]').addEventListener("click", () => dialogLater((words) =>
      sheetHTML(finished, game, Object.assign({}, f.view, { totals: d.summary.totals }), n, words), Results.get(game, finished, d.players), "wide"));
    const panel = $(".result[data-deal]");
    if (panel) Results.get(game, [dealSum], d.players).then(([w]) => {
      if (!w || !document.contains(panel)) return;
      panel.innerHTML = `<h4>${esc(t("deal_result", { n: st.deal + 1 }))}</h4>` + dealResultHTML(Object.assign({}, dealSum, { hands: undefined, tricks: undefined, sentences: w }), game, f.view, n);
    });
  },
};

// -- start ----------------------------------------------------------------------------------
(async () => {
  Keys.migrate();
  applyPrefs();
  $("#lang").addEventListener("change", (e) => setLang(e.target.value));
  $("#settings").addEventListener("click", openSettings);
  $("#mute").addEventListener("click", () => Sound.set(!PREFS.sound));
  $("#close").addEventListener("click", closeDialog);
  $("#overlay").addEventListener("click", (e) => { if (e.target.id === "overlay") closeDialog(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closeDialog();
    if (e.key === "Tab" && !$("#overlay").hidden) {     // focus stays in the dialog
      const els = $$("#dialog button, #dialog a, #dialog input, #dialog select, #dialog summary").filter((x) => !x.disabled);
      if (!els.length) return;
      const i = els.indexOf(document.activeElement);
      if (e.shiftKey && i <= 0) { els[els.length - 1].focus(); e.preventDefault(); }
      else if (!e.shiftKey && i === els.length - 1) { els[0].focus(); e.preventDefault(); }
    }
  });
  document.addEventListener("click", (e) => {
    const b = e.target.closest && e.target.closest("[data-review]");
    if (b) Review.open(b.dataset.table, b.dataset.deal === "" ? null : +b.dataset.deal);
  });
  window.addEventListener("popstate", route);
  try { await boot(); } catch (e) { $("#app").innerHTML = `<p class="center">${esc(e.message)}</p>`; return; }
  setLang(LANG);
  route();
})();
