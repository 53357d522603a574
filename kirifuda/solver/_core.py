"""The compiled core, if it was built (``pip install`` compiles it; else ``None``)."""

from __future__ import annotations

from types import ModuleType

csolver: ModuleType | None
try:
    from . import _csolver as csolver  # type: ignore[attr-defined,no-redef]
except ImportError:  # pragma: no cover - the fallback
    csolver = None
