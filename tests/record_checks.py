"""A lesson's run checked against its committed record, wherever the run happened.

nbval runs a lesson in a kernel of its own and compares each cell's outputs with the stored ones.
The browser test runs every lesson too, in JupyterLab (Run All), and saves it. Where the browser
test runs, its saved run is compared with the record here, cell by cell, with nbval's own rules
(its cell tags such as nbval-ignore-output, its skipped keys, the course's sanitizer file and
its comparison), and the figures its kernels saved with figures/ pixel by pixel, so that each
lesson is executed once per test run instead of twice (conftest.py then leaves out the nbval run
of those lessons). Introduced for issue 17 (the suite in two minutes, no check weakened).

Where nbval and a front end differ, this holds only for lessons that do without it, and
tests/test_record_checks.py checks that they do: nbval ignores clear_output and display updates
(a front end applies them); it does not run an NBVAL_SKIP cell and lets an NBVAL_RAISES_EXCEPTION
cell raise (Run All runs the first and stops at the second); a stored stderr output passes nbval
(the browser test fails on any stderr or error output it shows).
"""

import base64
import copy
import hashlib
from pathlib import Path

import nbformat
from matplotlib.testing.compare import compare_images
from matplotlib.testing.exceptions import ImageComparisonFailure
from nbval.plugin import IPyNbFile, coalesce_streams

from sim.presentation.figures import REPO_FIGURES

FIGURES = REPO_FIGURES  # the committed figures


def nbval_cells(session, notebook: Path) -> list:
    """nbval's items for the code cells of `notebook` (a committed lesson), collected but not run:
    each holds its stored cell, its options from nbval's markers and the session's sanitizer
    patterns. `session` is the pytest session (a test's `request.session`)."""
    nbfile = IPyNbFile.from_parent(session, path=notebook)
    nbfile.setup_sanitize_files()  # the file nbval's own run uses (conftest.py names it)
    return list(nbfile.collect())


def cell_difference(cell, ran: list) -> str | None:
    """What nbval would report for one cell whose run gave the outputs `ran` (nbformat outputs, as a
    saved notebook holds them), or None where nbval would pass it.

    Parameters
    ----------
    cell : nbval.plugin.IPyNbCell
        One item of `nbval_cells`, holding the committed cell.
    ran : list
        The cell's outputs from the run being checked.
    """
    if cell.options["skip"]:
        return None
    errors = [output for output in ran if output.get("output_type") == "error"]
    if errors and not cell.options["check_exception"]:
        return f"Cell {cell.cell_num}: the run raised {errors[0].get('ename')}: {errors[0].get('evalue')}"
    if cell.cell.execution_count is None:
        return f"Cell {cell.cell_num}: Unrun reference cell has outputs" if cell.cell.outputs else None
    if not cell.options["check"]:
        return None
    ran = coalesce_streams([nbformat.from_dict(copy.deepcopy(output)) for output in ran])
    stored = coalesce_streams(copy.deepcopy(cell.cell.outputs))
    if cell.compare_outputs(ran, stored):
        return None
    return f"Cell {cell.cell_num}: outputs differ from the record\n" + "\n".join(cell.comparison_traceback)


def figure_problems(drawn_in: Path, lesson: str, drift: str | None = None) -> list[str]:
    """The differences between the figures of `lesson` saved in `drawn_in` and those in figures/:
    a missing or extra figure, or one whose pixels differ (matplotlib's compare_images, tol=1).
    `drift`, the note on package versions, is added to a pixel difference when given."""
    drawn = sorted(path.name for path in drawn_in.glob(f"{lesson}-*.png"))
    committed = sorted(path.name for path in FIGURES.glob(f"{lesson}-*.png"))
    if not drawn or drawn != committed:
        return [f"{lesson} drew {drawn}, figures/ holds {committed}"]
    problems = []
    for name in drawn:
        try:
            differs = compare_images(str(FIGURES / name), str(drawn_in / name), tol=1)
        except ImageComparisonFailure as failure:  # e.g. another size
            differs = str(failure)
        if differs is not None:
            problems.append(f"{name}: {differs}" + (f"\n{drift}" if drift else ""))
    return problems


def not_shown_by(notebook, files: list[Path]) -> list[str]:
    """The names of the figure `files` whose bytes are no image/png output of `notebook` (each
    lesson shows every figure it saves, `display(Image(filename=path))`, with the file's bytes)."""
    shown = {
        hashlib.sha256(base64.b64decode(output["data"]["image/png"])).hexdigest()
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    }
    return [path.name for path in files if hashlib.sha256(path.read_bytes()).hexdigest() not in shown]
