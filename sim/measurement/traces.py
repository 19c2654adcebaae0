"""What the single loop's traces show (lesson 1): right picks by depth, the side-effecting calls that
would ask for approval, and the task the lesson walks through.
"""

import pandas as pd

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED, RunConfig
from sim.engine.loops import is_correct, loop_steps
from sim.engine.runs import run_with
from sim.model.checks import check_seed
from sim.model.picks import expected_right_share, selection
from sim.model.tasks import TASKS, correct_answer
from sim.model.world import TOOLS


def _runs(seed: int, max_steps: int) -> list:
    """(task, the single loop's run of it) for the 24 tasks at a seed and budget, checked here."""
    seed, config = check_seed(seed), RunConfig("single-loop", max_steps)
    return [(task, run_with(config, task, seed)) for task in TASKS]


def depth_picks(seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET) -> pd.DataFrame:
    """Right tool picks by depth over the 24 tasks of the single loop, from the traces, beside the model
    line selection(d) and the share expected with lucky random picks (lesson 1). A pick at depth d
    targets the d-th tool of the sequence; steps after the job was done are no picks."""
    depths = range(1, max(len(task.sequence) for task in TASKS) + 1)
    picks, right = dict.fromkeys(depths, 0), dict.fromkeys(depths, 0)
    for _, run in _runs(seed, max_steps):
        for step in loop_steps(run):
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
    """Every side-effecting call the single loop makes over the 24 tasks: the calls that would ask for
    approval with the `approval` switch on (lesson 1)."""
    rows = []
    for task, run in _runs(seed, max_steps):
        asked = any(TOOLS[tool].side_effect for tool in task.sequence)
        for step in loop_steps(run):
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
    """The first task whose single-loop run shows a wrong pick at depth >= 2 with a tool error and still
    stops with the correct answer; else the first with any wrong pick, else G01 (lesson 1)."""
    any_wrong = None
    for task, run in _runs(seed, max_steps):
        wrong = [step for step in loop_steps(run) if step.right is False]
        if any(step.depth >= 2 and step.error for step in wrong) and run.stopped and is_correct(run):
            return task.name
        if wrong and any_wrong is None:
            any_wrong = task.name
    return any_wrong or TASKS[0].name
