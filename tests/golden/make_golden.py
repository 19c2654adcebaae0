"""Make tests/golden/seed_runs.csv.gz from the seed lesson's OWN listing (not from sim).

The listing is read at run time from ../shared/seeds/000_93943e36b4687a97.txt (it is not
copied into this repository): the lines from "# SIMULATOR" up to the G05 print code are
executed in a fresh namespace, and every (setup, switches, seed, budget, task) below is run
with the listing's `agent` and `plan_and_execute`. Run it once, from the repository root:

    .venv/bin/python tests/golden/make_golden.py

Seeds: 0, 1, 20260218, 20260219, 2**32 - 1 and 195 more drawn by random.Random(20261129)
from 0..2**32-1; budgets 1..12; setups: the split, and the single loop with each of the four
combinations of self_critique and approval; all 24 tasks. 288,000 rows.
Trace code: one letter per tool call (R read_meter, C consumption, T tariff, S search_docs,
W write_record), lower case when the call returned a tool error.
"""

import csv
import gzip
import io
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED_FILE = HERE.parents[2] / "shared" / "seeds" / "000_93943e36b4687a97.txt"
OUT = HERE / "seed_runs.csv.gz"
LETTERS = {"read_meter": "R", "consumption": "C", "tariff": "T", "search_docs": "S", "write_record": "W"}
COLUMNS = ["setup", "self_critique", "approval", "seed", "budget", "task", "answer", "steps", "tokens",
           "errors", "approvals", "plan", "trace"]  # fmt: skip


def load_listing() -> dict:
    lines = SEED_FILE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# SIMULATOR"))
    stop = next(
        i for i, line in enumerate(lines) if line.startswith('g = [x for x in TASKS if x["name"] == "G05"]')
    )
    namespace: dict = {}
    exec(compile("\n".join(lines[start:stop]), str(SEED_FILE), "exec"), namespace)  # noqa: S102
    return namespace


def golden_seeds() -> list[int]:
    draw = random.Random(20261129)
    fixed = [0, 1, 20260218, 20260219, 2**32 - 1]
    return fixed + [draw.randrange(2**32) for _ in range(195)]


def trace_code(trace) -> str:
    return "".join(LETTERS[tool].lower() if error else LETTERS[tool] for tool, error in trace)


def main() -> None:
    listing = load_listing()
    configs = [("plan-execute", False, False)] + [
        ("single-loop", critique, approval) for critique in (False, True) for approval in (False, True)
    ]
    with (
        gzip.GzipFile(OUT, "wb", compresslevel=9, mtime=0) as raw,  # mtime=0: the same bytes every time
        io.TextIOWrapper(raw, encoding="utf-8", newline="") as handle,
    ):
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        for setup, critique, approval in configs:
            for seed in golden_seeds():
                for budget in range(1, 13):
                    for task in listing["TASKS"]:
                        if setup == "plan-execute":
                            out = listing["plan_and_execute"](task, max_steps=budget, seed=seed)
                            plan, approvals = "".join(LETTERS[t] for t in out["plan"]), 0
                        else:
                            out = listing["agent"](task, max_steps=budget, seed=seed,
                                                   self_critique=critique, approval=approval)  # fmt: skip
                            plan, approvals = "", out["approvals"]
                        writer.writerow([setup, int(critique), int(approval), seed, budget, task["name"],
                                         repr(out["answer"]), out["steps"], out["tokens"], out["errors"],
                                         approvals, plan, trace_code(out["trace"])])  # fmt: skip


if __name__ == "__main__":
    main()
