"""Record the framework runs lesson 7 replays: each agent of `sim.chat.framework_runs.LESSON_AGENTS` on every
task at the first N held-out seeds, against the course's FICTIONAL model on 127.0.0.1 (no network).

    .venv/bin/python scripts/record_framework_runs.py [--seeds N] [--agents NAME ...] [--workers K]

Writes transcripts/07_frameworks.csv (sim.chat.framework_runs.RECORDED); with --agents only those agents'
rows are recorded again, the others kept. Prints each agent's runs and time.
"""

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import pandas as pd

from sim.chat.framework_runs import LESSON_AGENTS, RECORD_COLUMNS, RECORDED, record_row, recorded_rows
from sim.chat.model_endpoint import serve
from sim.measurement.harness import held_out_seeds
from sim.model.tasks import TASKS

AGENTS = {agent.name: agent for agent in LESSON_AGENTS}


def record(name: str, seeds: list[int]) -> list[dict]:
    """The rows of one agent at `seeds`, against a fresh endpoint."""
    agent = AGENTS[name]
    with serve() as base_url:
        return [record_row(name, agent.run(task, seed, base_url)) for seed in seeds for task in TASKS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100, help="held-out seeds (default 100)")
    parser.add_argument("--agents", nargs="+", choices=sorted(AGENTS), help="record only these agents")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    options = parser.parse_args()
    names = options.agents or list(AGENTS)
    seeds = held_out_seeds(options.seeds).tolist()
    chunks = [seeds[i :: options.workers] for i in range(options.workers)]
    kept = pd.DataFrame(columns=list(RECORD_COLUMNS))
    if options.agents and RECORDED.exists():
        kept = recorded_rows()
        kept = kept[kept["agent"].isin(AGENTS) & ~kept["agent"].isin(names)]  # an agent renamed is dropped
    frames = [kept]
    with ProcessPoolExecutor(options.workers) as pool:
        for name in names:
            start = time.perf_counter()
            rows = [row for part in pool.map(record, [name] * len(chunks), chunks) for row in part]
            frames.append(pd.DataFrame(rows, columns=list(RECORD_COLUMNS)))
            print(f"{name}: {len(rows)} runs in {time.perf_counter() - start:.0f} s", flush=True)
    frame = pd.concat([f for f in frames if len(f)], ignore_index=True)
    order = {name: i for i, name in enumerate(AGENTS)}
    frame = frame.sort_values(
        ["agent", "seed", "task"], key=lambda c: c.map(order) if c.name == "agent" else c
    )
    RECORDED.parent.mkdir(exist_ok=True)
    frame.to_csv(RECORDED, index=False)
    print(f"wrote {RECORDED.name}: {len(frame)} rows, {frame['agent'].nunique()} agents")


if __name__ == "__main__":
    main()
