"""Builds the C parts of kirifuda at install time (``pip install -e .`` or ``pip install .``):
Meitora's hot path (``kirifuda/games/_meitora_core.c``), the games' batched env cores
(``kirifuda/games/_meitora_vector.c``, ``_napoleon_vector.c``, ``_kakeya_vector.c``,
``_unsun_vector.c``) and the solver's core (``kirifuda/solver/_csolver.c``).

Each extension is optional: without a C compiler kirifuda installs without it and falls back
to the pure-Python implementation of the same code (slower, same results).  They compile with
GCC and clang (builtins, and under GCC a second build of the solver's search for BMI2, a
compilation unit of its own: ``_csolver_bmi2.c``) and with MSVC (portable C:
``kirifuda/_bitops.h``; GCC builds that code too in the tests)."""

import platform

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOLVER_SOURCES = ["kirifuda/solver/_csolver.c", "kirifuda/solver/_csolver_bmi2.c"]
"""The solver extension's compilation units (the tests build them the same way)."""

# the hardware popcount for the solver (every x86-64 CPU of the last fifteen years has it)
_ARCH = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []


class BuildExt(build_ext):
    """The optimisation flags in the compiler's own dialect (MSVC's differ from GCC's and clang's)."""

    def build_extensions(self) -> None:
        msvc = self.compiler.compiler_type == "msvc"
        for ext in self.extensions:
            ext.extra_compile_args = ["/O2"] if msvc else ["-O3", *(_ARCH if ext.name.endswith("_csolver") else [])]
        super().build_extensions()


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=[
        Extension(
            "kirifuda.games._meitora_core",
            sources=["kirifuda/games/_meitora_core.c"],
            depends=["kirifuda/_bitops.h"],
            optional=True,
        ),
        Extension(
            # N Meitora deals stepped at once, observations and masks included (kirifuda.env.vector)
            "kirifuda.games._meitora_vector",
            sources=["kirifuda/games/_meitora_vector.c"],
            depends=["kirifuda/_bitops.h"],
            optional=True,
        ),
        Extension(
            # N Napoleon deals stepped at once, observations and masks included (kirifuda.env.vector)
            "kirifuda.games._napoleon_vector",
            sources=["kirifuda/games/_napoleon_vector.c"],
            depends=["kirifuda/_bitops.h", "kirifuda/_cpython_random.h"],
            optional=True,
        ),
        Extension(
            # N Kakeya games stepped at once, observations and masks included (kirifuda.env.vector)
            "kirifuda.games._kakeya_vector",
            sources=["kirifuda/games/_kakeya_vector.c"],
            depends=["kirifuda/_bitops.h", "kirifuda/_cpython_random.h"],
            optional=True,
        ),
        Extension(
            # N Unsun deals stepped at once, observations and masks included (kirifuda.env.vector)
            "kirifuda.games._unsun_vector",
            sources=["kirifuda/games/_unsun_vector.c"],
            depends=["kirifuda/_bitops.h", "kirifuda/_cpython_random.h"],
            optional=True,
        ),
        Extension(
            "kirifuda.solver._csolver",
            # two compilation units: the portable search with the Python glue, and the same
            # search built for BMI1, BMI2 and LZCNT (GCC on x86-64; empty elsewhere)
            sources=SOLVER_SOURCES,
            depends=["kirifuda/_bitops.h", "kirifuda/solver/_csolver.h", "kirifuda/solver/_csolver_search.h"],
            optional=True,
        ),
    ],
)
