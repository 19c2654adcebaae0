"""Bad input through the API and the CLI: a clear error naming the parameter; the CLI exits 2."""

import subprocess
import sys

import pytest
from cli_run import run_cli

from sim import run_plan_execute, run_single_loop, run_task
from sim.measurement.bands import band_verdict, compare_setups
from sim.measurement.batch import run_batch, study_seeds
from sim.measurement.counts import measure


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
    with pytest.raises(ValueError, match="is an option of setup 'single-loop' only, not of 'plan-execute'"):
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
    return run_cli(*args)


@pytest.mark.parametrize(
    "args, words",
    [
        (["table", "--seeds", "20260218,abc"], "each of seeds must be a whole number, got 'abc'"),
        (["table", "--seeds", "-3"], "seeds must be an integer 0 <= seeds < 2**32, got -3"),
        (["table", "--budgets", "0"], "budgets (the step budget) must be an integer >= 1, got 0"),
        (
            ["table", "--setups", "react"],
            "setups must be one of single-loop, plan-execute, contract, got 'react'",
        ),
        (["table", "--format", "xml"], "invalid choice: 'xml'"),
        (
            ["table", "--setups", "plan-execute", "--approval"],
            "is an option of setup 'single-loop'; none of the chosen setups (plan-execute) has it",
        ),
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


@pytest.mark.parametrize(
    "args",
    [
        ["table", "--budgets", "0"],
        ["table", "--seeds", ","],
        ["trace", "G05", "--seed", "x"],
        ["bogus"],
        ["table", "--x"],
    ],
)
def test_cli_errors_are_one_line(args):
    done = _cli(*args)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_cli_refuses_repeated_setups_and_seeds():
    assert (
        "setups must not repeat, got contract twice" in _cli("table", "--setups", "contract,contract").stderr
    )
    assert "seeds must not repeat, got 5 twice" in _cli("table", "--seeds", "5,5").stderr


def test_cli_stops_quietly_on_a_closed_pipe():
    import os

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    done = subprocess.run(
        f"{sys.executable} -m sim table | head -1", shell=True, capture_output=True, text=True, env=env
    )
    assert "Traceback" not in done.stderr and done.stdout.startswith("setup")


def test_contract_is_refused_where_it_has_no_meaning():

    with pytest.raises(
        ValueError, match=r"setup must be one of single-loop, plan-execute \(the batch path\), got 'contract'"
    ):
        run_batch("contract", [1])
    with pytest.raises(
        ValueError, match="budget_margin is an option of setup 'single-loop' or 'plan-execute' only"
    ):
        measure("contract", budget_margin=0)
    with pytest.raises(ValueError, match="the runs must have different seeds"):
        compare_setups([measure("single-loop", 1)] * 2, [measure("plan-execute", 1)] * 2)
    with pytest.raises(TypeError, match="seeds must be"):
        run_batch("single-loop", [1, None])
    with pytest.raises(TypeError, match="first must be an integer"):
        study_seeds(3, 2.5)
    with pytest.raises(ValueError, match="n_seeds must be at most"):
        study_seeds(2**32)
    assert measure("plan-execute", budget_margin=2).rule == "original stop, budget plan length + 2"
