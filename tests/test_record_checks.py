"""The record checks of a run made elsewhere (tests/record_checks.py), shown to catch what nbval
catches and to pass what nbval passes, on lesson 1's committed record; and the choice, in
conftest.py, of which lessons the browser test's Run All checks in place of nbval."""

import copy
import shutil

import nbformat
import pytest
from course_checks import ROOT
from record_checks import FIGURES, cell_difference, figure_problems, nbval_cells, not_shown_by

import conftest

LESSON = ROOT / "lessons" / "01_single_loop.ipynb"


@pytest.fixture(scope="module")
def record(request):
    """(nbval's items, the committed code cells) of lesson 1."""
    cells = [cell for cell in nbformat.read(LESSON, as_version=4).cells if cell.cell_type == "code"]
    return nbval_cells(request.session, LESSON), cells


def _printing_cell(items, kind="stream"):
    """The index of the first cell nbval checks whose outputs include one of `kind`."""
    return next(
        k
        for k, item in enumerate(items)
        if item.options["check"] and any(o.output_type == kind for o in item.cell.outputs)
    )


def test_the_committed_outputs_pass_every_cell(record):
    items, cells = record
    assert len(items) == len(cells) > 10
    assert [k for k, item in enumerate(items) if cell_difference(item, cells[k].outputs)] == []


def test_a_changed_printed_figure_is_caught_with_its_cell(record):
    items, cells = record
    k = _printing_cell(items)
    outputs = copy.deepcopy(cells[k].outputs)
    stream = next(o for o in outputs if o.output_type == "stream")
    stream.text = stream.text.replace("0", "1", 1) if "0" in stream.text else stream.text + "1"
    found = cell_difference(items[k], outputs)
    assert found is not None and found.startswith(f"Cell {k}: outputs differ from the record")


def test_a_missing_output_and_an_error_are_caught(record):
    items, cells = record
    k = _printing_cell(items)
    assert cell_difference(items[k], []) is not None
    error = nbformat.v4.new_output("error", ename="ValueError", evalue="boom", traceback=[])
    assert "ValueError: boom" in cell_difference(items[k], [*cells[k].outputs, error])


def test_what_nbval_passes_passes_a_split_stream_an_address_and_an_ignored_cell(record):
    items, cells = record
    k = _printing_cell(items)
    outputs = copy.deepcopy(cells[k].outputs)
    stream = next(o for o in outputs if o.output_type == "stream")
    half = len(stream.text) // 2
    second = nbformat.v4.new_output("stream", name=stream.name, text=stream.text[half:])
    stream.text = stream.text[:half]
    outputs.insert(outputs.index(stream) + 1, second)  # as a front end may store one print in two parts
    assert cell_difference(items[k], outputs) is None

    ignored = next(
        k for k, item in enumerate(items) if not item.options["check"]
    )  # NBVAL_IGNORE_OUTPUT: the panel
    assert (
        cell_difference(items[ignored], [nbformat.v4.new_output("stream", name="stdout", text="x")]) is None
    )


def _with_address(outputs, address: str):
    changed = copy.deepcopy(outputs)
    next(o for o in changed if o.output_type == "stream").text += f"<object at {address}>\n"
    return changed


def test_a_memory_address_is_sanitized_as_nbval_does_and_the_rest_still_compared(record):
    items, cells = record
    k = _printing_cell(items)
    item, stored = items[k], items[k].cell.outputs
    item.cell.outputs = _with_address(stored, "0xdeadbeef01")  # a record holding an address
    try:
        assert cell_difference(item, _with_address(stored, "0x7f00c0ffee")) is None
        other = _with_address(stored, "0x7f00c0ffee")
        next(o for o in other if o.output_type == "stream").text += "and a line more\n"
        assert cell_difference(item, other) is not None
    finally:
        item.cell.outputs = stored


def test_the_figure_check_catches_a_missing_an_extra_and_a_changed_figure(tmp_path):
    committed = sorted(FIGURES.glob("01_single_loop-*.png"))
    for path in committed:
        shutil.copy(path, tmp_path / path.name)
    assert figure_problems(tmp_path, "01_single_loop") == []

    (tmp_path / committed[0].name).unlink()
    assert figure_problems(tmp_path, "01_single_loop") != []
    shutil.copy(committed[0], tmp_path / committed[0].name)

    shutil.copy(committed[0], tmp_path / "01_single_loop-extra.png")
    assert figure_problems(tmp_path, "01_single_loop") != []
    (tmp_path / "01_single_loop-extra.png").unlink()

    shutil.copy(committed[1], tmp_path / committed[0].name)  # another picture under its name
    [problem] = figure_problems(tmp_path, "01_single_loop", drift="a note on versions")
    assert problem.startswith(committed[0].name) and problem.endswith("a note on versions")


def test_only_lesson_files_shown_by_the_run_pass_as_its_figures(tmp_path, record):
    items, cells = record
    notebook = nbformat.v4.new_notebook(cells=cells)
    committed = sorted(FIGURES.glob("01_single_loop-*.png"))
    assert not_shown_by(notebook, committed) == []  # lesson 1 shows every figure it saves
    other = tmp_path / committed[0].name
    shutil.copy(sorted(FIGURES.glob("02_planner_executor-*.png"))[0], other)  # written by another lesson
    assert not_shown_by(notebook, [other, *committed[1:]]) == [committed[0].name]


def test_lessons_use_nothing_the_record_check_treats_unlike_nbval():
    """What record_checks.py's docstring names: no lesson clears or updates an output, skips a cell
    or expects an exception under nbval, or stores a stderr or error output."""
    for notebook in sorted((ROOT / "lessons").glob("*.ipynb")):
        cells = [c for c in nbformat.read(notebook, as_version=4).cells if c.cell_type == "code"]
        for k, cell in enumerate(cells):
            for word in (
                "clear_output",
                "display_id",
                "update_display",
                "NBVAL_SKIP",
                "NBVAL_RAISES_EXCEPTION",
            ):
                assert word not in cell.source, f"{notebook.name} Cell {k} uses {word}"
            assert not {"nbval-skip", "raises-exception", "nbval-raises-exception"} & set(
                cell.metadata.get("tags", [])
            )
            kinds = [o.get("name", o.output_type) for o in cell.outputs]
            assert "stderr" not in kinds and "error" not in kinds, f"{notebook.name} Cell {k} stores {kinds}"


def test_an_unrun_stored_cell_with_outputs_is_reported_as_nbval_does(record):
    items, cells = record
    k = _printing_cell(items)
    item, count = items[k], items[k].cell.execution_count
    item.cell.execution_count = None
    try:
        assert "Unrun reference cell has outputs" in cell_difference(item, cells[k].outputs)
    finally:
        item.cell.execution_count = count


def test_the_lessons_checked_on_the_browsers_run_leave_out_their_second_run():
    record, figures = conftest.BROWSER_RECORD, conftest.BROWSER_FIGURES
    every_cell = [f"{record}01_single_loop-Cell {k}]" for k in range(conftest.code_cells(LESSON))]
    nodeids = [
        *every_cell,
        f"{record}04_contract-Cell 32]",
        f"{figures}04_contract]",
        "tests/test_x.py::test_y",
    ]
    whole, drawn = conftest.browser_checks(nodeids)
    assert whole == {"01_single_loop"}  # lesson 4: one cell of its record only, so nbval runs it
    assert drawn == {"04_contract"}
    again = lambda nodeid: conftest.run_again(nodeid, whole, drawn)  # noqa: E731
    assert again("lessons/01_single_loop.ipynb::Cell 3")
    assert not again("lessons/04_contract.ipynb::Cell 3")
    assert again(f"{conftest.FIGURE_TEST}04_contract]")
    assert not again(f"{conftest.FIGURE_TEST}01_single_loop]")  # its figures are not checked there
    assert not again("tests/test_lessons.py::test_pair_holds_the_same_cells[01_single_loop]")
    assert conftest.browser_checks(["lessons/01_single_loop.ipynb::Cell 0"]) == (set(), set())


def test_the_second_runs_are_left_out_after_every_other_selection(pytestconfig):
    """After -k, -m and --deselect (pytest's own hooks): pluggy calls a hook's implementations
    last to first, so the course's must be the first in the list."""
    impls = pytestconfig.pluginmanager.hook.pytest_collection_modifyitems.get_hookimpls()
    assert impls[0].plugin is pytestconfig.pluginmanager.get_plugin("course-second-runs")
