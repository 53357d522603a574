"""Partners people like: the conventions a club player expects of a partner, as records (a
position) plus the decision expected (``tests/partner/conventions/*.json``).

Each case was checked on its own deal by playing every candidate out with the oracle at every
seat (every card seen): the expected decision is never worse there, and the mistake it rules out
costs points or chips on that deal, except where said.  A bot that gets a case wrong is a finding,
kept as a strict ``xfail`` for that bot (the test fails once the bot is fixed, to be un-marked),
never a weaker expectation.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Callable

import pytest

from kirifuda import record as records
from kirifuda.bots import make_bot

CONVENTIONS = Path(__file__).parent / "partner" / "conventions"

CASES: dict[str, Callable[[str], bool]] = {
    # The bot declared 7♠ long in trumps (♠ right and left jacks, A K Q 9 8, with ♥A K and ♣6) and
    # leads: draw trumps before cashing the side winners.  East is void in hearts and ruffs a
    # heart lead (playing out: a trump 3.5 points for the bot's side, ♥K or ♥A 3.0).
    "meitora-draw-trumps-before-side-winners": lambda card: card not in ("AH", "KH"),
    # Partner led ♦8 (from ♦K Q J 9 8), the bot won with ♦A and leads: return partner's suit.
    # On this deal every lead scores the same played out (−2.0): a convention, not a trick.
    "meitora-return-partners-lead": lambda card: card == "7D",
    # Kakeya, ♦ trump: partner's ♥A wins the trick and the bot, last and void in hearts, does not
    # ruff it with a low trump (playing out: a ruff −4 chips, any other card −2).
    "kakeya-do-not-ruff-partners-ace": lambda card: card[1] != "D",
    # From a reviewed game (search partnered with search against OpenSpiel's PIMC, deal 91, found
    # by python -m kirifuda.bots.partner_review): partner's ♥J wins the trick and the bot, last,
    # overtook it with ♥K (playing out: ♥K 3.0 points for the bot's side, ♥5 or ♥9 4.0).
    "meitora-do-not-overtake-partners-winner": lambda card: card != "KH",
}

KINDS = ["search", "search:strong", "search:v1", "heuristic"]

FINDINGS: dict[tuple[str, str], str] = {
    ("meitora-draw-trumps-before-side-winners", "search"): "leads ♥K from its 16 samples at seed 0",
    ("meitora-return-partners-lead", "search"): "leads a trump (♠5) at seeds 0 and 1",
    ("meitora-return-partners-lead", "search:strong"): "leads a trump (♠5) at seed 1",
    ("meitora-return-partners-lead", "search:v1"): "leads ♣6",
    ("meitora-return-partners-lead", "heuristic"): "leads ♣6: its lead rules know no partner's suit",
    ("kakeya-do-not-ruff-partners-ace", "search:v1"): "ruffs with ♦2 at seed 2",
}
"""(case, bot) → what the bot does instead: the findings, as strict expected failures."""

SKIP = {("kakeya-do-not-ruff-partners-ace", "search:strong")}
"""Kakeya's strong level takes seconds a card (docs/bots.md): left out of the fast suite."""


def _params() -> list[object]:
    out: list[object] = []
    for name in sorted(CASES):
        for kind in KINDS:
            if (name, kind) in SKIP:
                continue
            marks = []
            if (name, kind) in FINDINGS:
                marks.append(pytest.mark.xfail(strict=True, reason=f"finding: {kind} {FINDINGS[name, kind]}"))
            if kind == "search:strong":
                marks.append(pytest.mark.slow)
            out.append(pytest.param(name, kind, marks=marks, id=f"{name}-{kind}"))
    return out


@pytest.mark.parametrize(("name", "kind"), _params())
def test_a_partner_keeps_the_convention(name: str, kind: str) -> None:
    rec = records.loads((CONVENTIONS / f"{name}.json").read_text(encoding="utf-8"))
    state = records.replay(rec)
    seat = state.to_act
    assert seat is not None and rec.players is not None and rec.players[seat] == "bot"
    for seed in range(3):
        action = make_bot(kind, rec.game).choose(state.view(seat), random.Random(seed))
        assert CASES[name](action.card.code), (kind, seed, action)  # type: ignore[attr-defined]


def test_every_convention_record_has_its_expectation() -> None:
    assert sorted(p.stem for p in CONVENTIONS.glob("*.json")) == sorted(CASES)
    for p in CONVENTIONS.glob("*.json"):
        assert p.stem.startswith(json.loads(p.read_text(encoding="utf-8"))["game"] + "-")
    assert {name for name, _ in FINDINGS} <= set(CASES)


def test_the_review_finds_a_trick_taken_from_partner(tmp_path: Path) -> None:
    from kirifuda.bots.partner_review import main, taken_from_partner

    data = json.loads((Path(__file__).parent / "partner" / "meitora-do-not-ruff-partners-ace.json").read_text())
    data["deals"][0]["actions"].append({"seat": 0, "play": "5S"})  # ruffs partner's ♥A
    hits = list(taken_from_partner(data))
    assert [(h["seat"], h["played"]) for h in hits] == [(0, "5S")]
    assert "5D" in hits[0]["kept"] and not any(c.endswith("S") or c in ("JC", "JK") for c in hits[0]["kept"])
    assert list(taken_from_partner(data, ["east"])) == []
    data["deals"][0]["actions"][-1] = {"seat": 0, "play": "5D"}  # lets partner's ace win
    assert list(taken_from_partner(data)) == []
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "deal00000-r0.json").write_text(json.dumps(data))
    assert main([str(tmp_path)]) == 0
