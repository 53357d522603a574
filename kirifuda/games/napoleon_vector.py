"""Napoleon's batched env core (ナポレオンの一括コア): Napoleon's part of :mod:`kirifuda.env.vector`.

``kirifuda/games/_napoleon_vector.c`` plays N deals at once, the whole deal in C — dealing (the
engine's shuffle), the bidding (立候補) and the void deal when all pass, the adjutant's card
(副官) and solo (独り立ち), the exchange with the middle (中札) taken card by card as the env
takes it, the re-declaration (再宣言) and its approvals, the play (the almighty オールマイティ,
yoromeki よろめき, the first-trick ace 初回のA or the plain first trick, same-2 セイム2, the main
and back jacks 正ジャック・裏ジャック, the joker and the ♠3 call), strategy B (作戦B) and the
scoring — and writes each env's observation vector and action mask (the Python env's layout,
:class:`kirifuda.env.core.ObservationEncoder`) into numpy arrays.  No phase falls back to Python.

Every Napoleon option is supported (``players`` 5 or 4, ``joker``, ``yoromeki``,
``first_trick_plain``, ``strategy_b``, ``redeclare``, ``deals``), and the env options ``recall``
(``None``, ``"cards"``, ``"full"``), ``scaled`` and ``claims`` (Napoleon has no claim: every
choice is the same game), and ``match=True`` (one episode is the whole match: each deal's score
rewarded when it ends, the next deal dealt at once); an option the core does not know (one added
to the game later) is refused by name unless it has its default value.

Seeds: the engine deals by sorting the deck on one ``random.Random.random()`` per card, and the
core carries a Mersenne Twister per env seeded and drawn as CPython's, so an env reset with seed
``s`` (0 … 2**64 − 1) deals what ``GameEnv("napoleon").reset(seed=s)`` deals, and its next deals
(autoreset) what that env deals next.

The engine stays the truth: the deck's order and the special cards come from
:mod:`kirifuda.games.napoleon`, the action numbering is checked against the env's catalog and the
observation offsets against the encoder's layout here, and the tests step the C core and the
Python env on the same deals and compare everything they return.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import OptionError
from . import napoleon as _rules

try:
    from . import _napoleon_vector as _c  # type: ignore[attr-defined, unused-ignore]
except ImportError:  # built without a C compiler
    _c = None  # type: ignore[assignment, unused-ignore]

__all__ = ["SUPPORTED_OPTIONS", "LAYOUT", "available", "batch"]

SUPPORTED_OPTIONS = ("players", "joker", "yoromeki", "first_trick_plain", "strategy_b", "redeclare", "deals")
"""The Napoleon options the C core plays (all of today's)."""

FIELDS = (
    "phase",
    "to_act",
    "deal_number",
    "hand",
    "hand_sizes",
    "totals",
    "players",
    "first_bidder",
    "bids",
    "napoleon",
    "contract",
    "adjutant_card",
    "adjutant",
    "solo",
    "middle",
    "discard",
    "proposal",
    "approvals",
    "trick",
    "joker_request",
    "joker_called",
    "last_trick",
    "last_trick_winner",
    "tricks_played",
    "face_cards_taken",
    "deals_played",
    "match_length",
    "yoromeki",
    "first_trick_plain",
    "pending_discard",
)
"""The view's fields in the order the C core knows them (``_napoleon_vector.c``'s ``F_*``)."""

NUM_ACTIONS = 249


def _layout(n: int) -> tuple[tuple[str, int, int], ...]:
    sizes = {
        "phase": 8,
        "deal_number": 1,
        "hand": 53,
        "players": 1,
        "bids": n * NUM_ACTIONS + n + NUM_ACTIONS,
        "contract": NUM_ACTIONS,
        "adjutant_card": 53,
        "solo": 2,
        "middle": 53,
        "discard": 53,
        "proposal": NUM_ACTIONS,
        "approvals": 2 * n,
        "trick": n * 53 + n,
        "joker_request": 7,
        "joker_called": 1,
        "last_trick": n * 53 + n,
        "tricks_played": 1,
        "face_cards_taken": n * 53,
        "deals_played": 1,
        "match_length": 1,
        "yoromeki": 1,
        "first_trick_plain": 1,
        "pending_discard": 53,
    }
    out = []
    off = 0
    for name in FIELDS:
        size = sizes.get(name, n)  # the per-seat fields: one slot a seat
        out.append((name, off, size))
        off += size
    return tuple(out)


LAYOUT: dict[int, tuple[tuple[str, int, int], ...]] = {5: _layout(5), 4: _layout(4)}
"""The observation layouts the C core writes (kirifuda-env/2), by table size:
``(field, offset, size)``."""

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
        list(_rules.NapoleonState(_rules.NapoleonOptions())._deck_ids),
        list(_rules.NapoleonState(_rules.NapoleonOptions(joker=True))._deck_ids),
        [_rules.SA, _rules.SK, _rules.HQ, _rules.S3],
        list(_rules._SAME_COLOUR),
        _rules.FACE_MASK,
    )
    _configured = True


def _check_catalog(catalog: Any) -> None:
    """The action numbering the C core uses is the env's."""
    from ..actions import PASS, Bid

    assert _c is not None
    want = {
        _c.NUM_ACTIONS: catalog.size,
        _c.A_CALL_JOKER: catalog.index(_rules.CALL_JOKER),
        _c.A_PASS: catalog.index(PASS),
        _c.A_ADJUTANT: catalog.family_start["adjutant"],
        _c.A_DISCARD: catalog.family_start["discard"],
        _c.A_REDECLARE: catalog.index(_rules.Redeclare()),
        _c.A_APPROVE: catalog.index(_rules.Approve(True)),
        _c.A_APPROVE + 1: catalog.index(_rules.Approve(False)),
    }
    for r, play in enumerate(_rules.JOKER_LEADS):
        want[_c.A_JOKER_LEAD + r] = catalog.index(play)
    for count in range(11, 21):
        for s, strain in enumerate("SHDC"):
            want[_c.A_BID + (count - 11) * 4 + s] = catalog.index(Bid(count, strain))
            want[_c.A_REDECLARE + 1 + (count - 11) * 4 + s] = catalog.index(_rules.Redeclare(count, strain))
    bad = [(mine, theirs) for mine, theirs in want.items() if mine != theirs]
    if bad:
        raise RuntimeError(f"the Napoleon action catalog changed; _napoleon_vector.c numbers the old one: {bad[:3]}")


def _check(env: Any) -> None:
    """Refuse what the core does not play, naming it."""
    defaults = _rules.NapoleonOptions()
    for f in dataclasses.fields(env.options):
        if f.name not in SUPPORTED_OPTIONS and getattr(env.options, f.name) != getattr(defaults, f.name):
            raise OptionError(
                f"option {f.name}={getattr(env.options, f.name)!r}: the batched C core of Napoleon does not play it"
                f" (it plays {', '.join(SUPPORTED_OPTIONS)}); use kirifuda.env.vector.vector_env"
            )
    got = tuple((name, off, size) for name, off, size, _ in env.encoder.layout())
    if got != LAYOUT[env.num_players]:
        raise RuntimeError(
            f"the Napoleon observation layout changed ({env.version}); _napoleon_vector.c writes the old one"
        )
    _check_catalog(env.catalog)


def batch(n: int, env: Any, *, first: int, autoreset: bool, scale: Any, arrays: dict[str, Any]) -> Any:
    """A C batch of ``n`` Napoleon envs playing as ``env`` (a :class:`kirifuda.env.core.GameEnv`,
    the contract: its options, ``match``, ``recall``, ``scaled``) into ``arrays`` (``obs``, ``mask``,
    ``to_act``, ``rewards``, ``done``: numpy arrays it writes in place)."""
    if _c is None:
        raise OptionError("the batched Napoleon core was not built (no C compiler at install time)")
    _check(env)
    _configure()
    options = env.options
    layout = LAYOUT[env.num_players]
    offsets = [off for _, off, _ in layout] + [env.encoder.size]
    return _c.Batch(
        n=n,
        first=first,
        players=options.players,
        joker=options.joker,
        yoromeki=options.yoromeki,
        first_trick_plain=options.first_trick_plain,
        strategy_b=options.strategy_b,
        redeclare=options.redeclare,
        match_length=options.match_length,
        recall={None: 0, "cards": 1, "full": 2}[env.recall],
        autoreset=autoreset,
        match=env.match,
        offsets=offsets,
        scale=scale,
        **arrays,
    )


def random_words(seed: int, n: int) -> list[int]:
    """The first ``n`` draws of ``random.Random(seed).random()`` as the core makes them (each
    times 2**53, an integer): the stream an env reset with ``seed`` deals from (one draw per card
    of the deck a deal)."""
    if _c is None:
        raise OptionError("the batched Napoleon core was not built (no C compiler at install time)")
    words: list[int] = _c.random_words(seed & (2**64 - 1), n)
    return words
