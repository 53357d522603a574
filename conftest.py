"""Collection rules for the doctests of optional modules: the research environments need numpy,
PettingZoo or OpenSpiel (extras ``kirifuda[pettingzoo]`` / ``kirifuda[openspiel]``); without
them their modules are not collected (their tests in ``tests/`` skip with a message)."""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []


def _missing(*modules: str) -> bool:
    return any(importlib.util.find_spec(m) is None for m in modules)


if _missing("numpy"):
    collect_ignore.append("kirifuda/env")
else:
    if _missing("pettingzoo", "gymnasium"):
        collect_ignore.append("kirifuda/env/pettingzoo.py")
    if _missing("pyspiel"):
        collect_ignore.append("kirifuda/env/openspiel.py")
