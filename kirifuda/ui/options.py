"""A game's local rules (ローカルルール) on the command line: ``-o name=value`` read by the
option's type (booleans as true/false/1/0/yes/no, whole numbers, one of the choices), and the
listing that ``kirifuda options GAME`` prints."""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, Sequence

from ..errors import OptionError
from ..game import GameInfo
from ..i18n import t
from .results import game_text

__all__ = ["OptionSpec", "option_specs", "parse_assignments", "LENGTH"]

LENGTH = "length"
"""The common name of a match's length: each game's own option (Meitora's target points,
Napoleon's and Unsun's deals, Kakeya's games)."""

_TRUE = {"true", "1", "yes", "y", "on"}
_FALSE = {"false", "0", "no", "n", "off"}
_NULL = {"null", "none", ""}


@dataclass(frozen=True)
class OptionSpec:
    name: str
    hint: Any
    default: Any

    def values_text(self) -> str:
        """The values it takes, as typed."""
        parts = []
        for h in _members(self.hint):
            if h is bool:
                parts.append("true/false")
            elif h is int:
                parts.append("N")
            elif h is type(None):
                parts.append("none")
            elif typing.get_origin(h) is typing.Literal:
                parts.extend(str(a) for a in typing.get_args(h))
            else:
                parts.append(getattr(h, "__name__", str(h)))
        return " | ".join(parts)

    def explain(self, game_id: str, lang: str) -> str:
        key = f"option.{game_id}.{self.name}"
        text = t(key, lang)
        return "" if text == key else text


def _members(hint: Any) -> tuple[Any, ...]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return (hint,)


def option_specs(info: GameInfo) -> list[OptionSpec]:
    """The game's options in declaration order, with their types and defaults."""
    game_text(info.id)  # the explanations are in the game's words
    hints = typing.get_type_hints(info.options_type)
    return [OptionSpec(f.name, hints[f.name], f.default) for f in dataclasses.fields(info.options_type)]


def length_option(info: GameInfo) -> str:
    """The game's own name of the match's length."""
    name = game_text(info.id).extras.get(LENGTH)
    return str(name) if name else LENGTH


def _read(spec: OptionSpec, text: str) -> Any:
    word = text.strip()
    low = word.lower()
    for h in _members(spec.hint):
        if h is bool:
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
        elif h is int:
            try:
                return int(word)
            except ValueError:
                pass
        elif h is type(None):
            if low in _NULL:
                return None
        elif typing.get_origin(h) is typing.Literal:
            for a in typing.get_args(h):
                if str(a).lower() == low:
                    return a
        elif h is str:
            return word
    raise OptionError(f"option {spec.name}={text!r}: expected {spec.values_text()}")


def parse_assignments(info: GameInfo, items: Sequence[str]) -> dict[str, Any]:
    """``["claim_failure=refuse", "joker=yes"]`` → ``{"claim_failure": "refuse", "joker": True}``,
    read by each option's type; ``length=N`` is the game's own match-length option."""
    specs = {s.name: s for s in option_specs(info)}
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise OptionError(f"an option is written name=value, got {item!r}")
        name, _, text = item.partition("=")
        name = name.strip()
        if name == LENGTH:
            name = length_option(info)
        spec = specs.get(name)
        if spec is None:
            raise OptionError(
                f"unknown option {name!r}; {info.id}'s options are {', '.join(specs)} (see: kirifuda options {info.id})"
            )
        out[name] = _read(spec, text)
    return out
