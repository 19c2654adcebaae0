"""Every lesson, found by glob: prose figures printed, pair in sync, executed in order, figures reproducible.

nbval re-executes each lessons/*.ipynb and compares outputs (or, where the browser test runs,
the same comparison is made on its run: tests/record_checks.py); these tests check what that
cannot. Each check is also shown to fail on a broken copy.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest
from course_checks import (
    LESSONS,
    ROOT,
    execution_problems,
    lesson_notebooks,
    lesson_sources,
    pairing_problems,
    prose_figure_problems,
)
from jupytext.cli import jupytext as jupytext_cli
from record_checks import figure_problems

import conftest

NOTEBOOKS = lesson_notebooks()
SOURCES = lesson_sources()
IDS = [p.stem for p in NOTEBOOKS]
# the kernel every Jupyter installation has; an editor may write its own (e.g. conda-env-x-py),
# which a bare `pytest --nbval` then cannot start (NoSuchKernel)
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def maintainer_command(path: Path) -> str:
    return f"`.venv/bin/python scripts/refresh_lessons.py {path.name[:2]}`"


def record_problems(notebook: Path) -> list[str]:
    """The executed-record check, with the fix: the maintainer command (never a bare jupytext conversion)."""
    return [
        f"{problem}: re-execute and re-pair with the maintainer command {maintainer_command(notebook)} "
        "(`jupytext --to ipynb` without --update drops every output)"
        for problem in execution_problems(notebook)
    ]


def kernelspec_problems(path: Path) -> list[str]:
    """Whether a lesson file (.ipynb, or the .py's header) names the standard Python 3 kernel."""
    found = jupytext.read(path).metadata.get("kernelspec")
    if found == KERNELSPEC:
        return []
    return [f"{path.name} names the kernel {found!r}, not {KERNELSPEC!r}: run {maintainer_command(path)}"]


def test_there_are_lessons():
    assert NOTEBOOKS and [p.stem for p in SOURCES] == IDS


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_every_prose_figure_is_printed(notebook):
    assert prose_figure_problems(notebook) == []


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_pair_holds_the_same_cells(source):
    assert pairing_problems(source) == []


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_lesson_was_executed_top_to_bottom(notebook):
    assert record_problems(notebook) == []


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_lesson_names_the_standard_python_kernel(source):
    assert kernelspec_problems(source) + kernelspec_problems(source.with_suffix(".ipynb")) == []


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_stored_outputs_hold_no_paths_or_addresses(notebook):
    text = notebook.read_text(encoding="utf-8")
    for marker in (str(ROOT), "/tmp/", os.path.expanduser("~") + "/", "site-packages"):
        assert marker not in text, f"{notebook.name} stores {marker!r}"
    assert not re.search(r"0x[0-9a-fA-F]{8,}", text), f"{notebook.name} stores a memory address"
    assert not re.search(r"20\d\d-\d\d-\d\dT\d\d:\d\d", text), f"{notebook.name} stores a timestamp"


@pytest.mark.slow
@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_committed_figures_are_what_the_lesson_draws(source, tmp_path, pytestconfig):
    """Compare the figures the lesson draws with figures/, pixel by pixel: those its nbval run in
    this session saved (conftest.py gives each lesson's kernel a folder of its own and runs nbval
    first), or, when nbval did not run the whole lesson, those of a run of the lesson as a script.
    Where the browser test checks the lesson, this test is left out for its
    `test_committed_figures_are_what_jupyterlab_drew` (conftest.py)."""
    drawn_in = conftest.nbval_figures(pytestconfig, source.stem)
    if drawn_in is None:
        env = {**os.environ, "COURSE_FIGURES_DIR": str(tmp_path), "MPLBACKEND": "Agg"}
        subprocess.run([sys.executable, source.name], cwd=LESSONS, env=env, check=True, capture_output=True)
        drawn_in = tmp_path
    assert figure_problems(drawn_in, source.stem, pytestconfig.course_version_drift) == []
    assert sorted(path.name for path in drawn_in.glob("*.png")) == sorted(
        path.name for path in drawn_in.glob(f"{source.stem}-*.png")
    ), "the lesson saved a figure not named for it"


# ---- each check fails on a deliberately broken copy


def _broken_copy(tmp_path: Path, change) -> Path:
    notebook = nbformat.read(NOTEBOOKS[0], as_version=4)
    change(notebook)
    path = tmp_path / NOTEBOOKS[0].name
    nbformat.write(notebook, path)
    return path


def _first(notebook, kind):
    return next(cell for cell in notebook.cells if cell.cell_type == kind)


def test_prose_check_catches_an_unprinted_figure(tmp_path):
    def add_figure(notebook):
        _first(
            notebook, "markdown"
        ).source += "\n\nThe split wins 31415 times, 1,234 percent more, in eleven runs."

    problems = prose_figure_problems(_broken_copy(tmp_path, add_figure))
    assert any(
        "figure 31415 in cell 1 (markdown)" in p and "scripts/refresh_lessons.py" in p for p in problems
    )
    assert any("figure 1234 in cell 1 (markdown)" in p and "1,234 percent more" in p for p in problems)
    assert any("number word 'eleven'" in p for p in problems)


def test_prose_check_catches_a_figure_whose_output_changed(tmp_path):
    def drop_outputs(notebook):
        for cell in notebook.cells:
            if cell.cell_type == "code":
                cell.outputs = []

    problems = prose_figure_problems(_broken_copy(tmp_path, drop_outputs))
    assert any("figure 805" in p or "figure 11978" in p for p in problems)


def test_prose_check_rule_exemptions():
    from course_checks import numbers_in, prose_text

    text = "Lesson 3 and seeds 20260218 and 20260219; task G05, rule AA26, `x = 99`.\n1. first item"
    assert numbers_in(prose_text(text)) == []
    assert numbers_in("11,978 and 0.80 and 13.6 % and -5") == ["11978", "0.8", "13.6", "5"]


def test_execution_check_catches_an_unexecuted_notebook(tmp_path):
    def unexecute(notebook):
        for cell in notebook.cells:
            if cell.cell_type == "code":
                cell.execution_count, cell.outputs = None, []

    problems = execution_problems(_broken_copy(tmp_path, unexecute))
    assert problems and "scripts/refresh_lessons.py" in problems[0] and "jupytext --to ipynb" in problems[0]


def test_execution_check_catches_cells_run_out_of_order(tmp_path):
    def shuffle(notebook):
        code = [cell for cell in notebook.cells if cell.cell_type == "code"]
        code[0].execution_count, code[1].execution_count = code[1].execution_count, code[0].execution_count

    assert execution_problems(_broken_copy(tmp_path, shuffle))


def test_pairing_check_catches_a_drifted_pair(tmp_path):
    source = tmp_path / SOURCES[0].name
    source.write_text(
        SOURCES[0].read_text(encoding="utf-8").replace("# ## The measurement", "# ## A measurement")
    )
    notebook = tmp_path / NOTEBOOKS[0].name
    notebook.write_bytes(NOTEBOOKS[0].read_bytes())
    problems = pairing_problems(source)
    assert problems and "'## A measurement'" in problems[0] and "'## The measurement'" in problems[0]
    assert "(markdown) differs between .py and .ipynb at its line" in problems[0]
    assert f"scripts/refresh_lessons.py {source.stem[:2]}" in problems[0]
    notebook.unlink()
    assert pairing_problems(source) == [f"{source.name} has no paired {notebook.name}"]


def test_kernelspec_check_catches_an_editors_kernel(tmp_path):
    def conda_kernel(notebook):
        notebook.metadata["kernelspec"] = {"display_name": "Python [conda env:x]", "language": "python",
                                           "name": "conda-env-x-py"}  # fmt: skip

    problems = kernelspec_problems(_broken_copy(tmp_path, conda_kernel))
    assert problems and "conda-env-x-py" in problems[0] and "scripts/refresh_lessons.py 01" in problems[0]


def test_the_maintainer_command_writes_the_standard_kernel(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("refresh_lessons", ROOT / "scripts" / "refresh_lessons.py")
    refresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(refresh)
    notebook = nbformat.read(NOTEBOOKS[0], as_version=4)
    notebook.metadata["kernelspec"] = {"display_name": "x", "language": "python", "name": "conda-env-x-py"}
    refresh.normalise_metadata(notebook)
    assert notebook.metadata["kernelspec"] == KERNELSPEC


@pytest.mark.slow
def test_a_bare_jupytext_conversion_fails_and_names_the_maintainer_command(tmp_path):
    """`jupytext --to ipynb lessons/NN.py` without --update drops every output and cell id (nbval
    would still pass on it): the record check fails and says which command to run instead."""
    stripped = tmp_path / NOTEBOOKS[0].name
    assert (
        jupytext_cli(["--to", "ipynb", "-o", str(stripped), str(SOURCES[0])]) == 0
    )  # the command, in process
    notebook = nbformat.read(stripped, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    problems = record_problems(stripped)
    assert (
        problems and "scripts/refresh_lessons.py 01" in problems[0] and "jupytext --to ipynb" in problems[0]
    )
