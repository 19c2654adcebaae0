"""The planner/executor split as a LangGraph StateGraph (issue 29), against the course's endpoint: a
planner node, an executor node and, in the style of LangGraph's plan-and-execute tutorial, a replanner
node. FICTIONAL model, offline: the base URL is the endpoint's on 127.0.0.1; LangGraph is imported lazily.

- The split's rules (lesson 2): the planner's one call is a step of the budget (AA25); the executor
  calls at most budget - 1 times; when the budget is used up without an answer, one request without
  tools reads the answer held (ended "budget"): one request more than lesson 2's split, which reports it.
- The replanner (replan=True) asks the planner again after each executed step, with the steps done so
  far. Under the course's model a planner request always gets the run's one plan (AA24), so the graph
  keeps, as `remaining`, the steps of the returned plan after the calls made; the executor still sends
  the plan as first written (it counts its calls along it, AA26) and falls back on the single loop's
  rule when the plan is used up (AA27), so the replanner never ends a run: it costs requests and
  tokens and changes no call. It reads only the reply and the calls made, never the task's sequence.
- `recursion_limit` is LangGraph's own bound (super-steps); hit, it raises GraphRecursionError, recorded
  as ended "GraphRecursionError" with no answer; by default the 10007 LangGraph 1.2.24 fills in (its
  documentation says 25).
"""

import json
import os
from dataclasses import dataclass
from typing import TypedDict

from sim.chat.frameworks import (
    DEFAULT_BOUNDS,
    OFFLINE_ENV,
    FrameworkRun,
    _finish,
    _Tools,
    check_base_url,
    http_client,
    langchain_tools,
)
from sim.chat.messages import SYSTEM_EXECUTOR, SYSTEM_PLANNER, head, planner_messages
from sim.chat.model_endpoint import MODEL
from sim.engine.config import DEFAULT_BUDGET
from sim.model.checks import check_integer, check_seed
from sim.model.errors import InputTypeError
from sim.model.tasks import Task, check_task

FRAMEWORK = "langgraph-plan-execute"
DEFAULT_RECURSION_LIMIT = DEFAULT_BOUNDS["langgraph"]


@dataclass
class PlanGraphRun(FrameworkRun):
    """A FrameworkRun of the graph, with the plan the planner wrote (None before it answered) and the
    replanner's requests; `steps`: the split's steps (the planner's and the executor's requests)."""

    plan: list | None = None
    replans: int = 0

    @property
    def steps(self) -> int:
        return self.requests - self.replans - (self.ended == "budget")


class PlanState(TypedDict):
    """The graph's state: the plan as written, the replanner's remaining steps, the executor's
    messages, the steps done ([tool, observation] pairs, the tutorial's past_steps), the split's steps
    so far (the planner's call included), the final text and how the run ended ("answer": the
    executor's; "budget": read after the budget was used up)."""

    plan: list
    remaining: list
    messages: list
    past_steps: list
    steps: int
    answer: str | None
    ended: str


def remaining_steps(returned: list, done: list) -> list:
    """The replanner's rule: the steps of the returned plan after the steps done (by position)."""
    return returned[len(done) :]


def plan_graph(task: Task, chat, tools: dict, record: PlanGraphRun, replan: bool = True,
               budget: int = DEFAULT_BUDGET):  # fmt: skip
    """The compiled StateGraph of the split on a checked task: `chat` a ChatOpenAI on the endpoint,
    `tools` the five LangChain tools by name, `record` counting requests and tokens. Inner: trusts
    its input."""
    from langchain_core.messages import ToolMessage
    from langgraph.graph import END, START, StateGraph

    executor_chat = chat.bind_tools(list(tools.values()))

    def ask(model, messages):  # one request: counted, with the endpoint's usage
        reply = model.invoke(messages)
        record.requests += 1
        record.tokens += reply.response_metadata["token_usage"]["total_tokens"]
        return reply

    def planner(state: PlanState) -> dict:
        plan = json.loads(ask(chat, planner_messages(task)).content)
        record.plan = plan
        first = head(SYSTEM_EXECUTOR, f"{task.request}\nPlan: {json.dumps(plan)}")
        return {"plan": plan, "remaining": plan, "messages": first, "past_steps": [], "steps": 1}

    def executor(state: PlanState) -> dict:
        reply = ask(executor_chat, state["messages"])
        steps = state["steps"] + 1
        if not reply.tool_calls:  # a text reply is the answer
            return {"answer": reply.content, "ended": "answer", "steps": steps}
        messages, done = state["messages"] + [reply], list(state["past_steps"])
        for call in reply.tool_calls:
            result = tools[call["name"]].invoke(call["args"])
            messages.append(ToolMessage(result, tool_call_id=call["id"]))
            done.append([call["name"], json.loads(result)])
        return {"messages": messages, "past_steps": done, "steps": steps}

    def replanner(state: PlanState) -> dict:
        done = state["past_steps"]
        user = f"{task.request}\nPlan: {json.dumps(state['plan'])}\nDone: {json.dumps(done)}"
        returned = json.loads(ask(chat, head(SYSTEM_PLANNER, user)).content)  # AA24: one plan a run
        record.replans += 1
        return {"remaining": remaining_steps(returned, done)}

    def final_answer(state: PlanState) -> dict:  # the budget is used up: the answer held, no tools
        return {"answer": ask(chat, state["messages"]).content, "ended": "budget"}

    def after_executor(state: PlanState) -> str:
        if state["answer"] is not None:
            return END
        if state["steps"] >= budget:
            return "final_answer"
        return "replanner" if replan else "executor"

    graph = StateGraph(PlanState)
    graph.add_node("planner", planner)
    graph.add_node("executor", executor)
    graph.add_node("final_answer", final_answer)
    graph.add_edge(START, "planner")
    graph.add_edge("planner", "executor")
    graph.add_conditional_edges("executor", after_executor,
                                [END, "final_answer", "replanner" if replan else "executor"])  # fmt: skip
    if replan:
        graph.add_node("replanner", replanner)
        graph.add_edge("replanner", "executor")
    graph.add_edge("final_answer", END)
    return graph.compile()


def run_langgraph_plan_execute(task, seed: int, base_url: str, recursion_limit: int | None = None,
                               replan: bool = True, budget: int | None = None) -> PlanGraphRun:  # fmt: skip
    """The split as a LangGraph StateGraph with ChatOpenAI on `base_url` (see the module's rules);
    `budget`: the split's steps (default DEFAULT_BUDGET, at least 2: the planner and one executor
    call); `recursion_limit`: LangGraph's super-steps (default 10007). Raises InputTypeError, InputError
    for a bad task, seed, recursion_limit, budget, replan or base URL."""
    from langchain_openai import ChatOpenAI
    from langgraph.errors import GraphRecursionError

    task, seed = check_task(task), check_seed(seed)
    limit = recursion_limit
    bound = DEFAULT_RECURSION_LIMIT if limit is None else check_integer(limit, "recursion_limit", 1)
    budget = DEFAULT_BUDGET if budget is None else check_integer(budget, "budget", 2)
    if not isinstance(replan, bool):
        raise InputTypeError(f"replan must be True or False, got {type(replan).__name__}")
    check_base_url(base_url)
    os.environ.update(OFFLINE_ENV)
    record = PlanGraphRun(FRAMEWORK, task.name, seed, bound)
    model = f"{MODEL}@seed={seed}&task={task.name}"
    chat = ChatOpenAI(model=model, base_url=base_url, api_key="none", max_retries=0, timeout=10,
                      http_client=http_client(), http_async_client=http_client(asynchronous=True))  # fmt: skip
    graph = plan_graph(task, chat, langchain_tools(_Tools(task, record)), record, replan, budget)
    try:
        state = graph.invoke({"answer": None}, config={"recursion_limit": bound})
    except GraphRecursionError:
        record.ended = "GraphRecursionError"
        return record
    _finish(record, state["answer"]).ended = state["ended"]
    return record
