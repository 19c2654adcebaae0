"""A run as the chat-completions requests a real agent would send (lessons 1, 2 and 4); nothing here
calls a model. Each request re-sends the trace so far, as rule AA28 charges; the calls are replayed
on the run's starting state (the tools are pure), a contract's results read from its scratchpad."""

import json

import pandas as pd

from sim.engine.loops import TaskRun, call_and_observe, call_arguments, check_run, initial_state
from sim.model.arguments import wrong_value
from sim.model.checks import check_integer, check_items
from sim.model.costs import executor_step_tokens, loop_step_tokens, planner_tokens
from sim.model.tasks import TASKS, Task
from sim.model.world import TOOL_NAMES, TOOLS

SETUPS = ("single-loop", "plan-execute", "contract")  # every setup a run record can be of
TASK_OF_NAME = {task.name: task for task in TASKS}
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
    """The five tools as the chat format's function schemas (a request's `tools=`), a fresh list (lesson 1)."""
    schemas = []
    for name in TOOL_NAMES:
        properties = {field: {"type": FIELD_TYPES[field]} for field in TOOLS[name].fields}
        schemas.append({"type": "function", "function": {
            "name": name, "description": TOOL_PURPOSES[name],
            "parameters": {"type": "object", "properties": properties, "required": [f for f in TOOLS[name].fields if f != "type"]}}})  # fmt: skip
    return schemas


def call_turns(task: Task, tools, observations=None, wrong=None) -> list[dict]:
    """The assistant and tool turns of a task's calls (ids "call_k", JSON), replayed from its starting
    state or from recorded `observations` (a contract's scratchpad); `wrong`: per call, the arguments
    the model filled wrong (AE1), shown as sent. Inner: trusts a checked Task."""
    state, turns = initial_state(task), []
    for k, tool in enumerate(tools, start=1):
        miss = wrong[k - 1] if wrong else ()
        arguments = call_arguments(tool, state)
        arguments.update({name: wrong_value(name, arguments[name]) for name in miss})
        if observations is None:
            result = call_and_observe(tool, state, miss)
        else:
            result = dict(observations[k - 1])
            if "error" not in result:
                call_and_observe(tool, state, miss)  # the same fields join the state (the tools are pure)
        call = {"id": f"call_{k}", "type": "function",
                "function": {"name": tool, "arguments": json.dumps(arguments)}}  # fmt: skip
        turns.append({"role": "assistant", "content": None, "tool_calls": [call]})
        turns.append({"role": "tool", "tool_call_id": f"call_{k}", "content": json.dumps(result)})
    return turns


def head(system: str, user: str) -> list[dict]:
    """A request's first two messages: the system message and the user's."""
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def planner_messages(task: Task) -> list[dict]:
    """The split's one planner request (lesson 2)."""
    return head(SYSTEM_PLANNER, task.request)


def requests(run: TaskRun) -> list[list[dict]]:
    """The messages of every request a run sends, one list per step (lessons 1, 2, 4; CT8, CT9).
    Raises InputTypeError for anything but a run record of the single loop, the split or the contract."""
    return _requests(check_run(run, setups=SETUPS))


def _requests(run: TaskRun) -> list[list[dict]]:
    task = TASK_OF_NAME[run.task]
    if run.setup == "contract":
        return [messages for _, messages in _contract_requests(run, task)]
    turns = call_turns(task, [call.tool for call in run.trace], wrong=[call.wrong for call in run.trace])
    if run.setup == "single-loop":
        first, out = head(SYSTEM_LOOP, task.request), []
    else:
        first, out = (
            head(SYSTEM_EXECUTOR, f"{task.request}\nPlan: {json.dumps(list(run.plan))}"),
            [planner_messages(task)],
        )
    return out + [first + turns[: 2 * step.trace_length] for step in run.log]


def _contract_requests(run, task: Task) -> list[tuple[object, list[dict]]]:
    """(event, messages) for each step of a contract run: its planner and tool calls, in order."""
    raw = run.scratchpad.raw
    turns = call_turns(task, [tool for _, tool, _ in raw], [observation for _, _, observation in raw],
                       [call.wrong for call in run.trace])  # fmt: skip
    request, notes = task.request, iter(run.scratchpad.notes)
    out, plan, calls = [], "", 0
    for event in run.events:
        if event.kind in ("plan", "replan"):
            plan, messages = event.detail, planner_messages(task)
            if event.kind == "replan":  # CT9: the replan reads the error that stopped the plan before
                messages[-1] = {"role": "user", "content": f"{request}\nThe last plan failed: {next(notes)}"}
            out.append((event, messages))
        elif event.kind in ("call", "tool error"):
            out.append((event, head(SYSTEM_EXECUTOR, f"{request}\nPlan: {plan}") + turns[: 2 * calls]))
            calls += 1
    return out


def request_sizes(run: TaskRun) -> pd.DataFrame:
    """Each request of `requests(run)` beside the token rule (lesson 1): step, messages, characters
    (its JSON), request_tokens (what AA28, or CT9 for a contract, charges for it), tool ("plan",
    "replan", a tool or "stop") and tokens (all the step is charged). Raises as `requests`."""
    run = check_run(run, setups=SETUPS)
    if run.setup == "contract":
        return _contract_sizes(run)
    sent, rows = _requests(run), []
    if len(sent) > len(run.log):  # the split's planner call: the tokens its loop's steps did not take
        planned = run.tokens - sum(step.tokens for step in run.log)
        rows.append(_size(1, sent[0], planner_tokens(len(run.plan)), "plan", planned))
    cost = loop_step_tokens if run.setup == "single-loop" else executor_step_tokens
    for step, messages in zip(run.log, sent[len(sent) - len(run.log) :], strict=True):
        rows.append(_size(step.step, messages, cost(step.trace_length), step.tool or "stop", step.tokens))
    return pd.DataFrame(rows)


def _size(step: int, messages: list[dict], request_tokens: int, tool: str, tokens: int) -> dict:
    return {"step": step, "messages": len(messages), "characters": len(json.dumps(messages)),
            "request_tokens": request_tokens, "tool": tool, "tokens": tokens}  # fmt: skip


def _contract_sizes(run) -> pd.DataFrame:
    charged, before = {}, 0  # the tokens each event charged
    for event in run.events:
        charged[id(event)], before = event.tokens - before, event.tokens
    rows, calls = [], 0
    for event, messages in _contract_requests(run, TASK_OF_NAME[run.task]):
        if event.kind in ("plan", "replan"):
            tool, request_tokens = event.kind, planner_tokens(event.positions, event.kind == "replan")
        else:
            tool, request_tokens = run.scratchpad.raw[calls][1], executor_step_tokens(calls)
            calls += 1
        rows.append(_size(event.step, messages, request_tokens, tool, charged[id(event)]))
    return pd.DataFrame(rows)


def format_messages(messages: list[dict], width: int = 100) -> str:
    """Messages one a line, as the lessons print them: the role, then the text, the tool call or the
    result, cut at `width` characters. Raises for a list of anything but dicts or a width below 20."""
    width = check_integer(width, "width", 20)
    lines = []
    for message in check_items(messages, dict, "messages", "message dicts"):
        calls = message.get("tool_calls") or []
        text = " ".join(f"{c['function']['name']}({c['function']['arguments']})" for c in calls)
        line = f"{message.get('role', '?'):<9} | {text or message.get('content') or ''}"
        lines.append(line if len(line) <= width else line[: width - 3] + "...")
    return "\n".join(lines)


def _every(values) -> str:
    values = list(values)
    return "yes" if all(values) else "no" if not any(values) else "some"


def request_rules(bodies: dict) -> pd.DataFrame:
    """What each loop's recorded requests (name -> request bodies of one run, lesson 7) ask of the model:
    strict schemas, no extra fields, every field required, a description on every argument (yes, no or
    some of the tools, on the first request), the tool_choice values over the run, and whether the last
    request sends tool results back as tool messages or as user messages."""
    check_items(list(bodies.values()), list, "bodies", "lists of request bodies", 1)
    rows = []
    for name, sent in bodies.items():
        functions = [tool["function"] for tool in sent[0].get("tools", [])]
        fields = [function.get("parameters", {}) for function in functions]
        rows.append({
            "loop": name,
            "strict": _every(function.get("strict") for function in functions),
            "no extras": _every(p.get("additionalProperties") is False for p in fields),
            "all required": _every(set(p.get("required", [])) == set(p.get("properties", {})) for p in fields),
            "descriptions": _every(all("description" in f for f in p.get("properties", {}).values()) for p in fields),
            "tool_choice": ", ".join(sorted({str(body.get("tool_choice", "-")) for body in sent})),
            "results in": "tool" if any(m["role"] == "tool" for m in sent[-1]["messages"]) else "user",
        })  # fmt: skip
    return pd.DataFrame(rows)


def first_request_sizes(bodies: dict) -> pd.DataFrame:
    """Each loop's first recorded request (name -> request bodies of one run, lesson 7): its system
    message and its tool schemas in characters of JSON as sent, the tools it offers, its other fields."""
    check_items(list(bodies.values()), list, "bodies", "lists of request bodies", 1)
    rows = []
    for name, sent in bodies.items():
        first = sent[0]
        system = [m for m in first["messages"] if m["role"] in ("system", "developer")]
        rows.append({
            "loop": name,
            "system message": len(json.dumps(system)),
            "tools": len(first.get("tools", [])),
            "schemas": len(json.dumps(first.get("tools"))),
            "other fields": ", ".join(sorted(set(first) - {"model", "messages", "tools"})) or "-",
        })  # fmt: skip
    return pd.DataFrame(rows)
