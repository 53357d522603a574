"""Unsun's part of the search bot and of the oracle (うんすんかるた).

What the seat knows (all from its view: Unsun's completed tricks lie face up, so the view itself
is the memory): its hand, the indicator, every card of the completed tricks and who played it,
the face-up cards of the trick in progress, which seats played a face-down card into it (差し:
the trump A K Q J, or every trump with ``all_trumps_face_down``), each hand's size, and who held
♣J (テンカ): the first trick's last player holds it, or, when that is the dealer, the dealer or
the left-over cards do.  What it samples: the unseen cards dealt at random to the other hands,
to the face-down cards of the trick (each a face-down-able trump) and to the hidden left-over
cards, respecting the ♣J clue.  There is no must-follow, so no voids are ever shown.

How it decides a card (flat Monte Carlo over determinized deals, "PIMC"):

- its legal cards in classes of equivalent cards *as the seat sees them* (one group, no unseen
  card or card of the trick in progress ranked between or tied with them): one choice per class;
- for each of ``worlds`` sampled deals, each choice is played and the deal played out to
  its end by a fast greedy policy (:func:`rollout`) for every seat, all hands open; when at
  most ``exact_tricks`` tricks are left the ending is instead solved exactly by the
  paranoid solver (:mod:`kirifuda.solver.unsun`);
- the value is the bot's own tricks (the game scores a deal by tricks; the match goes to the
  most tricks in total), averaged over the samples; the best average is played, a tie going to
  the cheaper card.

``docs/bots.md`` has the measurements that chose this design (rollouts rather than a
depth-limited solve early in the deal; exact endings) and the budgets of each level.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterator

from ..cards import ids_of
from ..actions import Action, Play
from ..game import GameState, View
from ..games.unsun import DEAL_SIZES, FACE_DOWN_MASKS, TENKA, UnsunState, UnsunView
from ..solver.unsun import RANK, Budget, UnsunPosition, tables, winner_index
from .inference import resample
from .inference_unsun import events_of, play_log_likelihood
from .search import Level, register_search
from .trace import Trace

__all__ = ["UnsunSearch", "UnsunOracle", "rollout", "sample_world", "view_classes"]


def _lowest(mask: int) -> int:
    """The lowest-ranked card of a mask (by rank, then id)."""
    best, best_r = -1, 99
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        if RANK[c] < best_r:
            best, best_r = c, RANK[c]
        mask ^= low
    return best


def _top_rank(mask: int) -> int:
    r = -1
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        if RANK[c] > r:
            r = RANK[c]
        mask ^= low
    return r


def policy(trump: int, hands: list[int], start: int, trick: list[int], n: int) -> int:
    """The rollout policy's card for the seat to act, all hands open (greedy, deterministic):

    - the last player (取り番) takes the trick with its cheapest winning card (non-trumps before
      trumps), else throws its lowest non-trump card;
    - an earlier player plays its lowest trump that no later trump of the trick can beat, else
      its lowest card sure to win the trick (no later trump, no later higher card of its group,
      and the last player unable to turn the trick to the other group), else throws."""
    t = tables(trump)
    gm = t.group_mask
    above = t.above
    pos = len(trick)
    seat = (start + pos) % n
    h = hands[seat]
    trumps = gm[0]
    tmax = -1
    best = [-1, -1, -1]
    for c in trick:
        g = t.group[c]
        if RANK[c] > best[g]:
            best[g] = RANK[c]
    tmax = best[0]
    if pos == n - 1:
        if tmax >= 0:
            win = h & above[0][tmax + 1]
        else:
            win = h & trumps
            for g in (1, 2):
                if best[g] >= 0:
                    win |= h & above[g][best[g] + 1]
        if win:
            plain = win & ~trumps
            return _lowest(plain if plain else win)
        plain = h & ~trumps
        return _lowest(plain if plain else h)
    later = 0
    for i in range(pos + 1, n):
        later |= hands[(start + i) % n]
    my_trumps = h & trumps
    if my_trumps:
        bar = max(tmax, _top_rank(later & trumps))
        sure = my_trumps & above[0][bar + 1]
        if sure:
            return _lowest(sure)
    plain = h & ~trumps
    if plain and tmax < 0 and not later & trumps:
        last = hands[(start + n - 1) % n]
        sure = 0
        for g in (1, 2):
            mine = plain & gm[g]
            if not mine:
                continue
            other = 3 - g
            # the last player could turn the trick to the other group
            if last & gm[other] and (best[other] >= 0 or n - pos > 2):
                continue
            bar = max(best[g], _top_rank(later & gm[g]))
            sure |= mine & above[g][bar + 1]
        if sure:
            return _lowest(sure)
    return _lowest(plain if plain else h)


EPS = 0.15
"""The chance that a rollout plays a uniformly random card instead of the policy's: a little
noise keeps the deterministic policy from locking every sample into one line of play (measured
over duplicate deals against ``heuristic``, 24 worlds: 0 → +0.31, 0.05 → +0.33/+0.39,
0.15 → +0.34, 0.3 → +0.33 points per deal: flat but never worse; ``docs/bots.md``)."""


def rollout(
    trump: int,
    hands: list[int],
    start: int,
    trick: list[int],
    n: int,
    me: int,
    rand: "Callable[[], float] | None" = None,
) -> int:
    """``me``'s tricks from here to the end of the deal with every seat playing :func:`policy`
    (``hands`` and ``trick`` are consumed)."""
    got = 0
    while True:
        while len(trick) < n:
            seat = (start + len(trick)) % n
            if rand is not None and rand() < EPS:
                cards = list(ids_of(hands[seat]))
                c = cards[int(rand() * len(cards))]
            else:
                c = policy(trump, hands, start, trick, n)
            hands[seat] ^= 1 << c
            trick.append(c)
        w = (start + winner_index(trick, trump)) % n
        if w == me:
            got += 1
        trick = []
        start = w
        if not hands[w]:
            return got


def view_classes(view: UnsunView) -> list[list[int]]:
    """The seat's legal cards in classes of cards equivalent whatever the unseen cards are: one
    group, and no card that is unseen or in the trick in progress ranked between or tied with
    them.  Each class lowest card first; the classes cheapest first."""
    assert view.trump is not None
    t = tables(view.trump.index)
    hand = 0
    for card in view.hand:
        hand |= 1 << card.id
    gone = 0
    for trick, _ in view.tricks:
        for card in trick.cards:
            gone |= 1 << card.id
    live = ((1 << 52) - 1) & ~hand & ~gone  # unseen, the indicator, and the trick's cards
    if view.indicator is not None:
        live &= ~(1 << view.indicator.id)
    out: list[list[int]] = []
    for g in (1, 2, 0):
        mine = sorted(ids_of(hand & t.group_mask[g]), key=RANK.__getitem__)
        if not mine:
            continue
        ranks = 0
        for c in ids_of(live & t.group_mask[g]):
            ranks |= 1 << RANK[c]
        cls = [mine[0]]
        for c in mine[1:]:
            lo, hi = RANK[cls[-1]], RANK[c]
            if ranks >> lo << lo & ((1 << (hi + 1)) - 1):
                out.append(cls)
                cls = [c]
            else:
                cls.append(c)
        out.append(cls)
    return out


def sample_world(
    view: UnsunView, rng: random.Random, all_face_down: bool = False
) -> tuple[list[int], list[int]] | None:
    """A deal consistent with the view: every hand (masks, seat order) and the trick in progress
    with its face-down cards filled in; ``None`` if no deal fits (it always does for a real view)."""
    assert view.seat is not None and view.trump is not None and view.indicator is not None
    n = view.players
    me = view.seat
    trump = view.trump.index
    hand = 0
    for card in view.hand:
        hand |= 1 << card.id
    seen = hand | 1 << view.indicator.id
    played_by: dict[int, int] = {}
    for trick, _ in view.tricks:
        for s, played in trick.plays:
            seen |= 1 << played.id
            played_by[played.id] = s
    for s, shown in view.trick:
        if shown is not None:
            seen |= 1 << shown.id
            played_by[shown.id] = s
    pool = [c for c in range(52) if not seen >> c & 1]
    hidden_rest = DEAL_SIZES[n][1] - 1
    sizes = {s: view.hand_sizes[s] for s in range(n) if s != me}
    fd_mask = FACE_DOWN_MASKS[trump][int(all_face_down)]
    if not any(fd_mask >> c & 1 for c in pool):
        fd_mask = FACE_DOWN_MASKS[trump][1]  # every A K Q J of trump seen: the rule must be on
    down_seats = [s for s, c in view.trick if c is None]
    # ♣J (テンカ): who held it
    tenka_seat: int | None = None
    tenka_or_rest = False
    if not seen >> TENKA & 1:  # (not in hand, not played, not the indicator)
        first_start = view.tricks[0][0].leader if view.tricks else view.starting_player
        assert first_start is not None
        first_last = (first_start - 1) % n
        if first_last != view.dealer:
            tenka_seat = first_last
        elif view.dealer != me:
            tenka_or_rest = True
            tenka_seat = view.dealer
        else:
            tenka_seat = -1  # among the left-over cards
    for _ in range(50):
        order = pool[:]
        rng.shuffle(order)
        hands = [0] * n
        hands[me] = hand
        trick_fill: dict[int, int] = {}
        ok = True
        # the face-down cards of the trick first (face-down-able trumps), then ♣J, then the rest
        for s in down_seats:
            # ♣J is a face-down card under a ♣ trump: only its holder can have played it
            choices = [
                c
                for c in order
                if fd_mask >> c & 1
                and c not in trick_fill.values()
                and (c != TENKA or tenka_seat is None or s == tenka_seat)
            ]
            if not choices:
                ok = False
                break
            trick_fill[s] = choices[0]
        if not ok:
            return None
        used = set(trick_fill.values())
        rest_cards: list[int] = []
        cap = dict(sizes)
        if tenka_seat is not None and TENKA not in used:
            target = tenka_seat
            if tenka_or_rest:
                w_seat, w_rest = cap[tenka_seat], hidden_rest
                target = tenka_seat if rng.randrange(w_seat + w_rest) < w_seat else -1
            if target == -1:
                rest_cards.append(TENKA)
            else:
                if cap[target] <= 0:
                    continue
                hands[target] |= 1 << TENKA
                cap[target] -= 1
            used.add(TENKA)
        free = [c for c in order if c not in used]
        i = 0
        for s in range(n):
            if s == me:
                continue
            k = cap[s]
            for c in free[i : i + k]:
                hands[s] |= 1 << c
            i += k
        if len(free) - i != hidden_rest - len(rest_cards):
            ok = False
        if not ok:
            continue
        cards = [trick_fill[s] if c is None else c.id for s, c in view.trick]
        return hands, cards
    return None


@dataclass(frozen=True)
class UnsunBudget:
    """Unsun's search budgets per level (work, not time): Unsun has no must-follow, so its
    search samples deals and plays them out rather than solving each (the generic
    :class:`~.search.Level` budgets samples and solves)."""

    worlds: int
    """Deals sampled for a card decision (each choice played out in each)."""
    exact_tricks: int
    """At most this many tricks left, the samples are solved exactly (paranoid)."""
    nodes: int
    """Search nodes per exact solve (over budget: the rollout instead)."""
    rollouts: int = 1
    """Rollouts per choice per sampled deal."""


UNSUN_BUDGETS: dict[str, UnsunBudget] = {
    "easy": UnsunBudget(worlds=6, exact_tricks=1, nodes=5_000),
    "normal": UnsunBudget(worlds=64, exact_tricks=3, nodes=200_000, rollouts=2),
    "strong": UnsunBudget(worlds=128, exact_tricks=3, nodes=200_000, rollouts=4),
}
"""Per level name (the levels of :data:`~.search.LEVELS`).  ``normal`` has the budgets that were
``strong``'s (ahead of the old ``normal`` by 0.077 points a deal over 1,000 deals, at a decision
p95 of 0.1 s: far under the 1 s bar); ``strong`` doubles them."""
UNSUN_BUDGETS["v1"] = UnsunBudget(worlds=24, exact_tricks=2, nodes=20_000)
"""``search:v1``: the first search bot's budgets (the old ``normal``), no inference."""


class UnsunSearch:
    def __init__(self, level: Level) -> None:
        self.level = level
        self.budget = UNSUN_BUDGETS[level.name]
        self.all_face_down: bool | None = None
        """Whether every trump is played face down (the table's rule): learnt from what is seen
        (a trump below J face down, or any trump face up), the default (off) until then."""
        self._down: tuple[int, ...] = ()
        self.trace: Trace | None = None

    def observe(self, view: View) -> None:
        """The view holds everything the seat has seen (completed tricks are public); only the
        table's face-down rule is learnt from it."""
        assert isinstance(view, UnsunView)
        if view.trump is None:
            return
        trump = view.trump.index
        if view.last_trick is not None and self._down:
            for s, c in view.last_trick.plays:
                if s in self._down and c.id // 13 == trump and RANK[c.id] < 9:
                    self.all_face_down = True
        for s, card in view.trick:
            if card is not None and card.id // 13 == trump:
                if s not in view.face_down:
                    self.all_face_down = False  # a trump played face up
                elif RANK[card.id] < 9:
                    self.all_face_down = True  # (its own) trump below J face down
        self._down = tuple(view.face_down)

    def choose(self, view: View, rng: random.Random) -> Action:
        assert isinstance(view, UnsunView) and view.trump is not None and view.seat is not None
        plays = {a.card.id: a for a in view.legal_actions if isinstance(a, Play)}
        classes = view_classes(view)
        if len(classes) == 1:
            return plays[classes[0][0]]
        reps = [cls[0] for cls in classes]
        n = view.players
        me = view.seat
        trump = view.trump.index
        start = view.starting_player
        assert start is not None
        left = view.hand_sizes[me]
        lv = self.budget
        totals = dict.fromkeys(reps, 0.0)
        trace = self.trace
        if trace is not None:
            trace.start("play", "tricks", "tricks", "self")
        for hands, trick in self._worlds(view, rng):
            target = totals if trace is None else dict.fromkeys(reps, 0.0)
            totals_add(
                target, reps, trump, hands, start, trick, n, me, left <= lv.exact_tricks, lv.nodes, lv.rollouts, rng
            )
            if trace is not None:
                for c in reps:
                    totals[c] += target[c]
                    trace.add(c, target[c], view.tricks_won[me] + target[c])
        best = max(reps, key=lambda c: (totals[c], -_cost(c, trump)))
        if trace is not None:
            trace.resolve({c: plays[c] for c in reps})
        return plays[best]

    def _worlds(self, view: UnsunView, rng: random.Random) -> Iterator[tuple[list[int], list[int]]]:
        """The sampled deals of a decision, drawn as they are used; where the level infers,
        drawn by their likelihood (:mod:`.inference_unsun`) from a pool ``inference_pool`` times
        larger."""
        assert view.seat is not None and view.trump is not None
        k = self.budget.worlds
        n = k * self.level.inference_pool
        down = bool(self.all_face_down)
        if n <= k:
            for _ in range(k):
                world = sample_world(view, rng, down)
                if world is not None:
                    yield world
            return
        pool = [w for w in (sample_world(view, rng, down) for _ in range(n)) if w is not None]
        events = events_of(view, down)
        weights = [play_log_likelihood(h, t, view.seat, events, view.trump.index) for h, t in pool]
        for i in resample(weights, k, rng):
            yield pool[i]


def _cost(c: int, trump: int) -> int:
    return RANK[c] + (13 if tables(trump).group[c] == 0 else 0)


def totals_add(
    totals: dict[int, float],
    reps: list[int],
    trump: int,
    hands: list[int],
    start: int,
    trick: list[int],
    n: int,
    me: int,
    exact: bool,
    nodes: int,
    rollouts: int = 1,
    rng: random.Random | None = None,
) -> None:
    """Add each choice's value in one deal: exact (paranoid solve) or the mean of ``rollouts``
    policy rollouts (the same random numbers for every choice)."""
    if exact:
        pos = UnsunPosition(trump=trump, hands=tuple(hands), start=start, trick=tuple(trick), me=me)
        try:
            values = pos.move_values(nodes)
        except Budget:
            values = None
        if values is not None:
            for c in reps:
                totals[c] += values[c]
            return
    seeds = [rng.random() if rng is not None and EPS > 0 else None for _ in range(rollouts)]
    for c in reps:
        for seed in seeds:
            h = hands[:]
            h[me] ^= 1 << c
            tr = trick + [c]
            got = 0
            s = start
            if len(tr) == n:
                w = (s + winner_index(tr, trump)) % n
                got = 1 if w == me else 0
                s, tr = w, []
                if not h[w]:
                    totals[c] += got / rollouts
                    continue
            rand = random.Random(seed).random if seed is not None else None
            totals[c] += (got + rollout(trump, h, s, tr, n, me, rand)) / rollouts


class UnsunOracle:
    """The same decision on the real deal (every card seen): exact when at most
    ``ORACLE_EXACT`` tricks are left, else ``ORACLE_ROLLOUTS`` rollouts per choice on the true
    cards (with the search's random plays: one deterministic rollout judged each choice by a
    single line of play, and lost to ``search``)."""

    def choose_state(self, state: GameState, rng: random.Random) -> Action:
        assert isinstance(state, UnsunState)
        legal = [a for a in state.legal_actions() if isinstance(a, Play)]
        seat = state.to_act
        assert seat is not None
        if len(legal) == 1:
            return legal[0]
        n = state.num_players
        trump = state._trump
        reps = [a.card.id for a in legal]
        totals = dict.fromkeys(reps, 0.0)
        left = state._hands[seat].bit_count()
        totals_add(
            totals,
            reps,
            trump,
            list(state._hands),
            state._start,
            list(state._trick),
            n,
            seat,
            left <= ORACLE_EXACT,
            ORACLE_NODES,
            ORACLE_ROLLOUTS,
            rng,
        )
        best = max(reps, key=lambda c: (totals[c], -_cost(c, trump)))
        return next(a for a in legal if a.card.id == best)


ORACLE_EXACT = 4
ORACLE_NODES = 2_000_000
ORACLE_ROLLOUTS = 24

register_search("unsun", UnsunSearch, UnsunOracle)
