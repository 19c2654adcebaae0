"""Lesson 8's compacted trace (CP1-CP2, sim.model.compaction) measured as k varies: for each keep_last
the success and tokens of a loop setup against the same setup uncompacted, same-seed differences with
95 % t intervals (`sim.measurement.many_seeds.paired_difference`, the harness's headline), and where
the curve turns. The table is what a cost-success plane draws."""

import numpy as np
import pandas as pd

from sim.engine.config import DEFAULT_BUDGET, PLANNING_STEPS, RunConfig
from sim.measurement.batch import BatchRun, batch_run
from sim.measurement.many_seeds import paired_difference
from sim.model.checks import check_budget, check_count, check_items, check_seeds, check_setup

SWEEP = tuple(range(1, 9))  # the keep_last values of the lesson's sweep
COLUMNS = ("keep_last", "success", "tokens", "tokens per solved", "success lost", "success low",
           "success high", "tokens saved", "saved low", "saved high")  # fmt: skip


def longest_resent_trace(setup: str, budget: int) -> int:
    """The most calls a step of `setup` can re-send at step budget `budget` (steps): the last step's
    trace, budget - planning - 1. At keep_last >= this no step summarizes, so CP1-CP2 change nothing."""
    return max(0, budget - PLANNING_STEPS[setup] - 1)


def sweep_runs(setup: str, keep_lasts, seeds, budget: int = DEFAULT_BUDGET) -> dict:
    """keep_last (None: off) -> the BatchRun of `setup` at `seeds`; a keep_last at or above
    `longest_resent_trace` takes the off run (the same runs, by the rule).

    Raises InputTypeError, InputError for a setup that is not a loop, bad seeds, budget or keep_last."""
    setup = check_setup(setup, allowed=tuple(PLANNING_STEPS))
    budget, seeds = check_budget(budget, "budget"), check_seeds(seeds)
    keep_lasts = [check_count(k, "keep_last", 1) for k in check_items(keep_lasts, object, "keep_lasts",
                                                                        "counts >= 1", 1)]  # fmt: skip
    runs = {None: batch_run(RunConfig(setup, budget), seeds)}
    for k in keep_lasts:
        same = k >= longest_resent_trace(setup, budget)
        runs[k] = runs[None] if same else batch_run(RunConfig(setup, budget, keep_last=k), seeds)
    return runs


def tokens_per_solved(run: BatchRun) -> float:
    """All tokens over all tasks solved (pooled over tasks and seeds); NaN when none is solved."""
    solved = run.correct.sum()
    return float(run.tokens.sum() / solved) if solved else float("nan")


def compaction_table(setup: str, keep_lasts=SWEEP, seeds=None, budget: int = DEFAULT_BUDGET) -> pd.DataFrame:
    """One row for the setup uncompacted (keep_last None) and one per keep_last: mean success (share of
    the 24 tasks) and tokens (24 tasks) per seed, tokens per solved task, and against off the success
    lost and tokens saved per seed (off minus compacted) with their 95 % same-seed t intervals.
    `seeds` None: the 100 first held-out seeds. Raises as `sweep_runs`."""
    if seeds is None:
        from sim.measurement.harness import held_out_seeds  # the harness imports this layer's modules

        seeds = held_out_seeds(100)
    runs = sweep_runs(setup, keep_lasts, seeds, budget)
    off, rows = runs[None], []
    for k, run in runs.items():
        lost, saved = paired_difference(run, off, "success"), paired_difference(run, off, "tokens")
        per_seed = run.per_seed()
        rows.append((k, float(per_seed.success.mean()), float(per_seed.tokens.mean()), tokens_per_solved(run),
                     lost["mean"], lost["low"], lost["high"], saved["mean"], saved["low"], saved["high"]))  # fmt: skip
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    table["keep_last"] = pd.array([k for k, *_ in rows], dtype="Int64")  # <NA>: off
    return table


def turn(table: pd.DataFrame) -> dict:
    """Where a `compaction_table`'s curve turns: "cheapest" the keep_last whose tokens per solved task
    are least (off when no k beats it), "indistinguishable" the smallest keep_last from which every
    larger one's success-lost interval holds 0 (the success cannot be told from off's)."""
    compacted = table[table.keep_last.notna()]
    best = table.keep_last[table["tokens per solved"].idxmin()]
    holds = (compacted["success low"] <= 0) & (compacted["success high"] >= 0)
    from_here = np.logical_and.accumulate(holds.to_numpy()[::-1])[::-1]
    smallest = compacted.keep_last.to_numpy()[from_here]
    return {"cheapest": None if pd.isna(best) else int(best),
            "indistinguishable": int(smallest[0]) if len(smallest) else None}  # fmt: skip


def compacted_steps(run) -> pd.DataFrame:
    """A loop run under keep_last step by step as the model re-reads it (CP1-CP2): the calls re-sent in
    full and summarized, the step's tokens, the target, the fields it needs that only the summary holds
    (replayed from the run's own trace) and the pick. Raises InputError for a run without keep_last."""
    from sim.engine.loops import GIVEN, check_run, produced_fields
    from sim.model import compaction
    from sim.model.errors import InputError

    run = check_run(run, setups=tuple(PLANNING_STEPS))
    keep_last = run.config.keep_last
    if keep_last is None:
        raise InputError("run must be made with keep_last (the compacted trace, CP1-CP2), got keep_last None")
    produced, rows = {}, []
    for step in run.log:
        needed = compaction.fields_needed(step.target, GIVEN)
        lost = compaction.summarized_fields(needed, produced, step.trace_length, keep_last)
        kept = min(step.trace_length, keep_last)
        rows.append((step.step, kept, step.trace_length - kept, step.tokens, step.target or "-", ", ".join(lost) or "-",
                     step.tool or "stop", step.right))  # fmt: skip
        if step.tool is not None:
            produced.update(dict.fromkeys(produced_fields(step.tool, step.error), step.trace_length))
    columns = ["step", "re-sent", "summarized", "tokens", "target", "only in summary", "pick", "right"]
    return pd.DataFrame(rows, columns=columns)
