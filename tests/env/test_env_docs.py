"""docs/env.md's layout tables are the ones the code generates (``python -m kirifuda.env``)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")

from kirifuda.env.core import layout_markdown  # noqa: E402
from kirifuda.games import BUILTIN  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "env.md"


def test_the_documented_layouts_are_generated_from_the_code():
    text = DOC.read_text(encoding="utf-8")
    generated = "\n".join(layout_markdown(g) for g in sorted(BUILTIN))
    assert text.endswith(generated), "docs/env.md: rerun `python -m kirifuda.env` for its Layouts section"
