"""The course's rule AE1 (issue 28): the model can get a tool's arguments wrong; off by default."""

import json
import math

import numpy as np
import pytest
from cli_run import run_cli

import sim
from sim.chat.messages import requests
from sim.engine.config import RunConfig
from sim.engine.contract import contract_run
from sim.engine.loops import call_and_observe, call_arguments, initial_state
from sim.engine.runs import run_task
from sim.measurement.batch import run_batch
from sim.measurement.batch_contract import contract_batch
from sim.measurement.counts import measure, measure_seeds
from sim.model.arguments import AT_RISK, wrong_value
from sim.model.world import SUBSCRIBERS, run_tool

SETUPS = ("single-loop", "plan-execute", "contract")
SEEDS = range(20260218, 20260238)


def test_off_by_default_and_a_share_changes_only_the_arguments():
    for setup in SETUPS:
        assert measure(setup, 20260218) == measure(setup, 20260218, argument_errors=None)
        plain, wrong = measure(setup, 20260218), measure(setup, 20260218, argument_errors=0.4)
        assert wrong.solved < plain.solved  # the answers suffer ...
        if setup != "contract":  # ... while the loops' picks, steps and tokens do not move (own stream)
            assert (wrong.steps, wrong.tokens, wrong.calls) == (plain.steps, plain.tokens, plain.calls)


def test_a_wrong_argument_is_a_plausible_neighbour():
    first, second = sorted(SUBSCRIBERS)[:2]
    assert (
        wrong_value("subscriber", first) == second
        and wrong_value("subscriber", sorted(SUBSCRIBERS)[-1]) == first
    )
    assert wrong_value("m3", 55) == 56 and wrong_value("value", 550) == 551
    assert wrong_value("value", "SY01") == "SY01" and wrong_value("query", "x") == "x"


def test_a_wrong_call_succeeds_with_a_wrong_result_and_no_tool_error():
    seen = 0
    for seed in SEEDS:
        for task in sim.TASKS:
            run = run_task("single-loop", task, seed, 8, argument_errors=0.3)
            state = initial_state(task)
            for call in run.trace:
                assert set(call.wrong) <= set(AT_RISK) and not (call.tool == "search_docs" and call.wrong)
                right = run_tool(call.tool, {**state, "value": state.get("result")})
                observed = call_and_observe(call.tool, state, call.wrong)
                if call.wrong and call.tool in ("read_meter", "tariff") and "error" not in right:
                    seen += 1
                    assert "error" not in observed and observed != right  # a success, with another result
    assert seen > 20


def test_the_share_of_arguments_filled_wrong_is_the_stated_share():
    share, wrong, at_risk = 0.25, 0, 0
    for seed in range(20260218, 20260318):
        for task in sim.TASKS:
            run = run_task("single-loop", task, seed, 8, argument_errors=share)
            state = initial_state(task)  # replayed: which arguments each call carried, at risk or not
            for call in run.trace:
                carried = call_arguments(call.tool, state)
                at_risk += sum(name in AT_RISK and wrong_value(name, v) != v for name, v in carried.items())
                wrong += len(call.wrong)
                call_and_observe(call.tool, state, call.wrong)
    assert at_risk > 2000
    assert abs(wrong / at_risk - share) < 4 * math.sqrt(share * (1 - share) / at_risk)


def test_the_messages_show_the_wrong_arguments_on_the_wire():
    for seed in SEEDS:
        run = run_task("single-loop", "G05", seed, 8, argument_errors=0.5)
        tariffs = [c for c in run.trace if c.tool == "tariff" and c.wrong == ("m3",) and not c.error]
        if not tariffs:
            continue
        turns = requests(run)[-1]
        sent = [json.loads(m["tool_calls"][0]["function"]["arguments"]) for m in turns if m.get("tool_calls")]
        results = [json.loads(m["content"]) for m in turns if m["role"] == "tool"]
        observed_m3 = next(r["m3"] for r in results if "m3" in r)
        assert any(s.get("m3") == observed_m3 + 1 for s in sent)
        return
    pytest.fail("no run with a wrong m3 in a tariff call")


def test_the_many_seed_paths_run_seed_by_seed():
    seeds = [20260218, 20260219, 7]
    batch = run_batch("single-loop", seeds, argument_errors=0.2)  # seed by seed, as one-seed runs
    assert batch.correct.tolist() == [
        [sim.is_correct(sim.run_task("single-loop", task, s, 8, argument_errors=0.2)) for s in seeds]
        for task in sim.TASKS
    ]
    config = RunConfig("plan-execute", 8, argument_errors=0.2)
    assert [m.solved for m in measure_seeds(config, seeds)] == [
        measure("plan-execute", s, argument_errors=0.2).solved for s in seeds
    ]
    contract = RunConfig("contract", 8, argument_errors=0.2)
    batch = contract_batch(contract, seeds)
    for t, task in enumerate(sim.TASKS):
        assert list(batch.correct[t]) == [contract_run(task, s, contract).correct for s in seeds]
        assert list(batch.tokens[t]) == [contract_run(task, s, contract).tokens for s in seeds]
    assert np.asarray(batch.correct).dtype == bool


@pytest.mark.parametrize(
    "value, error", [(0, ValueError), (1, ValueError), (1.5, ValueError), ("x", TypeError), (True, TypeError)]
)
def test_a_bad_share_is_refused_naming_the_option(value, error):
    with pytest.raises(error, match="argument_errors must be a number strictly between 0 and 1"):
        measure("single-loop", argument_errors=value)


def test_the_cli_takes_the_share_and_refuses_a_bad_one_in_one_line():
    done = run_cli("table", "--setups", "contract", "--argument-errors", "0.2", "--format", "json")
    rows = json.loads(done.stdout)
    assert (
        done.returncode == 0
        and rows[0]["success"] == measure("contract", rows[0]["seed"], argument_errors=0.2).success
    )
    for bad in ("2", "x"):
        refused = run_cli("table", "--argument-errors", bad)
        assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
        assert "--argument-errors must be a number strictly between 0 and 1" in refused.stderr


def test_the_checks_read_the_calls_as_sent():
    from sim.measurement.argument_checks import argument_error_table, request_check, sent_calls, state_check

    stopped = 0
    for seed in SEEDS:
        for task in sim.TASKS:
            run = run_task("plan-execute", task, seed, 8, argument_errors=0.3)
            calls = sent_calls(run)
            assert len(calls) == len(run.trace)
            for call, (sent, held) in zip(run.trace, calls, strict=True):
                assert state_check(sent, held) == bool(call.wrong)
                named = task.subscriber in task.request  # a document request names no subscriber
                if "subscriber" in call.wrong and held.get("subscriber") == task.subscriber and named:
                    assert request_check(sent, task.request)
                    stopped += 1
                if not call.wrong and held.get("subscriber") == task.subscriber:
                    assert not request_check(sent, task.request)
    assert stopped > 10
    table = argument_error_table([20260218, 20260219, 5], 0.2).set_index("setup")
    assert (table["stopped by state check"] == table["wrong calls"]).all()
    assert (table["stopped by request check"] <= table["wrong calls"] + 1).all()
    with pytest.raises(ValueError, match="share must be a number strictly between 0 and 1"):
        argument_error_table([1], 1.5)


def test_a_wrong_id_stays_in_its_call_and_the_replay_holds_what_the_loop_held():
    import sim.engine.loops as loops
    from sim.engine.exit_states import observed_fields
    from sim.engine.policy import policy_run

    held, original = {}, loops.Loop.record

    def record(self, stopped):
        held["state"] = dict(self.state)
        return original(self, stopped)

    loops.Loop.record = record
    try:
        wrong_writes = 0
        for seed in range(100, 140):
            for task in sim.TASKS:
                run = run_task("single-loop", task, seed, 8, argument_errors=0.3)
                assert observed_fields(run) == held["state"]
                assert held["state"]["subscriber"] == task.subscriber  # a tool's echo never overwrites it
                wrong_writes += any(c.tool == "write_record" and c.wrong for c in run.trace)
    finally:
        loops.Loop.record = original
    assert wrong_writes > 0
    labels = []

    def watcher(observation):
        labels.extend(call.wrong for call in observation.trace)
        return observation.model_pick()

    for seed in range(5):
        policy_run(watcher, sim.check_task("G23"), seed, RunConfig("single-loop", 8, argument_errors=0.5))
    assert labels and not any(labels)  # a policy sees what it sent, not AE1's label
