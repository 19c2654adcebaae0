"""What became of each run (lesson 3): solved, solved without its record, spoiled, out of budget or
wrong; and the outcome of every task at every budget.
"""

import pandas as pd

from sim.engine.config import RunConfig
from sim.engine.goals import goal_of, goal_reached
from sim.engine.loops import call_and_observe, check_run, initial_state
from sim.engine.runs import run_with
from sim.model.checks import check_budget, check_items, check_seed, check_setup
from sim.model.tasks import TASKS, check_task, correct_answer

OUTCOMES = ("solved", "solved, no record written", "spoiled", "out of budget", "wrong")


def outcome(run) -> str:
    """Classify one run into OUTCOMES (lesson 3): "spoiled" held the right answer and lost it,
    "solved, no record written" is right but a record task wrote no right record."""
    task = check_task(check_run(run).task)
    right = correct_answer(task)
    if run.answer == right:
        wrote = any(
            call.tool == "write_record" and not call.error and call.held == right for call in run.trace
        )
        return "solved" if task.kind != "record" or wrote else "solved, no record written"
    if any(call.held == right for call in run.trace):
        return "spoiled"
    return "wrong" if run.stopped else "out of budget"


LOSSES = ("spoiled after the job was done", "spoiled before the job was done", "out of budget", "wrong")


def loss_cause(run) -> str | None:
    """Why a loop's run lost its task (lessons 2 and 3), one of LOSSES; None when its answer is right.
    "spoiled after the job was done": the call completing the job held the right answer and a
    later call replaced it."""
    run = check_run(run, setups=("single-loop", "plan-execute"))
    task = check_task(run.task)
    right = correct_answer(task)
    if run.answer == right:
        return None
    completed = next(
        (step for step in run.log if step.depth == len(task.sequence) and step.right and not step.error), None
    )
    if completed is not None and completed.held == right:
        return LOSSES[0]
    if any(call.held == right for call in run.trace):
        return LOSSES[1]
    return outcome(run)


def plan_kind(run) -> str:
    """A loop run's plan (lesson 2): "no plan" (the single loop), "plan fully right" (the task's sequence)
    or "plan wrong"."""
    run = check_run(run, setups=("single-loop", "plan-execute"))
    if run.plan is None:
        return "no plan"
    return "plan fully right" if tuple(run.plan) == tuple(check_task(run.task).sequence) else "plan wrong"


def loss_table(seeds, budget: int) -> pd.DataFrame:
    """Lesson 2's lost tasks per run of 24 tasks, mean over checked `seeds`, for the single loop and the
    split at `budget`: a row per (setup, plan_kind), a column per loss_cause ("the job was done" said
    "done")."""
    budget, seeds = check_budget(budget), [check_seed(seed) for seed in seeds]
    labels = {"single-loop": "single loop", "plan-execute": "split"}
    rows = [
        (labels[setup], plan_kind(run), loss_cause(run).replace("the job was done", "done"))
        for setup in labels
        for seed in seeds
        for run in (run_with(RunConfig(setup, budget), task, seed) for task in TASKS)
        if loss_cause(run) is not None
    ]
    lost = pd.DataFrame(rows, columns=["setup", "plan", "cause"])
    return pd.crosstab([lost["setup"], lost["plan"]], lost["cause"]) / len(seeds)


def calls_after_goal(run) -> int | None:
    """The calls a loop run made after its request's goal was first observed (GT1 on RT1's goal, the
    trace replayed; lesson 3); None when it never was."""
    run = check_run(run, setups=("single-loop", "plan-execute"))
    task = check_task(run.task)
    state, goal = initial_state(task), goal_of(task.request)
    for index, call in enumerate(run.trace):
        call_and_observe(call.tool, state)
        if goal_reached(goal, state):
            return len(run.trace) - index - 1
    return None


def outcome_grid(setup: str, seed: int, budgets, stop_when_done: bool = False) -> pd.DataFrame:
    """The outcome of every task (rows) at every budget (columns) of one loop setup (lesson 3)."""
    setup = check_setup(setup, allowed=("single-loop", "plan-execute"))  # outcomes are lesson 3's loops
    seed = check_seed(seed)
    budgets = [check_budget(b, "budgets") for b in check_items(budgets, object, "budgets", "step budgets", 1)]
    configs = {budget: RunConfig(setup, budget, stop_when_done=stop_when_done) for budget in budgets}
    data = {
        budget: [outcome(run_with(config, task, seed)) for task in TASKS]
        for budget, config in configs.items()
    }
    return pd.DataFrame(data, index=[task.name for task in TASKS])


def outcome_shares(seeds, budget: int) -> pd.DataFrame:
    """Each OUTCOME's tasks per run of 24, mean over checked `seeds`, for the single loop and the split at
    `budget` (lesson 2): a row per setup, a column per outcome."""
    budget, seeds = check_budget(budget), [check_seed(seed) for seed in seeds]
    shares = {}
    for setup in ("single-loop", "plan-execute"):
        found = pd.Series(
            [outcome(run_with(RunConfig(setup, budget), task, seed)) for seed in seeds for task in TASKS]
        )
        shares[setup] = found.value_counts().reindex(OUTCOMES, fill_value=0) / len(seeds)
    return pd.DataFrame(shares).T
