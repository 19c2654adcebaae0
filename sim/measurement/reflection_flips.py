"""Lesson 8's counts of the reflection rules RF1-RF3 (`sim.model.reflection`): how often a revised pick
turned a wrong pick right or a right pick wrong, read from the runs' step logs (LoopStep.revised_from)."""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from sim.engine.config import RunConfig
from sim.engine.loops import Run, check_run
from sim.measurement.batch import BatchRun, batch_run, run_grid, seed_by_seed
from sim.measurement.harness import LESSON_SEEDS, headline_first, run_bands
from sim.measurement.many_seeds import beside_many_seeds, paired_difference
from sim.model.checks import check_instance, check_items, check_seeds
from sim.model.errors import InputError
from sim.model.tasks import TASKS


@dataclass(frozen=True)
class Flips:
    """Revised picks counted: wrong to right, right to wrong, wrong to another wrong; runs: task runs."""

    wrong_to_right: int
    right_to_wrong: int
    wrong_to_wrong: int
    runs: int

    @property
    def revised(self) -> int:
        """Every pick a rule replaced."""
        return self.wrong_to_right + self.right_to_wrong + self.wrong_to_wrong

    def per_run(self, name: str) -> float:
        """A count per task run (`name` a field or "revised")."""
        return getattr(self, name) / self.runs


def _counts(run: Run) -> tuple[int, int, int]:
    revised = [step for step in run.log if step.revised_from is not None]
    before = [step.revised_from == step.target for step in revised]
    wrong_to_right = sum(step.right and not was for step, was in zip(revised, before, strict=True))
    right_to_wrong = sum(was and not step.right for step, was in zip(revised, before, strict=True))
    return wrong_to_right, right_to_wrong, len(revised) - wrong_to_right - right_to_wrong


def reflection_flips(run: object) -> tuple[int, int]:
    """One loop run's flips under RF1-RF3: (wrong picks revised to the right tool, right picks revised
    to a wrong one); (0, 0) when the rule is off. Raises InputTypeError, InputError for anything but a
    loop Run."""
    run = check_run(run, setups=("single-loop", "plan-execute"))
    return _counts(run)[:2]


def _check_loop_config(config: object, name: str = "config") -> RunConfig:
    config = check_instance(config, RunConfig, name, "a RunConfig")
    if config.setup not in ("single-loop", "plan-execute"):
        raise InputError(f"{name} must be of setup single-loop or plan-execute, got {config.setup!r}")
    return config


def reflection_batch(config: object, seeds) -> tuple[BatchRun, Flips]:
    """A loop configuration on all 24 tasks at each seed, run seed by seed once: its BatchRun (equal to
    `batch_run`'s) and its flips summed. Raises InputTypeError, InputError for a config that is not a
    loop RunConfig or bad seeds."""
    config, seeds = _check_loop_config(config), check_seeds(seeds)
    return _batch(config, tuple(seeds.tolist()))


@lru_cache(maxsize=32)
def _batch(config: RunConfig, seeds: tuple[int, ...]) -> tuple[BatchRun, Flips]:
    """`reflection_batch` on checked input: the runs of `run_grid`, their BatchRun and their flips."""
    totals = np.array([_counts(run) for row in run_grid(config, seeds) for run in row]).sum(axis=0)
    return seed_by_seed(config, np.array(seeds)), Flips(
        *(int(t) for t in totals), runs=len(TASKS) * len(seeds)
    )


def reflection_score(entrant: object, baseline: object, seeds) -> tuple[pd.DataFrame, Flips]:
    """`sim.measurement.harness.score` of a loop configuration against a loop baseline at `seeds` (the
    same table), with the entrant's flips, its runs made once and kept for `reflection_table`. Raises
    as `reflection_batch`."""
    entrant, baseline = _check_loop_config(entrant, "entrant"), _check_loop_config(baseline, "baseline")
    seeds = check_seeds(seeds)
    lesson = np.array(LESSON_SEEDS, dtype=np.int64)
    verdicts = run_bands(batch_run(baseline, lesson), batch_run(entrant, lesson))
    run, flips = reflection_batch(entrant, seeds)
    return headline_first(beside_many_seeds(verdicts, batch_run(baseline, seeds), run)), flips


def flips_over(config: object, seeds) -> Flips:
    """The flips of a loop configuration on all 24 tasks at each seed, summed (run seed by seed).
    Raises as `reflection_batch`."""
    return reflection_batch(config, seeds)[1]


UNITS_SHOWN = ("success", "tokens", "tool errors")


def reflection_table(baseline: object, variants: dict, seeds) -> pd.DataFrame:
    """Each variant (label -> loop RunConfig) against `baseline` on the same seeds: per unit of
    UNITS_SHOWN the mean same-seed difference (variant minus baseline) and its 95 % t interval, and
    the variant's flips per task run (wrong to right, right to wrong). Raises as `reflection_batch`."""
    baseline, seeds = _check_loop_config(baseline, "baseline"), check_seeds(seeds)
    if not isinstance(variants, dict) or not variants:
        raise InputError("variants must be a non-empty dict label -> RunConfig")
    check_items(list(variants.values()), RunConfig, "variants", "RunConfigs", 1)
    base, rows = batch_run(baseline, seeds), []
    for label, config in variants.items():
        run, flips = reflection_batch(_check_loop_config(config, f"variants[{label!r}]"), seeds)
        row = {"variant": label}
        for unit in UNITS_SHOWN:
            d = paired_difference(base, run, unit)
            row.update({unit: d["mean"], f"{unit} low": d["low"], f"{unit} high": d["high"]})
        row.update({"wrong to right": flips.per_run("wrong_to_right"),
                    "right to wrong": flips.per_run("right_to_wrong")})  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows)
