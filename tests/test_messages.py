"""The messages view (issue 15, section 1) checked against the simulator's own traces: one request
per step, one assistant tool call per executed call, the results in order and equal to the tools'."""

import json

import pytest

import sim
from sim.chat import messages
from sim.measurement.counts import measure
from sim.model.world import call_tool

RUNS = [sim.run_single_loop(task, seed, 8) for task in sim.TASK_NAMES for seed in (20260218, 20260219, 7)] + [
    sim.run_plan_execute(task, seed, 8) for task in sim.TASK_NAMES for seed in (20260218, 20260219, 7)
]


@pytest.mark.parametrize("run", RUNS, ids=[f"{r.setup}-{r.task}-{r.seed}" for r in RUNS])
def test_each_step_sends_one_request_that_resends_the_trace(run):
    sent = messages.requests(run)
    assert len(sent) == run.steps  # the split's planner call is a step (AA25)
    turns = messages.call_turns(sim.check_task(run.task), [c.tool for c in run.trace])
    last = sent[-1] + turns[2 * run.log[-1].trace_length :]
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
    state = sim.engine.loops.initial_state(sim.check_task("G05"))
    for turn in messages.call_turns(sim.check_task("G05"), [c.tool for c in run.trace]):
        if turn["role"] == "assistant":
            function = turn["tool_calls"][0]["function"]
            arguments = json.loads(function["arguments"])
            assert call_tool(function["name"], arguments) == sim.engine.loops.call_and_observe(
                function["name"], state
            )


def test_sizes_follow_the_token_rule():
    sizes = messages.request_sizes(sim.run_single_loop("G05", 20260218, 8))
    assert (sizes["request_tokens"].diff().dropna() == sim.model.costs.LOOP_TOKENS_PER_CALL).all()
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
    with pytest.raises(sim.InputTypeError, match="run"):
        messages.request_sizes(measure("contract", 1, 8))


CONTRACT_RUNS = [sim.run_task("contract", task, seed, budget) for task in sim.TASK_NAMES
                 for seed, budget in ((20260218, 8), (20260219, 8), (7, 3), (11, 12))]  # fmt: skip
CONTRACT_RUNS += [
    sim.run_task("contract", task, seed, 8, lookalike=True) for task in ("G05", "G09") for seed in (1, 2, 3)
]


@pytest.mark.parametrize("run", CONTRACT_RUNS, ids=[f"{r.task}-{r.seed}-{r.budget}" for r in CONTRACT_RUNS])
def test_a_contract_run_sends_one_request_per_planner_or_tool_call(run):
    sent, sizes = messages.requests(run), messages.request_sizes(run)
    assert len(sent) == len(sizes) == run.steps  # CT8: every planner call and every tool call is a step
    calls = sizes["tool"].isin(["plan", "replan"]) == False  # noqa: E712
    assert list(sizes.loc[calls, "tool"]) == [c.tool for c in run.trace]
    assert sum(sizes["tool"] == "replan") == run.replans and sizes["tokens"].sum() == run.tokens
    assert (
        sizes.loc[calls, "tokens"] == sizes.loc[calls, "request_tokens"] + sim.model.costs.OBSERVATION_TOKENS
    ).all()
    assert (sizes.loc[~calls, "tokens"] == sizes.loc[~calls, "request_tokens"]).all()
    executor = [request for request, call in zip(sent, calls, strict=True) if call]
    for k, request in enumerate(executor):
        assert len(request) == 2 + 2 * k  # every call of the run so far is re-sent
        names = [m["tool_calls"][0]["function"]["name"] for m in request if m["role"] == "assistant"]
        results = [json.loads(m["content"]) for m in request if m["role"] == "tool"]
        assert names == [c.tool for c in run.trace[:k]]
        assert results == [dict(observation) for _, _, observation in run.scratchpad.raw[:k]]
    replans = [
        request[-1]["content"] for request, tool in zip(sent, sizes["tool"], strict=True) if tool == "replan"
    ]
    assert all("The last plan failed: " in text for text in replans)


def test_a_timed_out_call_shows_the_recorded_timeout_not_a_result():
    from sim.engine import plan_schema

    task = sim.check_task("G05")
    plan = plan_schema.plan_from_tools(task.sequence, "amount", sim.engine.loops.initial_state(task))
    slow = plan.model_copy(
        update={"steps": (plan.steps[0].model_copy(update={"timeout": 1}), *plan.steps[1:])}
    )
    run = sim.engine.contract.run_contract("G05", 20260218, 8, first_plan=slow)
    assert run.trace[0].error
    turn = next(m for m in messages.requests(run)[-1] if m["role"] == "tool")
    assert json.loads(turn["content"])["error"].startswith("timed out")


def test_request_rules_read_what_each_loops_requests_ask():
    from sim.chat.messages import request_rules

    strict = {"function": {"name": "t", "strict": True, "parameters": {
        "properties": {"a": {"description": "a"}}, "required": ["a"], "additionalProperties": False}}}  # fmt: skip
    plain = {"function": {"name": "u", "parameters": {"properties": {"a": {}}, "required": []}}}
    bodies = {
        "x": [{"tools": [strict], "messages": [{"role": "user"}]}, {"messages": [{"role": "tool"}]}],
        "y": [{"tools": [strict, plain], "tool_choice": "required", "messages": [{"role": "user"}]}],
    }
    frame = request_rules(bodies).set_index("loop")
    assert frame.loc["x"].tolist() == ["yes", "yes", "yes", "yes", "-", "tool"]
    assert frame.loc["y"].tolist() == ["some", "some", "some", "some", "required", "user"]
    with pytest.raises(TypeError, match="bodies"):
        request_rules({"x": "not a list"})


def test_first_request_sizes_count_the_characters_sent():
    import json

    from sim.chat.messages import first_request_sizes

    system = {"role": "system", "content": "be brief"}
    tools = [{"function": {"name": "t"}}]
    bodies = {"x": [{"model": "m", "messages": [system, {"role": "user"}], "tools": tools, "stop": ["a"]}]}
    row = first_request_sizes(bodies).iloc[0].to_dict()
    assert row == {"loop": "x", "system message": len(json.dumps([system])), "tools": 1,
                   "schemas": len(json.dumps(tools)), "other fields": "stop"}  # fmt: skip
