"""The checks of lesson 3's coding exercises, for a seed the student chooses: a stop predicate the student
writes, and a count of the answers that stop when done saves. Each check says right or wrong, and what is
off, never the answer; the reference answer (`saved_by_stopping`) and the reference predicate
(`sim.engine.policy.goal_met`) go into INSTRUCTORS.md through scripts/make_answer_key.py.
"""

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
    """Exercise 5's answer: over both setups at `seed` and budget 12 steps, the task runs (of 48) whose
    answer is wrong without stop when done and right with it. Raises for a bad seed."""
    seed = check_seed(seed)
    return sum(
        not is_correct(run_task(setup, task, seed, BUDGET)) and is_correct(run_task(setup, task, seed, BUDGET,
                                                                                    stop_when_done=True))
        for setup in SETUPS for task in TASKS
    )  # fmt: skip


@fits_the_screen
def check_saved_by_stopping(seed: int, answer: object = None) -> str:
    """Lesson 3, exercise 5: the student's count of task runs (both setups, budget 12) that stop when
    done turns from wrong to right at `seed`. Returns "right: ...", "wrong: ..." (not which way: a
    small count could be found by halving) or "not answered yet"; never the count.

    Raises InputTypeError / InputError for a bad seed or an answer that is not a whole number in range."""
    seed = check_seed(seed)
    if answer is None:
        return "not answered yet: set my_count and run the check again"
    answer = check_integer(answer, "answer", 0, len(SETUPS) * len(TASKS))
    wanted = saved_by_stopping(seed)
    if answer == wanted:
        return f"right: at seed {seed} that is the count"
    return (f"wrong: at seed {seed} that is not the count; count both setups, "
            "and only runs that are wrong without the rule and right with it")  # fmt: skip


class _NotAnswered(Exception):
    """The student's predicate returned None: its body is still the placeholder."""


def _predicate_policy(done: Callable) -> Callable:
    """The policy that stops when `done(observation)` is true and otherwise takes the model's pick
    (a None from `done` raises, so that the check can say "not answered yet")."""

    def policy(observation):
        answer = done(observation)
        if answer is None:
            raise _NotAnswered
        return STOP if answer else observation.model_pick()

    policy.__name__ = getattr(done, "__name__", "predicate")
    return policy


@fits_the_screen
def check_stop_predicate(seed: int, done: Callable) -> str:
    """Lesson 3, exercise 6: `done(observation)` says whether the job is done, from what the agent has
    observed. The check runs the single loop with it as its stop rule on all 24 tasks at `seed`, budget
    12, beside the reference rule (`sim.engine.policy.stop_when_goal_met`), and returns "right: ...",
    "wrong: ..." naming the first task where it stops too early or too late, or "not answered yet"
    (`done` returns None); never the rule.

    Raises InputTypeError / InputError for a predicate that is not callable or a bad seed."""
    if not callable(done):
        raise InputTypeError(f"done must be a function of an observation, got {type(done).__name__}")
    seed = check_seed(seed)
    for task in TASKS:
        try:
            run = run_policy(_predicate_policy(done), task, seed, BUDGET)
        except PolicyError as error:
            if isinstance(error.__cause__, _NotAnswered):
                return "not answered yet: write the body of your predicate and run the check again"
            return f"wrong: {error}"
        reference = run_policy(stop_when_goal_met, task, seed, BUDGET)
        if run.steps != reference.steps or run.trace != reference.trace:
            early = run.steps < reference.steps
            return (f"wrong: on task {task.name} ({task.kind}) at seed {seed} your predicate stops "
                    + ("before the job is done" if early else "later than the first step after the job is done"))  # fmt: skip
    return f"right: your predicate stops every task as soon as its job is done at seed {seed}"
