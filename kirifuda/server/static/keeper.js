// The score keeper (得点記録): records each deal of a match played with real cards by its facts
// (the scored-deal form of docs/records.md), shows the running score sheet that the server
// computes by the game's rules, and saves the record.  Words come from /api/keeper/terms.
// Every game is drawn from data the server sends (its score sheet's part, through the registry):
// how a match is set up (/api/keeper/terms "setup") and the next deal's entry form with the
// template of its facts (/api/keeper/sheet "form"); this file names no game.
"use strict";

const STORE = "kirifuda.keeper";

const K = {
  lang: localStorage.getItem("kirifuda.lang") || ((navigator.language || "ja").startsWith("ja") ? "ja" : "en"),
  terms: {}, games: {}, setups: {},
  setup: { game: "", players: 0, names: [], opts: {}, preset: "", presetOptions: {} },
  presets: [],
  record: null, sheet: null, kind: "played", form: {},
};
if (!["ja", "en"].includes(K.lang)) K.lang = "ja";

const $ = (sel) => document.querySelector(sel);

function t(key, params) {
  let s = K.terms["keeper." + key] || key;
  for (const [k, v] of Object.entries(params || {})) s = s.replace("{" + k + "}", v);
  return s;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "on") for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    else if (k === "text") e.textContent = v;
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function message(text, ok) {
  const m = $("#kmsg");
  m.textContent = text;
  m.className = ok ? "ok" : "";
  m.hidden = false;
  clearTimeout(message.timer);
  message.timer = setTimeout(() => { m.hidden = true; }, ok ? 2500 : 6000);
}

async function loadTerms() {
  const r = await fetch("/api/keeper/terms?lang=" + K.lang);
  const data = await r.json();
  K.terms = data.terms;
  K.games = data.games;
  K.setups = data.setup || {};
  if (!K.setups[K.setup.game]) setGame(Object.keys(K.setups)[0]);
  document.documentElement.lang = K.lang;
  document.title = t("title") + " · kirifuda";
  $("#ktitle").textContent = t("title");
  $("#klang").value = K.lang;
}

// -- seats, units ------------------------------------------------------------------------------

function names() { return K.record ? K.record.players : K.setup.names; }
function n() { return K.record ? names().length : K.setup.players; }
function seatName(s) { return names()[s] || t("seat", { n: s }); }
function desc() { return K.setups[K.record.game] || {}; }
function partnership() { return !!desc().unit; }
function units() {
  const count = n();
  if (!partnership()) return [...Array(count).keys()].map((s) => [s]);
  const half = count / 2;
  return [...Array(half).keys()].map((p) => [p, p + half]);
}
function unitName(u) {
  const seats = units()[u];
  const who = seats.map(seatName).join("・");
  if (!partnership()) return who;
  return t(desc().unit, { n: u }) + " " + who;
}

// a label of the server's data: "@key" a word of the catalogue, {seat: s} / {unit: u} a name
function label(spec) {
  if (spec === null || spec === undefined) return "";
  if (typeof spec === "object") return spec.unit !== undefined ? unitName(spec.unit) : seatName(spec.seat);
  return String(spec).startsWith("@") ? t(String(spec).slice(1)) : String(spec);
}

// -- setup -------------------------------------------------------------------------------------

function setGame(game) {
  const s = K.setup;
  s.game = game;
  const d = K.setups[game] || { players: [0], options: [] };
  s.players = d.players[0];
  s.opts = {};
  for (const o of d.options || []) s.opts[o.key] = o.default !== undefined ? o.default : "";
}

function renderSetup() {
  const s = K.setup;
  const box = $("#setup");
  box.hidden = false;
  box.replaceChildren();
  const usePreset = (i) => {
    s.preset = i;
    const p = K.presets[+i];
    s.presetOptions = p ? { ...p.options } : {};
    if (p) {
      setGame(p.game);
      s.players = p.options.players || s.players;
      for (const key of Object.keys(s.opts)) if (p.options[key] !== undefined) s.opts[key] = p.options[key];
    }
    renderSetup();
  };
  const preset = K.presets.length ? field(t("preset"), select("k-preset",
    [["", t("no_preset")]].concat(K.presets.map((p, i) => [i, `${p.club}: ${p.name}`])), s.preset, usePreset)) : null;
  const game = el("select", { id: "k-game", on: { change: (e) => { setGame(e.target.value); s.preset = ""; s.presetOptions = {}; renderSetup(); } } },
    Object.keys(K.setups).map((g) => el("option", { value: g, selected: g === s.game, text: K.games[g] || g })));
  const players = el("select", { id: "k-players", on: { change: (e) => { s.players = +e.target.value; renderSetup(); } } },
    K.setups[s.game].players.map((p) => el("option", { value: p, selected: p === s.players, text: String(p) })));
  const nameRows = [];
  for (let i = 0; i < s.players; i++) {
    nameRows.push(el("span", { text: t("seat", { n: i }) }),
      el("input", { type: "text", id: "k-name-" + i, value: s.names[i] || "", placeholder: t("seat", { n: i }),
        on: { input: (e) => { s.names[i] = e.target.value; } } }));
  }
  const extra = (K.setups[s.game].options || []).map((o) => el("label", { class: "f" }, el("span", { text: t(o.label) }),
    el("input", { type: "text", inputmode: "numeric", id: "k-" + o.key, value: s.opts[o.key], size: 4,
      placeholder: o.per_player ? String(o.per_player * s.players) : null,
      on: { input: (e) => { s.opts[o.key] = e.target.value; } } })));
  box.append(
    el("h2", { text: t("new") }),
    ...(preset ? [preset] : []),
    el("label", { class: "f" }, el("span", { text: t("game") }), game),
    el("label", { class: "f" }, el("span", { text: t("players") }), players),
    el("h2", { text: t("names") }),
    el("div", { class: "names" }, nameRows),
    ...extra,
    el("button", { class: "primary wide", id: "k-start", on: { click: start } , text: t("start") }));
}

function start() {
  const s = K.setup;
  const options = { ...(s.presetOptions || {}) };  // a club's rules, then what the scorer set
  if (K.setups[s.game].players_option) options.players = s.players;
  for (const [key, value] of Object.entries(s.opts)) if (String(value).trim()) options[key] = parseInt(value, 10);
  const players = [];
  for (let i = 0; i < s.players; i++) players.push((s.names[i] || "").trim() || t("seat", { n: i }));
  K.record = { format: "kirifuda-record/1", game: s.game, options, players, first: 0, deals: [] };
  K.kind = "played";
  K.form = {};
  refresh();
}

// -- the server's score sheet ------------------------------------------------------------------

async function refresh(added) {
  const r = await fetch("/api/keeper/sheet", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(K.record) });
  const data = await r.json();
  if (!r.ok) {
    const detail = data.detail || {};
    if (added) K.record.deals.pop();
    else { K.record = null; renderSetup(); }
    message(t("refused", { reason: detail.message || JSON.stringify(detail) }));
    return false;
  }
  K.sheet = data;
  localStorage.setItem(STORE, JSON.stringify(K.record));
  $("#setup").hidden = true;
  renderSheet();
  renderEntry();
  renderFinish();
  return true;
}

function describe(d, i) {
  if (d.outcome === "redeal") return d.broken !== null && d.broken !== undefined ? t("kind.broken") + " " + seatName(d.broken) : t("outcome.redeal");
  if (d.outcome === "chombo") return t("outcome.chombo") + " " + seatName(d.chombo);
  return (K.sheet.described || [])[i] || t("outcome." + d.outcome);
}

function renderSheet() {
  const s = K.sheet.summary;
  const box = $("#sheet");
  box.hidden = false;
  const head = el("tr", {}, el("th", { text: "#" }), units().map((_, u) => el("th", { text: unitName(u) })));
  const rows = s.deals.map((d, i) => el("tr", { class: "deal" },
    el("td", {}, String(i + 1), el("br"), el("span", { class: "what", text: describe(d, i) })),
    d.score.map((v) => el("td", { text: String(v) }))));
  const total = el("tr", { class: "total" }, el("td", { text: t(desc().total || "total") }),
    s.totals.map((v) => el("td", { text: String(v) })));
  const nx = K.sheet.next;
  const bits = [];
  if (nx.first_bidder !== undefined) bits.push(t("first_bidder", { n: nx.first_bidder }) + " (" + seatName(nx.first_bidder) + ")");
  if (nx.dealer !== undefined) bits.push(t("dealer", { n: nx.dealer }) + " (" + seatName(nx.dealer) + ")");
  if (nx.leading_pair !== undefined) bits.push(t("leading_pair", { n: nx.leading_pair }));
  if (nx.sitting_out !== undefined && nx.sitting_out !== null) bits.push(t("sitting_out", { n: nx.sitting_out }));
  const status = s.finished
    ? el("p", { class: "over", id: "k-over", text: t("over") + " — " + t("winner", { who: [].concat(s.winner).map(unitName).join(", ") }) })
    : el("p", { class: "next", text: t("next", { who: bits.join(", ") }) });
  box.replaceChildren(el("h2", { text: `${t("sheet")} · ${K.games[K.record.game]}` }),
    el("table", { class: "sheet", id: "k-sheet" }, el("thead", {}, head), el("tbody", {}, rows, total)),
    status);
  if (K.record.deals.length) box.append(el("button", { class: "wide", id: "k-undo", on: { click: undo }, text: t("undo") }));
}

function undo() {
  K.record.deals.pop();
  refresh();
}

// -- entering a deal ---------------------------------------------------------------------------

function stepper(id, value, min, max, onchange) {
  const out = el("output", { id, text: String(value) });
  const set = (v) => { v = Math.max(min, Math.min(max, v)); out.textContent = String(v); out.dataset.value = v; onchange(v); };
  out.dataset.value = value;
  return el("span", { class: "stepper" },
    el("button", { type: "button", "aria-label": "−", "data-step": id + ":-", on: { click: () => set(+out.dataset.value - 1) }, text: "−" }),
    out,
    el("button", { type: "button", "aria-label": "+", "data-step": id + ":+", on: { click: () => set(+out.dataset.value + 1) }, text: "+" }));
}

function select(id, choices, value, onchange) {
  return el("select", { id, on: { change: (e) => onchange(e.target.value) } },
    choices.map(([v, label]) => el("option", { value: v, selected: String(v) === String(value), text: label })));
}

function field(label, control) {
  return el("label", { class: "f" }, el("span", { text: label }), control);
}


// The form is the server's data: kinds, each with its fields and the template of its facts.
// Fields: select (choices [value, label], or "seats" with an optional "none" and "except"),
// stepper (min, max), text, rest (what is left of "total" after the field "of"), per_seat (a
// stepper per seat), heading, row (fields side by side); "if": shown where that field is set;
// a default "$key" is another field's value.

function empty(v) { return v === null || v === undefined || v === ""; }

function kindsOf() { return (K.sheet.form && K.sheet.form.kinds) || []; }
function currentKind() { return kindsOf().find((k) => k.kind === K.kind) || kindsOf()[0]; }

function initial(fd) {
  const f = K.form;
  if (fd.type === "per_seat") {
    if (!Array.isArray(f[fd.key]) || f[fd.key].length !== n()) f[fd.key] = Array(n()).fill(fd.default || 0);
  } else if (fd.type === "rest") {
    f[fd.key] = fd.total - f[fd.of];
  } else if (fd.key !== undefined && f[fd.key] === undefined) {
    f[fd.key] = typeof fd.default === "string" && fd.default.startsWith("$") ? f[fd.default.slice(1)] : fd.default;
  }
  for (const sub of fd.fields || []) initial(sub);
}

function choicesOf(fd) {
  if (fd.choices !== "seats") return fd.choices.map(([v, l]) => [v, label(l)]);
  const seats = [...Array(n()).keys()].filter((s) => fd.except === undefined || s !== K.form[fd.except]);
  return (fd.none ? [[null, label(fd.none)]] : []).concat(seats.map((s) => [s, seatName(s)]));
}

function control(fd) {
  const f = K.form;
  if (fd.type === "select") {
    const choices = choicesOf(fd);
    if (!choices.some(([v]) => v === f[fd.key])) f[fd.key] = choices.length ? choices[0][0] : null;
    const text = (v) => (v === null ? "" : String(v));
    return el("select", { id: fd.id, on: { change: (e) => {
      f[fd.key] = choices.find(([v]) => text(v) === e.target.value)[0]; renderEntry(); } } },
    choices.map(([v, l]) => el("option", { value: text(v), selected: v === f[fd.key], text: l })));
  }
  if (fd.type === "stepper") return stepper(fd.id, f[fd.key], fd.min, fd.max, (v) => { f[fd.key] = v; updateRests(); });
  if (fd.type === "rest") return el("output", { id: fd.id, "data-rest": fd.key, text: String(f[fd.key]) });
  if (fd.type === "text") return el("input", { type: "text", id: fd.id, value: f[fd.key] || "", on: { input: (e) => { f[fd.key] = e.target.value; } } });
  if (fd.type === "row") return el("span", { class: "row" }, fd.fields.map(control));
  return null;
}

function drawField(fd) {
  if (fd.if !== undefined && empty(K.form[fd.if])) return [];
  if (fd.type === "heading") return [el("h2", { text: label(fd.label) })];
  if (fd.type === "per_seat") {
    const values = K.form[fd.key];
    return [...Array(n()).keys()].map((s) => field(seatName(s),
      stepper(`${fd.id}-${s}`, values[s], fd.min, fd.max, (v) => { values[s] = v; })));
  }
  const c = control(fd);
  return [fd.label === undefined ? c : field(label(fd.label), c)];
}

function updateRests() {
  for (const fd of currentKind().fields) {
    if (fd.type !== "rest") continue;
    K.form[fd.key] = fd.total - K.form[fd.of];
    const out = document.getElementById(fd.id);
    if (out) out.textContent = String(K.form[fd.key]);
  }
}

function renderEntry() {
  const box = $("#entry");
  if (K.sheet.summary.finished || !K.sheet.form) { box.hidden = true; return; }
  box.hidden = false;
  const kinds = kindsOf();
  const kind = currentKind();
  K.kind = kind.kind;
  const parts = [el("h2", { text: t("deal", { n: K.record.deals.length + 1 }) })];
  if (kinds.length > 1) {
    parts.push(el("div", { class: "kinds" }, kinds.map(({ kind: k }) => el("button", { type: "button", "data-kind": k, class: K.kind === k ? "on" : "",
      on: { click: () => { K.kind = k; renderEntry(); } }, text: t("kind." + k) }))));
  }
  for (const fd of kind.fields) initial(fd);
  for (const fd of kind.fields) parts.push(...drawField(fd));
  parts.push(el("button", { class: "primary wide", id: "k-record", on: { click: recordDeal }, text: t("record_deal") }));
  box.replaceChildren(...parts);
}

// the facts of the deal from the kind's template: "$key" a field's value, {"$join": [...]} the
// values as one text, {"$if": key, ...} left out where that field is not set, "key?" left out
// where its value is not set
function fill(tpl) {
  if (typeof tpl === "string" && tpl.startsWith("$")) {
    const v = K.form[tpl.slice(1)];
    return Array.isArray(v) ? v.slice() : v;
  }
  if (Array.isArray(tpl)) return tpl.map(fill);
  if (tpl === null || typeof tpl !== "object") return tpl;
  if (tpl.$join) return tpl.$join.map(fill).join("");
  if (tpl.$if !== undefined && empty(K.form[tpl.$if])) return undefined;
  const out = {};
  for (const [k, v] of Object.entries(tpl)) {
    if (k === "$if") continue;
    const optional = k.endsWith("?");
    const value = fill(v);
    if (value === undefined || (optional && empty(value))) continue;
    out[optional ? k.slice(0, -1) : k] = value;
  }
  return out;
}

function facts() { return fill(currentKind().facts); }

async function recordDeal() {
  K.record.deals.push({ scored: facts() });
  if (await refresh(true)) {
    K.form = {};
    K.kind = "played";
    renderEntry();
  }
}

// -- saving ------------------------------------------------------------------------------------

async function renderFinish() {
  const box = $("#finish");
  if (!K.record.deals.length) { box.hidden = true; return; }
  box.hidden = false;
  const blob = new Blob([JSON.stringify(K.record, null, 1)], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: `${K.record.game}-keeper.json`, id: "k-download", class: "button" }, t("download"));
  const parts = [el("div", { class: "row" }, link)];
  const r = await fetch("/api/clubs");
  if (r.ok) {
    const clubs = await r.json();
    if (clubs.length) {
      const rated = el("input", { type: "checkbox", id: "k-rated" });
      const club = select("k-club", clubs.map((c) => [c.id, c.name]), clubs[0].id, () => {});
      parts.push(field(t("club"), club), field(t("rated"), rated),
        el("button", { class: "wide", id: "k-save", on: { click: async () => {
          const res = await fetch(`/api/clubs/${club.value}/matches`, { method: "POST", headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ record: K.record, rated: rated.checked }) });
          const body = await res.json();
          message(res.ok ? t("saved") : t("refused", { reason: (body.detail && body.detail.message) || body.detail }), res.ok);
        } }, text: t("save") }));
    }
  } else {
    parts.push(el("p", { class: "muted", text: t("sign_in") }));
  }
  box.replaceChildren(...parts);
}

// -- the account ---------------------------------------------------------------------------------

async function renderAccount() {
  const box = $("#account");
  const r = await fetch("/api/me");
  if (r.ok) {
    const me = await r.json();
    const seats = await (await fetch("/api/me/seats")).json();
    K.presets = [];
    for (const club of await (await fetch("/api/clubs")).json()) {
      const info = await (await fetch(`/api/clubs/${club.id}`)).json();
      for (const p of info.presets || []) K.presets.push({ club: info.name, ...p });
    }
    box.replaceChildren(el("p", { id: "k-me", text: t("signed_in_as", { name: me.name }) }),
      seats.length ? el("div", {}, el("h2", { text: t("my_seats") }),
        el("ul", { id: "k-seats" }, seats.map((s) => el("li", {}, el("a", { href: s.link, text: t("seat_link", { table: s.table_id, n: s.seat }) }))))) : null,
      el("div", { class: "row" },
        el("button", { id: "k-sign-out", on: { click: () => signOut("/api/logout") }, text: t("sign_out") }),
        el("button", { id: "k-sign-out-all", on: { click: () => signOut("/api/sessions/revoke") }, text: t("sign_out_all") })));
    return;
  }
  const name = el("input", { type: "text", id: "k-user", autocomplete: "username" });
  const password = el("input", { type: "password", id: "k-password", autocomplete: "current-password" });
  const send = async (path) => {
    const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: name.value.trim(), password: password.value }) });
    if (res.ok) { password.value = ""; await renderAccount(); if (K.record) renderFinish(); else renderSetup(); return; }
    // a refusal worded by the server (a name that would pass for a bot's), else by its status
    const body = await res.json().catch(() => null), said = body && body.detail && body.detail.message;
    message(typeof said === "string" ? said : { 401: t("login_failed"), 429: t("login_limited"), 409: t("name_taken"), 422: t("bad_account") }[res.status] || String(res.status));
  };
  box.replaceChildren(el("h2", { text: t("account") }),
    field(t("name"), name), field(t("password"), password),
    el("div", { class: "row" },
      el("button", { id: "k-sign-in", on: { click: () => send("/api/login") }, text: t("sign_in_button") }),
      el("button", { id: "k-sign-up", on: { click: () => send("/api/accounts") }, text: t("sign_up") })));
}

async function signOut(path) {
  await fetch(path, { method: "POST" });
  K.presets = [];
  await renderAccount();
  if (!K.record) renderSetup();
  if (K.record) renderFinish();
}

// -- start ---------------------------------------------------------------------------------------

async function main() {
  await loadTerms();
  await renderAccount();
  $("#klang").addEventListener("change", async (e) => {
    K.lang = e.target.value;
    localStorage.setItem("kirifuda.lang", K.lang);
    await loadTerms();
    await renderAccount();
    if (K.record) refresh(); else renderSetup();
  });
  const kept = localStorage.getItem(STORE);
  if (kept) {
    try { K.record = JSON.parse(kept); } catch (e) { K.record = null; }
  }
  if (K.record && K.record.deals && K.record.deals.length) await refresh();
  else { K.record = null; renderSetup(); }
  $("#khome").after(el("button", { id: "k-new", title: t("new"), "aria-label": t("new"), on: { click: () => { localStorage.removeItem(STORE); K.record = null; K.sheet = null;
    for (const id of ["#entry", "#sheet", "#finish"]) $(id).hidden = true; renderSetup(); } }, text: "＋" }));
}

window.Keeper = K;
main();
