"""The messages view (issue 15, section 1) checked against the simulator's own traces: one request
per step, one assistant tool call per executed call, the results in order and equal to the tools'."""

import json

import pytest

import sim
from sim import messages
from sim.world import call_tool

RUNS = [sim.run_single_loop(task, seed, 8) for task in sim.TASK_NAMES for seed in (20260218, 20260219, 7)] + [
    sim.run_plan_execute(task, seed, 8) for task in sim.TASK_NAMES for seed in (20260218, 20260219, 7)
]


@pytest.mark.parametrize("run", RUNS, ids=[f"{r.setup}-{r.task}-{r.seed}" for r in RUNS])
def test_each_step_sends_one_request_that_resends_the_trace(run):
    sent = messages.requests(run)
    assert len(sent) == run.steps  # the split's planner call is a step (AA25)
    last = (
        sent[-1] + messages.call_turns(run.task, [c.tool for c in run.trace])[2 * run.log[-1].trace_length :]
    )
    calls = [m for m in last if m["role"] == "assistant"]
    results = [m for m in last if m["role"] == "tool"]
    assert [m["tool_calls"][0]["function"]["name"] for m in calls] == [c.tool for c in run.trace]
    assert all(len(m["tool_calls"]) == 1 for m in calls)
    assert [m["tool_call_id"] for m in results] == [m["tool_calls"][0]["id"] for m in calls]
    assert ["error" in json.loads(m["content"]) for m in results] == [c.error for c in run.trace]
    for step, request in zip(run.log, sent[run.steps - len(run.log) :], strict=True):
        assert len(request) == 2 + 2 * step.trace_length
        assert request == last[: len(request)]  # each request extends the one before


def test_arguments_are_what_the_tool_was_given():
    run = sim.run_single_loop("G05", 20260218, 8)
    state = sim.agents.initial_state(sim.check_task("G05"))
    for turn in messages.call_turns("G05", [c.tool for c in run.trace]):
        if turn["role"] == "assistant":
            function = turn["tool_calls"][0]["function"]
            arguments = json.loads(function["arguments"])
            assert call_tool(function["name"], arguments) == sim.agents.call_and_observe(
                function["name"], state
            )


def test_sizes_follow_the_token_rule():
    sizes = messages.request_sizes(sim.run_single_loop("G05", 20260218, 8))
    assert (sizes["request_tokens"].diff().dropna() == sim.costs.LOOP_TOKENS_PER_CALL).all()
    assert (sizes["messages"].diff().dropna() == 2).all()
    assert sizes["characters"].is_monotonic_increasing


def test_schemas_name_the_five_tools_and_their_fields():
    schemas = messages.tool_schemas()
    assert [s["function"]["name"] for s in schemas] == list(sim.TOOL_NAMES)
    for s in schemas:
        assert tuple(s["function"]["parameters"]["properties"]) == sim.TOOLS[s["function"]["name"]].fields


def test_bad_input_is_refused_naming_the_parameter():
    with pytest.raises(sim.InputTypeError, match="run"):
        messages.requests("G05")
    with pytest.raises(sim.InputError, match="run"):
        messages.requests(sim.run_task("contract", "G05", 1, 8))
    with pytest.raises(sim.InputError, match="tools"):
        messages.call_turns("G05", ["fly"])
    with pytest.raises(sim.InputTypeError, match="tools"):
        messages.call_turns("G05", "read_meter")
