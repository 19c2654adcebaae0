"""Two agent frameworks (issue 29) run the five tools against the course's endpoint with every socket
but loopback refused: LangGraph's prebuilt ReAct agent and the OpenAI Agents SDK reach the single
loop's tools and answer at the same seed, replay, and end at their own bounds in their own way."""

import socket
import subprocess
import sys

import pytest

import sim
from sim.chat.frameworks import NEED_MORE_STEPS, RUNNERS, run_course_loop, run_langgraph, run_openai_agents
from sim.chat.model_endpoint import serve
from sim.model.errors import InputError, InputTypeError

SEED = 20260218
BUDGET = 8
TASKS = ("G05", "G20")  # a three-tool charge; a record task (write_record) with repeated calls


def _loopback(address) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    return isinstance(host, str) and (host.startswith("127.") or host in ("localhost", "::1"))


@pytest.fixture
def offline(monkeypatch):
    """Refuse every connection that is not to loopback (socket.connect, connect_ex, create_connection)."""
    connect, connect_ex, create = socket.socket.connect, socket.socket.connect_ex, socket.create_connection

    def guard(address):
        if not _loopback(address):
            raise ConnectionRefusedError(f"offline test: refused a connection to {address!r}")

    def guarded_connect(self, address):
        guard(address)
        return connect(self, address)

    def guarded_connect_ex(self, address):
        guard(address)
        return connect_ex(self, address)

    def guarded_create(address, *args, **kwargs):
        guard(address)
        return create(address, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)
    monkeypatch.setattr(socket, "create_connection", guarded_create)


@pytest.fixture(scope="module")
def base_url():
    with serve() as url:
        yield url


def test_an_outside_connection_is_refused(offline, base_url):
    with pytest.raises(ConnectionRefusedError, match="offline test"):
        socket.create_connection(("192.0.2.1", 80), timeout=1)
    with socket.socket() as sock, pytest.raises(ConnectionRefusedError, match="offline test"):
        sock.connect(("198.51.100.7", 443))
    port = int(base_url.rsplit(":", 1)[1].split("/")[0])
    socket.create_connection(("127.0.0.1", port), timeout=1).close()  # loopback still connects


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
    # says so; at an odd one the tool step runs and the next model step hits the limit: the graph raises
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


def test_bad_input_is_refused(base_url):
    with pytest.raises(InputTypeError, match="base_url"):
        run_langgraph("G05", SEED, "https://api.example.com/v1")
    with pytest.raises(InputError, match="bound"):
        run_openai_agents("G05", SEED, base_url, max_turns=0)
    with pytest.raises(InputError, match="task"):
        run_langgraph("G99", SEED, base_url)


def test_importing_the_module_imports_no_framework():
    code = ("import sys, sim.chat.frameworks; "
            "print(sorted(m for m in ('langgraph', 'langchain_openai', 'agents') if m in sys.modules))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
