"""The compiled core, if it was built (``pip install`` compiles it; else ``None``, and
``missing`` says why: :mod:`kirifuda.doctor` reports it)."""

from __future__ import annotations

from types import ModuleType

csolver: ModuleType | None
missing: str | None = None
"""Why the compiled core is not in use (``None`` where it is)."""
try:
    from . import _csolver as csolver  # type: ignore[attr-defined,no-redef]
except ImportError as exc:  # pragma: no cover - the fallback
    csolver = None
    missing = f"kirifuda.solver._csolver could not be imported: {exc}"
