"""Unsun's batched env core (うんすんかるたの一括コア): Unsun's part of :mod:`kirifuda.env.vector`.

``kirifuda/games/_unsun_vector.c`` plays N deals at once, the whole deal in C — dealing (the
engine's shuffle: a Mersenne Twister seeded and drawn as CPython's ``random.Random``, so a
seeded batch deals what a seeded Python env deals), the indicator (起き絵) and its re-turn under
``reflip_face_card``, the first last player (取り番) by the ♣J (テンカ), the play with face-down
trumps (差し), the trick winner of the three suit groups (the last player's card picking the
contested group), the deal's end and the match's totals — and writes each env's observation
vector and action mask (the Python env's layout, :class:`kirifuda.env.core.ObservationEncoder`)
into numpy arrays.  No phase falls back to Python.

Every Unsun option is supported (``players`` 3, 4 or 5, ``reflip_face_card``,
``all_trumps_face_down``, ``deals``), ``match=True`` (one episode is the whole match, each deal's
tricks rewarded when it ends) and the env options ``recall`` (``None``, ``"cards"``, ``"full"``)
and ``scaled``; ``claims`` changes nothing (Unsun has no claim).  An option the core does not
know (one added to the game later) is refused by name unless it has its default value.

The engine stays the truth: the tables (suit groups, face-down masks, deal sizes, the ♣J) come
from :mod:`kirifuda.games.unsun`, the observation offsets are checked against the encoder's
layout here, and the tests step the C core and the Python env on the same deals and compare
everything they return.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import OptionError
from . import unsun as _rules

try:
    from . import _unsun_vector as _c  # type: ignore[attr-defined, unused-ignore]
except ImportError:  # built without a C compiler
    _c = None  # type: ignore[assignment, unused-ignore]

__all__ = ["SUPPORTED_OPTIONS", "LAYOUT", "available", "batch", "layout"]

SUPPORTED_OPTIONS = ("players", "reflip_face_card", "all_trumps_face_down", "deals")
"""The Unsun options the C core plays (all of today's)."""

_FIELDS: tuple[tuple[str, str], ...] = (
    ("phase", "3"),
    ("to_act", "n"),
    ("deal_number", "1"),
    ("hand", "53"),
    ("hand_sizes", "n"),
    ("totals", "n"),
    ("players", "1"),
    ("dealer", "n"),
    ("indicator", "53"),
    ("trump", "4"),
    ("starting_player", "n"),
    ("last_player", "n"),
    ("trick", "54n"),
    ("face_down", "n"),
    ("last_trick", "54n"),
    ("last_trick_winner", "n"),
    ("last_trick_last_player", "n"),
    ("tricks", "54n"),
    ("tricks_won", "n"),
    ("deals_won", "n"),
    ("deals", "1"),
)
"""UnsunView's encoded fields in order, with their sizes for ``n`` seats (as the C core's
``offsets_for`` lays them out)."""


def layout(n: int) -> tuple[tuple[str, int, int], ...]:
    """The observation layout the C core writes for ``n`` seats (kirifuda-env/2):
    ``(field, offset, size)``."""
    out = []
    off = 0
    for name, size in _FIELDS:
        k = n if size == "n" else 54 * n if size == "54n" else int(size)
        out.append((name, off, k))
        off += k
    return tuple(out)


LAYOUT: tuple[tuple[str, int, int], ...] = layout(4)
"""The layout at the default table of four (``layout(n)`` for the others)."""

_configured = False


def available() -> bool:
    """Whether the C core was built (it needs a C compiler at install time)."""
    return _c is not None


def _configure() -> None:
    global _configured
    if _configured:
        return
    assert _c is not None
    sizes = [_rules.DEAL_SIZES.get(n, (0, 0)) for n in range(6)]
    _c.configure(
        [g for row in _rules.GROUPS for g in row],
        [m for pair in _rules.FACE_DOWN_MASKS for m in pair],
        [s[0] for s in sizes],
        [s[1] for s in sizes],
        _rules.TENKA,
        _rules._FACE_RANK_INDEX,
    )
    _configured = True


def _check(env: Any) -> None:
    """Refuse what the core does not play, naming it."""
    defaults = _rules.UnsunOptions(players=env.options.players)
    for f in dataclasses.fields(env.options):
        if f.name not in SUPPORTED_OPTIONS and getattr(env.options, f.name) != getattr(defaults, f.name):
            raise OptionError(
                f"option {f.name}={getattr(env.options, f.name)!r}: the batched C core of Unsun does not play it"
                f" (it plays {', '.join(SUPPORTED_OPTIONS)}); use kirifuda.env.vector.vector_env"
            )
    got = tuple((name, off, size) for name, off, size, _ in env.encoder.layout())
    if got != layout(env.num_players):
        raise RuntimeError(f"the Unsun observation layout changed ({env.version}); _unsun_vector.c writes the old one")


def batch(n: int, env: Any, *, first: int, autoreset: bool, scale: Any, arrays: dict[str, Any]) -> Any:
    """A C batch of ``n`` Unsun envs playing as ``env`` (a :class:`kirifuda.env.core.GameEnv`,
    the contract: its options, ``match``, ``recall``, ``scaled``) into ``arrays`` (``obs``,
    ``mask``, ``to_act``, ``rewards``, ``done``: numpy arrays it writes in place)."""
    if _c is None:
        raise OptionError("the batched Unsun core was not built (no C compiler at install time)")
    _check(env)
    _configure()
    options = env.options
    return _c.Batch(
        n=n,
        players=options.players,
        first=first,
        deals=options.match_deals,
        all_trumps_face_down=options.all_trumps_face_down,
        reflip_face_card=options.reflip_face_card,
        match=env.match,
        recall={None: 0, "cards": 1, "full": 2}[env.recall],
        rows=env.spec.deal_steps,
        autoreset=autoreset,
        scale=scale,
        **arrays,
    )


def random_words(seed: int, count: int) -> list[int]:
    """The first ``count`` draws of ``random.Random(seed).random()`` (times 2**53, integers) as
    the C core makes them: the stream it deals from (for the tests)."""
    if _c is None:
        raise OptionError("the batched Unsun core was not built (no C compiler at install time)")
    words: list[int] = _c.random_words(seed & (2**64 - 1), count)
    return words
