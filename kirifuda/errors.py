"""The exception tree.  Everything is a ``ValueError``, and every message names what is wrong.

- :class:`InvalidActionError`: the action is malformed (not a card, not a bid).
- :class:`IllegalActionError`: a well-formed action that the rules forbid now; it names the
  seat, the action and the rule.
- :class:`OptionError`: an unknown local-rule option or a bad value.
- :class:`RecordError`: a bad game record; it carries where (deal and action indices, and a
  JSON path) and the reason.
"""

from __future__ import annotations

__all__ = ["KirifudaError", "InvalidActionError", "IllegalActionError", "OptionError", "RecordError", "DealError"]


class KirifudaError(ValueError):
    """Base of all kirifuda errors."""


class InvalidActionError(KirifudaError):
    """A malformed action, card or bid."""


class IllegalActionError(KirifudaError):
    """An action the rules do not allow now.  The game state is unchanged."""

    def __init__(self, seat: int | None, action: object, rule: str) -> None:
        self.seat = seat
        self.action = action
        self.rule = rule
        who = "no seat" if seat is None else f"seat {seat}"
        super().__init__(f"illegal action {_action_text(action)} by {who}: {rule}")


def _action_text(action: object) -> str:
    to_json = getattr(action, "to_json", None)
    if callable(to_json):
        import json

        return json.dumps(to_json(), ensure_ascii=False)
    return repr(action)


class OptionError(KirifudaError):
    """An unknown option, or a value the option does not take."""


class RecordError(KirifudaError):
    """A game record that cannot be read or replayed.

    ``deal`` and ``action`` are 0-based indices (``None`` where the error is not inside one),
    ``path`` a JSON path such as ``deals[2].actions[14]``.
    """

    def __init__(
        self, message: str, *, deal: int | None = None, action: int | None = None, seat: int | None = None
    ) -> None:
        self.reason = message
        self.deal = deal
        self.action = action
        self.seat = seat
        path = ""
        if deal is not None:
            path = f"deals[{deal}]"
            if action is not None:
                path += f".actions[{action}]"
        self.path = path
        where = []
        if deal is not None:
            where.append(f"deal {deal}")
        if action is not None:
            where.append(f"action {action}")
        if seat is not None:
            where.append(f"seat {seat}")
        prefix = (", ".join(where) + ": ") if where else ""
        super().__init__(prefix + message)

    def to_json(self) -> dict[str, object]:
        return {"deal": self.deal, "action": self.action, "seat": self.seat, "path": self.path, "message": str(self)}


class DealError(KirifudaError):
    """Cards given for a deal that are not the game's deck in the game's sizes."""
