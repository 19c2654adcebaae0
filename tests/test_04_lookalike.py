"""The course's own rule LA1 (lesson 4): a look-alike tool in the tool set, off by default.

Off, nothing moves: the lesson's figures, the five tools' batch machine. On, the
look-alike takes and gives consumption's fields, validation cannot refuse it, its m3 is wrong for
every subscriber, every random pick draws among 6 tools, and each batch path equals the one-seed
path (more lanes in tests/test_batch.py). Bad values are refused by name.
"""

import itertools
import json

import numpy as np
import pytest
from cli_run import run_cli

import sim
from sim.engine.config import RunConfig
from sim.engine.exit_states import exit_state_of
from sim.engine.plan_schema import GOALS, plan_from_tools, tool_contract, validate_plan
from sim.measurement.batch import batch_run
from sim.measurement.batch_contract import contract_batch
from sim.measurement.counts import ContractCounts, measure
from sim.model.picks import ToolDraws, draws_among, random_tool
from sim.model.world import SUBSCRIBERS, TOOL_NAMES, call_tool, charge, consumption_m3

SEEDS = (20260218, 20260219)  # runs A and B of the lessons
SETUPS = ("single-loop", "plan-execute", "contract")
INITIAL = ("subscriber", "query", "column")
SIX = RunConfig("contract", lookalike=True).tools
# the lesson's table at runs A and B, budget 8: (solved, steps, calls, tokens, errors) per setup
LESSON_FIGURES = {
    "single-loop": [(23, 97, 74, 11978, 8), (23, 98, 74, 11994, 7)],
    "plan-execute": [(21, 118, 71, 10345, 10), (23, 116, 70, 10135, 12)],
    "contract": [(23, 84, 51, 8075, 0), (23, 83, 51, 7960, 0)],
}


def _units(m):
    return (int(m.solved), int(m.steps), int(m.calls), int(m.tokens), int(m.errors))


# ---- off: nothing changes


def test_the_option_is_off_by_default_and_offers_the_five_tools():
    for setup in SETUPS:
        config = RunConfig(setup)
        assert config.lookalike is False and config.tools == TOOL_NAMES
        assert "look-alike" not in config.rule
    assert SIX == (*TOOL_NAMES, "estimate_use")


@pytest.mark.parametrize("setup", SETUPS)
def test_off_the_lessons_figures_stand_on_the_one_seed_and_the_batch_paths(setup):
    for flag in ({}, {"lookalike": False}):
        assert [_units(measure(setup, seed, 8, **flag)) for seed in SEEDS] == LESSON_FIGURES[setup]
    config = RunConfig(setup, 8, lookalike=False)
    run = contract_batch(config, list(SEEDS)) if setup == "contract" else batch_run(config, list(SEEDS))
    per_seed = run.per_seed()
    batch = [
        (int(per_seed.solved[j]), int(per_seed.steps[j]), int(per_seed.calls[j]), int(per_seed.tokens[j]),
         int(per_seed.errors[j])) for j in range(2)
    ]  # fmt: skip
    assert batch == LESSON_FIGURES[setup]


def test_a_bare_stream_picks_among_the_five_tools():
    stream = sim.model.draws.draw_stream(11)
    assert draws_among(stream, TOOL_NAMES) is stream


# ---- on: the look-alike


def test_the_lookalike_gives_consumptions_fields_and_a_wrong_m3_for_every_subscriber():
    for name, record in SUBSCRIBERS.items():
        readings = {"previous": record.previous, "current": record.current}
        right = consumption_m3(record.previous, record.current)
        got = call_tool("estimate_use", {**readings, "subscriber": name})
        assert set(got) == set(call_tool("consumption", readings)) == {"m3"}
        assert got["m3"] == right + 1
        assert charge(got["m3"], record.customer_type) != charge(right, record.customer_type)
    assert call_tool("estimate_use", {"previous": 99990, "current": 5}) == {"m3": 16}  # rollover kept, +1
    assert call_tool("estimate_use", {"previous": 5}) == {"error": "missing field"}
    assert tool_contract("estimate_use") == tool_contract("consumption")


def test_validation_refuses_nothing_that_tells_the_lookalike_apart():
    """Every candidate plan over the 6 tools: those passing are the right plan and, where the task uses
    consumption, the same plan with the look-alike in its place, and nothing else."""
    for kind, goal in GOALS.items():
        task = next(t for t in sim.TASKS if t.kind == kind)
        passing = [
            tools
            for tools in itertools.product(SIX, repeat=len(task.sequence))
            if not validate_plan(plan_from_tools(tools, goal, INITIAL, tool_set=SIX), INITIAL, SIX)
        ]
        swapped = tuple("estimate_use" if tool == "consumption" else tool for tool in task.sequence)
        assert len(passing) == len({task.sequence, swapped}) and set(passing) == {task.sequence, swapped}
    lookalike_plan = plan_from_tools(
        ("read_meter", "estimate_use", "tariff"), "amount", INITIAL, tool_set=SIX
    )
    refused = validate_plan(lookalike_plan.model_dump(), INITIAL)  # the five tools: an unknown tool
    assert [r.kind for r in refused] == ["unknown tool"] and "'estimate_use'" in refused[0].message


def test_a_lookalike_plan_completes_with_a_wrong_answer_and_reports_success():
    """A silent failure: the runtime sees its plan complete and its goal held, not the wrong m3."""
    g05 = sim.check_task("G05")
    plan = plan_from_tools(("read_meter", "estimate_use", "tariff"), "amount", INITIAL, tool_set=SIX)
    run = sim.engine.contract.contract_run(
        g05, SEEDS[0], RunConfig("contract", lookalike=True), first_plan=plan
    )
    assert run.stop_reason == "plan complete" and run.errors == 0 and run.replans == 0
    assert not run.correct and run.exit_state == "SUCCESS" == exit_state_of(run)
    assert ContractCounts.of([run]).silent_failures == 1 and ContractCounts.of([run]).false_alarms == 0
    off = sim.engine.contract.contract_run(g05, SEEDS[0], RunConfig("contract"), first_plan=plan.model_dump())
    assert "unknown tool" in off.scratchpad.notes[0] and "estimate_use" not in {c.tool for c in off.trace}


def test_every_random_pick_draws_among_the_tool_set_in_use():
    draws = iter([0.999, 0.5, 0.0])
    six = ToolDraws(lambda: next(draws), SIX)
    assert [random_tool(six) for _ in range(3)] == ["estimate_use", "search_docs", "read_meter"]
    called = {
        call.tool
        for setup in SETUPS
        for seed in range(40)
        for task in sim.TASKS
        for call in sim.run_task(setup, task, seed, 8, lookalike=True).trace
    }
    assert called == set(SIX)


def test_exit_states_read_from_traces_match_the_contracts_own_with_the_lookalike():
    for seed in range(60):
        for task in sim.TASKS:
            run = sim.run_task("contract", task, seed, 8, lookalike=True)
            assert exit_state_of(run) == run.exit_state, (task.name, seed)


def test_the_contracts_batch_path_reads_six_tool_tapes():
    seeds = np.arange(20260218, 20260218 + 40)
    config = RunConfig("contract", 8, lookalike=True)
    batch = contract_batch(config, seeds)
    for t, task in enumerate(sim.TASKS):
        for j, seed in enumerate(seeds):
            run = sim.run_task("contract", task, int(seed), 8, lookalike=True)
            assert (batch.correct[t, j], batch.steps[t, j], batch.tokens[t, j]) == (
                run.correct,
                run.steps,
                run.tokens,
            )


# ---- bad values


@pytest.mark.parametrize("wrong", ["yes", 1, None, 0.0])
def test_a_lookalike_that_is_not_a_switch_is_refused_by_name(wrong):
    for call in (lambda: RunConfig("contract", lookalike=wrong), lambda: measure("single-loop", 1, 8, lookalike=wrong),
                 lambda: sim.run_task("plan-execute", "G05", 1, 8, lookalike=wrong)):  # fmt: skip
        with pytest.raises(sim.InputTypeError, match="lookalike must be True or False"):
            call()


def test_lookalike_with_approval_is_refused_naming_both():
    with pytest.raises(sim.InputError, match="lookalike and approval cannot be combined"):
        sim.run_task("single-loop", "G05", 1, 8, approval=True, lookalike=True)


def _cli(*args):
    return run_cli(*args)


def test_the_cli_has_the_flag_and_says_what_ran():
    done = _cli("table", "--setups", "contract,single-loop", "--lookalike", "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    rows = rows if isinstance(rows, list) else rows["rows"]
    assert {row["rule"] for row in rows} == {
        "contract bounds, look-alike (LA1)",
        "fixed budget, look-alike (LA1)",
    }
    text = _cli("table", "--setups", "plan-execute", "--lookalike").stdout
    assert "fixed budget, look-alike (LA1)" in text and "right positions" not in text  # no five-tool accuracy
    refused = _cli("table", "--setups", "single-loop", "--lookalike", "--approval")
    assert refused.returncode == 2 and "--lookalike and --approval cannot be combined" in refused.stderr
