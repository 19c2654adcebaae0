"""The split as a LangGraph StateGraph (issue 29), against the course's endpoint with every socket but
loopback refused: without the replanner the graph is the course's split call for call; the replanner
changes no call and costs its requests and tokens; LangGraph's recursion limit, hit on purpose, ends
a run with GraphRecursionError; a run replays."""

import json
from dataclasses import replace

import pytest
from offline_sockets import assert_only_loopback, guard_sockets

import sim
from sim.chat.frameworks import _Tools
from sim.chat.messages import SYSTEM_PLANNER, call_turns, head
from sim.chat.model_endpoint import estimated_tokens, serve
from sim.chat.plan_graph import (
    PlanGraphRun,
    langchain_tools,
    plan_graph,
    run_langgraph_plan_execute,
)
from sim.model.errors import InputError, InputTypeError
from sim.model.tasks import BY_NAME, TASKS

SEEDS = (20260218, 20260219)
BUDGET = 8  # the course's DEFAULT_BUDGET, the graph's default
REPLAN_SEED = SEEDS[0]  # the seed the replanner's runs are compared at


@pytest.fixture(scope="module")
def offline():
    """The guard of tests/test_frameworks.py, for the whole module (the runs are made once)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        guard_sockets(monkeypatch)
        yield


@pytest.fixture(scope="module")
def base_url():
    with serve() as url:
        yield url


@pytest.fixture(scope="module")
def runs(offline, base_url):
    """Every task: the course's split and the graph without the replanner at both seeds, the graph with
    it at the first seed (each request costs the openai client some 15 ms: the test stays short)."""
    out = {}
    for seed in SEEDS:
        for task in TASKS:
            out["engine", seed, task.name] = sim.run_plan_execute(task.name, seed, BUDGET)
            for replan in (False, True) if seed == REPLAN_SEED else (False,):
                out[replan, seed, task.name] = run_langgraph_plan_execute(task, seed, base_url, replan=replan)
    return out


def test_an_outside_connection_is_refused(offline, base_url):
    assert_only_loopback(base_url)


@pytest.mark.parametrize("seed", SEEDS)
def test_without_the_replanner_the_graph_is_the_split(runs, seed):
    for task in TASKS:
        split, run = runs["engine", seed, task.name], runs[False, seed, task.name]
        where = f"{task.name} seed {seed}"
        assert isinstance(run, PlanGraphRun) and run.framework == "langgraph-plan-execute", where
        assert run.plan == list(split.plan), where
        assert run.tools == [call.tool for call in split.trace], where
        assert run.errors == split.errors == sum(call.error for call in split.trace), where
        assert (run.answer, run.held) == (split.answer, split.answer), where
        assert run.steps == split.steps and run.replans == 0, where
        # a run that used up its budget reads the answer held with one more request, without tools
        assert run.ended == ("answer" if split.stopped else "budget"), where
        assert run.requests == split.steps + (not split.stopped), where
        assert run.tokens > 0, where


def replanner_tokens(task, tools: list, plan: list, replans: int) -> int:
    """The usage of the replanner's requests as the module documents them: after k calls, the planner's
    system message and the request, the plan and the k steps done; the reply is the plan (AA24)."""
    turns = call_turns(task, tools)
    done = [[tool, json.loads(turns[2 * k + 1]["content"])] for k, tool in enumerate(tools)]
    reply = {"role": "assistant", "content": json.dumps(plan)}
    total = 0
    for k in range(1, replans + 1):
        user = f"{task.request}\nPlan: {json.dumps(plan)}\nDone: {json.dumps(done[:k])}"
        total += estimated_tokens(head(SYSTEM_PLANNER, user)) + estimated_tokens(reply)
    return total


def test_the_replanner_changes_no_call_and_costs_its_requests(runs):
    seed = REPLAN_SEED
    for task in TASKS:
        split, without, run = (runs[key, seed, task.name] for key in ("engine", False, True))
        where = f"{task.name} seed {seed}"
        assert (run.tools, run.errors, run.plan) == (without.tools, without.errors, without.plan), where
        assert (run.answer, run.held, run.ended, run.steps) == (without.answer, without.held,
                                                                without.ended, without.steps), where  # fmt: skip
        # one replan after each executed call, but the one that used up the budget
        assert run.replans == len(split.trace) - (not split.stopped) > 0, where
        assert run.requests == without.requests + run.replans, where
        extra = replanner_tokens(task, run.tools, run.plan, run.replans)
        assert run.tokens == without.tokens + extra and extra > 0, where


def test_the_replanner_keeps_the_steps_not_done(offline, base_url):
    from langchain_openai import ChatOpenAI

    task = BY_NAME["G05"]  # a plan of three, six calls
    record = PlanGraphRun("langgraph-plan-execute", task.name, SEEDS[0], 25)
    chat = ChatOpenAI(model=f"sim-model@seed={SEEDS[0]}&task={task.name}", base_url=base_url,
                      api_key="none", max_retries=0, timeout=10)  # fmt: skip
    graph = plan_graph(task, chat, langchain_tools(_Tools(task, record)), record)
    updates = list(graph.stream({"answer": None}, stream_mode="updates"))
    remaining = [update["replanner"]["remaining"] for update in updates if "replanner" in update]
    assert record.plan == list(sim.run_plan_execute(task.name, SEEDS[0], BUDGET).plan)
    assert len(remaining) == record.replans == len(record.tools) > len(record.plan)
    assert remaining == [record.plan[k:] for k in range(1, len(record.tools) + 1)]
    assert [name for update in updates for name in update] == (
        ["planner"] + ["executor", "replanner"] * len(record.tools) + ["executor"])  # fmt: skip


@pytest.mark.parametrize("replan", [False, True])
def test_a_small_recursion_limit_ends_the_run_with_graph_recursion_error(offline, base_url, replan):
    split = sim.run_plan_execute("G05", SEEDS[0], BUDGET)
    limit = 4
    run = run_langgraph_plan_execute("G05", SEEDS[0], base_url, recursion_limit=limit, replan=replan)
    # LangGraph runs `limit` node super-steps: the planner, then executor (and replanner) nodes
    executed = limit // 2 if replan else limit - 1  # replan: ceil((limit - 1) / 2) of the nodes after it
    assert (run.ended, run.answer, run.text, run.bound) == ("GraphRecursionError", None, None, limit)
    assert run.tools == [call.tool for call in split.trace[:executed]]
    assert run.requests == limit and run.replans == (limit - 1 - executed)


def test_the_limit_counts_one_super_step_more_than_the_nodes_run(runs, base_url):
    answered = runs[False, SEEDS[0], "G05"]
    nodes = answered.requests  # one request a node: the planner's, then each executor step's
    assert answered.ended == "answer" and nodes == answered.steps
    short = run_langgraph_plan_execute("G05", SEEDS[0], base_url, recursion_limit=nodes, replan=False)
    # every node ran and the executor's answer came back, yet LangGraph raises at the limit
    assert (short.ended, short.answer, short.requests, short.tools) == (
        "GraphRecursionError", None, nodes, answered.tools)  # fmt: skip
    enough = run_langgraph_plan_execute("G05", SEEDS[0], base_url, recursion_limit=nodes + 1, replan=False)
    assert enough == replace(answered, bound=nodes + 1)


def test_a_run_replays(runs, base_url):
    assert run_langgraph_plan_execute("G20", REPLAN_SEED, base_url) == runs[True, REPLAN_SEED, "G20"]


def test_bad_input_is_refused(base_url):
    with pytest.raises(InputError, match="base_url") as caught:  # a string, but not the endpoint's
        run_langgraph_plan_execute("G05", SEEDS[0], "https://api.example.com/v1")
    assert not isinstance(caught.value, TypeError)
    with pytest.raises(InputTypeError, match="base_url"):
        run_langgraph_plan_execute("G05", SEEDS[0], 8000)
    with pytest.raises(InputError, match="recursion_limit"):
        run_langgraph_plan_execute("G05", SEEDS[0], base_url, recursion_limit=0)
    with pytest.raises(InputError, match="budget"):
        run_langgraph_plan_execute("G05", SEEDS[0], base_url, budget=1)
    with pytest.raises(InputTypeError, match="replan"):
        run_langgraph_plan_execute("G05", SEEDS[0], base_url, replan="yes")
    with pytest.raises(InputError, match="task"):
        run_langgraph_plan_execute("G99", SEEDS[0], base_url)
