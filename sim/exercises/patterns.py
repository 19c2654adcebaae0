"""Lesson 8's exercise checks, one a pattern, each function named by its pattern. Each says right or
wrong, never the answer.

The reviewer (RV1-RV4, `sim.model.review`): count the wrong writes a blocking reviewer prevented in a
run, from its reviews."""

from collections.abc import Callable

from sim.engine.config import RunConfig
from sim.engine.loops import Run
from sim.engine.runs import run_with
from sim.model.checks import check_seed
from sim.model.errors import InputTypeError
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen

REVIEW_CONFIG = RunConfig("single-loop", 8, argument_errors=0.1, reviewer="blocking")  # the exercise's
REVIEW_SEEDS = 5  # seeds the check runs, from the student's seed on (24 tasks each)


def review_prevented(run: Run) -> int:
    """The reviewer exercise's answer: the wrong writes the reviewer prevented in `run` (wrong, refused,
    not made, and with a value to write: a call with no value writes nothing whatever the verdict)."""
    return sum(r.wrong and r.refused and not r.made and not r.empty for r in run.reviews)


def review_runs_to_check(seed: int) -> list[Run]:
    """The runs the reviewer check reads: REVIEW_CONFIG on the 24 tasks at REVIEW_SEEDS seeds from `seed`."""
    seed = check_seed(seed)
    return [run_with(REVIEW_CONFIG, task, seed + k) for k in range(REVIEW_SEEDS) for task in TASKS]


@fits_the_screen
def review_check_prevented(seed: int, function: Callable) -> str:
    """The reviewer exercise: `function(run)` counts the wrong writes the reviewer prevented in a run;
    checked on `review_runs_to_check(seed)`, naming the first run counted wrongly, never its count.
    Raises for a bad seed or a function that is not callable."""
    if not callable(function):
        raise InputTypeError(f"function must be a function of a run, got {type(function).__name__}")
    runs = review_runs_to_check(seed)
    for run in runs:
        given = function(run)
        if given is None:
            return "not answered yet: write the body of your function and run the check again"
        if isinstance(given, bool) or not isinstance(given, int):
            return f"wrong: your function returned {given!r}; it must return a whole number"
        if given != review_prevented(run):
            return (f"wrong: your count for task {run.task} at seed {run.seed} is off; read each review's "
                    "wrong, refused and made, and ask whether the call had a value to write")  # fmt: skip
    return f"right: your count agrees on all {len(runs)} runs from seed {seed}"
