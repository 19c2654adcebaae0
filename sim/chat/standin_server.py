"""A scripted stand-in for an OpenAI-compatible chat server on 127.0.0.1, NOT a model: it picks as the
single loop picks; the models "standin-http-error", "-slow", "-no-tool", "-unknown-tool" fail on purpose."""

import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from sim.chat.messages import call_turns
from sim.chat.model_endpoint import send_json
from sim.engine.loops import call_and_observe, initial_state
from sim.model.draws import draw_stream
from sim.model.picks import single_loop_pick
from sim.model.tasks import TASKS

MODEL = "standin"
SLOW_SECONDS = 3.0
HOST = "127.0.0.1"


def standin_message(body: dict) -> dict:
    """The assistant message the stand-in sends for a request body: a tool call or a text answer."""
    messages = body.get("messages") or []
    request = next((m.get("content") for m in messages if m.get("role") == "user"), None)
    task = next((t for t in TASKS if t.request == request), None)
    if task is None:
        return {"role": "assistant", "content": "I do not know this request."}
    tools = [m["tool_calls"][0]["function"]["name"] for m in messages if m.get("tool_calls")]
    state, done = initial_state(task), 0
    for tool in tools:
        error = "error" in call_and_observe(tool, state)
        if done < len(task.sequence) and tool == task.sequence[done] and not error:  # AA27
            done += 1
    target = task.sequence[done] if done < len(task.sequence) else None  # AA27
    key = int(hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()[:8], 16)
    tool = single_loop_pick(target, done + 1, draw_stream(key))
    if tool is None:
        return {"role": "assistant", "content": f"The answer is {state.get('result')}."}
    call = call_turns(task, [*tools, tool])[-2]["tool_calls"][0]
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def standin_reply(body: dict) -> tuple[int, dict]:
    """(HTTP status, JSON body) of the stand-in's answer, failures included."""
    model = body.get("model", MODEL)
    if model == "standin-http-error":
        return 500, {"error": {"message": "the stand-in fails on purpose", "type": "server_error"}}
    if model == "standin-slow":
        time.sleep(SLOW_SECONDS)
    message = standin_message(body)
    if model == "standin-no-tool":
        message = {"role": "assistant", "content": None}
    if model == "standin-unknown-tool":
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_x", "type": "function", "function": {"name": "fly_to_the_moon", "arguments": "{}"}}]}  # fmt: skip
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return 200, {"id": "standin", "object": "chat.completion", "created": 0, "model": model,
                 "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                 "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}  # fmt: skip


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - the name http.server calls
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
            status, answer = (
                standin_reply(body) if self.path.endswith("/chat/completions") else (404, {"error": {}})
            )
        except (ValueError, TypeError, KeyError) as error:
            status, answer = 400, {"error": {"message": str(error), "type": "invalid_request_error"}}
        send_json(self, status, answer)

    def log_message(self, *args):  # quiet
        pass


class StandinServer:
    """The stand-in on a free port of 127.0.0.1, in a background thread, as a context manager."""

    def __init__(self):
        self._server = ThreadingHTTPServer((HOST, 0), _Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:  # what chat_policy takes, e.g. "http://127.0.0.1:43210/v1"
        return f"http://{HOST}:{self._server.server_address[1]}/v1"

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
