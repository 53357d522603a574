"""Compare builds of the solver's C core (``_csolver*.so``) on the bench's positions, timed the
way ``kirifuda bench`` times them.  For work on the solver (not part of the package)::

    python tools/solver_ab.py OLD.so NEW.so [--positions meitora|meitora-b|bridge] [--rounds 4] [--call value|moves]

Why this way (each measured on the solver's sets; ``docs/benchmarks.md`` keeps the figures):

- each build runs in a process of its own: two builds loaded in one process time 3–5% apart
  even when they are one and the same library;
- each position is solved once per pass, as the bench solves it: a position solved again just
  after itself is about 13% faster (caches and branch predictor already trained), so repeats
  in a row measure something the bench never sees;
- per position the least of the passes; rounds alternate the builds, and each build's figures
  are the mean over its rounds;
- each process loads a fresh copy of its build (a new file): where a library's pages happen to lie
  in memory (the page cache) moved its time by up to 13% — one file of a build took 0.97 ms at the
  median where byte-identical copies of it took 0.84–0.85 ms, round after round — so a build
  measured from one file carries that file's luck; fresh copies spread it over the rounds.

Positions: ``meitora`` — the bench's 200 full deals at the first trick (seed 0);
``meitora-b`` — 200 others (seed 1: check every gain there too); ``bridge`` — bridge deals after
three tricks of random legal play under plain trick rules, as the bench gives DDS.  Printed per
build: the median and total CPU time, the ratio to the first build, the nodes, and whether every
value equals the first build's (a difference is a bug in one of them).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _bridge_positions(n: int, seed: int) -> list[tuple[Any, list[int], int, int]]:
    from kirifuda.solver.rules import NO_SUIT, plain_trick_rules

    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[13 * p : 13 * p + 13]) for p in range(4)]
        rules = plain_trick_rules(rng.randrange(5))
        leader = rng.randrange(4)
        for _ in range(3):
            trick: list[int] = []
            led = NO_SUIT
            for k in range(4):
                seat = (leader + k) % 4
                legal = rules.legal_mask(hands[seat], k, led)
                c = rng.choice([c for c in range(52) if legal >> c & 1])
                if k == 0:
                    led = rules.eff[c]
                hands[seat] ^= 1 << c
                trick.append(c)
            leader = (leader + rules.winner(trick, led)) % 4
        out.append((rules, hands, leader, 0b0101 << (leader % 2)))
    return out


def positions(kind: str, n: int) -> list[tuple[Any, list[int], int, int]]:
    """``(rules, hands, leader, maxside)`` of each position of the set ``kind``."""
    if kind == "bridge":
        return _bridge_positions(n, 0)
    from kirifuda.solver.bench import meitora_first_trick_states
    from kirifuda.solver.meitora import position_of

    out = []
    for state in meitora_first_trick_states(n, 0 if kind == "meitora" else 1):
        pos = position_of(state)
        out.append((pos.rules, list(pos.hands), pos.leader, pos.maxside))
    return out


def _worker(build: str, kind: str, n: int, passes: int, call: str = "value") -> None:
    """In a process of its own: load ``build`` as the solver's core before any rules are
    compiled (a compiled rules object belongs to the build that made it), solve every position
    once per pass (``call``: ``value`` — ``solve``; ``moves`` — ``solve_moves``, every first
    choice's value), print the least time per position, the nodes and the values."""
    from kirifuda.solver import _core

    spec = importlib.util.spec_from_file_location("_csolver", build)
    assert spec is not None and spec.loader is not None
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    _core.csolver = core
    items = [(rules.compiled(), hands, leader, side) for rules, hands, leader, side in positions(kind, n)]
    times = [float("inf")] * len(items)
    nodes: list[int] = []
    values: list[Any] = []
    for p in range(passes):
        for i, (cap, hands, leader, side) in enumerate(items):
            t0 = time.process_time()
            if call == "moves":
                res, count = core.solve_moves(cap, hands, leader, [], 0, side, -1, 0)
                value: Any = sorted(res)
            else:
                value, _, count = core.solve(cap, hands, leader, [], 0, side, -1, 0)
            times[i] = min(times[i], time.process_time() - t0)
            if p == 0:
                nodes.append(count)
                values.append(value)
    print(json.dumps({"times": times, "nodes": nodes, "values": values}))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("builds", nargs="+", help="the builds' .so files; the first is the reference")
    ap.add_argument("--positions", choices=("meitora", "meitora-b", "bridge"), default="meitora")
    ap.add_argument("-n", type=int, default=200, help="how many positions")
    ap.add_argument("--rounds", type=int, default=4, help="processes per build, alternating")
    ap.add_argument("--passes", type=int, default=3, help="solves of each position per process")
    ap.add_argument(
        "--call",
        choices=("value", "moves"),
        default="value",
        help="value: the position's value (solve); moves: every first choice's (solve_moves)",
    )
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        _worker(args.builds[0], args.positions, args.n, args.passes, args.call)
        return 0
    for build in args.builds:
        if not Path(build).is_file():
            ap.error(f"no such build: {build}")
    runs: list[list[dict[str, Any]]] = [[] for _ in args.builds]  # a build may be given twice (noise)
    order = list(range(len(args.builds)))
    with tempfile.TemporaryDirectory(prefix="solver_ab_") as tmp:
        for r in range(args.rounds):
            for k in order if r % 2 == 0 else reversed(order):
                copy = Path(tmp) / f"r{r}_b{k}_{Path(args.builds[k]).name}"
                shutil.copyfile(args.builds[k], copy)  # a fresh file: fresh pages
                out = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        str(copy),
                        "--worker",
                        "--positions",
                        args.positions,
                        "-n",
                        str(args.n),
                        "--passes",
                        str(args.passes),
                        "--call",
                        args.call,
                    ],
                    capture_output=True,
                    text=True,
                    cwd=ROOT,
                )
                copy.unlink()
                if out.returncode:
                    print(f"{args.builds[k]}: the worker failed:\n{out.stderr}", file=sys.stderr)
                    return 1
                runs[k].append(json.loads(out.stdout))
    ref = runs[0]
    ref_median = statistics.mean(statistics.median(x["times"]) for x in ref)
    ref_total = statistics.mean(sum(x["times"]) for x in ref)
    for build, rs in zip(args.builds, runs):
        median = statistics.mean(statistics.median(x["times"]) for x in rs)
        total = statistics.mean(sum(x["times"]) for x in rs)
        same = all(x["values"] == ref[0]["values"] for x in rs)
        print(
            f"{Path(build).name:24s} median {median * 1e3:.3f} ms ({median / ref_median:.3f})  "
            f"total {total:.3f} s ({total / ref_total:.3f})  nodes {sum(rs[0]['nodes'])}  "
            f"values {'the same' if same else 'DIFFER'}"
        )
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
