"""Tasks as clusters (lesson 5): the difference kind by kind, and an interval over tasks stratified by
kind (Welch-Satterthwaite degrees of freedom, Cochran 1977)."""

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


def kind_table(first: BatchRun, second: BatchRun, unit: str, n_seeds: int) -> pd.DataFrame:
    """The difference (second minus first) per task of each kind, with its 95 % t interval over seeds."""
    differences = paired_outcomes(first, second, unit, n_seeds).astype(float)  # (24, n_seeds)
    rows = []
    for kind in KINDS:
        mask = np.array([task.kind == kind for task in TASKS])
        per_seed = differences[mask].mean(axis=0)  # the kind's mean difference per task, at each seed
        low, high = _t_interval(per_seed)
        rows.append({"kind": kind, "tasks": int(mask.sum()), "difference": float(per_seed.mean()),
                     "low": float(low), "high": float(high)})  # fmt: skip
    return pd.DataFrame(rows)


def task_intervals(first: BatchRun, second: BatchRun, unit: str, n_seeds: int) -> pd.DataFrame:
    """Intervals over tasks, plain and stratified by kind; raises InputError for a kind of 1 task."""
    per_task = paired_outcomes(first, second, unit, n_seeds).astype(float).mean(axis=1)  # a value a task
    n_tasks = len(per_task)
    scale = 1.0 if unit_named(unit).share else float(n_tasks)  # per run of the 24 tasks
    low, high = _t_interval(per_task)
    rows = [{"interval": "tasks", "difference": per_task.mean() * scale, "low": float(low) * scale,
             "high": float(high) * scale, "df": float(n_tasks - 1)}]  # fmt: skip
    kinds = np.array([task.kind for task in TASKS])
    groups = [per_task[kinds == kind] for kind in KINDS]
    n = np.array([len(values) for values in groups])
    w, m, v = n / n_tasks, np.array([g.mean() for g in groups]), np.array([g.var(ddof=1) for g in groups])
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
