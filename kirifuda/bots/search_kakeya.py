"""Kakeya Trump's part of the search bot and of the oracle.

The seat remembers every card seen played and by whom, and the voids shown (a player who did
not follow the led suit has none of it; the rensho keeps its printed suit).  Samples deal the
unseen cards to the other active hands (their sizes are public) respecting the voids.

Decisions:

- **trump** (切り): made by the dealing pair before anyone sees a card.  By simulation: full
  deals are sampled (no card is known) and solved with each suit as trump from the leading
  pair's first lead, each scored as the chips the game pays the dealing pair; a suit replaces
  the trump in force only where its mean gain over the same deals is clear of the sampling
  noise (``TRUMP_NOISE`` standard errors).  Relabelling the suits maps every deal to an equally
  likely one, so no suit is better in expectation: the simulation keeps the trump but for
  noise (a pair sitting out neither pays nor receives: it keeps).  ``search:v1`` keeps by rule;
- **who leads** (親): for each choice, the same sampled deals, each played out from the first
  trick; the better average (nothing public yet but the seat's own hand: the trump was chosen
  unseen).  ``search`` plays the first ``LEADER_ROLLOUT_TRICKS`` tricks of each sample by the
  heuristic's rules for every seat and solves the last eight (:func:`leader_value`): a whole
  deal is far from solved within the budget, and its estimate, the middle of bounds still 0 and
  16 in most deals, ranked the two leaders by noise.  ``search:v1`` estimates the whole deal;
- **play**: sampled deals, each solved for every legal card (the face cards the bot's pair will
  capture), each outcome scored as the chips the game pays (win with 9 or more face cards, 8–8
  to the pair not dealt the rensho; the payment table of spec §6 from the sampled deal); the best
  average.  Last to a trick the partner is winning, the bot does not take it over (ruff or
  overtake partner's winner, 味方の勝ち札を切らない) unless the samples show a gain clear of
  their noise (``OVERTAKE_NOISE`` standard errors of the paired differences): the trick is the
  pair's either way, and a winner spent on it is a winner lost later, which budget-bound solves
  of a few deals often miss.

Budgets: Kakeya's ``search`` (``normal``) solves more deals with more nodes than the generic
level (``KAKEYA_BUDGETS``): a full deal is not solved exactly early within 20,000 nodes, and
``search:strong`` (48 deals of 200,000 nodes) was a chip a deal ahead of it.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import NamedTuple

from ..actions import Action, Play
from ..games.kakeya import ChooseLeader, ChooseTrump
from ..game import GameState, View
from ..games.kakeya import FACE_MASK, STRENGTH, SUIT_MASKS, KakeyaState, KakeyaView, Phase, chip_payment, rensho_of
from ..solver.kakeya import KakeyaPosition
from .inference import resample
from .inference_kakeya import play_log_likelihood
from .kakeya_heuristic import play_choice
from .search import Level, register_search
from .trace import Trace
from .search_meitora import _mask, _sample
from ..tricks import strongest

__all__ = ["KakeyaSearch", "KakeyaOracle", "game_chips", "KAKEYA_BUDGETS", "partner_keeps", "leader_value"]

DECK = tuple(range(52))
TRUMP_SAMPLES = 2
"""The trump decision's deals, in units of the level's ``bid_samples``."""
TRUMP_NOISE = 3.0
"""A suit replaces the trump only where its mean gain exceeds this many standard errors (at 2,
15 of 240 trump decisions changed the trump for noise; by the suits' symmetry no change is
worth anything in expectation, so the bar is high)."""
LEADER_SAMPLES = 3
"""The leader decision's deals, in units of the level's ``bid_samples`` (1 for ``search:v1``):
each solve of a whole deal from the first lead costs about 3 ms."""
LEADER_ROLLOUT_TRICKS = 5
"""``search``'s leader decision plays this many tricks of each sampled deal by the heuristic's
rules, then solves the rest (8 tricks: about 2 ms a solve)."""
OVERTAKE_NOISE = 2.0
"""Last to partner's winning trick, a card that takes the trick over is played only where its
mean gain over the best card that does not exceeds this many standard errors."""
KAKEYA_BUDGETS: dict[str, tuple[int, int]] = {
    "normal": (20, 40_000),
}
"""Kakeya's own card-play budgets per level name, ``(play_samples, play_nodes)``, replacing the
generic level's (``search:v1`` keeps the generic ``normal`` budgets)."""


def game_chips(my_faces: int, my_dealt: int, their_dealt: int, trump: int) -> float:
    """The chips the game pays the bot's pair (negative: it pays), from its final face-card
    count and both pairs' cards as dealt."""
    rensho = rensho_of(trump)
    if my_faces >= 9:
        win = True
    elif my_faces <= 7:
        win = False
    else:
        win = not my_dealt >> rensho & 1
    if win:
        return chip_payment(my_faces, their_dealt, trump)[0] + 0.01 * my_faces
    return -chip_payment(16 - my_faces, my_dealt, trump)[0] + 0.01 * my_faces


def _active(view: KakeyaView) -> list[int]:
    return sorted(s for p, seats in enumerate(view.pairs) if p != view.sitting_out for s in seats)


class KakeyaEvent(NamedTuple):
    """One card seen played: by whom, what was in the trick before it, and the face cards
    captured before its trick (they lie face up)."""

    seat: int
    card: int
    before: tuple[tuple[int, int], ...]
    public: int


class KakeyaMemory:
    def __init__(self) -> None:
        self.deal = -1
        self.played: dict[int, int] = {}
        self.voids: set[tuple[int, int]] = set()
        self.events: list[KakeyaEvent] = []
        """The plays seen, in the order they were seen (the inference's record of the play)."""

    def update(self, view: View) -> None:
        assert isinstance(view, KakeyaView)
        if view.deal_number != self.deal:
            self.deal = view.deal_number
            self.played = {}
            self.voids = set()
            self.events = []
        for trick in (view.last_trick, view.trick):
            if trick is None:
                continue
            in_trick = {card.id for _, card in trick.plays}
            for i, (seat, card) in enumerate(trick.plays):
                if card.id not in self.played:
                    done = sum(1 << c for c in self.played if c not in in_trick)
                    self.events.append(
                        KakeyaEvent(seat, card.id, tuple((s, c.id) for s, c in trick.plays[:i]), done & FACE_MASK)
                    )
                    self.played[card.id] = seat
        for trick in (view.trick, view.last_trick):
            if trick is None or not trick.plays:
                continue
            led = trick.plays[0][1].id // 13
            for i, (seat, card) in enumerate(trick.plays):
                self.played[card.id] = seat
                if i and card.id // 13 != led:
                    self.voids.add((seat, led))


class KakeyaSearch:
    def __init__(self, level: Level) -> None:
        if level.name in KAKEYA_BUDGETS:
            samples, nodes = KAKEYA_BUDGETS[level.name]
            level = dataclasses.replace(level, play_samples=samples, play_nodes=nodes)
        self.level = level
        self.memory = KakeyaMemory()
        self.trace: Trace | None = None

    def observe(self, view: View) -> None:
        self.memory.update(view)

    def choose(self, view: View, rng: random.Random) -> Action:
        assert isinstance(view, KakeyaView)
        first = view.legal_actions[0]
        if isinstance(first, ChooseTrump):
            if not self.level.simulate_all:
                return ChooseTrump(None)
            return self._trump(view, rng)
        if isinstance(first, ChooseLeader):
            return self._leader(view, rng)
        return self._play(view, rng)

    def _deal(self, view: KakeyaView, rng: random.Random) -> dict[int, int]:
        """Sampled hands of the active seats (the bot's own as it is)."""
        assert view.seat is not None
        mine = _mask(c.id for c in view.hand)
        seen = mine | _mask(self.memory.played)
        pool = [c for c in DECK if not seen >> c & 1]
        active = _active(view)
        sizes = {s: view.hand_sizes[s] for s in active if s != view.seat}
        gone = max(0, len(pool) - sum(sizes.values()))
        forbidden: dict[int, int] = {}
        for seat, suit in self.memory.voids:
            if seat in sizes:
                forbidden[seat] = forbidden.get(seat, 0) | (0x1FFF << (13 * suit))
        got = _sample(rng, pool, sizes, gone, forbidden) or _sample(rng, pool, sizes, gone, {})
        assert got is not None
        hands = {s: got[s] for s in sizes}
        hands[view.seat] = mine
        return hands

    def _dealt(self, view: KakeyaView, hands: dict[int, int], pair: int) -> int:
        """A pair's cards as dealt, in a sampled deal (its hands now and what it has played)."""
        seats = view.pairs[pair]
        m = 0
        for s in seats:
            m |= hands.get(s, 0)
        for c, s in self.memory.played.items():
            if s in seats:
                m |= 1 << c
        return m

    def _play(self, view: KakeyaView, rng: random.Random) -> Action:
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        if len(plays) == 1:
            return plays[0]
        assert view.seat is not None and view.trump is not None and view.own_pair is not None
        trump = view.trump.index
        active = _active(view)
        idx = {s: i for i, s in enumerate(active)}
        me = view.seat
        pair = view.own_pair
        other = next(p for p in range(len(view.pairs)) if p != pair and p != view.sitting_out)
        maxside = sum(1 << idx[s] for s in view.pairs[pair])
        trick = view.trick.plays if view.trick is not None else ()
        leader = idx[view.trick.leader] if view.trick is not None and trick else idx[me]
        cards = tuple(c.id for _, c in trick)
        faces = view.face_cards[pair]
        so_far = len(faces) if faces is not None else 0
        totals: dict[int, float] = {}
        per_deal: list[dict[int, float]] = []
        trace = self.trace
        if trace is not None:
            trace.start("play", "chips", "face_cards")
        for hands in self._deals(view, rng, self.level.play_samples):
            pos = KakeyaPosition(trump, tuple(hands[s] for s in active), leader, cards, maxside)  # type: ignore[arg-type]
            values = pos.move_values(max_nodes=self.level.play_nodes)
            mine_dealt = self._dealt(view, hands, pair)
            their_dealt = self._dealt(view, hands, other)
            chips = {c: game_chips(round(so_far + v), mine_dealt, their_dealt, trump) for c, v in values.items()}
            per_deal.append(chips)
            for c, v in values.items():
                totals[c] = totals.get(c, 0.0) + chips[c]
                if trace is not None:
                    trace.add(c, chips[c], so_far + v)
        if trace is not None:
            trace.resolve({a.card.id: a for a in plays})
        candidates = plays
        if self.level.simulate_all:
            seen = tuple((s, c.id) for s, c in trick)
            keep = partner_keeps([a.card.id for a in plays], seen, trump, pair, view.pairs)
            if keep is not None:
                candidates = _unless_clear_gain(plays, keep, per_deal)
        return max(candidates, key=lambda a: totals.get(a.card.id, float("-inf")))

    def _deals(self, view: KakeyaView, rng: random.Random, k: int) -> list[dict[int, int]]:
        """``k`` deals for a card decision: consistent with what the seat has seen, drawn by
        their likelihood from a pool ``inference_pool`` times larger (where the level infers)."""
        n = k * self.level.inference_pool
        if n <= k:
            return [self._deal(view, rng) for _ in range(k)]
        assert view.seat is not None and view.trump is not None
        pool = [self._deal(view, rng) for _ in range(n)]
        weights = [play_log_likelihood(h, view.seat, self.memory, view.trump.index, view.players) for h in pool]
        return [pool[i] for i in resample(weights, k, rng)]

    def _trump(self, view: KakeyaView, rng: random.Random) -> Action:
        keep = ChooseTrump(None)
        if view.trump is None or view.own_pair is None or view.own_pair == view.sitting_out:
            return keep
        if view.leading_pair is None:
            return keep
        active = _active(view)
        idx = {s: i for i, s in enumerate(active)}
        pair = view.own_pair
        other = next(p for p in range(len(view.pairs)) if p != pair and p != view.sitting_out)
        maxside = sum(1 << idx[s] for s in view.pairs[pair])
        leader = idx[view.pairs[view.leading_pair][0]]
        current = view.trump.index
        choices = [a for a in view.legal_actions if isinstance(a, ChooseTrump)]
        gains: dict[int, list[float]] = {t: [] for t in range(4)}
        trace = self.trace
        if trace is not None:
            trace.start("trump", "chips", "face_cards")
        for _ in range(self.level.bid_samples * TRUMP_SAMPLES):
            deck = list(DECK)
            rng.shuffle(deck)
            hands = tuple(sum(1 << c for c in deck[13 * i : 13 * i + 13]) for i in range(4))
            mine = hands[idx[view.pairs[pair][0]]] | hands[idx[view.pairs[pair][1]]]
            theirs = hands[idx[view.pairs[other][0]]] | hands[idx[view.pairs[other][1]]]
            chips = {}
            for t in range(4):
                v = KakeyaPosition(t, hands, leader, (), maxside).estimate(self.level.bid_nodes)  # type: ignore[arg-type]
                chips[t] = game_chips(round(v), mine, theirs, t)
                if trace is not None:
                    trace.add(t, chips[t], v)
            for t in range(4):
                gains[t].append(chips[t] - chips[current])
        if trace is not None:
            trace.resolve({(a.suit.index if a.suit is not None else current): a for a in reversed(choices)})
        best, best_gain = current, 0.0
        for t, g in gains.items():
            n = len(g)
            mean = sum(g) / n
            var = sum((x - mean) ** 2 for x in g) / max(1, n - 1)
            if mean > best_gain and mean > TRUMP_NOISE * math.sqrt(var / n):
                best, best_gain = t, mean
        if best == current:
            return keep
        return next(a for a in choices if a.suit is not None and a.suit.index == best)

    def _leader(self, view: KakeyaView, rng: random.Random) -> Action:
        choices = [a for a in view.legal_actions if isinstance(a, ChooseLeader)]
        assert view.trump is not None and view.own_pair is not None
        trump = view.trump.index
        active = _active(view)
        idx = {s: i for i, s in enumerate(active)}
        pair = view.own_pair
        other = next(p for p in range(len(view.pairs)) if p != pair and p != view.sitting_out)
        maxside = sum(1 << idx[s] for s in view.pairs[pair])
        totals = {a.seat: 0.0 for a in choices}
        if self.trace is not None:
            self.trace.start("leader", "chips", "face_cards")
        samples = self.level.bid_samples * (LEADER_SAMPLES if self.level.simulate_all else 1)
        for _ in range(samples):
            hands = self._deal(view, rng)
            mine_dealt = self._dealt(view, hands, pair)
            their_dealt = self._dealt(view, hands, other)
            for a in choices:
                if self.level.simulate_all:
                    v = leader_value(trump, active, hands, a.seat, view.pairs[pair], view.players, self.level.bid_nodes)
                else:
                    pos = KakeyaPosition(trump, tuple(hands[s] for s in active), idx[a.seat], (), maxside)  # type: ignore[arg-type]
                    v = pos.estimate(self.level.bid_nodes)
                chips = game_chips(round(v), mine_dealt, their_dealt, trump)
                totals[a.seat] += chips
                if self.trace is not None:
                    self.trace.add(a, chips, v)
        if self.trace is not None:
            self.trace.resolve({a: a for a in choices})
        return max(choices, key=lambda a: totals[a.seat])


def leader_value(
    trump: int,
    active: list[int],
    hands: dict[int, int],
    leader: int,
    pair: tuple[int, ...],
    players: int,
    nodes: int,
) -> float:
    """The face cards ``pair`` captures in a deal (``hands``: the active seats' 13 cards each,
    all open) when ``leader`` leads the first trick: the first ``LEADER_ROLLOUT_TRICKS`` tricks
    played by the heuristic's rules (each seat seeing its hand, the captured face cards and the
    trick), the rest solved within ``nodes``."""
    h = dict(hands)
    faces = 0
    public = 0
    turn = active.index(leader)
    for _ in range(LEADER_ROLLOUT_TRICKS):
        trick: list[tuple[int, int]] = []
        for k in range(4):
            seat = active[(turn + k) % 4]
            hand = h[seat]
            options = hand
            if trick:
                options = hand & SUIT_MASKS[trick[0][1] // 13] or hand
            legal = [c for c in range(52) if options >> c & 1]
            seen = hand | public
            for _, c in trick:
                seen |= 1 << c
            c = play_choice(legal, trick, trump, seat, players, bin(hand).count("1"), seen)
            h[seat] = hand & ~(1 << c)
            trick.append((seat, c))
        winner, _ = strongest(iter(trick), STRENGTH[trump][trick[0][1] // 13])
        won = sum(1 << c for _, c in trick) & FACE_MASK
        public |= won
        if winner in pair:
            faces += bin(won).count("1")
        turn = active.index(winner)
    maxside = sum(1 << i for i, s in enumerate(active) if s in pair)
    pos = KakeyaPosition(trump, tuple(h[s] for s in active), turn, (), maxside)  # type: ignore[arg-type]
    return faces + pos.estimate(nodes)


def partner_keeps(
    legal: list[int],
    trick: tuple[tuple[int, int], ...],
    trump: int,
    pair: int,
    pairs: tuple[tuple[int, ...], ...],
) -> set[int] | None:
    """Last to a trick the partner is winning: the legal cards that leave it partner's (None
    where the bot is not last, partner is not winning, or every card or none leaves it)."""
    if len(trick) != 3:
        return None
    strength = STRENGTH[trump][trick[0][1] // 13]
    best_seat, best_card = max(trick, key=lambda sc: strength[sc[1]])
    if best_seat not in pairs[pair]:
        return None
    keep = {c for c in legal if strength[c] < strength[best_card]}
    if not keep or len(keep) == len(legal):
        return None
    return keep


def _unless_clear_gain(plays: list[Play], keep: set[int], per_deal: list[dict[int, float]]) -> list[Play]:
    """The cards that leave partner's trick to it, and any card that takes it over with a mean
    gain over the best of those clear of ``OVERTAKE_NOISE`` standard errors (paired by deal)."""
    n = len(per_deal)
    if n < 2:
        return [a for a in plays if a.card.id in keep]

    def mean(c: int) -> float:
        return sum(d.get(c, 0.0) for d in per_deal) / n

    best_keep = max(keep, key=mean)
    out = []
    for a in plays:
        c = a.card.id
        if c in keep:
            out.append(a)
            continue
        diffs = [d.get(c, 0.0) - d.get(best_keep, 0.0) for d in per_deal]
        m = sum(diffs) / n
        var = sum((x - m) ** 2 for x in diffs) / (n - 1)
        if m > 0 and m > OVERTAKE_NOISE * math.sqrt(var / n):
            out.append(a)
    return out


ORACLE_NODES = 500_000
"""The oracle's budget per solve: a full Kakeya deal (13 tricks, the size of bridge) is not
always solved exactly within it early in the deal; later it is."""


class KakeyaOracle:
    """The same decisions with the real cards (solves of up to ``ORACLE_NODES`` nodes)."""

    def choose_state(self, state: GameState, rng: random.Random) -> Action:
        assert isinstance(state, KakeyaState)
        legal = state.legal_actions()
        if state.phase is Phase.TRUMP:
            return ChooseTrump(None)
        seat = state.to_act
        assert seat is not None
        active = list(state.active_seats)
        idx = {s: i for i, s in enumerate(active)}
        pair = state.pair_of(seat)
        maxside = sum(1 << idx[s] for s in state.pair_seats(pair))
        hands = tuple(state._hands[s] for s in active)
        trump = state.trump.index
        other = next(p for p in state._playing if p != pair)
        mine_dealt, their_dealt = state._dealt_pair[pair], state._dealt_pair[other]
        so_far = len(state._faces[pair])
        if state.phase is Phase.LEADER:

            def lead_value(a: Action) -> float:
                assert isinstance(a, ChooseLeader)
                v = KakeyaPosition(trump, hands, idx[a.seat], (), maxside).estimate(ORACLE_NODES)  # type: ignore[arg-type]
                return game_chips(round(v), mine_dealt, their_dealt, trump)

            return max(legal, key=lead_value)
        plays = [a for a in legal if isinstance(a, Play)]
        if len(plays) == 1:
            return plays[0]
        trick = tuple(c for _, c in state._trick)
        leader = idx[state._trick[0][0]] if state._trick else idx[seat]
        values = KakeyaPosition(trump, hands, leader, trick, maxside).move_values(ORACLE_NODES)  # type: ignore[arg-type]
        return max(plays, key=lambda a: game_chips(round(so_far + values[a.card.id]), mine_dealt, their_dealt, trump))


register_search("kakeya", KakeyaSearch, KakeyaOracle)
