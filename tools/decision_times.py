"""CPU time of the search bot's rarer decisions, those a few benchmark deals seldom reach.

    python tools/decision_times.py [--positions N] [--bot search]

Positions are made on purpose (random deals, seeded): Meitora, a weak hand at its bidding turn
(broken, pass or bid); Kakeya, the dealing pair's trump and the leading pair's leader; Napoleon,
an answer to a re-declaration (seat 0 declares 13 spades, names the strongest card it lacks,
discards and proposes 14 or 15 in a random suit).  Printed per decision: median, 95th
percentile and largest CPU seconds of one decision (``time.process_time``: one core).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Callable

from kirifuda.actions import Bid, Discard, Pass
from kirifuda.bots import make_bot
from kirifuda.bots.search_napoleon import adjutant_wishes
from kirifuda.cards import CARDS
from kirifuda.games.kakeya import ChooseTrump, KakeyaOptions, KakeyaState
from kirifuda.games.meitora import Broken, MeitoraState
from kirifuda.games.napoleon import Adjutant, NapoleonOptions, NapoleonState, Phase, Redeclare


def meitora_broken(seed: int) -> tuple[object, object]:
    rng = random.Random(seed)
    while True:
        s = MeitoraState()
        s.deal_random(rng)
        for _ in range(4):
            seat = s.to_act
            if seat is None or s.phase.value != "bidding":
                break
            legal = s.legal_actions()
            if any(isinstance(a, Broken) for a in legal):
                return s, s.view(seat)
            s.apply(Pass() if rng.random() < 0.7 else next(a for a in legal if isinstance(a, (Bid, Pass))))


def kakeya_trump(seed: int) -> tuple[object, object]:
    s = KakeyaState(KakeyaOptions())
    s.deal_random(random.Random(seed))
    seat = s.to_act
    assert seat is not None
    return s, s.view(seat)


def kakeya_leader(seed: int) -> tuple[object, object]:
    s = KakeyaState(KakeyaOptions())
    s.deal_random(random.Random(seed))
    s.apply(ChooseTrump(None))
    seat = s.to_act
    assert seat is not None
    return s, s.view(seat)


def napoleon_approve(seed: int) -> tuple[object, object]:
    rng = random.Random(seed)
    s = NapoleonState(NapoleonOptions(), first=0)
    s.deal_random(rng)
    s.apply(Bid(13, "S"))
    for _ in range(5):
        s.apply(Pass())
    mine = sum(1 << c.id for c in s.hand(0))
    s.apply(Adjutant(CARDS[(adjutant_wishes(mine, 0) or [12])[0]]))
    middle = s.view(0).middle
    s.apply(Discard(tuple(sorted(middle, key=lambda c: c.id))))
    s.apply(Redeclare(rng.choice([14, 15]), rng.choice("SHDC")))
    assert s.phase is Phase.APPROVE
    seat = s.to_act
    assert seat is not None
    return s, s.view(seat)


DECISIONS: dict[str, tuple[str, Callable[[int], tuple[object, object]]]] = {
    "meitora broken": ("meitora", meitora_broken),
    "kakeya trump": ("kakeya", kakeya_trump),
    "kakeya leader": ("kakeya", kakeya_leader),
    "napoleon approve": ("napoleon", napoleon_approve),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--bot", default="search")
    args = parser.parse_args()
    print(f"{'decision':<18} {'n':>3} {'median':>8} {'p95':>8} {'max':>8}  (CPU s, {args.bot})")
    for name, (game, make) in DECISIONS.items():
        times = []
        for seed in range(args.positions):
            _, view = make(seed)
            bot = make_bot(args.bot, game)
            t = time.process_time()
            bot.choose(view, random.Random(seed))  # type: ignore[arg-type]
            times.append(time.process_time() - t)
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{name:<18} {len(times):>3} {statistics.median(times):>8.3f} {p95:>8.3f} {times[-1]:>8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
