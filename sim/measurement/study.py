"""Many-seed studies: differences between two setups at the same seeds, their intervals (over
seeds, or over whole tasks), the band rule over many pairs of seeds, pass^k.

All figures come from `sim.measurement.batch` runs of the same seeds in both setups. Intervals come from
`sim.measurement.intervals`: the t interval by default, which covers at the sizes lesson 5 uses them (its
coverage study shows it), or a bootstrap interval with a fixed resampling seed.
Introduced in lesson 5, how many seeds.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from sim.engine.config import DEFAULT_SEED, RunConfig
from sim.engine.units import UNIT_NAMES, unit_named
from sim.measurement.bands import MEASURED, band_verdict
from sim.measurement.batch import BatchRun, SeedMeasurements
from sim.measurement.intervals import INTERVAL_METHODS, RESAMPLES, RESAMPLING_SEED, _interval
from sim.model.checks import check_choice, check_instance, check_integer, check_items
from sim.model.errors import InputError, InputTypeError

STUDY_FIRST_SEED = DEFAULT_SEED  # the seeds of an N-seed study are 20260218 + i, i = 0..N-1
STUDY_SIZES = (10, 30, 100, 300, 1000, 10000)  # numbers of seeds
RESAMPLE_WAYS = ("seeds", "tasks")  # what an interval treats as its independent draws

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
    check_instance(first, BatchRun, "first", "a BatchRun (from run_batch)")
    check_instance(second, BatchRun, "second", "a BatchRun (from run_batch)")
    if not np.array_equal(first.seeds, second.seeds) or first.budget != second.budget:
        raise InputError("first and second must be run on the same seeds with the same budget")
    field = unit_named(unit).per_task
    n_seeds = _check_size(n_seeds, len(first.seeds))
    a = getattr(first, field)[:, :n_seeds].astype(np.int64)
    b = getattr(second, field)[:, :n_seeds].astype(np.int64)
    return b - a


@dataclass(frozen=True)
class PairedInterval:
    """The difference (second minus first) of one unit over N seeds and its interval.

    Fields: unit; resample ("seeds" or "tasks": the interval's independent draws); n_seeds;
    difference (mean per run of 24 tasks: a share of tasks for success, a count per run
    otherwise); low and high (the 95 % interval); n_resamples (the bootstrap's, unused by "t");
    method ("t", "percentile" or "BCa").
    """

    unit: str
    resample: str
    n_seeds: int
    difference: float
    low: float
    high: float
    n_resamples: int
    method: str = "t"

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
    method: str = "t",
) -> PairedInterval:
    """The mean difference over the first n_seeds seeds and its 95 % interval.

    Parameters
    ----------
    first, second : BatchRun
        The two setups run on the same seeds and budget.
    unit : str
        One of the counted units (sim.engine.units.UNIT_NAMES): success, steps, tool calls, tokens, tool errors.
    n_seeds : int
        How many of the run's seeds (the first ones) the study uses, >= 2.
    resample : str
        What the interval treats as its independent draws. "seeds": one value per seed, the
        run's difference over its 24 tasks (would another seed of the same agents on these tasks
        differ?). "tasks": one value per task, its mean difference over the seeds (would other
        tasks like these differ?). The bootstrap methods resample these values.
    n_resamples : int
        Bootstrap resamples (10,000 in the lesson); unused by "t".
    random_seed : int
        Seed of the numpy Generator that draws the resamples.
    method : str
        "t" (the default: the t interval, whose coverage lesson 5 measures), "percentile" or "BCa".

    Returns
    -------
    PairedInterval
        The difference per run of 24 tasks (share of tasks for success, count otherwise).

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for runs that are not BatchRuns of the same seeds and budget,
        an unknown unit, resample way or method, a bad n_seeds (see `paired_outcomes`),
        n_resamples below 1 or a negative random_seed.
    """
    resample = check_choice(resample, "resample", RESAMPLE_WAYS)
    method = check_choice(method, "method", INTERVAL_METHODS)
    n_resamples = check_integer(n_resamples, "n_resamples", 1)
    random_seed = check_integer(random_seed, "random_seed", 0)
    differences = paired_outcomes(first, second, unit, n_seeds)
    n_tasks = differences.shape[0]
    scale = 1 / n_tasks if unit_named(unit).share else 1
    if resample == "seeds":
        data = differences.sum(axis=0) * scale  # one value per seed: the run's difference
    else:
        data = differences.mean(axis=1) * n_tasks * scale  # one value per task, in run units
    low, high = _interval(data, method, n_resamples, random_seed)
    return PairedInterval(
        unit, resample, n_seeds, float(data.mean()), float(low), float(high), n_resamples, method
    )


def interval_table(
    first: BatchRun,
    second: BatchRun,
    units=("success", "tokens", "tool errors"),
    sizes=STUDY_SIZES,
    n_resamples: int = RESAMPLES,
    method: str = "t",
) -> pd.DataFrame:
    """Differences and intervals, over seeds and over tasks, for each unit and number of seeds.

    Returns a DataFrame with columns unit, n_seeds, resample, difference, low, high,
    excludes_zero; one row per (unit, n_seeds, resample way). Sizes above the seeds run are
    an error (see `paired_outcomes`); `method` as in `paired_interval`.
    """
    check_instance(first, BatchRun, "first", "a BatchRun (from run_batch)")
    units = [
        check_choice(u, "units", UNIT_NAMES) for u in check_items(units, object, "units", "unit names", 1)
    ]
    sizes = [
        check_integer(n, "sizes", 2, len(first.seeds))
        for n in check_items(sizes, object, "sizes", "numbers of seeds", 1)
    ]
    rows = []
    for unit in units:
        for n_seeds in sizes:
            for way in RESAMPLE_WAYS:
                found = paired_interval(first, second, unit, n_seeds, way, n_resamples, method=method)
                rows.append({"unit": unit, "n_seeds": n_seeds, "resample": way,
                             "difference": found.difference, "low": found.low, "high": found.high,
                             "excludes_zero": found.excludes_zero})  # fmt: skip
    return pd.DataFrame(rows)


def band_rule_over_pairs(first: SeedMeasurements, second: SeedMeasurements, unit: str) -> dict:
    """The band rule (band_verdict) on disjoint pairs of seeds (0, 1), (2, 3), ...

    Parameters
    ----------
    first, second : SeedMeasurements
        The two setups at the same seeds.
    unit : str
        One of sim.engine.units.UNIT_NAMES; the rule compares exact counts (tasks solved for success).

    Returns
    -------
    dict
        pairs (how many pairs), measured (pairs whose verdict is "measured"), measured_up /
        measured_down (of those, how many had second > first, second < first), and
        measured_size (the mean over measured pairs of |mean of the pair's 2 differences|, in
        exact counts per run; 0.0 when none is measured).
    """
    check_instance(first, SeedMeasurements, "first", "SeedMeasurements (from measure_batch)")
    check_instance(second, SeedMeasurements, "second", "SeedMeasurements (from measure_batch)")
    field = unit_named(unit).count
    a, b = getattr(first, field).tolist(), getattr(second, field).tolist()
    counts = {"pairs": len(a) // 2, "measured": 0, "measured_up": 0, "measured_down": 0}
    sizes = []
    for i in range(0, 2 * counts["pairs"], 2):
        verdict = band_verdict(unit, a[i : i + 2], b[i : i + 2])
        if verdict.verdict == MEASURED:
            counts["measured"] += 1
            counts["measured_up" if verdict.differences[0] > 0 else "measured_down"] += 1
            sizes.append(abs(sum(verdict.differences)) / 2)
    counts["measured_size"] = float(np.mean(sizes)) if sizes else 0.0
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
