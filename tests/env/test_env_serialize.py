"""A state restored from its serialization (OpenSpiel's strings, pickle) or cloned works fully:
every method gives what the original's gives, and it plays on the same way."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'kirifuda[openspiel]')")
np = pytest.importorskip("numpy")

from kirifuda.env.openspiel import game_name, register_all  # noqa: E402

from .helpers import CASE_IDS, CASES  # noqa: E402

register_all()


def _load(game: str, options: dict[str, Any], match: bool = False) -> Any:
    return pyspiel.load_game(game_name(game), {"options": json.dumps(options), "match": match})


def _restored(game: Any, state: Any) -> list[tuple[str, Any]]:
    _, by_string = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    return [
        ("serialize_game_and_state", by_string),
        ("pickle", pickle.loads(pickle.dumps(state))),
        ("clone", state.clone()),
    ]


def _everything(game: Any, state: Any) -> dict[str, Any]:
    """What every method of the state gives (tensors as lists)."""
    out: dict[str, Any] = {
        "str": str(state),
        "history": list(state.history()),
        "current_player": state.current_player(),
        "is_terminal": state.is_terminal(),
        "is_chance_node": state.is_chance_node(),
        "returns": state.returns(),
        "rewards": state.rewards(),
        "move_number": state.move_number(),
    }
    if state.is_terminal():
        return out
    if state.is_chance_node():
        out["chance_outcomes"] = state.chance_outcomes()
        out["legal_actions"] = state.legal_actions()
    else:
        out["legal_actions"] = state.legal_actions()
        out["legal_actions_mask"] = state.legal_actions_mask()
        out["names"] = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    for p in range(state.num_players()):
        out[f"observation_string {p}"] = state.observation_string(p)
        out[f"observation_tensor {p}"] = list(state.observation_tensor(p))
        out[f"information_state_string {p}"] = state.information_state_string(p)
        out[f"information_state_tensor {p}"] = list(state.information_state_tensor(p))
        out[f"legal_actions {p}"] = state.legal_actions(p)
        info.set_from(state, p)
        out[f"observer {p}"] = (info.string_from(state, p), info.tensor.tolist())
    if not state.is_chance_node():
        p = state.current_player()
        r = state.resample_from_infostate(p, random.Random(5).random)
        out["resample"] = (list(r.history()), r.information_state_string(p))
    return out


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_a_restored_state_gives_what_the_original_gives(game, options):
    g = _load(game, options)
    rng = random.Random(11)
    checked = 0
    for _ in range(2):
        s = g.new_initial_state()
        stops = {rng.randrange(1, 120) for _ in range(3)}
        step = 0
        while not s.is_terminal():
            if step in stops or s.is_chance_node() and len(s.history()) == 3:
                want = _everything(g, s)
                for how, r in _restored(g, s):
                    got = _everything(r.get_game(), r)
                    assert got.keys() == want.keys(), how
                    for key in want:
                        assert got[key] == want[key], (how, key)
                    # and it plays on the same way
                    if not s.is_terminal():
                        a = s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[-1]
                        t, u = s.child(a), r.child(a)
                        assert _everything(g, t) == _everything(r.get_game(), u), how
                checked += 1
            a = rng.choice(s.chance_outcomes())[0] if s.is_chance_node() else rng.choice(s.legal_actions())
            s.apply_action(a)
            step += 1
        for how, r in _restored(g, s):
            assert _everything(r.get_game(), r) == _everything(g, s), how
    assert checked >= 2


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_a_restored_match_state_gives_what_the_original_gives(game):
    options = {"meitora": {"target": 2}, "napoleon": {"deals": 2}, "kakeya": {"games": 2}, "unsun": {"deals": 2}}.get(
        game, {}
    )
    g = _load(game, options, match=True)
    rng = random.Random(4)
    s = g.new_initial_state()
    deals = 0
    while not s.is_terminal() and deals < 2:
        before = s.is_chance_node()
        a = rng.choice(s.chance_outcomes())[0] if s.is_chance_node() else rng.choice(s.legal_actions())
        s.apply_action(a)
        if not before and s.is_chance_node():  # a new deal is about to be dealt
            deals += 1
            for how, r in _restored(g, s):
                assert _everything(r.get_game(), r) == _everything(g, s), how
