"""The checks of lesson 1's coding exercises, for a seed the student chooses: a single-loop run's tokens
computed by hand from the token rule, and the chance of a clean run predicted from the pick rule. Each
check says right or wrong, and what is off, never the answer; the reference answers (`loop_tokens`,
`clean_chance`) go into INSTRUCTORS.md through scripts/make_answer_key.py.
"""

import numbers
from collections.abc import Callable

import numpy as np

from sim.engine.loops import run_single_loop
from sim.model.checks import check_integer, check_seed
from sim.model.costs import loop_step_tokens, observation_tokens
from sim.model.errors import InputTypeError
from sim.model.picks import expected_right_share
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen

CLEAN_TASKS = 2  # tasks the student's seed names for the clean-run exercise
CHANCE_TOLERANCE = 5e-5  # an answer rounded to 4 decimals counts as right


def loop_tokens(steps: int, calls: int) -> int:
    """Exercise 6's answer: the tokens of a plain single-loop run (no self-critique) with `steps` steps
    and `calls` tool calls (steps - calls is 1 when the agent stopped, 0 when the budget ended the run):
    each step re-sends the calls made before it, every call's observation costs its own.
    Raises for counts that are not whole numbers with 0 <= steps - calls <= 1."""
    steps, calls = check_integer(steps, "steps", 1), check_integer(calls, "calls", 0)
    check_integer(steps - calls, "steps", 0, 1)
    lengths = list(range(calls)) + [calls] * (steps - calls)
    return sum(loop_step_tokens(n) for n in lengths) + calls * int(observation_tokens(False))


@fits_the_screen
def check_loop_tokens(seed: int, function: Callable) -> str:
    """Lesson 1, exercise 6: `function(steps, calls)` returns a plain single-loop run's tokens from its
    steps and tool calls. The check runs the single loop on all 24 tasks at `seed`, budget 8, and
    returns "right: ...", "wrong: ..." naming the first task whose tokens it gets wrong and which way,
    or "not answered yet" (the function returns None); never the tokens.

    Raises InputTypeError / InputError for a function that is not callable or a bad seed."""
    if not callable(function):
        raise InputTypeError(f"function must be a function of (steps, calls), got {type(function).__name__}")
    seed = check_seed(seed)
    for task in TASKS:
        run = run_single_loop(task, seed, 8)
        given = function(run.steps, run.calls)
        if given is None:
            return "not answered yet: write the body of your function and run the check again"
        if isinstance(given, bool) or not isinstance(given, numbers.Real):
            return f"wrong: your function returned {given!r}; it must return a number of tokens"
        if given != run.tokens:
            hint = ("does every step re-send the whole trace before it, and does the stop step count?"
                    if given < run.tokens else "a step re-sends the calls made before it, not the one it makes")  # fmt: skip
            return (f"wrong: for {task.name} at seed {seed} ({run.steps} steps, {run.calls} tool call{'' if run.calls == 1 else 's'}) your "
                    f"count is too {'low' if given < run.tokens else 'high'}; {hint}")  # fmt: skip
    return f"right: your function gives every task's tokens at seed {seed}"


def clean_tasks(seed: int) -> list[str]:
    """The tasks exercise 7 of lesson 1 names for `seed`: CLEAN_TASKS distinct tasks drawn with a numpy
    Generator seeded with `seed`, in the course's order. Raises for a bad seed."""
    chosen = np.random.default_rng(check_seed(seed)).choice(len(TASKS), CLEAN_TASKS, replace=False)
    return [TASKS[i].name for i in sorted(chosen)]


def clean_chance(seed: int) -> float:
    """Exercise 7's answer: by the pick rule, the chance that the single loop's first calls are exactly
    the sequence, with no wrong call, on every one of `clean_tasks(seed)` at one seed: the product over
    the tasks and their positions d of expected_right_share(d). Raises for a bad seed."""
    by_name = {task.name: task for task in TASKS}
    chance = 1.0
    for name in clean_tasks(seed):
        for depth in range(1, len(by_name[name].sequence) + 1):
            chance *= expected_right_share(depth)
    return chance


@fits_the_screen
def check_clean_chance(seed: int, answer: object = None) -> str:
    """Lesson 1, exercise 7: the student's chance (a share in [0, 1]) that the single loop runs each of
    `clean_tasks(seed)` without a wrong call. Returns "right: ...", "not right: ..." (too high or too
    low, with a hint) or "not answered yet"; never the chance itself.

    Raises InputTypeError / InputError for a bad seed or an answer that is not a number."""
    too_high = (
        "does the share fall with the position (selection(d)), and does every position of both tasks count?"
    )
    return chance_verdict(answer, clean_chance(seed), too_high)


def chance_verdict(answer: object, wanted: float, too_high: str) -> str:
    """The verdict on a student's chance (a share in [0, 1]) against the pick rule's `wanted`, for the
    chance exercises of lessons 1 and 2: right within CHANCE_TOLERANCE, or too high (with the hint
    `too_high`) or too low; "not answered yet" for None. Never states `wanted`.

    Raises InputTypeError for an answer that is not a number."""
    if answer is None:
        return "not answered yet: set my_chance (a share between 0 and 1) and run the check again"
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        raise InputTypeError(
            f"answer must be a share between 0 and 1, got {answer!r} ({type(answer).__name__})"
        )
    if not 0 <= answer <= 1:
        return f"not right: a chance is a share between 0 and 1, got {answer!r} (a percentage? divide by 100)"
    if abs(answer - wanted) <= CHANCE_TOLERANCE:
        return "right: that is the pick rule's chance for your tasks"
    if answer > wanted:
        return f"not right: too high; {too_high}"
    return "not right: too low; a missed draw still picks the right tool with share 1 / (number of tools)"
