"""The terminal shows the user's seat only what its view shows.

Every game is played through the terminal twice with the same public course of play: the cards
the user's seat never sees during the deal (other hands' unplayed cards, the kitty, discards,
face-down plays) are permuted between the two runs.  Everything printed before the deal's result
(which the rules let everyone see) must be the same.
"""

from __future__ import annotations

import copy
import io
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from kirifuda import record as records
from kirifuda.actions import Action, Claim
from kirifuda.bots import make_bot
from kirifuda.cards import parse_card
from kirifuda.errors import KirifudaError, RecordError
from kirifuda.games import GAMES
from kirifuda.i18n import t
from kirifuda.ui.render import sorted_actions
from kirifuda.ui.terminal import TerminalGame

TABLES = [
    ("meitora", {}),
    ("napoleon", {}),
    ("napoleon", {"players": 4, "joker": True}),
    ("kakeya", {}),
    ("kakeya", {"players": 6}),
    ("unsun", {}),
    ("unsun", {"all_trumps_face_down": True}),
]


def _codes(value: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(value, str):
        try:
            out.add(parse_card(value).code)
        except KirifudaError:  # not a card: a phase, a bid, a name
            pass
    elif isinstance(value, dict):
        for v in value.values():
            out |= _codes(v)
    elif isinstance(value, list):
        for v in value:
            out |= _codes(v)
    return out


def _one_deal(
    game_id: str, options: dict[str, Any], seed: int, seat: int, stop: float = 0.6
) -> tuple[records.Record, set[str]]:
    """A deal played by bots up to ``stop`` of its actions (later, only the few cards never
    played would stay hidden), as a record, and every card the seat's views showed so far."""
    info = GAMES[game_id]
    state = info.new_state(info.options(options))
    rng = random.Random(seed)
    state.deal_random(rng)
    bots = [make_bot("heuristic", game_id) for _ in range(state.num_players)]
    while True:
        to_act = state.to_act
        if to_act is None or state.needs_deal:
            break
        deal_no = state.deal_number
        action = bots[to_act].choose(state.view(to_act), rng)
        if isinstance(action, Claim):  # keep the deal going: a claim would end it at once
            action = next(a for a in state.legal_actions() if not isinstance(a, Claim))
        state.apply(action, to_act)
        if state.deal_number != deal_no or state.is_over:
            break
    rec = records.from_state(state)
    played = len(rec.deals[0].actions)
    limit = max(1, int(played * stop))
    rec.deals[0].actions = rec.deals[0].actions[:limit]
    # the cards seen up to the cut: replay the cut record and collect the seat's views again
    seen: set[str] = set()
    start = copy.deepcopy(rec)
    start.deals[0].actions = []
    state = records.replay(start)
    for a in rec.deals[0].actions + [None]:
        view = state.view(seat).to_json()
        for key in ("legal_actions", "attempts", "last_deal", "options"):
            view.pop(key, None)
        seen |= _codes(view)
        if a is not None:
            state.apply(info.action_from_json(a, a["seat"]), a["seat"])
    return rec, seen


def _scrambled(rec: records.Record, seen: set[str], rng: random.Random) -> records.Record | None:
    """The record with the unseen cards permuted within each suit, if it still replays."""
    deal = rec.deals[0]
    everything = [c for h in deal.hands for c in h] + list(deal.rest)
    hidden = [c for c in everything if c not in seen]
    for _ in range(200):
        mapping = {}
        for suit in "SHDCJ":
            group = [c for c in hidden if c[-1] == suit or (suit == "J" and c == "JK")]
            shuffled = group[:]
            rng.shuffle(shuffled)
            mapping.update(zip(group, shuffled))
        if all(k == v for k, v in mapping.items()):
            continue
        new = copy.deepcopy(rec)
        d = new.deals[0]

        def swap(c: str, mapping: dict[str, str] = mapping) -> str:
            return mapping.get(c, c)

        d.hands = [[swap(c) for c in h] for h in d.hands]
        d.rest = [swap(c) for c in d.rest]
        for a in d.actions:
            for key in ("play", "adjutant"):
                if key in a:
                    a[key] = swap(a[key])
            if "discard" in a:
                a["discard"] = [swap(c) for c in a["discard"]]
        try:
            records.replay(new)
        except RecordError:
            continue
        return new
    return None


class _Script:
    """A bot that plays a seat's recorded actions, then stops the match."""

    name = "script"

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions

    def choose(self, view: Any, rng: random.Random) -> Action:
        if not self.actions:
            raise EOFError
        return self.actions.pop(0)


def _terminal_text(rec: records.Record, seat: int, lang: str, tmp: Path) -> str:
    info = rec.info
    start = copy.deepcopy(rec)
    start.deals[0].actions = []
    state = records.replay(start)
    mine: dict[int, list[Action]] = {s: [] for s in range(state.num_players)}
    for a in rec.deals[0].actions:
        mine[a["seat"]].append(info.action_from_json(a, a["seat"]))
    out = io.StringIO()
    holder: dict[str, TerminalGame] = {}

    def answer(prompt: str) -> str:
        if not mine[seat]:
            raise EOFError
        action = mine[seat].pop(0)
        view = holder["game"].state.view(seat)
        offered = [a for a in sorted_actions(view) if not isinstance(a, Claim)]
        return str(offered.index(action) + 1)

    game = TerminalGame(
        info,
        None,
        seat=seat,
        bots={s: _Script(mine[s]) for s in mine if s != seat},
        lang=lang,
        record_path=tmp / "r.json",
        console=Console(file=out, width=120),
        input_fn=answer,
        state=state,
    )
    holder["game"] = game
    game.run()
    text = out.getvalue()
    return text.split(t("deal_over", lang))[0]


@pytest.mark.parametrize("game_id,options", TABLES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_terminal_shows_nothing_the_seat_may_not_see(
    game_id: str, options: dict[str, Any], lang: str, tmp_path: Path
) -> None:
    scrambles = 0
    for seed in range(4):
        seat = seed % 3 + 1
        rec, seen = _one_deal(game_id, options, seed, seat)
        other = _scrambled(rec, seen, random.Random(seed))
        if other is None:
            continue
        scrambles += 1
        assert _terminal_text(rec, seat, lang, tmp_path) == _terminal_text(other, seat, lang, tmp_path)
    assert scrambles >= 2


def test_the_test_catches_a_printed_discard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Printing another seat's negri as its label (the old terminal) changes the output."""
    from kirifuda.ui import terminal

    monkeypatch.setattr(
        terminal.TerminalGame,
        "_show_action",
        lambda self, seat, action, before, **_: self.console.print(f"{seat}: {action.label('en')}"),
    )
    differs = False
    for seed in range(6):
        seat = seed % 3 + 1
        rec, seen = _one_deal("meitora", {}, seed, seat)
        other = _scrambled(rec, seen, random.Random(seed))
        if other is not None and _terminal_text(rec, seat, "en", tmp_path) != _terminal_text(
            other, seat, "en", tmp_path
        ):
            differs = True
            break
    assert differs
