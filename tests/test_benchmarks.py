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


def test_the_table_formats_benchmark_runs(monkeypatch, capsys):
    out = _run(monkeypatch, capsys, "table_formats.py", "--seeds", "3", "--budgets", "2")
    assert "3 seeds x 2 budgets (12 rows): csv" in out and "text / csv" in out


def test_the_browser_benchmark_uses_only_what_the_browser_helpers_have():
    """benchmarks/browser_latency.py drives JupyterLab with the browser test's helpers (it needs
    Chromium and minutes, so it is not run here): every name it imports from them exists, and every
    method it calls on a NotebookPage is one."""
    import ast

    import jupyterlab_browser

    tree = ast.parse((ROOT / "benchmarks" / "browser_latency.py").read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                and node.module == "jupyterlab_browser" for alias in node.names]  # fmt: skip
    assert imported and all(hasattr(jupyterlab_browser, name) for name in imported), imported
    called = {node.func.attr for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
              and node.func.value.id == "page"}  # fmt: skip
    assert "clear_and_run_all" in called
    assert [name for name in called if not hasattr(jupyterlab_browser.NotebookPage, name)] == []
