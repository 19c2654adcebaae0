"""The policy that asks a chat endpoint (issue 15, section 2), exercised through the real `openai`
client against the course's fictional model on 127.0.0.1 (sim.chat.model_endpoint), each run
addressed by its model name: the policy's runs are the single loop's, a whole run equals its replay,
each failure kind (provoked by a small failing server of the test's own) gives its message and its
recorded failure, and nothing leaves the machine."""

import json
import socket
import time
from http.server import BaseHTTPRequestHandler

import numpy as np
import pytest

import sim
from sim.chat.chat_policy import (
    SHIPPED_MODEL,
    ChatPolicy,
    TranscriptError,
    chat_policy,
    read_transcript,
    replay_policy,
)
from sim.chat.model_endpoint import serve, served
from sim.measurement import harness

SEEDS = [20260218, 20260219, 5]
FIELDS = ("correct", "steps", "calls", "tokens", "errors", "stopped")
SLOW_SECONDS = 3.0  # the failing server's slow reply, past the test's 2 s timeout
MOON = {"id": "call_x", "type": "function", "function": {"name": "fly_to_the_moon", "arguments": "{}"}}
FAILING = {  # model name -> the message the failing server sends
    "no-tool": {"role": "assistant", "content": None},
    "unknown-tool": {"role": "assistant", "content": None, "tool_calls": [MOON]},
    "slow": {"role": "assistant", "content": "The answer is 1."},
}


@pytest.fixture(scope="module")
def server():
    """The course's fictional model on 127.0.0.1: its base URL."""
    with serve() as base_url:
        assert base_url.startswith("http://127.0.0.1:")
        yield base_url


class _Failing(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - the name http.server calls
        model = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["model"]
        if model == "slow":
            time.sleep(SLOW_SECONDS)
        answer = {"id": "x", "object": "chat.completion", "created": 0, "model": model,
                  "choices": [{"index": 0, "message": FAILING[model], "finish_reason": "stop"}]}  # fmt: skip
        data = json.dumps(answer).encode()
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client gave up
            pass

    def log_message(self, *args):  # quiet
        pass


@pytest.fixture(scope="module")
def failing():
    """A server of the test's own on 127.0.0.1 that fails as its model name says: its base URL."""
    with served(_Failing) as url:
        yield url


@pytest.mark.slow
def test_a_whole_run_equals_its_replay(server, tmp_path):
    path = tmp_path / "run.jsonl"
    live = chat_policy(
        SHIPPED_MODEL, server, "none", timeout=10, max_retries=0, record=path, label="endpoint"
    )
    recorded = harness.entrant_run(live, SEEDS, 8)
    assert live.failures == []
    header, lines = read_transcript(path)
    assert header["label"] == "endpoint" and header["base_url"].startswith("http://127.0.0.1:")
    assert header["model"] == SHIPPED_MODEL  # the name as given; each line holds it filled for its run
    assert [line["model"] for line in lines[:2]] == ["sim-model@seed=20260218&task=G01"] * 2
    assert len(lines) == recorded.steps.sum()  # one request a step
    replayed = harness.entrant_run(replay_policy(path), SEEDS, 8)
    for name in FIELDS:
        assert np.array_equal(getattr(recorded, name), getattr(replayed, name)), name
    with pytest.raises(sim.engine.policy.PolicyError, match="in the same order"):  # a replay answers once
        harness.entrant_run(replayed_policy := replay_policy(path), SEEDS, 8)
        harness.entrant_run(replayed_policy, SEEDS, 8)


@pytest.mark.slow
def test_a_score_equals_its_replay(server, tmp_path):
    """The harness scores the policy like any other; replaying the same calls gives the same table."""
    path = tmp_path / "score.jsonl"
    live = chat_policy(SHIPPED_MODEL, server, "none", timeout=10, max_retries=0, record=path)
    recorded = harness.score(live, "single-loop", 8, SEEDS, SEEDS[:2])
    replayed = harness.score(replay_policy(path), "single-loop", 8, SEEDS, SEEDS[:2])
    assert recorded.equals(replayed)
    assert list(recorded["unit"]) == list(sim.UNIT_NAMES)


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_the_policy_through_the_endpoint_runs_the_single_loop(server, seed):
    """Addressed per run, the course's model gives the built-in single loop's runs, and they differ by seed."""
    live = chat_policy(SHIPPED_MODEL, server, "none", timeout=10, max_retries=0)
    for task in sim.TASKS:
        run, loop = sim.engine.policy.run_policy(live, task, seed, 8), sim.run_single_loop(task.name, seed, 8)
        assert (run.trace, run.answer, run.steps, run.tokens, run.stopped) == (
            loop.trace, loop.answer, loop.steps, loop.tokens, loop.stopped), task.name  # fmt: skip
    assert live.failures == []
    other = [sim.run_single_loop(task.name, seed + 1, 8).trace for task in sim.TASKS]
    assert other != [sim.run_single_loop(task.name, seed, 8).trace for task in sim.TASKS]


def test_the_policy_sends_each_step_as_the_messages_view_writes_it():
    """Every request is the run's step as `sim.chat.messages.requests` writes it (the task's own starting
    fields, also for tasks whose request text another task shares), the model name filled for the run."""
    from sim.chat.messages import requests

    bodies: list = []
    with serve(bodies=bodies) as base_url:
        live = chat_policy(SHIPPED_MODEL, base_url, "none", timeout=10, max_retries=0)
        for task in sim.TASKS:
            bodies.clear()
            run = sim.engine.policy.run_policy(live, task, 20260219, 8)
            assert [body["messages"] for body in bodies] == requests(run), task.name
            assert {body["model"] for body in bodies} == {f"sim-model@seed=20260219&task={task.name}"}


def test_a_name_without_placeholders_is_sent_as_given(server):
    """One seed for every run; a task the name does not say is found from the request (one task has
    G05's), and a request several tasks share is refused by the endpoint: an HTTP failure."""
    live = chat_policy("sim-model@seed=7", server, "none", timeout=10, max_retries=0)
    run = sim.engine.policy.run_policy(live, "G05", 20260218, 8)
    assert live.failures == [] and run.trace == sim.run_single_loop("G05", 7, 8).trace
    sim.engine.policy.run_policy(live, "G01", 20260218, 8)  # G01's request is G02's too
    assert [(f.kind, f.request) for f in live.failures] == [("http", sim.TASKS[0].request)]
    assert "HTTP 400" in live.failures[0].message and "name the task" in live.failures[0].message


def test_an_unknown_placeholder_is_refused():
    for model in ("sim-model@seed={sed}", "m{}", "{task}{Seed}"):
        with pytest.raises(sim.InputError, match="placeholders"):
            chat_policy(model)


@pytest.mark.parametrize(
    "model, kind, words",
    [("no-such-model", "http", "HTTP 404"), ("no-tool", "no_tool_call", "neither a tool call"),
     ("unknown-tool", "unknown_tool", "fly_to_the_moon"), ("slow", "timeout", "no reply in time")],
)  # fmt: skip
def test_each_failure_ends_the_task_run_with_its_message(server, failing, tmp_path, model, kind, words):
    path = tmp_path / "failure.jsonl"
    base_url = server if model == "no-such-model" else failing  # the endpoint refuses another model: 404
    live = chat_policy(model, base_url, "none", timeout=2, max_retries=0, record=path)
    run = sim.engine.policy.run_policy(live, "G05", 20260218, 8)
    assert run.steps == 1 and run.stopped and run.trace == ()
    [failure] = live.failures
    assert failure.kind == kind and words in failure.message and failure.step == 1
    replayed = replay_policy(path)
    assert sim.engine.policy.run_policy(replayed, "G05", 20260218, 8) == run
    assert replayed.failures == live.failures


def test_a_closed_port_is_a_connection_failure():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    live = chat_policy(SHIPPED_MODEL, f"http://127.0.0.1:{port}/v1", "none", timeout=2, max_retries=0)
    sim.engine.policy.run_policy(live, "G01", 1, 8)
    assert [f.kind for f in live.failures] == ["connection"]


def test_replay_refuses_a_request_it_does_not_hold(server, tmp_path):
    path = tmp_path / "one.jsonl"
    live = chat_policy(SHIPPED_MODEL, server, "none", timeout=10, max_retries=0, record=path)
    sim.engine.policy.run_policy(live, "G01", 1, 8)
    with pytest.raises(sim.engine.policy.PolicyError, match="holds no reply"):
        sim.engine.policy.run_policy(replay_policy(path), "G05", 1, 8)
    with pytest.raises(sim.engine.policy.PolicyError, match="holds no reply"):  # the same task, another seed
        sim.engine.policy.run_policy(replay_policy(path), "G01", 2, 8)


def test_bad_arguments_are_refused_naming_the_parameter(tmp_path):
    (tmp_path / "x.jsonl").write_text(json.dumps({"not": "a transcript"}) + "\n")
    cases = [
        (dict(model=5), sim.InputTypeError, "model"),
        (dict(model="m", timeout=0), sim.InputError, "timeout"),
        (dict(model="m", timeout="x"), sim.InputTypeError, "timeout"),
        (dict(model="m", max_retries=9), sim.InputError, "max_retries"),
        (dict(model="m", base_url=5), sim.InputTypeError, "base_url"),
        (dict(model="m", record=5), sim.InputTypeError, "record"),
        (dict(model="m", record=tmp_path / "x.jsonl"), sim.InputError, "record"),
        (dict(model="m", record=tmp_path / "no-such-folder" / "t.jsonl"), sim.InputError, "record"),
        (dict(model="m", timeout=1e300), sim.InputError, "timeout"),
    ]
    for arguments, error, name in cases:
        with pytest.raises(error, match=name):
            chat_policy(**arguments)
    with pytest.raises(TranscriptError, match="transcript"):
        replay_policy(tmp_path / "x.jsonl")
    with pytest.raises(TranscriptError, match="transcript"):
        replay_policy(tmp_path / "missing.jsonl")
    with pytest.raises(sim.InputTypeError, match="transcript"):
        replay_policy(5)
    assert isinstance(replay_policy, object) and ChatPolicy


@pytest.mark.slow
def test_the_shipped_transcript_is_the_endpoints_and_up_to_date(tmp_path):
    """Lesson 6 replays a transcript labelled as recorded against the course's fictional model behind
    the endpoint; recording it again gives the same requests and replies."""
    from sim import DEFAULT_BUDGET
    from sim.chat.chat_policy import SHIPPED_HELD_OUT, SHIPPED_LABEL, SHIPPED_TRANSCRIPT

    header, lines = read_transcript(SHIPPED_TRANSCRIPT)
    assert header["label"] == SHIPPED_LABEL and "NOT a model" in header["label"]
    assert header["model"] == SHIPPED_MODEL and "model_endpoint" in header["label"]
    seeds = harness.held_out_seeds(SHIPPED_HELD_OUT)
    with serve() as base_url:
        path = tmp_path / "again.jsonl"
        live = chat_policy(header["model"], base_url, "none", timeout=10, max_retries=0, record=path)
        harness.score(live, "single-loop", DEFAULT_BUDGET, seeds, harness.LESSON_SEEDS)
        harness.entrant_run(live, seeds, DEFAULT_BUDGET)
    assert read_transcript(path)[1] == lines, "run scripts/record_chat_transcript.py"


@pytest.mark.parametrize(
    "lines",
    [["[1]"], ['{"transcript": "sim.chat_policy", "model": "m"}', '{"key": "ab"}'],
     ['{"transcript": "sim.chat_policy", "model": "m"}', '{"key": "ab", "reply": "read_meter"}'],
     ['{"transcript": "sim.chat_policy", "model": "m"}', '{"key": "ab", "reply": {"error": {"message": "x"}}}'],
     ['{"transcript": "sim.chat_policy", "model": "m"}', '{"key": "ab", "reply": {"tool": ["tariff"]}}'],
     ['{"transcript": "sim.chat_policy", "model": "m"}', '[]'], ['{"transcript": "sim.chat_policy"}']],
)  # fmt: skip
def test_a_transcript_of_another_shape_is_refused_when_read(tmp_path, lines):
    """A transcript edited by hand, or not one: a TranscriptError naming it, never a KeyError at a step."""
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(TranscriptError, match="is not a transcript of sim.chat.chat_policy"):
        sim.engine.policy.run_policy(replay_policy(path), "G01", 1, 8)
    path.write_bytes(b"\xff\xfe not text\n")
    with pytest.raises(TranscriptError, match="cannot be read"):
        replay_policy(path)
