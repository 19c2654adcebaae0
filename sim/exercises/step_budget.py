"""Lesson 3's exercise checks: the answers stop when done saves, counted, and a stop predicate the
student writes from the request and the state observed. Each says right or wrong, never the answer
(the answers: scripts/make_answer_key.py; the reference predicate: `sim.engine.policy.goal_met`)."""

from collections.abc import Callable

from sim.engine.loops import is_correct
from sim.engine.policy import STOP, PolicyError, run_policy, stop_when_goal_met
from sim.engine.runs import run_task
from sim.model.checks import check_integer, check_seed
from sim.model.errors import InputTypeError
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen

BUDGET = 12  # the budget of both exercises: large enough that finished agents go on and spoil answers
SETUPS = ("single-loop", "plan-execute")


def saved_by_stopping(seed: int) -> int:
    """Exercise 1's answer: the task runs (both setups, budget 12) wrong without SB1 and right with it."""
    seed = check_seed(seed)
    return sum(
        not is_correct(run_task(setup, task, seed, BUDGET)) and is_correct(run_task(setup, task, seed, BUDGET,
                                                                                    stop_when_done=True))
        for setup in SETUPS for task in TASKS
    )  # fmt: skip


@fits_the_screen
def check_saved_by_stopping(seed: int, answer: object = None) -> str:
    """Exercise 1: the student's count, as `count_verdict`."""
    hint = "count both setups, and only runs that are wrong without the rule and right with it"
    return count_verdict(seed, answer, "my_count", len(SETUPS) * len(TASKS), saved_by_stopping, hint)


def count_verdict(seed: int, answer: object, variable: str, most: int, count: Callable, hint: str) -> str:
    """A student's count against `count(seed)`: right or wrong, not which way (halving would find it).
    Raises for a bad seed or an answer that is not a whole number 0..most."""
    seed = check_seed(seed)
    if answer is None:
        return f"not answered yet: set {variable} and run the check again"
    if check_integer(answer, "answer", 0, most) == count(seed):
        return f"right: at seed {seed} that is the count"
    return f"wrong: at seed {seed} that is not the count; {hint}"


class NotAnswered(Exception):
    """The student's function returned None: its body is still the placeholder."""


def answered(function: Callable) -> Callable:
    """`function`, raising NotAnswered where it returns None (so that a check can say so)."""

    def wrapped(*args):
        result = function(*args)
        if result is None:
            raise NotAnswered
        return result

    return wrapped


@fits_the_screen
def check_stop_predicate(seed: int, done: Callable) -> str:
    """Exercise 6: the single loop stopping when `done(observation)` is true, on every task at `seed`,
    budget 12, against `stop_when_goal_met`; names the first task it stops too early or too late.
    Raises for a bad seed or a predicate that is not callable."""
    if not callable(done):
        raise InputTypeError(f"done must be a function of an observation, got {type(done).__name__}")
    seed, stops = check_seed(seed), answered(done)

    def policy(observation):
        return STOP if stops(observation) else observation.model_pick()

    policy.__name__ = getattr(done, "__name__", "predicate")
    for task in TASKS:
        try:
            run = run_policy(policy, task, seed, BUDGET)
        except PolicyError as error:
            if isinstance(error.__cause__, NotAnswered):
                return "not answered yet: write the body of your predicate and run the check again"
            return f"wrong: {error}"
        reference = run_policy(stop_when_goal_met, task, seed, BUDGET)
        if run.steps != reference.steps or run.trace != reference.trace:
            early = run.steps < reference.steps
            when = (
                "before its goal is observed" if early else "later than the step after its goal is observed"
            )
            return f"wrong: on task {task.name} ({task.kind}) at seed {seed} your predicate stops {when}"
    return f"right: your predicate stops every task as soon as its goal is observed at seed {seed}"
