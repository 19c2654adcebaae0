"""The planner-executor contract (sim.engine.contract, lesson 4): schema, validation, preconditions,
replanning, bounds, exit states, and the pairing of its first plan with the split's."""

import itertools
import json

import pytest
from cli_run import run_cli
from pydantic import ValidationError

from sim import TASKS, correct_answer, run_plan_execute, run_task
from sim.engine.config import DEFAULT_MAX_SECONDS, DEFAULT_MAX_TOKENS
from sim.engine.contract import run_contract
from sim.engine.exit_states import (
    EXIT_STATES,
    PARTIAL_SUCCESS,
    REPLAN_EXHAUSTED,
    STOP_REASONS,
    SUCCESS,
    TIMEOUT,
)
from sim.engine.plan_schema import TOOL_CONTRACTS, Plan, plan_from_tools, validate_plan
from sim.measurement.counts import measure
from sim.model.errors import InputError

INITIAL = ("subscriber", "query", "column")
CHARGE = ("read_meter", "consumption", "tariff")
RECORD = (*CHARGE, "write_record")


def _step(id_, tool, depends_on=(), timeout=4, **overrides):
    contract = TOOL_CONTRACTS.get(tool, TOOL_CONTRACTS["read_meter"])
    step = {"id": id_, "tool": tool, "depends_on": list(depends_on), "requires": list(contract.requires),
            "produces": list(contract.produces), "timeout": timeout}  # fmt: skip
    step.update(overrides)
    return step


def _right_charge_plan():
    return {"goal": "amount", "steps": [_step("s1", "read_meter"), _step("s2", "consumption", ["s1"]),
                                        _step("s3", "tariff", ["s1", "s2"])]}  # fmt: skip


# ---- schema and validation


def test_a_right_plan_passes_and_the_planner_writes_its_dependencies():
    assert validate_plan(_right_charge_plan(), INITIAL) == []
    plan = plan_from_tools(RECORD, "written", INITIAL)
    assert [s.depends_on for s in plan.steps] == [(), ("s1",), ("s2", "s1"), ("s3",)]
    assert validate_plan(plan, INITIAL) == []


@pytest.mark.parametrize(
    "change, kind, step, words",
    [
        (lambda p: p["steps"][2].update(id="s2"), "duplicate id", "s2", "the id is used twice"),
        (
            lambda p: p["steps"][1].update(tool="calculator"),
            "unknown tool",
            "s2",
            "unknown tool 'calculator'",
        ),
        (lambda p: p["steps"][1].update(depends_on=["s9"]), "missing dependency", "s2", "depends on 's9'"),
        (lambda p: p["steps"][1].update(depends_on=["s3"]), "later dependency", "s2", "not an earlier step"),
        (lambda p: p["steps"][0].update(depends_on=["s1"]), "later dependency", "s1", "a cycle"),
        (lambda p: p["steps"][2].update(depends_on=["s1"]), "data flow", "s3", "requires m3"),
        (lambda p: p["steps"][1].update(depends_on=[]), "data flow", "s2", "requires previous, current"),
        (lambda p: p.update(goal="written"), "goal", "s3", "no step produces the goal 'written'"),
    ],
)
def test_each_invalid_plan_is_refused_naming_the_step(change, kind, step, words):
    raw = _right_charge_plan()
    change(raw)
    problems = validate_plan(raw, INITIAL)
    assert problems and problems[0].kind == kind and problems[0].step == step
    assert words in problems[0].message and repr(step) in problems[0].message


def test_the_schema_itself_refuses_structure_and_bad_fields():
    raw = _right_charge_plan()
    raw["steps"][1]["tool"] = "calculator"
    with pytest.raises(ValidationError, match="step 's2': unknown tool 'calculator'"):
        Plan.model_validate(raw)
    raw = _right_charge_plan()
    raw["steps"][0]["timeout"] = 0
    assert validate_plan(raw, INITIAL)[0].kind == "schema"
    assert validate_plan({"goal": "m3", "steps": []}, INITIAL)[0].step == "plan"


def test_data_flow_counts_fields_held_in_the_scratchpad():
    plan = plan_from_tools(("tariff",), "amount", (*INITIAL, "m3", "type"), 4)
    assert validate_plan(plan, (*INITIAL, "m3", "type")) == []
    assert validate_plan(plan, INITIAL)[0].step == "s4"


# ---- runs: one constructed case per exit state, and per replan event


def test_g05_success_after_one_replan_that_the_refusal_caused():
    run = run_contract("G05")
    assert run.plan == ("tariff", "consumption", "tariff")
    assert (run.exit_state, run.stop_reason, run.correct) == (SUCCESS, "plan complete", True)
    assert run.replans == 1 and run.errors == 0 and run.calls == 3
    assert [e.kind for e in run.events] == ["plan", "refused", "replan", "call", "call", "call", "stop"]
    assert run.steps == 1 + 1 + 3 and run.answer == correct_answer(TASKS[4])
    assert run.tokens == (60 + 25 * 3) + (60 + 25 * 3 + 30) + (70 + 80 + 90)
    assert run.seconds == 5 + 5 + 2 + 1 + 1


def test_partial_success_holds_the_right_m3_when_the_step_budget_ends_it():
    run = run_contract("G05", max_steps=3, first_plan=_right_charge_plan())
    assert (run.exit_state, run.stop_reason, run.correct) == (PARTIAL_SUCCESS, "max_steps", False)
    record_task = next(t for t in TASKS if t.kind == "record")
    plan = plan_from_tools(RECORD, "written", INITIAL)
    run = run_contract(record_task, max_steps=4, first_plan=plan)
    # the amount is held and right (the seed's measure counts it correct) but the record is not written
    assert (run.exit_state, run.stop_reason, run.correct) == (PARTIAL_SUCCESS, "max_steps", True)


def test_replan_exhausted_with_no_replan_allowed():
    run = run_contract("G05", max_replans=0)
    assert (run.exit_state, run.stop_reason, run.replans, run.calls) == (
        REPLAN_EXHAUSTED,
        "max_replans",
        0,
        0,
    )


@pytest.mark.parametrize(
    "bounds, reason",
    [
        ({"max_steps": 2}, "max_steps"),
        ({"max_tokens": 205}, "max_tokens"),
        ({"max_seconds": 7}, "max_seconds"),
    ],
)
def test_timeout_names_the_bound_that_ended_the_run(bounds, reason):
    run = run_contract("G05", first_plan=_right_charge_plan(), **bounds)
    assert (run.exit_state, run.stop_reason) == (TIMEOUT, reason)
    assert run.calls == 1 and "previous" in run.scratchpad.fields


def test_a_failed_precondition_is_a_replan_event_not_a_blind_call():
    raw = _right_charge_plan()  # read_meter claims to produce m3: validation passes, the tool does not
    raw["steps"] = [_step("s1", "read_meter", produces=["previous", "current", "type", "m3"]),
                    _step("s2", "tariff", ["s1"])]  # fmt: skip
    assert validate_plan(raw, INITIAL) == []
    run = run_contract("G05", first_plan=raw, max_replans=0)
    assert run.calls == 1 and run.errors == 0 and run.stop_reason == "max_replans"
    assert run.scratchpad.notes == ("precondition: step 's2' (tariff): the scratchpad lacks m3",)


def test_a_tool_error_and_a_missed_goal_are_replan_events():
    raw = _right_charge_plan()
    raw["steps"][0]["timeout"] = 1  # read_meter takes 2 simulated seconds
    run = run_contract("G05", first_plan=raw, max_replans=0)
    assert run.errors == 1 and run.seconds == 5 + 1 and run.scratchpad.notes[0].startswith("timeout:")
    raw = _right_charge_plan()
    raw["steps"] = raw["steps"][:2]
    raw["steps"][1]["produces"] = ["m3", "amount"]  # consumption claims the goal
    run = run_contract("G05", first_plan=raw, max_replans=0)
    assert run.calls == 2 and run.scratchpad.notes[0].startswith("goal:")
    assert run.exit_state == PARTIAL_SUCCESS  # it holds the right m3


def test_failed_replans_are_counted():
    counted = []
    for task, seed in itertools.product(TASKS, range(40)):
        run = run_contract(task, seed, 12, 3)
        kinds = [e.kind for e in run.events]
        assert run.replans == kinds.count("replan") <= 3
        refused_after_replan = sum(a == "replan" and b == "refused" for a, b in itertools.pairwise(kinds))
        if refused_after_replan:
            counted.append(run)
            assert run.replans >= refused_after_replan
    assert counted  # some replans were themselves refused, and each still counted
    exhausted = [r for r in counted if r.exit_state == REPLAN_EXHAUSTED]
    assert exhausted and all(r.replans == 3 and r.calls == 0 for r in exhausted)


# ---- over many seeds and budgets


@pytest.mark.slow
def test_no_bound_is_ever_exceeded_and_every_run_has_one_exit_state():
    caps = [(DEFAULT_MAX_TOKENS, DEFAULT_MAX_SECONDS), (400, 12), (250, 8)]
    seen = set()
    for seed, budget, replans, (tokens, seconds) in itertools.product(
        range(6), (1, 2, 4, 6, 8, 12), range(4), caps
    ):
        for task in TASKS:
            run = run_contract(task, seed, budget, replans, tokens, seconds)
            assert run.steps <= budget and run.tokens <= tokens and run.seconds <= seconds
            assert run.replans <= replans
            assert run.exit_state in EXIT_STATES and run.stop_reason
            assert run.steps == run.calls + run.replans + (1 if run.events[0].kind == "plan" else 0)
            if run.exit_state == SUCCESS:
                assert run.correct and run.stop_reason == "plan complete"
            if run.exit_state == REPLAN_EXHAUSTED:
                assert run.stop_reason == "max_replans"
            seen.add((run.exit_state, run.stop_reason))
    assert {state for state, _ in seen} == set(EXIT_STATES)
    assert {reason for _, reason in seen} == {
        "plan complete",
        "max_steps",
        "max_tokens",
        "max_seconds",
        "max_replans",
    }


def test_the_defaults_are_twice_the_longest_right_run():
    record_task = next(t for t in TASKS if t.kind == "record")
    run = run_contract(record_task, first_plan=plan_from_tools(RECORD, "written", INITIAL))
    assert run.exit_state == SUCCESS and (run.tokens, run.seconds) == (500, 11)
    assert (DEFAULT_MAX_TOKENS, DEFAULT_MAX_SECONDS) == (2 * run.tokens, 2 * run.seconds)


# ---- pairing with the split


@pytest.mark.parametrize("seed", [20260218, 20260219, 0, 7, 4294967295])
def test_the_first_plan_is_the_splits_plan(seed):
    for task in TASKS:
        run = run_contract(task, seed)
        assert run.plan == run_plan_execute(task, seed).plan
        assert tuple(step.tool for step in run.plans[0].steps) == run.plan


def test_runs_are_deterministic():
    assert run_contract("G15", 99, 6, 1) == run_contract("G15", 99, 6, 1)


# ---- measurement, bad input, CLI


def test_contract_measurement_counts_exit_states():
    m = measure("contract", 20260218, 8)
    runs = [run_contract(task, 20260218, 8) for task in TASKS]
    counts = m.contract
    assert m.solved == sum(r.correct for r in runs) and counts.replans == sum(r.replans for r in runs)
    assert (
        counts.exit_success + counts.exit_partial_success + counts.exit_replan_exhausted + counts.exit_timeout
        == 24
    )
    assert counts.exit_success == sum(r.exit_state == SUCCESS for r in runs) and m.config.max_replans == 2
    assert measure("contract", 20260218, 8, max_replans=0).config.max_replans == 0
    stops = (counts.stop_plan_complete, counts.stop_max_steps, counts.stop_max_tokens, counts.stop_max_seconds,
             counts.stop_max_replans)  # fmt: skip
    assert stops == tuple(sum(r.stop_reason == reason for r in runs) for reason in STOP_REASONS)
    assert measure("single-loop", 20260218, 8).contract is None


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"max_replans": -1}, ValueError, "max_replans must be an integer >= 0, got -1"),
        ({"max_replans": "2"}, TypeError, "max_replans must be an integer >= 0, got '2'"),
        ({"max_tokens": 0}, ValueError, "max_tokens must be an integer >= 1"),
        ({"max_seconds": 1.5}, TypeError, "max_seconds must be an integer >= 1"),
        ({"max_steps": 0}, ValueError, "max_steps (the step budget)"),
    ],
)
def test_bad_bounds_are_refused(kwargs, error, words):
    with pytest.raises(error) as caught:
        run_contract("G05", **kwargs)
    assert words in str(caught.value)


def test_contract_options_belong_to_the_contract():
    with pytest.raises(ValueError, match="is an option of setup 'contract' only, not of 'plan-execute'"):
        run_task("plan-execute", "G05", 1, 8, max_replans=1)
    with pytest.raises(TypeError, match="unknown option 'max_retries'"):
        run_task("contract", "G05", 1, 8, max_retries=1)


def _cli(*args):
    return run_cli(*args)


def test_cli_json_has_the_contract_keys_and_the_api_values():
    done = _cli("table", "--setups", "contract,plan-execute", "--seeds", "3", "--budgets", "4,8",
                "--max-replans", "1", "--format", "json")  # fmt: skip
    rows = json.loads(done.stdout)
    assert [row["setup"] for row in rows] == ["contract", "contract", "plan-execute", "plan-execute"]
    assert "replans" not in rows[2]
    for row in rows[:2]:
        m = measure("contract", 3, row["budget"], max_replans=1)
        c = m.contract
        assert row == {"setup": "contract", "seed": 3, "budget": m.budget, "success": m.success, "steps": m.steps,
                       "calls": m.calls, "tokens": m.tokens, "errors": m.errors, "approvals": 0,
                       "replans": c.replans, "success_exit": m.success_exit, "exit_success": c.exit_success,
                       "exit_partial_success": c.exit_partial_success,
                       "exit_replan_exhausted": c.exit_replan_exhausted, "exit_timeout": c.exit_timeout,
                       "silent_failures": c.silent_failures, "false_alarms": c.false_alarms,
                       "max_replans": 1, "max_tokens": DEFAULT_MAX_TOKENS, "max_seconds": DEFAULT_MAX_SECONDS,
                       "rule": "contract bounds", "stop_when_done": False, "budget_margin": None,
                       "self_critique": False, "approval": False, "seconds": c.seconds,
                       "stop_plan_complete": c.stop_plan_complete, "stop_max_steps": c.stop_max_steps,
                       "stop_max_tokens": c.stop_max_tokens, "stop_max_seconds": c.stop_max_seconds,
                       "stop_max_replans": c.stop_max_replans}  # fmt: skip


def test_cli_csv_and_text_with_the_contract():
    lines = _cli(
        "table", "--setups", "single-loop,contract", "--seeds", "3", "--format", "csv"
    ).stdout.splitlines()
    assert lines[0].endswith(",replans,success_exit,exit_success,exit_partial_success,exit_replan_exhausted,"
                             "exit_timeout,silent_failures,false_alarms,max_replans,max_tokens,max_seconds,seconds,stop_plan_complete,"
                             "stop_max_steps,stop_max_tokens,stop_max_seconds,stop_max_replans")  # fmt: skip
    assert lines[1].startswith("single-loop,3,8,") and lines[1].endswith("," * 17)
    text = _cli("table", "--setups", "contract").stdout
    assert "contract                   A   0.9583     84     51      8075     0" in text
    assert "REPLAN_EXHAUSTED" in text
    trace = _cli("trace", "G05", "--setup", "contract").stdout
    assert "solved yes  stop reason plan complete  exit state SUCCESS  replans 1" in trace


@pytest.mark.parametrize(
    "args, words",
    [
        (
            ["table", "--max-replans", "1"],
            "--max-replans is an option of setup 'contract'; none of the chosen setups",
        ),
        (
            ["table", "--setups", "contract", "--max-replans", "-1"],
            "--max-replans must be an integer >= 0, got -1",
        ),
        (
            ["table", "--setups", "contract", "--max-tokens", "x"],
            "max-tokens must be a whole number, got 'x'",
        ),
        (
            ["trace", "G05", "--max-replans", "1"],
            "--max-replans is an option of setup 'contract' only, not of 'plan-execute'",
        ),
    ],
)
def test_cli_bad_contract_options_exit_2(args, words):
    done = _cli(*args)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr


def test_the_exit_state_read_from_a_trace_agrees_with_the_contracts_own():
    from sim import run_single_loop
    from sim.engine.exit_states import exit_state_of

    for seed, budget, replans in itertools.product(range(5), (2, 3, 5, 8), (0, 2)):
        for task in TASKS:
            run = run_contract(task, seed, budget, replans)
            assert exit_state_of(run) == run.exit_state
    loop = run_single_loop("G05", 20260218, 1)  # one call, no intermediate, the budget ran out
    assert exit_state_of(loop) == TIMEOUT
    assert exit_state_of(run_single_loop("G05", 20260218, 8)) == SUCCESS


def test_a_malformed_constructed_plan_is_refused_not_crashed():
    run = run_contract("G05", first_plan={"goal": "amount", "steps": 5}, max_replans=0)
    assert run.exit_state == REPLAN_EXHAUSTED and run.scratchpad.notes[0].startswith("schema:")
    with pytest.raises(TypeError, match="first_plan must be a Plan"):
        run_contract("G05", first_plan=["read_meter"])


def test_format_events_wraps_long_events_under_the_event_column():
    from sim.presentation.tables import EVENT_INDENT, format_events

    run = run_contract("G05", 20260218, 8)
    plain, wrapped = format_events(run), format_events(run, width=60)
    assert max(map(len, plain.splitlines())) > 60  # the refusal's message is long
    assert all(len(line) <= 60 or " " not in line[EVENT_INDENT:] for line in wrapped.splitlines())
    assert " ".join(wrapped.split()) == " ".join(plain.split())  # the same words, only wrapped
    with pytest.raises(InputError, match="width"):
        format_events(run, width=10)


# ---- the reported exit state beside the truth (issue 28)


def test_exit_truth_counts_reported_states_beside_the_answer():
    """Silent failures: SUCCESS with a wrong answer; false alarms: another state with the right one;
    exit_state_frame's rows are exit_truth's, and exit_truth_over_seeds is exit_truth a seed at a time."""
    from sim import RunConfig, is_correct
    from sim.engine.exit_states import exit_state_of
    from sim.engine.runs import run_with
    from sim.measurement.exit_tables import exit_state_frame, exit_truth, exit_truth_over_seeds

    config = RunConfig("plan-execute", 8, lookalike=True)
    for seed in (20260218, 20260219):
        runs = [run_with(config, task, seed) for task in TASKS]
        pairs = [(exit_state_of(run), is_correct(run)) for run in runs]
        truth = exit_truth(config, seed)
        assert truth["silent failures"] == sum(s == SUCCESS and not c for s, c in pairs)
        assert truth["false alarms"] == sum(s != SUCCESS and c for s, c in pairs)
        assert truth["solved (true)"] == sum(c for _, c in pairs) and sum(truth[s] for s in EXIT_STATES) == 24
    assert exit_truth(config, 20260218)["silent failures"] == 1  # G07: the look-alike's m3, then tariff
    assert exit_truth(config, 20260219)["false alarms"] == 2  # G20, G23: records cut by the budget
    frame = exit_state_frame(("plan-execute",), (20260218, 20260219), 8, lookalike=True)
    over = exit_truth_over_seeds(config, (20260218, 20260219))
    columns = [*EXIT_STATES, "solved (true)", "silent failures", "false alarms"]
    assert frame[columns].equals(over[columns]) and list(over["seed"]) == [20260218, 20260219]


@pytest.mark.parametrize(
    "config, seeds, error, words",
    [("contract", (1,), TypeError, "config must be a RunConfig"),
     (None, (-1,), ValueError, r"seed must be an integer 0 <= seed")],
)  # fmt: skip
def test_exit_truth_over_seeds_refuses_bad_input(config, seeds, error, words):
    from sim import RunConfig
    from sim.measurement.exit_tables import exit_truth_over_seeds

    with pytest.raises(error, match=words):
        exit_truth_over_seeds(RunConfig("contract", 8) if config is None else config, seeds)


def test_the_exit_state_figure_marks_the_truth():
    """Hatched bars for the silent failures, and each bar's solved count and false alarms beside it."""
    from sim.measurement.exit_tables import exit_state_frame
    from sim.presentation.figures_contract import draw_exit_states

    frame = exit_state_frame(("single-loop", "contract"), (20260218, 20260219), 8, lookalike=True)
    ax = draw_exit_states(frame).axes[0]
    hatched = [bar.get_width() for bar in ax.patches if bar.get_hatch()]
    assert hatched == list(frame["silent failures"]) and sum(hatched) > 0
    texts = {text.get_text() for text in ax.texts}
    truth = zip(frame["solved (true)"], frame["false alarms"], strict=True)
    assert all(f"solved {s}, false alarms {a}" in texts for s, a in truth)
