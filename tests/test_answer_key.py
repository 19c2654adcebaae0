"""INSTRUCTORS.md, the answer key, is what scripts/make_answer_key.py computes from sim now.

The key is computed in this process (the script's `answer_key()`), as `--check` does, without a
new interpreter.
"""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("make_answer_key", ROOT / "scripts" / "make_answer_key.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_answer_key_is_up_to_date():
    script = _script()
    assert script.KEY.read_text(encoding="utf-8") == script.answer_key(), (
        "INSTRUCTORS.md is stale: run .venv/bin/python scripts/make_answer_key.py"
    )


def test_answer_key_covers_every_lesson():
    key = (ROOT / "INSTRUCTORS.md").read_text(encoding="utf-8")
    for notebook in sorted((ROOT / "lessons").glob("*.ipynb")):
        number = int(notebook.name[:2])
        assert f"## Lesson {number} " in key, f"no answers for {notebook.name}"
