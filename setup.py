"""Builds the C parts of kirifuda at install time (``pip install -e .`` or ``pip install .``).

Each extension is optional: without a C compiler kirifuda installs without it and falls back
to the pure-Python implementation of the same code (slower, same results)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "kirifuda.games._meitora_core",
            sources=["kirifuda/games/_meitora_core.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ]
)
