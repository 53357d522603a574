"""The games' UI descriptors: how the browser client draws each game, with no per-game code.

Each game declares ``ui`` in its :class:`~kirifuda.game.GameInfo`, a small dict beside its rules
(read by :func:`descriptor`):

- ``direction``: ``"cw"`` or ``"ccw"``, the order seats take turns (how they sit around the felt);
- ``strains``: the bid grid's strains, weakest first (``"SCDHN"``; ``""``: no bidding grid);
- ``units``: who scores: ``"seats"``, ``{"teams": [[0, 2], [1, 3]]}`` or ``{"field": "pairs"}``
  (the view's field listing each unit's seats);
- ``seat_roles`` / ``unit_roles``: ``[view field, role]`` pairs: the seat (or unit) named by
  the field wears the role's badge (``web.role.<role>`` in the catalogue); a seat role may add a
  third element ``"leads"`` when its seat is always the one who leads the trick in play (the
  page then shows no separate "leads" mark beside that badge);
- ``partner_role``: the role of the declarer's team-mate (``None``: none);
- ``bids``: the view field holding ``(seat, action)`` pairs shown as bubbles (``None``: none);
- ``stats``: ``{"field", "per": "seat" | "unit", "show": "tricks" | "cards"}`` shown beside
  each seat: a count of tricks, or face cards taken laid out;
- ``headline``: the view fields always in view (contract, trump, indicator…);
- ``hints``: the phases with a hint (``web.hint.<game>.<phase>``);
- ``confirm``: the action kinds confirmed in the page before they are sent;
- ``claim_option``: the option that decides what a failed claim costs (``web.claim_cost.<value>``);
- ``options``: each option's label, explanation and choices in (ja, en), registered into the
  catalogue as ``web.opt.<game>.<name>``, ``….doc`` and ``….<choice>``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .. import i18n
from ..games import GAMES, game_part

__all__ = ["descriptor", "descriptors", "register_option_words", "KEYS"]

KEYS = frozenset(
    {
        "direction",
        "strains",
        "units",
        "seat_roles",
        "unit_roles",
        "partner_role",
        "bids",
        "stats",
        "headline",
        "hints",
        "confirm",
        "claim_option",
        "options",
    }
)
"""Every key a descriptor declares."""


def descriptor(game: str) -> dict[str, Any]:
    """The game's ``UI`` as JSON for the page (option words replaced by their catalogue keys).
    Raises KeyError naming the game if it declares none, ValueError naming a wrong key."""
    info = GAMES[game]
    ui = info.ui
    if not ui:
        raise KeyError(f"the game {game!r} declares no UI descriptor")
    if set(ui) != KEYS:
        raise ValueError(f"{game}: UI keys {sorted(set(ui) ^ KEYS)} missing or unknown")
    if ui["direction"] not in ("cw", "ccw"):
        raise ValueError(f"{game}: UI direction must be cw or ccw")
    names = {f.name for f in dataclasses.fields(info.options_type)}
    if set(ui["options"]) != names:
        raise ValueError(f"{game}: UI options {sorted(set(ui['options']) ^ names)} missing or unknown")
    out = {k: v for k, v in ui.items() if k != "options"}
    out["options"] = {name: {"choices": sorted(spec.get("choices", {}))} for name, spec in ui["options"].items()}
    return out


def register_option_words() -> None:
    """Put every game's option words into the shared catalogue, and load each game's own words."""
    words: dict[str, tuple[str, str]] = {}
    for game, info in GAMES.items():
        game_part(game, "words")  # the game's own words: its phase hints, rules card and roles
        for name, spec in info.ui.get("options", {}).items():
            base = f"web.opt.{game}.{name}"
            words[base] = tuple(spec["label"])
            words[f"{base}.doc"] = tuple(spec["doc"])
            for value, pair in spec.get("choices", {}).items():
                words[f"{base}.{value}"] = tuple(pair)
    i18n.add_terms(messages=words)


def descriptors() -> dict[str, dict[str, Any]]:
    """Every game's descriptor, by game id."""
    return {game: descriptor(game) for game in GAMES}


register_option_words()
