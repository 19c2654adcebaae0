"""Lesson 3's additions to sim: the stopping criterion (SB1), the plan-length budget (SB2), outcomes, panel, CLI."""

import html
import json
import random
from dataclasses import replace

import pytest
from cli_run import run_cli

from sim import TASKS, correct_answer, plan_length_budget, run_plan_execute, run_single_loop, run_task
from sim.measurement.counts import measure
from sim.measurement.outcomes import OUTCOMES, outcome, outcome_grid
from sim.presentation.panel import Settings
from sim.presentation.panel_runs import lettered
from sim.presentation.panel_step_budget import step_budget_panel
from sim.presentation.tables import format_table, seed_table

SEEDS = [0, 1, 20260218, 20260219, 2**32 - 1] + [random.Random(3).randrange(2**32) for _ in range(40)]


PRODUCES = {"tariff": "amount", "consumption": "m3", "search_docs": "code"}  # the field each call returns


def _goal_index(task, trace):
    """Index of the call after which the request's goal is observably held (read from the trace by
    hand, not by sim's goal test): the asked-for field returned; for a record, a write whose value
    is the last result returned and that result an amount. None: never."""
    wanted = {"charge": "amount", "consumption": "m3", "document": "code", "record": None}[task.kind]
    last = None
    for index, call in enumerate(trace):
        if call.error:
            continue
        if call.tool in PRODUCES:
            last = PRODUCES[call.tool]
            if last == wanted:
                return index
        if call.tool == "write_record" and task.kind == "record" and last == "amount":
            return index
    return None


@pytest.mark.parametrize("setup", ["single-loop", "plan-execute"])
def test_stop_when_done_stops_with_a_paid_step_once_the_goal_is_observed(setup):
    planning = 1 if setup == "plan-execute" else 0
    for seed in SEEDS:
        for budget in (1, 3, 6, 12):
            for task in TASKS:
                plain = run_task(setup, task, seed, budget)
                ruled = run_task(setup, task, seed, budget, stop_when_done=True)
                reached = _goal_index(task, plain.trace)
                if reached is None:  # never observed within the budget: the rule changes nothing
                    assert replace(ruled, config=None) == replace(plain, config=None)
                    continue
                assert ruled.trace == plain.trace[: reached + 1]
                if planning + reached + 1 < budget:  # room for the stop step, paid like any step
                    assert ruled.stopped and ruled.steps == planning + reached + 2
                    assert ruled.log[-1].tool is None and ruled.log[-1].tokens > 0
                else:
                    assert not ruled.stopped and ruled.steps == budget
                assert ruled.tokens <= plain.tokens and ruled.answer == ruled.trace[-1].held


def test_a_record_task_stops_right_after_its_record_is_written():
    for seed in SEEDS:
        for task in (t for t in TASKS if t.kind == "record"):
            run = run_single_loop(task, seed, 20, stop_when_done=True)
            if run.stopped:
                assert run.trace[-1].tool == "write_record" and not run.trace[-1].error


def test_defaults_are_the_seeds_rule():
    for seed in (20260218, 20260219, 5):
        for setup in ("single-loop", "plan-execute"):
            assert measure(setup, seed, 8) == measure(
                setup, seed, 8, stop_when_done=False, budget_margin=None
            )
    assert run_plan_execute("G05") == run_plan_execute("G05", stop_when_done=False)
    assert (measure("plan-execute", 20260218).steps, measure("plan-execute", 20260218).tokens) == (118, 10345)


def test_plan_length_budget():
    record = next(t for t in TASKS if t.kind == "record")
    document = next(t for t in TASKS if t.kind == "document")
    assert plan_length_budget("single-loop", record, 4, 20) == 8
    assert plan_length_budget("plan-execute", record, 4, 20) == 9
    assert plan_length_budget("plan-execute", document, 4, 20) == 6
    assert plan_length_budget("plan-execute", record, 4, 7) == 7  # the hard bound wins
    with pytest.raises(ValueError, match="budget_margin must be an integer >= 0"):
        plan_length_budget("single-loop", record, -1, 20)
    with pytest.raises(TypeError, match="budget_margin must be an integer >= 0"):
        measure("single-loop", 1, 8, budget_margin=1.5)
    with pytest.raises(TypeError, match="stop_when_done must be True or False"):
        run_single_loop("G01", stop_when_done="yes")


def test_budget_margin_gives_each_task_its_own_budget():
    ruled = measure("plan-execute", 20260218, 12, stop_when_done=True, budget_margin=0)
    runs = [run_plan_execute(t, 20260218, 1 + len(t.sequence), stop_when_done=True) for t in TASKS]
    assert ruled.steps == sum(r.steps for r in runs) and ruled.tokens == sum(r.tokens for r in runs)
    assert ruled.rule == "stop when done, budget plan length + 0"


def test_outcomes_of_the_lessons_cases():
    assert outcome(run_single_loop("G23", 20260218, 6)) == "solved, no record written"
    assert outcome(run_single_loop("G23", 20260218, 8)) == "spoiled"
    assert outcome(run_plan_execute("G05", 20260218, 6)) == "out of budget"
    assert outcome(run_plan_execute("G05", 20260218, 7)) == "solved"
    assert outcome(run_plan_execute("G04", 20260218, 8)) == "spoiled"
    assert outcome(run_plan_execute("G04", 20260218, 8, stop_when_done=True)) == "solved"


def test_outcome_grid_agrees_with_the_success_measure():
    grid = outcome_grid("single-loop", 20260218, [2, 6, 8])
    assert grid.shape == (24, 3) and set(grid.to_numpy().ravel()) <= set(OUTCOMES)
    for budget in (2, 6, 8):
        counted = grid[budget].isin(["solved", "solved, no record written"]).sum()
        assert counted == measure("single-loop", 20260218, budget).solved


def test_panel_shows_sims_table_and_grid():
    panel = step_budget_panel()
    panel.set(seed=77, budget=5)
    measured = seed_table([measure(s, x, 5) for s in ("single-loop", "plan-execute") for x in (77, 78)])
    expected = format_table(lettered(measured, (77, 78)))
    assert expected in html.unescape(panel.table.value)
    assert panel.view.data["grid"].equals(outcome_grid("plan-execute", 77, range(1, 6)))
    panel.set(stop_when_done=True, setup="single-loop")
    assert panel.settings == Settings(77, 5, "G05", {"setup": "single-loop", "stop_when_done": True})
    assert panel.view.data["grid"].equals(outcome_grid("single-loop", 77, range(1, 6), stop_when_done=True))
    panel.seed.value = "x"
    assert "Refused" in panel.message.value and panel.settings.seed == 77


def test_cli_stop_rule_is_named_in_json_rows():
    out = run_cli("table", "--format", "json", "--stop-when-done", "--budget-margin", "4",
                  "--budgets", "12", "--seeds", "20260218", check=True).stdout  # fmt: skip
    rows = json.loads(out)
    assert {row["rule"] for row in rows} == {"stop when done, budget plan length + 4"}
    assert all(row["stop_when_done"] is True and row["budget_margin"] == 4 for row in rows)
    single = measure("single-loop", 20260218, 12, stop_when_done=True, budget_margin=4)
    assert rows[0]["tokens"] == single.tokens and rows[0]["steps"] == single.steps


@pytest.mark.parametrize("setup", ["single-loop", "plan-execute"])
def test_loss_cause_reads_from_the_log_what_the_stop_rule_rerun_shows(setup):
    """Independent check: a spoiled run was spoiled after the job was done exactly when the same run
    under SB1 (stop right after the completing call) ends solved (lesson 3's own method)."""
    from sim.measurement.outcomes import loss_cause

    for seed in range(120):
        for task in TASKS:
            run = run_task(setup, task, seed, 12)
            cause = loss_cause(run)
            assert (cause is None) == (run.answer == correct_answer(task))
            if outcome(run) == "spoiled":
                rerun = outcome(run_task(setup, task, seed, 12, stop_when_done=True))
                assert (cause == "spoiled after the job was done") == (rerun == "solved"), (task.name, seed)
