"""The policy that asks a chat endpoint (issue 15, section 2), exercised through the real `openai`
client against the course's stand-in server on 127.0.0.1: a whole run equals its replay, each
failure kind gives its message and its recorded failure, and nothing leaves the machine."""

import json
import socket

import numpy as np
import pytest

import sim
from sim.chat.chat_policy import (
    ChatPolicy,
    TranscriptError,
    chat_policy,
    read_transcript,
    replay_policy,
)
from sim.chat.standin_server import StandinServer
from sim.measurement import harness

SEEDS = [20260218, 20260219, 5]
FIELDS = ("correct", "steps", "calls", "tokens", "errors", "stopped")


@pytest.fixture(scope="module")
def server():
    with StandinServer() as running:
        assert running.base_url.startswith("http://127.0.0.1:")
        yield running


@pytest.mark.slow
def test_a_whole_run_equals_its_replay(server, tmp_path):
    path = tmp_path / "run.jsonl"
    live = chat_policy(
        "standin", server.base_url, "none", timeout=10, max_retries=0, record=path, label="stand-in"
    )
    recorded = harness.entrant_run(live, SEEDS, 8)
    assert live.failures == []
    header, lines = read_transcript(path)
    assert header["label"] == "stand-in" and header["base_url"].startswith("http://127.0.0.1:")
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
    live = chat_policy("standin", server.base_url, "none", timeout=10, max_retries=0, record=path)
    recorded = harness.score(live, "single-loop", 8, SEEDS, SEEDS[:2])
    replayed = harness.score(replay_policy(path), "single-loop", 8, SEEDS, SEEDS[:2])
    assert recorded.equals(replayed)
    assert list(recorded["unit"]) == list(sim.UNIT_NAMES)


def test_the_stand_in_answers_by_the_simulators_rule(server):
    live = chat_policy("standin", server.base_url, "none", timeout=10, max_retries=0)
    run = sim.engine.policy.run_policy(live, "G05", 20260218, 8)
    assert run.stopped and sim.is_correct(run)
    assert run.trace[0].tool in sim.TOOL_NAMES


@pytest.mark.parametrize(
    "model, kind, words",
    [("standin-http-error", "http", "HTTP 500"), ("standin-no-tool", "no_tool_call", "neither a tool call"),
     ("standin-unknown-tool", "unknown_tool", "fly_to_the_moon"), ("standin-slow", "timeout", "no reply in time")],
)  # fmt: skip
def test_each_failure_ends_the_task_run_with_its_message(server, tmp_path, model, kind, words):
    path = tmp_path / "failure.jsonl"
    live = chat_policy(model, server.base_url, "none", timeout=2, max_retries=0, record=path)
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
    live = chat_policy("standin", f"http://127.0.0.1:{port}/v1", "none", timeout=2, max_retries=0)
    sim.engine.policy.run_policy(live, "G01", 1, 8)
    assert [f.kind for f in live.failures] == ["connection"]


def test_replay_refuses_a_request_it_does_not_hold(server, tmp_path):
    path = tmp_path / "one.jsonl"
    live = chat_policy("standin", server.base_url, "none", timeout=10, max_retries=0, record=path)
    sim.engine.policy.run_policy(live, "G01", 1, 8)
    with pytest.raises(sim.engine.policy.PolicyError, match="holds no reply"):
        sim.engine.policy.run_policy(replay_policy(path), "G05", 1, 8)


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
def test_the_shipped_transcript_is_the_stand_ins_and_up_to_date(tmp_path):
    """Lesson 6 replays a transcript labelled as recorded against the stand-in; recording it again
    gives the same requests and replies."""
    from sim import DEFAULT_BUDGET
    from sim.chat.chat_policy import SHIPPED_HELD_OUT, SHIPPED_LABEL, SHIPPED_TRANSCRIPT

    header, lines = read_transcript(SHIPPED_TRANSCRIPT)
    assert header["label"] == SHIPPED_LABEL and "NOT a model" in header["label"]
    seeds = harness.held_out_seeds(SHIPPED_HELD_OUT)
    with StandinServer() as server:
        path = tmp_path / "again.jsonl"
        live = chat_policy(header["model"], server.base_url, "none", timeout=10, max_retries=0, record=path)
        harness.score(live, "single-loop", DEFAULT_BUDGET, seeds, harness.LESSON_SEEDS)
        harness.entrant_run(live, seeds, DEFAULT_BUDGET)
    assert read_transcript(path)[1] == lines, "run scripts/record_standin_transcript.py"


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
