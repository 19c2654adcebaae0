"""Each two-run verdict beside what many seeds say: the mean paired difference between two setups
over 10,000 seeds with its 95 % interval, and whether the two-run band rule (AA30) agrees.

Any setup runs here on its batch path (`sim.batch` for the loops, `sim.batch_contract` for the
contract), both proven equal to the one-seed path. The interval is Student's t interval of the
mean per-seed difference (scipy.stats); at 10,000 seeds it and the bootstrap intervals of lesson 5
agree to the printed digits. Introduced for lessons 1 to 4 (issue: every claim earns its evidence).
"""

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from sim.bands import MEASURED, BandVerdict
from sim.batch import BatchRun, batch_run, check_paired_runs, study_seeds
from sim.batch_contract import RIGHT, contract_batch, planner_tapes
from sim.checks import check_instance, check_integer, check_items, check_seed
from sim.config import DEFAULT_SEED, PLANNING_STEPS, RunConfig
from sim.errors import InputError, InputTypeError
from sim.picks import expected_right_share
from sim.tasks import TASKS
from sim.units import unit_named
from sim.world import TOOL_NAMES

MANY_SEEDS = 10000  # seeds DEFAULT_SEED .. DEFAULT_SEED + 9999: runs A and B are the first two
CONFIDENCE = 0.95


def many_seed_run(config: RunConfig, n_seeds: int = MANY_SEEDS, first: int = DEFAULT_SEED) -> BatchRun:
    """A RunConfig over the seeds first .. first + n_seeds - 1 on its batch path (any setup).

    Raises
    ------
    InputTypeError, InputError
        For a config that is not a RunConfig, or a bad n_seeds or first seed.
    """
    check_instance(config, RunConfig, "config", "a RunConfig (from sim.run_config)")
    seeds = study_seeds(check_integer(n_seeds, "n_seeds", 2), check_seed(first, "first"))
    return contract_batch(config, seeds) if config.setup == "contract" else batch_run(config, seeds)


def paired_difference(first: BatchRun, second: BatchRun, unit: str) -> dict:
    """The mean per-seed difference (second minus first) of one unit, summed over the 24 tasks (a
    share of the tasks for success), with its 95 % t interval and the number of seeds.

    Raises
    ------
    InputTypeError, InputError
        For runs that are not BatchRuns of the same seeds, or an unknown unit.
    """
    check_paired_runs(first, second)
    spec = unit_named(unit)
    scale = 1 / first.correct.shape[0] if spec.share else 1
    per_seed = (
        getattr(second, spec.per_task).sum(axis=0) - getattr(first, spec.per_task).sum(axis=0)
    ) * scale
    mean, low, high = t_interval(per_seed)
    return {"unit": spec.name, "mean": mean, "low": low, "high": high, "n_seeds": len(per_seed)}


def t_interval(values: np.ndarray) -> tuple[float, float, float]:
    """The mean of `values` (shape (n_seeds,), one per seed) with its 95 % Student's t interval
    (scipy.stats.ttest_1samp); all three the mean when the values do not vary. Lessons 4 and 6."""
    mean = float(values.mean())
    if np.ptp(values) == 0:
        return mean, mean, mean
    low, high = stats.ttest_1samp(values, 0).confidence_interval(CONFIDENCE)
    return mean, float(low), float(high)


def _direction(values: Sequence[float]) -> int:
    signs = {int(np.sign(v)) for v in values}
    return signs.pop() if len(signs) == 1 else 0


def beside_many_seeds(verdicts: Sequence[BandVerdict], first: BatchRun, second: BatchRun) -> pd.DataFrame:
    """Each unit's two-run verdict beside the many-seed paired difference, and whether they agree.

    Parameters
    ----------
    verdicts : Sequence[BandVerdict]
        The two-run verdicts (from `sim.compare_setups`), one per counted unit.
    first, second : BatchRun
        The same two setups over many seeds (`many_seed_run`), in the same order as the verdicts.

    Returns
    -------
    pandas.DataFrame
        One row per unit: unit; "two runs" (the band rule's verdict and, when measured, its
        direction); "mean difference" and "95 % interval" over the seeds (second minus first, per run
        of 24 tasks, a share for success); "many seeds" (resolved up or down, or "no effect shown"
        when the interval holds zero); "agrees" ("yes" when both are resolved the same way or
        both are not; otherwise what differs).
    """
    verdicts = check_items(verdicts, BandVerdict, "verdicts", "BandVerdicts (from sim.compare_setups)", 1)
    rows = []
    for verdict in verdicts:
        many = paired_difference(first, second, verdict.unit)
        resolved = many["low"] > 0 or many["high"] < 0
        many_direction = int(np.sign(many["mean"])) if resolved else 0
        two_direction = _direction(verdict.differences) if verdict.verdict == MEASURED else 0
        word = {1: "up", -1: "down", 0: ""}
        if (verdict.verdict == MEASURED) == resolved and two_direction == many_direction:
            agrees = "yes"
        elif verdict.verdict == MEASURED and not resolved:
            agrees = "no: measured on 2 runs, no effect over many seeds"
        elif verdict.verdict == MEASURED:
            agrees = "no: measured the opposite direction"
        else:
            agrees = "no: an effect the 2 runs left unmeasured"
        digits = 4 if unit_named(verdict.unit).share else 2
        rows.append({
            "unit": verdict.unit,
            "two runs": f"{verdict.verdict} {word[two_direction]}".strip(),
            "mean difference": f"{many['mean']:+.{digits}f}",
            "95 % interval": f"[{many['low']:+.{digits}f}, {many['high']:+.{digits}f}]",
            "many seeds": f"resolved {word[many_direction]}" if resolved else "no effect shown",
            "agrees": agrees,
        })  # fmt: skip
    return pd.DataFrame(rows)


def fully_right_plans(n_seeds: int = MANY_SEEDS, first: int = DEFAULT_SEED) -> pd.DataFrame:
    """How often the planner's first plan is right at every position, by plan length, over many
    seeds, beside the model's share (lesson 2, rules AA24 and AA29).

    A position is right when the draw takes the right tool (share selection(1)) or the random
    pick lands on it (share 1/5 of the rest): expected_right_share(1) = 0.84 a position, so a plan
    of length L is fully right with share 0.84^L.

    Returns
    -------
    pandas.DataFrame
        One row per plan length: length, plans (tasks x seeds), fully right (count), share, model.
    """
    seeds = study_seeds(check_integer(n_seeds, "n_seeds", 1), check_seed(first, "first"))
    longest = max(len(task.sequence) for task in TASKS)
    tapes = planner_tapes(seeds, longest)
    wanted = np.array([[TOOL_NAMES.index(tool) for tool in task.sequence] + [-2] * (longest - len(task.sequence))
                       for task in TASKS])  # fmt: skip
    right = (tapes == RIGHT) | (tapes == wanted[:, None, :])
    rows = []
    for length in sorted({len(task.sequence) for task in TASKS}):
        tasks = [t for t, task in enumerate(TASKS) if len(task.sequence) == length]
        full = right[tasks][:, :, :length].all(axis=2)
        rows.append({"length": length, "plans": full.size, "fully right": int(full.sum()),
                     "share": float(full.mean()), "model": expected_right_share(1) ** length})  # fmt: skip
    return pd.DataFrame(rows)


def extra_steps(setup: str, seeds, cap: int = 20) -> np.ndarray:
    """Steps each task needed beyond its plan (planning steps + sequence length) under lesson 3's
    SB1 (stop when done), with a budget of `cap` steps that should not bind; shape (24, n_seeds).

    Raises
    ------
    InputTypeError, InputError
        For a setup without a batch path, bad seeds, a bad cap, or a cap that did bind (a run
        ended by the budget rather than by SB1: raise the cap).
    """
    run = batch_run(RunConfig(setup, cap, stop_when_done=True), seeds)
    if not run.stopped.all():
        raise InputError(f"cap must let every run finish, got {cap}: raise it")
    lengths = np.array([len(task.sequence) for task in TASKS])[:, None]
    return run.steps - PLANNING_STEPS[setup] - lengths


def smallest_margin(extra: np.ndarray, coverage: float) -> int:
    """The smallest margin (steps) with which at least `coverage` of the task runs in `extra` finish
    (lesson 3's SB2, tuned on a block of seeds).

    Raises
    ------
    InputTypeError, InputError
        For `extra` that is not an integer array, or coverage outside (0, 1].
    """
    if not isinstance(extra, np.ndarray) or extra.dtype.kind not in "iu":
        raise InputTypeError(f"extra must be an integer array (from extra_steps), got {type(extra).__name__}")
    if not isinstance(coverage, float | int) or isinstance(coverage, bool) or not 0 < coverage <= 1:
        raise InputError(f"coverage must be a share in (0, 1], got {coverage!r}")
    return int(np.quantile(extra, coverage, method="higher"))
