"""Lesson 1's exercise checks: a run's tokens by the token rule, and the chance of a clean run by the
pick rule. Each says right or wrong, never the answer (the answers: scripts/make_answer_key.py)."""

import math
import numbers
from collections.abc import Callable

import numpy as np

from sim.engine.runs import run_single_loop
from sim.model.checks import check_integer, check_seed
from sim.model.costs import loop_step_tokens, observation_tokens
from sim.model.errors import InputTypeError
from sim.model.picks import expected_right_share
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen

CLEAN_TASKS = 2  # tasks the student's seed names for the clean-run exercise
CHANCE_TOLERANCE = 5e-5  # an answer rounded to 4 decimals counts as right
LUCK_HINT = "a missed draw still picks the right tool with share 1 / (number of tools)"  # a share too low


def loop_tokens(steps: int, calls: int) -> int:
    """Exercise 1's answer: a plain single-loop run's tokens (AA28) from its steps and tool calls
    (steps - calls is 1 when the agent stopped, 0 when the budget ended it). Raises for other counts."""
    steps, calls = check_integer(steps, "steps", 1), check_integer(calls, "calls", 0)
    check_integer(steps - calls, "steps", 0, 1)
    lengths = list(range(calls)) + [calls] * (steps - calls)
    return sum(loop_step_tokens(n) for n in lengths) + calls * int(observation_tokens(False))


@fits_the_screen
def check_loop_tokens(seed: int, function: Callable) -> str:
    """Exercise 1: `function(steps, calls)` gives the tokens of every task's run at `seed`, budget 8;
    names the first task off and which way. Raises for a bad seed or a function that is not callable."""
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
    """Exercise 7's CLEAN_TASKS distinct tasks for `seed` (numpy Generator), in the course's order."""
    chosen = np.random.default_rng(check_seed(seed)).choice(len(TASKS), CLEAN_TASKS, replace=False)
    return [TASKS[i].name for i in sorted(chosen)]


def clean_chance(seed: int) -> float:
    """Exercise 7's answer: the chance that the single loop's calls are exactly the sequence on every
    task of `clean_tasks(seed)`: the product of expected_right_share(d) over their positions d."""
    chosen = clean_tasks(seed)
    return math.prod(
        expected_right_share(depth)
        for task in TASKS
        if task.name in chosen
        for depth in range(1, len(task.sequence) + 1)
    )


@fits_the_screen
def check_clean_chance(seed: int, answer: object = None) -> str:
    """Exercise 7: the student's chance of a clean run, as `chance_verdict`. Raises for a bad seed or an
    answer that is not a number."""
    too_high = (
        "does each position's share fall with its depth d, and does every position of both tasks count?"
    )
    too_low = (
        "does a missed draw's lucky pick of the right tool count (share 1 / number of tools), and is the "
        "stop step left out (stopping is not required)?"
    )
    return chance_verdict(answer, clean_chance(seed), too_high, too_low)


def check_share_answer(answer: object) -> None:
    """Raise InputTypeError for a student's share that is not a number."""
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        raise InputTypeError(
            f"answer must be a share between 0 and 1, got {answer!r} ({type(answer).__name__})"
        )


def chance_verdict(
    answer: object, wanted: float, too_high: str, too_low: str = LUCK_HINT, direction: bool = True
) -> str:
    """A student's chance against `wanted` (lessons 1 and 2): right within CHANCE_TOLERANCE, else too
    high (hint `too_high`) or too low (hint `too_low`); with direction=False a wrong chance gets
    "not right: " and `too_high` whichever side it lies on. Never `wanted`. Raises InputTypeError
    for a non-number."""
    if answer is None:
        return "not answered yet: set my_chance (a share between 0 and 1) and run the check again"
    check_share_answer(answer)
    if not 0 <= answer <= 1:
        return f"not right: a chance is a share between 0 and 1, got {answer!r} (a percentage? divide by 100)"
    if abs(answer - wanted) <= CHANCE_TOLERANCE:
        return "right: that is the pick rule's chance for your tasks"
    if not direction:
        return f"not right: {too_high}"
    if answer > wanted:
        return f"not right: too high; {too_high}"
    return f"not right: too low; {too_low}"
