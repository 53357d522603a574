"""Inference (読み): weighting the deals a search bot samples by what the table has shown.

A search bot samples the unseen cards uniformly among the deals consistent with what its seat
has seen (the cards played, the voids shown).  Every such deal is possible, but not every one
is as likely: a player who bid 8♥ holds hearts, one who ducked with the ace did not have the
ace or had a reason.  A game's inference gives each sampled deal a log-likelihood — how likely
the bids and plays the seat has seen are, had the others held those cards, under a model of
the players (at first the heuristic bot's own choices, softened) — and the bot keeps the likely
deals by importance resampling: it samples a pool of consistent deals, then draws the ones it
solves from the pool, each with a chance in proportion to its weight (without replacement, so
one heavy deal is not solved twice).

Only what the seat has seen enters a weight: the model is given the seat's memory of the
table and a sampled deal, never the real hidden cards.
"""

from __future__ import annotations

import math
import random
from typing import Sequence

__all__ = ["normalise", "resample", "sigmoid"]


def normalise(log_weights: Sequence[float]) -> list[float]:
    """The weights, summing to 1, of deals with these log-likelihoods (all equal where every
    log-likelihood is minus infinity)."""
    if not log_weights:
        return []
    top = max(log_weights)
    if top == float("-inf"):
        return [1.0 / len(log_weights)] * len(log_weights)
    raw = [math.exp(w - top) for w in log_weights]
    total = sum(raw)
    return [r / total for r in raw]


def resample(log_weights: Sequence[float], k: int, rng: random.Random) -> list[int]:
    """The indices of ``k`` deals drawn from a pool with these log-likelihoods, in proportion
    to their weights and without replacement (the Gumbel top-k draw), in draw order."""
    keys = []
    for i, w in enumerate(log_weights):
        u = rng.random() or 1e-300
        keys.append((w - math.log(-math.log(u)) if w != float("-inf") else float("-inf"), -i))
    keys.sort(reverse=True)
    return [-i for _, i in keys[:k]]


def sigmoid(x: float) -> float:
    """The logistic function (a soft threshold)."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)
