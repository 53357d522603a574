"""Every word the clubs' part of the page (static/clubs.js) shows is in the catalogue, in both
languages, and none is written into the script."""

from __future__ import annotations

import re
from pathlib import Path

from kirifuda.server import messages


def test_every_key_clubs_js_uses_is_in_both_catalogues() -> None:
    source = (Path(messages.__file__).parent / "static" / "clubs.js").read_text(encoding="utf-8")
    used = set(re.findall(r"""\bt\(\s*["']([a-z0-9_.:-]+)["']""", source))
    used |= set(re.findall(r"""\d{3}: ["']([a-z0-9_.]+)["']""", source))  # status → key
    assert len(used) > 30
    for lang in ("ja", "en"):
        words = messages.catalogue(lang)
        assert sorted(k for k in used if "web." + k not in words and k not in words) == [], lang
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", source)
    assert messages.missing_languages() == []
