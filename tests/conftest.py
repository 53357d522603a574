"""Shared test helpers: random legal matches of any registered game; the web app served in a
thread (:class:`ServerThread`, the ``server`` fixture) and Chromium (the ``browser`` fixture)
for the server, web, tutorial and score-keeper tests."""

from __future__ import annotations

import os
import random
import socket
import threading
import time
from typing import Any, Iterator

import pytest

from kirifuda.game import GameState
from kirifuda.games import GAMES
from .browsing import CHROMIUM, FLAGS


def assert_subset(expected: Any, actual: Any, path: str = "$") -> None:
    """Every key of ``expected`` (a record's expected replay JSON, or part of it) is in ``actual``
    with the same value; lists of objects are compared item by item, anything else for equality."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), path
        for k, v in expected.items():
            assert k in actual, f"{path}.{k} missing"
            assert_subset(v, actual[k], f"{path}.{k}")
    elif isinstance(expected, list) and expected and isinstance(expected[0], dict):
        assert isinstance(actual, list) and len(actual) == len(expected), path
        for i, (e, a) in enumerate(zip(expected, actual)):
            assert_subset(e, a, f"{path}[{i}]")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


def play_random(
    game_id: str,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    max_deals: int | None = None,
    first: int = 0,
    on_step: Any = None,
) -> GameState:
    """A match of random legal actions (claims included), dealt from ``seed``."""
    info = GAMES[game_id]
    state = info.new_state(info.options(options or {}), first=first)
    rng = random.Random(seed)
    while not state.is_over:
        if state.needs_deal:
            if max_deals is not None and state.deal_number >= max_deals:
                break
            state.deal_random(rng)
            continue
        action = rng.choice(state.legal_actions())
        if on_step is not None:
            on_step(state, action)
        state.apply(action)
    return state


@pytest.fixture
def random_match():
    return play_random


def play_bot_deal(state: GameState, game_id: str, kinds: list[str], seed: int, on_action: Any = None) -> GameState:
    """The first deal of ``state`` played by bots of ``kinds`` (seat s: ``kinds[s % len]``),
    each given its view (the oracle: a copy of the state) and shown every view afterwards as
    the runners do; asserts every action is legal.  ``on_action(state, seat, action)`` is
    called before each action is applied."""
    import random

    from kirifuda.bots import make_bot

    rng = random.Random(seed)
    bots = [make_bot(kinds[s % len(kinds)], game_id) for s in range(state.num_players)]
    state.deal_random(rng)
    while state.deal_number == 0:
        seat = state.to_act
        assert seat is not None
        bot = bots[seat]
        if getattr(bot, "needs_state", False):
            action = bot.choose_state(state.copy(), rng)  # type: ignore[attr-defined]
        else:
            action = bot.choose(state.view(seat), rng)
        assert action in state.legal_actions(), (seat, action)
        if on_action is not None:
            on_action(state, seat, action)
        state.apply(action, seat)
        for s, b in enumerate(bots):
            if hasattr(b, "observe"):
                b.observe(state.view(s))
    return state


def redeal_unseen(state: GameState, others: list[int], rng: Any) -> GameState | None:
    """The same deal with the unplayed cards of the seats ``others`` dealt differently among
    them (each keeps its number of cards; the cards already played and every other hand stay),
    the deal's actions replayed on the new cards; None where they no longer replay (a card that
    must now be followed, say)."""
    from kirifuda.games import GAMES

    action_from_json = GAMES[state.game_id].action_from_json
    record = state.record_deals()[-1]
    hands = [list(h) for h in record["hands"]]
    played: dict[int, set[str]] = {s: set() for s in range(len(hands))}
    for a in record["actions"]:
        if "play" in a:
            played[a["seat"]].add(a["play"])
    pool = [c for s in others for c in hands[s] if c not in played[s]]
    rng.shuffle(pool)
    for s in others:
        keep = [c for c in hands[s] if c in played[s]]
        n = len(hands[s]) - len(keep)
        hands[s], pool = keep + pool[:n], pool[n:]
    new = type(state)(state.options, first=state.first)  # type: ignore[call-arg,attr-defined]
    try:
        new.deal(hands, record["rest"])
        for a in record["actions"]:
            new.apply(action_from_json(a), a["seat"])
    except Exception:
        return None
    return new


# -- the web app in a thread, and the browser ---------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


TEST_LIMITS = {"tables_per_minute": 10_000, "open_tables_per_client": 10_000, "connections_per_client": 10_000}
"""Every test client is 127.0.0.1: the per-client limits are lifted unless a test sets them."""


class ServerThread:
    """uvicorn serving the app in a thread, on a free loopback port or a given one (the limits of
    ``kirifuda serve``'s defaults, but the per-client ones: :data:`TEST_LIMITS`): a context
    manager, or ``start()`` and ``stop()``."""

    def __init__(self, db: str, port: int | None = None, **kwargs: Any) -> None:
        import uvicorn

        from kirifuda.server.app import create_app
        from kirifuda.server.limits import Limits

        self.db = db
        self.port = port or free_port()
        limits = kwargs.pop("limits", None) or Limits(**TEST_LIMITS)  # type: ignore[arg-type]
        self.limits = limits
        self.app = create_app(db, limits=limits, **kwargs)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
            lifespan="on",
            ws_max_size=limits.frame_bytes,
            limit_concurrency=limits.max_connections,
            ws_per_message_deflate=limits.ws_deflate,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "ServerThread":
        """Serve (a stopped server is started again as a new ``ServerThread(db, port=...)``)."""
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)

    def __enter__(self) -> "ServerThread":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """The test module's web app on a fresh SQLite database: no bot delay, a minute's grace, and
    the module's ``SERVER_OPTIONS`` (its deal secret, say) over those."""
    options: dict[str, Any] = {"bot_delay": 0.0, "grace": 60, **getattr(request.module, "SERVER_OPTIONS", {})}
    db = tmp_path_factory.mktemp("server") / "kirifuda.db"
    with ServerThread(f"sqlite+aiosqlite:///{db}", **options) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, headless, launched once for each module of browser tests (each test opens its
    own context; skipped where Playwright or Chromium is missing).  Not once a run: Playwright's
    sync API keeps an event loop running in the main thread while it is open, and every later
    test calling ``asyncio.run`` would then fail."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()
