"""No frame to a seat holds a card that seat may not see at that moment.

Every game of the registry is played through a server table of bots, with a connection on every
seat and a spectator.  Each frame is captured as it is queued (with a copy of the state of that
moment), encoded and decoded as JSON, and every card code found in it is checked against what
the seat may know, computed from the record, not from the views:

- its own hand (as dealt and as it stands) and the cards of its own actions (a discard);
- every card of every other seat's public actions this deal (plays, a named adjutant) — never a
  discard;
- the rest's public part (Unsun's indicator: :data:`PUBLIC_REST`);
- the hand of a seat whose claim was refused this deal (Meitora, ``claim_failure=refuse``: the
  claimant shows their hand), from then on;
- a finished deal's cards in the deal results (``last_deal`` or ``finished_deal``) and the
  score sheet (``sheet``), checked to be of a finished deal.

Anything else dealt this deal — another seat's hand, the undealt rest (Meitora's agari,
Napoleon's middle) — is secret.  A spectator holds no hand and took no action.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kirifuda.actions import CLAIM
from kirifuda.game import GameState
from kirifuda.games import GAMES
from kirifuda.server.protocol import ProtocolError
from kirifuda.server.store import Store
from kirifuda.server.tables import Client, TableManager

CARD = re.compile(r"^([2-9TJQKA][SHDC]|JK)$")
NOT_CARDS = frozenset({"bid", "redeclare", "contract", "adjutant", "rensho"})
"""Keys whose values are bids (``"7H"`` is seven hearts as a bid, not the card), or a card
*named* (Napoleon's adjutant choices: any card of the deck; Kakeya's rensho, ♠A or ♣A by
rule): naming a card says nothing of where it is."""
PUBLIC_REST = {"unsun": 1}
"""How many cards at the front of a deal's rest are turned face up for everyone."""
SMALL_OPTIONS: dict[str, dict[str, Any]] = {"meitora": {"target": 6}}
"""Options that keep a match short (other games: their defaults; play is cut off anyway)."""
MAX_EVENTS = 160


def cards_in(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    found: set[str] = set()
    if isinstance(value, str):
        if CARD.match(value):
            found.add(value)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v, skip)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in skip and k not in NOT_CARDS:
                found |= cards_in(v, skip)
    return found


def action_cards(action: dict[str, Any]) -> set[str]:
    """The cards an action shows (a play, a discard, the adjutant's card named)."""
    found: set[str] = set()
    for k, v in action.items():
        if k in ("play", "adjutant") and isinstance(v, str) and CARD.match(v):
            found.add(v)
        elif k == "discard" and isinstance(v, list):
            found |= {c for c in v if isinstance(c, str) and CARD.match(c)}
    return found


def secret_cards(state: GameState, seat: int | None) -> set[str]:
    """The cards ``seat`` may not see now (empty between deals: nothing is dealt)."""
    if state.needs_deal or state.is_over:
        return set()
    deal = state.record_deals()[-1]
    n = len(deal["hands"])
    dealt = {c for h in deal["hands"] for c in h} | set(deal["rest"])
    may = set(deal["rest"][: PUBLIC_REST.get(state.game_id, 0)])
    if seat is not None:
        may |= set(deal["hands"][seat])
        may |= {c.code for c in state.view(seat).hand}
    for a in deal["actions"]:
        if a["seat"] == seat or "discard" not in a:
            may |= action_cards(a)
        if a.get("refused"):  # the claimant's hand lies face up for the rest of the deal
            may |= {c.code for c in state.view(a["seat"]).hand}
    assert n == state.num_players
    return dealt - may


def finished_subtrees(state: GameState) -> frozenset[str]:
    """Keys that show a finished deal: always the results; and ``last_trick`` before the first
    card of a new deal (it can only be the previous deal's last trick, played face up)."""
    keys = {"last_deal", "sheet", "finished_deal"}
    if not state.needs_deal and not state.is_over:
        if not any("play" in a for a in state.record_deals()[-1]["actions"]):
            keys.add("last_trick")
    return frozenset(keys)


class Recorder(Client):
    def __init__(
        self, seat: int | None, table: Any, log: list[tuple[int | None, dict[str, Any], set[str], frozenset[str]]]
    ) -> None:
        async def send(frame: str) -> None:
            return None

        super().__init__(seat, send)
        self.table = table
        self.log = log

    def put(self, frame: str) -> None:
        # the moment the frame is made: the secrets of this moment
        decoded = json.loads(frame)
        if decoded["type"] != "state":
            return
        state = self.table.state
        self.log.append((self.seat, decoded, secret_cards(state, self.seat), finished_subtrees(state)))


async def _play(tmp: str, game: str, seed: int) -> list[tuple[int | None, dict[str, Any], set[str], frozenset[str]]]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp}/hidden-{game}-{seed}.db")
    log: list[tuple[int | None, dict[str, Any], set[str], frozenset[str]]] = []
    try:
        manager = TableManager(store, grace=60, bot_delay=0)
        info = GAMES[game]
        opts = SMALL_OPTIONS.get(game, {})
        n = info.new_state(info.options(opts)).num_players
        seats = [{"kind": "bot", "bot": "random" if s % 2 else "heuristic"} for s in range(n)]
        table, _ = await manager.create(game, opts, seats, secret=str(seed))
        for s in [None, *range(n)]:
            table.join(Recorder(s, table, log))
        loop = asyncio.get_running_loop()
        last, since = -1, loop.time()
        while not table.state.is_over and table.version < MAX_EVENTS:
            if table.version != last:
                last, since = table.version, loop.time()
            assert loop.time() - since < 10, (
                f"{game}: the table stopped at state {table.version} ({table.state.phase}, "
                f"to act {table.state.to_act}); driver {table._driver}"
            )
            await asyncio.sleep(0.002)
        await manager.close()
    finally:
        await store.close()
    return log


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31))
def test_no_frame_holds_a_card_its_seat_may_not_see(tmp_path_factory: Any, game: str, seed: int) -> None:
    tmp = str(tmp_path_factory.mktemp("hidden"))
    log = asyncio.run(_play(tmp, game, seed))
    assert len(log) > 20
    seen_secret = 0
    for seat, frame, secret, finished in log:
        assert frame["type"] == "state" and frame["seat"] == seat
        seen_secret += bool(secret)
        deal_no = frame["view"]["deal_number"]
        # finished deals are shown face up: their results, and only finished ones
        assert len(frame["sheet"]) <= deal_no
        if frame["view"].get("last_deal") is not None:
            assert deal_no >= 1
        if frame.get("finished_deal") is not None:
            assert frame["finished_deal"]["deal"] == deal_no - 1
        leaked = cards_in(frame, skip=finished) & secret
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} at state {frame['version']}"
        if seat is None:
            assert frame["view"]["hand"] == [] and frame["hand"] == [] and frame["legal"] == []
    assert seen_secret, "no frame was made while cards were hidden: the test saw nothing"


def test_the_check_catches_a_leak() -> None:
    """The checker itself: another seat's hand and the agari are secret, the own hand is not."""
    import random

    state = GAMES["meitora"].new_state(GAMES["meitora"].options({}))
    rng = random.Random(5)
    state.deal_random(rng)
    while state.needs_deal:  # a four-jacks redeal
        state.deal_random(rng)
    deal = state.record_deals()[-1]
    secret = secret_cards(state, 0)
    assert set(deal["hands"][1]) <= secret and set(deal["rest"]) <= secret
    assert not set(deal["hands"][0]) & secret
    assert cards_in({"view": {"hand": deal["hands"][1]}}) & secret


async def _refused_claims(
    tmp: str, seed: int
) -> tuple[list[tuple[int | None, dict[str, Any], set[str], frozenset[str]]], int]:
    """Four human seats under ``claim_failure=refuse``, played by the test: in the play, the
    seat to act often claims (a failing claim becomes a refused one: its hand is shown)."""
    store = await Store.open(f"sqlite+aiosqlite:///{tmp}/refused-{seed}.db")
    log: list[tuple[int | None, dict[str, Any], set[str], frozenset[str]]] = []
    refused = 0
    rng = random.Random(seed)
    try:
        manager = TableManager(store, grace=60, bot_delay=0)
        table, _ = await manager.create(
            "meitora", {"target": 6, "claim_failure": "refuse"}, [{"kind": "human"}] * 4, secret=str(seed)
        )
        for s in [None, 0, 1, 2, 3]:
            table.join(Recorder(s, table, log))
        while not table.state.is_over and table.version < MAX_EVENTS:
            state = table.state
            if state.needs_deal:
                await asyncio.sleep(0.002)
                continue
            seat = state.to_act
            view = state.view(seat)
            if view.phase == "play" and rng.random() < 0.3:
                action = CLAIM
            else:
                action = rng.choice([a for a in view.legal_actions if a != CLAIM])
            try:
                await table.act(seat, table.version, action)
            except ProtocolError as err:
                assert err.code == "illegal" and "face up" in err.message
                continue
            last = table.events[-1]["action"]
            refused += bool(last.get("refused"))
        await manager.close()
    finally:
        await store.close()
    return log, refused


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31))
def test_a_refused_claim_shows_the_hand_and_nothing_else(tmp_path_factory: Any, seed: int) -> None:
    """The hidden-card property under refused claims: every seat and the spectator see the
    claimant's hand from the refusal to the end of the deal (the views carry it), and no other
    hidden card."""
    tmp = str(tmp_path_factory.mktemp("refused"))
    log, refused = asyncio.run(_refused_claims(tmp, seed))
    assert refused, "no claim was refused: the test saw nothing"
    shown_seen = 0
    for seat, frame, secret, finished in log:
        leaked = cards_in(frame, skip=finished) & secret
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} at state {frame['version']}"
        for claimant, cards in enumerate(frame["view"].get("shown_hands", [])):
            if cards:
                assert claimant != seat or sorted(cards) == sorted(frame["hand"])
                shown_seen += claimant != seat
    assert shown_seen, "no frame showed another seat's refused claimant's hand"
