"""What was built, and how fast it runs (``kirifuda doctor``); the start-up notice where a C
core is missing.

kirifuda has two C extensions, each optional at install time (``setup.py``): the solver's
core (``kirifuda.solver._csolver``, used by every ``search`` bot and ``oracle``) and Meitora's
play core (``kirifuda.games._meitora_core``).  Without them kirifuda runs the pure-Python code
of the same algorithms: the same game, the same exact solver values, but far slower, and the
search bots' decisions are the same only where every solve ends within its node budget (the
Python solver is a plainer search: where a budget runs out, it has proved other bounds than the
C core at the same count).  ``kirifuda play``, ``serve`` and ``tournament`` say so once at
start-up (:func:`announce_fallback`); ``kirifuda doctor`` reports each core and measures it.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from dataclasses import asdict, dataclass
from typing import IO, Any

from . import __version__
from .i18n import add_terms, default_lang, t

__all__ = ["CoreStatus", "core_status", "fallback_notice", "announce_fallback", "measure", "main", "add_parser"]

add_terms(
    {
        "doctor.fallback": (
            "kirifuda: C コア {cores} がビルドされていません。純 Python で動きます (探索ボットは数百倍遅く、"
            "探索の上限に達する局面では C コアと違う手を選ぶことがあります)。詳しくは kirifuda doctor",
            "kirifuda: the C core {cores} was not built; running in pure Python (the search bots are "
            "hundreds of times slower, and where a solve reaches its node budget they may choose "
            "otherwise than the C core). Details: kirifuda doctor",
        ),
        "doctor.title": (
            "kirifuda {version} (Python {python}, {machine})",
            "kirifuda {version} (Python {python}, {machine})",
        ),
        "doctor.built": ("ビルド済み", "built"),
        "doctor.role.solver": ("ソルバーのコア: search ボットと oracle", "the solver's core: search bots, oracle"),
        "doctor.role.meitora": ("明専トランプの進行コア", "Meitora's play core"),
        "doctor.what.full_deal": ("明専トランプ 1 回分の完全解", "a Meitora full deal solved"),
        "doctor.what.ending": ("5 トリック残りの終盤", "a five-trick ending solved"),
        "doctor.missing": ("なし (純 Python): {why}", "missing (pure Python): {why}"),
        "doctor.bmi2": ("BMI2 版の探索を使用", "the BMI2 build of the search in use"),
        "doctor.portable": ("汎用版の探索を使用", "the portable build of the search in use"),
        "doctor.solver_speed": (
            "ソルバー ({core}): {what}、中央値 {ms:.2f} ms",
            "solver ({core}): {what}, median {ms:.2f} ms",
        ),
        "doctor.engine_speed": (
            "明専トランプのエンジン ({core}): 毎秒 {n:.0f} 回のランダム対局",
            "Meitora engine ({core}): {n:.0f} random playouts/s",
        ),
        "doctor.decision": (
            "search の 1 手 ({core}、手札 {cards} 枚): {s:.3f} 秒",
            "one search decision ({core}, {cards} cards in hand): {s:.3f} s",
        ),
        "doctor.fix": (
            "C コンパイラを入れて再インストールしてください: pip install -e .",
            "Install a C compiler and reinstall: pip install -e .",
        ),
    }
)


@dataclass(frozen=True)
class CoreStatus:
    """One C extension: whether it is in use, and if not, why."""

    name: str
    """The extension's module name."""
    role: str
    """What it does: a message key (``doctor.role.*``)."""
    built: bool
    why_missing: str | None


def core_status() -> list[CoreStatus]:
    """The two C extensions' status in this process."""
    from .games import meitora
    from .solver import _core

    return [
        CoreStatus("kirifuda.solver._csolver", "doctor.role.solver", _core.csolver is not None, _core.missing),
        CoreStatus("kirifuda.games._meitora_core", "doctor.role.meitora", meitora.HAS_C_CORE, meitora.C_CORE_MISSING),
    ]


def _solver_build() -> str | None:
    """Which build of the solver's search runs: ``"bmi2"`` (x86-64 CPUs with BMI1, BMI2 and
    LZCNT, under GCC), ``"portable"`` (elsewhere, or ``KIRIFUDA_SOLVER_NO_BMI2`` set), or
    ``None`` (no C solver)."""
    from .solver import _core

    if _core.csolver is None:
        return None
    return str(_core.csolver.build())


def fallback_notice(lang: str = "en") -> str | None:
    """The start-up notice where a C core is missing (``None`` where both are built)."""
    missing = [c.name for c in core_status() if not c.built]
    if not missing:
        return None
    return t("doctor.fallback", lang, cores=", ".join(missing))


_announced = False


def announce_fallback(lang: str | None = None, stream: IO[str] | None = None) -> bool:
    """Print :func:`fallback_notice` once per process (to standard error); whether it printed."""
    global _announced
    if _announced:
        return False
    notice = fallback_notice(lang or default_lang())
    if notice is None:
        return False
    _announced = True
    print(notice, file=stream if stream is not None else sys.stderr)
    return True


def measure(seed: int = 0, quick: bool = False) -> dict[str, Any]:
    """How fast the cores in use run, in a few seconds at most: the solver on Meitora (full deals
    with the C core; five-trick endings with the pure-Python one, which would take minutes on a
    full deal), the Meitora engine's random playouts, and one ``search:easy`` decision."""
    from .bench import bench_game
    from .bots import make_bot
    from .games import GAMES
    from .solver import has_c_core
    from .solver.bench import bench_meitora

    out: dict[str, Any] = {}
    if has_c_core():
        fig = bench_meitora(n=3 if quick else 20, seed=seed)
        out["solver"] = {"core": "c", "what": "doctor.what.full_deal", "ms_median": fig["full_deal_ms_median"]}
    else:
        out["solver"] = {
            "core": "python",
            "what": "doctor.what.ending",
            "ms_median": _python_endings_ms(seed, 2 if quick else 5),
        }
    from .games import meitora

    eng = bench_game("meitora", seconds=0.2 if quick else 1.0, seed=seed)
    out["engine"] = {"core": "c" if meitora.HAS_C_CORE else "python", "playouts_per_s": eng["playouts_per_s"]}
    # one decision of the default search: the first card of a deal with the C solver (the
    # issue's 0.04 s), a five-card hand with the pure-Python one (a full hand takes a minute)
    info = GAMES["meitora"]
    rng = random.Random(seed)
    state = info.new_state(info.options({}))
    state.deal_random(rng)
    most = 10 if has_c_core() else 5
    while state.to_act is not None and (
        state.phase.value != "play" or len(getattr(state.view(state.to_act), "hand", ())) > most
    ):
        state.apply(rng.choice([a for a in state.legal_actions() if type(a).__name__ != "Claim"]))
    if state.to_act is not None:
        view = state.view(state.to_act)
        bot = make_bot("search", "meitora")
        t0 = time.process_time()
        bot.choose(view, random.Random(seed))
        out["decision"] = {
            "core": "c" if has_c_core() else "python",
            "bot": "search",
            "cards_in_hand": len(getattr(view, "hand", ())),
            "cpu_s": round(time.process_time() - t0, 4),
        }
    return out


def _python_endings_ms(seed: int, n: int) -> float:
    """The median time of the pure-Python solver on ``n`` random five-trick no-trump endings."""
    from .solver import solve
    from .solver.rules import plain_trick_rules

    rng = random.Random(seed)
    times = []
    for _ in range(n):
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[5 * p : 5 * p + 5]) for p in range(4)]
        t0 = time.perf_counter()
        solve(plain_trick_rules(4), hands, 0, (), 0, 0b0101, "python")
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return round(times[len(times) // 2], 3)


def report(lang: str, quick: bool = False) -> tuple[str, dict[str, Any]]:
    """The doctor's report: its text and the same as JSON."""
    status = core_status()
    data: dict[str, Any] = {
        "version": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": [asdict(c) for c in status],
        "solver_build": _solver_build(),
    }
    data["speed"] = measure(quick=quick)
    lines = [t("doctor.title", lang, version=__version__, python=data["python"], machine=data["machine"])]
    for c in status:
        state = t("doctor.built", lang) if c.built else t("doctor.missing", lang, why=c.why_missing or "?")
        lines.append(f"  {c.name} ({t(c.role, lang)}): {state}")
        if c.name.endswith("_csolver") and data["solver_build"] is not None:
            lines.append("    " + t(f"doctor.{data['solver_build']}", lang))
    sp = data["speed"]
    lines.append(
        "  "
        + t(
            "doctor.solver_speed",
            lang,
            core=sp["solver"]["core"],
            what=t(sp["solver"]["what"], lang),
            ms=sp["solver"]["ms_median"],
        )
    )
    lines.append("  " + t("doctor.engine_speed", lang, core=sp["engine"]["core"], n=sp["engine"]["playouts_per_s"]))
    if "decision" in sp:
        lines.append(
            "  "
            + t(
                "doctor.decision",
                lang,
                core=sp["decision"]["core"],
                cards=sp["decision"]["cards_in_hand"],
                s=sp["decision"]["cpu_s"],
            )
        )
    if not all(c.built for c in status):
        lines.append(t("doctor.fix", lang))
    return "\n".join(lines), data


def main(args: argparse.Namespace) -> int:
    text, data = report(args.lang or default_lang(), quick=args.quick)
    print(json.dumps(data, ensure_ascii=False) if args.json else text)
    return 0


def add_parser(sub: Any) -> None:
    """``kirifuda doctor`` on the CLI's subcommands."""
    p = sub.add_parser("doctor", help="what was built (the C cores) and how fast it runs")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--quick", action="store_true", help="a shorter measurement (under a second)")
    p.add_argument("--lang", choices=("ja", "en"), help="language (default: from the locale)")
    p.set_defaults(func=main)
