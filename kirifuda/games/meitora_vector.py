"""Meitora's batched env core (明専トランプの一括コア): Meitora's part of :mod:`kirifuda.env.vector`.

``kirifuda/games/_meitora_vector.c`` plays N deals at once, the whole deal in C — dealing (the
engine's shuffle), the automatic four-jacks redeal (四枚J), bidding (吹き) with broken
(ブロークン), the agari (アガリ) and the negri (ネグリ), the play with joker requests (請求), the
claim (オープン) and its check, scoring — and writes each env's observation vector and action
mask (the Python env's layout, :class:`kirifuda.env.core.ObservationEncoder`) into numpy arrays.
No phase falls back to Python.

Every Meitora option is supported (``target``, ``claim_failure``, ``joker_lead``), and the env
options ``recall`` (``None``, ``"cards"``, ``"full"``), ``scaled`` and ``claims`` (``"keep"``,
``"off"``, ``"auto"``); an option the core does not know (one added to the game later) is
refused by name unless it has its default value, as is ``match=True`` (one episode is one
deal).

The engine stays the truth: the card tables come from :mod:`kirifuda.games.meitora`, the
observation offsets are checked against the encoder's layout here, and the tests step the C
core and the Python env on the same deals and compare everything they return.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import OptionError
from . import meitora as _rules

try:
    from . import _meitora_vector as _c  # type: ignore[attr-defined, unused-ignore]
except ImportError:  # built without a C compiler
    _c = None  # type: ignore[assignment, unused-ignore]

__all__ = ["SUPPORTED_OPTIONS", "LAYOUT", "available", "batch"]

SUPPORTED_OPTIONS = ("target", "claim_failure", "joker_lead")
"""The Meitora options the C core plays (all of today's)."""

LAYOUT: tuple[tuple[str, int, int], ...] = (
    ("phase", 0, 5),
    ("to_act", 5, 4),
    ("deal_number", 9, 1),
    ("hand", 10, 53),
    ("hand_sizes", 63, 4),
    ("totals", 67, 4),
    ("first_bidder", 71, 4),
    ("bids", 75, 699),
    ("declarer", 774, 4),
    ("contract", 778, 139),
    ("agari", 917, 53),
    ("negri", 970, 53),
    ("trick", 1023, 216),
    ("joker_request", 1239, 7),
    ("last_trick", 1246, 216),
    ("last_trick_winner", 1462, 4),
    ("tricks_played", 1466, 1),
    ("team_tricks", 1467, 4),
    ("own_team_tricks", 1471, 213),
    ("target", 1684, 1),
    ("last_trick_request", 1685, 7),
    ("own_team_requests", 1692, 7),
    ("shown_hands", 1699, 212),
    ("pending_discard", 1911, 53),
)
"""The observation layout the C core writes (kirifuda-env/2): ``(field, offset, size)``."""

_configured = False


def available() -> bool:
    """Whether the C core was built (it needs a C compiler at install time)."""
    return _c is not None


def _configure() -> None:
    global _configured
    if _configured:
        return
    assert _c is not None
    trumps = [_rules.NO_SUIT if t is None else t for t in (_rules._TRUMP_OF_STRAIN[s] for s in _rules.STRAINS)]
    _c.configure(
        list(_rules.DECK_IDS),
        [x for row in _rules.EFF_SUIT for x in row],
        [x for row in _rules.SUIT_MASKS for x in row],
        [x for strain in _rules.STRENGTH for row in strain for x in row],
        trumps,
        _rules.ALL_JACKS,
        _rules.HONOUR_MASK,
        _rules.QUEEN_MASK,
    )
    _configured = True


def _check(env: Any) -> None:
    """Refuse what the core does not play, naming it."""
    if env.match:
        raise OptionError("match=True: the batched core plays one deal per episode (match=False)")
    defaults = _rules.MeitoraOptions()
    for f in dataclasses.fields(env.options):
        if f.name not in SUPPORTED_OPTIONS and getattr(env.options, f.name) != getattr(defaults, f.name):
            raise OptionError(
                f"option {f.name}={getattr(env.options, f.name)!r}: the batched C core of Meitora does not play it"
                f" (it plays {', '.join(SUPPORTED_OPTIONS)}); use kirifuda.env.vector.vector_env"
            )
    got = tuple((name, off, size) for name, off, size, _ in env.encoder.layout())
    if got != LAYOUT:
        raise RuntimeError(
            f"the Meitora observation layout changed ({env.version}); _meitora_vector.c writes the old one"
        )


def batch(n: int, env: Any, *, first: int, autoreset: bool, scale: Any, arrays: dict[str, Any]) -> Any:
    """A C batch of ``n`` Meitora envs playing as ``env`` (a :class:`kirifuda.env.core.GameEnv`,
    the contract: its options, ``recall``, ``scaled``, ``claims``) into ``arrays``
    (``obs``, ``mask``, ``to_act``, ``rewards``, ``done``: numpy arrays it writes in place)."""
    if _c is None:
        raise OptionError("the batched Meitora core was not built (no C compiler at install time)")
    _check(env)
    _configure()
    options = env.options
    return _c.Batch(
        n=n,
        first=first,
        target=options.target,
        joker_request=options.joker_lead == "request",
        claim_in_mask=env.claims == "keep" and options.claim_failure == "chombo",
        auto_claim=env.claims == "auto",
        recall={None: 0, "cards": 1, "full": 2}[env.recall],
        autoreset=autoreset,
        scale=scale,
        **arrays,
    )


def splitmix64(seed: int, words: int) -> bytes:
    """The first ``words`` 64-bit words (little-endian bytes) of the random stream an env seeded
    with ``seed`` deals from (40 words a deal)."""
    if _c is None:
        raise OptionError("the batched Meitora core was not built (no C compiler at install time)")
    return bytes(_c.splitmix64(seed & (2**64 - 1), words))
