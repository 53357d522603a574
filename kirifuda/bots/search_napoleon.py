"""Napoleon's part of the search bot and of the oracle.

The seat remembers every card seen played and by whom and the voids shown (a player who did
not follow the led suit — the suit a joker lead named — with a card other than the joker has
none of it).  Samples deal the unseen cards to the other hands (their sizes are public) and, for
a seat other than Napoleon, to the discard, respecting the voids and the adjutant where the seat
knows who it is; where it does not, the sample decides: the named card's holder in the sample
is the adjutant (solo where the sample puts it in Napoleon's hand or the discard).

Decisions:

- **play**: sampled deals, each solved for every legal card (every named suit of a joker lead)
  by :mod:`kirifuda.solver.napoleon`.  With many tricks left the solver looks a few tricks ahead
  and estimates the rest (its *horizon*: the face cards left shared by the hands' power); near
  the end it is exact.  An exact outcome is scored as the deal's points for the bot (spec §7–8:
  the declared count, strategy B, solo payouts) plus a small share of its side's face cards; an
  estimated one as its side's face cards.  The best average wins.
- **bidding**: once per deal, sampled deals (the other hands and the middle) are played out for
  each trump suit with the bot as Napoleon (adjutant and exchange as below, by rule), giving
  the face cards the army would take; each legal declaration is scored by the points it would
  bring (a smoothed chance of making the count), passing as 0; the bot stands once highest.
- **adjutant**: the three strongest cards not in hand (almighty, main jack, back jack, trump
  A K Q, side aces) compared by simulation; **exchange**: the discards made of the weakest cards
  (by the heuristic's keep order) compared by simulation.
- **re-declaration**: Napoleon after the exchange samples the unseen cards into the other
  hands and plays each sample out for each trump with the hand as it is now; a higher
  declaration is proposed where its expected points (as in the bidding) beat the one in force
  by ``REDECLARE_MARGIN``.  **Approval**: approve only holding the adjutant's card (as the
  heuristic): a proposal says Napoleon expects to make it, so the allies refuse and the
  adjutant agrees.
- **♠3 call** (with the joker): the lead of ♠3 calling the joker is one more choice the solver
  weighs in every sample (the joker's holder must play it to the trick); in a sample where no
  other hand holds the joker the call changes nothing and gets the plain lead's value.

The table's ``joker`` and ``strategy_b`` options are read from the view (a view without
options: the joker assumed off until it is seen — in hand, played, offered as the adjutant, or
more hidden cards than 52 leave — and strategy B on).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Iterator

from ..actions import Action, Bid, Discard, Pass, Play
from ..games.napoleon import Adjutant, Approve, Redeclare
from ..cards import CARDS, JOKER_ID
from ..game import GameState, View
from ..games.napoleon import FACE_MASK, S3, SA, NapoleonState, NapoleonView, Phase, deal_points, napoleon_army_wins
from ..solver import Work
from ..solver.napoleon import NapoleonPosition, army_seats
from ..solver.rules import CALLED
from .napoleon_heuristic import NapoleonHeuristicBot, power
from .inference import resample
from .inference_napoleon import NapoleonEvent, bidding_log_likelihood, log_likelihood, proposal_log_likelihood
from .search import Level, register_search
from .trace import Trace
from .search_meitora import GONE, _mask, _sample

__all__ = ["NapoleonSearch", "NapoleonOracle", "BUDGETS"]

SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
SAME_COLOUR = (3, 2, 1, 0)
_HEURISTIC = NapoleonHeuristicBot()
BID_BIAS = 1.5
"""Face cards taken off the simulated count when bidding (the horizon's estimate from the first
trick runs high; tuned against the heuristic)."""
REDECLARE_MARGIN = 0.5
"""Expected points a re-declaration must gain over the declaration in force to be proposed
(proposing costs nothing when refused, but an approved one cannot be taken back)."""


APPROVAL_POOL = 4
"""An answer to a re-declaration draws its deals from a pool this many times larger than the
card decisions' (a declaration, a proposal and an exchange say much of Napoleon's hand, and few
of the deals consistent with the view agree with them; the answer is rare and cheap)."""


@dataclass(frozen=True)
class Budget:
    """Napoleon's budgets per level (work, not time)."""

    play_samples: int
    ahead: int
    """Tricks searched before the horizon's estimate, with many tricks left."""
    exact: int
    """Tricks left (or fewer) at which play is solved to the end."""
    bid_samples: int
    adjutant_candidates: int
    discard_candidates: int
    nodes: int
    """Search nodes per solve (the middle of the proved bounds where it runs out)."""
    decision_nodes: int
    """Search nodes over a whole card play: once spent, no further sample is drawn (it caps the
    rare decisions whose every sample is costly, where the joker's named leads widen the tree);
    0: no cap."""


BUDGETS: dict[str, Budget] = {
    "easy": Budget(
        play_samples=4,
        ahead=2,
        exact=4,
        bid_samples=3,
        adjutant_candidates=2,
        discard_candidates=3,
        nodes=50_000,
        decision_nodes=1_000_000,
    ),
    "normal": Budget(
        play_samples=16,
        ahead=2,
        exact=5,
        bid_samples=8,
        adjutant_candidates=3,
        discard_candidates=6,
        nodes=200_000,
        decision_nodes=4_000_000,
    ),
    "strong": Budget(
        play_samples=32,
        ahead=3,
        exact=6,
        bid_samples=16,
        adjutant_candidates=4,
        discard_candidates=10,
        nodes=1_000_000,
        decision_nodes=40_000_000,
    ),
}
BUDGETS["v1"] = BUDGETS["normal"]  # search:v1: normal's budgets, no inference (Level.inference_pool 0)


def horizon_for(left: int, budget: Budget) -> int:
    """The horizon (cards per hand at which the solver estimates) with ``left`` tricks left."""
    if left <= budget.exact:
        return 0
    ahead = budget.ahead + (1 if left <= budget.exact + 2 else 0) + (1 if left <= budget.exact + 1 else 0)
    return max(0, left - ahead)


def win_chance(count: float, declared: int) -> float:
    """A smoothed chance that an estimated count makes the declaration."""
    return 1.0 / (1.0 + math.exp(-(count + 0.5 - declared) / 1.2))


def declaration_value(players: int, count: int, outcomes: list[tuple[float, bool]]) -> float:
    """Napoleon's expected points declaring ``count``, over simulated outcomes (the army's
    estimated face cards, solo or not): a smoothed chance of making it, ``BID_BIAS`` taken off."""
    value = 0.0
    for v, solo in outcomes:
        pts = seat_points(players, count, solo, True, "napoleon")
        p = win_chance(v - BID_BIAS, count)
        value += p * pts - (1 - p) * pts
    return value / len(outcomes)


def seat_points(players: int, declared: int, solo: bool, wins: bool, role: str) -> int:
    nap, adj, ally = deal_points(players, declared, solo, wins)
    return nap if role == "napoleon" else adj if role == "adjutant" else ally


def utility(
    players: int,
    declared: int,
    me: int,
    napoleon: int,
    army: int,
    solo: bool,
    army_final: float,
    exact: bool,
    strategy_b: bool = True,
) -> float:
    """The bot's score for a deal's outcome (its side's face cards where only estimated)."""
    mine = army >> me & 1
    side_faces = army_final if mine else -army_final
    if not exact:
        return side_faces
    role = "napoleon" if me == napoleon else "adjutant" if mine else "ally"
    wins = napoleon_army_wins(declared, round(army_final), strategy_b)
    return seat_points(players, declared, solo, wins, role) + 0.05 * side_faces


def rule_discard(hand: int, trump: int, k: int) -> list[int]:
    """The exchange's cards in the heuristic's order, the first to throw first."""
    counts = [0, 0, 0, 0]
    ids = [c for c in range(53) if hand >> c & 1]
    for c in ids:
        if c != JOKER_ID:
            counts[c // 13] += 1

    def keep(i: int) -> tuple[int, int, int]:
        p = power(i, trump)
        if p >= 50:
            return (3, p, 0)
        if i != JOKER_ID and FACE_MASK >> i & 1:
            return (2, i % 13, 0)
        if i == JOKER_ID:
            return (0, 0, 0)
        return (1, counts[i // 13], i % 13)

    return sorted(ids, key=keep)


def adjutant_wishes(hand: int, trump: int) -> list[int]:
    wanted = [SA, trump * 13 + 9, SAME_COLOUR[trump] * 13 + 9, trump * 13 + 12, trump * 13 + 11, trump * 13 + 10] + [
        s * 13 + 12 for s in range(4) if s != trump
    ]
    return [c for c in wanted if not hand >> c & 1]


class NapoleonMemory:
    def __init__(self) -> None:
        self.deal = -1
        self.played: dict[int, int] = {}
        self.voids: set[tuple[int, int]] = set()
        self.no_joker: set[int] = set()
        """Seats that played another card to a ♠3 lead calling the joker: they do not hold it."""
        self.joker = False
        self.bids: tuple[tuple[int, Action], ...] = ()
        self.events: list[NapoleonEvent] = []
        """The plays seen, in the order they were seen (the inference's record of the play)."""
        self._led: dict[int, tuple[int, bool]] = {}
        """Per trick, by the card that led it: the suit to follow and whether ♠3 called the joker
        (a joker lead's named suit and the call are shown only while the trick is played)."""

    def update(self, view: View) -> None:
        assert isinstance(view, NapoleonView)
        if view.deal_number != self.deal:
            self.deal = view.deal_number
            self.played = {}
            self.voids = set()
            self.no_joker = set()
            self.events = []
            self._led = {}
        self.bids = view.bids
        if "joker" in view.options:
            self.joker = bool(view.options["joker"])
        if (
            view.joker_called
            or any(c.id == JOKER_ID for c in view.hand)
            or any(isinstance(a, Adjutant) and a.card.is_joker for a in view.legal_actions[-1:])
        ):
            self.joker = True  # (a ♠3 call is made only where the joker is in use)
        for trick in (view.last_trick, view.trick):
            if trick is None or not trick.plays:
                continue
            head = trick.plays[0][1].id
            led: int | None = head // 13 if head != JOKER_ID else None
            if head == JOKER_ID and trick is view.trick and view.joker_request:
                led = SUIT_INDEX[view.joker_request]
            if trick is view.trick:
                self._led[head] = (-1 if led is None else led, view.joker_called)
            seen_led, called = self._led.get(head, (-1 if led is None else led, False))
            first = view.tricks_played == (0 if trick is view.trick else 1)
            for i, (seat, card) in enumerate(trick.plays):
                if card.id not in self.played:
                    self.events.append(
                        NapoleonEvent(
                            seat, card.id, tuple((s, c.id) for s, c in trick.plays[:i]), seen_led, first, called
                        )
                    )
                self.played[card.id] = seat
                if card.id == JOKER_ID:
                    self.joker = True
                elif i and led is not None and card.id // 13 != led:
                    self.voids.add((seat, led))
                if i and trick is view.trick and view.joker_called and card.id != JOKER_ID:
                    self.no_joker.add(seat)


class NapoleonSearch:
    def __init__(self, level: Level) -> None:
        self.level = level
        self.budget = BUDGETS[level.name]
        self.memory = NapoleonMemory()
        self._bid_cache: tuple[tuple[int, int, int], dict[int, list[tuple[float, bool]]]] | None = None
        self.trace: Trace | None = None

    def observe(self, view: View) -> None:
        self.memory.update(view)

    def choose(self, view: View, rng: random.Random) -> Action:
        assert isinstance(view, NapoleonView)
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, (Pass, Bid)):
            return self._bid(view, rng)
        if isinstance(first, Adjutant):
            return self._adjutant(view, rng)
        if isinstance(first, Discard):
            return self._discard(view, rng)
        if isinstance(first, Redeclare):
            return self._redeclare(view, rng)
        if isinstance(first, Approve):
            if not self.level.simulate_all:
                return _HEURISTIC.choose(view, rng)
            return self._approve(view, rng)
        return self._play(view, rng)

    # -- the table as this seat knows it ---------------------------------------------------
    def _deck(self) -> list[int]:
        return list(range(52)) + ([JOKER_ID] if self.memory.joker else [])

    def _world(self, view: NapoleonView, rng: random.Random) -> tuple[list[int], int]:
        """A sampled deal in play: every seat's hand (this seat's as it is) and the mask of the
        Napoleon army in it."""
        hands, army, _ = self._world_gone(view, rng)
        return hands, army

    def _worlds(self, view: NapoleonView, rng: random.Random) -> Iterator[tuple[list[int], int]]:
        """The sampled deals of a card decision, drawn lazily (the budget of nodes may stop the
        draw); where the level infers, drawn by their likelihood (:mod:`.inference_napoleon`)
        from a pool ``inference_pool`` times larger."""
        k = self.budget.play_samples
        n = k * self.level.inference_pool
        if n <= k:
            for _ in range(k):
                yield self._world(view, rng)
            return
        me, nap, contract = view.seat, view.napoleon, view.contract
        assert me is not None and nap is not None and contract is not None
        trump = SUIT_INDEX[contract.strain]
        named = view.adjutant_card.id if view.adjutant_card is not None else None
        pool = [self._world_gone(view, rng) for _ in range(n)]
        weights = [
            log_likelihood(h, gone, me, self.memory, trump, nap, named, view.yoromeki, view.first_trick_plain)
            for h, _, gone in pool
        ]
        for i in resample(weights, k, rng):
            yield pool[i][0], pool[i][1]

    def _world_gone(self, view: NapoleonView, rng: random.Random) -> tuple[list[int], int, int]:
        """:meth:`_world` and the cards it put out of play (the discard, for a seat other than
        Napoleon)."""
        me = view.seat
        nap = view.napoleon
        assert me is not None and nap is not None
        n = view.players
        mine = _mask(c.id for c in view.hand)
        seen = mine | _mask(self.memory.played) | _mask(c.id for t in view.face_cards_taken for c in t)
        if view.trick is not None:
            seen |= _mask(c.id for _, c in view.trick.plays)
        seen |= _mask(c.id for c in view.discard)
        pool = [c for c in self._deck() if not seen >> c & 1]
        sizes = {s: view.hand_sizes[s] for s in range(n) if s != me}
        if len(pool) < sum(sizes.values()) and not seen >> JOKER_ID & 1:
            self.memory.joker = True  # more hidden cards than 52 leave: the joker is in play
            pool.append(JOKER_ID)
        gone = max(0, len(pool) - sum(sizes.values()))
        forbidden: dict[int, int] = {}
        for seat, suit in self.memory.voids:
            if seat in sizes:
                forbidden[seat] = forbidden.get(seat, 0) | (0x1FFF << (13 * suit))
        for seat in self.memory.no_joker:
            if seat in sizes:
                forbidden[seat] = forbidden.get(seat, 0) | 1 << JOKER_ID
        adj = view.adjutant_card.id if view.adjutant_card is not None else -1
        adj_free = adj >= 0 and not seen >> adj & 1
        if adj_free and view.adjutant is not None:
            for s in list(sizes) + [GONE]:
                if s != view.adjutant:
                    forbidden[s] = forbidden.get(s, 0) | 1 << adj
        elif adj_free and view.solo:
            for s in sizes:
                if s != nap:
                    forbidden[s] = forbidden.get(s, 0) | 1 << adj
        got = _sample(rng, pool, sizes, gone, forbidden) or _sample(rng, pool, sizes, gone, {})
        assert got is not None
        hands = [got[s] if s != me else mine for s in range(n)]
        out = got.get(GONE, 0)
        if view.solo:
            army = 1 << nap
        elif view.adjutant is not None:
            army = army_seats(nap, view.adjutant)
        else:
            holder = next((s for s in range(n) if hands[s] >> adj & 1), None) if adj >= 0 else None
            if holder is None and adj in self.memory.played:
                holder = self.memory.played[adj]
            army = army_seats(nap, holder if holder is not None and holder != nap else None)
        return hands, army, out

    # -- play ------------------------------------------------------------------------------
    def _play(self, view: NapoleonView, rng: random.Random) -> Action:
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        me, nap, contract = view.seat, view.napoleon, view.contract
        assert me is not None and nap is not None and contract is not None
        trump = SUIT_INDEX[contract.strain]
        trick = view.trick.plays if view.trick is not None else ()
        cards = tuple(c.id for _, c in trick)
        leader = view.trick.leader if view.trick is not None and trick else me
        led = 4
        if cards:
            led = SUIT_INDEX[view.joker_request] if cards[0] == JOKER_ID and view.joker_request else cards[0] // 13
            if view.joker_called:
                led = CALLED
        horizon = horizon_for(len(view.hand), self.budget)
        taken = [len(t) for t in view.face_cards_taken]
        totals: dict[tuple[int, int], float] = {}
        work = Work()
        trace = self.trace
        if trace is not None:
            trace.start("play", "points" if horizon == 0 else "face_cards", "face_cards", "army")
        worlds = self._worlds(view, rng)
        while not (self.budget.decision_nodes and work.nodes >= self.budget.decision_nodes):
            world = next(worlds, None)
            if world is None:
                break
            hands, army = world
            pos = NapoleonPosition(
                trump,
                tuple(hands),
                leader,
                cards,
                led,
                army,
                first=view.tricks_played == 0,
                joker=self.memory.joker,
                yoromeki=view.yoromeki,
                first_trick_plain=view.first_trick_plain,
                horizon=horizon,
            )
            so_far = sum(taken[s] for s in range(view.players) if army >> s & 1)
            solo = army == 1 << nap
            for k, v in _with_call(pos.move_values(self.budget.nodes, work=work)).items():
                u = utility(
                    view.players,
                    contract.count,
                    me,
                    nap,
                    army,
                    solo,
                    so_far + v,
                    horizon == 0,
                    bool(view.options.get("strategy_b", True)),
                )
                totals[k] = totals.get(k, 0.0) + u
                if trace is not None:
                    trace.add(k, u, so_far + v)
        if trace is not None:
            trace.resolve({_key(a, cards, led): a for a in plays})
        return max(plays, key=lambda a: totals.get(_key(a, cards, led), float("-inf")))

    # -- bidding, the adjutant and the exchange by simulation --------------------------------
    def _unseen(self, view: NapoleonView) -> list[int]:
        mine = _mask(c.id for c in view.hand)
        return [c for c in self._deck() if not mine >> c & 1]

    def _deal_worlds(
        self, view: NapoleonView, rng: random.Random, count: int, known: int = 0
    ) -> list[tuple[list[int], int]]:
        """Sampled hands of every seat and the middle (as a mask), before play; ``known``: the
        cards this seat knows lie in no other hand (the middle it took, or its discard), then
        given as the middle."""
        me = view.seat
        assert me is not None
        n = view.players
        size = 10 if n == 5 else 12
        pool = [c for c in self._unseen(view) if not known >> c & 1]
        draw = count * self.level.inference_pool
        worlds = []
        for _ in range(max(count, draw)):
            rng.shuffle(pool)
            hands = []
            k = 0
            for s in range(n):
                if s == me:
                    hands.append(_mask(c.id for c in view.hand))
                else:
                    hands.append(_mask(pool[k : k + size]))
                    k += size
            worlds.append((hands, known or _mask(pool[k:])))
        if draw > count:  # inference: drawn by the likelihood of the declarations seen
            weights = [bidding_log_likelihood(h, me, self.memory, n) for h, _ in worlds]
            return [worlds[i] for i in resample(weights, count, rng)]
        return worlds

    def _bid(self, view: NapoleonView, rng: random.Random) -> Action:
        legal = view.legal_actions
        me = view.seat
        assert me is not None
        bids = [a for a in legal if isinstance(a, Bid)]
        made = [s for s, a in view.bids if isinstance(a, Bid)]
        if made and made[-1] == me or not bids:
            return legal[0]  # stand
        est = self._estimates(view, rng)
        best: Action = legal[0]
        best_value = 0.5
        if self.trace is not None:
            self.trace.start("bid", "points", "face_cards", "army")
            for a in bids:
                for v, solo in est[SUIT_INDEX[a.strain]]:
                    self.trace.add(a, declaration_value(view.players, a.count, [(v, solo)]), v - BID_BIAS, a.count)
            self.trace.add(legal[0], best_value, by_rule=True)
            self.trace.resolve({a: a for a in (*bids, legal[0])})
        for a in bids:
            value = declaration_value(view.players, a.count, est[SUIT_INDEX[a.strain]])
            if value > best_value:
                best, best_value = a, value
        return best

    def _estimates(self, view: NapoleonView, rng: random.Random) -> dict[int, list[tuple[float, bool]]]:
        me = view.seat
        assert me is not None
        cache = self._bid_cache
        # with inference the estimates are made afresh once the others have declared or passed
        seen = len(view.bids) if self.level.inference_pool else 0
        if cache is not None and cache[0] == (view.deal_number, me, seen):
            return cache[1]
        worlds = self._deal_worlds(view, rng, self.budget.bid_samples)
        est = {t: [self._napoleon_value(view, hands, middle, t) for hands, middle in worlds] for t in range(4)}
        self._bid_cache = ((view.deal_number, me, seen), est)
        return est

    def _napoleon_value(
        self,
        view: NapoleonView,
        hands: list[int],
        middle: int,
        trump: int,
        adj: int | None = None,
        discard: list[int] | None = None,
    ) -> tuple[float, bool]:
        """The army's estimated face cards with this seat as Napoleon, and whether it is solo."""
        me = view.seat
        assert me is not None
        n = view.players
        size = 10 if n == 5 else 12
        if adj is None:
            wishes = adjutant_wishes(hands[me], trump)
            adj = wishes[0] if wishes else SA
        holder = next((s for s in range(n) if s != me and hands[s] >> adj & 1), None)
        full = hands[me] | middle
        if discard is None:
            discard = rule_discard(full, trump, middle.bit_count())[: middle.bit_count()]
        h2 = list(hands)
        h2[me] = full & ~_mask(discard)
        pos = NapoleonPosition(
            trump,
            tuple(h2),
            me,
            (),
            4,
            army_seats(me, holder),
            first=True,
            joker=self.memory.joker,
            yoromeki=view.yoromeki,
            first_trick_plain=view.first_trick_plain,
            horizon=size - self.budget.ahead,
        )
        return pos.estimate(self.budget.nodes), holder is None

    def _contract_value(self, view: NapoleonView, v: float, solo: bool) -> float:
        assert view.contract is not None
        d = view.contract.count
        pts = seat_points(view.players, d, solo, True, "napoleon")
        p = win_chance(v, d)
        return p * pts - (1 - p) * pts + 0.01 * v

    def _adjutant(self, view: NapoleonView, rng: random.Random) -> Action:
        assert view.contract is not None
        trump = SUIT_INDEX[view.contract.strain]
        mine = _mask(c.id for c in view.hand)
        candidates = adjutant_wishes(mine, trump)[: self.budget.adjutant_candidates]
        if not candidates:
            return _HEURISTIC.choose(view, rng)
        worlds = self._deal_worlds(view, rng, self.budget.bid_samples)
        trace = self.trace
        if trace is not None:
            trace.start("adjutant", "points", "face_cards", "army")
        scores = {}
        for c in candidates:
            outcomes = [self._napoleon_value(view, h, m, trump, adj=c) for h, m in worlds]
            scores[c] = sum(self._contract_value(view, *o) for o in outcomes)
            if trace is not None:
                for o in outcomes:
                    trace.add(c, self._contract_value(view, *o), o[0], view.contract.count)
        if trace is not None:
            trace.resolve({c: Adjutant(CARDS[c]) for c in candidates})
        return Adjutant(CARDS[max(candidates, key=lambda c: scores[c])])

    def _redeclare(self, view: NapoleonView, rng: random.Random) -> Action:
        legal = view.legal_actions
        keep = next(a for a in legal if isinstance(a, Redeclare) and a.count is None)
        proposals = [a for a in legal if isinstance(a, Redeclare) and a.count is not None]
        me, contract = view.seat, view.contract
        if not proposals or me is None or contract is None:
            return keep
        discard = _mask(c.id for c in view.discard)
        if len(self._unseen(view)) - len(view.discard) != sum(view.hand_sizes) - len(view.hand):
            return keep  # the unseen cards do not fill the other hands (an unknown joker): no guess
        adj = view.adjutant_card.id if view.adjutant_card is not None else None
        est: dict[int, list[tuple[float, bool]]] = {t: [] for t in range(4)}
        for hands, _ in self._deal_worlds(view, rng, self.budget.bid_samples, known=discard):
            for t in range(4):
                est[t].append(self._napoleon_value(view, hands, 0, t, adj=adj, discard=[]))

        def expected(count: int, strain: str) -> float:
            return declaration_value(view.players, count, est[SUIT_INDEX[strain]])

        best = max(proposals, key=lambda a: expected(a.count or 0, a.strain or "S"))
        if self.trace is not None:
            self.trace.start("redeclare", "points", "face_cards", "army")
            for a in (keep, *proposals):
                c, st = (a.count, a.strain) if a.count is not None else (contract.count, contract.strain)
                for v, solo in est[SUIT_INDEX[st or "S"]]:
                    self.trace.add(a, declaration_value(view.players, c, [(v, solo)]), v - BID_BIAS, c)
            self.trace.resolve({a: a for a in (keep, *proposals)})
        gain = expected(best.count or 0, best.strain or "S") - expected(contract.count, contract.strain)
        return best if gain > REDECLARE_MARGIN else keep

    def _approval_worlds(self, view: NapoleonView, rng: random.Random) -> list[tuple[list[int], int]]:
        """Sampled deals for answering a re-declaration (every hand as the play will start, and
        the army in each), drawn by the likelihood of the declarations, the adjutant's card, the
        exchange and the proposal seen where the level infers."""
        k = self.budget.bid_samples
        n = k * self.level.inference_pool * APPROVAL_POOL
        if n <= k:
            return [self._world(view, rng) for _ in range(k)]
        me, nap, contract = view.seat, view.napoleon, view.contract
        assert me is not None and nap is not None and contract is not None
        named = view.adjutant_card.id if view.adjutant_card is not None else None
        pool = [self._world_gone(view, rng) for _ in range(n)]
        weights = [
            log_likelihood(
                h, gone, me, self.memory, SUIT_INDEX[contract.strain], nap, named, view.yoromeki, view.first_trick_plain
            )
            + (proposal_log_likelihood(h[nap], view.proposal) if view.proposal is not None and nap != me else 0.0)
            for h, _, gone in pool
        ]
        return [(pool[i][0], pool[i][1]) for i in resample(weights, k, rng)]

    def _approve(self, view: NapoleonView, rng: random.Random) -> Action:
        """Answer Napoleon's proposal by simulation: each sampled deal is played out (to the
        horizon's estimate) under the declaration in force and under the proposal, and each
        outcome scored as this seat's points in its role with a smoothed chance of the army
        making the count (as Napoleon's own bidding scores it); approve where the proposal's
        mean over the same deals is higher.  (Only a unanimous approval changes the
        declaration, so the answer matters only where the others approve: it is weighed so.)"""
        me, nap, contract, proposal = view.seat, view.napoleon, view.contract, view.proposal
        if me is None or nap is None or contract is None or proposal is None:
            return _HEURISTIC.choose(view, rng)
        n = view.players
        size = 10 if n == 5 else 12
        options = {
            False: (contract.count, SUIT_INDEX[contract.strain]),
            True: (proposal.count, SUIT_INDEX[proposal.strain]),
        }
        totals = {False: 0.0, True: 0.0}
        trace = self.trace
        if trace is not None:
            trace.start("approve", "points", "face_cards", "army")
        for hands, army in self._approval_worlds(view, rng):
            solo = army == 1 << nap
            role = "napoleon" if me == nap else "adjutant" if army >> me & 1 else "ally"
            for ok, (count, trump) in options.items():
                pos = NapoleonPosition(
                    trump,
                    tuple(hands),
                    nap,
                    (),
                    4,
                    army,
                    first=True,
                    joker=self.memory.joker,
                    yoromeki=view.yoromeki,
                    first_trick_plain=view.first_trick_plain,
                    horizon=size - self.budget.ahead,
                )
                v = pos.estimate(self.budget.nodes)
                p = win_chance(v - BID_BIAS, count)
                u = p * seat_points(n, count, solo, True, role) + (1 - p) * seat_points(n, count, solo, False, role)
                totals[ok] += u
                if trace is not None:
                    trace.add(ok, u, v, count)
        if trace is not None:
            trace.resolve({ok: Approve(ok) for ok in (False, True)})
        return Approve(totals[True] > totals[False])

    def _discard(self, view: NapoleonView, rng: random.Random) -> Action:
        assert view.contract is not None and view.adjutant_card is not None
        me = view.seat
        assert me is not None
        trump = SUIT_INDEX[view.contract.strain]
        hand = _mask(c.id for c in view.hand)
        k = len(view.middle)
        order = rule_discard(hand, trump, k)
        candidates = [list(c) for c in itertools.combinations(order[: k + 2], k)][: self.budget.discard_candidates]
        worlds = self._deal_worlds(view, rng, self.budget.bid_samples, known=_mask(c.id for c in view.middle))
        adj = view.adjutant_card.id
        scores = []
        trace = self.trace
        if trace is not None:
            trace.start("discard", "points", "face_cards", "army")
        for i, cand in enumerate(candidates):
            total = 0.0
            for hands, _ in worlds:
                v, solo = self._napoleon_value(view, hands, 0, trump, adj=adj, discard=cand)
                total += self._contract_value(view, v, solo or bool(view.solo))
                if trace is not None:
                    trace.add(i, self._contract_value(view, v, solo or bool(view.solo)), v, view.contract.count)
            scores.append(total)
        if trace is not None:
            trace.resolve({i: Discard(tuple(CARDS[c] for c in sorted(cand))) for i, cand in enumerate(candidates)})
        best = candidates[max(range(len(candidates)), key=lambda i: scores[i])]
        return Discard(tuple(CARDS[c] for c in sorted(best)))


def _key(a: Play, cards: tuple[int, ...], led: int) -> tuple[int, int]:
    cid = a.card.id
    if cards:
        return (cid, led)
    if a.call_joker:
        return (cid, CALLED)
    if cid == JOKER_ID:
        assert a.request is not None
        return (cid, SUIT_INDEX[a.request])
    return (cid, cid // 13)


def _with_call(values: dict[tuple[int, int], float]) -> dict[tuple[int, int], float]:
    """The solver's values with the ♠3 call's where the solver has none (no other hand holds
    the joker: the call changes nothing, so it is worth the plain lead)."""
    plain = values.get((S3, 0))
    if plain is not None and (S3, CALLED) not in values:
        values[(S3, CALLED)] = plain
    return values


ORACLE_BUDGET = Budget(
    play_samples=1,
    ahead=3,
    exact=6,
    bid_samples=1,
    adjutant_candidates=4,
    discard_candidates=10,
    nodes=1_000_000,
    decision_nodes=0,
)


class NapoleonOracle:
    """Play solved with every card seen (exact from ``ORACLE_BUDGET.exact`` tricks left, a
    horizon before); bidding, the adjutant and the exchange as the search bot's with the true
    deal as its only sample."""

    def choose_state(self, state: GameState, rng: random.Random) -> Action:
        assert isinstance(state, NapoleonState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.to_act
        assert seat is not None
        if state.phase is not Phase.PLAY:
            bot = _OracleSearch(state)
            return bot.choose(state.view(seat), rng)
        from ..solver.napoleon import position_of

        base = position_of(state)
        horizon = horizon_for(len(state.hand(seat)), ORACLE_BUDGET)
        pos = NapoleonPosition(
            base.trump,
            base.hands,
            base.leader,
            base.trick,
            base.led,
            base.maxside,
            base.first,
            base.joker,
            base.yoromeki,
            base.first_trick_plain,
            horizon,
        )
        nap = state.napoleon
        contract = state.contract
        assert nap is not None and contract is not None
        so_far = state.army_face_cards()
        values = _with_call(pos.move_values(ORACLE_BUDGET.nodes))
        plays = [a for a in legal if isinstance(a, Play)]
        return max(
            plays,
            key=lambda a: utility(
                state.num_players,
                contract.count,
                seat,
                nap,
                base.maxside,
                state.solo,
                so_far + values.get(_key(a, base.trick, base.led), -100),
                horizon == 0,
                state.options.strategy_b,
            ),
        )


class _OracleSearch(NapoleonSearch):
    """The search bot's simulations with the true deal as the only sample."""

    def __init__(self, state: NapoleonState) -> None:
        super().__init__(Level("strong", 1, 1, 1, 1, 1, 1, 1, 1))
        self.budget = ORACLE_BUDGET
        self.state = state
        self.memory.joker = state.options.joker

    def _deal_worlds(
        self, view: NapoleonView, rng: random.Random, count: int, known: int = 0
    ) -> list[tuple[list[int], int]]:
        s = self.state
        return [(list(s._hands), known or _mask(s._middle))]

    def _approval_worlds(self, view: NapoleonView, rng: random.Random) -> list[tuple[list[int], int]]:
        s = self.state
        nap = s.napoleon
        assert nap is not None
        named = s.adjutant_card.id if s.adjutant_card is not None else -1
        holder = next((p for p in range(s.num_players) if p != nap and s._hands[p] >> named & 1), None)
        return [(list(s._hands), army_seats(nap, holder))]


register_search("napoleon", NapoleonSearch, NapoleonOracle)
