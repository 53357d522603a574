"""Deals for the coach's tests: played by seeded bots, and brute force through the engine."""

from __future__ import annotations

import random
from typing import Callable

from kirifuda.actions import Play
from kirifuda.bots import make_bot
from kirifuda.game import GameState
from kirifuda.games import find_game

GAMES = ("meitora", "kakeya", "napoleon", "unsun")


def played_deal(
    game: str, seed: int, kinds: tuple[str, ...] = ("heuristic",), stop: Callable[[GameState], bool] | None = None
) -> GameState:
    """A match played by the given bots (one kind per seat, repeated round the table) until a
    deal with card play ends (deals passed out are dealt again: the record's last deal is the
    one played), or until ``stop`` holds."""
    rng = random.Random(seed)
    state = find_game(game).new_state()
    bots = [make_bot(kinds[s % len(kinds)], game) for s in range(state.num_players)]
    while not state.is_over:
        state.deal_random(rng)
        deal = state.deal_number
        played = False
        while state.deal_number == deal and not state.is_over and not state.needs_deal:  # four jacks: over at once
            if stop is not None and stop(state):
                return state
            seat = state.to_act
            assert seat is not None
            bot = bots[seat]
            if getattr(bot, "needs_state", False):
                action = bot.choose_state(state, rng)  # type: ignore[attr-defined]
            else:
                action = bot.choose(state.view(seat), rng)
            played = played or isinstance(action, Play)
            state.apply(action, seat)
            for s, b in enumerate(bots):
                observe = getattr(b, "observe", None)
                if observe is not None:
                    observe(state.view(s))
        if played:
            return state
    return state


def side_of(state: GameState, seat: int) -> set[int]:
    """The seats whose count the review gives ``seat`` (its side; Unsun: itself)."""
    g = state.game_id
    n = state.num_players
    if g == "meitora":
        return {s for s in range(n) if s % 2 == seat % 2}
    if g == "kakeya":
        return set(state.pair_seats(state.pair_of(seat)))  # type: ignore[attr-defined]
    if g == "napoleon":
        army = {state.napoleon} | ({state._adjutant} if state._adjutant is not None else set())  # type: ignore[attr-defined]
        return army if seat in army else set(range(n)) - army
    return {seat}


def count_of(state: GameState, side: set[int]) -> int:
    """What ``side`` has taken so far, read off the engine."""
    g = state.game_id
    if g == "meitora":
        return state.team_tricks[min(side) % 2]  # type: ignore[attr-defined,no-any-return]
    if g == "kakeya":
        return len(state._faces[state.pair_of(min(side))])  # type: ignore[attr-defined]
    if g == "napoleon":
        return sum(len(state.face_cards_taken(s)) for s in side)  # type: ignore[attr-defined]
    return sum(state.tricks_won[s] for s in side)  # type: ignore[attr-defined,no-any-return]


def brute_force(state: GameState, side: set[int]) -> int:
    """The final count of ``side`` with best play from here: every card of every hand tried with
    ``copy()`` + ``apply()``, ``side`` maximising, everyone else minimising (claims aside)."""
    deal = state.deal_number

    def value(s: GameState) -> int:
        if s.deal_number != deal or s.to_act is None:
            return count_of(s, side)
        plays = [a for a in s.legal_actions() if isinstance(a, Play)]
        results = []
        for a in plays:
            child = s.copy()
            child.apply(a)
            results.append(value(child))
        return max(results) if s.to_act in side else min(results)

    return value(state)
