"""Test-session setup: the same record on anyone's machine, whatever folder the tests run from.

- Figures go to a temporary folder, so running the tests never rewrites figures/; the temporary
  folders a test process makes are removed when it ends.
- The notebook kernels (nbval runs them with --nbval-current-env, so they inherit this
  process's environment) get an empty IPython profile and matplotlib folder: a user's
  startup files, display options and matplotlibrc do not reach the checked record.
- nbval's sanitizer file is named by its absolute path, so any folder works as the working
  directory (an editor's test runner, `cd lessons`).
- When installed versions differ from the pins in requirements.txt, the run says so first,
  in one line, with the command that fixes it (and again at the end).
- Tests marked `slow` are left out of the quick run, `pytest -m "not slow"`; the README's
  test command runs them all.
- A lesson's record is checked on one run of it: where the browser test runs and checks a
  lesson's record on its Run All in JupyterLab (tests/record_checks.py: nbval's rules on the
  saved run, the figures it drew), the nbval run of that lesson and its figure test are left out
  (`leave_out_second_runs`, after -k, -m and --deselect have chosen the tests).
- Order: tests marked `first` (the browser test opens every lesson in JupyterLab, which loads
  them in the background), then every lesson under nbval where nbval runs it (each kernel saves
  its figures in a folder of its own, which the figure test then compares with figures/ instead
  of running the lesson again), then tests marked `after_lessons` (the browser test's checks
  of its kernels and of its small check notebooks, while the lessons run), then the rest, then
  tests marked `last` (the browser test's checks of the lessons).
- In parallel (pytest-xdist; `pytest_cmdline_main` below sets `-n auto --dist loadscope`): the
  whole suite (run from the course folder, no tests named) goes to one worker per core, in
  groups that each stay in one worker (`CourseScheduling`): the browser test first, then, where
  nbval runs them, each lesson with the figure test that reads its figures, then one group per
  test file, each group in the order above. So in a parallel run the browser test's phases
  follow one another in its worker while the other workers run the rest. Named tests or files
  run in this process, in the order above, and so does `-n 0` (for a debugger).
"""

import gc
import importlib.metadata
import json
import os
import re
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest

try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # without pytest-xdist the suite runs in this process (the note on versions says so)
    LoadScopeScheduling = object

ROOT = Path(__file__).resolve().parent
REQUIREMENTS = ROOT / "requirements.txt"
SANITIZER = ROOT / "tests" / "nbval_sanitize.cfg"


def pinned_versions(requirements: Path = REQUIREMENTS) -> dict[str, str]:
    """The `name==version` pins of a requirements file."""
    pins = {}
    for line in requirements.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^\s;]+)", line.split("#")[0].strip())
        if match:
            pins[match[1]] = match[2]
    return pins


def installed_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def install_command() -> str:
    """The command that installs the pins into the Python running the tests."""
    if Path(sys.prefix).resolve() == (ROOT / ".venv").resolve():
        return ".venv/bin/pip install -r requirements.txt"
    return f"{sys.executable} -m pip install -r {REQUIREMENTS}"


def version_drift_line(pins: dict[str, str], installed=installed_version) -> str | None:
    """One line naming every package whose installed version is not its pin, and the fix; None if all match."""
    drift = [
        f"{name} {installed(name) or 'missing'} (pinned {pin})"
        for name, pin in pins.items()
        if installed(name) != pin
    ]
    if not drift:
        return None
    return (
        f"Installed versions differ from requirements.txt: {', '.join(drift)}; stored outputs and figures "
        f"will not match. Fix: {install_command()}"
    )


MADE_FOLDERS: list[str] = []  # the temporary folders this process made, removed when it ends


def temporary_folder(prefix: str) -> str:
    """A new temporary folder, removed at the end of this test process (`pytest_unconfigure`)."""
    MADE_FOLDERS.append(tempfile.mkdtemp(prefix=prefix))
    return MADE_FOLDERS[-1]


def pytest_unconfigure(config):
    for folder in MADE_FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_configure(config):
    if "COURSE_FIGURES_DIR" not in os.environ:
        os.environ["COURSE_FIGURES_DIR"] = temporary_folder("course-figures-")
    os.environ.setdefault("MPLBACKEND", "Agg")
    # kernels start from a clean IPython profile and matplotlib folder, not the user's
    for name, prefix in (("IPYTHONDIR", "course-ipython-"), ("MPLCONFIGDIR", "course-matplotlib-")):
        os.environ[name] = temporary_folder(prefix)
    for name in ("MATPLOTLIBRC", "PYTHONSTARTUP"):
        os.environ.pop(name, None)
    if getattr(config.option, "nbval_sanitize_with", None) is None:
        config.option.nbval_sanitize_with = str(SANITIZER)
    config.addinivalue_line("markers", "slow: long checks, left out of the quick run (-m 'not slow')")
    config.addinivalue_line(
        "markers", "first: run before every other test of its worker (starts work in the background)"
    )
    config.addinivalue_line(
        "markers",
        "after_lessons: run after the lessons under nbval when they share a process, before the rest",
    )
    config.addinivalue_line(
        "markers", "last: run after every other test of its worker (checks work done in the background)"
    )
    config.course_version_drift = version_drift_line(pinned_versions())
    config.course_figures = os.environ["COURSE_FIGURES_DIR"]
    config.course_nbval_figures = Path(temporary_folder("course-nbval-figures-"))
    config.course_nbval_cells, config.course_nbval_run = {}, {}
    config.pluginmanager.register(SecondRuns(), "course-second-runs")


def nbval_lesson(item) -> str | None:
    """The lesson's name when `item` is a cell of lessons/*.ipynb run by nbval, else None."""
    path = Path(str(item.path))
    if type(item).__name__ == "IPyNbCell" and path.suffix == ".ipynb" and path.parent == ROOT / "lessons":
        return path.stem
    return None


def nbval_figures(config, lesson: str) -> Path | None:
    """The folder in which this session's nbval run of `lesson` saved its figures, when every cell
    of it ran; None when nbval did not run the whole lesson (e.g. `pytest tests/test_lessons.py`)."""
    cells = config.course_nbval_cells.get(lesson, 0)
    if cells and config.course_nbval_run.get(lesson, 0) == cells:
        return config.course_nbval_figures / lesson
    return None


BROWSER_RECORD = "tests/test_browser.py::test_each_cell_run_in_jupyterlab_prints_its_record["
BROWSER_FIGURES = "tests/test_browser.py::test_committed_figures_are_what_jupyterlab_drew["


def code_cells(notebook: Path) -> int:
    """The number of code cells of the notebook (.ipynb) at `notebook`."""
    cells = json.loads(Path(notebook).read_text(encoding="utf-8"))["cells"]
    return sum(cell["cell_type"] == "code" for cell in cells)


def browser_checks(nodeids) -> tuple[set[str], set[str]]:
    """Among the test ids `nodeids`: (the lessons the browser test checks every cell's record of,
    from its record tests' ids `<lesson>-Cell <k>`; the lessons whose figures it checks)."""
    nodeids = list(nodeids)
    records = Counter(
        nodeid[len(BROWSER_RECORD) :].rsplit("-Cell ", 1)[0]
        for nodeid in nodeids
        if nodeid.startswith(BROWSER_RECORD)
    )
    figures = {nodeid[len(BROWSER_FIGURES) : -1] for nodeid in nodeids if nodeid.startswith(BROWSER_FIGURES)}
    return {
        lesson
        for lesson, selected in records.items()
        if selected == code_cells(ROOT / "lessons" / f"{lesson}.ipynb")
    }, figures


def run_again(nodeid: str, records: set[str], figures: set[str]) -> bool:
    """True for a test that would repeat a check the browser test makes on its Run All: a lesson's
    cell under nbval where the browser test checks every cell of that lesson (`records`), the
    figure test of a lesson whose figures it checks (`figures`)."""
    return any(nodeid.startswith(f"lessons/{lesson}.ipynb::") for lesson in records) or any(
        nodeid == f"{FIGURE_TEST}{lesson}]" for lesson in figures
    )


def leave_out_second_runs(config, items) -> None:
    """Where the browser test runs and checks a lesson (Chromium is there and its checks of that
    lesson are among the tests to run), leave out the nbval run of that lesson and its figure test:
    the same checks, on the browser's run (tests/record_checks.py). Without Chromium, or when the
    browser's checks are not all selected, nbval runs the lesson."""
    browser = next(
        (item for item in items if item.nodeid.startswith((BROWSER_RECORD, BROWSER_FIGURES))), None
    )
    if browser is None or browser.module.chromium_missing_reason() is not None:
        return
    records, figures = browser_checks(item.nodeid for item in items)
    dropped = [item for item in items if run_again(item.nodeid, records, figures)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if not run_again(item.nodeid, records, figures)]


class SecondRuns:
    """`leave_out_second_runs` after every other selection (-k, -m, --deselect: pytest's own hooks
    of the same name), so that it sees only the tests that will run. Registered in pytest_configure."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        leave_out_second_runs(config, items)


def pytest_collection_modifyitems(config, items):
    def rank(item) -> int:
        if item.get_closest_marker("first"):
            return 0
        if nbval_lesson(item):
            return 1
        if item.get_closest_marker("after_lessons"):
            return 2
        return 4 if item.get_closest_marker("last") else 3

    items.sort(key=rank)  # stable: the order within each group is kept
    for item in items:
        lesson = nbval_lesson(item)
        if lesson:
            item.add_marker(pytest.mark.slow)  # the quick run reads the stored outputs, runs no lesson
            config.course_nbval_cells[lesson] = config.course_nbval_cells.get(lesson, 0) + 1


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before a lesson's kernel starts (in the setup of its first cell): its own figures folder."""
    lesson = nbval_lesson(item)
    folder = item.config.course_nbval_figures / lesson if lesson else item.config.course_figures
    os.environ["COURSE_FIGURES_DIR"] = str(folder)


def pytest_runtest_makereport(item, call):
    lesson = nbval_lesson(item)
    if lesson and call.when == "call":
        item.config.course_nbval_run[lesson] = item.config.course_nbval_run.get(lesson, 0) + 1


def pytest_sessionstart(session):
    line = session.config.course_version_drift
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if line and reporter is not None:
        reporter.write_line(line, yellow=True, bold=True)


def pytest_sessionfinish(session):
    """Let the process end promptly (a parallel run waits for its workers to exit): close the
    widgets the tests made (ipywidgets keeps each in a registry until it is closed, and freeing
    over a thousand at exit took seconds), then freeze the objects left (gc.freeze), so the
    collector's last passes at exit do not walk them again (about a second a worker)."""
    widgets = sys.modules.get("ipywidgets")
    if widgets is not None:
        widgets.Widget.close_all()
    gc.freeze()


SCREENSHOTS = "browser test screenshots"  # a report property: the folder the browser test saved them in


def pytest_terminal_summary(terminalreporter, config):
    """At the end: the browser test's screenshot folder (from the reports of whichever process ran
    it), and the note on versions again."""
    stats = getattr(terminalreporter, "stats", {})
    reports = [r for kind in stats.values() for r in kind if hasattr(r, "user_properties")]
    folders = dict.fromkeys(
        value for r in reports for name, value in r.user_properties if name == SCREENSHOTS
    )
    for folder in folders:
        terminalreporter.write_line(f"{SCREENSHOTS}: {folder}")
    if config.course_version_drift:
        terminalreporter.write_line(config.course_version_drift, yellow=True, bold=True)


MAX_WORKERS = 4  # `-n auto`: one worker per core, at most this many (the longest groups bound the rest)
BROWSER_GROUP = "tests/test_browser.py"
LONG_GROUPS = ("tests/test_site.py",)  # few tests, a minute or more each run (a build and a browser): early
FIGURE_TEST = "tests/test_lessons.py::test_committed_figures_are_what_the_lesson_draws["


def course_group(nodeid: str) -> str:
    """The group of tests that run in one worker, in order: a lesson's cells under nbval with the
    figure test of that lesson (it compares the figures that kernel saved), else the test's file."""
    if nodeid.startswith(FIGURE_TEST):
        return f"lessons/{nodeid[len(FIGURE_TEST) :].rstrip(']')}.ipynb"
    return nodeid.split("::", 1)[0]


def group_order(sizes: dict[str, int]) -> list[str]:
    """The order in which groups (name -> number of tests) are handed to the workers: the browser
    test first (its JupyterLab kernels then run every lesson while the workers go on), then the
    LONG_GROUPS (so none starts last), the lessons under nbval, then the other test files; within
    each, most tests first."""

    def rank(group: str) -> tuple:
        kind = (0 if group == BROWSER_GROUP else 1 if group in LONG_GROUPS
                else 2 if group.startswith("lessons/") else 3)  # fmt: skip
        return kind, -sizes[group]

    return sorted(sizes, key=rank)


class CourseScheduling(LoadScopeScheduling):
    """pytest-xdist's scope scheduling with the course's groups (`course_group`), handed out in
    `group_order`."""

    def _split_scope(self, nodeid: str) -> str:
        return course_group(nodeid)

    def _assign_work_unit(self, node) -> None:
        if not getattr(self, "_course_ordered", False):  # once, before the first group is handed out
            for group in group_order({group: len(tests) for group, tests in self.workqueue.items()}):
                self.workqueue.move_to_end(group)
            self._course_ordered = True
        super()._assign_work_unit(node)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """In parallel unless asked otherwise: with pytest-xdist installed and no `-n` given, `-n auto
    --dist loadscope`. Set here, not in pyproject.toml's addopts, so that a Python without
    pytest-xdist still runs the suite (in this process, after the note on versions)."""
    option = config.option
    if hasattr(config, "workerinput"):
        return  # an xdist worker (xdist has reset its -n) runs what it is sent: never workers of its own
    if config.pluginmanager.hasplugin("xdist") and getattr(option, "numprocesses", None) is None:
        option.numprocesses = "auto"
        if option.dist == "no":
            option.dist = "loadscope"


COURSE_GROUPS = "course_groups"  # a worker's input: True when the run hands out the course's groups


@pytest.hookimpl(optionalhook=True)  # optional: a hook of pytest-xdist's, run for each worker
def pytest_configure_node(node):
    """Tell each worker whether the run hands out the course's groups (`--dist loadscope`):
    xdist resets a worker's own --dist."""
    node.workerinput[COURSE_GROUPS] = node.config.getvalue("dist") == "loadscope"


def runs_course_groups(config) -> bool:
    """True in an xdist worker of a run that hands out the course's groups (`CourseScheduling`):
    there each group's tests run one after the other."""
    return bool(getattr(config, "workerinput", {}).get(COURSE_GROUPS, False))


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # optional: a hook of pytest-xdist's
def pytest_xdist_make_scheduler(config, log):
    """The course's groups for `--dist loadscope` (the default set above); xdist's own for any other --dist."""
    return CourseScheduling(config, log) if config.getvalue("dist") == "loadscope" else None


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto`: for the whole suite (run from the course folder, no tests named), one worker per
    core this process may use, at most MAX_WORKERS; when tests, files or another folder are named,
    none (they run in this process: starting workers would cost more than it saves). `-n 2` asks
    for workers whatever is named; PYTEST_XDIST_AUTO_NUM_WORKERS, when set, is xdist's to read."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))
