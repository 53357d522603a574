// kirifuda's browser client: the lobby, the table, the replay viewer.  Plain JS, no build step.
// Everything the page knows about a table comes from the server's frames, each built from this
// seat's view only.
"use strict";

const I18N = {
  ja: {
    lobby: "ロビー", game: "ゲーム", players: "人", options: "ローカルルール", default: "既定",
    seats: "席", seat: "席{0}", human: "人間", bot: "ボット", name: "名前", timer: "持ち時間",
    off: "なし", sec: "{0}秒", create: "卓を作る", created: "卓ができました。招待リンクを送ってください。",
    invite: "招待リンク", copy: "コピー", copied: "コピーしました", playHere: "この席で遊ぶ",
    watch: "観戦", watchLink: "観戦リンク", tables: "卓の一覧", noTables: "卓はまだありません",
    openRecord: "棋譜を開く", upload: "棋譜ファイル (JSON) を選ぶ", yourTurn: "あなたの番です",
    waiting: "{0} の番です", you: "あなた", spectator: "観戦中", connected: "接続中",
    disconnected: "切断", standin: "代打ち (ボット)", lastTrick: "直前の場", sheet: "得点表",
    rules: "ルール", info: "卓の情報", lastDeal: "前の回の結果", dealResult: "第{0}回の結果",
    matchOver: "試合終了", winner: "勝者", download: "棋譜をダウンロード", replay: "再生",
    deal: "回", total: "合計", outcome: "結果", score: "得点", reconnecting: "再接続中…",
    cards: "{0}枚", handsUp: "手札 (公開)", rest: "残り札", trick: "場", noTrick: "まだ場はありません",
    confirmClaim: "残りの場を全部取るとオープンしますか？", choose: "選んでください", send: "決定",
    selectN: "{0}枚選んでください", step: "手", start: "配り", prev: "前", next: "次",
    first: "最初", last: "最後", error: "エラー", phase: "局面", toAct: "手番", deadline: "残り{0}秒",
    bots: { heuristic: "ふつう", random: "ランダム", search: "強い (探索)", "search:easy": "探索 (弱)", "search:strong": "最強 (探索・遅い)" },
    outcomes: { played: "成立", redeal: "流れ", chombo: "チョンボ", "in-progress": "進行中" },
    yes: "はい", no: "いいえ", none: "なし", notFound: "その卓はありません",
    turnOrder: { cw: "時計回り", ccw: "反時計回り" }, newTable: "新しい卓",
  },
  en: {
    lobby: "Lobby", game: "Game", players: "players", options: "Local rules", default: "default",
    seats: "Seats", seat: "Seat {0}", human: "Human", bot: "Bot", name: "Name", timer: "Turn timer",
    off: "off", sec: "{0} s", create: "Create the table", created: "The table is ready. Send each friend their seat's link.",
    invite: "Invitation link", copy: "Copy", copied: "Copied", playHere: "Play this seat",
    watch: "Watch", watchLink: "Spectator link", tables: "Tables", noTables: "No tables yet",
    openRecord: "Open a record", upload: "Choose a record file (JSON)", yourTurn: "Your turn",
    waiting: "{0} to act", you: "you", spectator: "watching", connected: "connected",
    disconnected: "disconnected", standin: "a bot plays for them", lastTrick: "Last trick", sheet: "Score sheet",
    rules: "Rules", info: "Table", lastDeal: "Last deal", dealResult: "Result of deal {0}",
    matchOver: "The match is over", winner: "Winner", download: "Download the record", replay: "Replay",
    deal: "Deal", total: "Total", outcome: "Outcome", score: "Score", reconnecting: "reconnecting…",
    cards: "{0} cards", handsUp: "Hands face up", rest: "Undealt", trick: "Trick", noTrick: "No trick yet",
    confirmClaim: "Claim every remaining trick (open)?", choose: "Choose", send: "OK",
    selectN: "Select {0} cards", step: "step", start: "dealt", prev: "Prev", next: "Next",
    first: "First", last: "Last", error: "Error", phase: "Phase", toAct: "To act", deadline: "{0} s left",
    bots: { heuristic: "heuristic", random: "random", search: "strong (search)", "search:easy": "search (easy)", "search:strong": "strongest (search, slow)" },
    outcomes: { played: "played", redeal: "redeal", chombo: "chombo", "in-progress": "in progress" },
    yes: "yes", no: "no", none: "none", notFound: "No such table",
    turnOrder: { cw: "clockwise", ccw: "counter-clockwise" }, newTable: "New table",
  },
};

// Per-game touches: turn direction (how seats are laid out) and short rule notes in the specs' terms.
const GAME_UI = {
  meitora: { dir: "ccw", hints: {
    bidding: { ja: "吹く: 6〜10 と切り札 (♠<♣<♦<♥<トラ) を言うかパス。一巡だけ。A・K・Q・J がない手はブロークンできる。",
      en: "Bid (吹く) 6–10 tricks in a strain (♠<♣<♦<♥<NT) or pass; one round only. A hand without A, K, Q, J may call broken." },
    discard: { ja: "アガリを取りました。1枚をネグリとして伏せて捨てます (ジョーカーも可)。",
      en: "You took the agari (アガリ): discard one card face down as the negri (ネグリ); the joker too may go." },
    play: { ja: "台札のスートがあれば出す (ジョーカーはいつでも可)。ジョーカーで始めるときは請求を選ぶ。全部取れるならオープン。",
      en: "Follow the led suit if you can (the joker may always be played). Leading the joker, choose its request. Sure of every trick? Claim (オープン)." } },
    rules: {
    ja: ["4人2チーム (席0・2 対 席1・3)。41枚 (5〜A とジョーカー=タンツェン)。",
      "<b>吹く</b>: 一巡だけ、枚数 6〜10 と切り札 (♠<♣<♦<♥<トラ) を宣言するかパス。",
      "<b>ブロークン</b>: A・K・Q・J が1枚もない (Q1枚だけも可) 手は配り直しを宣言できる。J 4枚は自動で配り直し。",
      "<b>アガリ</b>: 宣言者は伏せ札1枚を取り、<b>ネグリ</b>として1枚を伏せて捨てる。",
      "切り札の J が最強、同じ色の J (副J) が次。ジョーカーはどの場でも出せて必ず勝つ。台札のスートがあれば出す。",
      "ジョーカーで始めるときは<b>請求</b> (♠♥♦♣ か何でも) を言う。ジョーカーは最後まで残せない。",
      "<b>オープン</b>: 残りを全部取れるなら宣言できる。失敗は<b>チョンボ</b>。",
      "入る: X − 5 + (Y − X)/2 点。落ちる: 相手に X − Y 点。17点先取。"],
    en: ["Four players in two teams (seats 0+2 against 1+3); 41 cards (5 to A and the joker).",
      "<b>Bidding (吹く)</b>: one round; bid 6–10 tricks in a strain (♠<♣<♦<♥<no-trump) or pass.",
      "<b>Broken (ブロークン)</b>: a hand without A, K, Q or J (or a lone Q) may call a redeal; four jacks redeal by themselves.",
      "<b>Agari (アガリ)</b>: the declarer takes the face-down card and discards one face down: the <b>negri (ネグリ)</b>.",
      "The trump jack is highest, then the other jack of its colour; the joker may be played to any trick and wins it. Follow the led suit if you can.",
      "Leading the joker names a <b>request (請求)</b>: a suit or anything. The joker may not be kept to the end.",
      "<b>Open (オープン)</b>: claim every remaining trick; a wrong claim is a <b>chombo (チョンボ)</b>.",
      "Made: X − 5 + (Y − X)/2 points; set: the other team scores X − Y. First to 17."] } },
  napoleon: { dir: "cw", rules: {
    ja: ["<b>立候補</b>: 絵札 (A K Q J 10) を何枚取るかとスートを宣言。最も高い人が<b>ナポレオン</b>。",
      "ナポレオンは<b>副官</b>のカードを指名し、中札と交換する。副官はそのカードが出るまで誰にも分からない。",
      "<b>オールマイティ</b> (♠A) が最強、次に正ジャック・裏ジャック、切り札、台札。",
      "ナポレオン軍が宣言枚数の絵札を取れば勝ち、取れなければ<b>連合軍</b>の勝ち。"],
    en: ["<b>Bidding (立候補)</b>: how many face cards (A K Q J 10) you will take, and trump. The highest bidder is <b>Napoleon</b>.",
      "Napoleon names the <b>adjutant (副官)</b>'s card and exchanges with the middle; the adjutant is secret until that card is played.",
      "The <b>almighty (オールマイティ)</b> ♠A wins, then the main and back jacks, trumps, the led suit.",
      "Napoleon's army wins by taking the face cards it bid; otherwise the <b>allied army (連合軍)</b> wins."] } },
  kakeya: { dir: "ccw", rules: {
    ja: ["2人ずつの組で<b>絵取り</b>: A・K・Q・J の絵札 16枚を取り合う。9枚以上で勝ち。",
      "配った組が<b>切り</b> (切り札) を決め、親の組が最初に出す人を決める。",
      "<b>れんしょ</b> (♠A、♠が切りのときは ♣A) が最強。台札のスートがあれば出す。",
      "勝負はチップで払う。"],
    en: ["Two pairs take face cards (A K Q J, 16 in all); 9 or more wins the game.",
      "The dealing pair chooses the trump (<b>切り</b>); the leading pair chooses who leads.",
      "The <b>rensho (れんしょ)</b>, ♠A (♣A when spades are trump), beats everything. Follow suit if you can.",
      "Games are paid in chips."] } },
  unsun: { dir: "cw", rules: {
    ja: ["起き絵で切り札が決まる。カードは切り札・赤・黒の3つの組に分かれる。",
      "台札に従う必要はない。切り札の A K Q J は伏せて出す (<b>差し</b>)。",
      "各場の最後に出す人が<b>取り番</b>。最初の場は ♣J を持つ人が取り番。",
      "取った場の数を競う。"],
    en: ["The indicator sets trump; cards fall into three groups: trump, red, black.",
      "There is no need to follow; the trump A K Q J are played face down (<b>差し</b>).",
      "The last player of each trick is the <b>取り番</b>; in the first trick, the holder of ♣J.",
      "Players count the tricks they take."] } },
};

const SEAT_FIELDS = new Set(["declarer", "first_bidder", "dealer", "starting_player", "last_player",
  "last_trick_last_player", "napoleon", "adjutant", "leader", "broken", "chombo", "last_trick_winner"]);
const STRAIN = { S: "♠", H: "♥", D: "♦", C: "♣", N: "NT" };
const HIDE_INFO = new Set(["game", "seat", "phase", "to_act", "deal_number", "hand", "hand_sizes",
  "legal_actions", "attempts", "totals", "trick", "last_trick", "last_trick_winner", "last_deal", "players"]);

let LANG = localStorage.getItem("kf:lang") || ((navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en");
let GAMES = null;
const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

function t(key, ...args) {
  let s = I18N[LANG][key];
  if (s === undefined) s = I18N.en[key];
  if (s === undefined) return key;
  return typeof s === "string" ? s.replace(/\{(\d)\}/g, (_, i) => args[+i]) : s;
}
function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
function toast(msg) {
  const el = $("#toast"); el.textContent = msg; el.hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { el.hidden = true; }, 4500);
}
function dialog(html, cls = "") {
  $("#dialog-body").innerHTML = html; $("#dialog").className = cls; $("#overlay").hidden = false;
}
function closeDialog() { $("#overlay").hidden = true; $("#dialog-body").innerHTML = ""; }
async function api(path, opts = {}) {
  const r = await fetch(path, opts);
  const body = await r.json().catch(() => null);
  if (!r.ok) {
    const d = body && body.detail;
    throw new Error(typeof d === "string" ? d : (d && d.message) || r.statusText);
  }
  return body;
}
async function games() { if (!GAMES) GAMES = await api("/api/games"); return GAMES; }
function gameOf(id) { return (GAMES || []).find((g) => g.id === id); }
function term(game, key) {
  const g = gameOf(game); const e = g && g.terms[key];
  return e ? e[LANG] : key.replace(/_/g, " ");
}

// -- values ---------------------------------------------------------------------------------
function bidText(b) {
  if (b === "pass") return LANG === "ja" ? "パス" : "pass";
  const m = /^(\d+)([SHDCN])$/.exec(b || "");
  if (!m) return String(b);
  return m[1] + (m[2] === "N" && LANG === "ja" ? "トラ" : STRAIN[m[2]]);
}
function requestText(r) { return r === "any" ? (LANG === "ja" ? "何でも" : "anything") : SUIT_SYMBOL[r]; }
function actionText(a) {
  if (!a || typeof a !== "object") return String(a);
  if ("play" in a) {
    let s = cardText(a.play, LANG);
    if (a.request) s += ` (${LANG === "ja" ? "請求" : "asks"} ${a.request === "any" ? (LANG === "ja" ? "何でも" : "anything") : SUIT_SYMBOL[a.request]})`;
    if (a.call_joker) s += LANG === "ja" ? " (ジョーカー請求)" : " (calls the joker)";
    return s;
  }
  if ("bid" in a) return bidText(a.bid);
  if ("broken" in a) return LANG === "ja" ? "ブロークン" : "broken";
  if ("discard" in a) return (LANG === "ja" ? "捨て " : "discard ") + a.discard.map((c) => cardText(c, LANG)).join(" ");
  if ("adjutant" in a) return (LANG === "ja" ? "副官 " : "adjutant ") + cardText(a.adjutant, LANG);
  if ("redeclare" in a) return a.redeclare === "none" ? (LANG === "ja" ? "再宣言なし" : "no re-declaration") : (LANG === "ja" ? "再宣言 " : "re-declare ") + bidText(a.redeclare);
  if ("approve" in a) return a.approve ? (LANG === "ja" ? "承認" : "approve") : (LANG === "ja" ? "拒否" : "reject");
  if ("trump" in a) return a.trump === "keep" ? (LANG === "ja" ? "切りはそのまま" : "keep the trump") : (LANG === "ja" ? "切り " : "trump ") + SUIT_SYMBOL[a.trump];
  if ("leader" in a) return (LANG === "ja" ? "親 " : "leader ") + seatName(a.leader);
  if ("claim" in a) return LANG === "ja" ? "オープン" : "claim (open)";
  return JSON.stringify(a);
}
function isPlays(v) {
  // a trick written as its plays: [[seat, card or null (face down)], …]
  return Array.isArray(v) && v.length > 0 && v.every((x) => Array.isArray(x) && x.length === 2 && typeof x[0] === "number" && (x[1] === null || isCard(x[1])));
}
function normTrick(v) {
  if (!v) return null;
  if (isPlays(v)) return { leader: v[0][0], cards: v.map((x) => x[1]), seats: v.map((x) => x[0]) };
  if (isTrick(v)) return v;
  return null;
}
function isTrick(v) { return v && typeof v === "object" && !Array.isArray(v) && "leader" in v && Array.isArray(v.cards); }
function isAction(v) { return v && typeof v === "object" && !Array.isArray(v) && ["play", "bid", "broken", "discard", "adjutant", "redeclare", "approve", "trump", "leader", "claim"].some((k) => k in v); }
function trickSeats(tr, n) { return tr.seats || tr.cards.map((_, i) => (tr.leader + i) % n); }
function valueHTML(v, game, n) {
  if (v === null || v === undefined) return "–";
  if (typeof v === "boolean") return v ? t("yes") : t("no");
  if (isCard(v)) return `<span class="ctext ${"HD".includes(v[1]) ? "red" : ""}">${esc(cardText(v, LANG))}</span>`;
  if (typeof v === "string" && v.length === 1 && SUIT_SYMBOL[v]) return `<span class="ctext ${"HD".includes(v) ? "red" : ""}">${SUIT_SYMBOL[v]}</span>`;
  if (typeof v === "string") return esc(I18N[LANG].outcomes[v] || bidText(v));
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) {
    if (!v.length) return "–";
    if (v.every((x) => Array.isArray(x) && x.length === 2 && typeof x[0] === "number" && isAction(x[1])))
      return v.map(([s, a]) => `${esc(seatName(s))}: ${esc(actionText(a))}`).join(", ");
    if (isPlays(v)) return valueHTML(normTrick(v), game, n);
    if (v.every((x) => Array.isArray(x) && x.length === 2 && isTrick(x[0]) && typeof x[1] === "number"))
      return v.map(([tr, w]) => `${valueHTML(tr, game, n)} → <b>${esc(seatName(w))}</b>`).join("<br>");
    if (v.every(isTrick)) return v.map((x) => valueHTML(x, game, n)).join("<br>");
    return v.map((x) => valueHTML(x, game, n)).join(" ");
  }
  if (isTrick(v)) { const ss = trickSeats(v, n); return v.cards.map((c, i) => `${esc(seatName(ss[i]))} ${c === null ? "🂠" : valueHTML(c)}`).join(", "); }
  if (isAction(v)) return esc(actionText(v));
  return Object.entries(v).map(([k, x]) => `${esc(term(game, k))}: ${valueHTML(x, game, n)}`).join("; ");
}

// -- routing --------------------------------------------------------------------------------
function route() {
  const path = location.pathname;
  const m = /^\/t\/([0-9a-zA-Z_-]+)$/.exec(path);
  if (m) return Table.open(m[1]);
  if (path === "/replay") return Replay.open();
  return Lobby.open();
}
function setLang(l) {
  LANG = l; localStorage.setItem("kf:lang", l); document.documentElement.lang = l;
  $("#lang").value = l; if (current && current.render) current.render();
}
let current = null;

// -- the lobby ------------------------------------------------------------------------------
const Lobby = {
  game: null, created: null,
  async open() {
    current = this; $("#title").textContent = t("lobby");
    await games();
    this.game = this.game || GAMES[0].id;
    this.render();
    this.loadTables();
  },
  options(g) {
    const out = {};
    for (const o of g.options) {
      const el = $(`[name="opt-${o.name}"]`);
      if (!el) continue;
      let v;
      if (o.type === "bool") v = el.checked;
      else if (o.type === "int") v = parseInt(el.value, 10);
      else if (o.type === "choice") v = JSON.parse(el.value);
      else { try { v = JSON.parse(el.value); } catch (e) { v = el.value; } }
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
    const keep = this.created ? this.createdHTML() : "";
    $("#app").innerHTML = `
    <section class="lobby">
      <div class="panel"><h2>${t("game")}</h2><div class="games">${GAMES.map((x) => `
        <label class="gamepick ${x.id === this.game ? "on" : ""}"><input type="radio" name="game" value="${x.id}" ${x.id === this.game ? "checked" : ""}>
        <b>${esc(x.name[LANG])}</b><small>${esc(x.name[LANG === "ja" ? "en" : "ja"])} · ${x.min_players}${x.max_players > x.min_players ? "–" + x.max_players : ""} ${t("players")}</small></label>`).join("")}</div></div>
      <div class="panel"><h2>${t("options")}</h2><div class="opts">${g.options.map((o) => this.optionHTML(o)).join("")}</div></div>
      <div class="panel"><h2>${t("seats")}</h2><div id="seats"></div>
        <label class="row">${t("timer")} <select name="timer">${[0, 30, 60, 120].map((s) => `<option value="${s}">${s ? t("sec", s) : t("off")}</option>`).join("")}</select></label>
        <button id="create" class="primary">${t("create")}</button>
        <div id="created">${keep}</div></div>
      <div class="panel"><h2>${t("tables")}</h2><div id="tables">…</div>
        <h2>${t("openRecord")}</h2><label class="upload">${t("upload")} <input type="file" id="upload" accept=".json,application/json"></label></div>
    </section>`;
    $$('input[name="game"]').forEach((el) => el.addEventListener("change", () => { this.game = el.value; this.created = null; this.render(); }));
    $$(".opts [name]").forEach((el) => el.addEventListener("change", () => this.renderSeats()));
    this.renderSeats();
    $("#create").addEventListener("click", () => this.create());
    $("#upload").addEventListener("change", (e) => Replay.upload(e.target.files[0]));
    if (this.tables) this.renderTables();
  },
  optionHTML(o) {
    const id = `opt-${o.name}`;
    let input;
    if (o.type === "bool") input = `<input type="checkbox" name="${id}" ${o.default ? "checked" : ""}>`;
    else if (o.type === "choice") input = `<select name="${id}">${o.choices.map((c) => `<option value='${esc(JSON.stringify(c))}' ${JSON.stringify(c) === JSON.stringify(o.default) ? "selected" : ""}>${esc(c === null ? t("none") : c)}</option>`).join("")}</select>`;
    else if (o.type === "int") input = `<input type="number" name="${id}" value="${o.default}" min="1" max="999">`;
    else input = `<input type="text" name="${id}" value='${esc(JSON.stringify(o.default))}'>`;
    return `<div class="opt"><label><code>${esc(o.name)}</code> ${input}</label><small>${esc(o.doc)} <i>(${t("default")}: ${esc(JSON.stringify(o.default))})</i></small></div>`;
  },
  renderSeats() {
    const g = gameOf(this.game); const n = this.seatCount(g);
    const prev = $$("#seats .seat-row").map((r) => ({ kind: $("select", r).value, name: $("input", r).value }));
    $("#seats").innerHTML = Array.from({ length: n }, (_, i) => {
      const p = prev[i] || { kind: i === 0 ? "human" : "bot:" + (g.default_bot && g.bots.includes(g.default_bot) ? g.default_bot : g.bots[0]), name: "" };
      return `<div class="seat-row"><span>${t("seat", i)}</span><select data-seat="${i}">
        <option value="human" ${p.kind === "human" ? "selected" : ""}>${t("human")}</option>
        ${g.bots.map((b) => `<option value="bot:${b}" ${p.kind === "bot:" + b ? "selected" : ""}>${t("bot")}: ${esc(t("bots")[b] || b)}</option>`).join("")}
      </select><input placeholder="${t("name")}" maxlength="40" value="${esc(p.name)}"></div>`;
    }).join("");
  },
  async create() {
    const g = gameOf(this.game);
    const seats = $$("#seats .seat-row").map((r) => {
      const v = $("select", r).value, name = $("input", r).value.trim() || undefined;
      return v === "human" ? { kind: "human", name } : { kind: "bot", bot: v.slice(4), name };
    });
    try {
      const res = await api("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: g.id, options: this.options(g), seats, timer: parseInt($('[name="timer"]').value, 10) }) });
      res.tokens.forEach((tok, i) => { if (tok) localStorage.setItem(`kf:tok:${res.id}:${i}`, tok); });
      this.created = res;
      $("#created").innerHTML = this.createdHTML();
      this.bindCreated();
      this.loadTables();
    } catch (e) { toast(`${t("error")}: ${e.message}`); }
  },
  createdHTML() {
    const r = this.created; const base = location.origin;
    return `<p class="ok">${t("created")}</p>` + r.links.map((l, i) => l ? `
      <div class="invite"><span>${t("seat", i)}</span><input readonly value="${esc(base + l)}"><button class="copy">${t("copy")}</button><a class="button" href="${esc(l)}" data-seat="${i}">${t("playHere")}</a></div>` : "").join("") +
      `<div class="invite"><span>${t("watch")}</span><input readonly value="${esc(base + r.watch)}"><button class="copy">${t("copy")}</button><a class="button" href="${esc(r.watch)}">${t("watch")}</a></div>`;
  },
  bindCreated() {
    $$("#created .copy").forEach((b) => b.addEventListener("click", async () => {
      const inp = b.previousElementSibling; inp.select();
      try { await navigator.clipboard.writeText(inp.value); } catch (e) { document.execCommand("copy"); }
      toast(t("copied"));
    }));
  },
  async loadTables() {
    try { this.tables = await api("/api/tables"); } catch (e) { this.tables = []; }
    if (current === this && $("#tables")) this.renderTables();
  },
  renderTables() {
    $("#tables").innerHTML = this.tables.length ? `<ul class="tables">${this.tables.slice(0, 30).map((x) => `
      <li><a href="/t/${esc(x.id)}">${esc(x.name[LANG])} <code>${esc(x.id)}</code></a> ${x.seats.map((s) => esc(s.name)).join(" · ")}
      ${x.over ? `<span class="tag">${t("matchOver")}</span> <a href="/replay?table=${esc(x.id)}">${t("replay")}</a>` : `<span class="tag">${x.totals.join(" – ")}</span>`}</li>`).join("")}</ul>` : `<p>${t("noTables")}</p>`;
    if (this.created) this.bindCreated();
  },
};

function seatName(s) {
  const f = Table.frame || Replay.data;
  if (s === null || s === undefined) return "–";
  let name = t("seat", s);
  if (Table.frame && current === Table) name = Table.frame.table.seats[s]?.name || name;
  else if (Replay.data && Replay.data.players) name = Replay.data.players[s] || name;
  if (f && Table.frame && current === Table && Table.frame.seat === s) name += ` (${t("you")})`;
  return name;
}

// -- the table ------------------------------------------------------------------------------
const Table = {
  id: null, ws: null, frame: null, token: null, seenDeal: null, retry: 0, selected: [],
  async open(id) {
    current = this; this.id = id; this.frame = null; this.seenDeal = null;
    await games();
    const m = /token=([^&]+)/.exec(location.hash);
    if (m) {
      this.token = decodeURIComponent(m[1]);
      localStorage.setItem(`kf:table:${id}`, this.token);
      history.replaceState(null, "", location.pathname);   // the token leaves the address bar
    } else {
      this.token = localStorage.getItem(`kf:table:${id}`);
    }
    $("#app").innerHTML = `<p class="center">…</p>`;
    this.connect();
  },
  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${this.id}`);
    this.ws = ws;
    ws.onopen = () => { this.retry = 0; ws.send(JSON.stringify({ type: "hello", token: this.token || null })); this.setOnline(true); };
    ws.onmessage = (ev) => this.onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      if (this.ws !== ws || current !== this) return;
      this.setOnline(false);
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => { if (current === this && this.ws === ws) this.connect(); }, 300 * this.retry);
    };
  },
  setOnline(on) { document.body.classList.toggle("offline", !on); },
  send(action) {
    if (!this.frame || !this.ws || this.ws.readyState !== 1) return;
    this.ws.send(JSON.stringify({ type: "act", version: this.frame.version, action }));
  },
  onMessage(m) {
    if (m.type === "state") {
      const f = m; const before = this.frame;
      this.frame = f; this.selected = [];
      this.deadlineAt = f.deadline != null ? Date.now() + f.deadline * 1000 : null;
      this.render();
      const v = f.view;
      if (this.seenDeal !== null && v.deal_number > this.seenDeal && (v.last_deal || f.finished_deal) && !f.table.over) this.showLastDeal();
      if (f.table.over && (!before || !before.table.over)) this.showOver();
      this.seenDeal = v.deal_number;
    } else if (m.type === "presence") {
      // who is connected changed: the last state frame's seats, updated in place
      if (!this.frame) return;
      m.seats.forEach((p, i) => Object.assign(this.frame.table.seats[i] || {}, p));
      this.frame.table.spectators = m.spectators;
      this.render();
    } else if (m.type === "error") {
      if (m.code === "unknown_table") { $("#app").innerHTML = `<p class="center">${t("notFound")}</p>`; this.ws = null; return; }
      toast(m.message);
    }
  },
  render() {
    if (current !== this || !this.frame) return;
    const f = this.frame, v = f.view, g = gameOf(f.table.game), n = f.table.seats.length;
    $("#title").textContent = f.table.name[LANG];
    const me = f.seat ?? 0;
    const dir = (GAME_UI[f.table.game] || {}).dir || "cw";
    const pos = (s) => {
      const r = (s - me + n) % n;
      const ang = (Math.PI / 2) + (dir === "cw" ? 1 : -1) * r * 2 * Math.PI / n;
      return [Math.cos(ang), Math.sin(ang)];
    };
    const trick = normTrick(v.trick) || normTrick(v.last_trick);
    const live = !!normTrick(v.trick);
    const trickSeatsArr = trick ? trickSeats(trick, n) : [];
    const seatsHTML = f.table.seats.map((s, i) => {
      const [x, y] = pos(i);
      const cls = ["seatbadge", v.to_act === i ? "act" : "", f.seat === i ? "me" : "", s.kind === "human" && !s.connected ? "away" : ""].join(" ");
      const status = s.kind === "bot" ? `${t("bot")} · ${esc(t("bots")[s.bot] || s.bot)}` : (s.standin ? t("standin") : (s.connected ? t("connected") : t("disconnected")));
      return `<div class="${cls}" data-seat="${i}" style="left:calc(50% + ${x.toFixed(3)} * var(--rx));top:calc(50% + ${y.toFixed(3)} * var(--ry))"><b>${esc(s.name)}${f.seat === i ? ` (${t("you")})` : ""}</b>
        <small><i class="dot ${s.kind === "bot" || s.connected ? "on" : ""}"></i>${status}</small><small>${t("cards", v.hand_sizes[i] ?? 0)}</small></div>`;
    }).join("");
    const trickHTML = trick ? trick.cards.map((c, k) => {
      const [x, y] = pos(trickSeatsArr[k]);
      return `<div class="tcard ${live ? "" : "done"}" data-code="${esc(c ?? "")}" style="left:${50 + x * 17}%;top:${50 + y * 19}%;z-index:${k + 1}">${cardSVG(c)}</div>`;
    }).join("") : "";
    let turn;
    if (f.table.over) turn = t("matchOver");
    else if (v.to_act === null || v.to_act === undefined) turn = "";
    else if (v.to_act === f.seat) turn = `<b class="yourturn">${t("yourTurn")}</b>`;
    else turn = t("waiting", esc(seatName(v.to_act)));
    const headline = this.headline(v, f.table.game, n);
    const totals = (f.table.units[LANG] || []).map((u, i) => `<span>${esc(u)}: <b>${v.totals[i]}</b></span>`).join("");
    $("#app").innerHTML = `
    <section class="table">
      <div class="status"><span class="turn">${turn}</span><span class="clock" id="clock"></span>${headline}
        <span class="who">${f.seat === null ? t("spectator") : ""}${f.table.spectators ? ` 👁 ${f.table.spectators}` : ""}</span></div>
      ${this.hint(f)}
      <div class="felt" id="felt">${seatsHTML}<div class="trickzone">${trickHTML}</div></div>
      <div class="controls" id="controls"></div>
      <div class="hand" id="hand"></div>
      <div class="toolbar">
        <button data-tool="last">${t("lastTrick")}</button><button data-tool="sheet">${t("sheet")}</button>
        <button data-tool="deal" ${v.last_deal || f.finished_deal ? "" : "disabled"}>${t("lastDeal")}</button>
        <button data-tool="rules">${t("rules")}</button>
        ${f.table.over ? `<a class="button" href="/api/tables/${esc(f.table.id)}/record" download>${t("download")}</a><a class="button" href="/replay?table=${esc(f.table.id)}">${t("replay")}</a>` : ""}
      </div>
      <div class="totals">${totals}</div>
      <div class="info" id="info">${this.infoHTML(v, f.table.game, n)}</div>
    </section>`;
    this.renderHand(); this.renderControls(); this.tick();
    $$(".toolbar [data-tool]").forEach((b) => b.addEventListener("click", () => this.tool(b.dataset.tool)));
  },
  hint(f) {
    const h = ((GAME_UI[f.table.game] || {}).hints || {})[f.view.phase];
    return h && f.legal.length ? `<p class="hint">${esc(h[LANG])}</p>` : "";
  },
  headline(v, game, n) {
    const parts = [];
    for (const k of ["contract", "trump", "declarer", "napoleon"]) {
      if (k in v && v[k] !== null && v[k] !== undefined) {
        const val = SEAT_FIELDS.has(k) ? esc(seatName(v[k])) : valueHTML(v[k], game, n);
        parts.push(`<span class="hl">${esc(term(game, k))}: <b>${val}</b></span>`);
      }
    }
    return parts.join("");
  },
  infoHTML(v, game, n) {
    const rows = Object.keys(v).filter((k) => !HIDE_INFO.has(k)).map((k) =>
      `<tr data-field="${esc(k)}"><th>${esc(term(game, k))}</th><td>${SEAT_FIELDS.has(k) && typeof v[k] === "number" ? esc(seatName(v[k])) : valueHTML(v[k], game, n)}</td></tr>`).join("");
    return `<table><tr><th>${t("deal")}</th><td>${v.deal_number + 1}</td></tr>${rows}</table>`;
  },
  tick() {
    clearInterval(this.clock);
    const upd = () => { const el = $("#clock"); if (!el) return; el.textContent = this.deadlineAt ? t("deadline", Math.max(0, Math.ceil((this.deadlineAt - Date.now()) / 1000))) : ""; };
    upd(); if (this.deadlineAt) this.clock = setInterval(upd, 500);
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
    const f = this.frame; const { plays, discards, discardN } = this.legalByCard();
    const active = plays.size || discards.size;
    $("#hand").innerHTML = f.hand.map((c) => {
      const legal = plays.has(c) || discards.has(c);
      const sel = this.selected.includes(c);
      return `<button class="card ${active ? (legal ? "legal" : "dim") : ""} ${sel ? "sel" : ""}" data-code="${esc(c)}" ${active && !legal ? "disabled" : ""} aria-label="${esc(cardText(c, LANG))}">${cardSVG(c)}</button>`;
    }).join("");
    $$("#hand .card.legal").forEach((b) => b.addEventListener("click", () => {
      const c = b.dataset.code;
      if (plays.has(c)) return this.choose(plays.get(c));
      if (discardN <= 1) return this.choose(discards.get(c));
      const i = this.selected.indexOf(c);
      if (i >= 0) this.selected.splice(i, 1); else if (this.selected.length < discardN) this.selected.push(c);
      this.renderHand(); this.renderControls();
    }));
  },
  choose(entries) {
    if (entries.length === 1) return this.send(entries[0].action);
    dialog(`<h3>${t("choose")}</h3><div class="choices">${entries.map((e, i) => `<button data-i="${i}" data-act='${esc(JSON.stringify(e.action))}'>${esc(e.label[LANG])}</button>`).join("")}</div>`);
    $$("#dialog-body [data-i]").forEach((b) => b.addEventListener("click", () => { closeDialog(); this.send(entries[+b.dataset.i].action); }));
  },
  renderControls() {
    const f = this.frame; const el = $("#controls");
    const others = f.legal.filter((e) => !("play" in e.action) && !("discard" in e.action));
    const { discardN } = this.legalByCard();
    let html = "";
    const bids = others.filter((e) => "bid" in e.action && e.action.bid !== "pass");
    if (bids.length) {
      const counts = [...new Set(bids.map((e) => parseInt(e.action.bid, 10)))].sort((a, b) => a - b);
      const strains = [...new Set(bids.map((e) => e.action.bid.slice(-1)))];
      // weakest strain first: Meitora ♠ < ♣ < ♦ < ♥ < NT; Napoleon ♣ < ♦ < ♥ < ♠
      const order = f.table.game === "napoleon" ? "CDHS" : "SCDHN";
      strains.sort((a, b) => order.indexOf(a) - order.indexOf(b));
      const have = new Set(bids.map((e) => e.action.bid));
      html += `<div class="bidgrid" style="--cols:${strains.length + 1}"><span></span>${strains.map((s) => `<span class="sh ${"HD".includes(s) ? "red" : ""}">${s === "N" && LANG === "ja" ? "トラ" : STRAIN[s]}</span>`).join("")}` +
        counts.map((c) => `<span class="ch">${c}</span>` + strains.map((s) => have.has(`${c}${s}`) ? `<button data-act='${esc(JSON.stringify({ bid: `${c}${s}` }))}' class="bid ${"HD".includes(s) ? "red" : ""}">${esc(bidText(`${c}${s}`))}</button>` : `<span></span>`).join("")).join("") + `</div>`;
    }
    const rest = others.filter((e) => !bids.includes(e));
    if (rest.length) html += `<div class="buttons">${rest.map((e) => `<button data-act='${esc(JSON.stringify(e.action))}' class="${"claim" in e.action ? "claim" : ""}">${esc(e.label[LANG])}</button>`).join("")}</div>`;
    if (discardN > 1) html += `<div class="buttons"><span>${t("selectN", discardN)}</span><button id="discard" ${this.selected.length === discardN ? "" : "disabled"}>${t("send")}</button></div>`;
    // the request of the joker lead on the table: the trick in progress, else the one just taken
    const jr = f.view.joker_request || (f.view.trick ? null : f.view.last_trick_request);
    if (jr) html += `<div class="note">${esc(term(f.table.game, "joker_request"))}: ${requestText(jr)}</div>`;
    el.innerHTML = html;
    $$("#controls [data-act]").forEach((b) => b.addEventListener("click", () => {
      const a = JSON.parse(b.dataset.act);
      if ("claim" in a && !confirm(t("confirmClaim"))) return;
      this.send(a);
    }));
    const d = $("#discard");
    if (d) d.addEventListener("click", () => this.send({ discard: this.selected.slice() }));
  },
  tool(k) {
    const f = this.frame, v = f.view, n = f.table.seats.length;
    if (k === "last") {
      const tr = v.last_trick;
      const jr = v.last_trick_request ? `<p>${esc(term(f.table.game, "joker_request"))}: ${requestText(v.last_trick_request)}</p>` : "";
      dialog(`<h3>${t("lastTrick")}</h3>` + (tr ? trickCardsHTML(tr, n) + jr + (v.last_trick_winner != null ? `<p>${t("winner")}: ${esc(seatName(v.last_trick_winner))}</p>` : "") : `<p>${t("noTrick")}</p>`));
    } else if (k === "sheet") dialog(sheetHTML(f.sheet, f.table.units[LANG], v.totals, f.table.game));
    else if (k === "deal") this.showLastDeal();
    else if (k === "rules") dialog(rulesHTML(f.table.game));
  },
  lastDeal() {
    const f = this.frame, v = f.view;
    if (!v.last_deal && !f.finished_deal) return null;
    const d = Object.assign({}, v.last_deal || (f.finished_deal && f.sheet[f.finished_deal.deal]) || {});
    if (!d.hands && f.finished_deal) { d.hands = f.finished_deal.hands; if (!("rest" in d)) d.rest = f.finished_deal.rest; }
    return d;
  },
  showLastDeal() {
    const d = this.lastDeal(); if (!d) return;
    dialog(`<h3>${t("dealResult", this.frame.view.deal_number)}</h3>` + dealResultHTML(d, this.frame.table.game, this.frame.table.seats.length), "wide");
  },
  showOver() {
    const f = this.frame, v = f.view;
    const units = f.table.units[LANG];
    dialog(`<h3>${t("matchOver")}</h3><p>${units.map((u, i) => `${esc(u)}: <b>${v.totals[i]}</b>`).join("<br>")}</p>` +
      (this.lastDeal() ? dealResultHTML(this.lastDeal(), f.table.game, f.table.seats.length) : "") +
      `<p><a class="button" href="/api/tables/${esc(f.table.id)}/record" download>${t("download")}</a> <a class="button primary" href="/replay?table=${esc(f.table.id)}">${t("replay")}</a></p>`, "wide");
  },
};

function trickCardsHTML(tr, n) {
  tr = normTrick(tr); if (!tr) return "";
  const ss = trickSeats(tr, n);
  return `<div class="trickrow">${tr.cards.map((c, i) => `<div class="mini"><small>${esc(seatName(ss[i]))}</small>${cardSVG(c)}</div>`).join("")}</div>`;
}
function handsHTML(hands) {
  return hands.map((h, s) => `<div class="handrow"><span>${esc(seatName(s))}</span><span class="minis">${h.map((c) => `<span class="mini" data-code="${esc(c)}">${cardSVG(c)}</span>`).join("")}</span></div>`).join("");
}
function dealResultHTML(d, game, n) {
  let html = "";
  if (d.hands) html += `<h4>${t("handsUp")}</h4>` + handsHTML(d.hands);
  const rows = Object.entries(d).filter(([k]) => !["hands", "tricks"].includes(k)).map(([k, x]) =>
    `<tr><th>${esc(term(game, k))}</th><td>${SEAT_FIELDS.has(k) && typeof x === "number" ? esc(seatName(x)) : valueHTML(x, game, n)}</td></tr>`).join("");
  html += `<table class="kv">${rows}</table>`;
  if (d.tricks && d.tricks.length) html += `<details><summary>${t("trick")} (${d.tricks.length})</summary>${d.tricks.map((tr) => trickCardsHTML(tr, n)).join("")}</details>`;
  return html;
}
function sheetHTML(sheet, units, totals, game) {
  const extra = ["contract", "declarer", "napoleon", "trump"].filter((k) => sheet.some((d) => k in d));
  return `<h3>${t("sheet")}</h3><table class="sheet"><tr><th>${t("deal")}</th><th>${t("outcome")}</th>${extra.map((k) => `<th>${esc(term(game, k))}</th>`).join("")}${units.map((u) => `<th>${esc(u)}</th>`).join("")}</tr>` +
    sheet.map((d, i) => `<tr><td>${i + 1}</td><td>${esc(I18N[LANG].outcomes[d.outcome] || d.outcome)}</td>${extra.map((k) => `<td>${k === "declarer" || k === "napoleon" ? esc(seatName(d[k])) : valueHTML(d[k], game)}</td>`).join("")}${(d.score || []).map((x) => `<td>${x}</td>`).join("")}</tr>`).join("") +
    `<tr class="tot"><td colspan="${2 + extra.length}">${t("total")}</td>${totals.map((x) => `<td>${x}</td>`).join("")}</tr></table>`;
}
function rulesHTML(game) {
  const r = (GAME_UI[game] || {}).rules;
  return `<h3>${t("rules")}</h3>` + (r ? `<ul class="rules">${r[LANG].map((x) => `<li>${x}</li>`).join("")}</ul>` : "");
}

// -- the replay viewer ----------------------------------------------------------------------
const Replay = {
  data: null, i: 0,
  async open() {
    current = this; Table.frame = null; await games();
    const q = new URLSearchParams(location.search);
    try {
      if (q.get("table")) this.data = await api(`/api/tables/${encodeURIComponent(q.get("table"))}/replay`);
      else { const s = sessionStorage.getItem("kf:replay"); this.data = s ? JSON.parse(s) : null; }
    } catch (e) { $("#app").innerHTML = `<p class="center">${esc(e.message)}</p>`; return; }
    if (!this.data) { location.href = "/"; return; }
    this.i = 0; this.render();
    document.onkeydown = (e) => { if (current !== this) return; if (e.key === "ArrowRight") this.go(this.i + 1); if (e.key === "ArrowLeft") this.go(this.i - 1); };
  },
  async upload(file) {
    if (!file) return;
    const text = await file.text();
    try {
      const data = await api("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
      sessionStorage.setItem("kf:replay", JSON.stringify(data));
      history.pushState(null, "", "/replay"); this.open();
    } catch (e) { toast(`${t("error")}: ${e.message}`); }
  },
  go(i) { this.i = Math.max(0, Math.min(this.data.steps.length - 1, i)); this.render(); },
  render() {
    if (current !== this) return;
    const d = this.data, st = d.steps[this.i], v = st.view, n = st.hands.length, game = d.game;
    $("#title").textContent = `${t("replay")} · ${gameOf(game).name[LANG]}`;
    const deals = d.summary.deals;
    const dealSum = deals[st.deal] || {};
    const trick = normTrick(v.trick) || normTrick(v.last_trick);
    $("#app").innerHTML = `<section class="replay">
      <div class="stepbar"><button data-go="first">⏮ ${t("first")}</button><button data-go="prev">◀ ${t("prev")}</button>
        <input type="range" id="slider" min="0" max="${d.steps.length - 1}" value="${this.i}">
        <button data-go="next">${t("next")} ▶</button><button data-go="last">${t("last")} ⏭</button></div>
      <p class="steplabel" id="steplabel"><b>${t("deal")} ${st.deal + 1}</b> · ${st.index < 0 ? t("start") : `${t("step")} ${st.index + 1}: ${esc(seatName(st.seat))} — <b>${esc(st.label[LANG])}</b>`}
        <span class="muted">(${this.i + 1}/${d.steps.length})</span></p>
      <div class="cols"><div>${handsHTML(st.hands)}
        <h4>${t("trick")}</h4>${trick ? trickCardsHTML(trick, n) : `<p>${t("noTrick")}</p>`}</div>
      <div><table class="kv"><tr><th>${t("phase")}</th><td>${esc(v.phase)}</td></tr><tr><th>${t("toAct")}</th><td>${esc(seatName(v.to_act))}</td></tr>
        ${Object.keys(v).filter((k) => !HIDE_INFO.has(k)).map((k) => `<tr><th>${esc(term(game, k))}</th><td>${SEAT_FIELDS.has(k) && typeof v[k] === "number" ? esc(seatName(v[k])) : valueHTML(v[k], game, n)}</td></tr>`).join("")}
        <tr><th>${t("outcome")}</th><td>${esc(I18N[LANG].outcomes[dealSum.outcome] || dealSum.outcome || "")} ${dealSum.score ? "(" + dealSum.score.join(" – ") + ")" : ""}</td></tr>
        ${d.units[LANG].map((u, i) => `<tr><th>${esc(u)}</th><td>${v.totals[i]}</td></tr>`).join("")}</table></div></div>
      <p><a class="button" id="dl" download="${esc(game)}-record.json">${t("download")}</a> <button data-tool="sheet">${t("sheet")}</button></p>
    </section>`;
    const blob = new Blob([d.record_text], { type: "application/json" });
    $("#dl").href = URL.createObjectURL(blob);
    $$("[data-go]").forEach((b) => b.addEventListener("click", () => {
      const k = b.dataset.go; this.go(k === "first" ? 0 : k === "last" ? d.steps.length - 1 : k === "prev" ? this.i - 1 : this.i + 1);
    }));
    $("#slider").addEventListener("input", (e) => this.go(+e.target.value));
    $('[data-tool="sheet"]').addEventListener("click", () => dialog(sheetHTML(deals.filter((x) => x.outcome !== "in-progress"), d.units[LANG], d.summary.totals, game)));
  },
};

// -- start ----------------------------------------------------------------------------------
$("#lang").addEventListener("change", (e) => setLang(e.target.value));
$("#close").addEventListener("click", closeDialog);
$("#overlay").addEventListener("click", (e) => { if (e.target.id === "overlay") closeDialog(); });
document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeDialog(); });
window.addEventListener("popstate", route);
setLang(LANG);
route();
