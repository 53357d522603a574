// Clubs in the lobby: signing in (a password, or a passkey where the browser offers
// them), my clubs' rule presets offered first when creating a table, a club's table or a rated
// one, each club's open tables, and my matches with their replay and the coach's review. A
// signed-in player creates a club; a club's tab shows its members, leaderboard per game, recent
// matches and exports, and lets its administrator add and remove members and save the lobby's
// game and rules as a preset. app.js calls Clubs.lobby() after drawing the lobby,
// Clubs.tableFields() when creating a table.
"use strict";

const Clubs = {
  me: undefined, clubs: [], presets: [], tab: null, tables: {}, profile: null, loading: null,
  info: null, matches: [], boards: [],

  // -- data ------------------------------------------------------------------------------------
  // everything fetched first, then set at once: a lobby drawn meanwhile never shows half of it
  async load() {
    const get = (p) => fetch(p).then((r) => (r.ok ? r.json() : null)).catch(() => null);
    const [me, presets] = await Promise.all([get("/api/me"), get("/api/me/presets")]);
    const [clubs, profile] = me ? await Promise.all([get("/api/clubs"), get("/api/me/profile")]) : [[], null];
    let tab = this.tab;
    if (tab && !(clubs || []).some((c) => c.id === tab)) tab = null;
    if (!tab && clubs && clubs.length) tab = clubs[0].id;
    let tables = null, info = null, matches = null, boards = [];
    if (tab) {
      const at = `/api/clubs/${encodeURIComponent(tab)}`;
      const board = (g) => get(`${at}/leaderboard?game=${encodeURIComponent(g.id)}`).then((rows) => ({ game: g.id, rows: rows || [] }));
      [tables, info, matches, boards] = await Promise.all([get(`${at}/tables`), get(at), get(`${at}/matches`),
        Promise.all((GAMES || []).map(board))]);
      this.tables[tab] = tables || [];
    }
    Object.assign(this, { me, presets: presets || [], clubs: clubs || [], profile, tab, info, matches: matches || [], boards });
  },
  async reload() { this.loading = this.load(); await this.loading; if (current === Lobby) Lobby.render(); },
  // the clubs' rows and panel drawn again, the rest of the lobby (its game and rules) kept
  async refresh(focus) {
    this.loading = this.load(); await this.loading;
    const old = $("#clubs"); if (current !== Lobby || !old) return;
    $$(".preset-row, .club-row").forEach((el) => el.remove());
    this.presetRow(Lobby); this.ratedRow(); this.panel(old);
    const el = focus && document.getElementById(focus); if (el) el.focus();
  },

  // -- the lobby's hooks -----------------------------------------------------------------------
  lobby(lobby) {
    if (this.me === undefined) { if (!this.loading) this.reload(); return; }
    this.presetRow(lobby);
    this.ratedRow();
    this.panel();
  },
  tableFields() {
    const club = $("#kf-club"), rated = $("#kf-rated");
    const out = {};
    if (club && club.value) out.club = club.value;
    if (rated && rated.checked) out.rated = true;
    return out;
  },

  // rules: my clubs' presets first, then each game's standard rules
  presetRow(lobby) {
    const panel = $(".lobby .opts"); if (!panel) return;
    const mine = this.presets.filter((p) => p.club), std = this.presets.filter((p) => !p.club);
    const clubsOf = [...new Set(mine.map((p) => p.club.name))];
    const opt = (p, i) => `<option value="${i}">${esc(p.club ? p.name : t("clubs.standard", { game: gameOf(p.game) ? gameOf(p.game).name[LANG] : p.game }))}</option>`;
    const idx = (p) => this.presets.indexOf(p);
    const row = document.createElement("div");
    row.className = "opt preset-row";
    row.innerHTML = `<label for="kf-preset"><span>${esc(t("clubs.preset"))}</span> <select id="kf-preset">
      <option value="">${esc(t("clubs.preset_none"))}</option>
      ${clubsOf.map((c) => `<optgroup label="${esc(c)}">${mine.filter((p) => p.club.name === c).map((p) => opt(p, idx(p))).join("")}</optgroup>`).join("")}
      <optgroup label="${esc(t("clubs.standard_rules"))}">${std.map((p) => opt(p, idx(p))).join("")}</optgroup></select></label>
      <small>${esc(t("clubs.preset_doc"))}</small>`;
    panel.prepend(row);
    if (this.picked !== undefined) $("#kf-preset").value = String(this.picked);
    $("#kf-preset").addEventListener("change", (e) => {
      const i = e.target.value; if (i === "") { this.picked = undefined; return; }
      this.apply(lobby, this.presets[+i], +i);
    });
  },
  apply(lobby, p, i) {
    this.picked = i;
    if (p.club) this.club = p.club.id;
    lobby.game = p.game; lobby.created = null; lobby.render();
    for (const [k, v] of Object.entries(p.options || {})) {
      const el = $(`[name="opt-${k}"]`); if (!el) continue;
      if (el.type === "checkbox") el.checked = !!v;
      else if (el.tagName === "SELECT") el.value = JSON.stringify(v);
      else el.value = v === null ? "" : v;
    }
    lobby.renderSeats();
    announce(t("clubs.preset_applied", { name: p.name || t("clubs.standard_rules") }));
  },
  ratedRow() {
    const hints = $("#hints"); if (!hints) return;
    const at = hints.closest(".opt");
    const row = document.createElement("div");
    row.className = "club-row";
    if (!this.me || !this.clubs.length) {
      row.innerHTML = `<p class="muted"><small>${esc(t("clubs.rated_sign_in"))}</small></p>`;
      at.after(row); return;
    }
    row.innerHTML = `<label class="row" for="kf-club">${esc(t("clubs.table_of"))} <select id="kf-club">
        <option value="">${esc(t("clubs.no_club"))}</option>${this.clubs.map((c) => `<option value="${esc(c.id)}">${esc(c.name)}</option>`).join("")}</select></label>
      <div class="opt"><label for="kf-rated"><span>${esc(t("clubs.rated_table"))}</span> <input type="checkbox" id="kf-rated"></label><small>${esc(t("clubs.rated_doc"))}</small></div>`;
    at.after(row);
    const club = $("#kf-club"), rated = $("#kf-rated");
    club.value = this.club || "";
    rated.checked = !!this.rated && !!club.value;
    const sync = () => {
      this.club = club.value; if (!club.value) rated.checked = false;
      this.rated = rated.checked; rated.disabled = !club.value;
      hints.disabled = rated.checked; if (rated.checked) hints.checked = false;
    };
    club.addEventListener("change", sync); rated.addEventListener("change", sync); sync();
  },

  // -- the clubs panel: account, clubs (tabs: open tables, presets), my matches ---------------
  panel(old) {
    const lobby = $(".lobby"); if (!lobby) return;
    const sec = document.createElement("div");
    sec.className = "panel clubs"; sec.id = "clubs";
    sec.innerHTML = `<h2>${esc(t("clubs.title"))}</h2>${this.accountHTML()}${this.me ? this.clubsHTML() + this.newClubHTML() + this.matchesHTML() : ""}`;
    if (old) old.replaceWith(sec); else lobby.append(sec);
    this.wire(sec);
  },
  accountHTML() {
    const pk = !!window.PublicKeyCredential;
    if (this.me) return `<div class="account"><p>${esc(t("clubs.signed_in_as", { name: this.me.name }))}</p>
      ${pk ? `<button id="kf-pk-add">${esc(t("clubs.passkey_add"))}</button>` : ""}
      <button id="kf-sign-out">${esc(t("clubs.sign_out"))}</button></div>`;
    return `<form class="account" id="kf-account"><p><small>${esc(t("clubs.account_doc"))}</small></p>
      <label class="row" for="kf-name">${esc(t("clubs.account_name"))} <input id="kf-name" autocomplete="username webauthn" maxlength="32"></label>
      <label class="row" for="kf-password">${esc(t("clubs.password"))} <input id="kf-password" type="password" autocomplete="current-password" maxlength="256"></label>
      <button id="kf-sign-in" class="primary" type="submit">${esc(t("clubs.sign_in"))}</button>
      <button id="kf-sign-up" type="button">${esc(t("clubs.sign_up"))}</button>
      ${pk ? `<button id="kf-pk-login" type="button">${esc(t("clubs.passkey_sign_in"))}</button>` : ""}</form>`;
  },
  clubsHTML() {
    if (!this.clubs.length) return `<p>${esc(t("clubs.none"))}</p>`;
    const club = this.clubs.find((c) => c.id === this.tab) || this.clubs[0];
    const tables = this.tables[club.id] || [];
    const presets = this.presets.filter((p) => p.club && p.club.id === club.id);
    return `<div class="tabs" role="tablist" aria-label="${esc(t("clubs.title"))}">${this.clubs.map((c) => `<button role="tab" id="kf-tab-${esc(c.id)}" data-club="${esc(c.id)}" aria-selected="${c.id === club.id}" aria-controls="kf-club-panel" tabindex="${c.id === club.id ? 0 : -1}">${esc(c.name)}</button>`).join("")}</div>
      <div role="tabpanel" id="kf-club-panel" aria-labelledby="kf-tab-${esc(club.id)}">
      <h3>${esc(t("clubs.open_tables"))}</h3>${tables.length ? `<ul class="tables club-tables">${tables.map((x) => `<li><a href="/t/${esc(x.id)}">${esc(x.name[LANG])} <code>${esc(x.id)}</code></a>
        ${x.rated ? `<span class="tag rated">${esc(t("clubs.rated"))}</span>` : ""} ${x.seats.map((s) => esc(s.name)).join(" · ")}
        <small>${esc(t("clubs.free_seats", { n: x.free.length }))}</small></li>`).join("")}</ul>` : `<p>${esc(t("clubs.no_open_tables"))}</p>`}
      <h3>${esc(t("clubs.presets"))}</h3>${presets.length ? `<ul class="club-presets">${presets.map((p) => `<li><button class="linklike" data-preset="${this.presets.indexOf(p)}">${esc(p.name)}</button> <small>${esc(gameName(p.game))}</small>
        ${club.admin ? `<button class="small" data-preset-delete="${esc(p.name)}" aria-label="${esc(t("clubs.delete_preset", { name: p.name }))}">${esc(t("clubs.delete"))}</button>` : ""}</li>`).join("")}</ul>` : `<p>${esc(t("clubs.no_presets"))}</p>`}
      ${club.admin ? this.presetFormHTML() : ""}${this.membersHTML(club)}${this.boardsHTML(club)}${this.recentHTML(club)}</div>`;
  },
  // -- a club's tab: what its administrator manages, what every member sees -------------------
  presetFormHTML() {
    const g = gameOf(Lobby.game);
    return `<form class="club-form" id="kf-preset-form"><label class="row" for="kf-preset-name">${esc(t("clubs.preset_name"))} <input id="kf-preset-name" maxlength="80" aria-describedby="kf-preset-doc"></label>
      <p><small id="kf-preset-doc">${esc(t("clubs.save_preset_doc", { game: g ? g.name[LANG] : "" }))}</small></p>
      <button type="submit" id="kf-preset-save">${esc(t("clubs.save_preset"))}</button><p class="note" id="kf-note-presets" role="status"></p></form>`;
  },
  membersHTML(club) {
    const info = this.info && this.info.id === club.id ? this.info : null; if (!info) return "";
    return `<h3>${esc(t("clubs.members"))}</h3><ul class="club-members">${info.members.map((n) => `<li>${esc(n)}
      ${n === info.admin ? `<span class="tag">${esc(t("clubs.admin"))}</span>`
        : club.admin ? `<button class="small" data-member-remove="${esc(n)}" aria-label="${esc(t("clubs.remove_member", { name: n }))}">${esc(t("clubs.remove"))}</button>` : ""}</li>`).join("")}</ul>
      ${club.admin ? `<form class="club-form" id="kf-member-form"><label class="row" for="kf-member-name">${esc(t("clubs.account_name"))} <input id="kf-member-name" maxlength="32" autocomplete="off"></label>
        <button type="submit" id="kf-member-add">${esc(t("clubs.add_member"))}</button><p class="note" id="kf-note-members" role="status"></p></form>` : ""}`;
  },
  // the leaderboard of each game with rated matches: rank, name (a bot by its level), rating, matches
  boardsHTML(club) {
    const at = `/api/clubs/${encodeURIComponent(club.id)}`;
    const boards = this.boards.filter((b) => b.rows.length);
    return `<h3>${esc(t("clubs.leaderboard"))}</h3>${boards.length ? `<p><small>${esc(t("clubs.rating_doc"))}</small></p>` + boards.map((b) => `
      <h4 id="kf-board-${esc(b.game)}">${esc(gameName(b.game))}</h4>
      <table class="kv leaderboard" aria-labelledby="kf-board-${esc(b.game)}"><thead><tr><th scope="col">${esc(t("clubs.rank"))}</th><th scope="col">${esc(t("clubs.player"))}</th>
        <th scope="col">${esc(t("clubs.rating"))}</th><th scope="col">${esc(t("clubs.played"))}</th></tr></thead>
        <tbody>${b.rows.map((r, i) => `<tr><td>${i + 1}</td><th scope="row">${esc(who(r.name))}</th><td>${esc(r.ordinal.toFixed(2))}</td><td>${esc(r.matches)}</td></tr>`).join("")}</tbody></table>
      <p><a href="${at}/standings.csv?game=${encodeURIComponent(b.game)}" download>${esc(t("clubs.standings_csv", { game: gameName(b.game) }))}</a></p>`).join("")
      : `<p class="empty-board">${esc(t("clubs.no_ratings"))}</p>`}`;
  },
  recentHTML(club) {
    const at = `/api/clubs/${encodeURIComponent(club.id)}`;
    const ms = this.matches.slice().reverse().slice(0, 10);
    return `<h3>${esc(t("clubs.recent"))}</h3>${ms.length ? `<ul class="club-matches">${ms.map((m) => this.matchHTML(m)).join("")}</ul>` : `<p>${esc(t("clubs.no_club_matches"))}</p>`}
      <h3>${esc(t("clubs.export"))}</h3><p><a href="${at}/export.zip" download>${esc(t("clubs.export_zip"))}</a></p>`;
  },
  newClubHTML() {
    return `<form class="club-form" id="kf-club-form"><h3>${esc(t("clubs.new_club"))}</h3>
      <label class="row" for="kf-club-name">${esc(t("clubs.club_name"))} <input id="kf-club-name" maxlength="80" autocomplete="off"></label>
      <button type="submit" id="kf-club-create">${esc(t("clubs.create_club"))}</button><p class="note" id="kf-note-create" role="status"></p></form>`;
  },
  matchHTML(m) {
    return `<li><b>${esc(gameName(m.game))}</b> ${m.rated ? `<span class="tag rated">${esc(t("clubs.rated"))}</span>` : ""}
      ${esc((m.players || []).map(who).join(" · "))} <small>(${esc(m.totals.map(String).join(" / "))})</small>
      <button class="linklike" data-replay="${esc(m.replay)}">${esc(t("replay"))}</button>
      ${(m.reviews || []).map((r, i) => `<button class="linklike" data-review-url="${esc(r)}" data-deal="${i}">${esc(t("clubs.review_deal", { n: +/deal=(\d+)/.exec(r)[1] + 1 }))}</button>`).join(" ")}</li>`;
  },
  matchesHTML() {
    const ms = (this.profile && this.profile.matches) || [];
    if (!ms.length) return `<h3>${esc(t("clubs.my_matches"))}</h3><p>${esc(t("clubs.no_matches"))}</p>`;
    return `<h3>${esc(t("clubs.my_matches"))}</h3><ul class="my-matches">${ms.slice().reverse().slice(0, 20).map((m) => this.matchHTML(m)).join("")}</ul>`;
  },
  wire(sec) {
    const on = (sel, ev, fn) => { const el = $(sel, sec); if (el) el.addEventListener(ev, fn); };
    on("#kf-account", "submit", (e) => { e.preventDefault(); this.signIn("/api/login"); });
    on("#kf-sign-up", "click", () => this.signIn("/api/accounts"));
    on("#kf-sign-out", "click", async () => { await fetch("/api/logout", { method: "POST" }); this.reload(); });
    on("#kf-pk-login", "click", () => this.passkeySignIn());
    on("#kf-pk-add", "click", () => this.passkeyAdd());
    on("#kf-club-form", "submit", (e) => { e.preventDefault(); this.createClub(); });
    on("#kf-member-form", "submit", (e) => { e.preventDefault(); this.addMember(); });
    on("#kf-preset-form", "submit", (e) => { e.preventDefault(); this.savePreset(); });
    $$("[data-member-remove]", sec).forEach((b) => b.addEventListener("click", () => this.removeMember(b.dataset.memberRemove)));
    $$("[data-preset-delete]", sec).forEach((b) => b.addEventListener("click", () => this.deletePreset(b.dataset.presetDelete)));
    $$("[role=tab]", sec).forEach((b) => {
      b.addEventListener("click", () => { this.tab = b.dataset.club; this.refresh(b.id); });
      b.addEventListener("keydown", (e) => {
        if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
        const tabs = $$("[role=tab]", sec), i = tabs.indexOf(b), next = tabs[(i + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
        next.focus(); next.click();
      });
    });
    $$("[data-preset]", sec).forEach((b) => b.addEventListener("click", () => { this.apply(Lobby, this.presets[+b.dataset.preset], +b.dataset.preset); $("#kf-preset").focus(); }));
    $$("[data-replay]", sec).forEach((b) => b.addEventListener("click", async () => {
      try {
        const r = await api(b.dataset.replay);
        sessionStorage.setItem("kf:replay", JSON.stringify(r.steps));
        history.pushState(null, "", "/replay"); Replay.open();
      } catch (e) { toast(`${t("error")}: ${e.message}`); }
    }));
    $$("[data-review-url]", sec).forEach((b) => b.addEventListener("click", () => {
      const deal = +b.dataset.deal;
      const later = api(`${b.dataset.reviewUrl}&lang=${LANG}`).catch((e) => ({ error: e.message }));
      dialogLater((r) => {
        const head = `<h3>${esc(t("coach.review_title", { n: deal + 1 }))}</h3>`;
        if (!r) return head + `<p class="thinking" role="status">${esc(t("coach.reviewing"))}</p>`;
        if (r.error) return head + `<p class="warn">${esc(t("coach.review_failed"))}: ${esc(r.error)}</p>`;
        return head + named(reviewHTML(r), r.players);
      }, later, "wide review");
    }));
  },
  async signIn(path) {
    const name = $("#kf-name").value.trim(), password = $("#kf-password").value;
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, password }) });
    if (!r.ok) {
      // a refusal with its own words (a name that would pass for a bot's: err.bot_name)
      const b = await r.json().catch(() => null), code = b && b.detail && b.detail.code;
      const said = typeof code === "string" ? "err." + code : "";
      if (said && has(said)) { toast(t(said)); return; }
      toast(t({ 401: "clubs.login_failed", 409: "clubs.name_taken", 422: "clubs.bad_account", 429: "clubs.login_limited" }[r.status] || "error")); return;
    }
    toast(t("clubs.signed_in_as", { name })); this.reload();
  },

  // -- creating a club, its members and presets: each refusal of the API in the reader's words --
  // words: an HTTP status → a catalogue key for this request; a refusal with a code is worded by
  // app.js's refusalText; anything else shows the API's own detail
  async send(method, path, body, words, note, params) {
    let r, b = null;
    try {
      r = await fetch(path, body === undefined ? { method } : { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      b = await r.json().catch(() => null);
    } catch (e) { this.say(note, t("clubs.offline"), true); return null; }
    if (r.ok) return b || {};
    const d = b && b.detail, code = (b && b.code) || (d && d.code);
    let text;
    if (typeof code === "string" && has("refusal." + code)) text = refusalText(Object.assign(new Error(""), { code, params: (b && b.params) || (d && d.params) || {} }));
    else if (words[r.status]) text = t(words[r.status], params);
    else text = `${t("error")}: ${typeof d === "string" ? d : (d && d.message) || r.status}`;
    this.say(note, text, true);
    return null;
  },
  say(note, text, warn) {
    const el = document.getElementById(`kf-note-${note}`);
    if (el) { el.textContent = text; el.className = warn ? "note warn" : "note ok"; }
    toast(text);
  },
  async done(note, text, focus) { await this.refresh(focus); this.say(note, text, false); },
  clubPath() { return `/api/clubs/${encodeURIComponent(this.tab)}`; },
  async createClub() {
    const name = $("#kf-club-name").value.trim();
    const r = await this.send("POST", "/api/clubs", { name }, { 401: "clubs.signed_out", 409: "clubs.club_taken", 422: "clubs.bad_club_name" }, "create", { name });
    if (!r) { $("#kf-club-name").focus(); return; }
    this.tab = r.id;
    await this.done("create", t("clubs.club_created", { name: r.name }), `kf-tab-${r.id}`);
  },
  async addMember() {
    const name = $("#kf-member-name").value.trim();
    const r = await this.send("POST", `${this.clubPath()}/members`, { name }, { 401: "clubs.signed_out", 403: "clubs.not_admin", 404: "clubs.no_account", 409: "clubs.already_member", 422: "clubs.bad_member_name" }, "members", { name });
    if (!r) { $("#kf-member-name").focus(); return; }
    await this.done("members", t("clubs.member_added", { name }), "kf-member-name");
  },
  async removeMember(name) {
    const r = await this.send("DELETE", `${this.clubPath()}/members/${encodeURIComponent(name)}`, undefined, { 400: "clubs.admin_stays", 401: "clubs.signed_out", 403: "clubs.not_admin", 404: "clubs.not_member" }, "members", { name });
    if (r) await this.done("members", t("clubs.member_removed", { name }), "kf-member-name");
  },
  async savePreset() {
    const name = $("#kf-preset-name").value.trim(), g = gameOf(Lobby.game);
    if (!name || name.includes("/")) { this.say("presets", t("clubs.preset_name_bad"), true); $("#kf-preset-name").focus(); return; }
    const r = await this.send("PUT", `${this.clubPath()}/presets/${encodeURIComponent(name)}`, { game: g.id, options: Lobby.options(g) },
      { 400: "clubs.bad_preset", 401: "clubs.signed_out", 403: "clubs.not_admin", 404: "clubs.club_gone", 422: "clubs.bad_preset" }, "presets", { name });
    if (!r) { $("#kf-preset-name").focus(); return; }
    await this.done("presets", t("clubs.preset_saved", { name, game: g.name[LANG] }), "kf-preset-name");
  },
  async deletePreset(name) {
    const r = await this.send("DELETE", `${this.clubPath()}/presets/${encodeURIComponent(name)}`, undefined, { 401: "clubs.signed_out", 403: "clubs.not_admin", 404: "clubs.no_preset" }, "presets", { name });
    if (r) { this.picked = undefined; await this.done("presets", t("clubs.preset_deleted", { name }), "kf-preset-name"); }
  },

  // -- passkeys (WebAuthn): the server's options in, the browser's answer out, base64url --------
  async passkeyAdd() {
    try {
      const { flow, options } = await api("/api/passkeys/register/options", { method: "POST" });
      const publicKey = Object.assign({}, options, { challenge: b64u(options.challenge),
        user: Object.assign({}, options.user, { id: b64u(options.user.id) }),
        excludeCredentials: (options.excludeCredentials || []).map((c) => Object.assign({}, c, { id: b64u(c.id) })) });
      const cred = await navigator.credentials.create({ publicKey });
      const credential = { id: cred.id, rawId: u64b(cred.rawId), type: cred.type, clientExtensionResults: cred.getClientExtensionResults(),
        response: { clientDataJSON: u64b(cred.response.clientDataJSON), attestationObject: u64b(cred.response.attestationObject),
          transports: cred.response.getTransports ? cred.response.getTransports() : [] } };
      await api("/api/passkeys/register", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ flow, credential }) });
      toast(t("clubs.passkey_added"));
    } catch (e) { toast(`${t("clubs.passkey_failed")}: ${e.message}`); }
  },
  async passkeySignIn() {
    try {
      const { flow, options } = await api("/api/passkeys/login/options", { method: "POST" });
      const publicKey = Object.assign({}, options, { challenge: b64u(options.challenge),
        allowCredentials: (options.allowCredentials || []).map((c) => Object.assign({}, c, { id: b64u(c.id) })) });
      const a = await navigator.credentials.get({ publicKey });
      const credential = { id: a.id, rawId: u64b(a.rawId), type: a.type, clientExtensionResults: a.getClientExtensionResults(),
        response: { clientDataJSON: u64b(a.response.clientDataJSON), authenticatorData: u64b(a.response.authenticatorData),
          signature: u64b(a.response.signature), userHandle: a.response.userHandle ? u64b(a.response.userHandle) : null } };
      const me = await api("/api/passkeys/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ flow, credential }) });
      toast(t("clubs.signed_in_as", { name: me.name })); this.reload();
    } catch (e) { toast(`${t("clubs.passkey_failed")}: ${e.message}`); }
  },
};
// a rated player's name: a bot by its level's words (search:normal is the search bot's own level)
function who(n) {
  const level = `bots.${n === "search:normal" ? "search" : n}`;
  return has(level) ? `${t("bot")}: ${t(level)}` : n;
}
function gameName(id) { const g = gameOf(id); return g ? g.name[LANG] : id; }
// the review is drawn for a table's seats: here, outside a table, each seat by its player's name
function named(html, players) {
  (players || []).forEach((p, s) => { html = html.split(esc(t("seat", { n: s }))).join(esc(p)); });
  return html;
}
function b64u(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0)).buffer;
}
function u64b(buf) {
  return btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
