"""Meitora invariants over random legal matches (Hypothesis)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from kirifuda.actions import Claim
from kirifuda.cards import CARDS
from kirifuda.games.meitora import DECK, MeitoraOptions, MeitoraState, Phase

OPTIONS = st.builds(
    MeitoraOptions,
    target=st.integers(1, 17),
    claim_failure=st.sampled_from(["chombo", "refuse"]),
    joker_lead=st.sampled_from(["request", "trump"]),
)


def codes_in(obj) -> set[str]:
    """Every card code anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(obj, str):
        if obj in _CODES:
            found.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k not in ("bid", "redeclare"):  # "7H" is a bid there, not a card
                found |= codes_in(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= codes_in(v)
    return found


_CODES = {c.code for c in CARDS}


def hidden_from(state: MeitoraState, seat: int | None) -> set[str]:
    """The cards ``seat`` may not see now, computed from the whole state."""
    hidden: set[str] = set()
    for other in range(4):
        if other != seat:
            hidden |= {c.code for c in state.hand(other)}
    declarer = state.declarer if state.phase in (Phase.DISCARD, Phase.PLAY) else None
    if declarer is None:
        hidden.add(CARDS[state._agari].code)  # still face down in the middle
    # once taken, the agari is a card of the declarer's hand (hidden as the hand is); played,
    # it is public; which card it was stays the declarer's secret (checked on the view)
    if (seat is None or seat != declarer) and state._negri >= 0:
        hidden.add(CARDS[state._negri].code)
    shown_last = state._last if not state._trick else None
    for trick, winner in state.tricks:
        if seat is None or winner % 2 != seat % 2:
            if shown_last is None or tuple(c.id for c in trick.cards) != shown_last[1]:
                # face down now; the seat still knows the card it played itself
                hidden |= {c.code for s, c in trick.plays if s != seat}
    for _s, c in state._trick:
        hidden.discard(CARDS[c].code)  # played to the current trick: public
    return hidden


def random_match(options: MeitoraOptions, seed: int, claim_rate: float, max_deals: int, check_step=None):
    rng = random.Random(seed)
    state = MeitoraState(options, first=rng.randrange(4))
    while not state.is_over and state.deal_number < max_deals:
        if state.needs_deal:
            state.deal_random(rng)
            continue
        legal = state.legal_actions()
        plays = [a for a in legal if not isinstance(a, Claim)]
        if len(plays) < len(legal) and rng.random() < claim_rate:
            action = next(a for a in legal if isinstance(a, Claim))
        else:
            action = rng.choice(plays)
        if check_step:
            check_step(state)
        state.apply(action)
    return state


@settings(max_examples=40, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1), claim_rate=st.sampled_from([0.0, 0.05]))
def test_deal_invariants(options, seed, claim_rate):
    state = random_match(options, seed, claim_rate, max_deals=6)
    totals = [Fraction(0), Fraction(0)]
    for deal_json, result in zip(state.record_deals(), state.summary()["deals"]):
        score = [Fraction(x).limit_denominator(2) for x in result["score"]]
        totals = [totals[0] + score[0], totals[1] + score[1]]
        # only one team scores in a deal, and never a negative amount
        assert min(score) == 0
        if result["outcome"] == "redeal":
            assert score == [0, 0] and result["tricks"] == []
        if result["outcome"] != "played":
            continue
        tricks = result["tricks"]
        # one card per seat per trick, in turn order from the leader
        for t in tricks:
            assert len(t["cards"]) == 4
        played = [c for t in tricks for c in t["cards"]]
        assert len(played) == len(set(played))
        # every card played once: the tricks, the negri and (after a claim) the hands left
        hands = {c for h in deal_json["hands"] for c in h} | set(deal_json["rest"])
        assert hands == {c.code for c in DECK}
        if len(tricks) == 10:
            negri = next(a["discard"][0] for a in deal_json["actions"] if "discard" in a)
            assert set(played) | {negri} == hands
        # the declarer's team tricks plus the others' make 10
        declarer = result["declarer"]
        team = result["team_tricks"]
        assert sum(team) == 10
        wins = [0, 0]
        for t in tricks:
            wins[t["winner"] % 2] += 1
        if len(tricks) == 10:
            assert wins == team
        # points follow the formula
        x = int(result["contract"][:-1])
        y = team[declarer % 2]
        expected = [Fraction(0), Fraction(0)]
        if y >= x:
            expected[declarer % 2] = Fraction(x - 5) + Fraction(y - x, 2)
        else:
            expected[1 - declarer % 2] = Fraction(x - y)
        assert score == expected
    assert [Fraction(t).limit_denominator(2) for t in state.summary()["totals"]] == totals


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_a_view_never_holds_a_hidden_card(options, seed):
    def check(state: MeitoraState) -> None:
        for seat in (0, 1, 2, 3, None):
            view = state.view(seat).to_json()
            view.pop("last_deal")  # the previous deal, all face up: not this deal's cards
            leaked = codes_in(view) & hidden_from(state, seat)
            assert not leaked, (seat, leaked)
            if seat is None or seat != state.declarer:
                assert view["agari"] is None and view["negri"] is None

    random_match(options, seed, 0.02, max_deals=2, check_step=check)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_replaying_the_record_gives_the_same_result(seed):
    from kirifuda import record

    state = random_match(MeitoraOptions(), seed, 0.02, max_deals=4)
    rec = record.from_state(state)
    again = record.replay(record.loads(record.dumps(rec)))
    assert again.summary() == state.summary()
    assert json.dumps(again.view(0).to_json()) == json.dumps(state.view(0).to_json())


def _wins_every_trick(state: MeitoraState, claimant: int) -> bool:
    """The plain game tree, on the engine's own moves: can ``claimant`` win every remaining
    trick, the current one included, whatever the other three play?"""
    if state.phase is not Phase.PLAY:
        return True
    seat = state.to_act
    for action in state.legal_actions():
        if isinstance(action, Claim):
            continue
        after = state.copy()
        done = len(after.tricks)
        after.apply(action)
        if len(after.tricks) > done and after.tricks[-1][1] != claimant:
            ok = False
        else:
            ok = _wins_every_trick(after, claimant)
        if seat == claimant and ok:
            return True
        if seat != claimant and not ok:
            return False
    return seat != claimant


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), joker_lead=st.sampled_from(["request", "trump"]), cards_played=st.integers(28, 38)
)
def test_a_claim_holds_exactly_when_the_game_tree_says_so(seed, joker_lead, cards_played):
    """§6 オープン: the engine's claim check (a search with the defenders' cards merged) against
    the plain game tree, late in random deals."""
    rng = random.Random(seed)
    state = MeitoraState(MeitoraOptions(joker_lead=joker_lead))
    state.deal_random(rng)
    while state.phase in (Phase.BIDDING, Phase.DISCARD):
        legal = state.legal_actions()
        bids = [a for a in legal if type(a).__name__ == "Bid"]
        state.apply(bids[0] if bids and state.phase is Phase.BIDDING else rng.choice(legal))
    played = 0
    while state.phase is Phase.PLAY and played < cards_played:
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, Claim)]))
        played += 1
    if state.phase is not Phase.PLAY:
        return
    claimant = state.to_act
    assert claimant is not None
    assert state._claim_is_valid(claimant) == _wins_every_trick(state.copy(), claimant)
