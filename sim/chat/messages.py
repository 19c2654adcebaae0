"""The messages of a step: a run as the chat-completions requests a real agent would send
(lesson 1, the single loop; lesson 2, the split; lesson 4, the contract).

Nothing here calls a model. For a finished run of the single loop, the split or the contract, `requests`
rebuilds, step by step, the list of messages a request in the OpenAI chat format would carry
(the format hosted services and local servers such as Ollama, vLLM and llama.cpp's server
accept): a system message, the user's request, then for every tool call so far an assistant
turn holding the call (its arguments as JSON) and a tool turn holding the tool's result. The
five tools are described as function schemas (`tool_schemas`). Each request re-sends the whole
trace so far: that is what rule AA28 charges for (`sim.model.costs`), and `request_sizes` puts the
number of messages and their length beside the simulator's tokens for each step.

The arguments and results are the simulator's own: each call is replayed on the run's starting
state with the tool the run called (the tools are pure), so the results match the run's trace. A
contract run's results are the observations its scratchpad recorded (lesson 4), a timed-out call's
error included.
"""

import json
from collections.abc import Mapping

import pandas as pd

from sim.engine.loops import TaskRun, call_and_observe, check_run, initial_state
from sim.model.checks import check_choice, check_integer, check_items
from sim.model.costs import executor_step_tokens, loop_step_tokens, planner_tokens
from sim.model.errors import InputError
from sim.model.tasks import check_task
from sim.model.world import TOOL_NAMES, TOOLS, WORLD_TOOLS

SETUPS = ("single-loop", "plan-execute", "contract")  # every setup a run record can be of
SYSTEM_LOOP = ("You are an agent of a fictional water utility. At each step call exactly one tool, "
               "or reply without a tool call when the request is answered.")  # fmt: skip
SYSTEM_PLANNER = ("You plan for an agent of a fictional water utility. Reply with the tools to call, "
                  "in order, as a JSON list of tool names.")  # fmt: skip
SYSTEM_EXECUTOR = ("You execute a plan for an agent of a fictional water utility. At each step call the "
                   "plan's next tool, or reply without a tool call when the plan is done.")  # fmt: skip
FIELD_TYPES = {"subscriber": "string", "previous": "integer", "current": "integer", "m3": "integer",
               "type": "string", "query": "string", "column": "string", "value": ["integer", "string"]}  # fmt: skip
TOOL_PURPOSES = {
    "read_meter": "The subscriber's previous and current meter readings (m3), customer type and region.",
    "consumption": "The m3 used between two meter readings, with meter rollover.",
    "tariff": "The charge for m3 at the customer type (residential or commercial).",
    "search_docs": "The document that best matches a query: its code and text.",
    "write_record": "Write a value into a subscriber's column (a side effect).",
}


def tool_schemas() -> list[dict]:
    """The five tools as function schemas of the chat format (`tools=` of a request), a fresh list:
    each {"type": "function", "function": {"name", "description", "parameters"}} with the
    tool's fields (`sim.TOOLS`) as JSON-schema properties. Introduced in lesson 1."""
    schemas = []
    for name in TOOL_NAMES:
        properties = {field: {"type": FIELD_TYPES[field]} for field in TOOLS[name].fields}
        schemas.append({"type": "function", "function": {
            "name": name, "description": TOOL_PURPOSES[name],
            "parameters": {"type": "object", "properties": properties, "required": [f for f in TOOLS[name].fields if f != "type"]}}})  # fmt: skip
    return schemas


def call_turns(task, tools, observations=None) -> list[dict]:
    """The assistant and tool turns of a sequence of tool calls on a task, replayed from its
    starting state: for call k, an assistant turn with one tool call (id "call_k", the arguments
    the tool was given, as JSON) and a tool turn with the tool's result as JSON (lesson 1).

    Parameters
    ----------
    task : Task | str
        The task or its name, G01..G24.
    tools : Sequence[str]
        The tools called, in order (a run's trace); the look-alike of LA1 (lesson 4) too.
    observations : Sequence[Mapping] | None
        What each call returned, as recorded (a contract run's scratchpad, lesson 4); None to call the
        tools here. A recorded tool error leaves the state as it was, as a replayed one does.

    Raises
    ------
    InputTypeError, InputError
        For a bad task, or tools that are not a sequence of tool names.
    """
    state, turns = initial_state(check_task(task)), []
    tools = check_items(tools, str, "tools", "tool names")
    if observations is not None:
        observations = check_items(observations, Mapping, "observations", "mappings")
        if len(observations) != len(tools):
            raise InputError(
                f"observations must give one per tool: {len(observations)} for {len(tools)} tools"
            )
    for k, tool in enumerate(tools, start=1):
        check_choice(tool, f"tools[{k - 1}]", tuple(WORLD_TOOLS))
        given = {**state, "value": state.get("result")} if tool == "write_record" else state
        arguments = {field: given[field] for field in WORLD_TOOLS[tool].fields if field in given}
        if observations is None:
            result = call_and_observe(tool, state)
        else:
            result = dict(observations[k - 1])
            if "error" not in result:
                call_and_observe(tool, state)  # the same fields join the state (the tools are pure)
        call = {"id": f"call_{k}", "type": "function",
                "function": {"name": tool, "arguments": json.dumps(arguments)}}  # fmt: skip
        turns.append({"role": "assistant", "content": None, "tool_calls": [call]})
        turns.append({"role": "tool", "tool_call_id": f"call_{k}", "content": json.dumps(result)})
    return turns


def planner_messages(task) -> list[dict]:
    """The messages of the split's one planner call (lesson 2): the planner's system message and
    the user's request. Its reply is the plan, not a tool call."""
    task = check_task(task)
    return [{"role": "system", "content": SYSTEM_PLANNER}, {"role": "user", "content": task.request}]


def requests(run: TaskRun) -> list[list[dict]]:
    """The messages of every request a run sends, one list per step (lessons 1, 2 and 4).

    Parameters
    ----------
    run : Run | ContractRun
        A run of the single loop, the split or the contract (from `sim.run_task`,
        `sim.run_single_loop`, `sim.run_plan_execute`, `sim.run_contract` or `sim.engine.policy.run_policy`).

    Returns
    -------
    list[list[dict]]
        For the split, first the planner's request (`planner_messages`); then, for each step of
        the loop (`run.log`), the system message, the user's request (for the split, with the
        plan after it) and the turns of the calls made before that step (`call_turns`): a step
        after k calls re-sends 2 + 2 k messages. The tool a step called is the reply to its
        request, so it appears in the next request only.
        For the contract, one request per step, in the order of its events (CT8: a planner call
        and a tool call are steps): a plan or replan is a planner request (`planner_messages`; a
        replan adds the error that stopped the plan before, CT9); a tool call is an executor
        request carrying the plan it follows and every call of the run so far, with the results
        its scratchpad recorded. Refusals, failed preconditions and the stop are not requests.

    Raises
    ------
    InputTypeError, InputError
        For anything but a run record of the single loop, the split or the contract.
    """
    run = check_run(run, setups=SETUPS)
    if run.setup == "contract":
        return [messages for _, messages in _contract_requests(run)]
    turns = call_turns(run.task, [call.tool for call in run.trace])
    request = check_task(run.task).request
    if run.setup == "single-loop":
        head, out = [{"role": "system", "content": SYSTEM_LOOP}, {"role": "user", "content": request}], []
    else:
        plan = f"{request}\nPlan: {json.dumps(list(run.plan))}"
        head = [{"role": "system", "content": SYSTEM_EXECUTOR}, {"role": "user", "content": plan}]
        out = [planner_messages(run.task)]
    return out + [head + turns[: 2 * step.trace_length] for step in run.log]


def _contract_requests(run) -> list[tuple[object, list[dict]]]:
    """(event, messages) for each step of a contract run: its planner and tool calls, in order."""
    raw = run.scratchpad.raw
    turns = call_turns(run.task, [tool for _, tool, _ in raw], [observation for _, _, observation in raw])
    request, notes = check_task(run.task).request, iter(run.scratchpad.notes)
    out, plan, calls = [], "", 0
    for event in run.events:
        if event.kind in ("plan", "replan"):
            plan, messages = event.detail, planner_messages(run.task)
            if event.kind == "replan":  # CT9: the replan reads the error that stopped the plan before
                messages[-1] = {"role": "user", "content": f"{request}\nThe last plan failed: {next(notes)}"}
            out.append((event, messages))
        elif event.kind in ("call", "tool error"):
            head = [
                {"role": "system", "content": SYSTEM_EXECUTOR},
                {"role": "user", "content": f"{request}\nPlan: {plan}"},
            ]
            out.append((event, head + turns[: 2 * calls]))
            calls += 1
    return out


def request_sizes(run: TaskRun) -> pd.DataFrame:
    """Each request of a run beside the simulator's token rule (lesson 1).

    Returns a DataFrame, one row per request of `requests(run)`: step (the split's planner call
    is step 1), messages, characters (the messages as JSON, the length of what is re-sent),
    request_tokens (what rule AA28 charges for the request: 60 + 22 x trace length a single-loop
    step, 40 + 10 x trace length an executor step, 60 + 25 x plan length the planner call), tool
    (the tool the step called, "stop" when it stopped; for the planner call "plan"), and tokens
    (everything the simulator charges for the step: the request, plus the observation).

    For a contract run (lesson 4), one row per planner or tool call: tool is "plan", "replan" or
    the tool called; request_tokens follow CT9 (60 + 25 x positions written, + 30 for a replan's
    error context; 40 + 10 x calls so far a tool call); tokens are what the run's events charged.

    Raises as `requests`."""
    run = check_run(run, setups=SETUPS)
    if run.setup == "contract":
        return _contract_sizes(run)
    rows, all_requests = [], requests(run)
    offset = len(all_requests) - len(run.log)
    if offset:  # the split's planner call
        rows.append({"step": 1, "messages": len(all_requests[0]), "characters": len(json.dumps(all_requests[0])),
                     "request_tokens": planner_tokens(len(run.plan)), "tool": "plan", "tokens": run.tokens - sum(step.tokens for step in run.log)})  # fmt: skip
    request_cost = loop_step_tokens if run.setup == "single-loop" else executor_step_tokens
    for step, messages in zip(run.log, all_requests[offset:], strict=True):
        rows.append({"step": step.step, "messages": len(messages), "characters": len(json.dumps(messages)),
                     "request_tokens": request_cost(step.trace_length), "tool": step.tool or "stop", "tokens": step.tokens})  # fmt: skip
    return pd.DataFrame(rows)


def _contract_sizes(run) -> pd.DataFrame:
    charged, before = {}, 0  # the tokens each event charged
    for event in run.events:
        charged[id(event)], before = event.tokens - before, event.tokens
    rows, calls = [], 0
    for event, messages in _contract_requests(run):
        if event.kind in ("plan", "replan"):
            tool, request_tokens = event.kind, planner_tokens(event.positions, event.kind == "replan")
        else:
            tool, request_tokens = run.scratchpad.raw[calls][1], executor_step_tokens(calls)
            calls += 1
        rows.append({"step": event.step, "messages": len(messages), "characters": len(json.dumps(messages)),
                     "request_tokens": request_tokens, "tool": tool, "tokens": charged[id(event)]})  # fmt: skip
    return pd.DataFrame(rows)


def format_messages(messages: list[dict], width: int = 100) -> str:
    """Messages one a line, as lessons 1 and 2 print them: the role, then the text, the tool call
    (name and JSON arguments) or the tool's result, cut at `width` characters.

    Raises InputTypeError for anything but a list of message dicts, or a width that is not an
    integer >= 20."""
    width = check_integer(width, "width", 20)
    lines = []
    for message in check_items(messages, dict, "messages", "message dicts"):
        calls = message.get("tool_calls") or []
        text = " ".join(f"{c['function']['name']}({c['function']['arguments']})" for c in calls)
        line = f"{message.get('role', '?'):<9} | {text or message.get('content') or ''}"
        lines.append(line if len(line) <= width else line[: width - 3] + "...")
    return "\n".join(lines)
