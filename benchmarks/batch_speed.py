"""Benchmark: a paired sweep over many seeds, batch path against the one-seed path, on one core.

    .venv/bin/python benchmarks/batch_speed.py [--seeds 10000] [--budget 8] [--repeats 5] [--changes 16]

The sweep is lesson 5's: seeds 20260218 + i for i = 0..N-1, both setups (single loop and
planner + executor), all 24 tasks, one budget. It is timed twice in the same process, pinned
to one core:
- batch: `measure_batch` for each setup (numpy, vectorised across task and seed); the
  median of --repeats runs after one warm-up run;
- one-seed: `measure` for each setup, seed by seed (the readable reference), once.
The per-seed figures of the two paths are checked equal, then both times and their ratio are
printed. Goals (issue 7): batch under 1 s at 10,000 seeds, and at least 30 times faster.

Then lesson 5's panel is timed at 10,000 seeds: each control change (the number-of-seeds
slider, the second setup, the first seed, the budget, in turn) until its table and figure
are replaced; a slider change reuses the panel's batch runs, the other changes run the batch
path anew. Prints the median and the largest time per kind of change. Goal: under 1 s.
"""

import argparse
import os
import statistics
import time

import numpy as np

import sim
from sim.measurement.batch import measure_batch, study_seeds
from sim.measurement.counts import measure
from sim.presentation.panel_how_many_seeds import how_many_seeds_panel

UNITS = ("solved", "steps", "calls", "tokens", "errors", "approvals")
LOOP_SETUPS = ("single-loop", "plan-execute")  # the setups with a batch path (the contract has none)


def pin_to_one_core() -> str:
    """Restrict this process to one CPU core where the OS allows it; say which."""
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned (no sched_setaffinity on this OS)"


def batch_sweep(seeds, budget):
    return [measure_batch(setup, seeds, budget) for setup in LOOP_SETUPS]


def one_seed_sweep(seeds, budget):
    return [[measure(setup, int(seed), budget) for seed in seeds] for setup in LOOP_SETUPS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10000, help="number of seeds N (default 10000)")
    parser.add_argument("--budget", type=int, default=sim.DEFAULT_BUDGET, help="step budget (default 8)")
    parser.add_argument("--repeats", type=int, default=5, help="timed batch runs, median kept (default 5)")
    parser.add_argument("--changes", type=int, default=16, help="panel changes of each kind (default 16)")
    args = parser.parse_args()
    print(f"{pin_to_one_core()} | numpy {np.__version__}")
    seeds = study_seeds(args.seeds)
    print(f"paired sweep: {args.seeds} seeds, 2 setups, {len(sim.TASKS)} tasks, budget {args.budget}")

    batch_sweep(seeds, args.budget)  # warm-up
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        batch = batch_sweep(seeds, args.budget)
        times.append(time.perf_counter() - start)
    batch_time = statistics.median(times)

    start = time.perf_counter()
    one_seed = one_seed_sweep(seeds, args.budget)
    one_seed_time = time.perf_counter() - start

    for totals, measurements in zip(batch, one_seed, strict=True):
        for unit in UNITS:
            assert getattr(totals, unit).tolist() == [getattr(m, unit) for m in measurements], unit
    print("per-seed figures of the two paths: equal")
    print(f"batch path   : {batch_time:.3f} s (median of {args.repeats})")
    print(f"one-seed path: {one_seed_time:.3f} s")
    print(f"ratio        : {one_seed_time / batch_time:.0f}x faster")
    time_panel(args.changes)


def time_panel(changes: int) -> None:
    """Time lesson 5's panel at 10,000 seeds, change by change, and print median and largest per kind."""
    panel = how_many_seeds_panel()
    second = ("single loop + self-critique", "planner + executor")
    kinds = {
        "number of seeds": lambda i: panel.extra["n_seeds"].__setattr__("value", 9990 + 10 * (i % 2)),
        "second setup": lambda i: panel.extra["second"].__setattr__("value", second[i % 2]),
        "first seed": lambda i: panel.seed.__setattr__("value", str(20260218 + 1000 * (i + 1))),
        "budget": lambda i: panel.budget.__setattr__("value", 7 + i % 2),
    }
    times = {kind: [] for kind in kinds}
    for i in range(changes):
        for kind, change in kinds.items():
            shown = panel.view
            start = time.perf_counter()
            change(i)
            elapsed = time.perf_counter() - start
            assert panel.view is not shown and panel.message.value == "", f"{kind}: the panel did not redraw"
            times[kind].append(elapsed)
    print(f"lesson 5 panel at about 10000 seeds, {changes} changes of each kind:")
    for kind, values in times.items():
        print(f"  {kind:<16}: median {statistics.median(values):.3f} s, largest {max(values):.3f} s")


if __name__ == "__main__":
    main()
