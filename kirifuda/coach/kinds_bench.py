"""How practice deals of a kind are dealt: ``python -m kirifuda.coach.kinds_bench [--deals N]``.

For every game and kind: the share of candidate deals for which the kind holds (the hit rate;
the chance that none of ``tries`` candidates holds is ``(1 - rate) ** tries``), the deals found
of the kind, and the time to deal one (every candidate tested, always: the CPU time of
:func:`kirifuda.coach.kinds.deal_of_kind`, median and max)."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from ..games import BUILTIN, GAMES
from .kinds import deal_kinds, deal_of_kind

__all__ = ["bench_kinds", "main"]


def bench_kinds(game_id: str, deals: int = 10, seed: int = 0) -> list[dict[str, Any]]:
    """The figures of each of the game's kinds over ``deals`` deals (seat 0 practising)."""
    info = GAMES[game_id]
    out = []
    for kind in deal_kinds(game_id):
        hits = tested = found = 0
        times: list[float] = []
        for d in range(deals):
            state = info.new_state(info.options({}))
            base = f"bench{seed}:{d}"
            t0 = time.process_time()
            dealt = deal_of_kind(state, kind, 0, base)
            times.append(time.process_time() - t0)
            found += dealt.found
            for i in range(kind.tries):  # the hit rate, candidate by candidate (not timed)
                cand = state.copy()
                cand.deal_random(random.Random(f"{base}:kind:{kind.key}:{i}"))
                hits += kind.holds(cand, 0, random.Random(f"{base}:kind:{kind.key}:{i}:bots"))
                tested += 1
        rate = hits / tested
        out.append(
            {
                "game": game_id,
                "kind": kind.key,
                "tries": kind.tries,
                "hit_rate": rate,
                "none_found_chance": (1 - rate) ** kind.tries,
                "found": found,
                "deals": deals,
                "median_ms": 1000 * statistics.median(times),
                "max_ms": 1000 * max(times),
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kirifuda.coach.kinds_bench", description=__doc__)
    p.add_argument("--deals", type=int, default=10, help="deals dealt per kind (default 10)")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    args = p.parse_args(argv)
    for game_id in args.game or BUILTIN:
        for r in bench_kinds(game_id, args.deals):
            print(
                f"{r['game']:9s} {r['kind']:12s} tries {r['tries']:3d}  hit rate {r['hit_rate']:.2f}"
                f"  none found {r['none_found_chance']:.1e}  found {r['found']}/{r['deals']}"
                f"  deal: median {r['median_ms']:.0f} ms, max {r['max_ms']:.0f} ms",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
