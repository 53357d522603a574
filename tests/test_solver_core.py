"""The generic C solver core on plain trick-taking rules (bridge's: follow suit, one trump
suit or none, the highest card of the led suit or the highest trump wins), against the pure
Python core, whose table is keyed by the exact hands.  Plain rules reach the C core's
shortcuts (merged runs of cards, relevant-card table entries, sure and quick tricks, tricks
already won) in every combination, with no game's special cards in the way."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kirifuda.cards import parse_card
from kirifuda.solver import has_c_core, solve
from kirifuda.solver.rules import plain_trick_rules as plain_rules

pytestmark = pytest.mark.skipif(not has_c_core(), reason="the C core is not built")


def mask(codes: str) -> int:
    return sum(1 << parse_card(c).id for c in codes.split())


def test_a_merged_run_makes_its_cards_relevant() -> None:
    """Seat 1's ♣K Q are one choice when clubs are led; a table entry made there kept only the
    top club as relevant, and was then used where seat 1 holds ♣Q 3 and can duck with the 3
    (the old core gave seats 0 and 2 five tricks; DDS and the Python core give 4)."""
    hands = [
        mask("KS JS TS 7S 5H 9C 2C"),
        mask("QH 4H 3H QD KC QC 3C"),
        mask("9S 3S AC TC 8C 7C 5C"),
        mask("AS 2S TH 8D 6D JC 4C"),
    ]
    for g in (-1, 0, 4, 5, 7):
        assert solve(plain_rules(0), hands, 2, (), 0, 0b0101, "c", g) == 4


def test_an_entry_to_a_partners_master_makes_the_master_relevant() -> None:
    """No trump, eight tricks: quick tricks through an entry (a card led to the partner's master
    of its suit, the partner then cashing) gave a table entry that did not keep the master as
    relevant, so it was used where the master was elsewhere (an unreleased core gave seats 0 and
    2 two tricks; DDS gives 3)."""
    hands = [
        mask("2S 2H 5H 9H TH 5C 8C QC"),
        mask("TS 6D 8D QD 2C 9C KC AC"),
        mask("3S 2D 9D JD AD 3C 6C JC"),
        mask("3H QH KH AH 4D 4C 7C TC"),
    ]
    for g in (-1, 0, 3, 4):
        assert solve(plain_rules(4), hands, 0, (), 0, 0b0101, "c", g) == 3


def random_ending(seed: int, tricks: int) -> tuple[list[int], int, int, int]:
    rng = random.Random(seed)
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[tricks * p : tricks * p + tricks]) for p in range(4)]
    return hands, rng.randrange(5), rng.randrange(4), rng.choice((0b0101, 0b1010))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), tricks=st.integers(2, 7))
def test_c_core_equals_python_on_random_endings(seed: int, tricks: int) -> None:
    assert_c_core_equals_python(*random_ending(seed, tricks), guesses=(-1,))


def assert_c_core_equals_python(
    hands: list[int], trump: int, leader: int, maxside: int, guesses: tuple[int, ...]
) -> None:
    """The C core, from each first guess, gives the Python core's value of the ending."""
    rules = plain_rules(trump)
    want = solve(rules, hands, leader, (), 0, maxside, "python")
    for g in guesses:
        assert solve(rules, hands, leader, (), 0, maxside, "c", g) == want


def test_a_second_trump_behind_the_top_takes_a_trick() -> None:
    """Later tricks: seats 0 and 2, on lead, need all three tricks; ♠A is the leader's and ♠K
    seat 1's, with another spade, in the seat after the ace's: seat 1 ducks the ace and ruffs
    with the king, or takes a trick with it before the ace is played."""
    hands = [mask("AS AH AD"), mask("KS 2S 3H"), mask("QH KH KD"), mask("4C 5C 6C")]
    assert solve(plain_rules(0), hands, 0, (), 0, 0b0101, "python") == 2
    for g in (-1, 2, 3):
        assert solve(plain_rules(0), hands, 0, (), 0, 0b0101, "c", g) == 2


def test_a_second_trump_before_the_top_may_take_nothing() -> None:
    """Hearts trump: seat 3's ♥K J sit before seat 0's ♥A Q (seat 3 plays first in every trick
    seat 2 leads): seats 0 and 2 take all three tricks (the rule for the king behind the ace,
    applied here, gave seat 3's side a trick)."""
    hands = [mask("AS QH AH"), mask("QD JC AC"), mask("QS AD KC"), mask("JS JH KH")]
    assert solve(plain_rules(1), hands, 2, (), 0, 0b1010, "python") == 0
    for g in (-1, 0, 1):
        assert solve(plain_rules(1), hands, 2, (), 0, 0b1010, "c", g) == 0


def dense_ending(seed: int, tricks: int) -> tuple[list[int], int, int, int]:
    """An ending dealt from the top tricks + 1 ranks of each suit: most cards are masters or
    near them, where the bounds for a side that needs every trick (later tricks) and squeezes
    are common."""
    rng = random.Random(seed)
    cards = [su * 13 + 12 - k for su in range(4) for k in range(tricks + 1)]
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[tricks * p : tricks * p + tricks]) for p in range(4)]
    return hands, rng.choice((4, 4, 0, 1)), rng.randrange(4), rng.choice((0b0101, 0b1010))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), tricks=st.integers(3, 6))
def test_c_core_equals_python_on_dense_endings(seed: int, tricks: int) -> None:
    assert_c_core_equals_python(*dense_ending(seed, tricks), guesses=(-1, tricks))


_NODES_SCRIPT = """
import random, sys
from kirifuda.solver import _core
from kirifuda.solver.kakeya import kakeya_rules
from kirifuda.solver.rules import plain_trick_rules
out = []
for seed in range(40):
    rng = random.Random(seed)
    tricks = 5 + seed % 4
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[tricks * p:tricks * p + tricks]) for p in range(4)]
    trump = rng.randrange(4)
    rules = plain_trick_rules(trump) if seed % 2 else kakeya_rules(trump)
    out.append(_core.csolver.solve(rules.compiled(), hands, rng.randrange(4), [], 4, 0b0101, -1, 0))
print(out)
"""


def _node_counts(env: dict[str, str], prelude: str = "", script: str = _NODES_SCRIPT) -> str:
    """What ``script`` prints (by default ``_NODES_SCRIPT``: 40 solves' values and node counts),
    run in a fresh interpreter with ``env`` added and ``prelude`` run first (to load another
    build)."""
    import os
    import sys

    return subprocess.run(
        [sys.executable, "-c", prelude + script], capture_output=True, text=True, check=True, env={**os.environ, **env}
    ).stdout


def test_the_squeezed_table_key_is_the_same_with_and_without_bmi2() -> None:
    """The search core is built twice: for CPUs with BMI1, BMI2 and LZCNT where pext/pdep are
    fast (the table key, the hands with played cards squeezed out, in two instructions), and
    portably (a plain loop; ``KIRIFUDA_SOLVER_NO_BMI2`` picks it).  Both give the same table
    hits, so the same values and node counts, on trick and face-card rules alike."""
    runs = [_node_counts(extra) for extra in ({}, {"KIRIFUDA_SOLVER_NO_BMI2": "1"})]
    assert runs[0] == runs[1]
    assert runs[0].count("(") == 40


_MEITORA_SCRIPT = """
import random
from kirifuda.games import meitora
assert meitora.HAS_C_CORE
out = []
for seed in range(6):
    s = meitora.MeitoraState(meitora.MeitoraOptions(target=6), first=seed % 4)
    rng = random.Random(seed)
    while not s.is_over and s.deal_number < 3:
        if s.needs_deal:
            s.deal_random(rng)
        else:
            s.apply(rng.choice(s.legal_actions()))
    out.append(s.summary())
print(out)
"""


ROOT = Path(__file__).resolve().parent.parent
C_EXTENSIONS = {
    "kirifuda/solver/_csolver.c": ("kirifuda/solver/_csolver.c", "kirifuda/solver/_csolver_bmi2.c"),
    "kirifuda/games/_meitora_core.c": ("kirifuda/games/_meitora_core.c",),
}
"""kirifuda's two C extensions, from ROOT: {main source: its compilation units} (as setup.py)."""
C_SOURCES = tuple(src for units in C_EXTENSIONS.values() for src in units)
"""Every compilation unit."""


def _compiler(name: str) -> str:
    """The compiler ``name``'s path; the test is skipped where it is not installed."""
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


def _build(compiler: str, flags: list[str], out: object) -> dict[str, str]:
    """Both C extensions built by ``compiler`` with ``flags`` (warnings are errors) into the
    folder ``out``: {source: the built file}."""
    import sysconfig

    include = sysconfig.get_paths()["include"]
    built = {}
    for src, units in C_EXTENSIONS.items():
        target = Path(str(out)) / (Path(src).stem + ".so")
        run = subprocess.run(
            [
                compiler,
                "-O3",
                "-shared",
                "-fPIC",
                "-Wall",
                "-Werror",
                "-Wno-unused-function",
                *flags,
                f"-I{include}",
                *(str(ROOT / u) for u in units),
                "-o",
                str(target),
            ],
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stderr
        built[src] = str(target)
    return built


_SOLVER_SWAP = (
    "import importlib.util\n"
    "from kirifuda.solver import _core\n"
    "spec = importlib.util.spec_from_file_location('_csolver', {path!r})\n"
    "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); _core.csolver = m\n"
)
"""A prelude for ``_node_counts``: the solver's core taken from the build at ``path``."""


_BITOPS_CHECK = r"""
#define KIRIFUDA_PORTABLE 1
#include "kirifuda/_bitops.h"
#include <stdio.h>
int main(void) {
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 200000; i++) {
        uint64_t v = i < 64 ? 1ULL << i : (i < 128 ? ~0ULL << (i - 64) : x);
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        if (kf_popcount(v) != __builtin_popcountll(v) || kf_ctz(v) != __builtin_ctzll(v)
            || kf_clz(v) != __builtin_clzll(v)) { printf("%llx\n", (unsigned long long)v); return 1; }
    }
    return 0;
}
"""


def test_the_portable_bit_operations_equal_the_builtins(tmp_path: object) -> None:
    """``kirifuda/_bitops.h``'s portable C (MSVC's) counts, and finds the lowest and highest
    set bit, as GCC's builtins do: every single bit, every run of top bits, random words."""
    gcc = _compiler("gcc")
    src, exe = Path(str(tmp_path)) / "bitops.c", Path(str(tmp_path)) / "bitops"
    src.write_text(_BITOPS_CHECK)
    subprocess.run([gcc, "-O2", "-Wall", "-Werror", f"-I{ROOT}", str(src), "-o", str(exe)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, f"differs on {run.stdout}"


def test_what_msvc_compiles_uses_no_gcc_extension(tmp_path: object) -> None:
    """MSVC (Windows) defines neither ``__GNUC__`` nor ``__x86_64__``: what its preprocessor
    leaves of the C sources — here GCC's, with those undefined and every header an empty stub —
    must hold no GCC builtin, attribute, 128-bit integer or GCC pragma (GCC itself accepts
    them in the portable build, so building that is not enough)."""
    import re

    gcc = _compiler("gcc")
    stubs = Path(str(tmp_path))
    for header in (
        "Python.h",
        "structmember.h",
        "stdint.h",
        "stdlib.h",
        "string.h",
        "stdio.h",
        "immintrin.h",
        "cpuid.h",
    ):
        (stubs / header).write_text("")
    for src in C_SOURCES:
        out = subprocess.run(
            [
                gcc,
                "-E",
                "-P",
                "-nostdinc",
                f"-I{stubs}",
                "-U__GNUC__",
                "-U__GNUC_MINOR__",
                "-U__clang__",
                "-U__x86_64__",
                str(ROOT / src),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert "kf_popcount" in out or "popc" in out or src.endswith("_bmi2.c")  # (empty there)
        found = sorted(set(re.findall(r"__builtin_\w+|__attribute__|__int128|#pragma GCC", out)))
        assert not found, f"{src}: {found}"


@pytest.mark.parametrize("build", ["clang", "portable"])
def test_another_build_searches_and_plays_as_the_installed_one(build: str, tmp_path: object) -> None:
    """The C extensions must build and behave the same wherever ``pip install`` compiles them:
    with clang (macOS's compiler; the BMI2 pass is GCC's, so the portable search only), and
    with the compiler's builtins replaced by portable C (``KIRIFUDA_PORTABLE``: what MSVC on
    Windows compiles, ``kirifuda/_bitops.h``; built here by GCC in strict C11 without
    variable-length arrays).  The solver must search node for node as the installed build does;
    Meitora's game core must deal and play the same matches.  Skipped where clang is missing
    (``.ci/run`` installs it)."""
    compiler = _compiler("clang" if build == "clang" else "gcc")
    flags = [] if build == "clang" else ["-DKIRIFUDA_PORTABLE", "-std=c11", "-Wvla"]
    built = _build(compiler, flags, tmp_path)
    swap = _SOLVER_SWAP.format(path=built["kirifuda/solver/_csolver.c"])
    runs = [_node_counts({"KIRIFUDA_SOLVER_NO_BMI2": "1"}, pre) for pre in ("", swap)]
    assert runs[0] == runs[1]
    assert runs[0].count("(") == 40
    game_swap = (
        "import importlib.util, sys\n"
        "spec = importlib.util.spec_from_file_location('kirifuda.games._meitora_core', "
        f"{built['kirifuda/games/_meitora_core.c']!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "sys.modules['kirifuda.games._meitora_core'] = m\n"
    )
    games = [_node_counts({}, pre, _MEITORA_SCRIPT) for pre in ("", game_swap)]
    assert games[0] == games[1]
    assert games[0].count("'outcome'") >= 6


def test_the_table_searches_the_same_however_its_chains_grow(tmp_path: object) -> None:
    """A solve starts with few chains in its table and doubles them as entries come in; a
    doubling keeps each chain's order, so the search is the one a table with every chain from
    the start makes: a build that starts with 16 chains (doubling many times in every solve)
    and one that starts with the most (never doubling) search node for node as the installed
    build does."""
    gcc = _compiler("gcc")
    runs = [_node_counts({})]
    for bits in (4, 18):
        out = Path(str(tmp_path)) / f"min{bits}"
        out.mkdir()
        built = _build(gcc, [f"-DTT_MIN_BITS={bits}"], out)
        runs.append(_node_counts({}, _SOLVER_SWAP.format(path=built["kirifuda/solver/_csolver.c"])))
    assert runs[0] == runs[1] == runs[2]
    assert runs[0].count("(") == 40


@pytest.mark.parametrize("backend", ["c", "python"])
def test_solve_moves_adds_its_nodes_to_a_work_count(backend: str) -> None:
    """A bot budgets a decision's work over many solves: each ``solve_moves`` adds the nodes it
    searched (the same every time for the same position), with either core."""
    from kirifuda.solver import Work, solve_moves

    hands, trump, leader, maxside = random_ending(7, 4)
    work = Work()
    first = solve_moves(plain_rules(trump), hands, leader, (), 0, maxside, backend, work=work)
    once = work.nodes
    assert once > len(first)
    assert solve_moves(plain_rules(trump), hands, leader, (), 0, maxside, backend, work=work) == first
    assert work.nodes == 2 * once


def test_threads_solve_at_once_with_the_same_results() -> None:
    """The C core searches without the GIL, each solve with a table of its own: four threads
    solving at once find what one thread finds, node for node (a shared table would not)."""
    import threading

    from kirifuda.solver import _core

    core = _core.csolver
    assert core is not None
    positions: list[tuple[object, ...]] = []
    for seed in range(24):
        hands, trump, leader, maxside = random_ending(seed, 8)
        positions.append((plain_rules(trump).compiled(), hands, leader, [], 0, maxside, -1, 0))
    alone = [core.solve(*p) for p in positions]
    moves_alone = [core.solve_moves(*p) for p in positions[:6]]
    together: list[object] = [None] * len(positions)
    moves_together: list[object] = [None] * 6

    def work(k: int) -> None:
        for i in range(k, len(positions), 4):
            together[i] = core.solve(*positions[i])
            if i < 6:
                moves_together[i] = core.solve_moves(*positions[i])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together == alone
    assert moves_together == moves_alone
