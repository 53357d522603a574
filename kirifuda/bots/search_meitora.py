"""Meitora's part of the search bot and of the oracle.

What the seat remembers (:class:`MeitoraMemory`): every card seen played and by whom (from the
trick in progress, the trick just completed and its own team's tricks, in every view it is
shown), the voids shown (a player who did not follow the led suit — a joker lead's request —
the joker apart, has none of it), and the bidding.  What it samples: the cards it has not seen
are dealt at random to the other hands (their sizes are public) and to the cards out of play
(the negri, and any card played while the bot was not shown the table), a void seat never
getting a card of its void suit and a seat that has played its ninth card never holding the
joker (it may not be kept to the end).

Decisions:

- **play**: sample deals, solve each (every legal card and joker request, exactly), score each
  outcome as the deal's points for the bot's team (made: X − 5 + (Y − X)/2; set: X − Y to the
  defenders), play the best average; the number of samples shrinks early in the deal, when a
  solve costs most;
- **claim** (オープン): only when the claim holds for *every* deal consistent with what the seat
  has seen — the bot is on lead, no unseen joker, its trumps are the highest and at least as
  many as the unseen trumps (each trump lead pulls one), and each of its other cards is the
  highest of its suit among the unseen cards.  (The unseen cards include the partner's: the
  claim must hold whatever the other three play.)  Sound, not complete;
- **bid**: sample the other hands and the agari; for the most promising strains (a quick
  count), the bot as declarer takes the agari, discards the quick negri and the deal is
  solved; bid the legal bid with the best expected points if it is positive, else pass
  (a weak hand declares broken, as the heuristic bot does);
- **negri**: for the most promising discards, sample the other hands and solve; keep the best.

The solver assumes everyone sees everything: it overrates the declarer a little; the bidding
subtracts ``BID_MARGIN`` tricks for it, and bids down to ``BID_FLOOR`` expected points (a
pass lets the others play).
"""

from __future__ import annotations

import random
from typing import Any, Callable, NamedTuple

from ..actions import CLAIM, Action, Bid, Claim, Discard, Pass, Play
from ..games.meitora import Broken
from ..cards import CARDS, JOKER_ID, Card, ids_of
from ..game import GameState, View
from ..games.meitora import DECK_IDS, EFF_SUIT, STRAINS, STRENGTH, MeitoraState, MeitoraView, Phase, deal_points
from ..games.meitora import _weak_mask
from ..solver.meitora import MeitoraPosition, position_of
from ..solver.rules import NO_SUIT
from ..tricks import Trick
from .meitora_heuristic import PARTNER_TRICKS, convention_cards, estimate_tricks
from .inference import resample
from .inference_meitora import bidding_log_likelihood, log_likelihood
from .search import Level, pick, register_search
from .trace import Trace

__all__ = ["MeitoraMemory", "MeitoraSearch", "MeitoraOracle", "deal_points", "claim_is_provable"]

TRUMP_OF_STRAIN = {"S": 0, "C": 3, "D": 2, "H": 1, "N": None}
REQUEST_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3, "any": 4}
BID_MARGIN = 0.5
BID_FLOOR = -1.0
"""Expected points below which the bot passes: passing is worth less than nothing, as the others
would often play (and make) a contract of their own (tuned in duplicate matches against the
heuristic bot)."""
"""Tricks taken off the solver's count when bidding (it sees every card; a declarer does not)."""
GONE = -1
CONVENTION_MARGIN = 0.25
"""How much worse, in the deal's points for the bot's team (mean over the samples), a card a
club player's convention prefers may look than the best card and still be played: the
solver's samples see every hand, which makes a trump lead or a side winner cashed early look
free and leaves cards of the same value to an arbitrary order; within this margin (half the
half-point step of a trick) the convention decides."""


def _mask(ids: Any) -> int:
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def _led_of(view: MeitoraView, strain: int) -> int:
    """The led suit of the trick in progress (a joker lead: its request)."""
    assert view.trick is not None and view.trick.plays
    return _led_suit(view.trick.plays[0][1], view.joker_request, strain)


def _led_suit(first: Card, request: str | None, strain: int) -> int:
    """The led suit of a trick led by ``first`` (a joker lead: its request, None under
    ``joker_lead=trump``)."""
    if first.id == JOKER_ID:
        if request is not None:
            return REQUEST_INDEX[request]
        return EFF_SUIT[strain][JOKER_ID]  # joker_lead="trump": it asks for trump
    return EFF_SUIT[strain][first.id]


class PlayEvent(NamedTuple):
    """One card seen played: by whom, what was in the trick before it, the suit to follow
    (``NO_SUIT`` on lead or after a joker lead asking for any suit)."""

    seat: int
    card: int
    before: tuple[tuple[int, int], ...]
    led: int


class MeitoraMemory:
    """What one seat has seen of the current deal."""

    def __init__(self) -> None:
        self.deal = -1
        self.played: dict[int, int] = {}
        """Card id → the seat that played it."""
        self.voids: set[tuple[int, int]] = set()
        """(seat, effective suit) pairs shown void."""
        self.joker_lead = "request"
        self.bids: tuple[tuple[int, Action], ...] = ()
        self.events: list[PlayEvent] = []
        """The plays seen, in the order they were seen (the inference's record of the play)."""

    def update(self, view: View) -> None:
        assert isinstance(view, MeitoraView)
        if view.deal_number != self.deal:
            self.deal = view.deal_number
            self.played = {}
            self.voids = set()
            self.events = []
        self.bids = view.bids
        if view.options.get("joker_lead") in ("request", "trump"):
            self.joker_lead = str(view.options["joker_lead"])
        if view.contract is None:
            return
        strain = STRAINS.index(view.contract.strain)
        requests = view.own_team_requests or (None,) * len(view.own_team_tricks)
        tricks: list[tuple[Trick, str | None]] = list(zip(view.own_team_tricks, requests))
        if view.trick is not None:
            tricks.append((view.trick, view.joker_request))
        if view.last_trick is not None:
            tricks.append((view.last_trick, view.last_trick_request))
        for trick, request in tricks:
            plays = trick.plays
            if not plays:
                continue
            first = plays[0][1]
            if first.id == JOKER_ID and request is None:
                if trick is view.trick:
                    self.joker_lead = "trump"
                # a joker lead shows no request under joker_lead=trump (it asks for trump)
                led = _led_suit(first, None, strain) if self.joker_lead == "trump" else NO_SUIT
            else:
                led = _led_suit(first, request, strain)
            for i, (seat, card) in enumerate(plays):
                if card.id not in self.played:
                    self.events.append(PlayEvent(seat, card.id, tuple((s, c.id) for s, c in plays[:i]), led))
                self.played[card.id] = seat
                if i and led != NO_SUIT and card.id != JOKER_ID and EFF_SUIT[strain][card.id] != led:
                    self.voids.add((seat, led))
        for a in view.legal_actions:
            if isinstance(a, Play) and a.card.id == JOKER_ID and not (view.trick and view.trick.plays):
                self.joker_lead = "request" if a.request is not None else "trump"


def _sample(
    rng: random.Random, pool: list[int], sizes: dict[int, int], gone: int, forbidden: dict[int, int]
) -> dict[int, int] | None:
    """Deal ``pool`` to the seats of ``sizes`` (and ``gone`` cards out of play), each seat
    refusing the cards of its ``forbidden`` mask; ``None`` if the tries fail."""
    for _ in range(60):
        order = pool[:]
        rng.shuffle(order)
        cap = dict(sizes)
        cap[GONE] = gone
        hands = {s: 0 for s in cap}
        ok = True
        for c in order:
            bit = 1 << c
            elig = [s for s in cap if cap[s] > 0 and not forbidden.get(s, 0) & bit]
            if not elig:
                ok = False
                break
            total = sum(cap[s] for s in elig)
            r = rng.randrange(total)
            for s in elig:
                r -= cap[s]
                if r < 0:
                    break
            hands[s] |= bit
            cap[s] -= 1
        if ok:
            return hands
    return None


class MeitoraSearch:
    def __init__(self, level: Level) -> None:
        self.level = level
        self.memory = MeitoraMemory()
        self.trace: Trace | None = None

    def observe(self, view: View) -> None:
        self.memory.update(view)

    def choose(self, view: View, rng: random.Random) -> Action:
        assert isinstance(view, MeitoraView)
        legal = view.legal_actions
        first = legal[0]
        if isinstance(first, (Bid, Pass, Broken)):
            return self._bid(view, rng)
        if isinstance(first, Discard):
            return self._discard(view, rng)
        return self._play(view, rng)

    # -- what is unseen ----------------------------------------------------------------------
    def _unseen(self, view: MeitoraView) -> tuple[list[int], dict[int, int], int, dict[int, int]]:
        """The cards the seat has not seen, the other hands' sizes, how many unseen cards are
        out of play, and each seat's forbidden cards."""
        assert view.seat is not None
        mine = _mask(c.id for c in view.hand)
        seen = mine | _mask(self.memory.played)
        if view.negri is not None:
            seen |= 1 << view.negri.id
        shown = {s for s, cards in enumerate(view.shown_hands) if cards}  # face up: a refused claim
        for cards in view.shown_hands:
            seen |= _mask(c.id for c in cards)
        pool = [c for c in DECK_IDS if not seen >> c & 1]
        sizes = {s: view.hand_sizes[s] for s in range(4) if s != view.seat and s not in shown}
        gone = len(pool) - sum(sizes.values())
        forbidden: dict[int, int] = {}
        if view.contract is not None:
            masks = [0] * 5
            eff = EFF_SUIT[STRAINS.index(view.contract.strain)]
            for c in DECK_IDS:
                masks[eff[c]] |= 1 << c
            for seat, suit in self.memory.voids:
                if seat in sizes:
                    forbidden[seat] = forbidden.get(seat, 0) | masks[suit]
        for seat, n in sizes.items():
            if n <= 1:  # the joker may not be kept to the last trick
                forbidden[seat] = forbidden.get(seat, 0) | (1 << JOKER_ID)
        return pool, sizes, max(gone, 0), forbidden

    def _deal(self, view: MeitoraView, rng: random.Random) -> list[int]:
        assert view.seat is not None
        pool, sizes, gone, forbidden = self._unseen(view)
        got = _sample(rng, pool, sizes, gone, forbidden)
        if got is None:  # the memory contradicts itself (it cannot): deal without constraints
            got = _sample(rng, pool, sizes, gone, {})
            assert got is not None
        hands = [0, 0, 0, 0]
        for s in sizes:
            hands[s] = got[s]
        for s, cards in enumerate(view.shown_hands):
            if cards:
                hands[s] = _mask(c.id for c in cards)
        hands[view.seat] = _mask(c.id for c in view.hand)
        return hands

    def _deals(self, view: MeitoraView, rng: random.Random, k: int) -> list[list[int]]:
        """``k`` deals for a card decision: consistent with what the seat has seen, drawn by
        their likelihood from a pool ``inference_pool`` times larger (where the level infers)."""
        n = k * self.level.inference_pool
        if n <= k:
            return [self._deal(view, rng) for _ in range(k)]
        assert view.seat is not None and view.contract is not None
        pool = [self._deal(view, rng) for _ in range(n)]
        strain = STRAINS.index(view.contract.strain)
        weights = [log_likelihood(h, view.seat, self.memory, strain, view.declarer) for h in pool]
        return [pool[i] for i in resample(weights, k, rng)]

    def _others(self, pool: list[int], me: int, rng: random.Random, k: int) -> list[tuple[list[int], int]]:
        """``k`` deals of the cards ``pool`` to the other seats before the play, with the card
        left over first (the agari), drawn by the bidding's likelihood where the level infers."""
        n = k * self.level.inference_pool

        def one() -> tuple[list[int], int]:
            hands = _deal_others(pool, me, rng)
            return hands, pool[30] if len(pool) > 30 else -1

        if n <= k:
            return [one() for _ in range(k)]
        deals = [one() for _ in range(n)]
        weights = [bidding_log_likelihood(h, me, self.memory) for h, _ in deals]
        return [deals[i] for i in resample(weights, k, rng)]

    # -- play --------------------------------------------------------------------------------
    def _play(self, view: MeitoraView, rng: random.Random) -> Action:
        legal = view.legal_actions
        plays = [a for a in legal if isinstance(a, Play)]
        if any(isinstance(a, Claim) for a in legal) and claim_is_provable(view, self.memory):
            return CLAIM
        if len(plays) == 1:
            return plays[0]
        assert view.contract is not None and view.declarer is not None and view.seat is not None
        strain = STRAINS.index(view.contract.strain)
        trick = view.trick.plays if view.trick is not None else ()
        leader = view.trick.leader if view.trick is not None and trick else view.seat
        led = _led_of(view, strain) if trick else NO_SUIT
        cards = tuple(c.id for _, c in trick)
        declarer = view.declarer
        team = declarer % 2
        taken = view.team_tricks[team]
        count = view.contract.count
        sign = 1 if view.seat % 2 == team else -1
        totals: dict[tuple[int, str | None], float] = {}
        guess = -1
        trace = self.trace
        if trace is not None:
            trace.start("play", "points", "tricks")
        deals = self._deals(view, rng, self.level.play_samples)
        for hands in deals:
            pos = MeitoraPosition(
                strain,
                tuple(hands),  # type: ignore[arg-type]
                leader,
                cards,
                led,
                declarer,
                self.memory.joker_lead,
            )
            values = pos.move_values(guess=guess, max_nodes=self.level.play_nodes)
            for key, v in values.items():
                y = taken + v
                u = sign * (deal_points(count, y) + 0.01 * y)
                totals[key] = totals.get(key, 0.0) + u
                if trace is not None:
                    trace.add(key, u - 0.01 * sign * y, y if sign > 0 else 10 - y)
            guess = int(max(values.values()) if sign > 0 else min(values.values()))
        n = max(1, len(deals))

        def mean(a: Play) -> float:
            return totals.get((a.card.id, a.request), float("-inf")) / n

        best = pick(plays, mean, self.level.temperature, rng)
        if self.level.conventions and self.level.temperature <= 0:
            best = self._by_convention(view, plays, mean, best)
        if trace is not None:
            trace.resolve({(a.card.id, a.request): a for a in plays})
        return best

    def _by_convention(self, view: MeitoraView, plays: list[Play], mean: Callable[[Play], float], best: Play) -> Play:
        """The card a club player's convention prefers (:func:`convention_cards`) where its
        mean value is within ``CONVENTION_MARGIN`` of the best card's, else ``best``."""
        assert view.contract is not None and view.seat is not None
        si = STRAINS.index(view.contract.strain)
        trick = tuple((s, c.id) for s, c in view.trick.plays) if view.trick is not None else ()
        partner = (view.seat + 2) % 4
        eff = EFF_SUIT[si]
        suits: list[int] = []
        for e in reversed(self.memory.events):
            if e.seat == partner and not e.before and e.card != JOKER_ID and eff[e.card] not in suits:
                suits.append(eff[e.card])
        pool, _, _, _ = self._unseen(view)
        trump = TRUMP_OF_STRAIN[view.contract.strain]
        opponents = [(view.seat + 1) % 4, (view.seat + 3) % 4]
        trumps_out = trump is None or not all((o, trump) in self.memory.voids for o in opponents)
        ids = list(dict.fromkeys(a.card.id for a in plays))
        preferred = convention_cards(
            ids, trick, view.joker_request, si, view.seat, view.declarer, suits, _mask(pool), trumps_out
        )
        top = mean(best)
        near = [a for a in plays if a.card.id in preferred and mean(a) >= top - CONVENTION_MARGIN]
        return max(near, key=mean) if near else best

    # -- bidding -----------------------------------------------------------------------------
    def _bid(self, view: MeitoraView, rng: random.Random) -> Action:
        forced, bids, passing = _bidding_choices(view.legal_actions)
        if isinstance(forced, Broken) and self.level.simulate_all:
            return self._broken(view, rng, forced)
        if forced is not None:
            return forced
        assert view.seat is not None
        me = view.seat
        hand = [c.id for c in view.hand]
        open_strains = {b.strain for b in bids}
        ranked = sorted((s for s in STRAINS if s in open_strains), key=lambda s: -estimate_tricks(view.hand, s))[
            : self.level.bid_strains
        ]
        if not ranked:
            return passing
        mine = _mask(hand)
        pool = [c for c in DECK_IDS if not mine >> c & 1]
        tricks: dict[str, list[float]] = {s: [] for s in ranked}
        for hands, agari in self._others(pool, me, rng, self.level.bid_samples):
            for strain in ranked:
                si = STRAINS.index(strain)
                eleven = hand + [agari]
                negri = quick_negri(eleven, si)
                h = list(hands)
                h[me] = _mask(c for c in eleven if c != negri)
                pos = MeitoraPosition(si, tuple(h), me, (), NO_SUIT, me)  # type: ignore[arg-type]
                tricks[strain].append(pos.estimate(self.level.bid_nodes, guess=8))
        best: Action = passing
        best_ev = BID_FLOOR
        if self.trace is not None:
            self.trace.start("bid", "points", "tricks")
            for b in bids:
                for t in tricks.get(b.strain, ()):
                    self.trace.add(b, deal_points(b.count, t - BID_MARGIN), t - BID_MARGIN, b.count)
            self.trace.add(passing, BID_FLOOR, by_rule=True)
            self.trace.resolve({a: a for a in (*bids, passing)})
        values: dict[Action, float] = {}
        for b in bids:
            if b.strain not in tricks:
                continue
            ts = tricks[b.strain]
            ev = sum(deal_points(b.count, t - BID_MARGIN) for t in ts) / len(ts)
            values[b] = ev
            if ev > best_ev:
                best, best_ev = b, ev
        if self.level.temperature > 0:
            values[passing] = BID_FLOOR
            return pick(list(values), values.__getitem__, self.level.temperature, rng)
        return best

    def _broken(self, view: MeitoraView, rng: random.Random, broken: Broken) -> Action:
        """A weak hand's choice, by simulation: declare broken (the deal is redone: worth 0, a
        new deal being even between the teams), pass, or bid.  In each sampled deal (drawn by
        the bidding so far) the pass is played out: the seats still to bid bid as the heuristic
        does (the cheapest bid their quick count reaches, broken with a weak hand), the highest
        bid's declarer takes the agari and discards, and the deal is solved; each of the bot's
        own bids is solved with the bot as declarer.  Each is scored as the deal's points for the
        bot's team (``BID_MARGIN`` tricks off the declarer, as in the bidding); the best mean
        over the same deals, broken unless another is higher."""
        legal = view.legal_actions
        bids = [a for a in legal if isinstance(a, Bid)]
        passing = next(a for a in legal if isinstance(a, Pass))
        assert view.seat is not None
        me = view.seat
        hand = [c.id for c in view.hand]
        mine = _mask(hand)
        pool = [c for c in DECK_IDS if not mine >> c & 1]
        ranked = sorted({b.strain for b in bids}, key=lambda s: -estimate_tricks(view.hand, s))[
            : self.level.bid_strains
        ]
        high, high_seat, later = _bidding_so_far(view.bids, me)
        values: dict[Action, float] = {broken: 0.0, passing: 0.0}
        for b in bids:
            if b.strain in ranked:
                values[b] = 0.0
        deals = self._others(pool, me, rng, self.level.bid_samples)
        trace = self.trace
        if trace is not None:
            trace.start("bid", "points", "tricks")
            trace.add(broken, 0.0, by_rule=True)
        for hands, agari in deals:
            h = list(hands)
            h[me] = mine
            u, t = pass_outcome(h, agari, me, high, high_seat, later, self.level.bid_nodes)
            values[passing] += u
            if trace is not None:
                trace.add(passing, u, t)
            tricks: dict[str, float] = {}
            for strain in ranked:
                si = STRAINS.index(strain)
                eleven = hand + [agari]
                h = list(hands)
                h[me] = _mask(c for c in eleven if c != quick_negri(eleven, si))
                pos = MeitoraPosition(si, tuple(h), me, (), NO_SUIT, me)  # type: ignore[arg-type]
                tricks[strain] = pos.estimate(self.level.bid_nodes, guess=8) - BID_MARGIN
            for b in bids:
                if b.strain in tricks:
                    u = deal_points(b.count, tricks[b.strain])
                    values[b] += u
                    if trace is not None:
                        trace.add(b, u, tricks[b.strain], b.count)
        if trace is not None:
            trace.resolve({a: a for a in values})
        best: Action = broken
        for a, v in values.items():
            if v > values[best]:
                best = a
        return best

    # -- negri -------------------------------------------------------------------------------
    def _discard(self, view: MeitoraView, rng: random.Random) -> Action:
        legal = [a for a in view.legal_actions if isinstance(a, Discard)]
        assert view.contract is not None and view.seat is not None
        si = STRAINS.index(view.contract.strain)
        me = view.seat
        hand = [c.id for c in view.hand]
        ranked = sorted(hand, key=lambda c: _negri_badness(hand, c, si))
        candidates = ranked[: self.level.discard_candidates]
        mine = _mask(hand)
        pool = [c for c in DECK_IDS if not mine >> c & 1]
        count = view.contract.count
        totals = {c: 0.0 for c in candidates}
        counts: dict[int, list[float]] = {c: [] for c in candidates}
        for hands, _ in self._others(pool, me, rng, self.level.discard_samples):
            for c in candidates:
                h = list(hands)
                h[me] = mine & ~(1 << c)
                pos = MeitoraPosition(si, tuple(h), me, (), NO_SUIT, me)  # type: ignore[arg-type]
                t = pos.estimate(self.level.discard_nodes, guess=count)
                totals[c] += deal_points(count, t) + 0.01 * t
                counts[c].append(t)
        if self.level.temperature > 0:
            best = pick(candidates, lambda c: totals[c] / self.level.discard_samples, self.level.temperature, rng)
        else:
            best = max(candidates, key=lambda c: (totals[c], -candidates.index(c)))
        if self.trace is not None:
            self.trace.start("discard", "points", "tricks")
            for c, ts in counts.items():
                for t in ts:
                    self.trace.add(c, deal_points(count, t), t)
            self.trace.resolve({a.cards[0].id: a for a in legal})
        return next(a for a in legal if a.cards[0].id == best)


def _deal_others(pool: list[int], me: int, rng: random.Random) -> list[int]:
    """Shuffle ``pool`` (the cards ``me`` does not hold) and deal ten to each other seat, in
    seat order; the rest of ``pool`` is what they left (the agari first)."""
    rng.shuffle(pool)
    hands = [0, 0, 0, 0]
    for i, s in enumerate(s for s in range(4) if s != me):
        hands[s] = _mask(pool[10 * i : 10 * i + 10])
    return hands


def _negri_badness(hand: list[int], c: int, si: int) -> tuple[int, int, int]:
    """The heuristic bot's order of discards: low cards of short side suits first, never a
    trump or the joker unless nothing else."""
    eff = EFF_SUIT[si]
    trump = TRUMP_OF_STRAIN[STRAINS[si]]
    counts: dict[int, int] = {}
    for x in hand:
        counts[eff[x]] = counts.get(eff[x], 0) + 1
    s = eff[c]
    if c == JOKER_ID or s == trump:
        return (1, 0, -STRENGTH[si][trump if trump is not None else 0][c])
    rank = c % 13 + 2
    return (0, counts[s] if rank < 14 else 99, rank)


def quick_negri(hand: list[int], si: int) -> int:
    return min(hand, key=lambda c: _negri_badness(hand, c, si))


def claim_is_provable(view: MeitoraView, memory: MeitoraMemory) -> bool:
    """Does a claim by this seat hold for every deal consistent with what it has seen?  (Only
    on lead; see the module docstring.)"""
    if view.trick is not None and view.trick.plays:
        return False
    if view.contract is None or not view.hand:
        return False
    si = STRAINS.index(view.contract.strain)
    eff = EFF_SUIT[si]
    trump = TRUMP_OF_STRAIN[view.contract.strain]
    mine = [c.id for c in view.hand]
    seen = _mask(mine) | _mask(memory.played)
    if view.negri is not None:
        seen |= 1 << view.negri.id
    unseen = [c for c in DECK_IDS if not seen >> c & 1]
    if JOKER_ID in unseen:
        return False
    top: dict[int, int] = {}
    for c in unseen:
        s = eff[c]
        v = STRENGTH[si][s][c]
        top[s] = max(top.get(s, -1), v)
    if trump is not None:
        my_trumps = [c for c in mine if eff[c] == trump]
        their_trumps = [c for c in unseen if eff[c] == trump]
        if their_trumps:
            if len(my_trumps) < len(their_trumps):
                return False
            if any(STRENGTH[si][trump][c] < top[trump] for c in my_trumps):
                return False
    for c in mine:
        s = eff[c]
        if c == JOKER_ID or s == trump:
            continue
        if STRENGTH[si][s][c] < top.get(s, -1):
            return False
    return True


# --------------------------------------------------------------------------------------------
# The oracle: the same decisions with the real cards


ORACLE_NODES = 2_000_000
"""The oracle's budget for playing out a pass in a broken decision (a whole deal)."""


class MeitoraOracle:
    def choose_state(self, state: GameState, rng: random.Random) -> Action:
        assert isinstance(state, MeitoraState)
        legal = state.legal_actions()
        seat = state.to_act
        assert seat is not None
        if state.phase is Phase.PLAY:
            return self._play(state, legal, seat)
        if state.phase is Phase.DISCARD:
            return self._discard(state, legal, seat)
        return self._bid(state, legal, seat)

    def _play(self, state: MeitoraState, legal: tuple[Action, ...], seat: int) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        if any(isinstance(a, Claim) for a in legal) and state._claim_is_valid(seat):
            return CLAIM
        if len(plays) == 1:
            return plays[0]
        pos = position_of(state)
        values = pos.move_values()
        team = pos.declarer % 2
        sign = 1 if seat % 2 == team else -1
        taken = state.team_tricks[team]
        assert state.contract is not None
        count = state.contract.count

        def utility(a: Play) -> float:
            y = taken + values[(a.card.id, a.request)]
            return sign * (deal_points(count, y) + 0.01 * y)

        return max(plays, key=utility)

    def _discard(self, state: MeitoraState, legal: tuple[Action, ...], seat: int) -> Action:
        assert state.contract is not None
        si = STRAINS.index(state.contract.strain)
        hands = list(state._hands)
        best: Action = legal[0]
        best_t = -1
        for a in legal:
            assert isinstance(a, Discard)
            h = list(hands)
            h[seat] &= ~(1 << a.cards[0].id)
            t = MeitoraPosition(si, tuple(h), seat, (), NO_SUIT, seat).value(  # type: ignore[arg-type]
                guess=state.contract.count
            )
            if t > best_t:
                best, best_t = a, t
        return best

    def _bid(self, state: MeitoraState, legal: tuple[Action, ...], seat: int) -> Action:
        forced, bids, passing = _bidding_choices(legal)
        best: Action = passing
        best_pts = 0.0
        if isinstance(forced, Broken):  # broken (0), or the pass played out on the real deal
            bids = [a for a in legal if isinstance(a, Bid)]
            passing = next(a for a in legal if isinstance(a, Pass))
            high, high_seat, later = _bidding_so_far(state.view(seat).bids, seat)
            best, best_pts = forced, 0.0
            u, _ = pass_outcome(list(state._hands), state._agari, seat, high, high_seat, later, ORACLE_NODES, 0.0)
            if u > best_pts:
                best, best_pts = passing, u
        elif forced is not None:
            return forced
        hand = list(ids_of(state._hands[seat]))
        eleven = hand + [state._agari]
        for strain in {b.strain for b in bids}:
            si = STRAINS.index(strain)
            h = list(state._hands)
            h[seat] = _mask(c for c in eleven if c != quick_negri(eleven, si))
            t = MeitoraPosition(si, tuple(h), seat, (), NO_SUIT, seat).value(guess=8)  # type: ignore[arg-type]
            for b in bids:
                if b.strain == strain and deal_points(b.count, t) > best_pts:
                    best, best_pts = b, deal_points(b.count, t)
        return best


def pass_outcome(
    hands: list[int],
    agari: int,
    me: int,
    high: Bid | None,
    high_seat: int | None,
    later: list[int],
    nodes: int,
    margin: float = BID_MARGIN,
) -> tuple[float, float]:
    """The deal's points for ``me``'s team in a deal (every hand and the agari) where ``me``
    passes and the seats in ``later`` bid as the heuristic does (the cheapest bid stronger than
    ``high`` that the quick count reaches; broken with a weak hand), and the declaring team's
    tricks (``BID_MARGIN`` off the solver's estimate)."""
    h = list(hands)
    for seat in later:
        if _weak_mask(h[seat]):
            return 0.0, 0.0  # that seat declares broken: the deal is redone
        cards = tuple(CARDS[c] for c in DECK_IDS if h[seat] >> c & 1)
        choice: Bid | None = None
        for strain in STRAINS:
            reach = estimate_tricks(cards, strain) + PARTNER_TRICKS
            for count in range(6, 11):
                b = Bid(count, strain)
                if count <= reach and _stronger(b, high):
                    if choice is None or (count, STRAINS.index(strain)) < (
                        choice.count,
                        STRAINS.index(choice.strain),
                    ):
                        choice = b
                    break
        if choice is not None:
            high, high_seat = choice, seat
    if high is None or high_seat is None:
        return 0.0, 0.0  # all pass: no points
    si = STRAINS.index(high.strain)
    eleven = [c for c in DECK_IDS if h[high_seat] >> c & 1] + [agari]
    h[high_seat] = _mask(c for c in eleven if c != quick_negri(eleven, si))
    pos = MeitoraPosition(si, tuple(h), high_seat, (), NO_SUIT, high_seat)  # type: ignore[arg-type]
    t = pos.estimate(nodes, guess=high.count) - margin
    sign = 1 if high_seat % 2 == me % 2 else -1
    return sign * deal_points(high.count, t), t


def _bidding_so_far(bids: tuple[tuple[int, Action], ...], me: int) -> tuple[Bid | None, int | None, list[int]]:
    """The highest bid so far, its seat, and the seats still to bid after ``me``."""
    high: Bid | None = None
    high_seat: int | None = None
    for seat, a in bids:
        if isinstance(a, Bid):
            high, high_seat = a, seat
    return high, high_seat, [(me + i) % 4 for i in range(1, 4 - len(bids))]


def _stronger(bid: Bid, high: Bid | None) -> bool:
    """Is ``bid`` stronger than the highest bid so far (a higher count, or the same count in a
    stronger strain)?"""
    if high is None:
        return True
    return (bid.count, STRAINS.index(bid.strain)) > (high.count, STRAINS.index(high.strain))


def _bidding_choices(legal: tuple[Action, ...]) -> tuple[Action | None, list[Bid], Action]:
    """A bidding turn's choices: the action to take without thinking (broken, declared
    whenever the hand allows it; a pass when no bid is left), the legal bids, and the pass."""
    broken = next((a for a in legal if isinstance(a, Broken)), None)
    if broken is not None:
        return broken, [], broken
    bids = [a for a in legal if isinstance(a, Bid)]
    passing = next(a for a in legal if isinstance(a, Pass))
    return (None if bids else passing), bids, passing


register_search("meitora", MeitoraSearch, MeitoraOracle)
