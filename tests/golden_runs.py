"""The golden file, read once per test session: sim's one-seed path (tests/test_sim_golden.py) and
the batch path (tests/test_batch.py) are both checked against it.

tests/golden/seed_runs.csv.gz holds 288,000 runs made by the seed lesson's own listing
(tests/golden/make_golden.py says how): every (setup, switches, seed, budget, task) with the
answer, steps, tokens, tool errors, approvals, plan and trace (one letter per tool call, lower
case for a tool error).
"""

import csv
import functools
import gzip
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden" / "seed_runs.csv.gz"
CONFIGS = [("plan-execute", "0", "0"), ("single-loop", "0", "0"), ("single-loop", "0", "1"),
           ("single-loop", "1", "0"), ("single-loop", "1", "1")]  # fmt: skip


@functools.cache
def golden_by_config() -> dict[tuple[str, str, str], list[dict]]:
    """The golden rows grouped by (setup, self_critique, approval), in the file's order."""
    grouped = {config: [] for config in CONFIGS}
    with gzip.open(GOLDEN, "rt", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            grouped[(row["setup"], row["self_critique"], row["approval"])].append(row)
    return grouped
