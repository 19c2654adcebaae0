"""What became of each run (lesson 3): solved, solved without its record, spoiled after the job was
done, out of budget, or wrong; and the outcome of every task at every budget.
"""

import pandas as pd

from sim.engine.config import RunConfig
from sim.engine.loops import check_run
from sim.engine.runs import run_with
from sim.model.checks import check_budget, check_items, check_seed, check_setup
from sim.model.tasks import TASKS, check_task, correct_answer

OUTCOMES = ("solved", "solved, no record written", "spoiled", "out of budget", "wrong")


def outcome(run) -> str:
    """Classify one run (lesson 3).

    Returns one of OUTCOMES:
    - "solved": the final answer is right and, for a record task, a record was written with
      the right value;
    - "solved, no record written": the answer is right but a record task never wrote the
      right record (the seed's success measure counts it; the side effect did not happen);
    - "spoiled": the run held the right answer at some step and lost it by the end;
    - "out of budget": the budget ran out before the right answer was ever held;
    - "wrong": the run stopped without ever holding the right answer.
    """
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
    """Why a loop's run lost its task, read from its step log (lessons 2 and 3); None when the
    final answer is right.

    Returns one of LOSSES: "spoiled after the job was done" (the call that completed the job left
    the right answer held, and a later call replaced it: the agent did not stop); "spoiled before
    the job was done" (the right answer was held and lost while positions were still open);
    "out of budget" or "wrong" (the right answer was never held; see `outcome`).

    Raises
    ------
    InputTypeError, InputError
        For anything but a run of setup "single-loop" or "plan-execute".
    """
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


def outcome_grid(setup: str, seed: int, budgets, stop_when_done: bool = False) -> pd.DataFrame:
    """The outcome of every task at every budget (lesson 3).

    Parameters
    ----------
    setup : str
        "single-loop" or "plan-execute".
    seed : int
        Run seed, 0 <= seed < 2**32.
    budgets : Iterable[int]
        Step budgets (steps), each >= 1.
    stop_when_done : bool
        Lesson 3's stopping criterion (SB1).

    Returns
    -------
    pandas.DataFrame
        Shape (24 tasks, len(budgets)): index task names, columns budgets, values from OUTCOMES.
    """
    setup = check_setup(setup, allowed=("single-loop", "plan-execute"))  # outcomes are lesson 3's loops
    seed = check_seed(seed)
    budgets = [check_budget(b, "budgets") for b in check_items(budgets, object, "budgets", "step budgets", 1)]
    configs = {budget: RunConfig(setup, budget, stop_when_done=stop_when_done) for budget in budgets}
    data = {
        budget: [outcome(run_with(config, task, seed)) for task in TASKS]
        for budget, config in configs.items()
    }
    return pd.DataFrame(data, index=[task.name for task in TASKS])
