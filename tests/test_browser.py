"""Every lesson in a real browser: JupyterLab in headless Chromium, Run All, then the panel's main control moved.

For each lessons/*.ipynb (found by glob): open it in JupyterLab (served from a temporary copy
of the repository), clear its outputs, Run All from the menu, wait until every code cell has
run and the kernel is idle; no cell may show an error or stderr output and no widget may fail
to display. Then the lesson's panel, built by the lesson's own Explore cell, is rebuilt in this
process: the browser must show what it shows (every HTML output, the figure's bytes). The
test moves the panel's main control in the browser (the seed, typed and Enter; a panel
without a seed: its first control) and the same control of the twin, and the browser must
then show exactly what `sim` computes for the new value. A screenshot of each lesson is kept
in a temporary folder whose path is printed at the end of the run.

The lesson as JupyterLab saved it after its Run All is also its record check: each code cell's
outputs against the stored ones with nbval's own rules, and the figures its kernel saved against
figures/ (tests/record_checks.py). So the lessons run once in the README's test command:
conftest.py leaves out nbval's run of every lesson checked here.

All lessons (and the small notebooks that show the checks catch what they are for) are opened
by the first test, each in a tab of its own in one JupyterLab page (as a student opens several
lessons) and one after the other, with Run All chosen in each as soon as it is open. Each check
reads only inside its notebook's panel, and brings its notebook's tab to the front before it
chooses from a menu, waits for a run or a widget, or reads what is shown.
The checks of the small notebooks come next, while the lessons' kernels still run (so their
waits overlap the lessons' work); the lessons' checks come last (conftest.py orders the tests
marked `first`, `after_lessons` and `last`). In the README's parallel run this file is one group
in one worker, so its tests follow one another there, while the other workers run the rest and
JupyterLab's kernels run the lessons alongside; the server and the browser are shut down as
soon as this file's tests are done (`_server_scope`). In one process (`-n 0`, or tests named),
the tests of the other files (and the lessons under nbval, where they run) come between the
small notebooks' checks and the lessons' checks, and the server lasts the session. The same checks as when each
lesson was opened and run in turn; only the waiting overlaps. After a lesson's checks, its
kernel is restarted and the panel must show only its plain line.

The server is started by the README's own first command, read from the README (its JupyterLab
part, run from the copy of the course folder; tests/readme_commands.py), plus only what a test
needs (a port, a token, no browser, the README's root option when it runs as root, no network
fetches), so the test and the README cannot part (issue 26): the course folder must be served, a
long table must still be folded after Run All, the lesson saved after its panel was driven must
keep its panel plain and its .py byte for byte; in one lesson (REOPENED) a glossary link must
open the glossary, and the lesson reopened must show the panel's plain line with no widget error.

Chromium is Debian's (/usr/bin/chromium), driven by Playwright with no browser download.
Where it is missing the test is skipped with the command that installs it, except under
CI=true, where it fails. The server, its kernels and the browser are stopped even when a
test fails.
"""

import hashlib
import json
import os
import re
import stat
import sys
import time
from pathlib import Path

import jupyterlab_browser
import nbformat
import pytest
from course_checks import ROOT, lesson_notebooks
from figure_text import text_problems
from jupyterlab_browser import (
    PAGE_S,
    JupyterLab,
    NotebookPage,
    chromium_missing_reason,
    copy_repository,
    expected_shown,
    explore_panel,
    launch_chromium,
    main_control,
    new_value,
    panel_cell_index,
    run_cell,
    widget_paths,
)
from record_checks import cell_difference, figure_problems, nbval_cells, not_shown_by

import conftest
from sim.presentation.notebook_save import WIDGET_VIEW
from sim.presentation.panel import PANEL_CLASS, RUN_FIRST, PanelBox

NOTEBOOKS = lesson_notebooks()
LESSONS = {notebook.stem: notebook for notebook in NOTEBOOKS}
# the lesson whose glossary link is clicked and which is closed and reopened after its save: one
# lesson stands for all, since every lesson links the glossary the same way (tests/test_reading.py)
# and is saved through the same hook (each lesson's save is checked above, byte for byte)
REOPENED = "02_planner_executor"
IN_CI = os.environ.get("CI", "").strip().lower() == "true"
DIAGRAM_TEXT_PX = 11  # node text of a drawn setup diagram, in CSS px at the test page's width (1400 px)


def _require_chromium() -> None:
    reason = chromium_missing_reason()
    if reason is None:
        return
    if IN_CI:
        pytest.fail(f"{reason}. CI=true, so the browser test may not be skipped.", pytrace=False)
    pytest.skip(reason)


def _committed_lessons_and_figures() -> dict[str, str]:
    files = sorted(p for folder in ("lessons", "figures") for p in (ROOT / folder).iterdir() if p.is_file())
    return {p.relative_to(ROOT).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def _server_scope(fixture_name: str, config) -> str:
    """The scope of the server, the browser and its pages: "module" in a worker of the course's
    parallel run (its groups keep this file's tests together there, one after the other, so all is
    shut down as soon as they are done, while the other workers go on), else "session" (in one
    process, other files' tests come between this file's first tests and its lessons' checks)."""
    return "module" if conftest.runs_course_groups(config) else "session"


@pytest.fixture(scope=_server_scope)
def lab(tmp_path_factory):
    _require_chromium()  # nothing is started when the browser is missing
    committed = _committed_lessons_and_figures()
    base = tmp_path_factory.mktemp("browser")
    repo = copy_repository(ROOT, base / "repo")
    (base / "state").mkdir()
    drawn = base / "figures-drawn"  # empty: the figures the lessons' Run All saves, none copied
    drawn.mkdir()
    server = JupyterLab(repo, base / "state", figures_dir=drawn)
    try:
        server.start()
        yield server
    finally:
        server.stop()
    assert _committed_lessons_and_figures() == committed, "the browser test changed lessons/ or figures/"


@pytest.fixture(scope=_server_scope)
def browser(lab, tmp_path_factory):
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    try:
        chromium = launch_chromium(playwright, tmp_path_factory.mktemp("chromium-home"))
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory):
    """The folder of the lessons' screenshots; the tests that write there record it as the report
    property SCREENSHOTS, which conftest.py prints at the end of the run (from any worker)."""
    return tmp_path_factory.mktemp("browser-screenshots")


def _before_redrawn(html: str) -> str:
    """A status line's text up to "Redrawn:" (what it shows, not what changed since the view before)."""
    return re.sub(r"<[^>]+>", "", html).split("Redrawn:")[0].strip()


def _differences(expected: list[dict], shown: list[dict]) -> str:
    lines = []
    for want, got in zip(expected, shown, strict=True):
        if want != got:
            lines.append(f"panel widget at {want['path']} ({want['kind']}):\n  expected {want['value']!r:.1500}"
                         f"\n  shown    {got['value']!r:.1500}")  # fmt: skip
    return "\n".join(lines)


@pytest.fixture(scope=_server_scope)
def opened(lab, browser):
    """Every lesson and the check notebooks, each in a tab of its own in one JupyterLab page, as a
    student opens several lessons: the first from its address, the others from File > Open from
    Path, one after the other, with Run All chosen in each as soon as it is open: {name:
    NotebookPage}. The kernels run the notebooks by themselves from then on, while the next tabs
    open. (One page boots JupyterLab once: a page of its own for each notebook cost about 6
    core-seconds more each, to boot JupyterLab again.)"""
    paths = {notebook.stem: f"lessons/{notebook.name}" for notebook in NOTEBOOKS}
    paths["broken"] = _served_notebook(lab, "broken.ipynb", BROKEN)
    paths["controls"] = _served_notebook(lab, "controls.ipynb", [CONTROLS])
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        context.set_default_timeout(PAGE_S * 1000)
        page = context.new_page()
        pages = {}
        for name, path in paths.items():
            notebook = pages[name] = NotebookPage(page, lab, path)
            if len(pages) == 1:
                notebook.open()
            else:
                notebook.open_in_new_tab()
            if name in LESSONS:  # as a fresh clone opens it, before any run: what its panel area shows
                notebook.before_run = notebook.output_text(panel_cell_index(LESSONS[name]))
            notebook.start_run_all(conftest.code_cells(lab.root_dir / notebook.path))
        yield pages
    finally:
        context.close()


@pytest.fixture(scope=_server_scope)
def running(opened):
    """The notebooks of `opened`, Run All chosen in each (the name the checks below ask for)."""
    return opened


@pytest.fixture(scope=_server_scope)
def saved_run(running, lab):
    """saved_run(lesson) -> the lesson as JupyterLab saved it right after its Run All had finished
    with no error, no stderr and no widget that failed to display: what the record tests compare
    with the committed one. Each lesson is waited for and saved once, by whichever test asks first."""
    saved = {}

    def saved_run(lesson: str):
        if lesson not in saved:
            page = running[lesson]
            try:
                page.wait_run_all(conftest.code_cells(LESSONS[lesson]))
                problems = page.problems()
                assert problems == [], problems
                saved[lesson] = _check_saved_panel(page, lab)
            except (Exception, pytest.fail.Exception) as failure:  # a failed wait is pytest's Failed
                saved[lesson] = failure
        if isinstance(saved[lesson], BaseException):
            pytest.fail(f"{lesson}'s Run All in JupyterLab was not saved: {saved[lesson]}", pytrace=False)
        return saved[lesson]

    return saved_run


@pytest.mark.slow
@pytest.mark.first
def test_jupyterlab_opens_every_lesson_in_a_tab_of_its_own_and_starts_its_run(lab, opened):
    [page] = {id(notebook.page): notebook.page for notebook in opened.values()}.values()
    assert page.url.startswith(lab.url)
    assert len({notebook.panel_id for notebook in opened.values()}) == len(opened)
    tabs = page.eval_on_selector_all(".lm-DockPanel .lm-TabBar-tab", "tabs => tabs.map(t => t.title)")
    for notebook in NOTEBOOKS:
        assert [tab for tab in tabs if f"\nPath: lessons/{notebook.name}\n" in tab], tabs
    # the README's command serves the course folder: the lessons, the glossary, the README, figures/
    served = {item["name"] for item in json.loads(lab.api("/api/contents"))["content"]}
    assert {"lessons", "GLOSSARY.md", "README.md", "figures"} <= served, served


@pytest.mark.slow
@pytest.mark.after_lessons
def test_every_notebook_opens_with_a_kernel_of_its_own_the_venvs_and_run_all_starts(lab, running):
    kernels = lab.kernel_commands()
    assert len(kernels) == len(running), kernels
    venv_bin = Path(sys.executable).parent  # the kernels run the venv's Python (python or python3 there)
    assert all(Path(command[0]).parent == venv_bin for command in kernels), kernels


@pytest.mark.slow
@pytest.mark.last
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_lesson_runs_in_jupyterlab_and_its_panel_follows_its_main_control(
    notebook, running, saved_run, screenshots, lab, record_property
):
    record_property(conftest.SCREENSHOTS, str(screenshots))  # printed at the end of the run
    lesson = explore_panel(notebook)  # the panel's twin, built by the lesson's own Explore cell
    page = running[notebook.stem]
    panel = None
    try:
        saved_run(notebook.stem)  # Run All finished with no problem, and the lesson saved as a student does
        # a long table stays folded after Run All (JupyterLab opens a cell collapsed by its metadata)
        full_tables = [i for i, cell in enumerate(nbformat.read(notebook, as_version=4).cells)
                       if "full-table" in cell.metadata.get("tags", [])]  # fmt: skip
        assert page.folded(full_tables) == ["closed"] * len(full_tables), (
            full_tables,
            page.folded(full_tables),
        )
        # before any run, a fresh clone's panel area is one plain line: no error, no repr, no dead panel
        assert page.before_run == RUN_FIRST, f"before Run All the panel area shows {page.before_run[:300]!r}"

        panel = page.widget_root(lesson.cell_index)
        at_start = expected_shown(lesson.root)
        shown = page.wait_shown(panel, at_start)
        assert shown == at_start, (
            "after Run All the panel does not show the lesson's defaults:\n" + _differences(at_start, shown)
        )

        path, control = main_control(lesson.root)
        value = new_value(control)
        control.value = value  # the twin, in this process: what sim computes for the new value
        moved = expected_shown(lesson.root)
        assert moved != at_start, (
            f"moving {control.description or path} to {value!r} changes nothing in the panel"
        )
        page.move(panel, path, control, value)
        shown = page.wait_shown(panel, moved)
        assert shown == moved, (
            f"after {control.description or path} -> {value!r} the panel does not show what sim computes:\n"
            + _differences(moved, shown)
        )
        assert text_problems(lesson.value.view.figure) == []  # the figure at a non-default seed

        # five quick presses of "new seed": the panel settles on the latest, showing what sim computes for it
        paths = {id(w): p for p, w in widget_paths(lesson.root)}
        button = lesson.value.new_seed
        page.press(panel, paths[id(button)], times=5, changes=paths[id(lesson.value.seed)])
        seed = page.wait_settled(panel, paths[id(lesson.value.seed)], paths[id(lesson.value.status)])
        lesson.value.seed.value = seed
        # the status line's "Redrawn: ..." names what changed since the view shown before, and which
        # of the quick presses' views the browser showed depends on timing: it is compared up to there
        status = list(paths[id(lesson.value.status)])
        settled = [item for item in expected_shown(lesson.root) if item["path"] != status]
        shown = page.wait_shown(panel, settled)
        assert shown == settled, f"after five presses of new seed (last: {seed}):\n" + _differences(
            settled, shown
        )
        [want] = [item for item in expected_shown(lesson.root) if item["path"] == status]
        [got] = page.read_shown(panel, [want])
        assert _before_redrawn(got["value"]) == _before_redrawn(want["value"]), (got["value"], want["value"])
        assert page.problems() == []
        _check_saved_panel(page, lab)  # saved again after the panel was driven (Ctrl+S, autosave)
        panel.scroll_into_view_if_needed()
        page.page.screenshot(path=screenshots / f"{notebook.stem}.png")
        panel = None  # the panel's screenshot is taken; the diagrams' follows
        _check_diagrams(notebook, page, screenshots)

        # after a kernel restart a panel shows its plain line by its outer box's class and style, the same
        # in every lesson: each lesson's panel has that box, and one lesson is restarted to show it
        assert isinstance(lesson.root, PanelBox) and PANEL_CLASS in lesson.root._dom_classes
        if notebook.stem == REOPENED:
            # the kernel restarted while the lesson stays open: the panel shows its plain line, no dead controls
            page.restart_kernel()
            seen = page.panel_seen(lesson.cell_index)
            assert seen == {"text": "", "before": f'"{RUN_FIRST}"', "icons": 0}, seen
            # a glossary link opens the glossary (served, as the README's command serves the course folder)
            assert "Path: GLOSSARY.md" in page.follow_glossary_link().split("\n")
            # the saved lesson reopened (its kernel holds no panel now): the plain line, no widget error
            page.reopen()
            assert page.output_text(lesson.cell_index) == RUN_FIRST
            assert page.problems() == []
    finally:
        if panel is not None:  # a check above failed: the screenshot shows the panel as it was
            panel.scroll_into_view_if_needed()
            page.page.screenshot(path=screenshots / f"{notebook.stem}.png")


# ---- the checks above, shown to catch what they are for, on small notebooks written for this

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}

BROKEN = [  # its error stops Run All before the last cell, which never runs
    'print("this cell is fine")',
    """import ipywidgets as widgets
from traitlets import Unicode


class NoSuchWidget(widgets.DOMWidget):
    _model_name = Unicode("NoSuchModel").tag(sync=True)
    _model_module = Unicode("no-such-module").tag(sync=True)
    _model_module_version = Unicode("1.0.0").tag(sync=True)
    _view_name = Unicode("NoSuchView").tag(sync=True)
    _view_module = Unicode("no-such-module").tag(sync=True)
    _view_module_version = Unicode("1.0.0").tag(sync=True)


NoSuchWidget()""",
    'import sys\n\nprint("a warning on stderr", file=sys.stderr)',
    'raise ValueError("deliberately broken")',
    'print("never printed")',
]

CONTROLS = """
import ipywidgets as widgets

task = widgets.Dropdown(options=["G01", "G02", "G03"], value="G01", description="task")
switch = widgets.Checkbox(value=False, description="switch")
budget = widgets.IntSlider(value=8, min=1, max=20, description="budget", continuous_update=False)
shown = widgets.HTML()


def show(_change=None):
    shown.value = f"<pre>task {task.value} switch {switch.value} budget {budget.value}</pre>"


for control in (task, switch, budget):
    control.observe(show, names="value")
show()
widgets.VBox([widgets.HBox([task, switch, budget]), shown])
"""


def _served_notebook(lab, name: str, sources: list[str]) -> str:
    notebook = nbformat.v4.new_notebook(metadata={"kernelspec": KERNELSPEC})
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    path = lab.root_dir / "browser-checks" / name
    path.parent.mkdir(exist_ok=True)
    nbformat.write(notebook, path)
    return path.relative_to(lab.root_dir).as_posix()


def _check_diagrams(notebook: Path, lesson: NotebookPage, screenshots: Path) -> None:
    """The lesson's setup diagrams (Mermaid blocks in markdown cells, issue 19) are drawn by
    JupyterLab as pictures, with no parse warning and node text of at least DIAGRAM_TEXT_PX at the
    page's width (issue 31); a screenshot of the first is kept beside the panel's."""
    lesson.activate()
    page, scroller = lesson.page, f"{lesson.panel} .jp-WindowedPanel-outer"
    page.eval_on_selector(scroller, "el => { el.scrollTop = 0; }")
    drawn = page.locator(f"{lesson.panel} .jp-RenderedMermaid")
    for _ in range(
        60
    ):  # JupyterLab draws only the cells in view: scroll down until the first diagram is drawn
        if drawn.count():
            break
        page.eval_on_selector(scroller, "el => { el.scrollTop += 500; }")
        page.wait_for_timeout(150)
    assert drawn.count(), f"{notebook.stem}: no Mermaid diagram was drawn"
    first = drawn.first
    first.scroll_into_view_if_needed()
    picture = first.locator("img, svg").first  # JupyterLab draws the diagram as an SVG image
    picture.wait_for(state="visible", timeout=30_000)
    assert picture.bounding_box()["width"] > 100, f"{notebook.stem}: the diagram is drawn too small to read"
    text_px = jupyterlab_browser.diagram_text_px(first)
    assert text_px >= DIAGRAM_TEXT_PX, (
        f"{notebook.stem}: the diagram's node text is drawn at {text_px:.1f} px, under {DIAGRAM_TEXT_PX} px: "
        "lay it out top-down (flowchart TD) with shorter labels"
    )
    assert page.locator(f"{lesson.panel} .jp-RenderedMermaid.jp-mod-warning").count() == 0, (
        f"{notebook.stem}: JupyterLab could not parse a diagram"
    )
    first.screenshot(path=screenshots / f"{notebook.stem}-diagram.png")


def _read_when_written(path: Path, within_s: float = 30):
    """The notebook at `path` once the server has finished writing it: jupyter_server keeps a copy
    at .~<name> while it rewrites the file in place and removes it at the end; then the file must
    be unchanged for a quarter of a second and parse."""
    backup = path.with_name(".~" + path.name)
    deadline = time.monotonic() + within_s
    while True:
        stamp = path.stat().st_mtime_ns
        time.sleep(0.25)
        if not backup.exists() and path.stat().st_mtime_ns == stamp:
            try:
                return nbformat.read(path, as_version=4)
            except Exception:  # a write begun since: try again
                if time.monotonic() > deadline:
                    raise
        assert time.monotonic() < deadline, f"{path.name} was still being written after {within_s} s"


def _check_saved_panel(page, lab):
    """Save the run lesson, as a student does: the file the server writes holds the panel's plain
    line and no widget state, so reopening it never shows "model not found" (the pre-save hook of
    sim/presentation/notebook_save.py, installed into the venv from jupyter-config/). Returns the saved notebook."""
    path = lab.root_dir / page.path
    before = path.stat().st_mtime_ns
    page.menu("File", "Save Notebook")
    waited = 0.0
    while path.stat().st_mtime_ns == before and waited < 30:
        time.sleep(0.1)
        waited += 0.1
    assert path.stat().st_mtime_ns != before, "the notebook was not saved within 30 s"
    saved = _read_when_written(path)
    source = path.with_suffix(".py")  # the jupytext pairing wrote it too: byte for byte the committed one
    assert source.read_bytes() == (ROOT / page.path).with_suffix(".py").read_bytes(), (
        f"saving {page.path} rewrote {source.name}"
    )
    outputs = [o for cell in saved.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert "widgets" not in saved.metadata
    assert not [o for o in outputs if WIDGET_VIEW in o.get("data", {})], "a widget view was saved"
    assert [o["data"]["text/plain"] for o in outputs if o.get("data", {}).get("text/plain") == RUN_FIRST] == [
        RUN_FIRST
    ]
    return saved


# ---- each lesson's record, from its Run All above: the checks nbval makes, without a second run

RECORD_CELLS = [(notebook.stem, k) for notebook in NOTEBOOKS for k in range(conftest.code_cells(notebook))]


@pytest.fixture(scope="session")
def nbval_items(request):
    """lesson -> nbval's items for its committed code cells (collected, never run)."""
    return {notebook.stem: nbval_cells(request.session, notebook) for notebook in NOTEBOOKS}


@pytest.mark.slow
@pytest.mark.last
@pytest.mark.parametrize(
    "lesson, cell", RECORD_CELLS, ids=[f"{lesson}-Cell {k}" for lesson, k in RECORD_CELLS]
)
def test_each_cell_run_in_jupyterlab_prints_its_record(lesson, cell, saved_run, nbval_items):
    """What nbval checks of `lessons/<lesson>.ipynb::Cell <cell>`, on the cell's outputs from the
    lesson's Run All in JupyterLab (conftest.py leaves out the nbval run of a lesson checked here)."""
    ran = [c for c in saved_run(lesson).cells if c.cell_type == "code"]
    items = nbval_items[lesson]
    assert len(ran) == len(items), f"JupyterLab saved {len(ran)} code cells, the record holds {len(items)}"
    assert cell_difference(items[cell], ran[cell].get("outputs", [])) is None, cell_difference(
        items[cell], ran[cell].get("outputs", [])
    )


@pytest.mark.slow
@pytest.mark.last
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_committed_figures_are_what_jupyterlab_drew(notebook, saved_run, lab, pytestconfig):
    """The figures the lesson's Run All in JupyterLab saved are figures/'s, pixel by pixel (the
    figure test of tests/test_lessons.py, on this run instead of a second one). The lessons' kernels
    share one folder, so each of the lesson's files must also be, byte for byte, an image the
    lesson's own run showed: another lesson writing a file under its name would not pass."""
    saved = saved_run(notebook.stem)
    assert figure_problems(lab.figures_dir, notebook.stem, pytestconfig.course_version_drift) == []
    assert not_shown_by(saved, sorted(lab.figures_dir.glob(f"{notebook.stem}-*.png"))) == []
    stems = tuple(f"{p.stem}-" for p in NOTEBOOKS)
    assert [p.name for p in lab.figures_dir.glob("*.png") if not p.name.startswith(stems)] == []


@pytest.mark.slow
@pytest.mark.after_lessons
def test_errors_stderr_and_widgets_that_fail_to_display_are_caught(running):
    page = running["broken"]
    page.wait_run_all(len(BROKEN))
    problems = page.problems()
    assert any("deliberately broken" in problem for problem in problems), problems
    assert any("a warning on stderr" in problem for problem in problems), problems
    assert any(problem.startswith("widget: ") for problem in problems), problems
    assert not any("this cell is fine" in problem for problem in problems), problems


@pytest.mark.slow
@pytest.mark.after_lessons
def test_a_panel_without_a_seed_moves_its_first_control_and_every_kind_of_control_is_moved(running):
    value, root = run_cell(CONTROLS, "controls")
    page = running["controls"]
    page.wait_run_all(1)
    assert page.problems() == []
    panel = page.widget_root(0)
    assert page.wait_shown(panel, expected_shown(root)) == expected_shown(root)
    path, first = main_control(root)
    assert path == (0, 0) and first.description == "task"
    for path in [(0, 0), (0, 1), (0, 2)]:
        control = root.children[0].children[path[1]]
        value = new_value(control)
        control.value = value
        moved = expected_shown(root)
        page.move(panel, path, control, value)
        shown = page.wait_shown(panel, moved)
        assert shown == moved, f"{control.description} -> {value!r}:\n" + _differences(moved, shown)


def test_without_chromium_the_test_is_skipped_with_the_install_command_and_fails_under_ci(monkeypatch):
    monkeypatch.setattr(jupyterlab_browser, "CHROMIUM", Path("/nonexistent/chromium"))
    monkeypatch.setattr(sys.modules[__name__], "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match=r"apt-get install -y chromium"):
        _require_chromium()
    monkeypatch.setattr(sys.modules[__name__], "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match=r"CI=true.*apt-get install -y chromium|apt-get.*CI=true"):
        _require_chromium()


@pytest.mark.slow
@pytest.mark.after_lessons
def test_a_lessons_first_error_ends_the_wait_at_once(running, monkeypatch):
    """Run All stops at an error; the wait ends there, not at its timeout (here cut to 60 s: a wait
    that only ended at the timeout would fail this test)."""
    monkeypatch.setattr(jupyterlab_browser, "RUN_ALL_S", 60)
    page = running["broken"]
    page.wait_run_all(len(BROKEN))
    assert any("deliberately broken" in problem for problem in page.problems())
    assert page.prompts()[-1].strip() in ("[ ]:", "")  # the cell after the error never ran


@pytest.mark.slow
@pytest.mark.after_lessons
def test_a_lost_run_all_is_chosen_again_after_a_click_on_the_notebooks_tab(running, monkeypatch):
    """The first Run All is dropped (as a choice made while a page settles can be); the page's
    notebook tab is clicked and Run All chosen again, and the run starts."""
    page = running["broken"]
    chosen = []
    real_menu = page.menu

    def menu(name, item):
        chosen.append(item)
        if chosen.count("Run All Cells") > 1 or item != "Run All Cells":
            real_menu(name, item)

    monkeypatch.setattr(page, "menu", menu)
    monkeypatch.setattr(jupyterlab_browser, "RUN_STARTS_S", 10)  # the lessons still run alongside
    page.start_run_all(len(BROKEN))
    assert chosen.count("Run All Cells") == 2
    page.wait_run_all(len(BROKEN))
    assert any("deliberately broken" in problem for problem in page.problems())
    assert page.prompts()[-1].strip() in ("[ ]:", "")


def test_the_served_copy_is_writable_even_from_a_read_only_checkout(tmp_path):
    source = tmp_path / "checkout"
    (source / "lessons").mkdir(parents=True)
    (source / "lessons" / "01_x.py").write_text("# %%\n")
    (source / "figures").mkdir()
    for path in (source / "lessons" / "01_x.py", source / "lessons", source / "figures", source):
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        copy = copy_repository(source, tmp_path / "copy")
        # mode bits, not a write: root (as in CI) may write whatever the modes say
        for path in (copy, copy / "lessons", copy / "figures", copy / "lessons" / "01_x.py"):
            mode = path.stat().st_mode
            assert mode & stat.S_IWUSR and (not path.is_dir() or mode & stat.S_IXUSR), (path, oct(mode))
    finally:
        for path in (source, source / "lessons", source / "figures"):
            path.chmod(0o755)
