"""A student's policy file through `python -m sim score` (issue 26, item 5): it loads as Python's
`import` loads it, and whatever it does with the process (print, exit, raise anything) ends in one
clear line on stderr and an exit code of sim.cli.EXIT_CODES. The process-level cases run the CLI in
a new interpreter, as a student's shell does; the rest in this process (tests/cli_run.py)."""

import json
import subprocess
import sys

import pytest
from cli_run import run_cli

from sim.cli import EXIT_CODES, build_parser

QUICK = ("--held-out", "0", "--seeds", "1", "--budgets", "2")
DATACLASS_POLICY = """from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Memo:
    seen: list[str] = field(default_factory=list)


MEMO = Memo()


def pick(observation) -> str:
    MEMO.seen.append(observation.request)
    return observation.model_pick()
"""
PRINTING_POLICY = """def pick(observation):
    print("thinking about step", observation.step, "." * 2000)
    return observation.model_pick()
"""


def _policy(tmp_path, source: str, name: str = "mine.py") -> str:
    path = tmp_path / name
    path.write_text(source)
    return str(path)


def _python_m_sim(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True, **kwargs)


def test_a_policy_with_postponed_annotations_and_a_dataclass_loads_as_import_loads_it(tmp_path):
    path = _policy(tmp_path, DATACLASS_POLICY)
    done = _python_m_sim("score", f"{path}:pick", *QUICK)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()[1:]] == ["single", "pick"]


def test_a_policy_that_prints_and_is_piped_into_head_ends_quietly(tmp_path):
    """`python -m sim score mine.py:pick | head -1`: the reader leaves after one line."""
    path = _policy(tmp_path, PRINTING_POLICY)
    with open(tmp_path / "stderr", "w+") as err:
        process = subprocess.Popen([sys.executable, "-m", "sim", "score", f"{path}:pick", *QUICK],
                                   stdout=subprocess.PIPE, stderr=err, text=True)  # fmt: skip
        first = process.stdout.readline()
        process.stdout.close()
        code = process.wait(timeout=120)
        err.seek(0)
        said = err.read()
    assert code == 0 and "Error" not in said and "Traceback" not in said, said[-500:]
    assert first.split() == ["entrant", "seed", "budget", "success", "steps", "calls", "tokens", "errors"]
    assert said.startswith("thinking about step 1 ")  # the policy's prints: on stderr, whole


def test_what_a_policy_prints_leaves_the_json_whole(tmp_path):
    path = _policy(tmp_path, PRINTING_POLICY)
    done = run_cli("score", f"{path}:pick", *QUICK, "--format", "json")
    assert done.returncode == 0 and "thinking about step" in done.stderr
    assert {row["entrant"] for row in json.loads(done.stdout)["rows"]} == {"single loop", "pick"}


@pytest.mark.parametrize(
    "body, says",
    [("import sys\n    sys.exit(3)", "raised SystemExit: 3"), ("raise SystemExit", "raised SystemExit (see")],
)
def test_a_policy_that_exits_is_a_policy_error_in_one_line(tmp_path, body, says):
    path = _policy(tmp_path, f"def pick(observation):\n    {body}\n")
    done = _python_m_sim("score", f"{path}:pick", *QUICK)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    assert "policy 'pick' on task G01, seed 1, step 1" in done.stderr and says in done.stderr


def test_a_policy_that_raises_keyboard_interrupt_ends_as_ctrl_c_does(tmp_path):
    path = _policy(tmp_path, "def pick(observation):\n    raise KeyboardInterrupt\n")
    done = _python_m_sim("score", f"{path}:pick", *QUICK)
    assert done.returncode == 130 and done.stdout == "" and done.stderr == ""


@pytest.mark.parametrize(
    "source, says",
    [
        ("class Boom(BaseException):\n    pass\n\ndef pick(observation):\n    raise Boom('out')\n",
         "step 1 raised Boom: out"),
        ("def pick(observation):\n    raise ValueError('two\\nlines')\n", "raised ValueError: two lines"),
        ("class Odd(Exception):\n    def __str__(self):\n        raise RuntimeError\n\n"
         "def pick(observation):\n    raise Odd\n", "raised Odd: (its message cannot be printed)"),
        ("def pick(observation):\n    raise GeneratorExit\n", "raised GeneratorExit"),
        ("class Odd:\n    def __repr__(self):\n        raise RuntimeError\n\n"
         "def pick(observation):\n    return Odd()\n", "step 1 returned <Odd instance at"),
        ("def pick(observation):\n    return 'x' * 100000\n", "step 1 returned 'xxx"),
        ("import sys\nsys.exit('no')\n", "failed to load: SystemExit: no"),
        ("class Boom(BaseException):\n    pass\n\nraise Boom\n", "failed to load: Boom"),
    ],
)  # fmt: skip
def test_whatever_a_policy_raises_ends_in_one_line_and_exit_2(tmp_path, source, says):
    path = _policy(tmp_path, source)
    done = run_cli("score", f"{path}:pick", *QUICK)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    assert says in done.stderr and done.stderr.startswith("python -m sim: error: ") and len(done.stderr) < 400


def test_a_module_beside_the_policy_imports_as_it_would_for_python(tmp_path):
    (tmp_path / "helpers_for_my_policy.py").write_text("def choose(observation):\n    return 'stop'\n")
    path = _policy(tmp_path, "from helpers_for_my_policy import choose\n\npick = choose\n")
    done = run_cli("score", f"{path}:pick", *QUICK)
    assert done.returncode == 0, done.stderr


def test_the_exit_codes_are_documented_in_help_the_docstring_and_the_readme():
    from pathlib import Path

    import sim.cli

    epilog = " ".join(build_parser().epilog.split())
    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text().split())
    for code in EXIT_CODES:
        assert f"{code}: " in epilog and f" {code} " in sim.cli.__doc__.replace("\n", " ")
        assert f"exit code {code}" in readme or f"`{code}`" in readme, code
