"""Time of `python -m sim table` in each output format over many seeds and budgets, wall time.

    .venv/bin/python benchmarks/table_formats.py [--seeds N] [--budgets M] [--repeat R]

Runs the command in this process (`sim.cli.main`, its output kept in memory) for seeds 1..N and
budgets 1..M (defaults 1000 and 12, the sizes of issue 26) and prints, per format, the smallest of
R runs (default 1), in seconds. The goal of issue 26: the text format linear in its rows, about as
fast as CSV (it took 110 s against 0.93 s at the default sizes, each row re-checking the whole
seed list). A benchmark prints its figure; no test times anything.
"""

import argparse
import contextlib
import io
import time

from sim.cli import main as sim_main


def seconds(argv: list[str]) -> float:
    """Wall seconds of one `python -m sim` run with arguments argv, in this process."""
    out = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out):
        code = sim_main(argv)
    elapsed = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"python -m sim {' '.join(argv[:1])} ... ended with exit code {code}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000, help="seeds 1..N (default 1000)")
    parser.add_argument("--budgets", type=int, default=12, help="budgets 1..M (default 12)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of each format, the smallest shown (default 1)"
    )
    args = parser.parse_args()
    seeds = ",".join(str(seed) for seed in range(1, args.seeds + 1))
    budgets = ",".join(str(budget) for budget in range(1, args.budgets + 1))
    times = {}
    for form in ("csv", "json", "text"):
        argv = ["table", "--seeds", seeds, "--budgets", budgets, "--format", form]
        times[form] = min(seconds(argv) for _ in range(args.repeat))
    rows = 2 * args.seeds * args.budgets  # the two default setups
    print(f"python -m sim table, {args.seeds} seeds x {args.budgets} budgets ({rows} rows): "
          + ", ".join(f"{form} {value:.2f} s" for form, value in times.items())
          + f"; text / csv {times['text'] / times['csv']:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
