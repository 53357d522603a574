"""``python -m kirifuda.env``: print the action ranges and observation layout of every game
(the generated part of ``docs/env.md``)."""

from __future__ import annotations

from ..games import GAMES
from .core import layout_markdown


def main() -> None:
    print("\n".join(layout_markdown(g) for g in sorted(GAMES)), end="")


if __name__ == "__main__":
    main()
