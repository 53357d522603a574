// A signed-in player's seats are theirs from any device: a seat taken with its invitation link is
// kept in the account (POST /api/me/seats), and the lobby of any browser signed in to the same
// account learns it back (GET /api/me/seats), so "your seat" and the way to it appear there too.
// app.js calls MySeats.keep() on a seat's welcome and MySeats.sync() after drawing the lobby.
"use strict";

const MySeats = {
  synced: false,

  // a seat just taken with its token: kept in the account, once per table and seat in this browser
  keep(tableId, seat, token) {
    const key = `kf:kept:${tableId}:${seat}`;
    try { if (localStorage.getItem(key) === token) return; } catch (e) { return; }
    fetch("/api/me/seats", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ table_id: tableId, seat, link: `/t/${tableId}#token=${token}` }) })
      .then((r) => { if (r.ok) localStorage.setItem(key, token); })   // a guest: 401, nothing kept
      .catch(() => {});
  },

  // the account's seats made this browser's own, once the lobby knows who is signed in
  async sync() {
    if (this.synced || typeof Clubs === "undefined" || !Clubs.me) return;
    this.synced = true;
    let seats = [];
    try { const r = await fetch("/api/me/seats"); seats = r.ok ? await r.json() : []; } catch (e) { return; }
    let added = 0;
    for (const s of seats) {
      const tok = /#token=([A-Za-z0-9_-]+)$/.exec(s.link || "");
      if (tok && !Keys.seat(s.table_id)) { Keys.setSeat(s.table_id, tok[1], s.seat); added += 1; }
    }
    if (added && current === Lobby && Lobby.tables) Lobby.renderTables();
  },
};
