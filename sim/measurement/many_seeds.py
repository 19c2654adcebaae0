"""Each two-run verdict beside what many seeds say (lessons 1 to 4): the mean paired difference with
its 95 % t interval, and whether the band rule (AA30) agrees."""

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from sim.engine.config import DEFAULT_SEED, PLANNING_STEPS, RunConfig
from sim.engine.units import UNIT_NAMES, unit_named
from sim.measurement.bands import MEASURED, BandVerdict
from sim.measurement.batch import BatchRun, batch_run, check_paired_runs, study_seeds
from sim.measurement.batch_contract import RIGHT, contract_batch, planner_tapes
from sim.measurement.intervals import CONFIDENCE
from sim.model.checks import check_budget, check_instance, check_integer, check_items
from sim.model.errors import InputError, InputTypeError
from sim.model.picks import expected_right_share
from sim.model.tasks import TASKS
from sim.model.world import TOOL_NAMES

MANY_SEEDS = 10000  # seeds DEFAULT_SEED .. DEFAULT_SEED + 9999: runs A and B are the first two


def many_seed_run(config: RunConfig, n_seeds: int = MANY_SEEDS, first: int = DEFAULT_SEED) -> BatchRun:
    """A RunConfig over the seeds first .. first + n_seeds - 1 on its batch path (any setup)."""
    check_instance(config, RunConfig, "config", "a RunConfig (from sim.run_config)")
    seeds = study_seeds(check_integer(n_seeds, "n_seeds", 2), first)
    return contract_batch(config, seeds) if config.setup == "contract" else batch_run(config, seeds)


def paired_difference(first: BatchRun, second: BatchRun, unit: str) -> dict:
    """The mean per-seed difference (second minus first) of one unit, its truncated t interval, n_seeds."""
    check_paired_runs(first, second)
    spec = unit_named(unit)
    scale = 1 / first.correct.shape[0] if spec.share else 1
    per_seed = (
        getattr(second, spec.per_task).sum(axis=0) - getattr(first, spec.per_task).sum(axis=0)
    ) * scale
    bounds = (-1.0, 1.0) if spec.share else (-np.inf, np.inf)
    mean, low, high, truncated = bounded_t_interval(per_seed, *bounds)
    return {"unit": spec.name, "mean": mean, "low": low, "high": high, "n_seeds": len(per_seed),
            "truncated": truncated}  # fmt: skip


def t_interval(values: np.ndarray) -> tuple[float, float, float]:
    """The mean of `values` with its 95 % t interval; all three the mean when the values do not vary."""
    mean = float(values.mean())
    if np.ptp(values) == 0:
        return mean, mean, mean
    low, high = stats.ttest_1samp(values, 0).confidence_interval(CONFIDENCE)
    return mean, float(low), float(high)


def bounded_t_interval(values: np.ndarray, lowest: float, highest: float) -> tuple[float, float, float, bool]:
    """`t_interval` truncated to lowest..highest: (mean, low, high, whether a bound was cut)."""
    mean, low, high = t_interval(values)
    cut_low, cut_high = max(low, lowest), min(high, highest)
    return mean, float(cut_low), float(cut_high), bool(cut_low != low or cut_high != high)


def _direction(values: Sequence[float]) -> int:
    signs = {int(np.sign(v)) for v in values}
    return signs.pop() if len(signs) == 1 else 0


def paired_comparison(first: BatchRun, second: BatchRun, verdicts: Sequence[BandVerdict] | None = None,
                      units: Sequence[str] = UNIT_NAMES) -> pd.DataFrame:  # fmt: skip
    """Each unit's many-seed paired difference beside its two-run verdict (None: no verdict), as numbers."""
    if verdicts is not None:
        verdicts = check_items(
            verdicts, BandVerdict, "verdicts", "BandVerdicts (from sim.measurement.bands.compare_setups)", 1
        )
        units = [verdict.unit for verdict in verdicts]
    word = {1: "up", -1: "down", 0: ""}
    rows = []
    for index, unit in enumerate(units):
        many = paired_difference(first, second, unit)
        resolved = many["low"] > 0 or many["high"] < 0
        many_direction = int(np.sign(many["mean"])) if resolved else 0
        two_runs = agrees = None
        if verdicts is not None:
            verdict = verdicts[index]
            two_direction = _direction(verdict.differences) if verdict.verdict == MEASURED else 0
            two_runs = f"{verdict.verdict} {word[two_direction]}".strip()
            if (verdict.verdict == MEASURED) == resolved and two_direction == many_direction:
                agrees = "yes"
            elif verdict.verdict == MEASURED and not resolved:
                agrees = f"no: measured on {len(verdict.differences)} runs, no effect over many seeds"
            elif verdict.verdict == MEASURED:
                agrees = "no: measured the opposite direction"
            else:
                agrees = f"no: an effect the {len(verdict.differences)} runs left unmeasured"
        rows.append({"unit": many["unit"], "two_runs": two_runs, "mean": many["mean"], "low": many["low"],
                     "high": many["high"], "truncated": many["truncated"],
                     "many_seeds": f"resolved {word[many_direction]}" if resolved else "no effect shown",
                     "agrees": agrees})  # fmt: skip
    return pd.DataFrame(rows)


def signed(value: float, unit: str) -> str:
    """A difference as the lessons print it: signed, 4 decimals for a share (success), 2 for a count;
    a value not 0 that would round to 0 gets the decimals that show its first digit (-0.00003)."""
    decimals, value = 4 if unit_named(unit).share else 2, value or 0.0  # no "-0.0000"
    while value and abs(value) < 0.5 * 10**-decimals and decimals < 12:
        decimals += 1
    return f"{value:+.{decimals}f}"


def comparison_text(table: pd.DataFrame) -> pd.DataFrame:
    """A `paired_comparison` table as the lessons print it (`signed`; a truncated interval marked "*")."""
    check_instance(table, pd.DataFrame, "table", "a DataFrame (from paired_comparison)")
    missing = {"unit", "two_runs", "mean", "low", "high", "truncated", "many_seeds", "agrees"} - set(table)
    if missing:
        raise InputError(
            f"table must be a table from paired_comparison, it lacks {', '.join(sorted(missing))}"
        )
    text = pd.DataFrame({
        "unit": table["unit"].tolist(),
        "two runs": table["two_runs"].tolist(),
        "mean difference": [signed(row.mean, row.unit) for row in table.itertuples()],
        "95 % interval": [f"[{signed(row.low, row.unit)}, {signed(row.high, row.unit)}]" + ("*" if row.truncated else "")
                          for row in table.itertuples()],  # fmt: skip
        "many seeds": table["many_seeds"].tolist(),
        "agrees": table["agrees"].tolist(),
    })  # fmt: skip
    return text.drop(columns=["two runs", "agrees"]) if table["two_runs"].isna().all() else text


def beside_many_seeds(verdicts: Sequence[BandVerdict], first: BatchRun, second: BatchRun) -> pd.DataFrame:
    """Each unit's two-run verdict beside the many-seed paired difference of the same setups, as text."""
    return comparison_text(paired_comparison(first, second, verdicts))


def fully_right_plans(n_seeds: int = MANY_SEEDS, first: int = DEFAULT_SEED) -> pd.DataFrame:
    """By plan length, how often the first plan is fully right, beside the model's share (AA24, AA29)."""
    seeds = study_seeds(n_seeds, first)
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
    """Steps beyond planning + sequence under SB1, (24, n_seeds); raises InputError if `cap` bound a run."""
    run = batch_run(RunConfig(setup, check_budget(cap, "cap"), stop_when_done=True), seeds)
    if not run.stopped.all():
        raise InputError(f"cap must let every run finish, got {cap}: raise it")
    lengths = np.array([len(task.sequence) for task in TASKS])[:, None]
    return run.steps - PLANNING_STEPS[setup] - lengths


def smallest_margin(extra: np.ndarray, coverage: float) -> int:
    """The smallest margin (steps) with which at least `coverage` of the runs in `extra` finish (SB2)."""
    if not isinstance(extra, np.ndarray) or extra.dtype.kind not in "iu":
        raise InputTypeError(f"extra must be an integer array (from extra_steps), got {type(extra).__name__}")
    if not isinstance(coverage, float | int) or isinstance(coverage, bool) or not 0 < coverage <= 1:
        raise InputError(f"coverage must be a share in (0, 1], got {coverage!r}")
    return int(np.quantile(extra, coverage, method="higher"))
