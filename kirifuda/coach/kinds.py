"""Practice deals of a chosen kind (練習用の配り方): "you are the declarer", "a hand that should
bid", "a close contract", "you are the last player of the first trick".

A kind is a predicate on a dealt deal and the practising seat, declared by the game in its coach
part (``CoachPart.deal_kinds``, :mod:`kirifuda.coach.games`).  :func:`deal_of_kind` deals
candidate deals from a seed (the table's secret) until the predicate holds, within a bound:

- **The same work whatever the cards.**  Every one of the kind's ``tries`` candidates is dealt
  and tested, always, and the first that holds is the deal; so how long dealing takes says
  nothing of which candidate it was (and the candidates are independent deals, so which one it
  was would say nothing of its cards either).
- **Nothing said beyond the kind.**  Where no candidate holds, the deal is the ordinary deal of
  that number — the very deal the table would deal without a kind, from a stream of its own
  that no candidate used — and the table says only that no deal of the kind was found: the
  failed candidates are thrown away, and the deal played is independent of them.

A predicate may look at every hand (it runs on the server, like the dealer); what a player
learns from it is exactly what the kind's own words say (``tells``), e.g. "the bots, bidding
as they do, leave the contract to you".
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import KirifudaError
from ..game import GameState
from ..i18n import add_terms, t

__all__ = ["DealKind", "DealOfKind", "deal_kinds", "find_kind", "deal_of_kind", "play_out", "first_bid"]

add_terms(
    {
        "practice.kind.none": ("ふつうの配り", "an ordinary deal"),
        "practice.kind.unknown": (
            "{game} に配り方 {kind!r} はありません (あるのは: {known})",
            "{game} has no practice deal kind {kind!r} (known: {known})",
        ),
        "practice.kind.not_found": (
            "{tries} 回配っても「{kind}」は出ませんでした: ふつうの配りです",
            'no deal of the kind "{kind}" in {tries} tries: an ordinary deal',
        ),
    }
)


@dataclass(frozen=True)
class DealKind:
    """One kind of practice deal, declared by a game (its words registered by the game too)."""

    key: str
    """Its name in the API and on the command line (``declarer``, ``should_bid``, …)."""
    term: str
    """The catalogue key of its name, in the game's words."""
    holds: Callable[[GameState, int, random.Random], bool]
    """``holds(state, seat, rng)``: the state just dealt (a copy: the predicate may play it
    on), the practising seat, a random source for bots it plays with."""
    tries: int = 64
    """Candidates dealt and tested for every deal (all of them, always)."""

    def label(self, lang: str = "en") -> str:
        return t(self.term, lang)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "name": {"en": self.label("en"), "ja": self.label("ja")}}


@dataclass(frozen=True)
class DealOfKind:
    """A deal dealt for a kind: its cards and whether it is of the kind."""

    hands: list[list[str]]
    rest: list[str]
    found: bool


def deal_kinds(game_id: str) -> tuple[DealKind, ...]:
    """The practice deal kinds a game declares (none where it has no coach part)."""
    from .positions import coach_part

    try:
        return tuple(coach_part(game_id).deal_kinds)
    except KirifudaError:
        return ()


def find_kind(game_id: str, key: str, lang: str = "en") -> DealKind:
    """A game's kind by its key; refused (KirifudaError, naming the known ones, in ``lang``)
    otherwise."""
    kinds = deal_kinds(game_id)
    for k in kinds:
        if k.key == key:
            return k
    raise KirifudaError(
        t("practice.kind.unknown", lang, game=game_id, kind=key, known=", ".join(k.key for k in kinds) or "-")
    )


def _cards(state: GameState) -> tuple[list[list[str]], list[str]]:
    d = state.record_deals()[-1]
    return [list(h) for h in d["hands"]], list(d["rest"])


def deal_of_kind(state: GameState, kind: DealKind | None, seat: int, seed: str) -> DealOfKind:
    """The next deal of ``state`` (which needs one; it is not changed) for ``seat`` to practise:
    the first of ``kind.tries`` candidates (``Random(f"{seed}:kind:{key}:{i}")``) for which
    the kind holds, every candidate tested; else, as without a kind, ``Random(seed)``'s deal."""
    if not state.needs_deal:
        raise KirifudaError("the table is not between deals")
    chosen: tuple[list[list[str]], list[str]] | None = None
    if kind is not None:
        for i in range(kind.tries):
            cand = state.copy()
            cand.deal_random(random.Random(f"{seed}:kind:{kind.key}:{i}"))
            cards = _cards(cand)
            ok = kind.holds(cand, seat, random.Random(f"{seed}:kind:{kind.key}:{i}:bots"))
            if ok and chosen is None:
                chosen = cards
    if chosen is not None:
        return DealOfKind(chosen[0], chosen[1], True)
    plain = state.copy()
    plain.deal_random(random.Random(seed))
    hands, rest = _cards(plain)
    return DealOfKind(hands, rest, kind is None)


# -- helpers for the games' predicates -------------------------------------------------------


def play_out(
    state: GameState, rng: random.Random, until: Callable[[GameState], bool] | None = None, bot: str = "heuristic"
) -> GameState:
    """Play ``state`` on (in place) with ``bot`` at every seat until the deal ends or
    ``until(state)`` holds; returns it."""
    from ..bots import make_bot

    bots: dict[int, Any] = {}
    deal = state.deal_number
    while not state.is_over and not state.needs_deal and state.deal_number == deal:
        if until is not None and until(state):
            break
        seat = state.to_act
        if seat is None:
            break
        b = bots.get(seat)
        if b is None:
            b = bots[seat] = make_bot(bot, state.game_id)
        state.apply(b.choose(state.view(seat), rng), seat)
    return state


def first_bid(state: GameState, seat: int, rng: random.Random) -> bool:
    """Whether the heuristic bot, holding ``seat``'s hand, bids (not a pass, nor broken) at that
    seat's first turn, the others bidding before it as the heuristic bot does."""
    from ..actions import Bid

    play_out(state, rng, until=lambda s: s.to_act == seat)
    if state.to_act != seat:
        return False
    from ..bots import make_bot

    action = make_bot("heuristic", state.game_id).choose(state.view(seat), rng)
    return isinstance(action, Bid)
