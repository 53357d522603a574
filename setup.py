"""Builds the C parts of kirifuda at install time (``pip install -e .`` or ``pip install .``):
Meitora's hot path (``kirifuda/games/_meitora_core.c``) and the solver's core
(``kirifuda/solver/_csolver.c``).

Each extension is optional: without a C compiler kirifuda installs without it and falls back
to the pure-Python implementation of the same code (slower, same results)."""

import platform

from setuptools import Extension, setup

# the hardware popcount for the solver (every x86-64 CPU of the last fifteen years has it)
_ARCH = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

setup(
    ext_modules=[
        Extension(
            "kirifuda.games._meitora_core",
            sources=["kirifuda/games/_meitora_core.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "kirifuda.solver._csolver",
            sources=["kirifuda/solver/_csolver.c"],
            extra_compile_args=["-O3", *_ARCH],
            optional=True,
        ),
    ]
)
