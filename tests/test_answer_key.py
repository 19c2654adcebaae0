"""INSTRUCTORS.md, the answer key, is what scripts/make_answer_key.py computes from sim now."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_answer_key_is_up_to_date():
    done = subprocess.run(
        [sys.executable, "scripts/make_answer_key.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_answer_key_covers_every_lesson():
    key = (ROOT / "INSTRUCTORS.md").read_text(encoding="utf-8")
    for notebook in sorted((ROOT / "lessons").glob("*.ipynb")):
        number = int(notebook.name[:2])
        assert f"## Lesson {number} " in key, f"no answers for {notebook.name}"
