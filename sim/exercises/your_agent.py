"""The checks of lesson 6's coding exercises: each says right or wrong, and what is off, for the seed the
student chose, without printing the answer.
"""

from collections.abc import Callable

from sim.engine.loops import is_correct, run_single_loop
from sim.engine.policy import PolicyError, check_policy, policy_name, run_policy, stop_when_goal_met
from sim.model.checks import check_integer, check_seed
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen


def spoiled_but_kept(seed: int, max_steps: int = 8) -> int:
    """Tasks (of 24) that the built-in single loop gets wrong and the stop rule gets right at the seed
    and budget (steps): the answer of exercise 1 of lesson 6. Raises for a bad seed or budget."""
    seed = check_seed(seed)
    return sum(
        not is_correct(run_single_loop(task, seed, max_steps)) and is_correct(run_policy(stop_when_goal_met, task, seed, max_steps))
        for task in TASKS
    )  # fmt: skip


@fits_the_screen
def check_exercise_1(seed: int, answer: int | None = None) -> str:
    """Lesson 6, exercise 1: the student's count of tasks the single loop loses and the stop rule
    keeps at their seed (budget 8 steps). Returns "right: ...", "wrong: ..." (not which way: a
    small count could be found by halving) or "not answered yet" (None); never the count itself.

    Raises InputTypeError / InputError for a seed or an answer that is not a whole number in range."""
    seed = check_seed(seed)
    if answer is None:
        return "not answered yet: set answer_1 and run the check again"
    answer = check_integer(answer, "answer", 0, len(TASKS))
    if answer == spoiled_but_kept(seed):
        return f"right: at seed {seed} that is the count"
    return (f"wrong: at seed {seed} that is not the count; run each task with both and count the ones "
            "the single loop gets wrong and the stop rule right")  # fmt: skip


class _NotAnswered(Exception):
    """The student's policy returned None: its body is still the placeholder."""


def _answered(policy: Callable) -> Callable:
    """`policy`, raising _NotAnswered where it returns None (so that the check can say so)."""

    def answered(observation):
        decision = policy(observation)
        if decision is None:
            raise _NotAnswered
        return decision

    answered.__name__ = policy_name(policy)
    return answered


@fits_the_screen
def check_exercise_2(policy: Callable, seed: int) -> str:
    """Lesson 6, exercise 2: a policy that solves all 24 tasks at the seed in the fewest steps there
    are (each task's plan length, plus 1 step to stop), at budget 8 steps.

    Returns "right: ...", "wrong: ..." naming the first task that fails and how (not solved,
    or how many steps it took against how many it may take), or "not answered yet" (the policy
    returns None: its body is still the placeholder); never the tools to call.

    Raises InputTypeError / InputError for a policy that is not callable or a bad seed."""
    policy, seed = check_policy(policy), check_seed(seed)
    for task in TASKS:
        try:
            run = run_policy(_answered(policy), task, seed, 8)
        except PolicyError as error:
            if isinstance(error.__cause__, _NotAnswered):
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
