"""Agent frameworks running the five tools against the course's endpoint (issue 29): LangGraph's prebuilt
ReAct agent, the OpenAI Agents SDK and smolagents' ToolCallingAgent, one task at one seed each.
FICTIONAL model, offline: the base URL is the endpoint's on 127.0.0.1; tracing and telemetry are
switched off; each framework is imported here lazily. Each tool runs `sim.model.world.run_tool` on
the run's state, folded as the single loop folds."""

import asyncio
import functools
import json
import os
import ssl
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from sim.chat.messages import SYSTEM_LOOP, head, tool_schemas
from sim.chat.model_endpoint import MODEL, fold, held_answer
from sim.engine.config import DEFAULT_BUDGET
from sim.engine.loops import initial_state
from sim.model.checks import check_integer, check_seed
from sim.model.errors import InputError, InputTypeError
from sim.model.tasks import Task, check_task
from sim.model.world import run_tool

FRAMEWORKS = ("course-loop", "langgraph", "openai-agents", "smolagents")
# each one's default: LangGraph 1.2.24 fills recursion_limit 10007 (LANGGRAPH_DEFAULT_RECURSION_LIMIT) when
# none is given, though langchain_core's DEFAULT_RECURSION_LIMIT says 25
DEFAULT_BOUNDS = {"course-loop": DEFAULT_BUDGET, "langgraph": 10007, "openai-agents": 10, "smolagents": 20}
BOUND_NAMES = {"course-loop": "max_steps", "langgraph": "recursion_limit", "openai-agents": "max_turns",
               "smolagents": "max_steps"}  # each runner's parameter for its bound  # fmt: skip
NEED_MORE_STEPS = "Sorry, need more steps to process this request."  # LangGraph's prebuilt, at its bound
OFFLINE_ENV = {"LANGSMITH_TRACING": "false", "LANGCHAIN_TRACING_V2": "false",
               "OPENAI_AGENTS_DISABLE_TRACING": "1"}  # fmt: skip


@dataclass
class FrameworkRun:
    """One framework run: tools called in order, tool errors, the answer of the final text (None when
    no answer text), the answer the tools' state holds, model requests, the endpoint's `usage`
    total tokens, and `ended`: "answer", or the framework's bound ending (LangGraph: "need more steps",
    Agents SDK: "MaxTurnsExceeded", smolagents: "max steps"); `text`: the final text."""

    framework: str
    task: str
    seed: int
    bound: int
    tools: list = field(default_factory=list)
    errors: int = 0
    answer: int | str | None = None
    held: int | str | None = None
    requests: int = 0
    tokens: int = 0
    ended: str = ""
    text: str | None = None


class _Tools:
    """The five tools' calls of one run: the state from the task's start, each call's observation folded
    in as `sim.engine.loops.call_and_observe` does, with the arguments the model sent."""

    def __init__(self, task: Task, record: FrameworkRun):
        self.state, self.record = initial_state(task), record

    def call(self, tool: str, arguments: dict) -> str:
        """The observation (JSON text) of `tool` called with the model's `arguments`; folds it in."""
        observation = run_tool(tool, dict(arguments))  # only what the model sent, as a real tool gets
        self.record.tools.append(tool)
        self.record.errors += "error" in observation
        fold(tool, self.state, observation)
        self.record.held = self.state.get("result")
        return json.dumps(observation)


@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context for every client made here. The endpoint is plain http on loopback and never uses
    it, but a client left to make its own reads the system's CA file each time (about 20 ms)."""
    return ssl.create_default_context()


def http_client(asynchronous: bool = False):
    """An HTTP client for an OpenAI client, openai's default one with the shared TLS context."""
    from openai import DefaultAsyncHttpxClient, DefaultHttpxClient

    return (DefaultAsyncHttpxClient if asynchronous else DefaultHttpxClient)(verify=_tls())


def check_base_url(base_url: object) -> str:
    """`base_url` if the course endpoint's http://127.0.0.1:PORT/v1; else InputTypeError, InputError."""
    allowed = "base_url must be the endpoint's http://127.0.0.1:PORT/v1"
    if not isinstance(base_url, str):
        raise InputTypeError(f"{allowed}, got {type(base_url).__name__}")
    if not base_url.startswith("http://127.0.0.1:"):
        raise InputError(f"{allowed}, got {base_url!r}")
    return base_url


def _checked(framework: str, task: object, seed: object, bound: object, base_url: object):
    if framework not in FRAMEWORKS:
        raise InputError(f"framework must be one of {', '.join(FRAMEWORKS)}, got {framework!r}")
    task = check_task(task)
    seed = check_seed(seed)
    bound = (
        DEFAULT_BOUNDS[framework]
        if bound is None
        else check_integer(bound, BOUND_NAMES[framework], minimum=1)
    )
    check_base_url(base_url)
    os.environ.update(OFFLINE_ENV)
    record = FrameworkRun(framework, task.name, seed, bound)
    return task, record, _Tools(task, record), f"{MODEL}@seed={seed}&task={task.name}"


def _finish(record: FrameworkRun, text: object) -> FrameworkRun:
    record.ended, record.text = "answer", text if isinstance(text, str) else None
    try:
        record.answer = held_answer(text)
    except (InputError, InputTypeError):
        record.answer = None
    return record


def langchain_tools(calls: _Tools) -> dict:
    """The five tools as LangChain StructuredTools by name, schemas from `tool_schemas`; each runs
    `calls.call` with the model's arguments."""
    from langchain_core.tools import StructuredTool

    def tool_of(schema: dict):
        name = schema["function"]["name"]
        return StructuredTool.from_function(
            func=lambda **arguments: calls.call(name, arguments), name=name,
            description=schema["function"]["description"], args_schema=schema["function"]["parameters"],
        )  # fmt: skip

    return {tool.name: tool for tool in map(tool_of, tool_schemas())}


def run_langgraph(task, seed: int, base_url: str,
                  recursion_limit: int | None = None) -> FrameworkRun:  # fmt: skip
    """LangGraph's prebuilt `create_react_agent` with ChatOpenAI on `base_url`; its bound is
    `recursion_limit` (graph steps: a model call and a tool step are one each; default 10007). Measured at
    the pin: at an even limit the prebuilt drops the last request's tool call and answers NEED_MORE_STEPS
    (ended "need more steps"); at an odd one it accepts that call and the graph raises GraphRecursionError
    before running it (ended so, no answer). create_react_agent is deprecated at the pin (moved to
    langchain.agents.create_agent) and still shipped; its warning is silenced."""
    task, record, calls, model = _checked("langgraph", task, seed, recursion_limit, base_url)
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_openai import ChatOpenAI
    from langgraph.errors import GraphRecursionError
    from langgraph.prebuilt import create_react_agent

    class Usage(BaseCallbackHandler):
        def on_llm_end(self, response, **kwargs):
            record.requests += 1
            usage = (response.llm_output or {}).get("token_usage", {})
            record.tokens += usage.get("total_tokens", 0)

    chat = ChatOpenAI(model=model, base_url=base_url, api_key="none", max_retries=0, timeout=10,
                      http_client=http_client(), http_async_client=http_client(asynchronous=True))  # fmt: skip
    with warnings.catch_warnings():  # moved to langchain.agents in LangGraph 1.0; still here
        warnings.simplefilter("ignore")
        agent = create_react_agent(chat, list(langchain_tools(calls).values()), prompt=SYSTEM_LOOP)
    config = {"recursion_limit": record.bound, "callbacks": [Usage()]}
    try:
        state = agent.invoke({"messages": [("user", task.request)]}, config=config)
    except GraphRecursionError as error:
        record.ended = type(error).__name__
        return record
    _finish(record, state["messages"][-1].content)
    if record.text == NEED_MORE_STEPS:
        record.ended = "need more steps"
    return record


def _run_coroutine(make: Callable):
    """The result of the coroutine `make()`: run here, or in a thread of its own where this thread already
    runs an event loop (a notebook's kernel), since asyncio.run cannot nest."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


def run_openai_agents(task, seed: int, base_url: str, max_turns: int | None = None,
                      on_max_turns: Callable | None = None) -> FrameworkRun:  # fmt: skip
    """The OpenAI Agents SDK's Runner with OpenAIChatCompletionsModel on `base_url`, tracing off, the tools
    FunctionTools at their defaults (strict JSON schemas). Its bound is `max_turns` (model calls;
    default 10), past which it raises MaxTurnsExceeded, or, given
    `on_max_turns`, calls it as its `error_handlers["max_turns"]` (ended "max_turns handler", its
    return value the final text). Raises InputTypeError for an on_max_turns that is not callable."""
    if on_max_turns is not None and not callable(on_max_turns):
        raise InputTypeError(f"on_max_turns must be a function or None, got {type(on_max_turns).__name__}")
    task, record, calls, model = _checked("openai-agents", task, seed, max_turns, base_url)
    from agents import (
        Agent,
        FunctionTool,
        MaxTurnsExceeded,
        OpenAIChatCompletionsModel,
        Runner,
        set_tracing_disabled,
    )
    from openai import AsyncOpenAI

    set_tracing_disabled(True)

    def tool_of(schema: dict):
        name = schema["function"]["name"]

        async def invoke(context, arguments: str) -> str:
            return calls.call(name, json.loads(arguments or "{}"))

        return FunctionTool(name=name, description=schema["function"]["description"],
                            params_json_schema=schema["function"]["parameters"], on_invoke_tool=invoke)  # fmt: skip

    client = AsyncOpenAI(base_url=base_url, api_key="none", max_retries=0, timeout=10,
                         http_client=http_client(asynchronous=True))  # fmt: skip
    agent = Agent(name="sim", instructions=SYSTEM_LOOP, tools=[tool_of(s) for s in tool_schemas()],
                  model=OpenAIChatCompletionsModel(model=model, openai_client=client))  # fmt: skip

    handled = []

    def handler(data):
        handled.append(True)
        return on_max_turns(data)

    handlers = {} if on_max_turns is None else {"max_turns": handler}

    async def run():
        try:
            return await Runner.run(
                agent, task.request, max_turns=record.bound, error_handlers=handlers
            ), None
        except MaxTurnsExceeded as error:
            return None, error
        finally:
            await client.close()

    result, error = _run_coroutine(run)
    usage = (error.run_data.context_wrapper if error else result.context_wrapper).usage
    record.requests, record.tokens = usage.requests, usage.total_tokens
    if error is not None:
        record.ended = type(error).__name__
        return record
    _finish(record, result.final_output)
    if handled:
        record.ended = "max_turns handler"
    return record


SMOLAGENTS_OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}  # no hub calls on its path


def run_smolagents(task, seed: int, base_url: str, max_steps: int | None = None) -> FrameworkRun:
    """smolagents' ToolCallingAgent with OpenAIServerModel on `base_url` and the system prompt it builds;
    its bound is `max_steps` (action steps, a model call each; default 20), at which it makes its own
    final-answer request (no tools; ended "max steps"); it finishes by its final_answer tool. A call its
    argument check refuses (a required argument missing, a wrong type) never runs: it counts as a call
    with a tool error, as `run_tool` would report it. Offline:
    its run path calls no hub (hub calls are only in push_to_hub / from_hub, and HF_HUB_OFFLINE is set);
    its import loads a .env file into the environment (python-dotenv), nothing more."""
    task, record, calls, model = _checked("smolagents", task, seed, max_steps, base_url)
    os.environ.update(SMOLAGENTS_OFFLINE_ENV)
    from smolagents import ActionStep, AgentToolCallError, LogLevel, OpenAIServerModel, Tool, ToolCallingAgent

    class SimTool(Tool):
        skip_forward_signature_validation = True  # forward takes the schema's fields as keywords
        output_type = "string"

        def __init__(self, schema: dict):
            function = schema["function"]
            required = function["parameters"].get("required", [])
            self.name, self.description = function["name"], function["description"]
            optional = {"nullable": True}  # smolagents' mark of an argument that may be left out
            self.inputs = {key: {**value, "description": key, **({} if key in required else optional)}
                           for key, value in function["parameters"]["properties"].items()}  # fmt: skip
            super().__init__()

        def forward(self, **arguments) -> str:
            return calls.call(self.name, arguments)

    def count(step):
        if step.token_usage is not None:  # one model request (the max-steps final answer included)
            record.requests += 1
            record.tokens += step.token_usage.total_tokens
        asked = (step.model_output_message and step.model_output_message.tool_calls) or []
        if isinstance(step.error, AgentToolCallError) and step.tool_calls is None and asked:
            record.tools.append(asked[0].function.name)  # refused by its argument check, never run
            record.errors += 1

    chat = OpenAIServerModel(model_id=model, api_base=base_url, api_key="none",
                             client_kwargs={"max_retries": 0, "timeout": 10,
                                            "http_client": http_client()})  # fmt: skip
    agent = ToolCallingAgent(tools=[SimTool(s) for s in tool_schemas()], model=chat, max_steps=record.bound,
                             verbosity_level=LogLevel.OFF, step_callbacks={ActionStep: count})  # fmt: skip
    result = agent.run(task.request, return_full_result=True)
    _finish(record, str(result.output) if isinstance(result.output, str) else result.output)  # AgentText
    if result.state == "max_steps_error":
        record.ended = "max steps"
    return record


def run_course_loop(task, seed: int, base_url: str, max_steps: int | None = None) -> FrameworkRun:
    """The course's single loop (lesson 1) as a plain client of the endpoint, the like-for-like
    baseline: SYSTEM_LOOP and the five tools on every request, the call returned run; a text reply
    ends it ("answer"); at `max_steps` requests (default 8) the answer is the one the state holds,
    with no further request (ended "budget"), as the engine's loop ends."""
    task, record, calls, model = _checked("course-loop", task, seed, max_steps, base_url)
    from openai import OpenAI

    messages, tools = head(SYSTEM_LOOP, task.request), tool_schemas()
    with OpenAI(
        base_url=base_url, api_key="none", max_retries=0, timeout=10, http_client=http_client()
    ) as client:
        while record.requests < record.bound:
            reply = client.chat.completions.create(model=model, messages=messages, tools=tools)
            record.requests, record.tokens = record.requests + 1, record.tokens + reply.usage.total_tokens
            message = reply.choices[0].message
            if not message.tool_calls:
                return _finish(record, message.content)
            call = message.tool_calls[0]
            result = calls.call(call.function.name, json.loads(call.function.arguments or "{}"))
            sent = {"id": call.id, "type": "function",
                    "function": {"name": call.function.name, "arguments": call.function.arguments}}  # fmt: skip
            messages += [{"role": "assistant", "content": None, "tool_calls": [sent]},
                         {"role": "tool", "tool_call_id": call.id, "content": result}]  # fmt: skip
    record.ended, record.answer = "budget", record.held
    return record


RUNNERS = {"course-loop": run_course_loop, "langgraph": run_langgraph, "openai-agents": run_openai_agents,
           "smolagents": run_smolagents}  # fmt: skip
