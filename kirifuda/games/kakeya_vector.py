"""Kakeya's batched env core (掛合トランプの一括コア): Kakeya's part of :mod:`kirifuda.env.vector`.

``kirifuda/games/_kakeya_vector.c`` plays N games at once, the whole game in C — the deal (the
engine's shuffle: Python's ``random.Random`` redone in C, so that an env seeded with ``s`` deals
what :meth:`kirifuda.env.core.GameEnv.reset` with ``seed=s`` deals), the dealing pair's trump
decision (切り), the leading pair's choice of the leader, the thirteen tricks with the rensho
(れんしょ, ♠A, or ♣A under ♠ trump: it beats every card and follows its printed suit), the face
cards (絵札) each pair takes, the result (9 or more, 8 – 8 to the pair not dealt the rensho)
and the chip payment (ご石) by the chip table — and writes each env's observation vector and
action mask (the Python env's layout, :class:`kirifuda.env.core.ObservationEncoder`) into
numpy arrays.  No phase falls back to Python.

An episode starts a fresh match, as the Python env's: game 1 as the rules fix it (four players:
pair 1 deals, pair 0 leads; six: pair 2 deals and sits out).  It is that one game
(``match=False``) or the whole match (``match=True``: the loser's pair deals the next game, the
winner's leads, the trump carries over, until the match is over); the reward of a game is the
chip change of each seat's pair, given when the game ends.

Every Kakeya option is supported (``players``, ``initial_trump``, ``stop_at_zero``, ``games``),
and the env options ``recall`` (``None``, ``"cards"``, ``"full"``) and ``scaled``; ``claims``
changes nothing (Kakeya has no claim).  An option the core does not know (one added to the game
later) is refused by name unless it has its default value.

The engine stays the truth: the card strengths come from :mod:`kirifuda.games.kakeya`, the
observation offsets are checked against the encoder's layout here, and the tests step the C
core and the Python env on the same deals and compare everything they return.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import OptionError
from . import kakeya as _rules

try:
    from . import _kakeya_vector as _c  # type: ignore[attr-defined, unused-ignore]
except ImportError:  # built without a C compiler
    _c = None  # type: ignore[assignment, unused-ignore]

__all__ = ["SUPPORTED_OPTIONS", "LAYOUT", "available", "batch"]

SUPPORTED_OPTIONS = ("players", "initial_trump", "stop_at_zero", "games")
"""The Kakeya options the C core plays (all of today's)."""


def _layout(n: int) -> tuple[tuple[str, int, int], ...]:
    """The offsets ``_kakeya_vector.c`` writes for ``n`` seats (its ``set_layout``)."""
    h = n // 2
    sizes = (
        ("phase", 5),
        ("to_act", n),
        ("deal_number", 1),
        ("hand", 53),
        ("hand_sizes", n),
        ("totals", n),
        ("players", 1),
        ("own_pair", h),
        ("dealing_pair", h),
        ("leading_pair", h),
        ("sitting_out", h),
        ("trump", 4),
        ("trump_decided", 1),
        ("rensho", 53),
        ("leader", n),
        ("trick", n * 53 + n),
        ("last_trick", n * 53 + n),
        ("last_trick_winner", n),
        ("tricks_played", 1),
        ("face_cards", n * 53),
    )
    out = []
    off = 0
    for name, size in sizes:
        out.append((name, off, size))
        off += size
    return tuple(out)


LAYOUT: dict[int, tuple[tuple[str, int, int], ...]] = {4: _layout(4), 6: _layout(6)}
"""The observation layout the C core writes (kirifuda-env/2) by table size: ``(field, offset,
size)``."""

_TRUMPS = "SHDC"
_configured = False


def available() -> bool:
    """Whether the C core was built (it needs a C compiler at install time)."""
    return _c is not None


def _configure() -> None:
    global _configured
    if _configured:
        return
    assert _c is not None
    _c.configure(
        [x for trump in _rules.STRENGTH for led in trump for x in led],
        list(_rules.SUIT_MASKS),
        _rules.FACE_MASK,
        _rules.ALL_ACES,
        _rules.START_CHIPS,
    )
    _configured = True


def _check(env: Any) -> None:
    """Refuse what the core does not play, naming it."""
    defaults = type(env.options)()
    for f in dataclasses.fields(env.options):
        if f.name not in SUPPORTED_OPTIONS and getattr(env.options, f.name) != getattr(defaults, f.name):
            raise OptionError(
                f"option {f.name}={getattr(env.options, f.name)!r}: the batched C core of Kakeya does not play it"
                f" (it plays {', '.join(SUPPORTED_OPTIONS)}); use kirifuda.env.vector.vector_env"
            )
    got = tuple((name, off, size) for name, off, size, _ in env.encoder.layout())
    if got != LAYOUT.get(env.num_players):
        raise RuntimeError(
            f"the Kakeya observation layout changed ({env.version}); _kakeya_vector.c writes the old one"
        )


def batch(n: int, env: Any, *, first: int, autoreset: bool, scale: Any, arrays: dict[str, Any]) -> Any:
    """A C batch of ``n`` Kakeya envs playing as ``env`` (a :class:`kirifuda.env.core.GameEnv`,
    the contract: its options, ``recall``, ``scaled``) into ``arrays`` (``obs``, ``mask``,
    ``to_act``, ``rewards``, ``done``: numpy arrays it writes in place).  ``first`` changes
    nothing: the rules fix who deals and leads game 1."""
    if _c is None:
        raise OptionError("the batched Kakeya core was not built (no C compiler at install time)")
    _check(env)
    _configure()
    options = env.options
    return _c.Batch(
        n=n,
        players=options.players,
        initial_trump=_TRUMPS.index(options.initial_trump),
        stop_at_zero=options.stop_at_zero,
        games=options.games or 0,
        match=env.match,
        recall={None: 0, "cards": 1, "full": 2}[env.recall],
        autoreset=autoreset,
        scale=scale,
        **arrays,
    )
