"""Benchmark: time from a typed seed (or a moved budget) to the panel's table and figure replaced, kernel side.

    .venv/bin/python benchmarks/panel_latency.py [--lesson N ...] [--changes 30] [--what seed|budget|both]

Builds each lesson's panel as its Explore cell does (lesson 1 with both switches on, the most a
change asks of it; lesson 5 at its 10,000 seeds) and types new seeds into the seed box (and/or
moves the budget), timing each change until the panel's table and figure widgets hold the new
values. This is the kernel's share of what a student waits for; the browser's share is in
`browser_latency.py`. Prints, per lesson, the median and the largest time in milliseconds.
Goals (issue 31): median <= 150 ms for every lesson but 5, <= 250 ms for lesson 5 at 10,000 seeds
(perceived, in `browser_latency.py`). Lesson 7 replays recorded runs: its typed seeds are recorded ones.
"""

import argparse
import time

import numpy as np

from sim.presentation.panel_contract import contract_panel
from sim.presentation.panel_frameworks import frameworks_panel
from sim.presentation.panel_how_many_seeds import how_many_seeds_panel
from sim.presentation.panel_patterns import patterns_panel
from sim.presentation.panel_planner_executor import planner_executor_panel
from sim.presentation.panel_single_loop import single_loop_panel
from sim.presentation.panel_step_budget import step_budget_panel
from sim.presentation.panel_your_agent import your_agent_panel

PANELS = {1: single_loop_panel, 2: planner_executor_panel, 3: step_budget_panel, 4: contract_panel,
          5: how_many_seeds_panel, 6: your_agent_panel, 7: frameworks_panel, 8: patterns_panel}  # fmt: skip


def time_panel(lesson: int, changes: int, what: str = "seed") -> list[float]:
    """Milliseconds of each of `changes` control changes on a fresh panel of `lesson`: new seeds typed
    (what="seed"), budgets moved ("budget") or both in turn ("both")."""
    panel = PANELS[lesson]()
    if lesson == 1:
        panel.set(self_critique=True, approval=True)  # the most work a change can ask of it
    recorded = getattr(panel, "recorded", None)  # lesson 7 replays recorded runs: their seeds only
    seeds = recorded[1:] if recorded else [1000 + 7919 * i for i in range(changes)]
    panel.budget.value = 7  # warm up fonts and caches once
    times = []
    for i in range(changes):
        budget_turn = what == "budget" or (what == "both" and i % 2)
        before = (panel.table.value, panel.figure.value)
        start = time.perf_counter()
        if budget_turn:
            panel.budget.value = 4 + (i % 9) if 4 + (i % 9) != panel.budget.value else 3
        else:
            panel.seed.value = str(seeds[i % len(seeds)])
        getattr(panel, "wait", lambda: None)()  # a panel computing in the background: until it is shown
        elapsed = time.perf_counter() - start
        assert panel.message.value == "", f"change {i} was refused: {panel.message.value}"
        assert panel.figure.value != before[1] or panel.table.value != before[0], (
            f"change {i}: nothing redrawn"
        )
        times.append(1000 * elapsed)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", type=int, nargs="*", choices=sorted(PANELS), default=sorted(PANELS),
                        help="whose panels to time (default: every lesson)")  # fmt: skip
    parser.add_argument("--changes", type=int, default=30, help="control changes to time per lesson")
    parser.add_argument("--what", choices=("seed", "budget", "both"), default="seed", help="what to change")
    args = parser.parse_args()
    for lesson in args.lesson:
        times = time_panel(lesson, args.changes, args.what)
        low, high = np.percentile(times, [25, 75])
        print(f"lesson {lesson} panel, {len(times)} changes: median {np.median(times):.0f} ms, "
              f"largest {max(times):.0f} ms, quartiles {low:.0f}-{high:.0f} ms", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
