"""Lesson 5's exercise checks: a power and a coverage figure computed for the student's own first
seed. Each says right or wrong, never the answer (the answers: scripts/make_answer_key.py)."""

from sim.engine.config import RunConfig
from sim.exercises.single_loop import check_share_answer
from sim.measurement.batch import batch_run, study_seeds
from sim.measurement.intervals import bootstrap_interval, disjoint_studies, excludes_zero, t_interval
from sim.model.checks import check_seed
from sim.presentation.screen import fits_the_screen

EXERCISE_SEEDS = 5000  # seeds from the student's first seed
POWER_STUDY_SEEDS = 100  # power of 100-seed studies for the success difference (t interval)
COVERAGE_STUDY_SEEDS = 5  # coverage of 5-seed percentile bootstrap intervals for the token difference
COVERAGE_RESAMPLES = 1000  # resamples per study, numpy Generator seeded 2026 (as the lesson's coverage study)
COVERAGE_TOLERANCE = 0.01  # another resampling seed moves the coverage a little: within this counts as right


def _differences(first: int, field: str):
    seeds = study_seeds(EXERCISE_SEEDS, check_seed(first, "first"))
    single = batch_run(RunConfig("single-loop"), seeds).per_seed()
    split = batch_run(RunConfig("plan-execute"), seeds).per_seed()
    return (getattr(split, field) - getattr(single, field)).astype(float)


def power_answer(first: int) -> float:
    """Exercise 1's answer: the share of the 50 disjoint 100-seed studies from `first` whose 95 % t
    interval for the success difference (split minus single loop) leaves zero out."""
    studies = disjoint_studies(_differences(first, "solved"), POWER_STUDY_SEEDS)
    return float(excludes_zero(*t_interval(studies)).mean())


def coverage_answer(first: int) -> float:
    """Exercise 2's answer: the share of the 1,000 disjoint 5-seed studies from `first` whose 95 %
    percentile bootstrap interval (resampling seed 2026) for the token difference holds the
    mean over all 5,000 seeds."""
    differences = _differences(first, "tokens")
    low, high = bootstrap_interval(disjoint_studies(differences, COVERAGE_STUDY_SEEDS), "percentile",
                                   COVERAGE_RESAMPLES)  # fmt: skip
    truth = differences.mean()
    return float(((low <= truth) & (truth <= high)).mean())


def _verdict(answer: object, expected: float, tolerance: float, what: str) -> str:
    if answer is None:
        return f"not answered yet: set your {what} (a share between 0 and 1) and run the check again"
    check_share_answer(answer)
    if not 0 <= answer <= 1:
        return f"not right: {what} is a share between 0 and 1, got {answer!r} (a percentage? divide by 100)"
    if abs(answer - expected) <= tolerance + 1e-12:
        return f"right: your {what} is the one computed for your seed"
    # never which way: a share of a few thousand studies could be found by halving
    return f"not right: your {what} is not the one computed for your seed; check the study size, the unit and the interval"


@fits_the_screen
def check_power(first: int, answer: object = None) -> str:
    """Exercise 1: the student's power (a share, or None), exactly; never which way.
    Raises for a bad seed or an answer that is not a number."""
    return _verdict(answer, power_answer(first), 0.0, "power")


@fits_the_screen
def check_coverage(first: int, answer: object = None) -> str:
    """Exercise 2: the student's coverage, within COVERAGE_TOLERANCE; as `check_power`."""
    return _verdict(answer, coverage_answer(first), COVERAGE_TOLERANCE, "coverage")
