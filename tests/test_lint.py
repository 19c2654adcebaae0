"""Lint: ruff check and ruff format --check over the repository (run inside the test suite)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args):
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_check():
    done = _ruff("check", "--no-cache", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format():
    done = _ruff("format", "--no-cache", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr
