"""Every registered game, every option sample: the shared contract of the game interface."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from kirifuda import record as records
from kirifuda.actions import Chombo
from kirifuda.errors import IllegalActionError
from kirifuda.game import View
from kirifuda.games import GAMES

from .conftest import play_random

# a few option sets per game; each game's own tests cover every option
OPTION_SAMPLES: dict[str, list[dict]] = {
    "meitora": [{}, {"claim_failure": "refuse"}, {"joker_lead": "trump", "target": 5}],
    "napoleon": [{}, {"players": 4}, {"joker": True}, {"players": 4, "joker": True, "yoromeki": True}],
    "kakeya": [{}, {"players": 6}, {"initial_trump": "S", "games": 3}],
    "unsun": [{}, {"players": 3}, {"players": 5, "all_trumps_face_down": True}],
}
CASES = [(g, o) for g in sorted(GAMES) for o in OPTION_SAMPLES.get(g, [{}])]
CASE_IDS = [f"{g}-{json.dumps(o, sort_keys=True)}" for g, o in CASES]


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_random_match_ends_and_replays(game, options):
    state = play_random(game, options, seed=1)
    assert state.is_over
    out = state.outcome()
    assert out is not None
    summary = state.summary()
    assert summary["finished"] is True and summary["winner"] is not None
    assert summary["totals"] == list(out.totals)
    # the record of the match replays to the same result, through text
    text = records.dumps(records.from_state(state))
    again = records.replay(records.loads(text))
    assert again.summary() == summary
    assert records.dumps(records.loads(text)) == text


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_views_serialise_and_offer_the_legal_actions(game, options):
    def check(state, action):
        seat = state.to_act
        view = state.view(seat)
        assert isinstance(view, View)
        # the legal actions, and the attempts (offered whether or not they hold: see View)
        attempts = state.attempt_actions()
        assert view.attempts == attempts
        assert view.legal_actions == state.legal_actions() + tuple(
            a for a in attempts if a not in state.legal_actions()
        )
        assert action in view.legal_actions
        json.dumps(view.to_json(), ensure_ascii=False)
        for other in range(state.num_players):
            if other != seat:
                assert state.view(other).legal_actions == ()
        spectator = state.view(None)
        assert spectator.hand == () and spectator.legal_actions == ()
        # the table's local rules are public: every view carries them, as the record has them
        want = {k: v for k, v in state.options_json().items() if k in view.options}
        assert dict(view.options) == want and set(options) <= set(view.options)
        assert dict(spectator.options) == dict(view.options) == view.to_json()["options"]

    play_random(game, options, seed=2, max_deals=2, on_step=check)


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_refused_actions_change_nothing(game, options):
    info = GAMES[game]
    state = info.new_state(info.options(options))
    rng = random.Random(3)
    state.deal_random(rng)
    steps = 0
    while not state.needs_deal and not state.is_over and steps < 200:
        seat = state.to_act
        legal = state.legal_actions()
        before = (json.dumps(state.summary()), json.dumps(state.view(seat).to_json()), state.record_deals())
        # the wrong seat, and an action from another phase or another seat's hand
        wrong = (seat + 1) % state.num_players
        with pytest.raises(IllegalActionError):
            state.apply(legal[0], seat=wrong)
        for other in _foreign_actions(state):
            if other not in legal and not isinstance(other, Chombo):
                with pytest.raises(IllegalActionError):
                    state.apply(other)
        after = (json.dumps(state.summary()), json.dumps(state.view(seat).to_json()), state.record_deals())
        assert before == after
        state.apply(rng.choice(legal))
        steps += 1


def _foreign_actions(state):
    """Actions of every kind the record knows, most of them illegal at any given moment."""
    from kirifuda.actions import PASS, Bid, Claim, Discard, Play
    from kirifuda.games.napoleon import Adjutant, Approve, Redeclare
    from kirifuda.games.kakeya import ChooseLeader, ChooseTrump
    from kirifuda.cards import CARDS, Suit

    out = [
        PASS,
        Bid(99, "S"),
        Claim(),
        Approve(True),
        Redeclare(),
        ChooseTrump(Suit.SPADES),
        ChooseLeader(0),
        Adjutant(CARDS[0]),
        Discard((CARDS[0],)),
    ]
    out += [Play(c) for c in CARDS]
    return out


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), case=st.sampled_from(CASES))
def test_a_copy_is_independent(seed, case):
    game, options = case
    info = GAMES[game]
    state = info.new_state(info.options(options))
    rng = random.Random(seed)
    state.deal_random(rng)
    for _ in range(rng.randrange(0, 12)):
        if state.needs_deal or state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    if state.needs_deal or state.is_over:
        return
    snapshot = json.dumps(state.summary())
    twin = state.copy()
    while not twin.needs_deal and not twin.is_over:
        twin.apply(rng.choice(twin.legal_actions()))
    assert json.dumps(state.summary()) == snapshot
