"""Many-seed studies (lesson 5): paired differences, intervals over seeds or tasks, pass^k (tau-bench)."""

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


def paired_outcomes(first: BatchRun, second: BatchRun, unit: str, n_seeds: int) -> np.ndarray:
    """Second minus first per (task, seed), (24, n_seeds); raises InputError for runs not paired."""
    check_instance(first, BatchRun, "first", "a BatchRun (from run_batch)")
    check_instance(second, BatchRun, "second", "a BatchRun (from run_batch)")
    if not np.array_equal(first.seeds, second.seeds) or first.budget != second.budget:
        raise InputError("first and second must be run on the same seeds with the same budget")
    field = unit_named(unit).per_task
    n_seeds = check_integer(n_seeds, "n_seeds", 2, len(first.seeds))
    a = getattr(first, field)[:, :n_seeds].astype(np.int64)
    b = getattr(second, field)[:, :n_seeds].astype(np.int64)
    return b - a


@dataclass(frozen=True)
class PairedInterval:
    """One unit's paired difference over n_seeds seeds, its 95 % interval by `method` and `resample`."""

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
    """The mean paired difference over the first n_seeds seeds and its 95 % interval, over seeds or tasks."""
    resample = check_choice(resample, "resample", RESAMPLE_WAYS)
    method = check_choice(method, "method", INTERVAL_METHODS)
    n_resamples = check_integer(n_resamples, "n_resamples", 1)
    random_seed = check_integer(random_seed, "random_seed", 0)
    differences = paired_outcomes(first, second, unit, n_seeds)
    return _paired_interval(differences, unit, resample, n_resamples, random_seed, method)


def _paired_interval(differences, unit, resample, n_resamples, random_seed, method) -> PairedInterval:
    """`paired_interval` of checked per-(task, seed) differences (24, n_seeds)."""
    n_tasks, n_seeds = differences.shape
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
    """`paired_interval` for each unit, number of seeds and way of resampling, a row each."""
    check_instance(first, BatchRun, "first", "a BatchRun (from run_batch)")
    units = [
        check_choice(u, "units", UNIT_NAMES) for u in check_items(units, object, "units", "unit names", 1)
    ]
    sizes = [
        check_integer(n, "sizes", 2, len(first.seeds))
        for n in check_items(sizes, object, "sizes", "numbers of seeds", 1)
    ]
    n_resamples = check_integer(n_resamples, "n_resamples", 1)
    method = check_choice(method, "method", INTERVAL_METHODS)
    rows = []
    for unit in units:
        differences = paired_outcomes(first, second, unit, max(sizes))
        for n_seeds in sizes:
            for way in RESAMPLE_WAYS:
                found = _paired_interval(
                    differences[:, :n_seeds], unit, way, n_resamples, RESAMPLING_SEED, method
                )
                rows.append({"unit": unit, "n_seeds": n_seeds, "resample": way,
                             "difference": found.difference, "low": found.low, "high": found.high,
                             "excludes_zero": found.excludes_zero})  # fmt: skip
    return pd.DataFrame(rows)


def band_rule_over_pairs(first: SeedMeasurements, second: SeedMeasurements, unit: str) -> dict:
    """The band rule on disjoint pairs of seeds (0, 1), (2, 3), ...: pairs, measured (up, down) and size."""
    for name, value in (("first", first), ("second", second)):
        check_instance(value, SeedMeasurements, name, "SeedMeasurements (from measure_batch)")
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
    """How a two-run band verdict (on `differences`) stands against a many-seed interval, in words."""
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
    """pass^k, mean over tasks of C(c, k) / C(n, k); raises InputError for k outside 1..n_seeds."""
    if not isinstance(correct, np.ndarray) or correct.ndim != 2 or correct.dtype.kind not in "biu":
        shape = getattr(correct, "shape", None)
        raise InputTypeError(
            f"correct must be a 2-D array (tasks, seeds) of bools, got {type(correct).__name__} of shape {shape}"
        )
    return float(np.mean(_task_pass(correct, check_integer(k, "k", 1, correct.shape[1]))))


def _task_pass(correct: np.ndarray, k: int, at_least_one: bool = False) -> np.ndarray:
    """Each task's unbiased pass^k (or pass@k) from its trials on the last axis, checked by the caller."""
    n, c = correct.shape[-1], correct.sum(axis=-1)
    if at_least_one:
        return 1 - special.comb(n - c, k) / special.comb(n, k)
    return special.comb(c, k) / special.comb(n, k)


def pass_k_table(runs: dict, ks=range(1, 9)) -> pd.DataFrame:
    """pass^k and p^k (p: share of runs solved) per k for each label -> BatchRun of `runs`."""
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
