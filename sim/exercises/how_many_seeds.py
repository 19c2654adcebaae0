"""The checked exercises of lesson 5: a power and a coverage figure the student computes for a first
seed of their own choosing. Each check says right or wrong, and what is off, without showing the
answer; the reference answers (`power_answer`, `coverage_answer`) go into INSTRUCTORS.md through
scripts/make_answer_key.py.
"""

import numbers

from sim.engine.config import RunConfig
from sim.measurement.batch import batch_run, study_seeds
from sim.measurement.intervals import bootstrap_interval, disjoint_studies, excludes_zero, t_interval
from sim.model.checks import check_seed
from sim.model.errors import InputTypeError
from sim.presentation.screen import fits_the_screen

EXERCISE_SEEDS = 5000  # seeds from the student's first seed
POWER_STUDY_SEEDS = 100  # exercise: power of 100-seed studies for the success difference (t interval)
COVERAGE_STUDY_SEEDS = (
    5  # exercise: coverage of 5-seed percentile bootstrap intervals for the token difference
)
COVERAGE_RESAMPLES = 1000  # resamples per study, numpy Generator seeded 2026 (as the lesson's coverage study)
COVERAGE_TOLERANCE = 0.01  # another resampling seed moves the coverage a little: within this counts as right


def _differences(first: int, field: str):
    seeds = study_seeds(EXERCISE_SEEDS, check_seed(first, "first"))
    single = batch_run(RunConfig("single-loop"), seeds).per_seed()
    split = batch_run(RunConfig("plan-execute"), seeds).per_seed()
    return (getattr(split, field) - getattr(single, field)).astype(float)


def power_answer(first: int) -> float:
    """Exercise 1's answer: over seeds first .. first + 4999, cut into 50 disjoint studies of 100
    seeds, the share of studies whose 95 % t interval for the success difference (planner +
    executor minus single loop, tasks solved per run) leaves zero out. Raises for a bad seed."""
    studies = disjoint_studies(_differences(first, "solved"), POWER_STUDY_SEEDS)
    return float(excludes_zero(*t_interval(studies)).mean())


def coverage_answer(first: int) -> float:
    """Exercise 2's answer: over seeds first .. first + 4999, cut into 1,000 disjoint studies of 5
    seeds, the share of studies whose 95 % percentile bootstrap interval (1,000 resamples,
    resampling seed 2026) for the token difference holds the mean over all 5,000 seeds.
    Raises for a bad seed."""
    differences = _differences(first, "tokens")
    low, high = bootstrap_interval(disjoint_studies(differences, COVERAGE_STUDY_SEEDS), "percentile",
                                   COVERAGE_RESAMPLES)  # fmt: skip
    truth = differences.mean()
    return float(((low <= truth) & (truth <= high)).mean())


def _verdict(answer: object, expected: float, tolerance: float, what: str) -> str:
    if answer is None:
        return f"not answered yet: set your {what} (a share between 0 and 1) and run the check again"
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        raise InputTypeError(
            f"answer must be a share between 0 and 1, got {answer!r} ({type(answer).__name__})"
        )
    if not 0 <= answer <= 1:
        return f"not right: {what} is a share between 0 and 1, got {answer!r} (a percentage? divide by 100)"
    if abs(answer - expected) <= tolerance + 1e-12:
        return f"right: your {what} is the one computed for your seed"
    # never which way: a share of a few thousand studies could be found by halving
    return f"not right: your {what} is not the one computed for your seed; check the study size, the unit and the interval"


@fits_the_screen
def check_power(first: int, answer: object = None) -> str:
    """Check exercise 1 for the student's first seed: "right", "not right" (not which way: an exact
    share of few studies could be found by halving) or "not answered yet"; never the answer itself. `answer` is a share in [0, 1] or None.
    Raises InputTypeError / InputError for a bad seed or an answer that is not a number."""
    return _verdict(answer, power_answer(first), 0.0, "power")


@fits_the_screen
def check_coverage(first: int, answer: object = None) -> str:
    """Check exercise 2 for the student's first seed, within COVERAGE_TOLERANCE (a student's own
    resampling seed moves the figure a little); says right or wrong as `check_power`."""
    return _verdict(answer, coverage_answer(first), COVERAGE_TOLERANCE, "coverage")
