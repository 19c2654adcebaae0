"""The fan-out tasks over many seeds (lesson 8): each schedule's counts by width, and the same-seed
comparison of parallel steps (PX1) against the sequential schedule, with 95 % t intervals."""

from functools import lru_cache

import numpy as np
import pandas as pd

from sim.engine.contract import Bounds
from sim.engine.fan_out import FAN_OUT_BOUNDS, check_bounds, run_fan_out
from sim.measurement.many_seeds import t_interval
from sim.model.checks import check_seeds, check_switch
from sim.model.fan_out_tasks import FAN_OUT_TASKS, WIDTHS

FIELDS = ("correct", "steps", "calls", "tokens", "seconds", "errors", "replans")


def fan_out_outcomes(seeds, parallel_steps: bool, bounds: Bounds = FAN_OUT_BOUNDS) -> dict[str, np.ndarray]:
    """Every fan-out task at every seed: FIELDS (and "bound", a bound stopped the run), each an array
    (12 tasks, n seeds). Raises InputTypeError, InputError for bad seeds, as `fan_out_run` otherwise."""
    seeds, bounds = tuple(check_seeds(seeds).tolist()), check_bounds(bounds)
    parallel_steps = check_switch(parallel_steps, "parallel_steps")
    return {name: values.copy() for name, values in _outcomes(seeds, parallel_steps, bounds).items()}


@lru_cache(maxsize=16)
def _outcomes(seeds: tuple[int, ...], parallel_steps: bool, bounds: Bounds) -> dict[str, np.ndarray]:
    """`fan_out_outcomes` kept for reuse (a lesson asks for the same seeds' tables several times)."""
    runs = [[run_fan_out(task, seed, parallel_steps, bounds) for seed in seeds] for task in FAN_OUT_TASKS]
    out = {name: np.array([[getattr(run, name) for run in row] for row in runs]) for name in FIELDS}
    out["bound"] = np.array([[run.stop_reason.startswith("max_") and run.stop_reason != "max_replans"
                              for run in row] for row in runs])  # fmt: skip
    return out


def _by_width(values: np.ndarray) -> dict[int, np.ndarray]:
    """Per width, each seed's mean over the width's tasks (n seeds)."""
    widths = np.array([task.width for task in FAN_OUT_TASKS])
    return {width: values[widths == width].mean(axis=0) for width in WIDTHS}


def schedule_table(seeds, parallel_steps: bool, bounds: Bounds = FAN_OUT_BOUNDS) -> pd.DataFrame:
    """One schedule by width: the share of runs with the correct answer, and the mean steps, calls,
    tokens and simulated seconds per run, and the share of runs a bound stopped."""
    out = fan_out_outcomes(seeds, parallel_steps, bounds)
    rows = []
    for width in WIDTHS:
        row = {"width": width}
        for name in ("correct", "steps", "calls", "tokens", "seconds", "bound"):
            row["success" if name == "correct" else name] = float(
                _by_width(out[name].astype(float))[width].mean()
            )
        rows.append(row)
    return pd.DataFrame(rows)


def speedup_table(seeds, bounds: Bounds = FAN_OUT_BOUNDS) -> pd.DataFrame:
    """Parallel steps against the sequential schedule by width, at the same seeds: the speed-up (each
    seed's sequential seconds over its parallel seconds, the width's tasks summed) and the parallel
    minus sequential differences of seconds, tokens, calls and success (each seed's mean over the
    width's tasks), each a mean with its 95 % t interval over the seeds."""
    sequential, parallel = fan_out_outcomes(seeds, False, bounds), fan_out_outcomes(seeds, True, bounds)
    widths = np.array([task.width for task in FAN_OUT_TASKS])
    rows = []
    for width in WIDTHS:
        mine = widths == width
        ratio = sequential["seconds"][mine].sum(axis=0) / parallel["seconds"][mine].sum(axis=0)
        row = {"width": width, "speedup": t_interval(ratio)}
        for name in ("seconds", "tokens", "calls", "correct"):
            difference = parallel[name][mine].astype(float) - sequential[name][mine].astype(float)
            row[name] = t_interval(difference.mean(axis=0))
        rows.append(row)
    return pd.DataFrame(rows)


def speedup_by_replans(seeds, bounds: Bounds = FAN_OUT_BOUNDS) -> pd.DataFrame:
    """The run-by-run speed-up (sequential over parallel seconds) by width and by replans (0, 1, 2) the
    run needed: the runs and their mean speed-up."""
    sequential, parallel = fan_out_outcomes(seeds, False, bounds), fan_out_outcomes(seeds, True, bounds)
    widths = np.array([task.width for task in FAN_OUT_TASKS])[:, None] + 0 * sequential["seconds"]
    ratio = sequential["seconds"] / parallel["seconds"]
    rows = []
    for width in WIDTHS:
        for replans in range(bounds.max_replans + 1):
            mine = (widths == width) & (parallel["replans"] == replans)
            mean = float(ratio[mine].mean()) if mine.any() else float("nan")
            rows.append({"width": width, "replans": replans, "runs": int(mine.sum()), "speedup": mean})
    return pd.DataFrame(rows)
