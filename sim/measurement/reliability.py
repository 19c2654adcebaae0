"""Reliability and cost as users meet them (lesson 5): pass^k and pass@k from the few trials per task
real benchmarks run, and tokens per solved task with its interval.

pass^k (Yao et al., "tau-bench", 2024) is the chance that k trials of a task all succeed; pass@k
(Chen et al., "Evaluating Large Language Models Trained on Code", 2021) the chance that at least
one of k does. From n trials per task with c successes, the unbiased estimators are the mean over
tasks of C(c, k) / C(n, k) and of 1 - C(n - c, k) / C(n, k). Here a trial is a seed.
"""

import numpy as np
import pandas as pd
from scipy import special, stats

from sim.measurement.batch import BatchRun
from sim.measurement.intervals import CONFIDENCE, RESAMPLES, RESAMPLING_SEED, _disjoint_studies, _t_interval
from sim.measurement.study import pass_hat_k
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
    """Each task's unbiased estimate from its trials: C(c, k) / C(n, k) (pass^k) or, with
    at_least_one, 1 - C(n - c, k) / C(n, k) (pass@k).

    Parameters
    ----------
    correct : numpy.ndarray
        Bool, shape (..., n_tasks, n_trials): each task's trials (more leading axes: studies).
    k : int
        Trials that must all succeed (pass^k) or of which one must (pass@k), 1..n_trials.
    at_least_one : bool
        False for pass^k, True for pass@k.

    Returns
    -------
    numpy.ndarray
        Shape (..., n_tasks): shares in [0, 1].

    Raises
    ------
    InputTypeError, InputError
        For `correct` that is not an array of bools (or 0/1) with trials on its last axis, or a bad k.
    """
    if not isinstance(correct, np.ndarray) or correct.ndim < 2 or correct.dtype.kind not in "biu":
        shape = getattr(correct, "shape", None)
        raise InputTypeError(f"correct must be an array (..., tasks, trials) of bools, got shape {shape}")
    n = correct.shape[-1]
    k = check_integer(k, "k", 1, n)
    at_least_one = check_switch(at_least_one, "at_least_one")
    c = correct.sum(axis=-1)
    if at_least_one:
        return 1 - special.comb(n - c, k) / special.comb(n, k)
    return special.comb(c, k) / special.comb(n, k)


def trial_table(run: BatchRun, n_trials: int, ks) -> pd.DataFrame:
    """pass^k and pass@k as a benchmark with n_trials trials per task measures them: over disjoint
    studies of n_trials seeds, against the value over all the run's seeds.

    Parameters
    ----------
    run : BatchRun
        One setup over many seeds (a seed is a trial of every task).
    n_trials : int
        Trials per task in one study, >= 1 (4 and 8 in the lesson).
    ks : Sequence[int]
        Values of k, each 1..n_trials.

    Returns
    -------
    pandas.DataFrame
        One row per k: k, studies, all_seeds (pass^k over all the run's seeds), mean (of the
        studies' pass^k: unbiased, so close to all_seeds), sd, p5 and p95 (the studies' spread),
        covered (share of studies whose 95 % t interval over the 24 tasks holds all_seeds),
        pass_at_k (mean of the studies' pass@k).

    Raises
    ------
    InputTypeError, InputError
        For a run that is not a BatchRun, n_trials outside 1..(seeds run) / 2, or a k outside 1..n_trials.
    """
    run = check_instance(run, BatchRun, "run", "a BatchRun (from run_batch)")
    n_trials = check_integer(n_trials, "n_trials", 1, run.correct.shape[1] // 2)  # 2 studies at least
    studies = np.moveaxis(_disjoint_studies(run.correct, n_trials), 1, 0).astype(
        bool
    )  # (studies, tasks, trials)
    rows = []
    for k in check_items(ks, object, "ks", "values of k", 1):
        k = check_integer(k, "ks", 1, n_trials)
        tasks = per_task_pass(studies, k)  # (studies, tasks)
        estimates = tasks.mean(axis=1)
        truth = pass_hat_k(run.correct, k)
        low, high = _t_interval(tasks)
        rows.append({"k": k, "studies": len(estimates), "all_seeds": truth, "mean": float(estimates.mean()),
                     "sd": float(estimates.std(ddof=1)), "p5": float(np.percentile(estimates, 5)),
                     "p95": float(np.percentile(estimates, 95)),
                     "covered": float(((low <= truth) & (truth <= high)).mean()),
                     "pass_at_k": float(per_task_pass(studies, k, True).mean())})  # fmt: skip
    return pd.DataFrame(rows)


def cost_per_success(run: BatchRun, n_seeds: int, method: str = "BCa", n_resamples: int = RESAMPLES,
                     random_seed: int = RESAMPLING_SEED) -> dict:  # fmt: skip
    """Tokens per solved task over the first n_seeds seeds, with a bootstrap interval over seeds
    (each seed's tokens and tasks solved resampled together), and the success share with its t interval.

    Parameters
    ----------
    run : BatchRun
        One setup over many seeds.
    n_seeds : int
        The first n_seeds seeds, >= 2.
    method : str
        "BCa" or "percentile" (a ratio of sums has no t interval of its own here).
    n_resamples, random_seed : int
        The bootstrap's settings.

    Returns
    -------
    dict
        tokens_per_success, low, high (tokens per solved task and its 95 % interval); success,
        success_low, success_high (share of tasks solved and its 95 % t interval over seeds).

    Raises
    ------
    InputTypeError, InputError
        For a bad run, n_seeds, method or bootstrap settings.
    """
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
