"""The benchmark scripts still run (small sizes; their timings are printed, never asserted)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_batch_speed_runs_and_checks_the_paths_agree():
    done = _run("benchmarks/batch_speed.py", "--seeds", "40", "--repeats", "1", "--changes", "1")
    assert done.returncode == 0, done.stderr
    assert "per-seed figures of the two paths: equal" in done.stdout and "ratio" in done.stdout


def test_panel_latency_runs_for_each_lesson_it_knows():
    for lesson in ("1", "2"):
        done = _run("benchmarks/panel_latency.py", "--lesson", lesson, "--changes", "4")
        assert done.returncode == 0, done.stderr
        assert f"lesson {lesson} panel, 4 changes: median" in done.stdout


def test_startup_benchmark_runs():
    done = _run("benchmarks/startup.py", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    assert "python -m sim table" in done.stdout and "median" in done.stdout
