"""The package type-checks under ``mypy --strict`` (configured in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean():
    if shutil.which("mypy") is None and not _has_module("mypy"):
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "kirifuda"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None
