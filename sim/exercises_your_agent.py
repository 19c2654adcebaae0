"""The checks of lesson 6's coding exercises: each says right or wrong, and what is off, for the seed the
student chose, without printing the answer.
"""

from collections.abc import Callable

from sim.agents import is_correct, run_single_loop
from sim.checks import check_integer, check_seed
from sim.policy import PolicyError, check_policy, policy_name, run_policy, stop_when_goal_met
from sim.tasks import TASKS


def spoiled_but_kept(seed: int, max_steps: int = 8) -> int:
    """Tasks (of 24) that the built-in single loop gets wrong and the stop rule gets right at the seed
    and budget (steps): the answer of exercise 1 of lesson 6. Raises for a bad seed or budget."""
    seed = check_seed(seed)
    return sum(
        not is_correct(run_single_loop(task, seed, max_steps)) and is_correct(run_policy(stop_when_goal_met, task, seed, max_steps))
        for task in TASKS
    )  # fmt: skip


def check_exercise_1(seed: int, answer: int) -> str:
    """Lesson 6, exercise 1: the student's count of tasks the single loop loses and the stop rule
    keeps at their seed (budget 8 steps). Returns "right: ..." or "wrong: ..." (too high or too
    low), never the count itself.

    Raises InputTypeError / InputError for a seed or an answer that is not a whole number in range."""
    seed, answer = check_seed(seed), check_integer(answer, "answer", 0, len(TASKS))
    wanted = spoiled_but_kept(seed)
    if answer == wanted:
        return f"right: at seed {seed} that is the count"
    return f"wrong: at seed {seed} your count is too {'high' if answer > wanted else 'low'}"


def check_exercise_2(policy: Callable, seed: int) -> str:
    """Lesson 6, exercise 2: a policy that solves all 24 tasks at the seed in the fewest steps there
    are (each task's plan length, plus 1 step to stop), at budget 8 steps.

    Returns "right: ..." or "wrong: ..." naming the first task that fails and how (not solved,
    or how many steps it took against how many it may take), never the tools to call.

    Raises InputTypeError / InputError for a policy that is not callable or a bad seed."""
    policy, seed = check_policy(policy), check_seed(seed)
    for task in TASKS:
        try:
            run = run_policy(policy, task, seed, 8)
        except PolicyError as error:
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
