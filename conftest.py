"""Test-session setup: the same record on anyone's machine, whatever folder the tests run from.

- Figures go to a temporary folder, so running the tests never rewrites figures/.
- The notebook kernels (nbval runs them with --nbval-current-env, so they inherit this
  process's environment) get an empty IPython profile and matplotlib folder: a user's
  startup files, display options and matplotlibrc do not reach the checked record.
- nbval's sanitizer file is named by its absolute path, so any folder works as the working
  directory (an editor's test runner, `cd lessons`).
- When installed versions differ from the pins in requirements.txt, the run says so first,
  in one line, with the command that fixes it (and again at the end).
- Tests marked `slow` are left out of the quick run, `pytest -m "not slow"`; the README's
  test command runs them all.
"""

import importlib.metadata
import os
import re
import sys
import tempfile
from pathlib import Path

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


def pytest_configure(config):
    if "COURSE_FIGURES_DIR" not in os.environ:
        os.environ["COURSE_FIGURES_DIR"] = tempfile.mkdtemp(prefix="course-figures-")
    os.environ.setdefault("MPLBACKEND", "Agg")
    # kernels start from a clean IPython profile and matplotlib folder, not the user's
    for name, prefix in (("IPYTHONDIR", "course-ipython-"), ("MPLCONFIGDIR", "course-matplotlib-")):
        os.environ[name] = tempfile.mkdtemp(prefix=prefix)
    for name in ("MATPLOTLIBRC", "PYTHONSTARTUP"):
        os.environ.pop(name, None)
    if getattr(config.option, "nbval_sanitize_with", None) is None:
        config.option.nbval_sanitize_with = str(SANITIZER)
    config.addinivalue_line("markers", "slow: long checks, left out of the quick run (-m 'not slow')")
    config.course_version_drift = version_drift_line(pinned_versions())


def pytest_sessionstart(session):
    line = session.config.course_version_drift
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if line and reporter is not None:
        reporter.write_line(line, yellow=True, bold=True)


def pytest_terminal_summary(terminalreporter, config):
    if config.course_version_drift:
        terminalreporter.write_line(config.course_version_drift, yellow=True, bold=True)
