"""What the single loop's traces show (lesson 1): right picks by depth, the side-effecting calls
that would ask for approval, and the task the lesson walks through.
"""

import pandas as pd

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED, RunConfig
from sim.engine.loops import is_correct, loop_steps
from sim.engine.runs import run_with
from sim.model.checks import check_seed
from sim.model.picks import expected_right_share, selection
from sim.model.tasks import TASKS, correct_answer
from sim.model.world import TOOLS


def depth_picks(seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET) -> pd.DataFrame:
    """Right tool picks by depth over the 24 tasks in the single loop, counted from the traces.

    A pick at depth d is a step whose target was the d-th tool of the task's sequence (d - 1
    positions already done); it is right when the tool called is that target, a lucky random
    pick included. Steps taken after the job was done are not picks at any depth.

    Parameters
    ----------
    seed : int
        Run seed, 0 <= seed < 2**32.
    max_steps : int
        Step budget per task (steps), >= 1.

    Returns
    -------
    pd.DataFrame
        One row per depth 1 .. longest sequence (4): depth, picks, right, share (right / picks,
        NaN with no pick), model (selection(d)), expected (selection(d) + (1 - selection(d)) / 5).

    Raises
    ------
    TypeError, ValueError
        For a bad seed or budget. Source: lesson 1.
    """
    seed, config = check_seed(seed), RunConfig("single-loop", max_steps)
    depths = range(1, max(len(task.sequence) for task in TASKS) + 1)
    picks, right = dict.fromkeys(depths, 0), dict.fromkeys(depths, 0)
    for task in TASKS:
        for step in loop_steps(run_with(config, task, seed)):
            if step.depth is not None:
                picks[step.depth] += 1
                right[step.depth] += step.right
    return pd.DataFrame(
        {
            "depth": list(depths),
            "picks": [picks[d] for d in depths],
            "right": [right[d] for d in depths],
            "share": [right[d] / picks[d] if picks[d] else float("nan") for d in depths],
            "model": [selection(d) for d in depths],
            "expected": [expected_right_share(d) for d in depths],
        }
    )


def side_effect_calls(seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET) -> pd.DataFrame:
    """Every side-effecting tool call the single loop makes over the 24 tasks: the calls that
    would ask for approval with the `approval` switch on.

    Parameters
    ----------
    seed : int
        Run seed, 0 <= seed < 2**32.
    max_steps : int
        Step budget per task (steps), >= 1.

    Returns
    -------
    pd.DataFrame
        One row per call: task, kind, asked_for_record (the task's own sequence ends in a
        side-effecting tool), step, tool, depth (None once the job was done), right (the call
        was the step's target), error (a tool error: nothing was written), value (what was
        written, None on an error), correct (the task's correct answer).

    Raises
    ------
    TypeError, ValueError
        For a bad seed or budget. Source: lesson 1.
    """
    seed, config = check_seed(seed), RunConfig("single-loop", max_steps)
    rows = []
    for task in TASKS:
        asked = any(TOOLS[tool].side_effect for tool in task.sequence)
        for step in loop_steps(run_with(config, task, seed)):
            if step.tool is None or not TOOLS[step.tool].side_effect:
                continue
            rows.append({"task": task.name, "kind": task.kind, "asked_for_record": asked, "step": step.step,
                         "tool": step.tool, "depth": step.depth, "right": bool(step.right), "error": step.error,
                         "value": None if step.error else step.held, "correct": correct_answer(task)})  # fmt: skip
    columns = [
        "task",
        "kind",
        "asked_for_record",
        "step",
        "tool",
        "depth",
        "right",
        "error",
        "value",
        "correct",
    ]
    return pd.DataFrame(rows, columns=columns).astype({"step": "int64", "depth": "Int64"})


def recovery_task(seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET) -> str:
    """The first task (G01 onward) whose single-loop run shows a wrong pick and the recovery from it.

    Chosen as: a pick at depth 2 or more was wrong and drew a tool error, and the run still
    stopped on its own with the correct answer. Falls back to the first run with any wrong
    pick, then to G01.

    Returns
    -------
    str
        A task name. Source: lesson 1.
    """
    seed, config = check_seed(seed), RunConfig("single-loop", max_steps)
    any_wrong = None
    for task in TASKS:
        run = run_with(config, task, seed)
        steps = loop_steps(run)
        wrong = [step for step in steps if step.right is False]
        if any(step.depth >= 2 and step.error for step in wrong) and run.stopped and is_correct(run):
            return task.name
        if wrong and any_wrong is None:
            any_wrong = task.name
    return any_wrong or TASKS[0].name
