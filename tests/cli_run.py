"""`python -m sim ...` in this process: the CLI's entry point, `sim.cli.main`, with stdout and stderr
captured and argparse's exits turned into exit codes. Each CLI test would otherwise start a new
interpreter; tests/test_cli.py keeps a few real `python -m sim` runs and checks that both ways
give the same output and exit code.
"""

import io
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass

from sim.cli import main


@dataclass(frozen=True)
class CliRun:
    """What a `python -m sim ...` run gave: its exit code and what it wrote."""

    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: str, check: bool = False) -> CliRun:
    """Run the CLI with `args` in this process; with check=True, fail unless it exits 0."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as stop:  # argparse: bad options, --help
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    done = CliRun(code, out.getvalue(), err.getvalue())
    if check and code != 0:
        raise AssertionError(f"python -m sim {' '.join(args)} exited {code}: {done.stderr}")
    return done
