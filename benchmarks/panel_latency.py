"""Benchmark: time from a control change to the panel's table and figure being replaced.

    .venv/bin/python benchmarks/panel_latency.py [--changes 60] [--lesson 2]

Builds lesson 2's panel (two runs: seed and seed + 1, both setups, 24 tasks), or with
--lesson 1 lesson 1's (the single loop on two runs, with both switches on: counted units,
verdicts, approvals and the depth figure), then changes the seed and the budget in turn, timing each change until the panel's table and figure
widgets hold the new values (the work happens in the kernel; the browser only paints).
Prints the median and 95th percentile in milliseconds. Goal for a one-seed panel: median
<= 100 ms on the course machine.
"""

import argparse
import time

import numpy as np

from sim.panel_planner_executor import planner_executor_panel
from sim.panel_single_loop import single_loop_panel

PANELS = {1: single_loop_panel, 2: planner_executor_panel}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=60, help="control changes to time (>= 50 recommended)")
    parser.add_argument("--lesson", type=int, choices=sorted(PANELS), default=2, help="whose panel to time")
    args = parser.parse_args()
    panel = PANELS[args.lesson]()
    if args.lesson == 1:
        panel.set(self_critique=True, approval=True)  # the most work a change can ask of it
    panel.budget.value = 7  # warm up fonts and caches once
    times = []
    for i in range(args.changes):
        start = time.perf_counter()
        if i % 2:
            panel.budget.value = 4 + (i % 9)
        else:
            panel.seed.value = str(1000 + i)
        elapsed = time.perf_counter() - start
        wanted = (
            1000 + i if i % 2 == 0 else panel.settings.seed,
            4 + (i % 9) if i % 2 else panel.settings.budget,
        )
        assert (panel.settings.seed, panel.settings.budget) == wanted, f"change {i}: the panel did not redraw"
        times.append(1000 * elapsed)
    print(f"lesson {args.lesson} panel, {len(times)} changes: median {np.median(times):.0f} ms, "
          f"95th percentile {np.percentile(times, 95):.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
