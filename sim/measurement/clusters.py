"""Tasks as clusters: the difference between two setups task kind by task kind, and an interval over
tasks stratified by kind (lesson 5).

The 24 tasks were drawn by the world's generator (`sim.model.tasks`): each task's kind with the
weights KIND_WEIGHTS, then a subscriber. An interval over the 24 tasks (each task one draw)
speaks for task sets drawn the same way, kinds in random numbers. Stratified by kind, it speaks
for task sets with these kinds in these numbers (6 charge, 8 consumption, 7 document, 3 record
tasks here), each kind's tasks drawn anew: the standard stratified-sampling estimate (the kinds'
means weighted by their share of the tasks) with its standard error, and Welch-Satterthwaite
degrees of freedom for the t quantile (Cochran, "Sampling Techniques", 1977).
"""

import numpy as np
import pandas as pd
from scipy import stats

from sim.engine.units import unit_named
from sim.measurement.batch import BatchRun
from sim.measurement.intervals import CONFIDENCE, _t_interval
from sim.measurement.study import paired_outcomes
from sim.model.errors import InputError
from sim.model.tasks import TASKS

KINDS = tuple(dict.fromkeys(task.kind for task in TASKS))  # in the order the tasks first show them


def _per_task(first: BatchRun, second: BatchRun, unit: str, n_seeds: int) -> np.ndarray:
    """Second minus first per (task, seed), as a share of a task (success) or a count: (24, n_seeds)."""
    return paired_outcomes(first, second, unit, n_seeds).astype(float)


def kind_table(first: BatchRun, second: BatchRun, unit: str, n_seeds: int) -> pd.DataFrame:
    """The difference (second minus first) within each task kind, with its t interval over seeds.

    Parameters
    ----------
    first, second : BatchRun
        The two setups on the same seeds and budget.
    unit : str
        A counted unit (sim.engine.units.UNIT_NAMES).
    n_seeds : int
        The first n_seeds seeds of the runs, >= 2.

    Returns
    -------
    pandas.DataFrame
        One row per kind: kind, tasks, difference (per task of the kind: a share of tasks solved
        for success, a count per task otherwise), low and high (95 % t interval over the seeds).

    Raises
    ------
    InputTypeError, InputError
        As `sim.measurement.study.paired_outcomes`.
    """
    differences = _per_task(first, second, unit, n_seeds)
    rows = []
    for kind in KINDS:
        mask = np.array([task.kind == kind for task in TASKS])
        per_seed = differences[mask].mean(axis=0)  # the kind's mean difference per task, at each seed
        low, high = _t_interval(per_seed)
        rows.append({"kind": kind, "tasks": int(mask.sum()), "difference": float(per_seed.mean()),
                     "low": float(low), "high": float(high)})  # fmt: skip
    return pd.DataFrame(rows)


def task_intervals(first: BatchRun, second: BatchRun, unit: str, n_seeds: int) -> pd.DataFrame:
    """Intervals over tasks for the difference per run of 24 tasks: each task one draw, plain and
    stratified by kind.

    Parameters
    ----------
    first, second, unit, n_seeds
        As `kind_table`.

    Returns
    -------
    pandas.DataFrame
        Two rows, interval "tasks" (t interval over the 24 per-task mean differences, 23 degrees of
        freedom) and "tasks, stratified by kind" (the kinds' means weighted by their share of
        tasks; standard error sqrt(sum w_k^2 s_k^2 / n_k); Welch-Satterthwaite degrees of
        freedom): columns interval, difference, low, high, df. Per run of 24 tasks: a share of
        tasks for success, a count per run otherwise.

    Raises
    ------
    InputTypeError, InputError
        As `sim.measurement.study.paired_outcomes`; and for a kind with a single task (no spread to estimate).
    """
    per_task = _per_task(first, second, unit, n_seeds).mean(axis=1)  # one value per task
    n_tasks = len(per_task)
    scale = 1.0 if unit_named(unit).share else float(n_tasks)  # per run of the 24 tasks
    low, high = _t_interval(per_task)
    rows = [{"interval": "tasks", "difference": per_task.mean() * scale, "low": float(low) * scale,
             "high": float(high) * scale, "df": float(n_tasks - 1)}]  # fmt: skip
    weights, variances, sizes, means = [], [], [], []
    for kind in KINDS:
        values = per_task[[task.kind == kind for task in TASKS]]
        weights.append(len(values) / n_tasks)
        sizes.append(len(values))
        means.append(values.mean())
        variances.append(values.var(ddof=1))
    w, v, n, m = (np.array(x) for x in (weights, variances, sizes, means))
    if (n < 2).any():
        raise InputError("every kind must hold at least 2 tasks for a stratified interval")
    terms = w**2 * v / n
    error = np.sqrt(terms.sum())
    df = terms.sum() ** 2 / np.sum(terms**2 / (n - 1))
    half = stats.t.ppf((1 + CONFIDENCE) / 2, df) * error
    estimate = float(np.sum(w * m))
    rows.append({"interval": "tasks, stratified by kind", "difference": estimate * scale,
                 "low": (estimate - half) * scale, "high": (estimate + half) * scale, "df": float(df)})  # fmt: skip
    return pd.DataFrame(rows)
