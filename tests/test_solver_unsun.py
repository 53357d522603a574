"""The Unsun solver against brute force through the engine itself (random endings with up to
4 tricks left, 3, 4 and 5 players, both face-down options): the brute force plays every card
of every hand with ``copy()`` + ``apply()`` and reads the seat's tricks off the engine; the
seat maximises them, every other seat minimises them (the solver's paranoid value)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kirifuda.cards import Suit, parse_cards
from kirifuda.games.unsun import UnsunOptions, UnsunState, trick_winner
from kirifuda.solver.unsun import UnsunPosition, position_of, winner_index


def play_state(seed: int, tricks_left: int, options: UnsunOptions) -> UnsunState:
    """A random deal played at random down to ``tricks_left`` tricks (and a random number of
    cards into the current trick)."""
    rng = random.Random(seed)
    s = UnsunState(options, first=seed % options.players)
    s.deal_random(rng)
    n = options.players
    size = s.hand(0).__len__()
    for _ in range(n * (size - tricks_left) + rng.randrange(n)):
        s.apply(rng.choice(s.legal_actions()))
    return s


def brute_force(state: UnsunState, me: int) -> int:
    """``me``'s tricks from here on, ``me`` maximising, the others minimising: plain minimax over
    the engine (memoised on the engine's own state)."""
    memo: dict[Any, int] = {}
    base = state.tricks_won[me]

    def value(s: UnsunState) -> int:
        if s.to_act is None:
            return s.tricks_won[me] - base
        key = (tuple(s._hands), tuple(s._trick), s._start, s.tricks_won[me])
        hit = memo.get(key)
        if hit is not None:
            return hit
        results = []
        for a in s.legal_actions():
            child = s.copy()
            child.apply(a)
            results.append(value(child))
        v = max(results) if s.to_act == me else min(results)
        memo[key] = v
        return v

    return value(state)


CASES = [(3, 4), (4, 3), (4, 4), (5, 3)]


@pytest.mark.parametrize("players,tricks", CASES)
@pytest.mark.parametrize("fd_all", [False, True])
def test_solver_equals_brute_force(players: int, tricks: int, fd_all: bool) -> None:
    opts = UnsunOptions(players=players, all_trumps_face_down=fd_all, deals=1)  # type: ignore[arg-type]
    count = 5 if (players, tricks) == (4, 4) else 8
    for seed in range(count):
        s = play_state(seed * 7 + players, tricks, opts)
        if (players, tricks) == (4, 4) and len(s._trick) < 2:
            s.apply(random.Random(seed).choice(s.legal_actions()))
            s.apply(random.Random(seed + 1).choice(s.legal_actions()))
        for me in {s.to_act, (s.to_act + 1) % players}:  # type: ignore[operator]
            assert me is not None
            pos = position_of(s, me)
            want = brute_force(s, me)
            assert pos.value() == want, (seed, me)
            if me == s.to_act:
                values = pos.move_values()
                for a in s.legal_actions():
                    child = s.copy()
                    child.apply(a)
                    got = brute_force(child, me) + child.tricks_won[me] - s.tricks_won[me]
                    assert values[a.card.id] == got, (seed, a)  # type: ignore[attr-defined]


def test_winner_index_matches_engine() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        n = rng.choice((3, 4, 5))
        cards = rng.sample(range(52), n)
        trump = rng.randrange(4)
        from kirifuda.cards import CARDS

        assert winner_index(cards, trump) == trick_winner([CARDS[c] for c in cards], Suit("SHDC"[trump]))


def test_same_rank_earlier_card_wins_and_merging_keeps_ties_apart() -> None:
    # trump ♥; ♠ and ♣ are one group: ♠K played before ♣K wins the tie
    assert winner_index([c.id for c in parse_cards(["KS", "KC", "2D"])], Suit.HEARTS.index) == 0
    # seat 1 holds ♣K and ♣Q; seat 0 led ♠K: ♣K ties (and loses, later), ♣Q loses: merged,
    # but seat 2 (the last player) then decides; a hand ♣K ♣Q against a live ♠Q stays apart
    from kirifuda.cards import mask_of

    hands = (mask_of(parse_cards(["2D", "3D"])), mask_of(parse_cards(["KC", "JC"])), mask_of(parse_cards(["QS", "4D"])))
    pos = UnsunPosition(trump=Suit.HEARTS.index, hands=hands, start=0, trick=(), me=1)
    from kirifuda.solver.unsun import _Solver

    classes = _Solver(pos, 0).classes(list(hands), 1, [])
    assert sorted(len(m) for _, m in classes) == [1, 1]  # ♠Q lies between ♣J and ♣K


def test_a_tie_in_rank_keeps_cards_apart() -> None:
    """♣K ♣Q in one hand against a live ♠K (one group with ♥ trump): ♣K ties ♠K (the earlier
    wins), ♣Q loses to it: two choices.  Without the ♠K they are one."""
    from kirifuda.cards import mask_of
    from kirifuda.solver.unsun import _Solver

    for other, want in ((["KS", "4D"], 2), (["9S", "4D"], 1)):
        hands = (mask_of(parse_cards(["2D", "3D"])), mask_of(parse_cards(["KC", "QC"])), mask_of(parse_cards(other)))
        pos = UnsunPosition(trump=Suit.HEARTS.index, hands=hands, start=0, trick=(), me=1)
        assert len(_Solver(pos, 0).classes(list(hands), 1, [])) == want
        # and a card of the trick in progress separates them too
    hands = (mask_of(parse_cards(["2D"])), mask_of(parse_cards(["KC", "QC"])), mask_of(parse_cards(["9S", "4D"])))
    pos = UnsunPosition(trump=Suit.HEARTS.index, hands=hands, start=0, trick=(parse_cards(["QS"])[0].id,), me=1)
    assert len(_Solver(pos, 0).classes([hands[0], hands[1], hands[2]], 1, [parse_cards(["QS"])[0].id])) == 2
