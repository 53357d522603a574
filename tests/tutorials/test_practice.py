"""Practice undo's rule (kirifuda/practice.py): only your own last decision, only when no other
human has acted since, only when nothing hidden has been shown to you since; never at a table
with other humans."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kirifuda.cards import parse_card
from kirifuda.practice import Decision, decision, may_undo, revealed_cards
from kirifuda.tutorials import load

ME = 0


def test_own_last_decision_with_nothing_since() -> None:
    history = [Decision(1, False), Decision(ME, True), Decision(2, False)]
    check = may_undo(history, ME, {ME})
    assert check.allowed and check.back_to == 1 and check.message() is None


def test_refusals_name_the_reason() -> None:
    assert may_undo([], ME, {ME}).reason == "undo.nothing"
    assert may_undo([Decision(1, False)], ME, {ME}).reason == "undo.nothing"
    mine = [Decision(ME, True)]
    assert may_undo(mine, ME, {ME, 2}).reason == "undo.not_practice"
    assert may_undo(mine + [Decision(1, False, frozenset({ME}))], ME, {ME}).reason == "undo.revealed"
    assert may_undo([Decision(ME, True, frozenset({ME}))], ME, {ME}).reason == "undo.revealed"
    assert may_undo([Decision(ME, True), Decision(2, True)], ME, {ME}).reason == "undo.other_human"
    assert may_undo(mine, ME, {ME, 2}).message("ja") == "ほかの人がいる卓では待ったはできません"
    # a bot's move that showed something to another seat only does not matter
    assert may_undo(mine + [Decision(1, False, frozenset({3}))], ME, {ME}).allowed


moves = st.lists(st.builds(Decision, st.integers(0, 3), st.booleans(),
                           st.frozensets(st.integers(0, 3), max_size=2)), max_size=12)


@given(moves, st.frozensets(st.integers(0, 3), max_size=3))
def test_allowed_exactly_when_the_rule_holds(history: list[Decision], others: frozenset[int]) -> None:
    humans = others | {ME}
    check = may_undo(history, ME, humans)
    mine = [i for i, d in enumerate(history) if d.seat == ME and d.human]
    expected = (humans == {ME} and bool(mine)
                and not any(d.human and d.seat != ME for d in history[mine[-1] + 1:])
                and not any(ME in d.revealed for d in history[mine[-1]:])) if mine else False
    assert check.allowed == expected
    if check.allowed:
        assert check.back_to == mine[-1] and check.reason is None
    else:
        assert check.back_to is None and check.reason is not None and check.reason.startswith("undo.")


def _moves(game: str, upto: int) -> list[Decision]:
    tutorial = load(game)
    out = []
    for i in range(upto):
        before, after = tutorial.state_at(i), tutorial.state_at(i + 1)
        out.append(decision(before, after, tutorial.steps[i].seat, {ME}))
    return out


def test_with_the_engines() -> None:
    # Meitora: the last bid makes seat 0 declarer and shows it the agari: no undo of that bid
    meitora = _moves("meitora", 4)
    assert ME in meitora[3].revealed
    assert may_undo(meitora, ME, {ME}).reason == "undo.revealed"
    # the negri shows nothing new: it may be taken back while no one has played
    assert may_undo(_moves("meitora", 5), ME, {ME}).allowed
    # a bot's card played face up after the learner's lead is a card the learner had not seen
    assert may_undo(_moves("meitora", 7), ME, {ME}).reason == "undo.revealed"
    assert may_undo(_moves("meitora", 6), ME, {ME}).allowed
    # Unsun: seat 3's face-down ♠K shows nothing; the end of the trick shows it
    unsun = load("unsun")
    assert not revealed_cards(unsun.state_at(0), unsun.state_at(1), ME)
    assert parse_card("KS") in revealed_cards(unsun.state_at(3), unsun.state_at(4), ME)
    # the end of a deal shows every hand
    napoleon = load("napoleon")
    n = len(napoleon.steps)
    assert len(revealed_cards(napoleon.state_at(n - 1), napoleon.state_at(n), ME)) > 1
