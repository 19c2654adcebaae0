"""Common draws (rule CR1, lesson 5): off by default, the same rule in the one-seed and batch paths,
and the draws it shares are the ones its rule names."""

import json

import numpy as np
import pytest
from cli_run import run_cli
from test_batch import FIELDS, SEEDS

import sim
from sim.engine.config import RunConfig
from sim.measurement.batch import run_batch, study_seeds
from sim.measurement.counts import measure, plan_accuracy
from sim.model.draws import PositionDraws, draw_stream, stream_key


def _outcomes(run):
    return (sim.is_correct(run), *(getattr(run, name) for name in FIELDS[1:]))


CASES = [(setup, budget) for setup in ("single-loop", "plan-execute") for budget in (2, 5, 8, 12)]


@pytest.mark.slow
@pytest.mark.parametrize("setup, budget", CASES)
def test_every_outcome_under_common_draws_equals_the_one_seed_path(setup, budget):
    seeds = SEEDS if budget == 8 else SEEDS[::3]
    batch = run_batch(setup, seeds, budget, common_draws=True)
    for t, task in enumerate(sim.TASKS):
        for j, seed in enumerate(seeds):
            run = sim.run_task(setup, task, int(seed), budget, common_draws=True)
            got = tuple(getattr(batch, name)[t, j] for name in FIELDS)
            assert got == _outcomes(run), (setup, task.name, int(seed), budget)


@pytest.mark.parametrize("setup", ("single-loop", "plan-execute"))
@pytest.mark.parametrize("stop_when_done, budget_margin", ((True, None), (False, 1), (True, 3)))
def test_common_draws_with_the_stopping_rules_equal_the_one_seed_path(setup, stop_when_done, budget_margin):
    seeds = SEEDS[:150]
    options = dict(stop_when_done=stop_when_done, budget_margin=budget_margin, common_draws=True)
    batch = run_batch(setup, seeds, 12, **options)
    for t, task in enumerate(sim.TASKS):
        for j, seed in enumerate(seeds):
            run = sim.run_task(setup, task, int(seed), 12, **options)
            assert tuple(getattr(batch, name)[t, j] for name in FIELDS) == _outcomes(run)


def test_the_single_loops_switches_run_under_common_draws_too():
    seeds = SEEDS[:100]
    batch = run_batch("single-loop", seeds, 8, self_critique=True, approval=True, common_draws=True)
    for t, task in enumerate(sim.TASKS):
        for j, seed in enumerate(seeds):
            run = sim.run_task(
                "single-loop", task, int(seed), 8, self_critique=True, approval=True, common_draws=True
            )
            assert tuple(getattr(batch, name)[t, j] for name in FIELDS) == _outcomes(run)


def test_off_by_default_and_the_default_is_the_seeds_streams():
    assert RunConfig("single-loop").common_draws is False and RunConfig("plan-execute").rule == "fixed budget"
    seeds = SEEDS[:200]
    for setup in ("single-loop", "plan-execute"):
        plain, off = run_batch(setup, seeds), run_batch(setup, seeds, common_draws=False)
        on = run_batch(setup, seeds, common_draws=True)
        assert all(np.array_equal(getattr(plain, f), getattr(off, f)) for f in FIELDS)
        assert not np.array_equal(plain.tokens, on.tokens)  # it does change the draws
    assert measure("plan-execute").tokens == 10345  # lesson 2's run A, unchanged


def test_the_a_th_pick_at_a_position_takes_that_streams_draws_2a_minus_1_and_2a():
    draws = PositionDraws(7, "G05")
    reference = draw_stream(stream_key(7, "G05", position=2))
    expected = [reference() for _ in range(6)]
    first = draws.pick(2)
    assert (first(), first()) == (expected[0], expected[1])
    unused = draws.pick(2)  # a pick that never draws takes nothing
    del unused
    one_draw = draws.pick(2)
    assert one_draw() == expected[2]  # a pick that needs only 1 draw still takes 2
    assert draws.pick(2)() == expected[4]
    assert stream_key(7, "G05", position=2) == stream_key(7, "G05", planner=True, position=2)


def test_the_plan_and_the_single_loop_share_the_first_pick_at_each_position():
    """CR1's coupling: where the single loop's first pick at position 1 is right, so is the plan's;
    where both miss, they take the same random tool."""
    same_miss = 0
    for seed in range(2000):
        loop = sim.run_task("single-loop", "G05", seed, 8, common_draws=True)
        split = sim.run_task("plan-execute", "G05", seed, 8, common_draws=True)
        first = loop.log[0]
        if first.right:
            assert split.plan[0] == "read_meter"
        elif split.plan[0] != "read_meter":
            assert split.plan[0] == first.tool
            same_miss += 1
    assert same_miss > 0


def test_common_draws_change_no_setups_distribution():
    """Each setup alone is the same random model under CR1: means over 10,000 seeds within 4 standard
    errors of the means on the seed's own streams."""
    seeds = study_seeds(10000)
    for setup in ("single-loop", "plan-execute"):
        own, common = (
            run_batch(setup, seeds).per_seed(),
            run_batch(setup, seeds, common_draws=True).per_seed(),
        )
        for unit in ("solved", "tokens", "errors"):
            a, b = getattr(own, unit), getattr(common, unit)
            error = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
            assert abs(a.mean() - b.mean()) < 4 * error, (setup, unit)


def test_the_contract_has_no_common_draws_and_the_switch_is_checked():
    with pytest.raises(
        sim.InputError, match="common_draws is an option of setup 'single-loop' or 'plan-execute'"
    ):
        RunConfig("contract", common_draws=True)
    with pytest.raises(sim.InputTypeError, match="common_draws must be True or False"):
        RunConfig("single-loop", common_draws=1)


def test_plan_accuracy_under_common_draws_is_the_plans_that_ran():
    accuracy = plan_accuracy(20260218, common_draws=True)
    plans = [sim.run_task("plan-execute", task, 20260218, 8, common_draws=True).plan for task in sim.TASKS]
    right = sum(
        p == w
        for plan, task in zip(plans, sim.TASKS, strict=True)
        for p, w in zip(plan, task.sequence, strict=True)
    )
    assert accuracy.right_positions == right and accuracy.positions == 53


def _cli(*args):
    return run_cli(*args)


def test_the_cli_flag():
    rows = json.loads(_cli("table", "--common-draws", "--format", "json").stdout)
    assert {row["rule"] for row in rows} == {"fixed budget + common draws"}
    by_api = measure("plan-execute", 20260218, common_draws=True)
    assert rows[2]["tokens"] == by_api.tokens and rows[2]["setup"] == "plan-execute"
    refused = _cli("table", "--setups", "contract", "--common-draws")
    assert refused.returncode == 2 and "--common-draws is an option of setup" in refused.stderr
    assert "common random numbers" in " ".join(_cli("table", "--help").stdout.split())
