"""The maintainer command (scripts/refresh_lessons.py): a second run with nothing changed leaves the
files as they were (widget ids fixed by the lesson), and a failing or interrupted run says which lesson,
which cell, and what is left to do."""

import importlib.util

import nbformat
import pytest
from course_checks import ROOT, lesson_notebooks

SPEC = importlib.util.spec_from_file_location("refresh_lessons", ROOT / "scripts" / "refresh_lessons.py")
refresh_lessons = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(refresh_lessons)


@pytest.mark.parametrize("path", lesson_notebooks(), ids=[p.stem for p in lesson_notebooks()])
def test_a_stored_panel_is_one_plain_line_and_no_widget_state_is_stored(path):
    """Whatever JupyterLab does with the committed file (trusted or not, before any run), the panel
    area shows one line saying to run the notebook: no widget view to fail, no state drawn dead."""
    from sim.presentation.panel import RUN_FIRST

    committed = nbformat.read(path, as_version=4)
    assert "widgets" not in committed.metadata, f"{path.stem}: saved widget state"
    outputs = [o for cell in committed.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if refresh_lessons.WIDGET_VIEW in o.get("data", {})], path.stem
    panels = [o for o in outputs if o.get("data", {}).get("text/plain") == RUN_FIRST]
    assert len(panels) == 1 and set(panels[0]["data"]) == {"text/plain"}, (
        f"{path.stem}: the Explore cell does not store the panel's plain line; run "
        f".venv/bin/python scripts/refresh_lessons.py {path.stem[:2]}"
    )


@pytest.mark.slow
def test_a_failing_cell_names_the_lesson_and_the_cell(tmp_path, monkeypatch, capsys):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "09_broken.py").write_text('# %%\nprint("fine")\n\n# %%\nraise ValueError("no good")\n')
    monkeypatch.setattr(refresh_lessons, "ROOT", tmp_path)
    monkeypatch.setattr(refresh_lessons, "LESSONS", lessons)
    assert refresh_lessons.main(["09"]) == 1
    err = capsys.readouterr().err
    assert (
        "lessons/09_broken.py: code cell 2 (nbval Cell 1, JupyterLab [2]) raised ValueError: no good" in err
    )
    assert "refreshed: none; not refreshed: 09_broken" in err
    assert not (lessons / "09_broken.ipynb").exists()  # nothing half-written


def test_an_interrupted_refresh_says_what_was_and_was_not_refreshed(tmp_path, monkeypatch, capsys):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for name in ("01_a", "02_b"):
        (lessons / f"{name}.py").write_text("# %%\nprint(1)\n")
    calls = []

    def refresh(source):
        calls.append(source.stem)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(refresh_lessons, "refresh", refresh)
    monkeypatch.setattr(refresh_lessons, "LESSONS", lessons)
    assert refresh_lessons.main([]) == 130
    err = capsys.readouterr().err
    assert "refresh interrupted" in err and "refreshed: 01_a; not refreshed: 02_b" in err
    assert "Traceback" not in err


def test_a_cell_inserted_does_not_shift_the_comparison_of_the_others():
    old = [nbformat.v4.new_code_cell(f"print({k})") for k in range(3)]
    new = [old[0], nbformat.v4.new_code_cell("print('new')"), *old[1:]]
    new = [nbformat.from_dict(dict(cell)) for cell in new]  # copies, as a re-execution makes
    pairs = refresh_lessons.matched_cells(old, new)
    assert [(n.source, o.source) for n, o in pairs] == [(c.source, c.source) for c in old]
    assert all(n is not new[1] for n, _ in pairs)
