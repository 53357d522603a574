"""``tools/commit_subject.py``, the commit-msg hook of ``.pre-commit-config.yaml``: a subject of
at most 72 characters, counted as characters."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "commit_subject.py"


def run(tmp_path: Path, message: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message, encoding="utf-8")
    return subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True, text=True)


def test_a_subject_of_72_characters_passes_and_73_fails(tmp_path: Path) -> None:
    assert run(tmp_path, "x" * 72 + "\n\n" + "a long body line " * 20 + "\n").returncode == 0
    refused = run(tmp_path, "x" * 73 + "\n")
    assert refused.returncode == 1 and "73 characters" in refused.stderr


def test_characters_are_counted_not_bytes(tmp_path: Path) -> None:
    assert run(tmp_path, "切" * 72).returncode == 0  # 216 bytes in UTF-8
    assert run(tmp_path, "切" * 73).returncode == 1


def test_comment_lines_and_an_empty_subject(tmp_path: Path) -> None:
    assert run(tmp_path, "# " + "x" * 100 + "\nshort subject\n").returncode == 0
    assert "no subject" in run(tmp_path, "\n# only a comment\n").stderr


def test_the_hook_is_declared_for_the_commit_msg_stage() -> None:
    config = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "tools/commit_subject.py" in config and "commit-msg" in config
