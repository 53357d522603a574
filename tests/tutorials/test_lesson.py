"""Playing a tutorial: the learner's choice is checked (a worse choice refused with the reason,
an illegal one with the rule, the state unchanged), the other seats follow the record, and
nothing shown names a card the learner cannot see."""

from __future__ import annotations

import pytest

from kirifuda.actions import Play
from kirifuda.cards import parse_card
from kirifuda.tutorials import Lesson, available, load
from kirifuda.ui.render import card_text
from kirifuda.ui.terminal import visible_cards

from .helpers import wrong_choice


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("game", sorted(available()))
def test_play_through_with_wrong_tries(game: str, lang: str) -> None:
    tutorial = load(game)
    lesson = Lesson(tutorial, lang)
    refused = 0
    while not lesson.done:
        step = lesson.step
        assert step is not None
        if not lesson.learner_turn:
            played = lesson.advance()
            assert played.seat == step.seat
            continue
        before = lesson.state.summary(), lesson.index
        if step.expect is not None:
            wrong = wrong_choice(lesson)
            if wrong is not None:
                verdict, event = lesson.answer(wrong)
                assert not verdict.accepted and not verdict.correct and event is None
                assert step.why is not None and step.why.get(lang) in verdict.message
                assert (lesson.state.summary(), lesson.index) == before  # nothing changed
                refused += 1
        else:
            assert lesson.guide() is not None
            others = [a for a in lesson.state.legal_actions() if a != step.action]
            if others:
                verdict, _ = lesson.answer(others[0])
                assert not verdict.accepted
                assert (lesson.state.summary(), lesson.index) == before
        verdict, answered = lesson.answer(step.action)
        assert verdict.accepted and verdict.correct and answered is not None
    assert refused >= 2
    assert lesson.result()["outcome"] == "played"
    assert lesson.result() == tutorial.state_at(len(tutorial.steps)).summary()["deals"][0]


def test_an_illegal_choice_names_the_rule() -> None:
    lesson = Lesson(load("meitora"), "en", start=37)  # the joker must be played at trick nine
    assert lesson.learner_turn
    verdict, event = lesson.answer(Play(parse_card("9H")))
    assert not verdict.accepted and event is None
    assert "joker" in verdict.message.lower()
    ja = Lesson(load("meitora"), "ja", start=37).answer(Play(parse_card("9H")))[0]
    assert "ジョーカー" in ja.message


def test_another_expected_choice_goes_on_with_the_record() -> None:
    lesson = Lesson(load("meitora"), "en", start=3)
    verdict, event = lesson.answer(lesson.tutorial.info.action_from_json({"bid": "7H"}, 0))
    assert verdict.accepted and verdict.correct and "6♥" in verdict.message
    assert event is not None and event.text == "6♥"
    assert lesson.state.summary()["deals"][0]["contract"] == "6H"


def test_not_the_learners_turn() -> None:
    lesson = Lesson(load("unsun"), "en")
    assert not lesson.learner_turn
    with pytest.raises(ValueError):
        lesson.answer(Play(parse_card("2H")))
    lesson.advance()
    with pytest.raises(ValueError):
        lesson.advance()


@pytest.mark.parametrize("game", sorted(available()))
def test_nothing_hidden_is_shown(game: str) -> None:
    """At every step: the learner's hand is the view's, another seat's card is shown on the
    table or in an event only once the learner's view shows it (or its trick is over)."""
    tutorial = load(game)
    lesson = Lesson(tutorial, "en")
    theirs = {
        c
        for s, hand in enumerate(tutorial.record.deals[0].hands)
        if s != tutorial.seat
        for c in (parse_card(x) for x in hand)
    }
    while not lesson.done:
        view = lesson.view()
        seen = visible_cards(view)
        for seat, code in lesson.table():
            if code is not None and seat != lesson.seat:
                assert parse_card(code) in seen
        step = lesson.step
        assert step is not None
        event = lesson.play_recorded()
        card = getattr(step.action, "card", None)
        if step.seat != lesson.seat and card is not None and card in theirs:
            after = visible_cards(lesson.view()) | (
                {parse_card(c) for c in event.trick.cards} if event.trick is not None else set()
            )
            if card not in after:
                assert card_text(card, "en") not in event.text
                assert "face down" in event.text


def test_unsun_face_down_trump_stays_hidden_until_the_trick_ends() -> None:
    lesson = Lesson(load("unsun"), "en", start=0)
    event = lesson.advance()  # seat 3 leads ♠K face down
    assert event.text == "plays a card face down" and "K" not in event.text
    assert lesson.table() == [(3, None)]
    for _ in range(3):
        event = lesson.play_recorded()
    assert event.trick is not None and event.trick.cards[0] == "KS"  # shown once the trick is over
