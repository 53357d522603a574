"""The solver against brute force on small Meitora endings (random positions with up to 4
tricks left): the brute force plays every legal card (every joker request) through the engine
itself and reads the declarer's team's tricks off the finished deal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kirifuda.actions import Bid, Claim, Pass, Play
from kirifuda.cards import parse_card
from kirifuda.games.meitora import STRAINS, MeitoraOptions, MeitoraState, Phase
from kirifuda.solver import has_c_core
from kirifuda.solver.meitora import position_of, solve_state

BACKENDS = ["python"] + (["c"] if has_c_core() else [])


def play_state(seed: int, tricks_left: int, options: MeitoraOptions | None = None) -> MeitoraState:
    """A random deal with a random contract, played at random down to ``tricks_left`` tricks
    (and a random number of cards into the current trick)."""
    rng = random.Random(seed)
    while True:
        s = MeitoraState(options or MeitoraOptions())
        s.deal_random(rng)
        if s.phase is not Phase.BIDDING:
            continue
        s.apply(Bid(rng.randrange(6, 11), rng.choice("SCDHN")))
        for _ in range(3):
            s.apply(Pass())
        if s.phase is not Phase.DISCARD:
            continue
        s.apply(rng.choice(s.legal_actions()))
        plays = 4 * (10 - tricks_left) + rng.randrange(4)
        for _ in range(plays):
            s.apply(rng.choice([a for a in s.legal_actions() if type(a) is not Claim]))
        return s


def brute_force(state: MeitoraState) -> int:
    """The declarer's team's final tricks under best play, by plain minimax over the engine."""
    declarer = state.declarer
    assert declarer is not None
    team = declarer % 2
    memo: dict[Any, int] = {}

    def value(s: MeitoraState) -> int:
        if s.phase is not Phase.PLAY:
            return int(s.summary()["deals"][-1]["team_tricks"][team])
        key = (tuple(s._hands), tuple(s._trick), s._led, s._to_act, tuple(s._team_tricks))
        hit = memo.get(key)
        if hit is not None:
            return hit
        results = []
        for a in s.legal_actions():
            if type(a) is Claim:
                continue
            child = s.copy()
            child.apply(a)
            results.append(value(child))
        assert s.to_act is not None
        out = max(results) if s.to_act % 2 == team else min(results)
        memo[key] = out
        return out

    return value(state)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("joker_lead", ["request", "trump"])
def test_solver_equals_brute_force(backend: str, joker_lead: str) -> None:
    for seed in range(24):
        s = play_state(seed, 1 + seed % 4, MeitoraOptions(joker_lead=joker_lead))
        assert solve_state(s, backend) == brute_force(s), seed


@pytest.mark.parametrize("backend", BACKENDS)
def test_move_values_equal_brute_force(backend: str) -> None:
    for seed in range(100, 112):
        s = play_state(seed, 1 + seed % 3)
        pos = position_of(s)
        values = pos.move_values(backend)
        team = pos.declarer % 2
        legal = [a for a in s.legal_actions() if isinstance(a, Play)]
        assert {(a.card.id, a.request) for a in legal} == set(values)
        for a in legal:
            child = s.copy()
            child.apply(a)
            assert s.team_tricks[team] + values[(a.card.id, a.request)] == brute_force(child), (seed, a)


@pytest.mark.skipif(not has_c_core(), reason="the C core is not built")
def test_c_core_equals_python_on_longer_endings() -> None:
    for seed in range(200, 212):
        s = play_state(seed, 5 + seed % 2)
        assert solve_state(s, "c") == solve_state(s, "python"), seed


def test_quick_tricks_respect_a_partners_forced_joker() -> None:
    """Two top spades on lead are not two sure tricks when the partner holds the joker with
    one other card: the joker must go on the first trick (it may not be kept to the last), wins
    it, and the partner's lead of a diamond loses the last trick."""
    from kirifuda.solver.meitora import MeitoraPosition

    def mask(*codes: str) -> int:
        return sum(1 << parse_card(c).id for c in codes)

    hands = (mask("AS", "KS"), mask("AD", "KD"), mask("JK", "5D"), mask("QD", "TD"))
    for backend in BACKENDS:
        pos = MeitoraPosition(
            strain=STRAINS.index("H"),
            hands=hands,
            leader=0,
            trick=(),
            led=4,  # type: ignore[arg-type]
            declarer=0,
        )
        assert pos.value(backend) == 1, backend
        assert {pos.value(backend, guess=g) for g in (0, 1, 2)} == {1}


def test_a_forced_joker_and_its_partners_trump_may_share_a_trick() -> None:
    """Diamonds trump, three tricks, seat 1 on lead for seats 1 and 3: their run of top trumps,
    the joker (seat 3, with ♦Q) and ♦J (seat 1's only diamond), counted as two sure tricks
    because seat 3 holds two diamonds, is one where the joker's lead asks for trump
    (``joker_lead="trump"``): seat 3 must play the joker by the second trick, and whenever it
    leads it, ♦J falls on it.  The C core gave 3 (found against the Python core on small
    endings); where the joker may ask for spades ♦J survives and the side takes all three."""
    from kirifuda.solver.meitora import MeitoraPosition

    def mask(*codes: str) -> int:
        return sum(1 << parse_card(c).id for c in codes)

    hands = (mask("TS", "AS", "AH"), mask("JS", "JD", "QC"), mask("TD", "AD", "JC"), mask("QD", "AC", "JK"))
    for joker_lead, want in (("trump", 2), ("request", 3)):
        for backend in BACKENDS:
            pos = MeitoraPosition(
                strain=STRAINS.index("D"), hands=hands, leader=1, trick=(), led=4, declarer=1, joker_lead=joker_lead
            )
            assert pos.value(backend) == want, (backend, joker_lead)
            assert {pos.value(backend, guess=g) for g in (1, 2, 3)} == {want}


def dense_meitora_ending(seed: int, tricks: int) -> tuple[list[int], int, str, int, int]:
    """An ending dealt from the top ``tricks``..``tricks + 2`` ranks of each suit, the joker
    in most: runs of top cards, forced jokers and bare masters are common."""
    rng = random.Random(seed)
    ranks = tricks + rng.randrange(3)
    deck = [su * 13 + 12 - k for su in range(4) for k in range(ranks)]
    if rng.random() < 0.6:
        deck.append(52)
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[tricks * p : tricks * p + tricks]) for p in range(4)]
    return hands, rng.randrange(5), rng.choice(("request", "trump")), rng.randrange(4), rng.choice((0b0101, 0b1010))


@pytest.mark.skipif(not has_c_core(), reason="the C core is not built")
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**9), tricks=st.integers(3, 4))
def test_c_core_equals_python_on_dense_meitora_endings(seed: int, tricks: int) -> None:
    """The C core against the Python core (no bounds, exact table keys) on dense endings; a
    run of 30,000 such endings found the split run of top trumps with a forced joker."""
    from kirifuda.solver import solve
    from kirifuda.solver.meitora import meitora_rules

    hands, strain, joker_lead, leader, maxside = dense_meitora_ending(seed, tricks)
    rules = meitora_rules(strain, joker_lead)
    want = solve(rules, hands, leader, (), 4, maxside, "python")
    for g in (-1, tricks):
        assert solve(rules, hands, leader, (), 4, maxside, "c", g) == want


def test_every_joker_request_has_a_value() -> None:
    """A joker lead naming a suit nobody else holds is searched once, as naming nothing, but
    every request still gets its value, the same from both cores."""
    from kirifuda.solver.meitora import REQUESTS, MeitoraPosition

    def mask(*codes: str) -> int:
        return sum(1 << parse_card(c).id for c in codes)

    # nobody but the leader holds a spade, nobody at all a club
    hands = (mask("JK", "AS", "9H"), mask("KH", "9D", "8D"), mask("5H", "TD", "7D"), mask("QD", "6H", "JD"))
    pos = MeitoraPosition(
        strain=STRAINS.index("H"),
        hands=hands,
        leader=0,
        trick=(),
        led=4,  # type: ignore[arg-type]
        declarer=0,
    )
    got = {backend: pos.move_values(backend) for backend in BACKENDS}
    joker = parse_card("JK").id
    for values in got.values():
        assert {req for c, req in values if c == joker} == set(REQUESTS)
        assert values[(joker, "S")] == values[(joker, "C")] == values[(joker, "any")]
    assert len({tuple(sorted(v.items())) for v in got.values()}) == 1


def test_guess_does_not_change_the_value() -> None:
    s = play_state(7, 6)
    pos = position_of(s)
    assert {pos.value(guess=g) for g in (-1, 0, 3, 6)} == {pos.value()}


# -- Kakeya (face cards as the value, the rensho, four active players in turn order) ---------


def kakeya_state(seed: int, tricks_left: int, players: int = 4) -> Any:
    from kirifuda.games.kakeya import ChooseTrump
    from kirifuda.games.kakeya import KakeyaOptions, KakeyaState

    rng = random.Random(seed)
    s = KakeyaState(KakeyaOptions(players=players, initial_trump=rng.choice("SHDC")))
    s.deal_random(rng)
    s.apply(ChooseTrump(None))
    s.apply(s.legal_actions()[rng.randrange(2)])
    for _ in range(4 * (13 - tricks_left) + rng.randrange(4)):
        s.apply(rng.choice(s.legal_actions()))
    return s


def kakeya_brute_force(state: Any, pair: int) -> int:
    memo: dict[Any, int] = {}
    deal = state.deal_number

    def value(s: Any) -> int:
        if s.deal_number != deal:
            return int(s.summary()["deals"][-1]["face_cards"][pair])
        key = (tuple(s._hands), tuple(s._trick), s.to_act)
        if key in memo:
            return memo[key]
        results = []
        for a in s.legal_actions():
            child = s.copy()
            child.apply(a)
            results.append(value(child))
        out = max(results) if s.pair_of(s.to_act) == pair else min(results)
        memo[key] = out
        return out

    return value(state)


@pytest.mark.parametrize("backend", BACKENDS)
def test_kakeya_solver_equals_brute_force(backend: str) -> None:
    from kirifuda.solver import solve
    from kirifuda.solver.kakeya import kakeya_rules

    for seed in range(16):
        s = kakeya_state(seed, 1 + seed % 4, players=6 if seed % 5 == 0 else 4)
        active = list(s.active_seats)
        idx = {x: i for i, x in enumerate(active)}
        pair = s.pair_of(active[seed % 4])
        maxside = sum(1 << idx[x] for x in s.pair_seats(pair))
        trick = [c for _, c in s._trick]
        leader = idx[s._trick[0][0]] if s._trick else idx[s.to_act]
        value = solve(
            kakeya_rules(s.trump.index),
            [s._hands[x] for x in active],
            leader,
            trick,
            trick[0] // 13 if trick else 4,
            maxside,
            backend,
        )
        assert len(s._faces[pair]) + value == kakeya_brute_force(s, pair), seed


@pytest.mark.skipif(not has_c_core(), reason="the C core is not built")
@pytest.mark.parametrize("joker_lead", ["request", "trump"])
def test_joker_requests_left_out_as_dominated_change_no_value(joker_lead: str) -> None:
    """The C core does not search a joker lead's request that another is at least as good as
    (asking for nothing where a suit no partner holds and an opponent does could be asked for;
    a suit no opponent holds where nothing could be); the Python core searches them all.
    Random endings with the joker on lead, every strain, either side on lead: the same values,
    and every request still has its own."""
    from kirifuda.solver.meitora import MeitoraPosition

    deck = [c for c in range(52) if c % 13 >= 3]
    rng = random.Random(2026)
    for i in range(150):
        n = 2 + i % 3
        cards = rng.sample(deck, 4 * n - 1)
        hands = [1 << 52] + [0, 0, 0]
        for k, c in enumerate(cards):
            hands[(k + 1) // n] |= 1 << c
        leader = rng.randrange(4)
        hands = hands[-leader:] + hands[:-leader]  # the joker's holder leads
        pos = MeitoraPosition(
            strain=rng.randrange(5),
            hands=tuple(hands),
            leader=leader,  # type: ignore[arg-type]
            trick=(),
            led=4,
            declarer=rng.randrange(4),
            joker_lead=joker_lead,
        )
        assert pos.value("c") == pos.value("python"), i
        assert pos.move_values("c") == pos.move_values("python"), i


def test_a_joker_lead_asking_for_nothing_is_kept_where_every_request_binds_the_partner() -> None:
    """Hearts trump; the partner holds every suit an opponent holds, so each request would bind
    the partner too: only the joker asking for nothing takes three tricks (every other lead
    takes two), and both cores find it."""
    from kirifuda.solver.meitora import MeitoraPosition

    def mask(*codes: str) -> int:
        return sum(1 << parse_card(c).id for c in codes)

    hands = (
        mask("JK", "7S", "QH", "6D"),
        mask("KS", "9H", "TH", "AD"),
        mask("TS", "6H", "TD", "TC"),
        mask("9S", "KD", "5C", "AC"),
    )
    pos = MeitoraPosition(
        strain=STRAINS.index("H"),
        hands=hands,
        leader=0,
        trick=(),
        led=4,  # type: ignore[arg-type]
        declarer=0,
    )
    for backend in BACKENDS:
        values = pos.move_values(backend)
        joker = {req: v for (c, req), v in values.items() if c == parse_card("JK").id}
        assert joker == {"any": 3, "S": 2, "H": 2, "D": 2, "C": 2}, backend
        assert max(v for (c, _), v in values.items() if c != parse_card("JK").id) == 2, backend
        assert pos.value(backend) == 3, backend
