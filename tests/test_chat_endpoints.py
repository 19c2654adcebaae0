"""The chat bridge against what real endpoints send (issue 26, item 4), through the official `openai`
client: a server of the test's own on 127.0.0.1 sends reply shapes the chat format does not give,
drips its reply, asks to retry later; each ends that task's run as a recorded failure, within the
time the caller set. Every loop of the server is bounded and it stops with the test module."""

import json
import time
from http.server import BaseHTTPRequestHandler

import pytest

import sim
from sim.chat.chat_policy import chat_policy, read_transcript, replay_policy
from sim.chat.model_endpoint import served

DRIP_SECONDS = 0.5  # a byte every half second
DRIPS = 12  # then the server gives up: 6 s, well past the test's 1 s timeout
CALL = {"id": "c", "type": "function", "function": {"name": "read_meter", "arguments": "{}"}}
SHAPES = {  # model name -> the first choice the server sends
    "no-message": {"index": 0, "finish_reason": "stop"},
    "message-null": {"index": 0, "message": None, "finish_reason": "stop"},
    "text-choice": {"index": 0, "text": "read_meter", "finish_reason": "stop"},
    "delta-chunk": {"index": 0, "delta": {"role": "assistant", "content": "read"}, "finish_reason": None},
    "function-null": {"index": 0, "message": {"role": "assistant", "tool_calls": [{"id": "c", "function": None}]}},
    "tool-calls-text": {"index": 0, "message": {"role": "assistant", "content": None, "tool_calls": "tariff"}},
    "content-list": {"index": 0, "message": {"role": "assistant", "content": [{"type": "text", "text": "x"}]}},
    "call-without-name": {"index": 0, "message": {"role": "assistant", "tool_calls": [{"function": {}}]}},
}  # fmt: skip
NOT_JSON = {"html": b"<html>busy</html>", "empty": b"", "event-stream": b'data: {"choices": []}\n\n'}
HITS: dict = {}  # model name -> requests the server got
HEADERS: dict = {}  # model name -> the headers of its last request, by lower-case name
OTHER_BODIES = {
    "no-choices": {"id": "x", "choices": []},
    "a-list": [1, 2],
    "an-error": {"error": {"message": "busy"}},
}


def _completion(choice) -> dict:
    return {"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):  # noqa: N802 - the name http.server calls
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        model = body["model"]
        HITS[model] = HITS.get(model, 0) + 1
        HEADERS[model] = {name.lower(): value for name, value in self.headers.items()}
        try:
            if model == "drip-body":  # headers at once, then the body a byte at a time
                data = (
                    b" " * DRIPS
                    + json.dumps(_completion({"index": 0, "message": {"content": "done"}})).encode()
                )
                self._head(200, len(data))
                for index in range(DRIPS):
                    self._drip(data[index : index + 1])
                self.wfile.write(data[DRIPS:])
            elif model == "drip-head":  # the status line, then the headers a byte at a time
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                for byte in b"X-Slow: " + b"a" * (DRIPS - 8):
                    self._drip(bytes([byte]))
                self.wfile.write(b"\r\nContent-Length: 2\r\n\r\n{}")
            elif model.startswith("retry-after-"):  # always busy: 429, retry after so many seconds
                data = json.dumps({"error": {"message": "slow down", "type": "rate_limit"}}).encode()
                self._head(429, len(data), {"Retry-After": model.removeprefix("retry-after-")})
                self.wfile.write(data)
            elif model == "bad-gzip":  # a body that says it is gzip and is not
                self._head(200, 10, {"Content-Encoding": "gzip"})
                self.wfile.write(b"not gzip!!")
            elif model in NOT_JSON:
                self._head(200, len(NOT_JSON[model]), {"Content-Type": "text/html"})
                self.wfile.write(NOT_JSON[model])
            else:
                shape = SHAPES.get(model.removesuffix("-from-the-environment"))
                answer = _completion(shape) if shape else OTHER_BODIES[model]
                data = json.dumps(answer).encode()
                self._head(200, len(data))
                self.wfile.write(data)
            self.wfile.flush()
        except OSError:  # the client gave up
            self.close_connection = True

    def _head(self, status: int, length: int, extra: dict | None = None):
        self.send_response(status)
        for name, value in {
            "Content-Type": "application/json",
            "Content-Length": str(length),
            **(extra or {}),
        }.items():
            self.send_header(name, value)
        self.end_headers()

    def _drip(self, data: bytes):
        self.wfile.write(data)
        self.wfile.flush()
        time.sleep(DRIP_SECONDS)

    def log_message(self, *args):  # quiet
        pass


@pytest.fixture(scope="module")
def base_url():
    with served(_Handler) as url:
        yield url


def _one_step(live):
    """The policy's run of G05 at seed 1, budget 8, and how long it took (s)."""
    start = time.monotonic()
    run = sim.engine.policy.run_policy(live, "G05", 1, 8)
    return run, time.monotonic() - start


@pytest.mark.parametrize("model", [*SHAPES, *OTHER_BODIES, *NOT_JSON, "bad-gzip"])
def test_a_reply_the_chat_format_does_not_give_is_a_recorded_bad_reply(base_url, tmp_path, model):
    path = tmp_path / "t.jsonl"
    live = chat_policy(model, base_url, "none", timeout=5, max_retries=0, record=path)
    run, _ = _one_step(live)  # no PolicyError: the task's run ends, the score goes on
    assert run.steps == 1 and run.stopped and run.trace == ()
    [failure] = live.failures
    assert failure.kind == "bad_reply" and failure.step == 1 and "\n" not in failure.message
    [line] = read_transcript(path)[1]
    assert line["reply"]["error"]["kind"] == "bad_reply"
    replayed = replay_policy(path)
    assert sim.engine.policy.run_policy(replayed, "G05", 1, 8) == run and replayed.failures == live.failures


def test_bad_reply_messages_say_what_the_reply_held(base_url):
    said = {}
    for model in ("text-choice", "delta-chunk", "tool-calls-text", "an-error"):
        live = chat_policy(model, base_url, "none", timeout=5, max_retries=0)
        _one_step(live)
        said[model] = live.failures[0].message
    assert "holds no message" in said["text-choice"] and "text" in said["text-choice"]
    assert "delta" in said["delta-chunk"]
    assert "tool_calls" in said["tool-calls-text"] and "tariff" in said["tool-calls-text"]
    assert "busy" in said["an-error"]


@pytest.mark.parametrize("model", ["drip-body", "drip-head"])
def test_a_dripping_server_is_cut_off_at_the_timeout(base_url, model):
    live = chat_policy(model, base_url, "none", timeout=1, max_retries=3)
    run, seconds = _one_step(live)
    assert [f.kind for f in live.failures] == ["timeout"] and run.steps == 1
    # the server drips for 30 s: within timeout=1, with room for a loaded machine's client start
    assert seconds < 3, f"one request took {seconds:.1f} s with timeout=1"


def test_a_retry_after_past_the_timeout_is_not_waited_for(base_url):
    live = chat_policy("retry-after-20", base_url, "none", timeout=1, max_retries=5)
    _, seconds = _one_step(live)
    [failure] = live.failures
    assert failure.kind == "http" and "429" in failure.message and "20 s" in failure.message
    assert seconds < 3, f"one request took {seconds:.1f} s with timeout=1 (the server asked for 20 s)"


def test_retries_stop_at_the_timeout(base_url):
    """Retry-After 0.5 s with 5 retries: the 5 waits alone take 2.5 s; within timeout=1, at most 2
    tries fit (one on a slow start)."""
    live = chat_policy("retry-after-0.5", base_url, "none", timeout=1, max_retries=5)
    _, seconds = _one_step(live)
    [failure] = live.failures
    assert failure.kind == "http" and "429" in failure.message and 1 <= HITS["retry-after-0.5"] <= 2
    assert seconds < 2.2, f"one request took {seconds:.1f} s with timeout=1 (the 5 waits take 2.5 s)"


def test_retries_are_made_while_they_fit(base_url):
    live = chat_policy("retry-after-0.1", base_url, "none", timeout=5, max_retries=3)
    _one_step(live)
    assert "429" in live.failures[0].message and HITS["retry-after-0.1"] == 1 + 3


def test_an_empty_variable_is_unset(monkeypatch, tmp_path, base_url):
    monkeypatch.setenv("OPENAI_API_KEY", "")
    monkeypatch.setenv("OPENAI_BASE_URL", "")
    monkeypatch.setenv("OPENAI_ORG_ID", "")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "")
    chat_policy("m", record=tmp_path / "default.jsonl")  # no OpenAIError: a key is not needed to build it
    assert read_transcript(tmp_path / "default.jsonl")[0]["base_url"] == "https://api.openai.com/v1/"
    monkeypatch.setenv("OPENAI_BASE_URL", base_url)
    monkeypatch.setenv("OPENAI_MODEL", "")
    with pytest.raises(sim.InputTypeError, match="OPENAI_MODEL"):
        chat_policy()
    monkeypatch.setenv("OPENAI_MODEL", "no-message-from-the-environment")
    live = chat_policy(timeout=5, max_retries=0)  # a local server with an empty key: it is asked
    _one_step(live)
    assert [f.kind for f in live.failures] == ["bad_reply"]
    sent = HEADERS["no-message-from-the-environment"]
    assert (
        sent["authorization"] == "Bearer none"
        and "openai-organization" not in sent
        and "openai-project" not in sent
    )


def test_no_key_at_all_works_for_a_local_server(monkeypatch, base_url):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    live = chat_policy("text-choice", base_url, timeout=5, max_retries=0)
    _one_step(live)
    assert [f.kind for f in live.failures] == ["bad_reply"]


@pytest.mark.parametrize(
    "status, headers, wait",
    [(429, {"Retry-After": "20"}, 20.0), (503, {"Retry-After-Ms": "250"}, 0.25), (429, {"Retry-After": "nan"}, 1.0),
     (429, {"Retry-After": "soon"}, 1.0), (429, {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0),
     (500, {}, 1.0), (400, {"Retry-After": "1"}, None), (404, {}, None)],
)  # fmt: skip
def test_a_retry_waits_as_the_openai_client_waits(status, headers, wait):
    import httpx2

    from sim.chat.chat_policy import retry_wait

    assert retry_wait(httpx2.Response(status, headers=headers), 1) == wait  # retry 1: back-off 1 s


@pytest.mark.slow
def test_a_score_goes_on_through_bad_replies_and_keeps_each_one(base_url):
    """The whole score, not one step: every task's run ends at its first request, each recorded."""
    from sim.measurement import harness

    live = chat_policy("function-null", base_url, "none", timeout=5, max_retries=0)
    table = harness.score(live, "single-loop", 8, [3, 4], [1, 2])
    assert list(table["unit"]) == list(sim.UNIT_NAMES)
    assert live.failures and {(f.kind, f.step) for f in live.failures} == {("bad_reply", 1)}
    assert {f.request for f in live.failures} == {task.request for task in sim.TASKS}
