"""The solver on Napoleon against brute force.

- Endings of real deals (up to 4 tricks left, a random number of cards into the current trick,
  every option sample): the brute force plays every legal action through the engine itself
  (joker leads with every named suit, ♠3 leads with and without the joker call) and reads the
  Napoleon army's face cards off the state.
- The first trick and its options (first-trick ace, ``first_trick_plain``), same-2, yoromeki:
  small deals of 3 cards each solved with the first-trick flag, against a minimax that decides
  each trick with the engine's own ``trick_winner``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kirifuda.actions import Bid, Discard, Pass, Play
from kirifuda.games.napoleon import Adjutant, Redeclare
from kirifuda.cards import CARDS, JOKER_ID
from kirifuda.games.napoleon import FACE_MASK, S3, NapoleonOptions, NapoleonState, Phase, trick_winner
from kirifuda.solver import has_c_core, solve, solve_moves
from kirifuda.solver.napoleon import napoleon_rules, position_of
from kirifuda.solver.rules import CALLED

BACKENDS = ["python"] + (["c"] if has_c_core() else [])

OPTION_SAMPLES = [
    {},
    {"joker": True},
    {"players": 4},
    {"players": 4, "joker": True, "yoromeki": True},
    {"yoromeki": True, "first_trick_plain": True},
]


def play_state(seed: int, tricks_left: int, options: dict[str, Any]) -> NapoleonState:
    """A random deal with a random declaration, adjutant and discard, played at random down to
    ``tricks_left`` tricks and a random number of cards into the current trick (♠3 calls
    included: a call may be in progress)."""
    rng = random.Random(seed)
    opts = NapoleonOptions(**options)
    n = opts.players
    size = 10 if n == 5 else 12
    while True:
        s = NapoleonState(opts)
        s.deal_random(rng)
        s.apply(Bid(rng.randrange(13, 17), rng.choice("SHDC")))
        for _ in range(n):
            s.apply(Pass())
        s.apply(rng.choice([a for a in s.legal_actions() if isinstance(a, Adjutant)]))
        s.apply(rng.choice([a for a in s.legal_actions() if isinstance(a, Discard)]))
        if s.phase is Phase.REDECLARE:
            s.apply(Redeclare())
        plays = n * (size - tricks_left) + rng.randrange(n)
        for _ in range(plays):
            s.apply(rng.choice(s.legal_actions()))
        return s


def brute_force(state: NapoleonState) -> int:
    """The army's face cards from here on under best play (the army maximises), by minimax."""
    start = state.army_face_cards()
    army = {state.napoleon, state.adjutant}
    memo: dict[Any, int] = {}

    def value(s: NapoleonState) -> int:
        if s.phase is not Phase.PLAY:
            return s.army_face_cards() - start
        key = (tuple(s._hands), tuple(s._trick), s._led, s._called, s._to_act, s.army_face_cards())
        hit = memo.get(key)
        if hit is not None:
            return hit
        results = []
        for a in s.legal_actions():
            child = s.copy()
            child.apply(a)
            results.append(value(child))
        v = max(results) if s.to_act in army else min(results)
        memo[key] = v
        return v

    return value(state)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("options", OPTION_SAMPLES, ids=lambda o: ",".join(o) or "default")
def test_endings_against_brute_force(backend: str, options: dict[str, Any]) -> None:
    count = 0
    for seed in range(40):
        left = 1 + seed % 3 if options.get("players", 5) == 5 else 1 + seed % 4
        if backend == "python" and seed % 2:
            continue
        s = play_state(seed, left, options)
        if s.phase is not Phase.PLAY:
            continue
        pos = position_of(s)
        got = solve(pos.rules, pos.hands, pos.leader, pos.trick, pos.led, pos.maxside, backend)
        assert got == brute_force(s), (seed, options)
        count += 1
    assert count >= 10


def assert_move_values(s: NapoleonState, values: dict[tuple[int, int], float], context: Any) -> None:
    """Each legal action's value in ``values`` (``solve_moves``'s ``{(card, led): value}``) is
    the brute force's after it."""
    pos = position_of(s)
    before = s.army_face_cards()
    for a in s.legal_actions():
        assert isinstance(a, Play)
        child = s.copy()
        child.apply(a)
        led = "SHDC".index(a.request) if a.request else (pos.led if pos.trick else a.card.id // 13)
        if a.call_joker:
            others = [h for p, h in enumerate(child._hands) if p != s.to_act]
            # where nobody else holds the joker, the call changes nothing: the plain lead's value
            led = CALLED if any(h >> JOKER_ID & 1 for h in others) else a.card.id // 13
        assert values[(a.card.id, led)] == child.army_face_cards() - before + brute_force(child), (context, a)


@pytest.mark.parametrize("options", OPTION_SAMPLES[:2], ids=lambda o: ",".join(o) or "default")
def test_move_values_match_children(options: dict[str, Any]) -> None:
    """solve_moves: each legal action's value is the brute-force value after it."""
    for seed in range(6):
        s = play_state(100 + seed, 2 + seed % 2, options)
        assert_move_values(s, position_of(s).move_values(), seed)


def call_state(seed: int, options: dict[str, Any]) -> NapoleonState | None:
    """A deal played at random (♠3 never led) to a trick start with 2 or 3 tricks left where
    the leader holds ♠3 and another player the joker; None where the deal gets there another
    way."""
    rng = random.Random(seed)
    opts = NapoleonOptions(joker=True, **options)
    s = NapoleonState(opts)
    s.deal_random(rng)
    s.apply(Bid(rng.randrange(13, 17), rng.choice("SHDC")))
    for _ in range(opts.players):
        s.apply(Pass())
    s.apply(rng.choice([a for a in s.legal_actions() if isinstance(a, Adjutant)]))
    s.apply(rng.choice([a for a in s.legal_actions() if isinstance(a, Discard)]))
    if s.phase is Phase.REDECLARE:
        s.apply(Redeclare())
    left = 2 + seed % 2
    while s.phase is Phase.PLAY:
        hands = s._hands
        if not s._trick and hands[s.to_act].bit_count() == left:
            others = [h for p, h in enumerate(hands) if p != s.to_act]
            if hands[s.to_act] >> S3 & 1 and any(h >> JOKER_ID & 1 for h in others):
                return s
            return None
        legal = [a for a in s.legal_actions() if not (isinstance(a, Play) and a.card.id == S3)]
        s.apply(rng.choice(legal or list(s.legal_actions())))
    return None


@pytest.mark.parametrize("options", [{}, {"players": 4}], ids=["5 players", "4 players"])
def test_spade_three_calls_against_brute_force(options: dict[str, Any]) -> None:
    """♠3 on lead with the joker in another hand: the solver weighs the call (the joker's holder
    must play it to the trick) against the plain lead.  Both cores against the engine's brute
    force at the lead and after the called lead (every card of the trick so far), and each
    lead's value, the call's among them, against the brute force after it."""
    found = calls_differ = 0
    for seed in range(2000):
        s = call_state(seed, options)
        if s is None:
            continue
        found += 1
        pos = position_of(s)
        assert pos.rules.call_card == S3
        values = pos.move_values()
        assert_move_values(s, values, seed)
        calls_differ += values[(S3, CALLED)] != values[(S3, 0)]
        # into the called trick, card by card
        t = s.copy()
        t.apply(Play(CARDS[S3], call_joker=True))
        while t._trick:
            p = position_of(t)
            assert p.led == CALLED
            want = brute_force(t)
            for backend in BACKENDS:
                assert solve(p.rules, p.hands, p.leader, p.trick, p.led, p.maxside, backend) == want, (seed, backend)
            t.apply(next(iter(t.legal_actions())))
        if found >= 25:
            break
    assert found >= 25
    assert calls_differ >= 3  # the call matters in some of them


# -- the first trick, same-2 and yoromeki on small deals ------------------------------------


def _legal(hand: int, trick: list[int], led: int, joker: bool) -> list[tuple[int, int]]:
    """(card, led) choices by spec §5 (no ♠3 call)."""
    cards = [c for c in range(53) if hand >> c & 1]
    if not trick:
        out = []
        for c in cards:
            out += [(c, r) for r in range(4)] if c == JOKER_ID else [(c, c // 13)]
        return out
    if JOKER_ID in cards and len(cards) > 1:
        cards.remove(JOKER_ID)
    follow = [c for c in cards if c != JOKER_ID and c // 13 == led]
    return [(c, led) for c in (follow or cards)]


def small_minimax(hands: list[int], leader: int, army: int, trump: int, opts: dict[str, Any]) -> int:
    n = len(hands)

    def trick_start(leader: int, first: bool) -> int:
        if not hands[leader]:
            return 0
        return play(leader, [], 0, first)

    def play(leader: int, trick: list[int], led: int, first: bool) -> int:
        seat = (leader + len(trick)) % n
        vals = []
        for c, ld in _legal(hands[seat], trick, led, opts.get("joker", False)):
            hands[seat] ^= 1 << c
            t2 = trick + [c]
            if len(t2) == n:
                wi = trick_winner(
                    t2,
                    ld,
                    trump,
                    first=first,
                    yoromeki=opts.get("yoromeki", False),
                    first_trick_plain=opts.get("first_trick_plain", False),
                )
                w = (leader + wi) % n
                pts = sum(FACE_MASK >> x & 1 for x in t2 if x < 52) if army >> w & 1 else 0
                v = pts + trick_start(w, False)
            else:
                v = play(leader, t2, ld, first)
            hands[seat] ^= 1 << c
            vals.append(v)
        return max(vals) if army >> seat & 1 else min(vals)

    return trick_start(leader, True)


SMALL_OPTIONS = [
    {},
    {"first_trick_plain": True},
    {"yoromeki": True},
    {"joker": True},
    {"yoromeki": True, "first_trick_plain": True, "joker": True},
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("opts", SMALL_OPTIONS, ids=lambda o: ",".join(o) or "default")
def test_first_trick_small_deals(backend: str, opts: dict[str, Any]) -> None:
    check_small_deals(backend, opts, random.Random(SMALL_OPTIONS.index(opts)), 25)


def check_small_deals(backend: str, opts: dict[str, Any], rng: random.Random, count: int) -> None:
    # a deck rich in special cards: aces, ♠K, 2s, jacks, ♥Q, and a few others
    specials = [12, 25, 38, 51, 11, 0, 13, 26, 39, 9, 22, 35, 48, 23, 10, 24, 37, 50, 5, 18]
    for _ in range(count):
        n = rng.choice([4, 5])
        deck = specials[:]
        rng.shuffle(deck)
        take = 3 * n
        cards = deck[:take]
        if opts.get("joker") and rng.random() < 0.7:
            cards[rng.randrange(take)] = JOKER_ID
        if rng.random() < 0.5:  # same-2 chances: a suit-heavy deal
            suit = rng.randrange(4)
            pool = [suit * 13 + r for r in range(13)]
            rng.shuffle(pool)
            cards[:n] = pool[:n]
            cards = list(dict.fromkeys(cards))
            while len(cards) < take:
                c = rng.randrange(52)
                if c not in cards:
                    cards.append(c)
        hands = [0] * n
        for i, c in enumerate(cards):
            hands[i % n] |= 1 << c
        trump = rng.randrange(4)
        army = 1 << rng.randrange(n) | 1 << rng.randrange(n)
        leader = rng.randrange(n)
        rules = napoleon_rules(
            trump, n, opts.get("joker", False), opts.get("yoromeki", False), opts.get("first_trick_plain", False), True
        )
        expect = small_minimax(list(hands), leader, army, trump, opts)
        assert solve(rules, hands, leader, [], 4, army, backend) == expect
        # and after each lead (the first trick in progress)
        moves = solve_moves(rules, hands, leader, [], 4, army, backend)
        for (c, ld), v in moves.items():
            h2 = list(hands)
            h2[leader] ^= 1 << c
            assert solve(rules, h2, leader, [c], ld, army, backend) == v


@pytest.mark.skipif(not has_c_core(), reason="the C core is not built")
def test_horizon_same_in_both_cores() -> None:
    """With a horizon (trick starts with few cards estimated by the hands' power) both cores give
    the same values; at the horizon's edge the estimate stays within the points left."""
    rng = random.Random(5)
    for i in range(12):
        left = 4 + i % 2
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[p * left : (p + 1) * left]) for p in range(5)]
        trump = rng.randrange(4)
        army = 1 << rng.randrange(5) | 1 << rng.randrange(5)
        rules = napoleon_rules(trump, 5, False, False, False, False, left - 2)
        py = solve(rules, hands, 0, [], 4, army, "python")
        assert solve(rules, hands, 0, [], 4, army, "c") == py
        assert 0 <= py <= sum(FACE_MASK >> c & 1 for c in deck[: 5 * left])
        assert solve_moves(rules, hands, 0, [], 4, army, "c") == solve_moves(rules, hands, 0, [], 4, army, "python")
