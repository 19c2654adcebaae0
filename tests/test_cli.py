"""The CLI's good paths: the seed's table, the G05 walk-through, JSON and CSV.

The checks call the CLI's entry point in this process (tests/cli_run.py); the first ones also
run `python -m sim` as a user does, in a new interpreter, and find the same output.
"""

import json
import subprocess
import sys

import pytest
from cli_run import run_cli

from sim.measurement.counts import measure, plan_accuracy


def _cli(*args):
    return run_cli(*args, check=True).stdout


def _real_cli(*args):
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True)


@pytest.mark.parametrize(
    "args",
    [["table"], ["trace", "G05", "--setup", "contract"], ["table", "--budgets", "0"], ["bogus"]],
    ids=["table", "contract-trace", "bad-budget", "bad-command"],
)
@pytest.mark.slow
def test_python_m_sim_in_a_new_interpreter_gives_what_the_tests_call(args):
    real, in_process = _real_cli(*args), run_cli(*args)
    assert (real.returncode, real.stdout, real.stderr) == (
        in_process.returncode,
        in_process.stdout,
        in_process.stderr,
    )


def test_default_table_is_the_seeds_table_and_plan_lines():
    lines = _cli("table").splitlines()
    assert len(lines) == 7
    assert lines[1] == "single loop                A   0.9583     97     74     11978     8"
    assert lines[4] == "planner + executor         B   0.9583    116     70     10135    12"
    assert lines[5] == "plan A : right positions 47/53 = 0.8868 ; fully right plans 18/24"


def test_trace_g05_gives_the_walk_through():
    out = _cli("trace", "G05")
    assert "  plan     : tariff -> consumption -> tariff" in out
    assert "  steps 8  tokens 805  tool errors 3  answer 550  correct 550" in out


def test_single_loop_trace_has_no_plan_line():
    out = _cli("trace", "G05", "--setup", "single-loop", "--seed", "7", "--budget", "3")
    assert "plan     :" not in out and "budget 3" in out


def test_json_rows_match_the_api():
    rows = json.loads(
        _cli("table", "--format", "json", "--seeds", "5,6", "--budgets", "2,12", "--self-critique")
    )
    assert len(rows) == 8
    keys = "setup seed budget success steps calls tokens errors approvals rule stop_when_done budget_margin"
    keys += " self_critique approval"
    assert list(rows[0]) == keys.split()
    for row in rows:
        on = row["setup"] == "single-loop"
        m = measure(row["setup"], row["seed"], row["budget"], self_critique=on)
        assert row == {"setup": m.setup, "seed": m.seed, "budget": m.budget, "success": m.success, "steps": m.steps,
                       "calls": m.calls, "tokens": m.tokens, "errors": m.errors, "approvals": m.approvals,
                       "rule": "fixed budget", "stop_when_done": False, "budget_margin": None,
                       "self_critique": on, "approval": False, **_plan_columns(row)}  # fmt: skip


def _plan_columns(row: dict) -> dict:
    """What JSON and CSV add to the split's rows: the planner's accuracy at the row's seed, as text prints it."""
    if row["setup"] != "plan-execute":
        return {}
    plan = plan_accuracy(row["seed"])
    return {"plan_right_positions": plan.right_positions, "plan_positions": plan.positions,
            "plan_right_plans": plan.right_plans, "plans": plan.plans}  # fmt: skip


def test_csv_has_the_same_columns():
    lines = _cli("table", "--format", "csv", "--approval").splitlines()
    assert (
        lines[0]
        == "setup,seed,budget,success,steps,calls,tokens,errors,approvals,rule,stop_when_done,budget_margin,"
        "self_critique,approval,plan_right_positions,plan_positions,plan_right_plans,plans"
    )
    assert len(lines) == 5
    assert [line.endswith(",,,,") for line in lines[1:]] == [
        True,
        True,
        False,
        False,
    ]  # on the split's rows only


def test_text_table_with_many_budgets_has_a_budget_column():
    header = _cli("table", "--budgets", "2,4", "--seeds", "3000000000").splitlines()[0]
    assert header.split() == ["setup", "run", "budget", "success", "step", "calls", "tokens", "error"]
