"""The hint as the terminal shows it (``h`` at the user's turn in ``kirifuda play``)."""

from __future__ import annotations

from ..errors import KirifudaError
from ..game import GameState
from ..i18n import t
from .hint import hint

__all__ = ["hint_lines"]


def hint_lines(state: GameState, seat: int, lang: str = "en", seed: int = 0) -> list[str]:
    """The hint for ``seat`` in words: the choice, the reason, the alternatives weighed (or, where
    no hint can be given, why)."""
    try:
        h = hint(state, seat, seed=seed)
    except KirifudaError as exc:
        return [t("no_hint", lang) + f": {exc}"]
    lines = [f"{t('coach.hint', lang)}: {h.action.label(lang)}", h.reason(lang)]
    if h.alternatives:
        lines.append(f"{t('coach.alternatives', lang)}: " + ", ".join(o.action.label(lang) for o in h.alternatives))
    return lines
