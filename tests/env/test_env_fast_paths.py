"""The OpenSpiel adapter's fast paths give exactly what the plain ones give.

Over random states of every game and option set (Hypothesis): the incremental list encoding
of ``observation_tensor`` against the encoder's plain numpy encoding of the seat's view, the
view text against ``to_jsonable`` and ``json.dumps`` of the whole view, and a resample drawn
with the state's kept resampler against the same draw on a copy that makes its own.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'kirifuda[openspiel]')")
pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kirifuda.env.core import view_string  # noqa: E402
from kirifuda.env.openspiel import game_name, register_all  # noqa: E402
from kirifuda.game import to_jsonable  # noqa: E402

from .helpers import CASE_IDS, CASES  # noqa: E402

register_all()

pytestmark = pytest.mark.slow

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _load(game: str, options: dict[str, Any]) -> Any:
    return pyspiel.load_game(game_name(game), {"options": json.dumps(options)})


def _plain_view_string(view: Any) -> str:
    """The view text as ``to_jsonable`` and ``json.dumps`` make it, field by field."""
    data = {
        f.name: to_jsonable(getattr(view, f.name))
        for f in dataclasses.fields(view)
        if f.name not in ("legal_actions", "attempts")
    }
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _plain_observation(state: Any, seat: int) -> list[float]:
    """The observation the encoder makes of the seat's view from nothing (numpy, no reuse)."""
    encoder = state.get_game().encoder
    view = state.view(seat)
    return encoder.encode(view, state.pending(seat)).tolist()  # type: ignore[no-any-return]


def _states(game: Any, seed: int, stops: int) -> list[Any]:
    """Copies of one random episode at ``stops`` random points (chance nodes and the end
    included)."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    out = [s.clone()]
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
        if rng.random() < 0.3 or s.is_terminal():
            out.append(s.clone())
    rng.shuffle(out)
    return out[:stops]


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=CASE_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), stops=st.integers(1, 12))
def test_observation_lists_and_view_texts_are_the_plain_ones(
    game_id: str, options: dict[str, Any], seed: int, stops: int
) -> None:
    """States visited out of order and every seat of each (the encoder's kept encodings are
    per seat and shared by every state of the game): the list is the plain encoding, float
    by float, and the text is the plain text."""
    game = _load(game_id, options)
    for s in _states(game, seed, stops):
        for seat in range(game.num_players()):
            if s.is_terminal():
                continue
            got = s.observation_tensor(seat)
            assert got == _plain_observation(s, seat)
            assert all(type(x) is float for x in got)
            view = s.view(seat)
            assert view_string(view) == _plain_view_string(view)
        assert view_string(s.view(None)) == _plain_view_string(s.view(None))


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=CASE_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), stops=st.integers(1, 4))
def test_a_kept_resampler_draws_what_a_new_one_draws(
    game_id: str, options: dict[str, Any], seed: int, stops: int
) -> None:
    """A state resampled again (its resampler kept from the first time) gives, for the same
    sampler, the state that a copy of it (which makes its own) gives; after a step the kept
    one is made anew."""
    game = _load(game_id, options)
    rng = random.Random(seed)
    for s in _states(game, seed, stops):
        if s.is_terminal() or s.is_chance_node():
            continue
        seat = s.current_player()
        s.resample_from_infostate(seat, random.Random(rng.random()).random)  # keeps its resampler
        draw = rng.random()
        kept = s.resample_from_infostate(seat, random.Random(draw).random)
        fresh = s.clone().resample_from_infostate(seat, random.Random(draw).random)
        assert kept.history() == fresh.history()
        assert kept.information_state_string(seat) == s.information_state_string(seat)
        s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal() or s.is_chance_node():
            continue
        seat = s.current_player()
        draw = rng.random()
        again = s.resample_from_infostate(seat, random.Random(draw).random)
        assert again.history() == s.clone().resample_from_infostate(seat, random.Random(draw).random).history()
        assert again.information_state_string(seat) == s.information_state_string(seat)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=CASE_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), stops=st.integers(1, 4))
def test_a_resample_replays_as_it_would_with_the_steppers_check(
    game_id: str, options: dict[str, Any], seed: int, stops: int
) -> None:
    """A resample's replay leaves the check of a relabelled step to the engine: it accepts
    and refuses exactly the deals that the stepper's own check (legal indices, discard picks)
    would, so the same draws give the same state."""
    from kirifuda.env.core import Stepper

    game = _load(game_id, options)
    rng = random.Random(seed)
    points = [s for s in _states(game, seed, stops) if not s.is_terminal() and not s.is_chance_node()]
    draws = [(s, s.current_player(), rng.random()) for s in points]
    plain = Stepper.apply
    got = [s.clone().resample_from_infostate(p, random.Random(d).random).history() for s, p, d in draws]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(Stepper, "apply", lambda self, index, trusted=False: plain(self, index, False))
        checked = [s.clone().resample_from_infostate(p, random.Random(d).random).history() for s, p, d in draws]
    assert got == checked


@pytest.mark.parametrize("game_id", sorted({g for g, _ in CASES}))
def test_numbers_in_a_list_observation_are_the_float32_ones(game_id: str) -> None:
    """A number that float32 cannot hold exactly (a score of 0.1) is in the list as the numpy
    encoding holds it, for a seat seen before and after the change."""
    game = _load(game_id, {})
    s = _states(game, 5, 1)[0]
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    view = s.view(0)
    encoder = game.encoder
    assert encoder.encode_list(view) == encoder.encode(view).tolist()
    odd = dataclasses.replace(view, totals=tuple(0.1 * (i + 1) for i in range(len(view.totals))))
    got = encoder.encode_list(odd)
    assert got == encoder.encode(odd).tolist()
    assert got != encoder.encode_list(view)
