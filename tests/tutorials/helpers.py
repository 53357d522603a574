"""What a learner types or clicks to follow a tutorial's record."""

from __future__ import annotations

import json

from kirifuda.actions import Action, Bid, Claim, Discard, Pass, Play
from kirifuda.tutorials import Lesson
from kirifuda.ui.render import sorted_actions


def typed(lesson: Lesson, action: Action) -> str:
    """The answer a player types at the terminal for ``action``: a card, a joker lead with its
    request, a bid, the cards of a discard, else the choice's number in the list shown."""
    if isinstance(action, Play) and action.request is not None:
        return f"{action.card.code.lower()} {action.request.lower()}"
    if isinstance(action, Play) and not action.call_joker:
        return action.card.code.lower()
    if isinstance(action, (Bid, Pass)):
        return str(action.to_json()["bid"]).lower()
    if isinstance(action, Discard):
        return " ".join(c.code.lower() for c in action.cards)
    if hasattr(action, "card"):
        return action.card.code.lower()  # Napoleon's adjutant: its card
    legal: list[Action] = [a for a in sorted_actions(lesson.view()) if not isinstance(a, Claim)]
    return str(legal.index(action) + 1)


def action_key(action: Action) -> str:
    """The action as the page writes it in a choice button's ``data-action``."""
    return json.dumps(action.to_json(), separators=(",", ":"), ensure_ascii=False)


def wrong_choice(lesson: Lesson) -> Action | None:
    """At a marked step, a legal choice the tutorial counts as worse (None if every legal choice
    is expected)."""
    step = lesson.step
    assert step is not None and step.expect is not None
    for a in lesson.state.legal_actions():
        if a not in step.expect and not isinstance(a, Claim):
            return a
    return None
