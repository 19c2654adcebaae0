"""Determinism: the same figures in fresh processes and whatever ran before in this one."""

import os
import subprocess
import sys

import pytest

from sim import run_plan_execute, run_single_loop
from sim.measurement.counts import measure


def _table_in_fresh_process(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-m", "sim", "table", "--format", "csv"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.mark.slow
def test_same_table_in_fresh_processes_with_different_hash_seeds():
    first, second = _table_in_fresh_process("1"), _table_in_fresh_process("4242")
    assert first == second
    assert "single-loop,20260218,8,0.9583333333333334,97,74,11978,8,0" in first


def test_same_measurement_whatever_ran_before():
    before = [measure("single-loop", 20260218), measure("plan-execute", 20260219)]
    for seed in (1, 7, 2**32 - 1):  # unrelated runs in between
        run_single_loop("G24", seed, 12, self_critique=True, approval=True)
        run_plan_execute("G01", seed, 3)
        measure("plan-execute", seed, 2)
    after = [measure("single-loop", 20260218), measure("plan-execute", 20260219)]
    assert before == after


def test_each_run_counts_its_own_tool_calls():
    run = run_plan_execute("G05", 20260218, 8)
    again = run_plan_execute("G05", 20260218, 8)
    assert run.calls == again.calls == len(run.trace) == 6
