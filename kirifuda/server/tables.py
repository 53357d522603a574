"""Tables in play: the engine's state, the seats, their tokens, the bots and the clocks.

The server is the authority: :meth:`LiveTable.act` refuses a stale, out-of-turn or illegal action
without changing anything, applies a legal one to a copy of the state, commits the event to the
database, and only then replaces the state and tells every connection (each its own view).

Seats: a **bot** seat is played by ``kirifuda.bots.make_bot(kind, game)`` (deciding in a worker
thread: one per core, so the bots of different tables think at once); a **human** seat by
whoever holds its secret token.  A human who drops keeps the seat for ``grace`` seconds, then a
bot (the table's stand-in, the game's default bot) plays for them until they come back.  With a turn timer
(30/60/120 s) the stand-in also plays a move a present human lets run out.

Deals are shuffled from the table's **secret** (秘密): 256 bits from the operating system's
CSPRNG, drawn when the table is created, stored with it (a restart deals the same cards) and
never sent to anyone; only a server-side setting (``TableManager(deal_secret=…)``, for tests and
benchmarks) may fix it.

Faults: a commit that fails (the database locked or down) changes nothing; a player's action is
retried for :attr:`Limits.commit_retry_seconds`, then refused with an ``unavailable`` error; the
table's own moves (deals, bots) are retried with back-off until the database is back.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

import orjson

from .. import record as records
from ..actions import REFUSED_CLAIM, Action, Claim
from ..bots import Bot, make_bot
from ..bots.base import default_bot
from ..errors import KirifudaError, OptionError
from ..game import GameInfo, GameState, View, options_to_json
from ..games import GAMES
from .limits import Limits
from .protocol import LastDealCache, ProtocolError, encode, presence_frame, score_sheet, state_frame
from .schema import check_name
from .host import presence
from .store import Store, StoredTable

__all__ = ["LiveTable", "TableManager", "Client", "TIMERS", "hash_token", "STANDIN_BOT", "new_secret"]

log = logging.getLogger("kirifuda.server")

TIMERS = (0, 30, 60, 120)
"""The turn timer's choices in seconds (0: off)."""
RESUME_AT_LEAST = 5.0
"""A turn timer resumed by a table rebuilt from its log (a restart, a cluster's take-over) gives
at least this many seconds, so that a player whose page is reconnecting sees the clock before a
bot plays for them (a turn that ran out while nobody held the table)."""
STANDIN_BOT = "default"
"""The bot that plays for a dropped human or one whose turn timer ran out: the game's default
(``search`` where the game has it, else ``heuristic``)."""

_BOT_THREAD = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="kirifuda-bots")
"""Bots decide here, so that a search of up to a second never stalls the event loop and the
other tables' messages; a table's bots one at a time (its driver awaits each), different
tables' at once (the C solver searches without the GIL, each solve with its own table)."""


MATCH_LENGTH_OPTIONS = frozenset({"deals", "games", "target"})
"""The games' options that set a match's length (Napoleon's and Unsun's deals, Kakeya's games,
Meitora's target score): each at most :attr:`Limits.max_deals`."""


def new_secret() -> str:
    """A table's deal secret: 256 bits from the operating system's CSPRNG, as hex."""
    return secrets.token_hex(32)


TableHook = Callable[["LiveTable", str, "int | None"], None]
"""A hook of :attr:`LiveTable.hooks`: the table, what happened, the seat concerned."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(eq=False)
class Client:
    """One WebSocket connection: its seat (``None``: a spectator) and its outgoing queue of
    encoded frames (JSON text, built once for every connection that shares it)."""

    seat: int | None
    send: Callable[[str], Awaitable[None]]
    hangup: Callable[[int, str], Awaitable[None]] | None = None
    """Closes the connection with a WebSocket close code and a reason (the table moved away)."""
    queue: "asyncio.Queue[str | None]" = field(default_factory=asyncio.Queue)
    task: "asyncio.Task[None] | None" = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._writer())

    async def _writer(self) -> None:
        while True:
            frame = await self.queue.get()
            if frame is None:
                return
            try:
                await self.send(frame)
            except Exception:  # the connection is gone; the reader will notice
                return

    def put(self, frame: str) -> None:
        self.queue.put_nowait(frame)

    async def close(self) -> None:
        self.queue.put_nowait(None)
        if self.task is not None:
            try:
                await asyncio.wait_for(self.task, 2)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                self.task.cancel()


def _bot(kind: str, game: str) -> Bot:
    if kind == "default":
        kind = default_bot(game)
    try:
        return make_bot(kind, game)
    except OptionError:
        return make_bot("random", game)


class LiveTable:
    """A table held in memory, mirrored in the database event by event."""

    def __init__(
        self,
        stored: StoredTable,
        store: Store,
        *,
        grace: float,
        bot_delay: float,
        limits: Limits | None = None,
        hooks: list[TableHook] | None = None,
        decide: "Callable[[LiveTable, int, Bot, View, str], Awaitable[Action]] | None" = None,
    ) -> None:
        self.id = stored.id
        self.hooks: list[TableHook] = hooks if hooks is not None else []
        """Told when a seat is dropped (``"away"``) and when the match is over (``"over"``):
        clubs' tables rate their matches (kirifuda.server.clubtables)."""
        self.tags: dict[str, Any] = {}
        """Public facts others add to the table's info (a club's table: ``club``, ``rated``)."""
        self.info: GameInfo = GAMES[stored.game]
        self.options = self.info.options(stored.options)
        self.options_json = options_to_json(self.options)
        self.seats = stored.seats
        self.token_hashes = stored.token_hashes
        self.timer = stored.timer
        self.secret = stored.secret or str(stored.seed)
        self.limits = limits or Limits()
        self.decide = decide
        """Where this table's bots decide, given the seat, its bot, its view and the decision's
        random seed (None: this process's threads; :mod:`.cluster`: a pool of bot workers)."""
        self.creator: str | None = None
        """The client (address) that created the table, while this process runs."""
        self.first = stored.first
        self.created = stored.created
        self.settings: dict[str, Any] = dict(stored.settings)
        """The table's other settings (``hints``, ``practice``: kirifuda.server.coach, .practice)."""
        from .practice import PracticeTable

        self.practice = PracticeTable.of(self)
        """A practice table's undo, replay and deal kinds (None: not a practice table)."""
        self.store = store
        self.grace = grace
        self.bot_delay = bot_delay
        self.state: GameState = self.info.new_state(self.options, first=stored.first)
        self._bots: dict[int, Bot] = {}
        self._standins: dict[int, Bot] = {}
        """Each human seat's stand-in, made when first needed: a bot of its own, remembering
        that seat's views only."""
        self._following: set[int] = set()
        """Seats whose stand-in has caught up and is shown every view (it plays, or played)."""
        for s, spec in enumerate(self.seats):
            if spec["kind"] == "bot":
                self._bots[s] = _bot(spec.get("bot", "default"), self.info.id)
        self.events: list[dict[str, Any]] = []
        self._views: dict[int | None, View] = {}
        """This version's views, each built once (for the bots and for the frames)."""
        for ev in stored.events:
            self._replay_event(ev)
            self._views = {}
            self._observe()
        self.events = list(stored.events)
        self.clients: list[Client] = []
        self.lock = asyncio.Lock()
        self.away: set[int] = set()
        """Human seats whose grace ran out: the stand-in plays for them."""
        self._grace_tasks: dict[int, asyncio.Task[None]] = {}
        self._timer_task: asyncio.Task[None] | None = None
        self._deadline: float | None = None
        self._timed_out: int | None = None
        """The version whose turn timer ran out (the stand-in plays that one move)."""
        self._turn_began: float | None = stored.last_at if stored.events else None
        """When the turn being played began (Unix time), as stored with its event: a table
        rebuilt from its log (a restart, a take-over) resumes its turn timer from the time left
        (:meth:`resume_clock`); cleared by the next event."""
        self._driver: asyncio.Task[None] | None = None
        self._sheet_cache: tuple[int, list[dict[str, Any]]] | None = None
        self._finished_cache: tuple[int, dict[str, Any] | None] | None = None
        self.last_deal_cache = LastDealCache()
        self._static_info: dict[str, Any] | None = None
        self._units_cache: tuple[int, dict[str, list[str]]] | None = None
        self.closed = False
        self.cut = stored.finished and not self.state.is_over
        """The match was stopped between deals before its end: it ran past
        :attr:`Limits.max_deals`, or it was a table of bots only that nobody watched (a stored
        table marked finished whose match is not over was cut)."""
        self.end_reason: str | None = "cut" if self.cut else None
        """Why a cut match ended: ``max_deals`` or ``idle`` (``cut``: before a restart)."""
        self.bots_only = all(s["kind"] == "bot" for s in self.seats)
        self._idle_since = time.monotonic()
        self.over_since: float | None = None
        """When the table was first seen over with nobody connected (the manager then lets it
        leave memory: :attr:`Limits.finished_table_seconds`)."""
        self.drop_at: dict[int, float] = {}
        """When each dropped human seat's stand-in starts to play (monotonic clock; host.presence)."""
        self.standin_played: tuple[int, int] | None = None
        """The seat and resulting version of the last move a stand-in made for a present human."""
        # a human seat nobody has joined since the (re)start counts as dropped: a restart
        # gives each its grace before the stand-in plays
        if self.events and not self.state.is_over:
            for s in range(self.num_seats):
                if self.seats[s]["kind"] == "human":
                    self._start_grace(s)

    # -- facts ---------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return len(self.seats)

    @property
    def version(self) -> int:
        return len(self.events)

    def players(self) -> list[str]:
        return [s.get("name") or f"Seat {i}" for i, s in enumerate(self.seats)]

    def connected(self) -> list[bool]:
        seen = {c.seat for c in self.clients}
        return [i in seen for i in range(self.num_seats)]

    @property
    def over(self) -> bool:
        """The match is over (or was cut at :attr:`Limits.max_deals`)."""
        return self.state.is_over or self.cut

    def _units(self) -> dict[str, list[str]]:
        """The scoring units' names (seats, teams, pairs): fixed by the game and its options."""
        if self._units_cache is None:
            units = len(self.view(None).totals)
            self._units_cache = (
                units,
                {lang: [self.state.unit_name(u, lang) for u in range(units)] for lang in ("en", "ja")},
            )
        return self._units_cache[1]

    def public_info(self) -> dict[str, Any]:
        """What everyone may know about the table (no token, no card)."""
        if self._static_info is None:
            self._static_info = {
                "id": self.id,
                "game": self.info.id,
                "name": {"ja": self.info.name_ja, "en": self.info.name_en},
                "options": options_to_json(self.options),
            }
        conn = self.connected()
        players = self.players()
        return {
            **self._static_info,
            "seats": [
                {
                    "kind": s["kind"],
                    "bot": s.get("bot"),
                    "name": players[i],
                    "connected": conn[i] if s["kind"] == "human" else True,
                    "standin": i in self.away,
                }
                for i, s in enumerate(self.seats)
            ],
            "spectators": sum(1 for c in self.clients if c.seat is None),
            "timer": self.timer,
            "units": self._units(),
            "over": self.over,
            "version": self.version,
            **({"practice": self.practice.public()} if self.practice is not None else {}),
            **presence(self),
            **self.tags,
        }

    def summary_info(self) -> dict[str, Any]:
        out = self.public_info()
        out["totals"] = list(self.view(None).totals)
        out["created"] = self.created
        if self.cut:
            out["cut"] = True
            out["end_reason"] = self.end_reason
        return out

    def sheet(self) -> list[dict[str, Any]]:
        if self._sheet_cache is None or self._sheet_cache[0] != self.version:
            self._sheet_cache = (self.version, score_sheet(self.state))
        return self._sheet_cache[1]

    def finished_deal(self) -> dict[str, Any] | None:
        """The hands and rest of the last finished deal (a finished deal is shown face up)."""
        finished = self.state.deal_number  # deals 0 … deal_number-1 are over
        if finished <= 0:
            return None
        if self._finished_cache is not None and self._finished_cache[0] == finished:
            return self._finished_cache[1]
        d = self.state.record_deals()[finished - 1]  # the state's record: a rewind repeats deal events
        out: dict[str, Any] | None = {"deal": finished - 1, "hands": d["hands"], "rest": d["rest"]}
        self._finished_cache = (finished, out)
        return out

    def deadline_for(self, seat: int | None) -> float | None:
        """Seconds left on the turn timer of the seat to act (for every seat to see)."""
        if self._deadline is None:
            return None
        return max(0.0, round(self._deadline - time.monotonic(), 1))

    def view(self, seat: int | None) -> View:
        """What ``seat`` sees now (built once per version and seat)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.state.view(seat)
        return view

    def record(self) -> records.Record:
        return records.from_state(self.state, players=self.players())

    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        for s, th in enumerate(self.token_hashes[: self.num_seats]):  # after them: the host's
            if th is not None and secrets.compare_digest(th, h):
                return s
        return None

    # -- events --------------------------------------------------------------------------
    def _replay_event(self, ev: dict[str, Any]) -> None:
        if self.practice is not None and self.practice.replay_event(ev):
            return
        if "deal" in ev:
            self.state.deal(ev["deal"]["hands"], ev["deal"]["rest"])
        else:
            data = ev["action"]
            self.state.apply(self.info.action_from_json(data, data["seat"]), data["seat"])

    async def _store(self, event: dict[str, Any], finished: bool, patience: float | None) -> None:
        """Commit one event, retrying with back-off; ``patience`` seconds (None: until it is
        written or the table closes).  Raises ProtocolError (``unavailable``) when out of
        patience; nothing was written then."""
        start = time.monotonic()
        delay = 0.05
        failed = False
        while True:
            try:
                await self.store.append_events(self.id, self.version, [event], finished=finished)
                if failed:
                    log.warning("table %s: the database is back (state %d committed)", self.id, self.version + 1)
                return
            except Exception as exc:
                if failed and await self._was_committed(event):
                    return
                if not failed:
                    log.warning("table %s: a commit failed (%s); retrying", self.id, type(exc).__name__)
                failed = True
                if self.closed or (patience is not None and time.monotonic() - start + delay > patience):
                    raise ProtocolError(
                        "unavailable",
                        "the table could not save this (its database is "
                        "busy or down); nothing changed: try again in a moment",
                    ) from None
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    async def _was_committed(self, event: dict[str, Any]) -> bool:
        """After a failed commit: did it reach the database after all (a lost reply)?  If
        another event holds its place, another process has taken the table over (a cluster's
        lease ran out): this one stops, changing nothing."""
        try:
            stored = await self.store.event_at(self.id, self.version)
        except Exception:
            return False
        if stored is None:
            return False
        if stored == orjson.loads(orjson.dumps(event)):  # as stored (tuples are lists there)
            return True
        self.closed = True
        log.warning(
            "table %s: state %d was written by another process; this one lets the table go", self.id, self.version + 1
        )
        raise ProtocolError("moved", "the table moved to another server: reconnect to go on")

    async def _commit(self, new_state: GameState, event: dict[str, Any], *, patience: float | None) -> None:
        """Write the event, then (only then) make ``new_state`` the table's state."""
        await self._store(event, new_state.is_over, patience)
        self.state = new_state
        self._views = {}
        self.events.append(event)
        self._observe()
        self._timed_out = None
        self._turn_began = None
        self._arm_timer()
        self.broadcast()
        if new_state.is_over:
            self.notify("over")

    def notify(self, kind: str, seat: int | None = None) -> None:
        """Tell the hooks (each must not raise, nor block: it may start a task)."""
        for hook in self.hooks:
            try:
                hook(self, kind, seat)
            except Exception:
                log.exception("table %s: a hook failed on %s", self.id, kind)

    def _observe(self) -> None:
        """Every bot, and every stand-in that is following its seat, is shown what its seat
        now sees (as the tournament runner and the terminal do after each action): a bot
        remembers the cards played while it was not to act, and after a restart the events
        replayed.  A stand-in starts following when it is first needed (:meth:`_catch_up`)."""
        for seat, bot in self._bots.items():
            self._show(seat, bot, self.view(seat))
        for seat in self._following:
            self._show(seat, self._standins[seat], self.view(seat))

    def _show(self, seat: int, bot: Bot, view: View) -> None:
        observe = getattr(bot, "observe", None)
        if observe is not None:
            try:
                observe(view)
            except Exception:
                log.exception("table %s: the bot of seat %d could not observe", self.id, seat)

    def _catch_up(self, seat: int) -> None:
        """Before a stand-in first plays: show it the seat's view after every event so far,
        in order (what it would have seen following the seat from the start), then keep it
        following.  Until then no stand-in costs anything per action."""
        if seat in self._following or self.seats[seat]["kind"] != "human":
            return
        bot = self._standins.get(seat)
        if bot is None:
            bot = self._standins[seat] = _bot(STANDIN_BOT, self.info.id)
        if getattr(bot, "observe", None) is not None:
            rec = self.record()  # the match as it stands (a practice table's rewinds taken)
            state = rec.new_state()
            for deal in rec.deals:
                state.deal(deal.hands, deal.rest)
                self._show(seat, bot, state.view(seat))
                for data in deal.actions:
                    state.apply(self.info.action_from_json(data, data["seat"]), data["seat"])
                    self._show(seat, bot, state.view(seat))
        self._following.add(seat)

    async def act(self, seat: int | None, version: int, action: Action) -> None:
        """A player's action: refused (``ProtocolError``, nothing changed) or committed."""
        async with self.lock:
            if seat is None:
                raise ProtocolError("spectator", "a spectator cannot act; join a seat with its invitation link")
            if version != self.version:
                raise ProtocolError(
                    "stale",
                    f"this action was made on state {version}, but the "
                    f"table is at state {self.version}: look again and retry",
                )
            if self.over:
                raise ProtocolError("over", "the match is over")
            to_act = self.state.to_act
            if to_act != seat:
                who = "no one" if to_act is None else self.players()[to_act]
                raise ProtocolError("not_your_turn", f"it is not your turn: {who} is to act")
            await self._apply(seat, action, patience=self.limits.commit_retry_seconds)
        self.kick()

    async def _apply(self, seat: int, action: Action, *, patience: float | None = None) -> None:
        new = self.state.copy()
        try:
            new.apply(action, seat)
        except KirifudaError as exc:
            refused = self._refused_claim(action, seat)
            if refused is None:
                raise ProtocolError("illegal", str(exc)) from None
            new, action = refused
        await self._commit(new, {"action": {"seat": seat, **action.to_json()}}, patience=patience)
        log.debug("table %s: seat %d %s (state %d)", self.id, seat, next(iter(action.to_json())), self.version)

    def _refused_claim(self, action: Action, seat: int) -> tuple[GameState, Action] | None:
        """Under Meitora's ``claim_failure=refuse``, a claim that fails is taken as a refused
        claim (the claimant's hand is shown for the rest of the deal), when the rules allow
        one (else ProtocolError: why not, nothing changes); None for any other action."""
        if type(action) is not Claim or getattr(self.options, "claim_failure", None) != "refuse":
            return None
        new = self.state.copy()
        try:
            new.apply(REFUSED_CLAIM, seat)
        except KirifudaError as exc:
            raise ProtocolError("illegal", str(exc)) from None
        return new, REFUSED_CLAIM

    async def _deal(self) -> None:
        new = self.state.copy()
        if self.practice is not None:  # a practice table: maybe a deal of a chosen kind
            await self.practice.deal(new)
        else:
            new.deal_random(random.Random(f"{self.secret}:{new.deal_number}"))
        d = new.record_deals()[-1]
        await self._commit(new, {"deal": {"hands": d["hands"], "rest": d["rest"]}}, patience=None)
        log.debug("table %s: deal %d dealt (state %d)", self.id, new.deal_number, self.version)

    # -- who plays -----------------------------------------------------------------------
    def _bot_for(self, seat: int) -> Bot | None:
        if seat in self._bots:
            return self._bots[seat]
        if seat in self.away or self._timed_out == self.version:
            self._catch_up(seat)
            return self._standins.get(seat)
        return None

    def kick(self) -> None:
        """Let the table move on by itself: deal, and let bots play, until a human is to act."""
        if self.closed:
            return
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        try:
            while not self.closed:
                async with self.lock:
                    if self.over:
                        return
                    if self.state.needs_deal:
                        if self.state.deal_number >= self.limits.max_deals:
                            await self._cut("max_deals")
                            return
                        if self._idle():
                            await self._cut("idle")
                            return
                        await self._deal()
                        continue
                    seat = self.state.to_act
                    if seat is None:
                        return
                    bot = self._bot_for(seat)
                    if bot is None:
                        return
                    version = self.version
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                async with self.lock:
                    if self.version != version or self._bot_for(seat) is None:
                        continue
                    view = self.view(seat)
                    seed = f"{self.secret}:bot:{version}"
                    if self.decide is not None and seat in self._bots:
                        action = await self.decide(self, seat, bot, view, seed)
                        if self.version != version or self.closed:
                            continue
                    else:
                        action = await asyncio.get_running_loop().run_in_executor(
                            _BOT_THREAD, bot.choose, view, random.Random(seed)
                        )
                    if seat not in self._bots and seat not in self.away:
                        # said in the frame this move sends (frames are built once per version)
                        self.standin_played = (seat, self.version + 1)
                    await self._apply(seat, action)
        except Exception:
            log.exception("table %s: the driver stopped", self.id)

    def _idle(self) -> bool:
        """A table of bots only that nobody has watched for
        :attr:`Limits.idle_bot_table_seconds` (since it was made, loaded, or last left): its
        match ends at the end of the deal (checked between deals)."""
        if not self.bots_only or self.clients:
            return False
        return time.monotonic() - self._idle_since >= self.limits.idle_bot_table_seconds

    async def _cut(self, reason: str) -> None:
        """Stop a match before its end (between deals: nothing is hidden then): it ran past the
        deals a match may last (``max_deals``), or its bots played with nobody watching
        (``idle``).  The stored table is marked finished."""
        self.cut = True
        self.end_reason = reason
        log.info(
            "table %s: ended after %d deals (%s)",
            self.id,
            self.state.deal_number,
            "the server's limit of deals" if reason == "max_deals" else "bots only, nobody watching",
        )
        try:
            await self.store.mark_finished(self.id)
        except Exception as exc:
            log.warning("table %s: could not mark the cut match finished (%s)", self.id, type(exc).__name__)
        self.broadcast()
        self.notify("over")

    # -- clocks --------------------------------------------------------------------------
    def resume_clock(self) -> None:
        """Start the turn timer of a table rebuilt from its log: with the time the turn had left
        (its event's commit time plus :attr:`timer`, at least :data:`RESUME_AT_LEAST` seconds),
        not a whole turn anew; a whole turn where the log has no commit time (before schema 5)."""
        if self.events:
            self._arm_timer()

    def _arm_timer(self) -> None:
        if self._timer_task is not None:
            self._timer_task.cancel()
            self._timer_task = None
        self._deadline = None
        began, self._turn_began = self._turn_began, None
        if not self.timer or self.state.is_over or self.closed:
            return
        seat = self.state.to_act
        if seat is None or seat in self._bots or seat in self.away:
            return
        seconds = float(self.timer)
        if began is not None:  # resumed: the time left, as the last process counted it
            seconds = min(seconds, max(RESUME_AT_LEAST, began + self.timer - time.time()))
        self._deadline = time.monotonic() + seconds
        version = self.version
        self._timer_task = asyncio.get_running_loop().create_task(self._time_out(version, seconds))

    async def _time_out(self, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if self.version == version and not self.closed:
            self._timed_out = version
            self._deadline = None
            log.info("table %s: the turn timer ran out (state %d)", self.id, version)
            self.kick()

    def _start_grace(self, seat: int) -> None:
        old = self._grace_tasks.pop(seat, None)
        if old is not None:
            old.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._grace_tasks[seat] = loop.create_task(self._grace_out(seat))
        self.drop_at[seat] = time.monotonic() + self.grace

    async def _grace_out(self, seat: int) -> None:
        await asyncio.sleep(self.grace)
        if any(c.seat == seat for c in self.clients) or self.closed:
            return
        self.away.add(seat)
        self.drop_at.pop(seat, None)
        log.info("table %s: seat %d dropped; the stand-in plays", self.id, seat)
        self.notify("away", seat)
        self._arm_timer()
        self.broadcast()
        self.kick()

    # -- connections ---------------------------------------------------------------------
    def join(self, client: Client) -> None:
        """A connection joins: it gets its state frame, the others a presence frame (a seat
        coming back from its stand-in changes the turn's clock: then everyone a state frame)."""
        self.clients.append(client)
        client.start()
        seat = client.seat
        back = False
        if seat is not None:
            task = self._grace_tasks.pop(seat, None)
            if task is not None:
                task.cancel()
            back = seat in self.away
            self.drop_at.pop(seat, None)
            self.away.discard(seat)
            if back:
                self._arm_timer()
        if back:
            self.broadcast()
        else:
            self._send(client, encode(state_frame(self, seat)))
            self.presence(but=client)
        self.kick()

    def leave(self, client: Client) -> None:
        if client in self.clients:
            self.clients.remove(client)
        seat = client.seat
        if seat is not None and not any(c.seat == seat for c in self.clients):
            self._start_grace(seat)
        if not self.clients:
            self._idle_since = time.monotonic()
        self.presence()

    def presence(self, but: Client | None = None) -> None:
        """Tell every connection (but ``but``) who is at the table: one small frame for all."""
        if not self.clients:
            return
        text = encode(presence_frame(self))
        for c in self.clients:
            if c is not but:
                self._send(c, text)

    def _send(self, client: Client, text: str) -> None:
        client.put(text)

    def broadcast(self) -> None:
        """Queue each connection its own frame: one view per seat, built and encoded once,
        shared by every connection of that seat (all the spectators share one)."""
        frames: dict[int | None, str] = {}
        for c in self.clients:
            text = frames.get(c.seat)
            if text is None:
                try:
                    text = frames[c.seat] = encode(state_frame(self, c.seat))
                except Exception:
                    log.exception("table %s: the frame of seat %s could not be built", self.id, c.seat)
                    continue
            self._send(c, text)

    async def close(self, hangup: bool = False) -> None:
        """Stop the table's tasks and wait for them (a write in flight finishes or rolls back
        before the database is closed).  ``hangup``: the table moves to another process of a
        cluster: every connection is closed (code 1012, "reconnect"), to find it there."""
        self.closed = True
        tasks = [t for t in [self._driver, self._timer_task, *self._grace_tasks.values()] if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for c in list(self.clients):
            await c.close()
            if hangup and c.hangup is not None:
                try:
                    await c.hangup(1012, "the table moved to another server: reconnect")
                except Exception:
                    pass


LOBBY_SIZE = 100
"""The tables the lobby lists (the latest made)."""


class TableManager:
    """The tables this process holds in memory: every table being played (in a cluster: those
    it owns, :mod:`.cluster`) and the finished ones asked for lately; a finished table leaves
    memory :attr:`Limits.finished_table_seconds` after its last connection, and comes back
    from the database when asked for (:meth:`fetch`)."""

    def __init__(
        self,
        store: Store,
        *,
        grace: float = 60.0,
        bot_delay: float = 0.8,
        limits: Limits | None = None,
        deal_secret: str | None = None,
    ) -> None:
        self.store = store
        self.grace = grace
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.deal_secret = deal_secret
        """Fixes every new table's secret (tests and benchmarks only: anyone knowing it knows
        every deal); None: each table draws its own."""
        self.tables: dict[str, LiveTable] = {}
        self.hooks: list[TableHook] = []
        """Given to every table (:attr:`LiveTable.hooks`); told ``"loaded"`` for each table
        being played that is reloaded (at start, or taken over from another instance)."""
        self.finished: OrderedDict[str, dict[str, Any]] = OrderedDict()
        """The lobby's facts of finished tables that left memory (the latest :data:`LOBBY_SIZE`)."""
        self.cluster: Any = None
        """The :class:`.cluster.Cluster` this process is part of (None: it is alone)."""
        self.decide: Callable[[LiveTable, int, Bot, View, str], Awaitable[Action]] | None = None
        """Where the bots of the tables decide (None: this process's threads)."""
        self._sweeper: asyncio.Task[None] | None = None
        self._fetching: dict[str, asyncio.Future[LiveTable | None]] = {}

    def _live(self, st: StoredTable) -> LiveTable:
        return LiveTable(
            st,
            self.store,
            grace=self.grace,
            bot_delay=self.bot_delay,
            limits=self.limits,
            hooks=self.hooks,
            decide=self.decide,
        )

    async def load(self, *, playing: bool = True) -> None:
        """The lobby's latest finished tables, and (``playing``: alone, not in a cluster)
        every table being played, which moves on."""
        for st in await self.store.recent_finished(LOBBY_SIZE):
            try:
                self._remember(self._live(st))
            except (KirifudaError, KeyError) as exc:
                log.error("table %s cannot be reloaded: %s", st.id, exc)
        if playing:
            for st in await self.store.load_tables(include_finished=False):
                self.adopt(st)
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def adopt(self, st: StoredTable) -> LiveTable | None:
        """Hold a stored table in memory and let it move on (None: it cannot be rebuilt)."""
        try:
            table = self._live(st)
        except (KirifudaError, KeyError) as exc:
            log.error("table %s cannot be reloaded: %s", st.id, exc)
            return None
        self.tables[st.id] = table
        self.finished.pop(st.id, None)
        table.notify("loaded")
        table.kick()
        table.resume_clock()
        return table

    def _remember(self, table: LiveTable) -> None:
        self.finished[table.id] = table.summary_info()
        self.finished.move_to_end(table.id)
        while len(self.finished) > LOBBY_SIZE:
            self.finished.popitem(last=False)

    async def fetch(self, table_id: str) -> LiveTable | None:
        """The table of that id in memory, a finished one loaded from the database if need be;
        None if this process does not hold it (no such table, or played elsewhere)."""
        table = self.tables.get(table_id)
        if table is not None or len(table_id) > 32:
            return table
        pending = self._fetching.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._fetching[table_id] = fut
        try:
            st = await self.store.load_table(table_id)
            table = None
            if st is not None and st.finished and table_id not in self.tables:
                table = self._live(st)
                table.over_since = time.monotonic()
                self.tables[table_id] = table
            fut.set_result(self.tables.get(table_id))
        except Exception as exc:
            fut.set_exception(exc)
            fut.exception()
            raise
        finally:
            del self._fetching[table_id]
        return self.tables.get(table_id)

    def lobby(self) -> list[dict[str, Any]]:
        """The lobby's facts of the latest tables this process knows, the newest first."""
        infos = [t.summary_info() for t in self.tables.values()]
        known = {i["id"] for i in infos}
        infos += [i for tid, i in self.finished.items() if tid not in known]
        infos.sort(key=lambda i: i.get("created", 0.0))
        return infos[-LOBBY_SIZE:][::-1]

    async def _sweep(self) -> None:
        """Let finished tables nobody is connected to leave memory."""
        while True:
            await asyncio.sleep(min(5.0, max(0.05, self.limits.finished_table_seconds / 4)))
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of finished tables failed")

    async def sweep(self) -> None:
        now = time.monotonic()
        for table in list(self.tables.values()):
            if not table.over or table.clients:
                table.over_since = None
                continue
            if table.over_since is None:
                table.over_since = now
            elif now - table.over_since >= self.limits.finished_table_seconds:
                await self.drop(table)

    async def drop(self, table: LiveTable) -> None:
        """The table leaves memory (its facts stay in the lobby if it is over)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if table.over:
            self._remember(table)
        await table.close()
        if self.cluster is not None:
            await self.cluster.released(table)

    def open_tables_of(self, creator: str) -> int:
        return sum(1 for t in self.tables.values() if t.creator == creator and not t.over)

    async def create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        timer: int = 0,
        first: int = 0,
        secret: str | None = None,
        creator: str | None = None,
        settings: dict[str, Any] | None = None,
    ) -> tuple[LiveTable, list[str | None]]:
        """A new table; returns it and each human seat's secret token.  ``secret`` fixes its
        deals (server-side callers only: tests); else :attr:`deal_secret`, else a new one.
        ``settings``: the table's other settings (``hints``, ``practice``), checked by their
        modules (kirifuda.server.coach, .practice)."""
        info = GAMES.get(game)
        if info is None:
            raise OptionError(f"unknown game {game!r}; the games are {', '.join(sorted(GAMES))}")
        opts = info.options(options)
        for key, value in options_to_json(opts).items():
            if key in MATCH_LENGTH_OPTIONS and isinstance(value, int) and value > self.limits.max_deals:
                raise OptionError(
                    f"option {key}={value} is more than this server allows "
                    f"(a match lasts at most {self.limits.max_deals} deals)"
                )
        state = info.new_state(opts, first=first)
        n = state.num_players
        if not isinstance(seats, list) or len(seats) != n:
            raise OptionError(
                f"a {info.id} table with these options has {n} seats; got "
                f"{len(seats) if isinstance(seats, list) else seats!r}"
            )
        if timer not in TIMERS:
            raise OptionError(f"timer must be one of {', '.join(map(str, TIMERS))} seconds, got {timer!r}")
        clean: list[dict[str, Any]] = []
        tokens: list[str | None] = []
        for i, s in enumerate(seats):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
                raise OptionError(f"seat {i} must be {{'kind': 'human'}} or {{'kind': 'bot', 'bot': kind}}")
            name = s.get("name")
            if name is not None:
                if not isinstance(name, str):
                    raise OptionError(f"seat {i}: a name is a string")
                try:
                    name = check_name(name)
                except ValueError as exc:
                    raise OptionError(f"seat {i}: {exc}") from None
            if s["kind"] == "bot":
                kind = s.get("bot") or default_bot(info.id)
                if not isinstance(kind, str):
                    raise OptionError(f"seat {i}: the bot's kind must be a string")
                if kind.startswith("policy:") and not os.environ.get("KIRIFUDA_POLICY_DIR"):
                    raise OptionError(
                        f"seat {i}: a policy bot sits at a table only when the server "
                        "names its directory of policy files (KIRIFUDA_POLICY_DIR)"
                    )
                if getattr(make_bot(kind, info.id), "needs_state", False):  # OptionError if unknown
                    raise OptionError(
                        f"seat {i}: the {kind} bot sees every card; it plays only in tournaments, not at a table"
                    )
                clean.append({"kind": "bot", "bot": kind, "name": name or f"Bot {i} ({kind})"})
                tokens.append(None)
            else:
                clean.append({"kind": "human", "name": name or f"Player {i}"})
                tokens.append(secrets.token_urlsafe(18))
        table_id = secrets.token_hex(6)
        st = StoredTable(
            id=table_id,
            game=info.id,
            options=options_to_json(opts),
            first=first,
            seed=0,
            seats=clean,
            token_hashes=[hash_token(t) if t else None for t in tokens],
            timer=timer,
            created=time.time(),
            finished=False,
            secret=secret or self.deal_secret or new_secret(),
            settings=dict(settings or {}),
        )
        if "practice" in st.settings:
            from .practice import check_practice

            check_practice(info.id, clean, st.settings)  # OptionError: not a practice table
        if self.cluster is not None:
            await self.cluster.claim(table_id)  # the new table's lease: this process owns it
        await self.store.create_table(st)
        table = self._live(st)
        table.creator = creator
        self.tables[table_id] = table
        table.kick()
        return table, tokens

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        for t in self.tables.values():
            await t.close()
