"""Lesson 8's parallel plan execution: the fan-out tasks (FO1), their engine (FO2-FO4, PX1, FB1), the
contract's option parallel_steps (waves of ready steps), the many-seed tables, the CLI and the exercise."""

import numpy as np
import pytest
from cli_run import run_cli

from sim.engine.config import RunConfig
from sim.engine.contract import PLANNER_SECONDS, Bounds, contract_run
from sim.engine.fan_out import CONTRACT_BOUNDS, FAN_OUT_BOUNDS, fan_out_run, right_sequential_run
from sim.engine.plan_schema import plan_from_tools, tool_seconds
from sim.exercises.patterns import check_parallel_seconds, parallel_seconds_from_log
from sim.measurement.batch_contract import contract_batch
from sim.measurement.fan_out import fan_out_outcomes, schedule_table, speedup_table
from sim.measurement.harness import held_out_seeds
from sim.model.costs import executor_step_tokens, observation_tokens, planner_tokens
from sim.model.errors import InputError, InputTypeError
from sim.model.fan_out_tasks import (
    BRANCH_SEQUENCE,
    FAN_OUT_ANSWERS,
    FAN_OUT_TASKS,
    TASKS_PER_WIDTH,
    WIDTHS,
    branch_charge,
)
from sim.model.tasks import ANSWERS, TASKS
from sim.model.world import SUBSCRIBERS

SEEDS = held_out_seeds(100)
UNBOUNDED = Bounds(10**6, 10**9, 10**6, 2)  # no bound but the replans binds
CHARGE_TASK = next(task for task in TASKS if task.kind == "charge")
HELD = ("subscriber", "query", "column")
OUTCOMES = (
    "steps",
    "tokens",
    "seconds",
    "calls",
    "errors",
    "replans",
    "correct",
    "exit_state",
    "stop_reason",
)


# ---- FO1: the tasks


def test_the_fan_out_tasks_are_three_per_width_of_different_subscribers_and_leave_the_world_alone():
    assert [task.width for task in FAN_OUT_TASKS] == [w for w in WIDTHS for _ in range(TASKS_PER_WIDTH)]
    assert [task.name for task in FAN_OUT_TASKS] == [f"F{i:02d}" for i in range(1, 13)]
    for task in FAN_OUT_TASKS:
        assert len(set(task.subscribers)) == task.width and set(task.subscribers) <= set(SUBSCRIBERS)
        assert task.request == ", ".join(task.subscribers) + " abonelerinin toplam bedeli nedir"
        assert task.positions == BRANCH_SEQUENCE * task.width
        assert FAN_OUT_ANSWERS[task.name] == sum(branch_charge(s) for s in task.subscribers)
    assert len(TASKS) == 24 and all(task.name.startswith("G") for task in TASKS)
    assert all(ANSWERS[task.name] is not None for task in TASKS)


# ---- FO2-FO4, PX1: the engine


def test_a_right_run_costs_what_the_rules_say_in_both_schedules():
    seed = next(
        s for s in range(500) if fan_out_run("F10", s).calls == 12 and fan_out_run("F10", s).replans == 0
    )
    sequential, parallel = fan_out_run("F10", seed), fan_out_run("F10", seed, parallel_steps=True)
    assert sequential.plans == parallel.plans == (BRANCH_SEQUENCE * 4,)
    assert (sequential.steps, sequential.tokens, sequential.seconds) == right_sequential_run(4)
    assert sequential.seconds == PLANNER_SECONDS + 4 * sum(map(tool_seconds, BRANCH_SEQUENCE))
    # PX1: three waves of four calls, each one executor step plus four observations, as long as its longest
    waves = [executor_step_tokens(4 * k) + 4 * observation_tokens(False) for k in range(3)]
    assert parallel.steps == 1 + 3 and parallel.calls == 12
    assert parallel.tokens == planner_tokens(12) + sum(waves)
    assert parallel.seconds == PLANNER_SECONDS + sum(map(tool_seconds, BRANCH_SEQUENCE))
    assert sequential.correct and parallel.correct and parallel.answer == FAN_OUT_ANSWERS["F10"]
    steps_of_calls = [e.step for e in parallel.events if e.kind == "call"]
    assert steps_of_calls == [2] * 4 + [3] * 4 + [4] * 4


def test_a_wrong_position_stops_its_branch_and_one_replan_writes_every_failed_branch_rest():
    for seed in range(300):
        run = fan_out_run("F07", seed, parallel_steps=True)
        if len(run.plans) > 1 and len(run.plans[1]) > 3:  # a replan for two branches or more
            break
    first, replan = run.plans[0], run.plans[1]
    failed = [b for b in range(3) if first[3 * b : 3 * b + 3] != BRANCH_SEQUENCE]
    # each failed branch's positions from its first wrong one (CT6), all in one planner call
    rest = sum(3 - next(i for i in range(3) if first[3 * b + i] != BRANCH_SEQUENCE[i]) for b in failed)
    assert len(failed) >= 2 and len(replan) == rest
    planner_events = [e for e in run.events if e.kind in ("plan", "replan")]
    assert [e.positions for e in planner_events[:2]] == [9, rest]
    # a branch does not call past its first wrong position
    for b in failed:
        wrong = next(i for i in range(3) if first[3 * b + i] != BRANCH_SEQUENCE[i])
        before = [
            e for e in run.events[: run.events.index(planner_events[1])] if e.detail.startswith(f"b{b + 1} ")
        ]
        assert len([e for e in before if e.kind in ("call", "tool error")]) <= wrong + 1


def test_same_plans_same_calls_same_success_when_no_bound_binds():
    sequential = fan_out_outcomes(SEEDS, False, UNBOUNDED)
    parallel = fan_out_outcomes(SEEDS, True, UNBOUNDED)
    for name in ("calls", "correct", "errors", "replans"):
        assert np.array_equal(sequential[name], parallel[name]), name
    assert (parallel["seconds"] <= sequential["seconds"]).all()
    assert (parallel["tokens"] <= sequential["tokens"]).all()
    width_one = np.array([task.width == 1 for task in FAN_OUT_TASKS])
    assert np.array_equal(sequential["seconds"][width_one], parallel["seconds"][width_one])
    for task in FAN_OUT_TASKS[:3]:
        for seed in SEEDS[:20]:
            assert fan_out_run(task, int(seed)).plans == fan_out_run(task, int(seed), True).plans


def test_fb1_is_twice_the_longest_right_sequential_run_and_the_contract_defaults_cut_wide_runs():
    steps, tokens, seconds = right_sequential_run(max(WIDTHS))
    assert FAN_OUT_BOUNDS == Bounds(2 * steps, 2 * tokens, 2 * seconds, 2) == Bounds(26, 3720, 42, 2)
    assert CONTRACT_BOUNDS == Bounds(8, 1000, 22, 2)
    cut = schedule_table(SEEDS, False, CONTRACT_BOUNDS).set_index("width")
    assert cut.loc[4, "success"] == 0 and cut.loc[4, "bound"] == 1
    own = schedule_table(SEEDS, False).set_index("width")
    assert own.loc[4, "success"] > 0.5


def test_the_speedup_table_by_width():
    table = speedup_table(SEEDS).set_index("width")
    assert table.loc[1, "speedup"] == (1.0, 1.0, 1.0)
    means = [table.loc[w, "speedup"][0] for w in WIDTHS]
    assert means == sorted(means) and means[-1] <= (5 + 4 * 4) / 9
    for width in WIDTHS[1:]:
        mean, low, high = table.loc[width, "seconds"]
        assert low <= mean <= high < 0


# ---- the contract's option parallel_steps


def test_parallel_steps_off_is_the_contract_and_on_changes_nothing_on_the_24_tasks_chains():
    assert RunConfig("contract", parallel_steps=False) == RunConfig("contract")
    assert RunConfig("contract").rule == "contract bounds"
    assert RunConfig("contract", parallel_steps=True).rule == "contract bounds, parallel steps (PX1)"
    on, off = RunConfig("contract", parallel_steps=True), RunConfig("contract")
    for seed in SEEDS[:30]:
        for task in TASKS:
            a, b = contract_run(task, int(seed), on), contract_run(task, int(seed), off)
            assert [getattr(a, n) for n in OUTCOMES] == [getattr(b, n) for n in OUTCOMES]
    batch_on, batch_off = contract_batch(on, SEEDS), contract_batch(off, SEEDS)
    for name in ("correct", "steps", "calls", "tokens", "errors", "stopped"):
        assert np.array_equal(getattr(batch_on, name), getattr(batch_off, name)), name


def _plan_with_an_independent_step(read_timeout=4):
    plan = plan_from_tools(("read_meter", "search_docs", "consumption", "tariff"), "amount", HELD)
    steps = list(plan.steps)
    steps[0] = steps[0].model_copy(update={"timeout": read_timeout})
    return plan.model_copy(update={"steps": tuple(steps)})


def test_a_wave_runs_every_ready_step_at_once():
    plan = _plan_with_an_independent_step()
    assert plan.steps[1].depends_on == ()  # search_docs needs only the query held
    on = contract_run(CHARGE_TASK, 1, RunConfig("contract", parallel_steps=True), first_plan=plan)
    off = contract_run(CHARGE_TASK, 1, RunConfig("contract"), first_plan=plan)
    assert on.correct and off.correct and on.calls == off.calls == 4
    assert off.steps == 5 and on.steps == 4  # planner + waves {s1, s2}, {s3}, {s4}
    calls = [(e.step, e.detail) for e in on.events if e.kind == "call"]
    assert calls == [(2, "s1 read_meter"), (2, "s2 search_docs"), (3, "s3 consumption"), (4, "s4 tariff")]
    planner = planner_tokens(4)
    waves = [executor_step_tokens(0) + 2 * observation_tokens(False), executor_step_tokens(2) + 30,
             executor_step_tokens(3) + 30]  # fmt: skip
    assert on.tokens == planner + sum(waves)
    assert (
        on.seconds == PLANNER_SECONDS + max(tool_seconds("read_meter"), tool_seconds("search_docs")) + 1 + 1
    )
    # the wave's shorter call no longer adds its seconds
    assert off.seconds - on.seconds == min(tool_seconds("read_meter"), tool_seconds("search_docs"))


def test_an_error_in_a_wave_lets_the_wave_s_other_calls_run_then_replans():
    plan = _plan_with_an_independent_step(read_timeout=1)  # read_meter takes 2 s: it times out
    on = contract_run(CHARGE_TASK, 1, RunConfig("contract", parallel_steps=True), first_plan=plan)
    off = contract_run(CHARGE_TASK, 1, RunConfig("contract"), first_plan=plan)
    first_wave = [e for e in on.events if e.step == 2 and e.kind in ("call", "tool error")]
    assert [(e.kind, e.detail.split(":")[0]) for e in first_wave] == [
        ("tool error", "s1 read_meter"), ("call", "s2 search_docs")]  # fmt: skip
    assert on.events[on.events.index(first_wave[-1]) + 1].kind == "replan"
    assert [e.detail.split(":")[0] for e in off.events if e.step == 2] == ["s1 read_meter"]
    assert on.calls == off.calls + 1 and on.replans == off.replans == 1


# ---- bad input, CLI, exercise


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: fan_out_run("G01"), InputError),
        (lambda: fan_out_run(3), InputTypeError),
        (lambda: fan_out_run("F01", -1), InputError),
        (lambda: fan_out_run("F01", 1, "yes"), InputTypeError),
        (lambda: fan_out_run("F01", 1, False, (8, 1000, 22, 2)), InputTypeError),
        (lambda: fan_out_run("F01", 1, False, Bounds(0, 1000, 22, 2)), InputError),
        (lambda: fan_out_outcomes([], False), InputError),
        (lambda: fan_out_outcomes("12", False), InputTypeError),
        (lambda: RunConfig("contract", parallel_steps="yes"), InputTypeError),
        (lambda: RunConfig("single-loop", parallel_steps=True), InputError),
        (lambda: check_parallel_seconds(1, 3), InputTypeError),
    ],
)
def test_bad_input_is_refused(call, error):
    with pytest.raises(error):
        call()


def test_the_cli_fan_out_subcommand_and_the_contract_flag():
    result = run_cli("fan-out", "--seeds", "1,2", "--parallel-steps", check=True)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("fan-out tasks F01..F12, parallel steps (PX1), 2 seeds, bounds 26 steps")
    assert lines[1].split() == ["width", "success", "steps", "calls", "tokens", "seconds", "bound"]
    table = schedule_table([1, 2], True)
    assert [float(v) for v in lines[5].split()[1:]] == [round(v, 2) for v in table.iloc[3, 1:]]
    for bad in (["--max-steps", "0"], ["--seeds", "x"], ["--max-replans", "-1"]):
        refused = run_cli("fan-out", *bad)
        assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    shown = run_cli("table", "--setups", "contract", "--seeds", "1", "--parallel-steps", check=True)
    plain = run_cli("table", "--setups", "contract", "--seeds", "1", check=True)
    assert shown.stdout.replace(", parallel steps (PX1)", "") == plain.stdout
    assert run_cli("table", "--setups", "single-loop", "--parallel-steps").returncode == 2


def test_the_exercise_checks_right_and_wrong_without_the_answer():
    assert check_parallel_seconds(7, parallel_seconds_from_log).startswith("right")
    assert check_parallel_seconds(7, lambda events: None).startswith("not answered")
    wrong = check_parallel_seconds(7, lambda events: events[-1].seconds)
    assert (
        wrong.startswith("wrong") and str(fan_out_run("F04", 7, True).seconds) not in wrong.split("seed")[0]
    )
