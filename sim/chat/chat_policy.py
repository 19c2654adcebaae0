"""A policy asking any OpenAI-compatible chat endpoint, recorded to a JSONL transcript and replayed
from it (lesson 6); a failed request (FAILURE_KINDS) stops its task's run, never the score. A model
name may hold the placeholders {seed} and {task}, filled for each run from its observation (the seed
it runs at, the task's name): `sim-model@seed={seed}&task={task}` addresses sim.chat.model_endpoint."""

import email.utils
import hashlib
import json
import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from sim.chat.messages import SYSTEM_LOOP, call_turns, head, tool_schemas
from sim.engine.policy import STOP
from sim.model.checks import check_integer, check_real
from sim.model.errors import InputError, InputTypeError
from sim.model.tasks import BY_NAME
from sim.model.world import TOOL_NAMES

FAILURE_KINDS = ("http", "timeout", "connection", "no_tool_call", "unknown_tool", "bad_reply")
MAX_RETRIES_LIMIT = 5
MAX_TIMEOUT = 3600  # seconds a request may take at most: an hour
DEFAULT_BASE_URL = "https://api.openai.com/v1"  # the openai client's own default
KEY_DIGITS = 16  # a request's key in a transcript: 64 bits of its SHA-256
TRANSCRIPT_TAG = "sim.chat_policy"  # a transcript's header says what wrote it (data: never renamed)
# the transcript lesson 6 replays (scripts/record_chat_transcript.py): its model name, held-out seeds, label
SHIPPED_MODEL = "sim-model@seed={seed}&task={task}"
SHIPPED_HELD_OUT = 10
SHIPPED_LABEL = ("the course's fictional model behind a chat endpoint on 127.0.0.1 "
                 "(sim.chat.model_endpoint), NOT a model")  # fmt: skip
SHIPPED_TRANSCRIPT = Path(__file__).resolve().parents[2] / "transcripts" / "06_your_agent-endpoint.jsonl"
PLACEHOLDERS = ("seed", "task")  # a model name's {seed} and {task}, filled for each run
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class Failure:
    """A request that ended its task's run: kind (FAILURE_KINDS), the task's request, step (1-based)."""

    kind: str
    request: str
    step: int
    message: str


class TranscriptError(InputError):
    """A transcript that cannot be read, or holds no reply for a request it is asked to replay."""


def run_model(model: str, observation) -> str:
    """The model name for an observation's run: {seed} and {task} filled with its seed and task name."""
    filled = {"seed": str(observation.seed), "task": observation.task_name}
    return PLACEHOLDER.sub(lambda found: filled.get(found[1], found[0]), model)


def observation_request(observation, model: str) -> dict:
    """The chat-completions request (model, messages, tools) the single loop sends at an observation;
    the model name filled for its run (`run_model`)."""
    task = BY_NAME[observation.task_name]  # the run's starting fields (subscriber, query, column)
    messages = head(SYSTEM_LOOP, task.request) + call_turns(task, [call.tool for call in observation.trace])
    return {"model": run_model(model, observation), "messages": messages, "tools": tool_schemas()}


def request_key(request: dict) -> str:
    """A request's key in a transcript: KEY_DIGITS hex digits of the SHA-256 of its JSON, keys sorted."""
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()[:KEY_DIGITS]


def decide(reply: dict) -> str | dict:
    """A reply's decision: its tool, "stop" for text without a tool call, or its failure {kind, message}."""
    tool, content = reply.get("tool"), reply.get("content")
    if "error" in reply:
        return reply["error"]
    if tool is None:
        if content:
            return STOP
        return {"kind": "no_tool_call", "message": "the reply holds neither a tool call nor an answer"}
    if tool not in TOOL_NAMES:
        return {"kind": "unknown_tool", "message": f"the reply calls {tool!r}, not one of {', '.join(TOOL_NAMES)}"}  # fmt: skip
    return tool


def _failed(kind: str, message: str) -> dict:
    return {"error": {"kind": kind, "message": " ".join(message.split())}}


def reply_of(data) -> dict:
    """A chat-completions reply body (parsed JSON) as {"tool", "arguments", "content"}, else a "bad_reply"."""
    if isinstance(data, dict) and "choices" not in data and "error" in data:
        return _failed("bad_reply", f"the reply is an error: {json.dumps(data['error'])[:200]}")
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return _failed("bad_reply", "the reply holds no choices: not a chat completion")
    choice = choices[0]
    message = choice.get("message")
    if "message" in choice and not isinstance(message, dict):
        return _failed("bad_reply", f"the reply's message must be an object, got {json.dumps(message)[:200]}")
    if not isinstance(message, dict):
        held = ", ".join(sorted(map(str, choice))) or "nothing"
        return _failed(
            "bad_reply", f"the reply's choice holds no message (it holds {held}): not a chat completion"
        )
    content, calls = message.get("content"), message.get("tool_calls")
    if content is not None and not isinstance(content, str):
        return _failed("bad_reply", f"the reply's content must be text, got {type(content).__name__}")
    if calls is None or calls == []:
        return {"tool": None, "arguments": None, "content": content}
    call = calls[0] if isinstance(calls, list) else None
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return _failed("bad_reply", f"the reply's tool_calls must be a list of calls, each with a "
                                    f"function and its name, got {json.dumps(calls)[:200]}")  # fmt: skip
    return {"tool": function["name"], "arguments": function.get("arguments"), "content": content}


def retry_wait(response, retry: int) -> float | None:
    """Seconds before retry `retry` (0-based), as openai waits: Retry-After(-ms), else 0.5 s doubling to
    8 s; None unless the status is 408, 409, 429 or 5xx."""
    if response.status_code not in (408, 409, 429) and response.status_code < 500:
        return None
    for header, unit in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            seconds = float(response.headers[header]) * unit
        except (KeyError, ValueError):
            continue
        if seconds == seconds:  # not NaN
            return max(seconds, 0.0)
    try:
        return max(
            email.utils.parsedate_to_datetime(response.headers["retry-after"]).timestamp() - time.time(), 0.0
        )
    except (KeyError, TypeError, ValueError, IndexError, OverflowError):
        return min(0.5 * 2**retry, 8.0)


def _attempt(client, request: dict, deadline: float) -> tuple[dict, object]:
    """One try cut off at `deadline`: (reply or failure, the HTTP error's response / True / None)."""
    import httpx2
    import openai

    left = max(deadline - time.monotonic(), 0.001)  # httpx refuses a timeout <= 0
    try:
        with client.chat.completions.with_streaming_response.create(**request, timeout=left) as response:
            body = bytearray()
            for chunk in response.iter_bytes():  # a server that drips its reply is cut off too
                body += chunk
                if time.monotonic() > deadline:
                    raise httpx2.ReadTimeout("the reply did not end in time")
    except (openai.APITimeoutError, httpx2.TimeoutException) as error:
        return _failed("timeout", f"no reply in time: {error}"), None
    except openai.APIStatusError as error:
        return _failed("http", f"HTTP {error.status_code}: {error.message}"), error.response
    except httpx2.DecodingError as error:  # e.g. a body that says gzip and is not
        return _failed("bad_reply", f"the reply cannot be decoded: {error}"), None
    except (openai.APIConnectionError, httpx2.TransportError) as error:
        return _failed("connection", f"cannot reach the endpoint: {error}"), True
    except (openai.OpenAIError, httpx2.HTTPError) as error:
        return _failed("bad_reply", f"{type(error).__name__}: {error}"), None
    try:
        data = json.loads(bytes(body))
    except ValueError as error:
        return _failed("bad_reply", f"the reply is not JSON ({error}), it begins {bytes(body[:60])!r}"), None
    return reply_of(data), None


def _within(seconds: float, call):
    """call() in a daemon thread, waited for at most `seconds`: its result, or None; re-raises."""
    done: list = []

    def run():
        try:
            done.append((True, call()))
        except BaseException as error:  # noqa: BLE001 - handed to the caller, re-raised there
            done.append((False, error))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(max(seconds, 0.0))
    if not done:
        return None
    ok, value = done[0]
    if not ok:
        raise value
    return value


def _ask_endpoint(client, request: dict, timeout: float, max_retries: int) -> dict:
    """One request's reply or failure, retries and waits included, within `timeout` seconds."""
    deadline, last = time.monotonic() + timeout, None
    for retry in range(max_retries + 1):
        outcome = _within(deadline - time.monotonic(), lambda: _attempt(client, request, deadline))
        reply, got = outcome if outcome is not None else (_failed("timeout", ""), None)
        if reply.get("error", {}).get("kind") == "timeout":
            if last is not None:  # a retry cut off: the failure it retried is what went wrong
                return _noted(last, f"its retry got no reply within the {timeout:g} s the request may take")
            if outcome is None:
                return _failed("timeout", f"no reply in time: the request took more than {timeout:g} s")
        if got is None or retry == max_retries:
            return reply
        wait = retry_wait(got, retry) if got is not True else min(0.5 * 2**retry, 8.0)
        if wait is None:
            return reply
        if time.monotonic() + wait >= deadline:
            return _noted(
                reply, f"a retry would wait {wait:g} s, past the {timeout:g} s the request may take"
            )
        last = reply
        time.sleep(wait)


def _noted(failure: dict, note: str) -> dict:
    return _failed(failure["error"]["kind"], f"{failure['error']['message']} ({note})")


class ChatPolicy:
    """A policy answered by a chat endpoint or a transcript; `failures`: its Failures, in order."""

    def __init__(self, model: str, ask, record: Path | None = None):
        self.model, self._ask, self.record, self.failures = model, ask, record, []
        self.__name__ = f"chat model {model}"

    def __call__(self, observation) -> str:
        request = observation_request(observation, self.model)
        reply = self._ask(request)
        if self.record is not None:
            line = {"key": request_key(request), "model": request["model"],
                    "messages": len(request["messages"]), "reply": reply}  # fmt: skip
            with self.record.open("a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")
        decision = decide(reply)
        if isinstance(decision, str):
            return decision
        self.failures.append(
            Failure(decision["kind"], observation.request, observation.step, decision["message"])
        )
        return STOP


def chat_policy(model: str | None = None, base_url: str | None = None, api_key: str | None = None,
                timeout: float = 30.0, max_retries: int = 1, record=None, label: str = "") -> ChatPolicy:  # fmt: skip
    """A policy asking `model` at an OpenAI-compatible endpoint (None/"": the OPENAI_* variables), its
    placeholders {seed} and {task} filled for each run; timeout 0 < s <= MAX_TIMEOUT, max_retries
    0..MAX_RETRIES_LIMIT. Raises InputTypeError / InputError."""
    model = model if model is not None else _environ("OPENAI_MODEL")
    if not isinstance(model, str) or not model:
        raise InputTypeError(f"model must be a model name (or set OPENAI_MODEL), got {model!r}")
    unknown = sorted({found for found in PLACEHOLDER.findall(model) if found not in PLACEHOLDERS})
    if unknown:
        raise InputError(f"model may hold the placeholders {{seed}} and {{task}} only, got "
                         f"{', '.join('{' + name + '}' for name in unknown)} in {model!r}")  # fmt: skip
    timeout = check_real(timeout, "timeout")
    if not 0 < timeout <= MAX_TIMEOUT:
        raise InputError(f"timeout must be a number of seconds, 0 < timeout <= {MAX_TIMEOUT}, got {timeout}")
    max_retries = check_integer(max_retries, "max_retries", 0, MAX_RETRIES_LIMIT)
    for name, value in (("base_url", base_url), ("api_key", api_key), ("label", label)):
        if not isinstance(value, str) and (value is not None or name == "label"):
            raise InputTypeError(f"{name} must be a string, got {type(value).__name__}")
    import openai

    client = openai.OpenAI(base_url=base_url or _environ("OPENAI_BASE_URL") or DEFAULT_BASE_URL,
                           api_key=api_key or _environ("OPENAI_API_KEY") or "none",
                           timeout=timeout, max_retries=0)  # fmt: skip
    client.organization, client.project = client.organization or None, client.project or None
    path = None
    if record is not None:
        path = _new_transcript(record, {"transcript": TRANSCRIPT_TAG, "model": model,
                                        "base_url": str(client.base_url), "label": label})  # fmt: skip
    return ChatPolicy(model, lambda request: _ask_endpoint(client, request, timeout, max_retries), path)


def _environ(name: str) -> str | None:
    return os.environ.get(name) or None  # an empty variable counts as unset


def _new_transcript(record, header: dict) -> Path:
    if not isinstance(record, str | Path):
        raise InputTypeError(f"record must be a file path, got {type(record).__name__}")
    path = Path(record)
    if path.exists():
        raise InputError(f"record must name a new file, {path} exists: a transcript is never appended to")
    try:
        path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    except OSError as error:
        raise InputError(
            f"record must name a new file that can be written, {path}: {error.strerror}"
        ) from error
    return path


def read_transcript(transcript) -> tuple[dict, list[dict]]:
    """A transcript's header and request lines. Raises InputTypeError, TranscriptError."""
    if not isinstance(transcript, str | Path):
        raise InputTypeError(f"transcript must be a file path, got {type(transcript).__name__}")
    try:
        lines = [
            json.loads(line) for line in Path(transcript).read_text(encoding="utf-8").splitlines() if line
        ]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise TranscriptError(f"transcript {transcript} cannot be read: {error}") from error
    if not lines or not isinstance(lines[0], dict) or lines[0].get("transcript") != TRANSCRIPT_TAG:
        raise TranscriptError(f"transcript {transcript} is not a transcript of sim.chat.chat_policy")
    bad = next((n for n, line in enumerate(lines[1:], 2) if not _request_line(line)), None)
    if bad is not None or not isinstance(lines[0].get("model"), str):
        where = f"its line {bad}" if bad is not None else "its header's model"
        raise TranscriptError(
            f"transcript {transcript} is not a transcript of sim.chat.chat_policy ({where})"
        )
    return lines[0], lines[1:]


def _request_line(line) -> bool:
    """Whether a line is a request's as `ChatPolicy` writes it: a key and a reply or failure."""
    reply = line.get("reply") if isinstance(line, dict) else None
    if not isinstance(reply, dict) or not isinstance(line.get("key"), str):
        return False
    if "error" in reply:
        error = reply["error"]
        return (
            isinstance(error, dict)
            and error.get("kind") in FAILURE_KINDS
            and isinstance(error.get("message"), str)
        )
    return all(isinstance(reply.get(name), str | None) for name in ("tool", "content"))


def replay_policy(transcript) -> ChatPolicy:
    """A policy answering each request from a transcript (lesson 6). Raises as `read_transcript`, and
    TranscriptError at a request it holds no reply for."""
    header, lines = read_transcript(transcript)
    replies: dict[str, list] = {}
    for line in lines:
        replies.setdefault(line["key"], []).append(line["reply"])
    used: dict[str, int] = {}

    def ask(request: dict) -> dict:
        key = request_key(request)
        n = used.get(key, 0)
        if n >= len(replies.get(key, ())):
            raise TranscriptError(
                f"transcript {transcript} holds no reply for this request (its reply {n + 1}): "
                "replay the same calls, in the same order, as were recorded"
            )
        used[key] = n + 1
        return replies[key][n]

    return ChatPolicy(header["model"], ask)
