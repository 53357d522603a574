"""Shared helpers of the environment tests: option samples, random env episodes, scrambles."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from kirifuda.actions import Discard, Play
from kirifuda.games.napoleon import Adjutant
from kirifuda.cards import CARDS, parse_card
from kirifuda.games import GAMES

from ..test_conformance import OPTION_SAMPLES

CASES = [(g, o) for g in sorted(GAMES) for o in OPTION_SAMPLES.get(g, [{}])]
CASE_IDS = [f"{g}-{json.dumps(o, sort_keys=True)}" for g, o in CASES]


def relabel(action: Any, perm: dict[int, int]) -> Any:
    """An action with its cards renamed by ``perm`` (card id → card id)."""
    if isinstance(action, Play):
        return dataclasses.replace(action, card=CARDS[perm.get(action.card.id, action.card.id)])
    if isinstance(action, Discard):
        return Discard(tuple(CARDS[perm.get(c.id, c.id)] for c in action.cards))
    if isinstance(action, Adjutant):
        return Adjutant(CARDS[perm.get(action.card.id, action.card.id)])
    return action


def replay_deal(game: str, options: dict[str, Any], first: int, deal: dict[str, Any], perm: dict[int, int]) -> Any:
    """A fresh match's first deal, its cards renamed by ``perm``, replayed; None if an action
    becomes illegal (or the deal is refused)."""
    info = GAMES[game]
    state = info.new_state(info.options(options), first=first)
    hands = [[CARDS[perm.get(parse_card(c).id, parse_card(c).id)] for c in h] for h in deal["hands"]]
    rest = [CARDS[perm.get(parse_card(c).id, parse_card(c).id)] for c in deal["rest"]]
    try:
        state.deal(hands, rest)
        for a in deal["actions"]:
            data = {k: v for k, v in a.items() if k != "seat"}
            action = relabel(info.action_from_json(data, a["seat"]), perm)
            if not state.is_legal(action, a["seat"]):
                return None
            state.apply(action, a["seat"])
    except ValueError:
        return None
    return state


def deal_cards(deal: dict[str, Any]) -> list[int]:
    return [parse_card(c).id for h in deal["hands"] for c in h] + [parse_card(c).id for c in deal["rest"]]


def random_permutation(cards: list[int], rng: random.Random) -> dict[int, int]:
    shuffled = cards[:]
    rng.shuffle(shuffled)
    return dict(zip(cards, shuffled))
