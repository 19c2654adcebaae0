"""Lesson 6's exercise checks: each says right or wrong, and what is off, at the student's seed,
never the answer."""

from collections.abc import Callable

from sim.engine.loops import is_correct
from sim.engine.policy import PolicyError, check_policy, policy_name, run_policy, stop_when_goal_met
from sim.engine.runs import run_single_loop
from sim.exercises.step_budget import NotAnswered, answered, count_verdict
from sim.model.checks import check_seed
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen


def spoiled_but_kept(seed: int, max_steps: int = 8) -> int:
    """Exercise 1's answer: the tasks the single loop gets wrong and the stop rule right at `seed`."""
    seed = check_seed(seed)
    return sum(
        not is_correct(run_single_loop(task, seed, max_steps)) and is_correct(run_policy(stop_when_goal_met, task, seed, max_steps))
        for task in TASKS
    )  # fmt: skip


@fits_the_screen
def check_exercise_1(seed: int, answer: int | None = None) -> str:
    """Exercise 1: the student's count at `seed`, budget 8, as `count_verdict`."""
    hint = "run each task with both and count the ones the single loop gets wrong and the stop rule right"
    return count_verdict(seed, answer, "answer_1", len(TASKS), spoiled_but_kept, hint)


@fits_the_screen
def check_exercise_2(policy: Callable, seed: int) -> str:
    """Exercise 2: a policy that solves every task at `seed`, budget 8, in the fewest steps (plan
    length + 1 to stop); names the first task that fails and how. Raises for a policy that is not
    callable or a bad seed."""
    policy, seed = check_policy(policy), check_seed(seed)
    asked = answered(policy)
    asked.__name__ = policy_name(policy)
    for task in TASKS:
        try:
            run = run_policy(asked, task, seed, 8)
        except PolicyError as error:
            if isinstance(error.__cause__, NotAnswered):
                return f"not answered yet: write the body of {policy_name(policy)} and run the check again"
            return f"wrong: {error}"
        fewest = len(task.sequence) + 1
        if not is_correct(run):
            return (
                f"wrong: {policy_name(policy)} does not solve task {task.name} ({task.kind}) at seed {seed}"
            )
        if run.steps != fewest:
            return (f"wrong: task {task.name} ({task.kind}) took {run.steps} steps at seed {seed}; "
                    f"the fewest for it are {fewest}")  # fmt: skip
    return f"right: all {len(TASKS)} tasks solved in the fewest steps at seed {seed}"
