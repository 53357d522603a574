"""The commit-msg check of ``.pre-commit-config.yaml``: a commit message's subject (its first
line) holds at most 72 characters, counted as characters (a Japanese term counts one each);
the details go in the body, after a blank line.

Usage: ``python tools/commit_subject.py MESSAGE_FILE`` (exit 1 with the reason when too long)."""

from __future__ import annotations

import sys
from pathlib import Path

LIMIT = 72


def subject_problem(message: str) -> str | None:
    """Why ``message``'s subject is refused, or None.  Git's comment lines (``#``) are skipped."""
    lines = [line for line in message.splitlines() if not line.startswith("#")]
    subject = lines[0].rstrip() if lines else ""
    if not subject:
        return "the commit message has no subject"
    if len(subject) > LIMIT:
        return f"the subject has {len(subject)} characters, at most {LIMIT}: {subject!r}"
    return None


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: commit_subject.py MESSAGE_FILE", file=sys.stderr)
        return 2
    problem = subject_problem(Path(argv[0]).read_text(encoding="utf-8"))
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
