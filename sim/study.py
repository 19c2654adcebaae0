"""Many-seed studies: paired differences between two setups, percentile bootstrap intervals
(resampling seeds or resampling whole tasks), the band rule over many pairs of seeds, pass^k.

All figures come from `sim.batch` runs of the same seeds in both setups (a paired comparison).
Intervals are scipy.stats.bootstrap percentile intervals with a fixed resampling seed.
Introduced in lesson 5, how many seeds.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special, stats

from sim.bands import MEASURED, band_verdict
from sim.batch import BatchRun, SeedMeasurements
from sim.checks import check_instance, check_integer
from sim.config import DEFAULT_SEED, RunConfig
from sim.errors import InputError, InputTypeError
from sim.units import unit_named

STUDY_FIRST_SEED = DEFAULT_SEED  # the seeds of an N-seed study are 20260218 + i, i = 0..N-1
STUDY_SIZES = (10, 30, 100, 300, 1000, 10000)  # numbers of seeds
CONFIDENCE = 0.95
RESAMPLES = 10000
RESAMPLING_SEED = 2026  # numpy Generator seed of every bootstrap in lesson 5
RESAMPLE_WAYS = ("seeds", "tasks")
# setups a study can compare: label -> its RunConfig (at the default budget; a study sets its own)
SETUP_CHOICES = {
    "single loop": RunConfig("single-loop"),
    "single loop + self-critique": RunConfig("single-loop", self_critique=True),
    "single loop + approval": RunConfig("single-loop", approval=True),
    "single loop + self-critique + approval": RunConfig("single-loop", self_critique=True, approval=True),
    "planner + executor": RunConfig("plan-execute"),
}


def _check_size(n_seeds: int, available: int) -> int:
    if isinstance(n_seeds, bool) or not isinstance(n_seeds, int | np.integer):
        raise InputTypeError(f"n_seeds must be an integer 2..{available} (the seeds run), got {n_seeds!r}")
    if not 2 <= n_seeds <= available:
        raise InputError(f"n_seeds must be an integer 2..{available} (the seeds run), got {n_seeds!r}")
    return int(n_seeds)


def paired_outcomes(first: BatchRun, second: BatchRun, unit: str, n_seeds: int) -> np.ndarray:
    """Second minus first, per (task, seed), for the first n_seeds seeds; shape (24, n_seeds).

    Success is 1 / 0 per task (correct answer or not); the other units in their own counts.

    Raises
    ------
    ValueError
        When the runs do not share their seeds and budget, for an unknown unit, or when n_seeds
        is not 2..(seeds run).
    """
    check_instance(first, BatchRun, "first", "a BatchRun (from sim.run_batch)")
    check_instance(second, BatchRun, "second", "a BatchRun (from sim.run_batch)")
    if not np.array_equal(first.seeds, second.seeds) or first.budget != second.budget:
        raise InputError("first and second must be run on the same seeds with the same budget")
    field = unit_named(unit).per_task
    n_seeds = _check_size(n_seeds, len(first.seeds))
    a = getattr(first, field)[:, :n_seeds].astype(np.int64)
    b = getattr(second, field)[:, :n_seeds].astype(np.int64)
    return b - a


@dataclass(frozen=True)
class PairedInterval:
    """The paired difference (second minus first) of one unit over N seeds and its interval.

    Fields: unit; resample ("seeds" or "tasks"); n_seeds; difference (mean per run of 24 tasks:
    a share of tasks for success, a count per run otherwise); low and high (the 95 % percentile
    bootstrap interval); n_resamples.
    """

    unit: str
    resample: str
    n_seeds: int
    difference: float
    low: float
    high: float
    n_resamples: int

    @property
    def excludes_zero(self) -> bool:
        """True when zero lies outside [low, high]."""
        return self.low > 0 or self.high < 0


def paired_interval(
    first: BatchRun,
    second: BatchRun,
    unit: str,
    n_seeds: int,
    resample: str = "seeds",
    n_resamples: int = RESAMPLES,
    random_seed: int = RESAMPLING_SEED,
) -> PairedInterval:
    """The mean paired difference over the first n_seeds seeds and its 95 % percentile bootstrap interval.

    Parameters
    ----------
    first, second : BatchRun
        The two setups run on the same seeds and budget.
    unit : str
        One of the counted units (sim.units.UNIT_NAMES): success, steps, tool calls, tokens, tool errors.
    n_seeds : int
        How many of the run's seeds (the first ones) the study uses, >= 2.
    resample : str
        "seeds": resample the seeds, each with its 24 tasks (would another seed of the same
        agents on these tasks differ?). "tasks": resample whole tasks, each with all its seeds
        (would other tasks like these differ?).
    n_resamples : int
        Bootstrap resamples (10,000 in the lesson).
    random_seed : int
        Seed of the numpy Generator that draws the resamples.

    Returns
    -------
    PairedInterval
        The difference per run of 24 tasks (share of tasks for success, count otherwise).

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for runs that are not BatchRuns of the same seeds and budget,
        an unknown unit or resample way, a bad n_seeds (see `paired_outcomes`), n_resamples below 1
        or a negative random_seed.
    """
    if resample not in RESAMPLE_WAYS:
        raise InputError(f"resample must be one of {', '.join(RESAMPLE_WAYS)}, got {resample!r}")
    n_resamples = check_integer(n_resamples, "n_resamples", 1)
    random_seed = check_integer(random_seed, "random_seed", 0)
    differences = paired_outcomes(first, second, unit, n_seeds)
    n_tasks = differences.shape[0]
    scale = 1 / n_tasks if unit_named(unit).share else 1
    if resample == "seeds":
        data = differences.sum(axis=0) * scale  # one value per seed: the run's difference
    else:
        data = differences.mean(axis=1) * n_tasks * scale  # one value per task, in run units
    mean = float(data.mean())
    if np.ptp(data) == 0:  # every resample gives the same mean
        return PairedInterval(unit, resample, n_seeds, mean, mean, mean, n_resamples)
    result = stats.bootstrap(
        (data,), np.mean, n_resamples=n_resamples, confidence_level=CONFIDENCE, method="percentile",
        rng=np.random.default_rng(random_seed), batch=200,
    )  # fmt: skip
    low, high = result.confidence_interval
    return PairedInterval(unit, resample, n_seeds, mean, float(low), float(high), n_resamples)


def interval_table(
    first: BatchRun,
    second: BatchRun,
    units=("success", "tokens", "tool errors"),
    sizes=STUDY_SIZES,
    n_resamples: int = RESAMPLES,
) -> pd.DataFrame:
    """Paired differences and intervals, both ways of resampling, for each unit and number of seeds.

    Returns a DataFrame with columns unit, n_seeds, resample, difference, low, high,
    excludes_zero; one row per (unit, n_seeds, resample way). Sizes above the seeds run are
    an error (see `paired_outcomes`).
    """
    rows = []
    for unit in units:
        for n_seeds in sizes:
            for way in RESAMPLE_WAYS:
                interval = paired_interval(first, second, unit, n_seeds, way, n_resamples)
                rows.append({"unit": unit, "n_seeds": n_seeds, "resample": way,
                             "difference": interval.difference, "low": interval.low, "high": interval.high,
                             "excludes_zero": interval.excludes_zero})  # fmt: skip
    return pd.DataFrame(rows)


def smallest_study(table: pd.DataFrame, unit: str, resample: str) -> int | None:
    """The smallest number of seeds in `table` from which on the interval excludes zero at every
    larger size too; None when the interval at the largest size still holds zero."""
    rows = table[(table["unit"] == unit) & (table["resample"] == resample)].sort_values("n_seeds")
    smallest = None
    for n_seeds, excludes in zip(rows["n_seeds"], rows["excludes_zero"], strict=True):
        if not excludes:
            smallest = None
        elif smallest is None:
            smallest = int(n_seeds)
    return smallest


def band_rule_over_pairs(first: SeedMeasurements, second: SeedMeasurements, unit: str) -> dict:
    """The band rule (sim.band_verdict) on disjoint pairs of seeds (0, 1), (2, 3), ...

    Parameters
    ----------
    first, second : SeedMeasurements
        The two setups at the same seeds.
    unit : str
        One of sim.units.UNIT_NAMES; the rule compares exact counts (tasks solved for success).

    Returns
    -------
    dict
        pairs (how many pairs), measured (pairs whose verdict is "measured"), and
        measured_up / measured_down (of those, how many had second > first, second < first).
    """
    check_instance(first, SeedMeasurements, "first", "SeedMeasurements (from sim.measure_batch)")
    check_instance(second, SeedMeasurements, "second", "SeedMeasurements (from sim.measure_batch)")
    field = unit_named(unit).count
    a, b = getattr(first, field).tolist(), getattr(second, field).tolist()
    counts = {"pairs": len(a) // 2, "measured": 0, "measured_up": 0, "measured_down": 0}
    for i in range(0, 2 * counts["pairs"], 2):
        verdict = band_verdict(unit, a[i : i + 2], b[i : i + 2])
        if verdict.verdict == MEASURED:
            counts["measured"] += 1
            counts["measured_up" if verdict.differences[0] > 0 else "measured_down"] += 1
    return counts


def agreement(verdict: str, differences, interval: PairedInterval) -> str:
    """How the two-run band rule's verdict stands against a many-seed interval, in a few words.

    `differences` are the two runs' differences (second minus first) the verdict was given on.
    """
    if verdict == MEASURED:
        if not interval.excludes_zero:
            return "differ: the band rule measures what the interval cannot confirm"
        if np.sign(differences[0]) == np.sign(interval.difference):
            return "agree: measured, same direction"
        return "differ: the band rule measures the opposite direction"
    if interval.excludes_zero:
        return "differ: the interval finds an effect the band rule calls unmeasured"
    return "agree: no effect shown"


def pass_hat_k(correct: np.ndarray, k: int) -> float:
    """pass^k, the unbiased estimator used by tau-bench: the mean over tasks of C(c, k) / C(n, k).

    Parameters
    ----------
    correct : numpy.ndarray
        Bool, shape (n_tasks, n_seeds): whether each task was solved at each seed; n_seeds >= k.
    k : int
        Number of trials that must all succeed, >= 1.

    Returns
    -------
    float
        The estimated chance that k independent runs of a task all succeed, averaged over tasks.

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for `correct` that is not a 2-D array of 0/1 or bools, or k
        that is not an integer 1..n_seeds.
    """
    if not isinstance(correct, np.ndarray) or correct.ndim != 2 or correct.dtype.kind not in "biu":
        shape = getattr(correct, "shape", None)
        raise InputTypeError(
            f"correct must be a 2-D array (tasks, seeds) of bools, got {type(correct).__name__} of shape {shape}"
        )
    n = correct.shape[1]
    k = check_integer(k, "k", 1, n)
    successes = correct.sum(axis=1)
    return float(np.mean(special.comb(successes, k) / special.comb(n, k)))


def pass_k_table(runs: dict, ks=range(1, 9)) -> pd.DataFrame:
    """pass^k and p^k for each setup: columns k, then for each label '<label> pass^k' and '<label> p^k'.

    `runs` maps a setup label to its BatchRun; p is the share of (task, seed) runs solved.
    Raises InputTypeError for runs that are not such a mapping, and as `pass_hat_k` for a bad k.
    """
    if not isinstance(runs, dict) or not all(isinstance(run, BatchRun) for run in runs.values()):
        raise InputTypeError(f"runs must be a dict of setup label -> BatchRun, got {type(runs).__name__}")
    rows = []
    for k in ks:
        row = {"k": k}
        for label, run in runs.items():
            row[f"{label} pass^k"] = pass_hat_k(run.correct, k)
            row[f"{label} p^k"] = float(run.correct.mean()) ** k
        rows.append(row)
    return pd.DataFrame(rows)
