"""The Meitora engine's two play cores — C (built at install time) and the pure-Python
reference — agree action by action; and the rule tests pass on the pure-Python core too."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from kirifuda.actions import Claim
from kirifuda.games import meitora
from kirifuda.games.meitora import MeitoraOptions, MeitoraState, PureMeitoraState

ROOT = Path(__file__).resolve().parents[2]

needs_c = pytest.mark.skipif(not meitora.HAS_C_CORE, reason="the C core was not built (no C compiler at install)")


def test_the_c_core_is_built_where_a_compiler_is():
    """CI and every developer machine has gcc: the fast core must be the one in use there."""
    if os.environ.get("KIRIFUDA_PURE_PYTHON"):
        pytest.skip("KIRIFUDA_PURE_PYTHON is set")
    import shutil

    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler on this machine")
    assert meitora.HAS_C_CORE


@needs_c
@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    claim_failure=st.sampled_from(["chombo", "refuse"]),
    joker_lead=st.sampled_from(["request", "trump"]),
    claim_rate=st.sampled_from([0.0, 0.03]),
)
def test_c_and_python_cores_agree_action_by_action(seed, claim_failure, joker_lead, claim_rate):
    options = MeitoraOptions(target=6, claim_failure=claim_failure, joker_lead=joker_lead)
    fast, pure = MeitoraState(options, first=seed % 4), PureMeitoraState(options, first=seed % 4)
    rng_fast, rng_pure, choose = random.Random(seed), random.Random(seed), random.Random(seed + 1)
    steps = 0
    while not fast.is_over and steps < 400:
        if fast.needs_deal:
            fast.deal_random(rng_fast)
            pure.deal_random(rng_pure)
            continue
        legal = fast.legal_actions()
        assert legal == pure.legal_actions()
        plays = [a for a in legal if not isinstance(a, Claim)]
        action = (
            next(a for a in legal if isinstance(a, Claim))
            if len(plays) < len(legal) and choose.random() < claim_rate
            else choose.choice(plays)
        )
        fast.apply(action)
        pure.apply(action)
        steps += 1
        assert fast.to_act == pure.to_act and fast.phase is pure.phase
        assert fast.summary() == pure.summary()
        seat = fast.to_act
        assert json.dumps(fast.view(seat).to_json()) == json.dumps(pure.view(seat).to_json())
    assert fast.record_deals() == pure.record_deals()


@needs_c
@settings(max_examples=200, deadline=None)
@given(randomness=st.one_of(st.binary(min_size=320, max_size=320), st.sampled_from([b"\xff" * 320, b"\x00" * 320])))
@example(randomness=(0x3E7063E7FFFFFFFF).to_bytes(8, "little") * 40)
def test_the_c_core_shuffles_as_the_python_core(randomness):
    """A seed deals the same cards whichever core runs: the C core's shuffle draws each swap as
    the Python core does (floor(x * (i + 1) / 2**64) of a 64-bit word), the words of all ones
    included, and a word whose low half carries into the high half's product (the explicit
    example: without the carry its first swap would draw 9 instead of 10)."""
    from kirifuda.games import _meitora_core

    assert _meitora_core.deal_masks(randomness) == meitora._py_deal_masks(randomness)


@needs_c
def test_copies_of_a_c_state_are_independent():
    s = MeitoraState()
    s.deal_random(random.Random(11))
    twin = s.copy()
    assert type(twin) is MeitoraState
    while not twin.needs_deal:
        twin.apply(twin.legal_actions()[0])
    assert s.deal_number == 0 and twin.deal_number == 1
    assert s.summary()["deals"][0]["outcome"] == "in-progress"


def test_the_rules_hold_on_the_pure_python_core():
    env = dict(os.environ, KIRIFUDA_PURE_PYTHON="1")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-x",
            "--hypothesis-seed=0",
            "tests/games/test_meitora.py",
            "tests/games/test_meitora_properties.py",
            "tests/test_conformance.py",
            "-k",
            "meitora or Meitora or test_",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and " failed" not in done.stdout


@pytest.mark.parametrize("cls", [MeitoraState, PureMeitoraState])
def test_a_state_pickles_and_plays_on(cls):
    import pickle

    s = cls(MeitoraOptions(joker_lead="trump"), first=2)
    s.deal_random(random.Random(5))
    for _ in range(12):
        if s.needs_deal:
            break
        s.apply(s.legal_actions()[-2 if len(s.legal_actions()) > 1 else 0])
    again = pickle.loads(pickle.dumps(s))
    assert type(again) is cls
    assert again.summary() == s.summary() and again.legal_actions() == s.legal_actions()
    assert json.dumps(again.view(0).to_json()) == json.dumps(s.view(0).to_json())
