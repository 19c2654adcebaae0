"""Repository promises: CI runs the README's test command; the two README commands are one line each."""

import re
from pathlib import Path

from readme_commands import readme_as_root, readme_start

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


def test_the_readme_start_command_serves_the_course_folder_and_opens_the_lessons(tmp_path, monkeypatch):
    """The first command's JupyterLab, parsed by jupyter_server itself from the course folder: its
    root is the course folder (so the glossary links, the README and figures/ are in reach and the
    save hook sees lessons/NN_name.ipynb), and its file browser starts in lessons/ (issue 26)."""
    from jupyter_server.serverapp import ServerApp

    command = readme_start()
    course = tmp_path / "course"
    (course / "lessons").mkdir(parents=True)
    monkeypatch.chdir(course)
    app = ServerApp()
    app.parse_command_line(command[2:])
    assert Path(app.root_dir) == course
    assert app.config.ContentsManager.preferred_dir == "lessons"


def test_the_root_case_stands_next_to_the_first_command():
    """As root the first command stops ("Running as root is not recommended"): the paragraph right
    after it says what to add (the browser test adds just that when it runs as root)."""
    assert readme_as_root() == ["--allow-root"]


def test_the_readmes_python_example_runs_against_the_course_model(tmp_path, monkeypatch, capsys):
    """The README's example, as printed, with its endpoint pointed at the course's fictional model on
    127.0.0.1 (each run addressed by its name) and 2 held-out seeds instead of 20 (the imports it
    documents are the ones that run)."""
    from sim.chat.chat_policy import SHIPPED_MODEL
    from sim.chat.model_endpoint import serve

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    (example,) = [block for block in blocks if "chat_policy(" in block]  # the chat policy's example
    assert 'base_url="http://127.0.0.1:11434/v1"' in example and "held_out_seeds(20)" in example
    monkeypatch.chdir(tmp_path)
    with serve() as base_url:
        code = example.replace("http://127.0.0.1:11434/v1", base_url).replace(
            "held_out_seeds(20)", "held_out_seeds(2)"
        )
        code = re.sub(r'chat_policy\("[^"]*"', f"chat_policy({SHIPPED_MODEL!r}", code, count=1)
        exec(compile(code, "README.md", "exec"), {})
    assert (tmp_path / "my_model.jsonl").is_file() and capsys.readouterr().out.strip()


def test_the_readmes_framework_example_runs_as_printed(capsys):
    """The README's framework example, exactly as printed: LangGraph's prebuilt agent against the
    course's endpoint, started by the example itself; it prints the run's tools and its right answer."""
    import sim

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    (example,) = [block for block in blocks if "frameworks.run_langgraph(" in block]
    exec(compile(example, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "['read_meter', 'consumption', 'tariff']" in printed
    assert f" {sim.correct_answer('G05')} " in printed and printed.rstrip().endswith("answer")
