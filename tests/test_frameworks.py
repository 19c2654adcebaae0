"""Three agent frameworks (issue 29) run the five tools against the course's endpoint with every socket
but loopback refused: LangGraph's prebuilt ReAct agent, the OpenAI Agents SDK and smolagents'
ToolCallingAgent reach the single loop's tools and answer at the same seed, replay, and end at their
own bounds in their own way; smolagents sends its own system prompt and its own form of the trace."""

import functools
import json
import subprocess
import sys

import pytest
from offline_sockets import assert_only_loopback, guard_sockets

import sim
import sim.chat.model_endpoint as endpoint
from sim.chat.frameworks import (
    NEED_MORE_STEPS,
    RUNNERS,
    run_course_loop,
    run_langgraph,
    run_openai_agents,
    run_smolagents,
)
from sim.chat.messages import SYSTEM_LOOP, requests, tool_schemas
from sim.chat.model_endpoint import answer_text, completion, held_answer, serve
from sim.model.errors import InputError, InputTypeError
from sim.model.tasks import BY_NAME, correct_answer

SEED = 20260218
BUDGET = 8
TASKS = ("G05", "G20")  # a three-tool charge; a record task (write_record) with repeated calls
NATIVE = ("langgraph", "openai-agents")  # they send the calls and results as tool messages
SMOL_SYSTEM = "You are an expert assistant who can solve any task using tool calls."  # its prompt's start
SMOL_STUCK = "An agent tried to answer a user query but it got stuck"  # its max-steps request's system


@pytest.fixture
def offline(monkeypatch):
    """Every connection but loopback refused during the test."""
    guard_sockets(monkeypatch)


@pytest.fixture(scope="module")
def base_url():
    with serve() as url:
        yield url


@pytest.fixture
def sent(monkeypatch):
    """Every (request body, reply body) the endpoint answers during a test, in order."""
    exchanges = []

    def recorded(body):
        reply = completion(body)
        exchanges.append((body, reply))
        return reply

    monkeypatch.setattr(endpoint, "completion", recorded)  # the server's handler looks it up per request
    return exchanges


def test_an_outside_connection_is_refused(offline, base_url):
    assert_only_loopback(base_url)


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("framework", sorted(RUNNERS))
def test_a_framework_matches_the_single_loop(offline, base_url, framework, task):
    loop = sim.run_single_loop(task, SEED, BUDGET)
    run = RUNNERS[framework](task, SEED, base_url)
    # both pass each tool result back unchanged, so the endpoint replays the single loop's picks
    assert run.ended == "answer" and run.text == f"The answer is {loop.answer}."
    assert run.tools == [call.tool for call in loop.trace]
    assert (run.answer, run.held, run.errors) == (loop.answer, loop.answer, loop.errors)
    assert run.requests == loop.steps  # one model request a step, the stop included
    assert run.tokens > 0


@pytest.mark.parametrize("task", TASKS)
def test_the_frameworks_send_the_course_loops_conversation(offline, base_url, task):
    course = run_course_loop(task, SEED, base_url)
    langgraph, agents_sdk = run_langgraph(task, SEED, base_url), run_openai_agents(task, SEED, base_url)
    # LangGraph sends the messages and the tool schemas as the course's loop writes them
    assert langgraph.tokens == course.tokens and langgraph.requests == course.requests
    # the Agents SDK rewrites each tool's schema: the same few more tokens on every request
    extra, left = divmod(agents_sdk.tokens - course.tokens, course.requests)
    assert extra > 0 and left == 0 and agents_sdk.requests == course.requests


@pytest.mark.parametrize("framework", sorted(RUNNERS))
def test_a_run_replays(offline, base_url, framework):
    assert RUNNERS[framework]("G20", SEED, base_url) == RUNNERS[framework]("G20", SEED, base_url)


def test_langgraph_ends_at_its_bound_with_its_own_text(offline, base_url):
    run = run_langgraph("G05", SEED, base_url, recursion_limit=2)
    # at an even limit the prebuilt agent drops the tool call its last model request asked for and
    # says so; at an odd one it accepts that call and the graph raises before its tool step runs
    odd = run_langgraph("G05", SEED, base_url, recursion_limit=3)
    assert (odd.ended, odd.text, odd.tools, odd.requests) == ("GraphRecursionError", None, ["read_meter"], 2)
    assert (run.ended, run.text, run.tools, run.requests, run.answer) == (
        "need more steps", NEED_MORE_STEPS, [], 1, None)  # fmt: skip


def test_agents_sdk_ends_at_its_bound_with_max_turns_exceeded(offline, base_url):
    loop = sim.run_single_loop("G05", SEED, BUDGET)
    run = run_openai_agents("G05", SEED, base_url, max_turns=2)
    assert (run.ended, run.requests, run.answer) == ("MaxTurnsExceeded", 2, None)
    assert run.tools == [call.tool for call in loop.trace[:2]]  # each turn's tool ran before the bound
    assert run.held == loop.log[1].held


def _text(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "".join(part["text"] for part in content)


@pytest.mark.parametrize("task", TASKS)
def test_smolagents_sends_its_own_prompt_and_trace_and_finishes_by_its_tool(offline, base_url, sent, task):
    loop = sim.run_single_loop(task, SEED, BUDGET)
    run = run_smolagents(task, SEED, base_url)
    assert len(sent) == run.requests == loop.steps
    assert run.tokens == sum(reply["usage"]["total_tokens"] for _, reply in sent)  # the endpoint's usage
    names = [schema["function"]["name"] for schema in tool_schemas()]
    for k, (body, reply) in enumerate(sent):
        system = _text(body["messages"][0])
        assert body["messages"][0]["role"] == "system" and system.startswith(SMOL_SYSTEM)
        assert SYSTEM_LOOP not in system and all(f"{name}: " in system for name in names)
        assert [t["function"]["name"] for t in body["tools"]] == [*names, "final_answer"]
        assert body["tool_choice"] == "required" and not any(m["role"] == "tool" for m in body["messages"])
        assert (reply["sim"]["picks"], reply["sim"]["departures"]) == (k, [])  # read as the single loop's
    calls = [m for m in sent[-1][0]["messages"] if m["role"] == "assistant"]
    assert len(calls) == len(loop.trace) and all(_text(m).startswith("Calling tools:\n") for m in calls)
    last = sent[-1][1]["choices"][0]["message"]["tool_calls"][0]["function"]
    assert (last["name"], json.loads(last["arguments"])) == (
        "final_answer",
        {"answer": answer_text(loop.answer)},
    )
    # the same system prompt in every request, on its own more tokens than the whole LangGraph run
    prompt = {endpoint.estimated_tokens(body["messages"][0]) for body, _ in sent}
    assert len(prompt) == 1 and prompt.pop() * run.requests > run_langgraph(task, SEED, base_url).tokens


def _as_smolagents(messages: list) -> list:
    """A conversation of tool messages in smolagents' form: each call as assistant text "Calling tools:"
    (Python's text of the call, its arguments a dict), each result as a user "Observation:"."""
    out = []
    for message in messages:
        if message["role"] == "assistant" and message.get("tool_calls"):
            calls = [{**c, "function": {**c["function"], "arguments": json.loads(c["function"]["arguments"])}}
                     for c in message["tool_calls"]]  # fmt: skip
            out.append(
                {"role": "assistant", "content": [{"type": "text", "text": f"Calling tools:\n{calls}"}]}
            )
        elif message["role"] == "tool":
            out.append(
                {"role": "user", "content": [{"type": "text", "text": f"Observation:\n{message['content']}"}]}
            )
        else:
            out.append(message)
    return out


@pytest.mark.parametrize("task", TASKS)
def test_the_endpoint_reads_smolagents_form_as_tool_messages(task):
    run = sim.run_single_loop(task, SEED, BUDGET)
    model = f"sim-model@seed={SEED}&task={task}"
    with_final = [
        *tool_schemas(),
        {"type": "function", "function": {"name": "final_answer", "parameters": {}}},
    ]
    for messages in requests(run):
        native = completion({"model": model, "messages": messages, "tools": tool_schemas()})
        smol = completion({"model": model, "messages": _as_smolagents(messages), "tools": tool_schemas()})
        assert smol["choices"] == native["choices"] and smol["sim"]["departures"] == []
        finish = completion({"model": model, "messages": _as_smolagents(messages), "tools": with_final})
        call = (finish["choices"][0]["message"].get("tool_calls") or [None])[0]
        if native["choices"][0]["message"].get("tool_calls"):
            assert finish["choices"] == native["choices"]
        else:  # the stop: a call of final_answer holding the answer's text
            assert call["function"]["name"] == "final_answer"
            assert held_answer(json.loads(call["function"]["arguments"])["answer"]) == run.answer
    answered = completion({"model": model, "messages": _as_smolagents(requests(run)[-1])})
    assert held_answer(answered["choices"][0]["message"]["content"]) == run.answer  # no tools: the answer


def test_smolagents_refuses_a_call_unwritten_and_the_endpoint_reads_it(offline, base_url, sent):
    """G01: the model's first two calls miss a required argument; smolagents refuses them before they
    run and writes down only its error, no call; the endpoint reads each as the model's pick there."""
    loop = sim.run_single_loop("G01", SEED, BUDGET)
    run = run_smolagents("G01", SEED, base_url)
    assert [(call.tool, call.error) for call in loop.trace][:2] == [
        ("consumption", True),
        ("write_record", True),
    ]
    assert (run.tools, run.errors, run.answer) == (
        [call.tool for call in loop.trace],
        loop.errors,
        loop.answer,
    )
    assert run.requests == loop.steps and all(reply["sim"]["departures"] == [] for _, reply in sent)
    third = sent[2][0]["messages"]
    assert [m["role"] for m in third] == ["system", "user"]  # both refusals merged into the task message
    assert _text(third[1]).count("Error:\nArgument previous is required\nNow let's retry") == 1
    assert _text(third[1]).count("Error:\n") == 2


def test_smolagents_ends_at_max_steps_with_its_own_final_answer_request(offline, base_url, sent):
    loop = sim.run_single_loop("G05", SEED, BUDGET)
    run = run_smolagents("G05", SEED, base_url, max_steps=2)
    assert (run.ended, run.requests, len(sent)) == ("max steps", 3, 3)  # two steps and its own request
    assert run.tools == [call.tool for call in loop.trace[:2]]
    body, reply = sent[-1]
    assert "tools" not in body and _text(body["messages"][0]).startswith(SMOL_STUCK)
    question = _text(body["messages"][-1])
    assert question.startswith("Observation:\n") and question.endswith(f"task:\n{BY_NAME['G05'].request}")
    assert reply["sim"]["request"] == "final answer"  # its last observation and its question, merged
    assert run.answer == run.held == loop.log[1].held != correct_answer("G05")  # the answer held then
    assert run.text == answer_text(run.held)


@pytest.mark.parametrize("framework", sorted(RUNNERS))
def test_a_framework_answer_is_scored_by_correct_answer(offline, base_url, framework):
    for task, right in (("G05", True), ("G23", False)):  # at this seed the single loop errs on G23
        loop = sim.run_single_loop(task, SEED, BUDGET)
        run = RUNNERS[framework](task, SEED, base_url)
        assert (run.answer == correct_answer(task)) is (loop.answer == correct_answer(task)) is right, task


def test_bad_input_is_refused(base_url):
    with pytest.raises(InputError, match="base_url") as caught:  # a string, but not the endpoint's
        run_langgraph("G05", SEED, "https://api.example.com/v1")
    assert not isinstance(caught.value, TypeError)
    with pytest.raises(InputTypeError, match="base_url"):
        run_langgraph("G05", SEED, 8000)
    with pytest.raises(InputError, match="max_turns"):
        run_openai_agents("G05", SEED, base_url, max_turns=0)
    with pytest.raises(InputError, match="max_steps"):
        run_smolagents("G05", SEED, base_url, max_steps=0)
    with pytest.raises(InputError, match="recursion_limit"):
        run_langgraph("G05", SEED, base_url, recursion_limit=0)
    with pytest.raises(InputError, match="task"):
        run_langgraph("G99", SEED, base_url)


def test_importing_the_module_imports_no_framework():
    names = ("langgraph", "langchain_openai", "agents", "smolagents")
    code = f"import sys, sim.chat.frameworks; print(sorted(m for m in {names} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# lesson 7's recorded runs and the harness's framework entrant (sim.chat.framework_runs)
from sim.chat import framework_runs  # noqa: E402
from sim.measurement import harness  # noqa: E402
from sim.model.tasks import TASKS as ALL_TASKS  # noqa: E402

REPLAYED = ("G05", "G11", "G23")  # a short charge, a long one, a record: a few rows of each agent


@pytest.mark.parametrize("agent", framework_runs.LESSON_AGENTS, ids=lambda agent: agent.name)
def test_each_recorded_agent_replays_its_record(offline, base_url, agent):
    rows = framework_runs.recorded_rows()
    seed = int(rows["seed"].min())
    recorded = rows[(rows["agent"] == agent.name) & (rows["seed"] == seed)].set_index("task")
    for task in REPLAYED:
        live = framework_runs.record_row(agent.name, agent.run(task, seed, base_url))
        assert {k: v for k, v in live.items() if k not in ("agent", "seed", "task")} == {
            k: recorded.loc[task, k] for k in framework_runs.RECORD_COLUMNS[3:]
        }, (agent.name, task)


def test_the_record_holds_every_agent_task_and_seed_once():
    runs = framework_runs.recorded_runs()
    assert list(runs) == [agent.name for agent in framework_runs.LESSON_AGENTS]
    seeds = harness.held_out_seeds(len(runs["course loop, 8 steps"].seeds))
    for run in runs.values():
        assert run.correct.shape == (len(ALL_TASKS), len(seeds)) and (run.seeds == seeds).all()


def test_a_framework_agent_is_a_harness_entrant_scored_by_the_seeds_answers(offline):
    seeds = [SEED]
    loop = harness.entrant_run("single-loop", seeds)
    course = harness.entrant_run(framework_runs.FrameworkAgent("course loop", run_course_loop), seeds)
    agent = framework_runs.FrameworkAgent("langgraph", functools.partial(run_langgraph, recursion_limit=16))
    langgraph = harness.entrant_run(agent, seeds)
    within = loop.steps < BUDGET  # the runs that end before the budget of 8 requests
    for name in ("correct", "steps", "calls", "errors", "stopped"):
        # the course's loop through the endpoint is the engine's, run for run; only tokens are counted otherwise
        assert (getattr(course, name) == getattr(loop, name)).all(), name
        assert (getattr(langgraph, name)[within] == getattr(loop, name)[within]).all(), name
    assert (langgraph.tokens == course.tokens).all()  # LangGraph sends the course loop's requests
    assert harness.entrant_label(agent) == "langgraph"
    with pytest.raises(InputTypeError, match="agent with name and batch_run"):
        harness.check_entrant(object())


def test_records_batch_refuses_rows_that_miss_a_task():
    rows = framework_runs.recorded_rows()
    some = rows[rows["agent"] == "course loop, 8 steps"].iloc[:-1].to_dict("records")
    with pytest.raises(InputError, match="every task once at each seed"):
        framework_runs.records_batch("single-loop", some)


def test_the_default_bounds_are_the_pinned_frameworks_own():
    import inspect

    from agents.run import DEFAULT_MAX_TURNS
    from langgraph._internal._config import DEFAULT_RECURSION_LIMIT
    from smolagents import ToolCallingAgent

    from sim.chat.frameworks import DEFAULT_BOUNDS

    smolagents_default = (
        inspect.signature(ToolCallingAgent.__mro__[1].__init__).parameters["max_steps"].default
    )
    assert DEFAULT_BOUNDS == {"course-loop": BUDGET, "langgraph": int(DEFAULT_RECURSION_LIMIT),
                              "openai-agents": DEFAULT_MAX_TURNS, "smolagents": smolagents_default}  # fmt: skip


def test_a_framework_agent_is_checked_when_built_and_keeps_its_own_bound():
    with pytest.raises(InputTypeError, match="name"):
        framework_runs.FrameworkAgent("", run_langgraph)
    with pytest.raises(InputTypeError, match="run"):
        framework_runs.FrameworkAgent("x", "run_langgraph")
    with pytest.raises(InputError, match="setup"):
        framework_runs.FrameworkAgent("x", run_langgraph, "plan_execute")
    with pytest.raises(InputError, match="bound is its own"):
        harness.entrant_run(framework_runs.FrameworkAgent("x", run_langgraph), [SEED], max_steps=3)


def test_the_endpoint_refuses_a_text_call_it_cannot_read(base_url):
    body = {"model": f"sim-model@seed={SEED}&task=G05", "tools": tool_schemas(),
            "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": BY_NAME["G05"].request},
                         {"role": "assistant", "content": "Calling tools:\n[{'id': 'c', 'arguments': nan}]"},
                         {"role": "user", "content": "Observation:\n{}"}]}  # fmt: skip
    with pytest.raises(endpoint.EndpointError, match="list of calls"):
        completion(body)


def _handler_keeping(nothing_held):
    """Exercise 2's handler as the key writes it: the last m3, amount or code the run's tool results
    hold, and `nothing_held` (a text or None) when no result holds one."""
    from sim.engine.loops import RESULT_FIELDS

    def handler(data):
        held = None
        for item in data.run_data.new_items:
            if item.type == "tool_call_output_item":
                result = json.loads(item.output)
                held = next((result[key] for key in RESULT_FIELDS.values() if key in result), held)
        return nothing_held if held is None else f"The answer is {json.dumps(held)}."

    return handler


def test_exercise_2_tells_none_where_nothing_is_held_from_a_handler_not_written(offline):
    """Lesson 7's exercise 2 at seed 12345, where the course loop at 3 steps holds no answer at G19: the
    key's handler is right; one that returns None there is told so by task (not "not answered"), and
    a handler not yet written is "not answered"."""
    from sim.exercises.frameworks import check_exercise_2

    seed = 12345
    with serve() as base_url:
        assert run_course_loop("G19", seed, base_url, 3).answer is None  # the case the check must tell
    assert check_exercise_2(_handler_keeping("The answer is null."), seed).startswith("right")
    told = check_exercise_2(_handler_keeping(None), seed)
    assert told.startswith("wrong: at task G19 no result holds an answer"), told
    assert "'The answer is null.'" in " ".join(told.split())
    assert check_exercise_2(lambda data: None, seed).startswith("not answered yet")
    wrong = check_exercise_2(lambda data: "The answer is 0.", seed)
    assert wrong.startswith("wrong: at task"), wrong
