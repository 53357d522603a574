"""Resampling from an information state never leaks a hidden card (OpenSpiel adapter).

At random decision points of every game and option set: every resample for a seat gives the
same information state string, and every card the seat cannot place is found somewhere else
than its true place in some resample (of up to 60: a card that may be elsewhere is found there).  "Cannot place" is decided here independently of the
adapter's bookkeeping: the card can trade places with another card of the deal (in the deal
alone, or in the deal and every action naming either card) and the seat's information state
stays the same.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'kirifuda[openspiel]')")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kirifuda.env.openspiel import game_name, register_all  # noqa: E402

from .helpers import CASE_IDS, CASES  # noqa: E402

register_all()

SAMPLES = 8
MAX_SAMPLES = 60
PARTNERS = 6
CANDIDATES = 10


def _load(game: str, options: dict[str, Any]) -> Any:
    return pyspiel.load_game(game_name(game), {"options": json.dumps(options)})


def _decision_point(game: Any, seed: int, depth: float) -> Any:
    """A random deal played at random to a fraction ``depth`` of its decisions (None if the deal
    ended before any decision point could be chosen)."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    history = []
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice(s.chance_outcomes())[0]
        else:
            a = rng.choice(s.legal_actions())
            history.append((len(s.history()), a))
        s.apply_action(a)
    if not history:
        return None
    cut = history[min(len(history) - 1, int(depth * len(history)))][0]
    point = game.new_initial_state()
    for a in s.history()[:cut]:
        point.apply_action(a)
    assert not point.is_chance_node() and not point.is_terminal()
    return point


def _layout(s: Any) -> tuple[int, list[int], list[int], list[Any]]:
    """Where the current deal begins in the history, its chance outcomes, its decisions, and the
    place of each dealt position (``"rest"`` or the seat)."""
    k = s._k
    history = list(s.history())
    begin = len(history) - len(k.dealt) - len(k.steps)
    places: list[Any] = ["rest"] * k.rest_size
    for seat, size in enumerate(k.hand_sizes):
        places += [seat] * size
    return begin, list(k.dealt), [a for _, a in k.steps], places


def _place_of(s: Any) -> dict[int, Any]:
    _, dealt, _, places = _layout(s)
    return dict(zip(dealt, places))


def _swapped(s: Any, a: int, b: int, relabel: bool) -> Any:
    """This state with cards ``a`` and ``b`` trading places in the deal (and, with ``relabel``, in
    every decision naming them); None where that is not a legal deal and play."""
    begin, dealt, steps, _ = _layout(s)
    catalog = s.get_game().catalog
    perm = {a: b, b: a}
    new_dealt = [perm.get(c, c) for c in dealt]
    new_steps = []
    for idx in steps:
        card = catalog.card_of(idx)
        if relabel and card in perm:
            idx = catalog.with_card(idx, perm[card])
        new_steps.append(idx)
    t = s.get_game().new_initial_state()
    try:
        for act in list(s.history())[:begin] + new_dealt + new_steps:
            t.apply_action(act)
    except Exception:  # noqa: BLE001 - an illegal deal or action (pyspiel raises its own errors)
        return None
    return t


def _unplaceable(s: Any, player: int, rng: random.Random, must: list[int]) -> list[int]:
    """Cards (among ``must`` and a random few others) that can trade places with a card of another
    place without changing the player's information state."""
    target = s.information_state_string(player)
    place = _place_of(s)
    cards = list(place)
    rng.shuffle(cards)
    candidates = list(dict.fromkeys([c for c in must if c in place] + cards[:CANDIDATES]))
    found = []
    for c in candidates:
        partners = [d for d in cards if place[d] != place[c]]
        for d in partners[:PARTNERS]:
            if any(
                (t := _swapped(s, c, d, relabel)) is not None
                and not t.is_terminal()
                and t.information_state_string(player) == target
                for relabel in (False, True)
            ):
                found.append(c)
                break
    return found


def _named(s: Any) -> list[int]:
    """Cards the table names without placing them (the adjutant's card, the rensho)."""
    view = s._k.stepper.state.view(None)
    return [c.id for c in (getattr(view, "adjutant_card", None), getattr(view, "rensho", None)) if c is not None]


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**31), depth=st.floats(0.0, 0.999), other=st.integers(1, 5))
def test_resamples_keep_the_information_state_and_hide_every_unplaced_card(game, options, seed, depth, other):
    g = _load(game, options)
    s = _decision_point(g, seed, depth)
    if s is None:
        return
    n = s.num_players()
    rng = random.Random(seed)
    sampler = random.Random(seed + 1).random
    for player in sorted({s.current_player(), (s.current_player() + other) % n}):
        target = s.information_state_string(player)
        truth = _place_of(s)
        unmoved = set(_unplaceable(s, player, rng, _named(s)))
        for i in range(MAX_SAMPLES):
            if i >= SAMPLES and not unmoved:
                break
            r = s.resample_from_infostate(player, sampler)
            assert r.information_state_string(player) == target
            assert r.current_player() == s.current_player()
            places = _place_of(r)
            unmoved = {c for c in unmoved if places[c] == truth[c]}
        assert not unmoved, (
            f"seat {player} cannot place cards {sorted(unmoved)} (true places "
            f"{[truth[c] for c in sorted(unmoved)]}), yet every resample puts them there"
        )
