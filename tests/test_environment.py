"""The user's environment does not change the record: one test (at least) for each kind in issue 17.

1. the folder the tests run from; 2. the user's matplotlibrc; 3. the user's pandas display
options and IPython profile; 4. a read-only course folder; 5. other package versions;
6. metadata written by editors and 7. a destructive conversion are checked per lesson in
tests/test_lessons.py (the kernelspec check, the executed-record check and their broken copies).

The slow test runs lesson 2 as a user with every unhelpful setting at once would: a personal
matplotlibrc, an IPython startup file that changes pandas' display, and a figures folder that
cannot be written (a read-only filesystem for root, which ignores file modes; a folder without
write permission for anyone else).
"""

import hashlib
import os
import subprocess
import sys
import types
from pathlib import Path

import matplotlib
import nbformat
import pytest
from course_checks import LESSONS, ROOT, ignores_output
from matplotlib.figure import Figure

import conftest
import sim
from sim.measurement.bands import compare_setups
from sim.measurement.counts import measure
from sim.presentation import figures, figures_planner_executor, figures_single_loop

HOSTILE_RC = {
    "axes.grid": True,
    "font.size": 12,
    "font.family": "serif",
    "lines.linewidth": 3,
    "figure.facecolor": "#eeeeee",
    "axes.prop_cycle": matplotlib.cycler(color=["#000000", "#ff00ff"]),
    "savefig.bbox": "tight",
    "savefig.dpi": 50,
    "svg.fonttype": "path",
}
MATPLOTLIBRC = """axes.grid: True
font.size: 12
font.family: serif
lines.linewidth: 3
figure.facecolor: eeeeee
axes.prop_cycle: cycler('color', ['000000', 'ff00ff'])
savefig.bbox: tight
savefig.dpi: 50
"""
IPYTHON_STARTUP = """import pandas as pd

pd.set_option("display.precision", 2)
pd.set_option("display.max_columns", 3)
pd.set_option("display.width", 50)
pd.set_option("display.float_format", "{:.1f}".format)
get_ipython().run_line_magic("precision", "2")
"""
IPYTHON_KERNEL_CONFIG = 'c.InteractiveShell.ast_node_interactivity = "all"\n'
LESSON = LESSONS / "02_planner_executor.ipynb"
FALLBACK_LINE = "cannot be written here, so this session's figures are saved in"


# ---- 1. the folder the tests run from


@pytest.mark.slow
def test_tests_run_from_a_subfolder():
    """From lessons/ (as an editor's test runner may), nbval finds the sanitizer and the tests pass.
    tests/nbval_sanitizer_check.ipynb passes only when the sanitizer is applied."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "../tests/nbval_sanitizer_check.ipynb", "../tests/test_repo.py",
         "-k", "not readmes"],
        cwd=LESSONS, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    # the sanitizer check's 2 cells, test_repo.py's 5 tests (its README examples, which import sim, run in the
    # main session)
    assert "7 passed" in done.stdout


def test_the_sanitizer_is_named_by_an_absolute_path(pytestconfig):
    path = Path(pytestconfig.option.nbval_sanitize_with)
    assert path.is_absolute() and path == ROOT / "tests" / "nbval_sanitize.cfg" and path.is_file()


# ---- 2. the user's matplotlibrc


def _figures_of_lesson_2():
    g05 = sim.run_plan_execute("G05", sim.DEFAULT_SEED, sim.DEFAULT_BUDGET)
    single = [measure("single-loop", seed) for seed in (sim.DEFAULT_SEED, sim.DEFAULT_SEED + 1)]
    split = [measure("plan-execute", seed) for seed in (sim.DEFAULT_SEED, sim.DEFAULT_SEED + 1)]
    return [
        figures_planner_executor.draw_plan_and_trace(g05),
        figures_planner_executor.draw_band_chart(compare_setups(single, split)),
        figures_single_loop.draw_tariff(),
    ]


@pytest.mark.slow
def test_panel_figures_ignore_the_users_rc_settings():
    """Drawn and encoded (SVG for panels, PNG) under a user's rc settings: the same bytes."""
    clean = [(figures.figure_svg(f), figures.figure_png(f)) for f in _figures_of_lesson_2()]
    with matplotlib.rc_context(HOSTILE_RC):
        hostile = [(figures.figure_svg(f), figures.figure_png(f)) for f in _figures_of_lesson_2()]
    assert hostile == clean


def test_every_figure_function_draws_in_the_course_style():
    import ast

    for path in sorted((ROOT / "sim").glob("figures_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("draw_"):
                names = [d.id for d in node.decorator_list if isinstance(d, ast.Name)]
                assert "in_course_style" in names, f"{path.name}: {node.name} is not @in_course_style"


def test_saved_figures_ignore_the_users_rc_settings(tmp_path, monkeypatch):
    monkeypatch.setenv(figures.FIGURES_ENV, str(tmp_path))
    with matplotlib.rc_context(HOSTILE_RC):
        path = figures.save_figure(figures_single_loop.draw_tariff(), "01_single_loop-tariff")
    assert path.read_bytes() == (ROOT / "figures" / "01_single_loop-tariff.png").read_bytes()


def test_the_maintainer_command_reports_changed_figures():
    refresh = _load_script("refresh_lessons")
    before = {"a.png": "1", "b.png": "2", "c.png": "3"}
    assert refresh.figure_changes(before, dict(before)) == "figures unchanged"
    after = {"a.png": "1", "b.png": "9", "d.png": "4"}
    assert refresh.figure_changes(before, after) == (
        "figures changed: b.png; figures new: d.png; figures not written: c.png"
    )


# ---- 3. pandas' display options and the IPython profile: the tests' side


def test_test_kernels_start_from_an_empty_profile_and_matplotlib_folder():
    for name in ("IPYTHONDIR", "MPLCONFIGDIR"):
        folder = Path(os.environ[name])
        assert folder.is_dir() and folder.name.startswith("course-")
        assert not [*folder.glob("profile_default/startup/*.py"), *folder.glob("profile_default/*_config.py")]
        assert not (folder / "matplotlibrc").exists()
    assert "MATPLOTLIBRC" not in os.environ and "PYTHONSTARTUP" not in os.environ


def test_every_lesson_resets_pandas_display_options_before_it_prints():
    import jupytext

    for source in sorted(LESSONS.glob("*.py")):
        first = next(c for c in jupytext.read(source).cells if c.cell_type == "code").source
        assert 'pd.reset_option("display")' in first, (
            f"{source.name}: its first cell keeps the user's options"
        )
        printing = [first.index(call) for call in ("print(", "say(", "show(", "display(") if call in first]
        assert all(first.index('pd.reset_option("display")') < at for at in printing), source.name


# ---- 4. a read-only course folder


def test_a_figure_that_cannot_be_saved_goes_to_the_users_folder_with_one_line(tmp_path, monkeypatch, capsys):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(figures.FIGURES_ENV, str(blocked / "figures"))  # no folder can be made there
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    figures.fallback_dir.cache_clear()
    try:
        fig = Figure()
        paths = [figures.save_figure(fig, "one"), figures.save_figure(fig, "two")]
    finally:
        figures.fallback_dir.cache_clear()
    folder = tmp_path / "cache" / "agent-loops-measured" / "figures"
    assert paths == [folder / "one.png", folder / "two.png"] and all(p.is_file() for p in paths)
    assert capsys.readouterr().out == f"{blocked / 'figures'} {FALLBACK_LINE} {folder}\n"


# ---- 2, 3 and 4 together: lesson 2 run by a user with every unhelpful setting


def _read_only_command(folder: Path, command: list[str]) -> list[str]:
    """`command` run with `folder` not writable: a read-only filesystem for root, a mode for others."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return command
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o ro tmpfs {folder}"],
                           capture_output=True, text=True)  # fmt: skip
    if probe.returncode != 0:
        pytest.skip(f"as root a read-only folder needs `unshare -m` and mount: {probe.stderr.strip()}")
    script = 'mount -t tmpfs -o ro tmpfs "$COURSE_FIGURES_DIR" && exec "$@"'
    return ["unshare", "-m", "sh", "-c", script, "sh", *command]


@pytest.fixture(scope="module")
def lesson_as_a_user(tmp_path_factory):
    base = tmp_path_factory.mktemp("user")
    mpl, ipython, read_only, cache = (base / name for name in ("mpl", "ipython", "read-only", "cache"))
    (ipython / "profile_default" / "startup").mkdir(parents=True)
    (ipython / "profile_default" / "startup" / "00-display.py").write_text(IPYTHON_STARTUP)
    (ipython / "profile_default" / "ipython_kernel_config.py").write_text(IPYTHON_KERNEL_CONFIG)
    mpl.mkdir()
    (mpl / "matplotlibrc").write_text(MATPLOTLIBRC)
    read_only.mkdir()
    env = {**os.environ, "MPLCONFIGDIR": str(mpl), "IPYTHONDIR": str(ipython),
           "COURSE_FIGURES_DIR": str(read_only), "XDG_CACHE_HOME": str(cache)}  # fmt: skip
    env.pop("MPLBACKEND", None)  # as in JupyterLab: the kernel's own backend
    out = base / "executed.ipynb"
    command = [sys.executable, str(ROOT / "tests" / "run_lesson_as_user.py"), str(LESSON), str(out)]
    done = subprocess.run(_read_only_command(read_only, command), env=env, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, f"lesson 2 stopped:\n{done.stderr[-3000:]}"
    return types.SimpleNamespace(
        executed=nbformat.read(out, as_version=4), read_only=read_only,
        fallback=cache / "agent-loops-measured" / "figures",
    )  # fmt: skip


def _printed(cell) -> list[str]:
    """A code cell's printed lines: streams and the plain text of results (widgets left out)."""
    text = []
    for output in cell.get("outputs", []):
        text.append(output.get("text", ""))
        data = output.get("data", {})
        if "application/vnd.jupyter.widget-view+json" not in data:
            text.append(data.get("text/plain", ""))
    return "".join(text).splitlines()


@pytest.mark.slow
def test_a_users_display_options_and_profile_change_no_printed_record(lesson_as_a_user):
    stored = nbformat.read(LESSON, as_version=4)
    for index, (want, got) in enumerate(zip(stored.cells, lesson_as_a_user.executed.cells, strict=True)):
        if want.cell_type != "code" or ignores_output(want):
            continue
        lines = [line for line in _printed(got) if FALLBACK_LINE not in line]
        assert lines == _printed(want), f"cell {index} prints differently in a user's environment"


@pytest.mark.slow
def test_a_read_only_course_folder_still_runs_and_says_where_the_figures_went(lesson_as_a_user):
    lines = [line for cell in lesson_as_a_user.executed.cells if cell.cell_type == "code"
             for line in _printed(cell) if FALLBACK_LINE in line]  # fmt: skip
    assert lines == [f"{lesson_as_a_user.read_only} {FALLBACK_LINE} {lesson_as_a_user.fallback}"]
    assert not any(lesson_as_a_user.read_only.iterdir())


@pytest.mark.slow
def test_a_users_matplotlibrc_changes_no_figure(lesson_as_a_user):
    drawn = sorted(p.name for p in lesson_as_a_user.fallback.glob("*.png"))
    committed = sorted(p.name for p in (ROOT / "figures").glob(f"{LESSON.stem}-*.png"))
    assert drawn and drawn == committed
    for name in drawn:
        assert _sha256(lesson_as_a_user.fallback / name) == _sha256(ROOT / "figures" / name), name


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---- 5. other package versions


def test_version_drift_is_one_line_naming_each_package_and_the_fix():
    pins = {"pandas": "3.1.1", "matplotlib": "3.11.2", "nbval": "0.11.0"}
    installed = {"pandas": "3.0.2", "matplotlib": "3.11.2", "nbval": None}.get
    line = conftest.version_drift_line(pins, installed)
    assert "\n" not in line
    assert "pandas 3.0.2 (pinned 3.1.1)" in line and "nbval missing (pinned 0.11.0)" in line
    assert "matplotlib" not in line and line.endswith(f"Fix: {conftest.install_command()}")
    assert conftest.version_drift_line(pins, pins.get) is None


def test_the_pins_are_read_from_requirements_and_this_install_is_compared_with_them(pytestconfig):
    pins = conftest.pinned_versions()
    assert {"pandas", "matplotlib", "ipywidgets", "jupytext", "nbval"} <= set(pins)
    assert all(version[0].isdigit() for version in pins.values()), pins
    assert pytestconfig.course_version_drift == conftest.version_drift_line(pins)


def test_version_drift_is_said_first_and_last():
    said = []
    reporter = types.SimpleNamespace(write_line=lambda line, **_: said.append(line))
    config = types.SimpleNamespace(
        course_version_drift="Installed versions differ ...",
        pluginmanager=types.SimpleNamespace(get_plugin=lambda name: reporter),
    )
    conftest.pytest_sessionstart(types.SimpleNamespace(config=config))
    conftest.pytest_terminal_summary(reporter, config)
    assert said == ["Installed versions differ ..."] * 2


def test_the_readme_troubleshooting_names_the_version_note_and_its_fix():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    troubleshooting = readme[readme.index("## Troubleshooting") :]
    assert "Installed versions differ from requirements.txt" in troubleshooting
    assert ".venv/bin/pip install -r requirements.txt" in troubleshooting


def _load_script(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- the figure test reuses what nbval's run of a lesson saved, only when nbval ran all of it


def test_nbval_figures_are_used_only_when_every_cell_of_the_lesson_ran(tmp_path):
    config = types.SimpleNamespace(course_nbval_figures=tmp_path, course_nbval_cells={"02_x": 3, "03_y": 2},
                                   course_nbval_run={"02_x": 3, "03_y": 1})  # fmt: skip
    assert conftest.nbval_figures(config, "02_x") == tmp_path / "02_x"
    assert conftest.nbval_figures(config, "03_y") is None  # a cell did not run (deselected, interrupted)
    assert conftest.nbval_figures(config, "04_z") is None  # nbval did not run the lesson at all


# ---- in parallel: what must share a worker does


def test_a_lessons_cells_and_its_figure_test_share_a_group_and_other_tests_go_by_file():
    group = conftest.course_group
    cells = [f"lessons/02_planner_executor.ipynb::Cell {i}" for i in (0, 1, 17)]
    figure = "tests/test_lessons.py::test_committed_figures_are_what_the_lesson_draws[02_planner_executor]"
    assert {group(nodeid) for nodeid in [*cells, figure]} == {"lessons/02_planner_executor.ipynb"}
    assert group("tests/test_lessons.py::test_committed_figures_are_what_the_lesson_draws[04_contract]") == (
        "lessons/04_contract.ipynb"
    )
    assert (
        group("tests/test_lessons.py::test_stored_outputs_hold_no_paths_or_addresses[x]")
        == "tests/test_lessons.py"
    )
    browser = (
        "tests/test_browser.py::test_lesson_runs_in_jupyterlab_and_its_panel_follows_its_main_control[01_x]"
    )
    assert group(browser) == group(
        "tests/test_browser.py::test_jupyterlab_opens_every_lesson_in_a_tab_of_its_own_and_starts_its_run"
    )
    assert group("tests/test_cli.py::TestX::test_y") == "tests/test_cli.py"  # a class does not split its file


def test_the_browser_test_is_handed_out_first_then_the_long_groups_the_lessons_and_the_rest_largest_first():
    sizes = {"tests/test_cli.py": 30, "lessons/01_a.ipynb": 40, "tests/test_browser.py": 12,
             "tests/test_sim_golden.py": 300, "lessons/04_b.ipynb": 60, "tests/test_site.py": 5}  # fmt: skip
    assert conftest.group_order(sizes) == ["tests/test_browser.py", "tests/test_site.py", "lessons/04_b.ipynb",
                                           "lessons/01_a.ipynb", "tests/test_sim_golden.py",
                                           "tests/test_cli.py"]  # fmt: skip


def _options(numprocesses=None, dist="no"):
    plugins = types.SimpleNamespace(hasplugin=lambda name: name == "xdist")
    return types.SimpleNamespace(option=types.SimpleNamespace(numprocesses=numprocesses, dist=dist),
                                 pluginmanager=plugins)  # fmt: skip


def test_the_test_command_runs_in_parallel_unless_asked_otherwise(monkeypatch):
    config = _options()  # the README's command: no -n, no --dist
    conftest.pytest_cmdline_main(config)
    assert (config.option.numprocesses, config.option.dist) == ("auto", "loadscope")
    asked = _options(numprocesses=0)  # -n 0 (or --pdb) stays in this process
    conftest.pytest_cmdline_main(asked)
    assert (asked.option.numprocesses, asked.option.dist) == (0, "no")
    worker = _options()  # an xdist worker (xdist resets its -n): it starts no workers of its own
    worker.workerinput = {"workerid": "gw0"}
    conftest.pytest_cmdline_main(worker)
    assert worker.option.numprocesses is None
    without = _options()
    without.pluginmanager = types.SimpleNamespace(hasplugin=lambda name: False)  # no pytest-xdist
    conftest.pytest_cmdline_main(without)
    assert without.option.numprocesses is None
    whole = types.SimpleNamespace(args_source=pytest.Config.ArgsSource.TESTPATHS)
    assert 1 <= conftest.pytest_xdist_auto_num_workers(whole) <= conftest.MAX_WORKERS
    named = types.SimpleNamespace(args_source=pytest.Config.ArgsSource.ARGS)  # e.g. pytest tests/test_cli.py
    assert conftest.pytest_xdist_auto_num_workers(named) == 0
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert conftest.pytest_xdist_auto_num_workers(whole) is None  # xdist reads its own variable
    other = types.SimpleNamespace(getvalue=lambda name: "load")  # --dist load: xdist's own scheduling
    assert conftest.pytest_xdist_make_scheduler(other, None) is None


@pytest.mark.slow
def test_without_pytest_xdist_the_tests_run_in_this_process():
    # test_repo.py's quick tests: the README examples (about 6 CPU-s) run in the main session
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-q", "tests/test_repo.py",
                           "-k", "not readmes"], cwd=ROOT, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "unrecognized arguments" not in done.stderr


def test_the_figure_test_grouped_with_its_lesson_is_the_one_in_test_lessons():
    import test_lessons

    name = test_lessons.test_committed_figures_are_what_the_lesson_draws.__name__
    assert conftest.FIGURE_TEST == f"tests/test_lessons.py::{name}["


def test_the_course_scheduling_hands_out_whole_groups_in_the_course_order():
    """CourseScheduling on xdist's own machinery (its workqueue and a worker's queue), with a fake
    worker: the browser test first, each lesson's cells and figure test together, then the files."""
    collection = [
        "tests/test_cli.py::test_a",
        "tests/test_browser.py::test_first",
        "lessons/01_a.ipynb::Cell 0",
        "lessons/01_a.ipynb::Cell 1",
        "tests/test_lessons.py::test_committed_figures_are_what_the_lesson_draws[01_a]",
        "tests/test_browser.py::test_last",
    ]

    class Worker:
        shutting_down, sent = False, []

        def send_runtest_some(self, indices):
            self.sent.append([collection[i] for i in indices])

    worker = Worker()
    scheduling = conftest.CourseScheduling.__new__(conftest.CourseScheduling)
    scheduling.registered_collections = {worker: collection}
    scheduling.assigned_work = {worker: {}}
    scheduling.workqueue = type(scheduling.assigned_work)()
    for nodeid in collection:  # as LoadScopeScheduling.schedule builds it
        scheduling.workqueue.setdefault(scheduling._split_scope(nodeid), {})[nodeid] = False
    from collections import OrderedDict

    scheduling.workqueue = OrderedDict(scheduling.workqueue)
    for _ in range(3):
        scheduling._assign_work_unit(worker)
    assert worker.sent == [
        ["tests/test_browser.py::test_first", "tests/test_browser.py::test_last"],
        ["lessons/01_a.ipynb::Cell 0", "lessons/01_a.ipynb::Cell 1",
         "tests/test_lessons.py::test_committed_figures_are_what_the_lesson_draws[01_a]"],
        ["tests/test_cli.py::test_a"],
    ]  # fmt: skip


def test_the_browser_server_lasts_its_file_in_the_course_groups_and_the_session_elsewhere():
    """In a worker of the course's parallel run the browser file's tests run together, so its server
    and pages close when they end; xdist resets a worker's --dist, so the controller tells it."""
    import test_browser

    def worker_input(dist: str) -> dict:
        node = types.SimpleNamespace(workerinput={}, config=types.SimpleNamespace(getvalue=lambda name: dist))
        conftest.pytest_configure_node(node)
        return node.workerinput

    in_groups = types.SimpleNamespace(workerinput=worker_input("loadscope"))
    assert test_browser._server_scope("lab", in_groups) == "module"
    for other in (types.SimpleNamespace(workerinput=worker_input("load")), types.SimpleNamespace()):
        assert test_browser._server_scope("lab", other) == "session"
