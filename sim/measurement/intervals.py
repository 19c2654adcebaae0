"""Confidence intervals for a mean along the last axis (t, percentile and BCa bootstrap, Efron 1987),
and how often each covers what it estimates (lesson 5)."""

import warnings

import numpy as np
import pandas as pd
from scipy import stats

from sim.model.checks import (
    check_choice,
    check_count,
    check_integer,
    check_items,
    check_real,
    check_share,
    check_values,
)
from sim.model.errors import InputError, InputTypeError

CONFIDENCE = 0.95
INTERVAL_METHODS = ("t", "percentile", "BCa")
RESAMPLES = 10000  # bootstrap resamples of a single interval in lesson 5
COVERAGE_RESAMPLES = 1000  # bootstrap resamples of each study in a coverage study (many studies at once)
RESAMPLING_SEED = 2026  # numpy Generator seed of every bootstrap in lesson 5


def t_interval(values, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """The t interval of the mean along the last axis (n >= 2): (low, high), mean +- t_{n-1} x se."""
    return _t_interval(check_values(values, "values", None), check_share(confidence, "confidence"))


def _t_interval(values: np.ndarray, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    n = values.shape[-1]
    half = stats.t.ppf((1 + confidence) / 2, n - 1) * stats.sem(values, axis=-1)
    mean = values.mean(axis=-1)
    return mean - half, mean + half


def bootstrap_interval(values, method: str = "percentile", n_resamples: int = RESAMPLES,
                       random_seed: int = RESAMPLING_SEED, confidence: float = CONFIDENCE):  # fmt: skip
    """A bootstrap interval ("percentile" or "BCa") of the mean along the last axis: (low, high)."""
    values = check_values(values, "values", None)
    method = check_choice(method, "method", INTERVAL_METHODS[1:])
    n_resamples = check_integer(n_resamples, "n_resamples", 1)
    random_seed = check_integer(random_seed, "random_seed", 0)
    confidence = check_share(confidence, "confidence")
    return _bootstrap_interval(values, method, n_resamples, random_seed, confidence)


def _bootstrap_interval(values, method, n_resamples, random_seed, confidence):
    with warnings.catch_warnings():  # degenerate studies (all values equal) are handled below
        warnings.simplefilter("ignore")
        result = stats.bootstrap(
            (values,), np.mean, axis=-1, vectorized=True, n_resamples=n_resamples, method=method,
            confidence_level=confidence, rng=np.random.default_rng(random_seed), batch=100,
        )  # fmt: skip
    mean = values.mean(axis=-1)
    flat = np.ptp(values, axis=-1) == 0
    low, high = (np.where(flat | np.isnan(bound), mean, bound) for bound in result.confidence_interval)
    return low, high


def interval(values, method: str = "t", n_resamples: int = RESAMPLES, random_seed: int = RESAMPLING_SEED,
             confidence: float = CONFIDENCE):  # fmt: skip
    """The interval of the mean along the last axis by `method` ("t", "percentile" or "BCa"): (low, high)."""
    method = check_choice(method, "method", INTERVAL_METHODS)
    if method == "t":
        return t_interval(values, confidence)
    return bootstrap_interval(values, method, n_resamples, random_seed, confidence)


def _interval(values, method, n_resamples=RESAMPLES, random_seed=RESAMPLING_SEED, confidence=CONFIDENCE):
    """`interval` on checked arguments."""
    if method == "t":
        return _t_interval(values, confidence)
    return _bootstrap_interval(values, method, n_resamples, random_seed, confidence)


def excludes_zero(low, high) -> np.ndarray:
    """Whether each interval [low, high] (numbers or arrays) leaves zero out: low > 0 or high < 0."""
    low, high = np.asarray(low), np.asarray(high)
    for name, bound in (("low", low), ("high", high)):
        if bound.dtype.kind not in "iuf":
            raise InputTypeError(f"{name} must be a number or an array of numbers, got dtype {bound.dtype}")
    return (low > 0) | (high < 0)


def disjoint_studies(values, n_seeds: int) -> np.ndarray:
    """Values (..., n) cut into disjoint studies of n_seeds seeds, (..., n // n_seeds, n_seeds)."""
    check_values(values, "values", None, minimum=1)
    values = np.asarray(values)  # its own dtype: bools stay bools (success per task)
    n_seeds = check_integer(n_seeds, "n_seeds", 1)
    if n_seeds > values.shape[-1]:
        raise InputError(f"values must hold at least n_seeds = {n_seeds} seeds, got {values.shape[-1]}")
    return _disjoint_studies(values, n_seeds)


def _disjoint_studies(values: np.ndarray, n_seeds: int) -> np.ndarray:
    studies = values.shape[-1] // n_seeds
    return values[..., : studies * n_seeds].reshape(*values.shape[:-1], studies, n_seeds)


def coverage_table(values, truth: float, sizes=(2, 5, 10, 30, 100), methods=INTERVAL_METHODS,
                   n_resamples: int = COVERAGE_RESAMPLES, random_seed: int = RESAMPLING_SEED) -> pd.DataFrame:  # fmt: skip
    """Per (size, method), how often a 95 % interval holds `truth` (Clopper-Pearson bounds), and its width."""
    values = check_values(values, "values", 1)
    truth = check_real(truth, "truth")
    sizes = [
        check_integer(n, "sizes", 2, len(values)) for n in check_items(sizes, object, "sizes", "sizes", 1)
    ]
    methods = [check_choice(m, "methods", INTERVAL_METHODS) for m in check_items(methods, object, "methods",
                                                                                  "method names", 1)]  # fmt: skip
    check_count(n_resamples, "n_resamples", 1)
    check_integer(random_seed, "random_seed", 0)
    rows = []
    for n_seeds in sizes:
        studies = _disjoint_studies(values, n_seeds)
        for method in methods:
            low, high = _interval(studies, method, n_resamples, random_seed)
            covered = int(((low <= truth) & (truth <= high)).sum())
            share = stats.binomtest(covered, len(studies)).proportion_ci(CONFIDENCE)
            rows.append({"n_seeds": n_seeds, "studies": len(studies), "method": method, "covered": covered,
                         "coverage": covered / len(studies), "coverage_low": share.low,
                         "coverage_high": share.high, "width": float(np.mean(high - low))})  # fmt: skip
    return pd.DataFrame(rows)


def percentile_width_ratio(n_seeds: int, confidence: float = CONFIDENCE) -> float:
    """The percentile bootstrap's width over the t interval's for n normal values: z sqrt((n-1)/n) / t."""
    n_seeds = check_integer(n_seeds, "n_seeds", 2)
    confidence = check_share(confidence, "confidence")
    q = (1 + confidence) / 2
    return float(stats.norm.ppf(q) * np.sqrt((n_seeds - 1) / n_seeds) / stats.t.ppf(q, n_seeds - 1))
