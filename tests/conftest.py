"""Shared test helpers: random legal matches of any registered game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kirifuda.game import GameState
from kirifuda.games import GAMES


def play_random(game_id: str, options: dict[str, Any] | None = None, seed: int = 0,
                max_deals: int | None = None, first: int = 0,
                on_step: Any = None) -> GameState:
    """A match of random legal actions (claims included), dealt from ``seed``."""
    info = GAMES[game_id]
    state = info.new_state(info.options(options or {}), first=first)
    rng = random.Random(seed)
    while not state.is_over:
        if state.needs_deal:
            if max_deals is not None and state.deal_number >= max_deals:
                break
            state.deal_random(rng)
            continue
        action = rng.choice(state.legal_actions())
        if on_step is not None:
            on_step(state, action)
        state.apply(action)
    return state


@pytest.fixture
def random_match():
    return play_random
