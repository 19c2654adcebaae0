"""Reliability and cost (lesson 5): pass^k (tau-bench), pass@k (Chen et al. 2021), tokens per solved task."""

import numpy as np
import pandas as pd
from scipy import stats

from sim.measurement.batch import BatchRun
from sim.measurement.intervals import CONFIDENCE, RESAMPLES, RESAMPLING_SEED, _disjoint_studies, _t_interval
from sim.measurement.study import _task_pass
from sim.model.checks import (
    check_choice,
    check_count,
    check_instance,
    check_integer,
    check_items,
    check_switch,
)
from sim.model.errors import InputTypeError

TRIAL_COUNTS = (4, 8)  # trials per task, as benchmarks run them (tau-bench: up to 8; Inspect: epochs)


def per_task_pass(correct, k: int, at_least_one: bool = False) -> np.ndarray:
    """Each task's pass^k, C(c, k) / C(n, k), or with at_least_one pass@k, 1 - C(n - c, k) / C(n, k)."""
    if not isinstance(correct, np.ndarray) or correct.ndim < 2 or correct.dtype.kind not in "biu":
        shape = getattr(correct, "shape", None)
        raise InputTypeError(f"correct must be an array (..., tasks, trials) of bools, got shape {shape}")
    k = check_integer(k, "k", 1, correct.shape[-1])
    return _task_pass(correct, k, check_switch(at_least_one, "at_least_one"))


def trial_table(run: BatchRun, n_trials: int, ks) -> pd.DataFrame:
    """pass^k and pass@k over disjoint studies of n_trials seeds against pass^k over all seeds, per k."""
    run = check_instance(run, BatchRun, "run", "a BatchRun (from run_batch)")
    n_trials = check_integer(n_trials, "n_trials", 1, run.correct.shape[1] // 2)  # 2 studies at least
    # (studies, tasks, trials)
    studies = np.moveaxis(_disjoint_studies(run.correct, n_trials), 1, 0).astype(bool)
    rows = []
    for k in check_items(ks, object, "ks", "values of k", 1):
        k = check_integer(k, "ks", 1, n_trials)
        tasks = _task_pass(studies, k)  # (studies, tasks)
        estimates = tasks.mean(axis=1)
        truth = float(np.mean(_task_pass(run.correct, k)))  # pass_hat_k over all the seeds
        low, high = _t_interval(tasks)
        rows.append({"k": k, "studies": len(estimates), "all_seeds": truth, "mean": float(estimates.mean()),
                     "sd": float(estimates.std(ddof=1)), "p5": float(np.percentile(estimates, 5)),
                     "p95": float(np.percentile(estimates, 95)),
                     "covered": float(((low <= truth) & (truth <= high)).mean()),
                     "pass_at_k": float(_task_pass(studies, k, True).mean())})  # fmt: skip
    return pd.DataFrame(rows)


def cost_per_success(run: BatchRun, n_seeds: int, method: str = "BCa", n_resamples: int = RESAMPLES,
                     random_seed: int = RESAMPLING_SEED) -> dict:  # fmt: skip
    """Tokens per solved task (bootstrap interval) and the success share (t interval), first n_seeds seeds."""
    run = check_instance(run, BatchRun, "run", "a BatchRun (from run_batch)")
    n_seeds = check_integer(n_seeds, "n_seeds", 2, len(run.seeds))
    method = check_choice(method, "method", ("BCa", "percentile"))
    check_count(n_resamples, "n_resamples", 1)
    random_seed = check_integer(random_seed, "random_seed", 0)
    totals = run.head(n_seeds).per_seed()
    tokens, solved = totals.tokens.astype(float), totals.solved.astype(float)

    def ratio(t, s, axis=-1):
        return t.sum(axis=axis) / s.sum(axis=axis)

    result = stats.bootstrap((tokens, solved), ratio, paired=True, vectorized=True, method=method,
                             n_resamples=n_resamples, confidence_level=CONFIDENCE,
                             rng=np.random.default_rng(random_seed))  # fmt: skip
    success_low, success_high = _t_interval(totals.success)
    low, high = result.confidence_interval
    return {"tokens_per_success": float(ratio(tokens, solved)), "low": float(low), "high": float(high),
            "success": float(totals.success.mean()), "success_low": float(success_low),
            "success_high": float(success_high)}  # fmt: skip
