"""The search bot (探索): determinized search, and the oracle.

``search`` sees only its seat's views.  It keeps its own memory of what it has seen (every card
seen played and by whom, the voids shown by failing to follow, the bidding): a player at a real
table remembers the cards as they fall, so the bot remembers them from the views it is shown
(``observe(view)`` after every action, where the runner offers it; ``choose`` also records the
view it is given).  To decide a card it samples full deals consistent with that memory (the
hidden cards stay hidden: only what the seat has seen constrains the samples), solves each with
the perfect-information solver (:mod:`kirifuda.solver`) and plays the action with the best
average outcome.  Bids and discards are chosen the same way by simulation.  Everything a game
needs is its own part (``search_meitora``); this module holds what all games share: the levels,
the registry and the bot classes.

Levels (``search:easy``, ``search`` = ``search:normal``, ``search:strong``) are budgets of
samples, not of time, so that a decision depends only on the view and the seed (the same view
and seed give the same decision on any machine, at any load).

``oracle`` sees every card: the tournament runner gives it the state (``choose_state``).  It is
the perfect-information solver playing, a bound for the bots that do not see: it is refused
where only views are available.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence, TypeVar

from ..actions import Action
from ..errors import OptionError
from ..game import GameState, View
from .trace import Trace

T = TypeVar("T")

__all__ = ["Level", "LEVELS", "pick", "SearchBot", "OracleBot", "register_search", "search_games"]


@dataclass(frozen=True)
class Level:
    """A strength level's budgets: samples, and search nodes per solve (a solve that runs out
    counts the middle of the bounds it proved).  Work, not time: decisions do not depend on the
    machine's speed or load."""

    name: str
    play_samples: int
    """Deals sampled for a card decision."""
    play_nodes: int
    """Search nodes per legal card per sample."""
    bid_samples: int
    bid_strains: int
    """How many strains (the most promising by a quick count) are simulated."""
    bid_nodes: int
    discard_samples: int
    discard_candidates: int
    discard_nodes: int
    inference_pool: int = 0
    """Inference (読み): the deals to solve are drawn, by their likelihood under the game's
    model of the players (:mod:`.inference`), from a pool this many times larger; 0 samples
    every consistent deal alike (the first search bot, ``search:v1``)."""
    temperature: float = 0.0
    """Plausible mistakes: where above 0, a choice is drawn with a chance in proportion to
    ``exp(value / temperature)`` (its mean value over the samples, in the game's points), so a
    choice worth a little less is often taken, a blunder almost never; 0 always takes the best."""
    simulate_all: bool = True
    """Every decision by simulation: the decisions the first search bot took by rule (Meitora's
    broken declaration, Kakeya's trump, Napoleon's approval of a re-declaration) compared by their
    mean value over the same sampled deals; ``False`` keeps the rules (``search:v1``)."""
    conventions: bool = True
    """Partners people like (約束事): among cards of about the same mean value (within the
    game's margin), play the one a club player's convention prefers (return partner's suit;
    the declarer long in trumps draws trumps; do not overtake or ruff partner's sure winner)
    rather than an arbitrary one; ``False`` breaks ties by the order of the legal cards
    (``search:v1``).  Where a game has such conventions (Meitora); levels with a temperature
    draw by value instead."""


EASY_TEMPERATURE = 0.3
"""``search:easy``'s temperature, in points (Meitora: a choice worth 0.3 points less than the
best is taken about e⁻¹ ≈ 0.37 times as often as the best)."""

LEVELS: dict[str, Level] = {
    "easy": Level(
        "easy",
        play_samples=6,
        play_nodes=5_000,
        bid_samples=3,
        bid_strains=1,
        bid_nodes=5_000,
        discard_samples=2,
        discard_candidates=3,
        discard_nodes=5_000,
        inference_pool=4,
        temperature=EASY_TEMPERATURE,
    ),
    "normal": Level(
        "normal",
        play_samples=16,
        play_nodes=20_000,
        bid_samples=8,
        bid_strains=2,
        bid_nodes=30_000,
        discard_samples=6,
        discard_candidates=4,
        discard_nodes=30_000,
        inference_pool=4,
    ),
    "strong": Level(
        "strong",
        play_samples=48,
        play_nodes=200_000,
        bid_samples=24,
        bid_strains=3,
        bid_nodes=300_000,
        discard_samples=16,
        discard_candidates=6,
        discard_nodes=300_000,
        inference_pool=4,
    ),
    "v1": Level(
        "v1",
        play_samples=16,
        play_nodes=20_000,
        bid_samples=8,
        bid_strains=2,
        bid_nodes=30_000,
        discard_samples=6,
        discard_candidates=4,
        discard_nodes=30_000,
        simulate_all=False,
        conventions=False,
    ),
}
"""The generic levels (``v1``: ``normal``'s budgets without inference, the first search bot,
kept to measure against); a game whose search spends its work otherwise declares its own budgets
per level name in its search module (Unsun's ``UNSUN_BUDGETS``, Napoleon's ``BUDGETS``)."""


def pick(choices: Sequence[T], value: Callable[[T], float], temperature: float, rng: random.Random) -> T:
    """The choice to take: the first of the best values where ``temperature`` is 0, else one
    drawn with a chance in proportion to ``exp(value / temperature)``."""
    if temperature <= 0:
        return max(choices, key=value)
    values = [value(c) for c in choices]
    top = max(values)
    if top == float("-inf"):
        return choices[0]
    weights = [math.exp((v - top) / temperature) if v > float("-inf") else 0.0 for v in values]
    return rng.choices(list(choices), weights)[0]


class GameSearch(Protocol):
    """A game's part of the search bot."""

    trace: Trace | None
    """Where the part records what a decision found (set only by ``choose_traced``)."""

    def observe(self, view: View) -> None: ...

    def choose(self, view: View, rng: random.Random) -> Action: ...


class GameOracle(Protocol):
    def choose_state(self, state: GameState, rng: random.Random) -> Action: ...


_SEARCH: dict[str, Callable[[Level], GameSearch]] = {}
_ORACLE: dict[str, Callable[[], GameOracle]] = {}


def register_search(game_id: str, search: Callable[[Level], GameSearch], oracle: Callable[[], GameOracle]) -> None:
    """A game's search part and oracle part (registered by the module that defines them)."""
    _SEARCH[game_id] = search
    _ORACLE[game_id] = oracle


def _load() -> None:
    from .base import load_game_bots

    load_game_bots()  # each game's search module registers itself


def search_games() -> tuple[str, ...]:
    _load()
    return tuple(sorted(_SEARCH))


class SearchBot:
    """Determinized search over the seat's view; ``level`` is easy, normal or strong."""

    def __init__(self, game: str, level: str = "normal") -> None:
        _load()
        if level not in LEVELS:
            raise OptionError(f"unknown search level {level!r}; the levels are {', '.join(LEVELS)}")
        if game not in _SEARCH:
            raise OptionError(f"no search bot for game {game!r} yet (games: {', '.join(sorted(_SEARCH))})")
        self.name = "search" if level == "normal" else f"search:{level}"
        self.level = LEVELS[level]
        self._part = _SEARCH[game](self.level)

    def observe(self, view: View) -> None:
        """Remember what this view shows (called after every action where the runner can)."""
        self._part.observe(view)

    def choose(self, view: View, rng: random.Random) -> Action:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no action to take")
        self._part.observe(view)
        return self._part.choose(view, rng)

    def choose_traced(self, view: View, rng: random.Random, trace: Trace) -> Action:
        """:meth:`choose`, recording in ``trace`` each choice's outcome in each sampled deal
        (the decision is the same as without it)."""
        self._part.trace = trace
        try:
            return self.choose(view, rng)
        finally:
            self._part.trace = None


class OracleBot:
    """Sees every card (the perfect-information solver playing): tournaments only."""

    name = "oracle"
    needs_state = True

    def __init__(self, game: str) -> None:
        _load()
        if game not in _ORACLE:
            raise OptionError(f"no oracle for game {game!r} yet (games: {', '.join(sorted(_ORACLE))})")
        self._part = _ORACLE[game]()

    def choose(self, view: View, rng: random.Random) -> Action:
        raise OptionError(
            "the oracle sees every card: it plays only where the runner gives it the "
            "state (kirifuda tournament), not from a view"
        )

    def choose_state(self, state: GameState, rng: random.Random) -> Action:
        return self._part.choose_state(state, rng)
