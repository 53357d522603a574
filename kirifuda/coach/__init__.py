"""The coach (コーチ): hints with reasons, and the review of a deal.

- :func:`hint` (:mod:`.hint`): the ``search`` bot's choice for a seat, from that seat's view
  alone, with the best alternatives and a reason in Japanese or English;
- :func:`review` (:mod:`.review`): every decision of a recorded deal marked with what it cost,
  card plays against best play with all hands open (:mod:`.positions`);
- ``kirifuda analyze RECORD`` (:mod:`.cli`) prints the review;
- :func:`may_undo` (:mod:`.practice`): the practice table's undo rule.
"""

from __future__ import annotations

from .hint import Hint, HintError, Option, hint, seat_views
from .practice import UndoVerdict, may_undo, undone
from .review import DealReview, Mark, Review, SeatSummary, review, review_text

__all__ = [
    "Hint",
    "HintError",
    "Option",
    "hint",
    "seat_views",
    "DealReview",
    "Mark",
    "Review",
    "SeatSummary",
    "review",
    "review_text",
    "UndoVerdict",
    "may_undo",
    "undone",
]
