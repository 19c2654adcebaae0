"""Repository promises: CI runs the README's test command; the two README commands are one line each."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands() -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    return [block.strip() for block in blocks[:2]]


def test_readme_gives_two_one_line_commands_with_a_venv():
    course, tests = _readme_commands()
    for command in (course, tests):
        assert "\n" not in command and command.startswith("python3 -m venv .venv && .venv/bin/pip install")
    assert "jupyter lab" in course and "pytest" in tests


def test_ci_runs_exactly_the_readme_test_command():
    _, tests = _readme_commands()
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert tests in ci_lines


def test_requirements_install_sim_and_pin_what_outputs_depend_on():
    lines = [line.split("#")[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    lines = [line for line in lines if line]
    assert "-e ." in lines
    pinned = {line.split("==")[0] for line in lines if "==" in line}
    assert {"pandas", "matplotlib", "ipywidgets", "jupytext", "nbval", "pydantic", "jupyterlab"} <= pinned
