"""What the browser tests share: Debian's Chromium and its flags, axe-core's check, screenshots.

Playwright drives Debian's ``chromium`` (never a downloaded browser; ``KIRIFUDA_CHROMIUM`` names
another); each module launches it once (the ``browser`` fixture of ``tests/conftest.py``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

__all__ = ["CHROMIUM", "FLAGS", "AXE", "axe", "shot"]

CHROMIUM = os.environ.get("KIRIFUDA_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
AXE = Path(__file__).parent / "web" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, installed by npm in tests/web (``.ci/run`` does it)."""


def axe(page: Any, where: str) -> None:
    """axe-core's WCAG 2 A/AA rules on the page: no serious or critical violation."""
    if not AXE.exists():
        pytest.skip(f"axe-core not installed: cd {AXE.parents[2]} && npm install (done by .ci/run)")
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})")
    bad = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, (where, bad)


def shot(page: Any, folder: Path, name: str, *, full_page: bool = False) -> None:
    """A screenshot ``folder/name.png`` (kept by CI as an artefact)."""
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full_page)
