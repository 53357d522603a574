"""The pure-Python solver decides as the C core does where every solve ends within its budget.

Both cores give the same exact values (``test_solver*``).  The search levels cap the nodes of
each solve; the Python core is a plainer search (no table, no bounds), so where a cap is reached
the two have proved different bounds by then and a decision can differ (early in a deal, with
ten cards a hand).  Late in a deal every solve ends within its cap in both: there the same view
and seed must give the same decision, whichever core is built."""

from __future__ import annotations

import random

import pytest

from kirifuda.bots import make_bot
from kirifuda.games import GAMES
from kirifuda.solver import _core, has_c_core

pytestmark = pytest.mark.skipif(not has_c_core(), reason="the C core is not built")


def late_views(game: str, cards: int, n: int, seed: int) -> list[tuple[object, int]]:
    """``n`` positions of random deals where the seat to play holds at most ``cards`` cards and
    has a choice."""
    info = GAMES[game]
    rng = random.Random(seed)
    out: list[tuple[object, int]] = []
    while len(out) < n:
        state = info.new_state(info.options({}))
        state.deal_random(rng)
        deal = state.deal_number
        while state.deal_number == deal and not state.is_over and len(out) < n:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if state.phase.value == "play" and len(view.hand) <= cards and len(view.legal_actions) > 1:
                out.append((state.copy(), seat))
            state.apply(rng.choice([a for a in state.legal_actions() if type(a).__name__ != "Claim"]), seat)
    return out


@pytest.mark.parametrize(("game", "cards", "n"), [("meitora", 5, 24), ("kakeya", 4, 12), ("napoleon", 3, 12)])
def test_the_python_core_decides_as_the_c_core_late_in_a_deal(
    game: str, cards: int, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    c_core = _core.csolver
    for i, (state, seat) in enumerate(late_views(game, cards, n, seed=_seed_of(game))):
        decided = []
        for core in (c_core, None):
            monkeypatch.setattr(_core, "csolver", core)
            bot = make_bot("search:easy", game)
            decided.append(bot.choose(state.view(seat), random.Random(i)))  # type: ignore[attr-defined]
        assert decided[0] == decided[1], (game, i, decided)


def _seed_of(game: str) -> int:
    return sum(map(ord, game))
