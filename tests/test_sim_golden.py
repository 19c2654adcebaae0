"""Faithfulness beyond the lesson: sim against 288,000 runs made by the seed's own listing.

The golden file and how it was made: tests/golden/make_golden.py (its docstring). Every row
(setup, switches, seed, budget, task) must give the same answer, steps, tokens, tool errors,
approvals, plan and trace.
"""

import golden_runs
import pytest
from golden_runs import CONFIGS

from sim import run_plan_execute, run_single_loop

LETTERS = {"read_meter": "R", "consumption": "C", "tariff": "T", "search_docs": "S", "write_record": "W"}


@pytest.fixture(scope="module")
def golden_by_config():
    return golden_runs.golden_by_config()


def _sim_row(setup, critique, approval, seed, budget, task):
    if setup == "plan-execute":
        run = run_plan_execute(task, seed, budget)
    else:
        run = run_single_loop(task, seed, budget, self_critique=critique, approval=approval)
    plan = "".join(LETTERS[t] for t in run.plan) if run.plan is not None else ""
    trace = "".join(LETTERS[c.tool].lower() if c.error else LETTERS[c.tool] for c in run.trace)
    return [
        repr(run.answer),
        str(run.steps),
        str(run.tokens),
        str(run.errors),
        str(run.approvals),
        plan,
        trace,
    ]


FIELDS = ["answer", "steps", "tokens", "errors", "approvals", "plan", "trace"]


def test_golden_file_covers_what_it_promises(golden_by_config):
    rows = [row for group in golden_by_config.values() for row in group]
    seeds = {int(row["seed"]) for row in rows}
    assert len(rows) == 288_000
    assert len(seeds) == 200 and {0, 2**32 - 1, 20260218, 20260219} <= seeds
    assert {int(row["budget"]) for row in rows} == set(range(1, 13))
    assert all(len(group) == 57_600 for group in golden_by_config.values())


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=["-".join(c) for c in CONFIGS])
def test_every_golden_row_is_reproduced(golden_by_config, config):
    setup, critique, approval = config
    mismatches = []
    for row in golden_by_config[config]:
        got = _sim_row(
            setup, critique == "1", approval == "1", int(row["seed"]), int(row["budget"]), row["task"]
        )
        want = [row[field] for field in FIELDS]
        if got != want:
            mismatches.append((row["seed"], row["budget"], row["task"], want, got))
    assert not mismatches, f"{len(mismatches)} rows differ from the seed's listing, first: {mismatches[:3]}"
