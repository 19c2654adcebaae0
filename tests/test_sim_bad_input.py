"""Bad input through the API and the CLI: a clear error naming the parameter; the CLI exits 2."""

import subprocess
import sys

import pytest

from sim import band_verdict, measure, run_plan_execute, run_single_loop, run_task


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"seed": "42"}, TypeError, "seed must be an integer 0 <= seed < 2**32, got '42'"),
        ({"seed": 1.5}, TypeError, "seed must be an integer"),
        ({"seed": True}, TypeError, "seed must be an integer 0 <= seed < 2**32, got True (bool)"),
        ({"seed": -1}, ValueError, "seed must be an integer 0 <= seed < 2**32, got -1"),
        ({"seed": 2**32}, ValueError, "got 4294967296"),
        ({"max_steps": 0}, ValueError, "max_steps (the step budget) must be an integer >= 1, got 0"),
        ({"max_steps": 2.0}, TypeError, "max_steps (the step budget) must be an integer >= 1, got 2.0"),
        ({"max_steps": False}, TypeError, "max_steps (the step budget)"),
    ],
)
def test_bad_seed_or_budget(kwargs, error, words):
    for run in (run_single_loop, run_plan_execute):
        with pytest.raises(error) as caught:
            run("G05", **kwargs)
        assert words in str(caught.value)


@pytest.mark.parametrize(
    "task, error", [("G25", ValueError), ("g05", ValueError), (5, TypeError), (None, TypeError)]
)
def test_bad_task(task, error):
    with pytest.raises(error, match="task must be"):
        run_single_loop(task)


def test_bad_setup_and_switches():
    with pytest.raises(
        ValueError, match="setup must be one of single-loop, plan-execute, contract, got 'react'"
    ):
        measure("react")
    with pytest.raises(TypeError, match="setup must be one of"):
        measure(None)
    with pytest.raises(ValueError, match="switches of setup 'single-loop' only"):
        run_task("plan-execute", "G05", 1, 8, self_critique=True)
    with pytest.raises(TypeError, match="self_critique must be True or False"):
        run_single_loop("G05", self_critique="yes")


def test_band_rule_needs_paired_runs():
    with pytest.raises(ValueError, match="one value per run"):
        band_verdict("steps", [1, 2], [1])
    with pytest.raises(ValueError, match="one value per run"):
        band_verdict("steps", [1], [1])


def test_band_rule_says_when_nothing_differs():
    verdict = band_verdict("approvals", [0, 0], [0, 0])
    assert verdict.verdict == "unmeasured" and "no difference and no band" in verdict.note


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True)


@pytest.mark.parametrize(
    "args, words",
    [
        (["table", "--seeds", "20260218,abc"], "seeds must be whole numbers, got 'abc'"),
        (["table", "--seeds", "-3"], "seeds must be an integer 0 <= seeds < 2**32, got -3"),
        (["table", "--budgets", "0"], "budgets (the step budget) must be an integer >= 1, got 0"),
        (
            ["table", "--setups", "react"],
            "setups must be one of single-loop, plan-execute, contract, got 'react'",
        ),
        (["table", "--format", "xml"], "invalid choice: 'xml'"),
        (["table", "--setups", "plan-execute", "--approval"], "switches of setup single-loop only"),
        (["trace", "G99"], "task must be one of G01..G24, got 'G99'"),
        (["trace", "G05", "--seed", "4294967296"], "seed must be an integer 0 <= seed < 2**32"),
        (["trace", "G05", "--budget", "0"], "budget (the step budget) must be an integer >= 1, got 0"),
        (
            ["trace", "G05", "--setup", "nope"],
            "setup must be one of single-loop, plan-execute, contract, got 'nope'",
        ),
        ([], "required: command"),
    ],
)
def test_cli_bad_input_exits_2_with_a_message(args, words):
    done = _cli(*args)
    assert done.returncode == 2
    assert words in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
