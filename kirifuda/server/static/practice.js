// Practice tables (練習卓) in the browser: the lobby's "practice table" box and deal kind, and at
// the table the practice panel: undo, play a deal again (from its start or a trick), the kind of
// the next deals.  The server decides everything (kirifuda/server/practice.py); this file only
// asks and shows.  It uses app.js's helpers (t, esc, $, $$, api, toast, announce, LANG) and is
// called from app.js through four hooks: lobbyHTML, bindLobby, createBody, panelHTML/bind.
"use strict";

const Practice = {
  kinds: null,          // GET /api/practice/kinds: {game: [{key, name: {en, ja}}]}
  status: null,         // POST /api/tables/{id}/practice, for the frame's version
  asked: null,          // "table:version" last asked for
  busy: false,

  // -- the lobby ------------------------------------------------------------------------------
  loadKinds() {
    if (this.kinds || this.loading) return this.loading;
    this.loading = api("/api/practice/kinds").then((k) => { this.kinds = k; return k; }).catch(() => { this.kinds = {}; return {}; });
    return this.loading;
  },
  kindName(k) { return k.name[LANG] || k.name.en; },
  lobbyHTML(g) {
    const kinds = (this.kinds && this.kinds[g.id]) || [];
    const on = !!this.lobbyOn;
    return `<div class="opt practice-opt"><label for="practice"><span>${esc(t("practice.lobby"))}</span> <input type="checkbox" id="practice" ${on ? "checked" : ""}></label>
      <small>${esc(t("practice.lobby_doc"))}</small>
      <label for="practice-kind" class="row" ${on ? "" : "hidden"}><span>${esc(t("practice.kind"))}</span>
        <select id="practice-kind"><option value="">${esc(t("practice.kind_none"))}</option>${kinds.map((k) => `<option value="${esc(k.key)}">${esc(this.kindName(k))}</option>`).join("")}</select></label></div>`;
  },
  bindLobby(lobby, g) {
    if (!this.kinds) { this.loadKinds().then(() => { if (current === lobby && lobby.game === g.id) lobby.render(); }); }
    const box = $("#practice");
    if (!box) return;
    box.addEventListener("change", () => {
      this.lobbyOn = box.checked;
      const kind = $("#practice-kind").closest("label");
      kind.hidden = !box.checked;
      const hints = $("#hints");
      if (hints && box.checked) { hints.checked = true; }
      if (hints) hints.disabled = box.checked;            // a practice table always allows hints
    });
    if (box.checked && $("#hints")) { $("#hints").checked = true; $("#hints").disabled = true; }
  },
  tag(info) { return info.practice ? ` <span class="tag">${esc(t("practice.title"))}</span>` : ""; },
  createBody() {
    const box = $("#practice");
    if (!box || !box.checked) return {};
    const humans = $$("#seats .seat-row select").filter((el) => el.value === "human").length;
    if (humans !== 1) throw new Error(t("practice.one_human", { n: humans }));   // said before asking
    const kind = $("#practice-kind").value;
    return { practice: { kind: kind || null }, hints: true };
  },

  // -- the table ------------------------------------------------------------------------------
  mine(table, f) {
    const p = f.table.practice;
    return !!(p && table.token && f.seat === p.seat);
  },
  panelHTML(table, f) {
    const p = f.table.practice;
    if (!p) return "";
    if (!this.mine(table, f)) return `<p class="muted practice-note">${esc(t("practice.unrated"))}</p>`;
    const s = this.status && this.status.table === f.table.id ? this.status : null;
    const undo = s && s.undo;
    const deals = (s && s.deals) || [];
    const cur = deals.length ? deals[deals.length - 1] : null;
    const prev = deals.length > 1 ? deals[deals.length - 2] : null;
    const tricks = cur ? cur.tricks : 0;
    const kinds = (s && s.kinds) || [];
    const dis = this.busy || !s || s.version !== f.version ? "disabled" : "";
    const opts = [`<option value="0">${esc(t("practice.from_start"))}</option>`]
      .concat(Array.from({ length: tricks }, (_, i) => `<option value="${i + 1}">${esc(t("practice.from_trick", { n: i + 1 }))}</option>`));
    return `<section class="practice" id="practice-panel" aria-labelledby="practice-h">
      <h3 id="practice-h">${esc(t("practice.title"))}</h3>
      <div class="practice-row">
        <button data-practice="undo" ${dis} ${undo && !undo.allowed ? `aria-disabled="true"` : ""} aria-describedby="practice-why">${esc(t("practice.undo"))}</button>
        <label for="practice-from"><span>${esc(t("practice.from"))}</span> <select id="practice-from" ${dis}>${opts.join("")}</select></label>
        <button data-practice="again" ${dis}>${esc(t("practice.again"))}</button>
        ${prev ? `<button data-practice="again-prev" ${dis}>${esc(t("practice.again_prev"))}</button>` : ""}
      </div>
      <div class="practice-row">
        <label for="practice-next" class="practice-kind"><span>${esc(t("practice.kind"))} (${esc(t("practice.kind_next"))})</span>
          <select id="practice-next" ${dis}><option value="">${esc(t("practice.kind_none"))}</option>${kinds.map((k) => `<option value="${esc(k.key)}" ${s && s.kind === k.key ? "selected" : ""}>${esc(this.kindName(k))}</option>`).join("")}</select></label>
      </div>
      <p class="muted" id="practice-why">${undo && !undo.allowed ? esc(undo.reason) : ""}</p>
      ${s && s.kind_note ? `<p class="warn">${esc(s.kind_note)}</p>` : ""}
      <p class="muted practice-note">${esc(t("practice.unrated"))}</p>
    </section>`;
  },
  bind(table, f) {
    if (!this.mine(table, f)) return;
    const key = `${f.table.id}:${f.version}`;
    if (this.asked !== key) {
      this.asked = key;
      this.post(table, "practice", {}).then((s) => {
        this.status = s;
        if (current === table && table.frame && table.frame.version === s.version) table.render();
      }).catch(() => {});
    }
    $$("#practice-panel [data-practice]").forEach((b) => b.addEventListener("click", () => this.act(table, b.dataset.practice)));
    const next = $("#practice-next");
    if (next) next.addEventListener("change", () => this.setKind(table, next.value || null));
  },
  post(table, what, body) {
    return api(`/api/tables/${encodeURIComponent(table.id)}/${what}`, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(Object.assign({ token: table.token, lang: LANG }, body)) });
  },
  async act(table, what) {
    const f = table.frame, s = this.status;
    if (what === "undo" && s && s.undo && !s.undo.allowed) { toast(s.undo.reason); announce(s.undo.reason); return; }
    this.busy = true; table.render();
    try {
      if (what === "undo") {
        const r = await this.post(table, "undo", { version: f.version });
        const m = t("practice.undone", { what: r.undone });
        toast(m); announce(m);
      } else {
        const deals = (s && s.deals) || [];
        const body = what === "again-prev" ? { deal: deals.length - 2, trick: 0 }
          : { deal: deals.length - 1, trick: parseInt(($("#practice-from") || { value: "0" }).value, 10) || 0 };
        await this.post(table, "replay", Object.assign(body, { version: f.version }));
        toast(t("practice.replayed")); announce(t("practice.replayed"));
      }
    } catch (e) { toast(`${t("error")}: ${e.message}`); announce(e.message); }
    this.busy = false; this.asked = null;
    if (current === table) table.render();
  },
  async setKind(table, kind) {
    try {
      const s = await this.post(table, "kind", { kind });
      const k = (s.kinds || []).find((x) => x.key === kind);
      const m = t("practice.kind_set", { kind: k ? this.kindName(k) : t("practice.kind_none") });
      toast(m); announce(m);
    } catch (e) { toast(`${t("error")}: ${e.message}`); }
    this.asked = null;
  },
};
window.Practice = Practice;

// its look, kept with it (the page's style sheet stays the table's)
(function practiceStyle() {
  const css = `.practice { background: #fff; border: 2px solid #2f7d32; border-radius: 8px; padding: .4em .8em .5em; max-width: 40em;
      margin: 0 auto; width: 100%; min-width: 0; box-sizing: border-box; font-size: .92em; }
    .practice h3 { margin: 0 0 .2em; font-size: 1em; color: #1f5e22; }
    .practice p { margin: .2em 0; }
    .practice-row { display: flex; flex-wrap: wrap; gap: .4em .6em; align-items: center; margin: .25em 0; }
    .practice-row label { display: inline-flex; gap: .3em; align-items: center; }
    .practice .practice-kind { flex-direction: column; align-items: flex-start; width: 100%; }
    .practice .practice-kind, .practice select { max-width: 100%; min-width: 0; }
    .practice button[aria-disabled="true"] { opacity: .6; }
    .practice-note { font-size: .85em; text-align: center; }
    .practice-opt .row { display: flex; gap: .4em; align-items: center; margin-top: .3em; }`;
  const el = document.createElement("style");
  el.id = "practice-style"; el.textContent = css;
  document.head.appendChild(el);
})();
