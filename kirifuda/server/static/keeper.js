// The score keeper (得点記録): records each deal of a match played with real cards by its facts
// (the scored-deal form of docs/records.md), shows the running score sheet that the server
// computes by the game's rules, and saves the record.  Words come from /api/keeper/terms.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const PLAYERS = { meitora: [4], napoleon: [5, 4], kakeya: [4, 6], unsun: [4, 3, 5] };
const STORE = "kirifuda.keeper";

const K = {
  lang: localStorage.getItem("kirifuda.lang") || ((navigator.language || "ja").startsWith("ja") ? "ja" : "en"),
  terms: {}, games: {},
  setup: { game: "meitora", players: 4, names: [], target: 17, deals: "", preset: "", presetOptions: {} },
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
  document.documentElement.lang = K.lang;
  document.title = t("title") + " · kirifuda";
  $("#ktitle").textContent = t("title");
  $("#klang").value = K.lang;
}

// -- seats, units ------------------------------------------------------------------------------

function names() { return K.record ? K.record.players : K.setup.names; }
function n() { return K.record ? names().length : K.setup.players; }
function seatName(s) { return names()[s] || t("seat", { n: s }); }
function partnership() { return ["meitora", "kakeya"].includes(K.record.game); }
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
  return (K.record.game === "meitora" ? t("team", { n: u }) : t("pair", { n: u })) + " " + who;
}

// -- setup -------------------------------------------------------------------------------------

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
      s.game = p.game;
      s.players = p.options.players || PLAYERS[p.game][0];
      s.target = p.options.target || 17;
      s.deals = p.options.deals || "";
    }
    renderSetup();
  };
  const preset = K.presets.length ? field(t("preset"), select("k-preset",
    [["", t("no_preset")]].concat(K.presets.map((p, i) => [i, `${p.club}: ${p.name}`])), s.preset, usePreset)) : null;
  const game = el("select", { id: "k-game", on: { change: (e) => { s.game = e.target.value; s.players = PLAYERS[s.game][0]; s.preset = ""; s.presetOptions = {}; renderSetup(); } } },
    Object.keys(PLAYERS).map((g) => el("option", { value: g, selected: g === s.game, text: K.games[g] || g })));
  const players = el("select", { id: "k-players", on: { change: (e) => { s.players = +e.target.value; renderSetup(); } } },
    PLAYERS[s.game].map((p) => el("option", { value: p, selected: p === s.players, text: String(p) })));
  const nameRows = [];
  for (let i = 0; i < s.players; i++) {
    nameRows.push(el("span", { text: t("seat", { n: i }) }),
      el("input", { type: "text", id: "k-name-" + i, value: s.names[i] || "", placeholder: t("seat", { n: i }),
        on: { input: (e) => { s.names[i] = e.target.value; } } }));
  }
  const extra = [];
  if (s.game === "meitora") {
    extra.push(el("label", { class: "f" }, el("span", { text: t("target") }),
      el("input", { type: "text", inputmode: "numeric", id: "k-target", value: s.target, size: 4,
        on: { input: (e) => { s.target = e.target.value; } } })));
  } else if (s.game === "napoleon" || s.game === "unsun") {
    extra.push(el("label", { class: "f" }, el("span", { text: t("deals") }),
      el("input", { type: "text", inputmode: "numeric", id: "k-deals", value: s.deals, size: 4,
        placeholder: String(s.game === "napoleon" ? 2 * s.players : s.players),
        on: { input: (e) => { s.deals = e.target.value; } } })));
  }
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
  if (s.game !== "meitora") options.players = s.players;
  if (s.game === "meitora" && String(s.target).trim()) options.target = parseInt(s.target, 10);
  if ((s.game === "napoleon" || s.game === "unsun") && String(s.deals).trim()) options.deals = parseInt(s.deals, 10);
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

function describe(d) {
  const g = K.record.game;
  if (d.outcome === "redeal") return d.broken !== null && d.broken !== undefined ? t("kind.broken") + " " + seatName(d.broken) : t("outcome.redeal");
  if (d.outcome === "chombo") return t("outcome.chombo") + " " + seatName(d.chombo);
  if (g === "meitora") return `${seatName(d.declarer)} ${d.contract} · ${d.team_tricks[d.declarer % 2]}`;
  if (g === "napoleon") return `${seatName(d.napoleon)} ${d.contract} · ${d.army_face_cards}`;
  if (g === "kakeya") return `${SUITS[d.trump]} ${d.face_cards.filter((f) => f !== null).join("–")}`;
  return d.tricks_won.join("·");
}

function renderSheet() {
  const s = K.sheet.summary;
  const box = $("#sheet");
  box.hidden = false;
  const head = el("tr", {}, el("th", { text: "#" }), units().map((_, u) => el("th", { text: unitName(u) })));
  const rows = s.deals.map((d, i) => el("tr", { class: "deal" },
    el("td", {}, String(i + 1), el("br"), el("span", { class: "what", text: describe(d) })),
    d.score.map((v) => el("td", { text: String(v) }))));
  const total = el("tr", { class: "total" }, el("td", { text: K.record.game === "kakeya" ? t("chips") : t("total") }),
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

function seatChoices() { return [...Array(n()).keys()].map((s) => [s, `${seatName(s)}`]); }

function renderEntry() {
  const box = $("#entry");
  if (K.sheet.summary.finished) { box.hidden = true; return; }
  box.hidden = false;
  const g = K.record.game;
  const f = K.form;
  const kinds = { meitora: ["played", "broken", "all_pass", "chombo"], napoleon: ["played", "all_pass"] }[g] || [];
  const parts = [el("h2", { text: t("deal", { n: K.record.deals.length + 1 }) })];
  if (kinds.length) {
    parts.push(el("div", { class: "kinds" }, kinds.map((k) => el("button", { type: "button", "data-kind": k, class: K.kind === k ? "on" : "",
      on: { click: () => { K.kind = k; renderEntry(); } }, text: t("kind." + k) }))));
  }
  const set = (key) => (v) => { f[key] = v; };
  const seatOr = (key, def) => (f[key] === undefined ? (f[key] = def) : f[key]);
  const nx = K.sheet.next;
  if (g === "meitora") {
    if (K.kind === "played") {
      const count = seatOr("count", 7);
      parts.push(field(t("declarer"), select("k-declarer", seatChoices(), seatOr("declarer", nx.first_bidder || 0), (v) => { f.declarer = +v; })),
        field(t("count"), select("k-count", [6, 7, 8, 9, 10].map((c) => [c, String(c)]), count, (v) => { f.count = +v; })),
        field(t("strain"), select("k-strain", [["S", "♠"], ["C", "♣"], ["D", "♦"], ["H", "♥"], ["N", t("no_trump")]], seatOr("strain", "H"), set("strain"))),
        field(t("tricks"), stepper("k-tricks", seatOr("tricks", count), 0, 10, (v) => { f.tricks = v; })),
        field(t("claim"), select("k-claim", [["", t("none")]].concat(seatChoices()), seatOr("claim", ""), (v) => { f.claim = v; renderEntry(); })));
      if (f.claim !== "") parts.push(field(t("claim_after"), stepper("k-claim-after", seatOr("claim_after", 5), 0, 9, (v) => { f.claim_after = v; })));
    } else if (K.kind === "broken") {
      parts.push(field(t("broken_seat"), select("k-broken", seatChoices(), seatOr("broken", 0), (v) => { f.broken = +v; })));
    } else if (K.kind === "chombo") {
      parts.push(field(t("chombo_seat"), select("k-chombo", seatChoices(), seatOr("chombo", 0), (v) => { f.chombo = +v; })),
        field(t("reason"), el("input", { type: "text", id: "k-reason", value: f.reason || "", on: { input: (e) => { f.reason = e.target.value; } } })));
    }
  } else if (g === "napoleon" && K.kind === "played") {
    const low = n() === 5 ? 11 : 13;
    const nap = seatOr("napoleon", nx.first_bidder || 0);
    const counts = [];
    for (let c = low; c <= 20; c++) counts.push([c, String(c)]);
    parts.push(field(t("napoleon"), select("k-napoleon", seatChoices(), nap, (v) => { f.napoleon = +v; renderEntry(); })),
      field(t("declared"), el("span", { class: "row" },
        select("k-count", counts, seatOr("count", low + 2), (v) => { f.count = +v; }),
        select("k-suit", Object.entries(SUITS), seatOr("suit", "S"), set("suit")))),
      field(t("adjutant"), select("k-adjutant", [["", t("solo")]].concat(seatChoices().filter(([s]) => s !== f.napoleon)),
        seatOr("adjutant", ""), (v) => { f.adjutant = v; })));
    f.faces = f.faces && f.faces.length === n() ? f.faces : Array(n()).fill(0);
    parts.push(el("h2", { text: t("face_cards") }));
    for (let s = 0; s < n(); s++) parts.push(field(seatName(s), stepper("k-faces-" + s, f.faces[s], 0, 20, (v) => { f.faces[s] = v; })));
  } else if (g === "kakeya") {
    const lead = nx.leading_pair;
    const half = n() / 2;
    const other = [...Array(half).keys()].find((p) => p !== lead && p !== nx.sitting_out);
    const pairChoices = [["", t("unknown")], [lead, unitName(lead)], [other, unitName(other)]];
    const last = K.sheet.summary.deals.length ? K.sheet.summary.deals[K.sheet.summary.deals.length - 1].trump : (K.record.options.initial_trump || "D");
    f.lead_faces = f.lead_faces === undefined ? 8 : f.lead_faces;
    const otherOut = el("output", { id: "k-faces-other", text: String(16 - f.lead_faces) });
    parts.push(field(t("trump"), select("k-trump", Object.entries(SUITS), seatOr("trump", last), set("trump"))),
      el("h2", { text: t("kakeya_faces") }),
      field(unitName(lead), stepper("k-faces-lead", f.lead_faces, 0, 16, (v) => { f.lead_faces = v; otherOut.textContent = String(16 - v); })),
      field(unitName(other), otherOut),
      field(t("rensho_pair"), select("k-rensho", pairChoices, seatOr("rensho_pair", ""), set("rensho_pair"))),
      field(t("trump_ace_pair"), select("k-trump-ace", pairChoices, seatOr("trump_ace_pair", ""), set("trump_ace_pair"))),
      field(t("four_aces_pair"), select("k-four-aces", pairChoices, seatOr("four_aces_pair", ""), set("four_aces_pair"))));
    f.lead = lead; f.other = other;
  } else if (g === "unsun") {
    f.tricks_won = f.tricks_won && f.tricks_won.length === n() ? f.tricks_won : Array(n()).fill(0);
    parts.push(el("h2", { text: t("tricks_won") }));
    for (let s = 0; s < n(); s++) parts.push(field(seatName(s), stepper("k-tricks-" + s, f.tricks_won[s], 0, 16, (v) => { f.tricks_won[s] = v; })));
  }
  parts.push(el("button", { class: "primary wide", id: "k-record", on: { click: recordDeal }, text: t("record_deal") }));
  box.replaceChildren(...parts);
}

function facts() {
  const g = K.record.game;
  const f = K.form;
  if (g === "meitora") {
    if (K.kind === "broken") return { broken: f.broken };
    if (K.kind === "all_pass") return { all_pass: true };
    if (K.kind === "chombo") return f.reason ? { chombo: f.chombo, reason: f.reason } : { chombo: f.chombo };
    const out = { declarer: f.declarer, contract: `${f.count}${f.strain}`, tricks: f.tricks };
    if (f.claim !== "") out.claim = { seat: +f.claim, after: f.claim_after };
    return out;
  }
  if (g === "napoleon") {
    if (K.kind === "all_pass") return { all_pass: true };
    return { napoleon: f.napoleon, declared: `${f.count}${f.suit}`, adjutant: f.adjutant === "" ? null : +f.adjutant,
      face_cards: f.faces.slice() };
  }
  if (g === "kakeya") {
    const faces = Array(n() / 2).fill(null);
    faces[f.lead] = f.lead_faces;
    faces[f.other] = 16 - f.lead_faces;
    const out = { trump: f.trump, face_cards: faces };
    for (const key of ["rensho_pair", "trump_ace_pair", "four_aces_pair"]) if (f[key] !== "" && f[key] !== undefined) out[key] = +f[key];
    return out;
  }
  return { tricks_won: f.tricks_won.slice() };
}

async function recordDeal() {
  K.record.deals.push({ scored: facts() });
  if (await refresh(true)) {
    const keep = K.record.game === "kakeya" ? { trump: K.form.trump } : {};
    K.form = keep;
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
    message({ 401: t("login_failed"), 429: t("login_limited"), 409: t("name_taken"), 422: t("bad_account") }[res.status] || String(res.status));
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
