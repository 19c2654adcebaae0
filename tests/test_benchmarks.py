"""The benchmark scripts still run (small sizes; their timings are printed, never asserted).

They run in this process, as `__main__` with their own command line, so a check costs no new
interpreter; `batch_speed.py` would pin its process to one core, which here is recorded instead.
`startup.py` times fresh interpreters itself.
"""

import os
import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(monkeypatch, capsys, script: str, *args: str) -> str:
    monkeypatch.setattr(sys, "argv", [script, *args])
    runpy.run_path(str(ROOT / "benchmarks" / script), run_name="__main__")
    return capsys.readouterr().out


@pytest.mark.slow
def test_batch_speed_runs_and_checks_the_paths_agree(monkeypatch, capsys):
    pinned = []
    if hasattr(os, "sched_setaffinity"):
        monkeypatch.setattr(os, "sched_setaffinity", lambda pid, cores: pinned.append(cores))
    out = _run(monkeypatch, capsys, "batch_speed.py", "--seeds", "40", "--repeats", "1", "--changes", "1")
    assert "per-seed figures of the two paths: equal" in out and "ratio" in out
    assert "lesson 5 panel at about 10000 seeds" in out
    assert pinned == ([] if not hasattr(os, "sched_setaffinity") else [{min(os.sched_getaffinity(0))}])


@pytest.mark.slow
@pytest.mark.parametrize("lesson", ("1", "2", "3", "4", "5", "6"))
def test_panel_latency_runs_for_each_lesson_it_knows(monkeypatch, capsys, lesson):
    out = _run(monkeypatch, capsys, "panel_latency.py", "--lesson", lesson, "--changes", "4")
    assert f"lesson {lesson} panel, 4 changes: median" in out


@pytest.mark.slow
def test_startup_benchmark_runs(monkeypatch, capsys):
    out = _run(monkeypatch, capsys, "startup.py", "--repeat", "1")
    assert "python -m sim table" in out and "median" in out
