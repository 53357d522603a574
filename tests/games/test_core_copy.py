"""The core's generated ``copy()`` (``kirifuda.game.make_copy``) and deal log, for every game."""

from __future__ import annotations

import copy as copy_module
import random

import pytest

from kirifuda.game import GameState, _copy_fields
from kirifuda.games import GAMES
from kirifuda.games.meitora import PureMeitoraState


def _state_classes() -> list[type[GameState]]:
    classes = [type(info.new_state(info.options())) for info in GAMES.values()]
    return classes + [PureMeitoraState]


def _fields_set(state: GameState) -> set[str]:
    names = set(getattr(state, "__dict__", {}))
    for klass in type(state).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names.update(n for n in ((slots,) if isinstance(slots, str) else slots) if hasattr(state, n))
    return names - {"__dict__", "__weakref__"}


@pytest.mark.parametrize("cls", _state_classes(), ids=lambda c: c.__name__)
def test_every_field_is_copied(cls):
    """Every field a state has, along random matches, is one its generated copy carries over
    (a field added to a game and not declared would otherwise be lost by the copy)."""
    assert getattr(cls.copy, "_generated", False)
    assert cls.__copy__ is cls.copy
    fields = set(_copy_fields(cls))
    for seed in range(3):
        rng = random.Random(seed)
        state = cls(None)
        for _ in range(300):
            assert _fields_set(state) <= fields, sorted(_fields_set(state) - fields)
            twin = copy_module.copy(state)
            assert type(twin) is cls and twin.summary() == state.summary()
            assert twin.record_deals() == state.record_deals()
            if state.is_over:
                break
            if state.needs_deal:
                state.deal_random(rng)
            else:
                state.apply(rng.choice(state.legal_actions()))


def test_declared_lists_must_be_fields():
    with pytest.raises(TypeError, match="_nothing"):

        class Broken(GameState):  # noqa: F841
            __slots__ = ("_a",)
            COPY_LISTS = ("_nothing",)


def test_a_written_copy_is_kept_by_subclasses():
    class Written(GameState):
        __slots__ = ("_a",)

        def copy(self):
            return "written"

    class Sub(Written):
        __slots__ = ("_b",)

    assert Sub.copy is Written.copy


def test_generated_copy_shares_copies_and_nests():
    class Toy(GameState):
        __slots__ = ("_shared", "_list", "_nested")
        COPY_LISTS = ("_list",)
        COPY_NESTED = ("_nested",)

    Toy.__abstractmethods__ = frozenset()
    toy = Toy()
    toy._shared, toy._list, toy._nested = [1], [2], [[3], [4]]
    twin = toy.copy()
    assert twin._shared is toy._shared
    assert twin._list == toy._list and twin._list is not toy._list
    assert twin._nested == toy._nested and all(a is not b for a, b in zip(twin._nested, toy._nested))
