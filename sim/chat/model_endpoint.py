"""The course's FICTIONAL model behind an OpenAI chat-completions endpoint on 127.0.0.1 (issue 29):
POST /v1/chat/completions and GET /v1/models. NOT a model: every pick is the one-seed engine's draw.

- The run: the model name `sim-model@seed=N&task=GNN`; without task, the one task whose request is the
  first user message's first line (several tasks share a request text: then the name must say).
- Each request is answered from its conversation: the earlier picks (each tool call, or a text turn
  of the assistant) are replayed from the start of the run's stream (`sim.engine.loops`: the single
  loop's, or the planner stream for the split), the state folded from the tool results as sent,
  progress by the source's rule (a call of the target tool that is no tool error), then the next pick.
  A call that differs from the model's pick (a framework's change) is kept: state and progress follow
  the calls made, and the reply's extra field `sim.departures` numbers those picks (1-based).
  smolagents' form is read too: an assistant text "Calling tools:\n[...]" (Python's text of its one
  call) with the next message's "Observation:\n<result>" or "Error:\n<text>" (a tool error) as its
  result, any "Call id: ..." line before it skipped; and each "Error:\n<text>\nNow let's retry: ..."
  in a user message without a call id (a call smolagents refused before running it, which it does not
  write down) as the model's pick at that point with a tool error.
- The request's kind: a system message holding SYSTEM_PLANNER gets the split's plan (a JSON list of
  tool names); one with no tools offered (or tool_choice "none"; smolagents' own request at its
  max_steps is one) gets the answer held; one holding SYSTEM_EXECUTOR, with a user line `Plan: [...]`,
  the executor's pick; any other, the single loop's.
  A planner request always gets the run's one plan (AA24; replans are not the split's). When the pick
  is to stop and a tool named `final_answer` is offered (smolagents' way to finish), the reply calls
  it with {"answer": the answer's text}; otherwise the stop is a text turn holding the answer.
- `usage` is an ESTIMATE, no tokenizer: prompt_tokens = ceil(characters of json.dumps(messages) / 4)
  plus ceil(characters of json.dumps(tools) / 4) when tools are sent (a provider bills their schemas too),
  completion_tokens = ceil(characters of json.dumps(the reply's message) / 4), total their sum.
- Bad input gets an OpenAI-style error body: 404 for another model or path, 400 for the rest.
"""

import argparse
import ast
import json
import math
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

from sim.chat.messages import SYSTEM_EXECUTOR, SYSTEM_PLANNER
from sim.engine.loops import GIVEN, RESULT_FIELDS, call_arguments, initial_state
from sim.model.checks import check_seed
from sim.model.draws import draw_stream, stream_key
from sim.model.errors import InputError, InputTypeError
from sim.model.picks import executor_pick, single_loop_pick, write_plan
from sim.model.tasks import BY_NAME, TASKS, Task
from sim.model.world import IMITATES

HOST = "127.0.0.1"
MODEL = "sim-model"  # the model names served: MODEL@seed=N or MODEL@seed=N&task=GNN
NAME_KEYS = ("seed", "task")
CHARACTERS_PER_TOKEN = 4  # the usage estimate's rule
MAX_BODY = 4_000_000  # bytes a request body may have
ANSWER_TEXT = re.compile(r"The answer is (.*)\.", re.DOTALL)
CALLING_TOOLS = "Calling tools:\n"  # smolagents' text of an earlier step's calls
FINAL_ANSWER = "final_answer"  # the tool smolagents finishes by
# smolagents' words after a step's error
RETRY = ("Now let's retry: take care not to repeat previous errors! If you have retried several times, "
         "try a completely different approach.")  # fmt: skip
REFUSED = re.compile(r"(?:^|\n)(Call id: [^\n]*\n)?Error:\n(.*?)\n" + re.escape(RETRY), re.DOTALL)
THE_PICK = "<the model's pick>"  # a pick's tool when the call was refused unwritten: the model's pick there


class EndpointError(InputError):
    """A request the endpoint refuses (bad input): the HTTP status and an OpenAI-style error body."""

    def __init__(self, status: int, message: str, param: str | None = None, code: str | None = None):
        super().__init__(message)
        self.status, self.param, self.code = status, param, code

    def body(self) -> dict:
        kind = "invalid_request_error" if self.status < 500 else "server_error"
        return {"error": {"message": str(self), "type": kind, "param": self.param, "code": self.code}}


def parse_model(model: object) -> tuple[int, Task | None]:
    """(seed, task or None) of a model name `sim-model@seed=N[&task=GNN]`. Raises EndpointError: 404 for
    another model, 400 for a missing, repeated or unknown key or a bad seed or task."""
    if not isinstance(model, str) or not model:
        raise EndpointError(400, f"model must be a name {MODEL}@seed=N[&task=GNN], got {model!r}", "model")
    base, at, query = model.partition("@")
    if base != MODEL:
        raise EndpointError(404, f"the model {model!r} does not exist; this endpoint serves {MODEL}@seed=N"
                            "[&task=GNN]", "model", "model_not_found")  # fmt: skip
    given = {}
    for part in query.split("&") if at else []:
        key, equals, value = part.partition("=")
        if key not in NAME_KEYS or not equals or key in given:
            what = "repeated" if key in given else "unknown" if key not in NAME_KEYS else "without a value"
            raise EndpointError(400, f"model {model!r}: {what} part {part!r}; the parts are seed=N and "
                                "task=GNN, joined by &", "model")  # fmt: skip
        given[key] = value
    if "seed" not in given:
        raise EndpointError(400, f"model {model!r} names no seed: {MODEL}@seed=N[&task=GNN]", "model")
    try:
        seed = check_seed(int(given["seed"]) if given["seed"].isdigit() else given["seed"])
    except (InputError, InputTypeError) as error:
        raise EndpointError(400, f"model {model!r}: {error}", "model") from None
    task = given.get("task")
    if task is not None and task not in BY_NAME:
        raise EndpointError(400, f"model {model!r}: task must be one of G01..G24, got {task!r}", "model")
    return seed, None if task is None else BY_NAME[task]


def text_of(message: dict) -> str:
    """A message's text: its content, or its text parts joined (the chat format's content list)."""
    content = message.get("content")
    if isinstance(content, list):
        texts = (part.get("text") for part in content if isinstance(part, dict))
        return "\n".join(text for text in texts if isinstance(text, str))
    return content if isinstance(content, str) else ""


def observation_of(content: str) -> dict:
    """A tool result's observation: its JSON (or Python literal) object; any other text is a tool error."""
    for read in (json.loads, ast.literal_eval):
        try:
            value = json.loads(json.dumps(read(content)))  # a Python literal only as far as JSON holds it
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    return {"error": content}


def fold(tool: str, state: dict, observation: dict) -> None:
    """Fold a call's observation into the state as `sim.engine.loops.call_and_observe` does."""
    if tool == "write_record":
        state["value"] = state.get("result")
    if "error" not in observation:
        state.update({key: value for key, value in observation.items() if key not in GIVEN})
        original = IMITATES.get(tool, tool)
        if RESULT_FIELDS.get(original) in observation:
            state["result"] = observation[RESULT_FIELDS[original]]


@dataclass
class Request:
    """One checked request: the run (seed, task), its messages, whether tools are offered, and the
    picks its conversation holds (a tool and its observation, or (None, None) for a text turn)."""

    seed: int
    task: Task
    messages: list
    tools_offered: bool
    kind: str
    tools: list | None = None
    plan: tuple[str, ...] | None = None
    picks: list = field(default_factory=list)
    final_answer_tool: bool = False  # a tool named FINAL_ANSWER is offered


def _checked_messages(body: dict) -> list:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise EndpointError(400, "messages must be a non-empty list of message objects", "messages")
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise EndpointError(400, f"messages[{i}] must be an object with a role", f"messages[{i}]")
    return messages


def _text_calls(text: str) -> list | None:
    """The calls of smolagents' text "Calling tools:\n[...]" (Python's text of the calls), None for a text
    without it. Raises EndpointError for a "Calling tools:" text that is not a list of calls."""
    before, found, written = text.partition(CALLING_TOOLS)
    if not found:
        return None
    try:
        calls = ast.literal_eval(written.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        calls = None
    if not isinstance(calls, list) or not all(isinstance(call, dict) for call in calls):
        raise EndpointError(400, f"a text {CALLING_TOOLS.strip()!r} must be followed by a list of calls (Python's "
                            f"text of them), got {written.strip()[:60]!r}", "messages")  # fmt: skip
    return calls


def _text_result(text: str) -> dict:
    """The observation of smolagents' result text: "Observation:\n<result>" (the JSON at its start, text
    the agent appended after it dropped) or "Error:\n<text>" (a tool error), after any "Call id:" line."""
    if text.startswith("Call id: "):
        text = text.partition("\n")[2]
    if text.startswith("Error:"):
        return {"error": text[len("Error:") :].strip()}
    result = text.removeprefix("Observation:").strip()
    try:
        value, _ = json.JSONDecoder().raw_decode(result)
    except ValueError:
        value = None
    return value if isinstance(value, dict) else observation_of(result)


def _picks(messages: list) -> list:
    """The conversation's picks in order, each tool call with the result sent for it (smolagents' text
    form: the next message holds the result)."""
    results = {m["tool_call_id"]: text_of(m) for m in messages
               if m["role"] == "tool" and isinstance(m.get("tool_call_id"), str)}  # fmt: skip
    picks = []
    for i, message in enumerate(messages):
        if message["role"] == "user":  # smolagents' refused calls: no call id, no call written
            picks += [(THE_PICK, {"error": m[2]}) for m in REFUSED.finditer(text_of(message)) if not m[1]]
        if message["role"] != "assistant":
            continue
        written = None if message.get("tool_calls") else _text_calls(text_of(message))
        if written is not None:
            if len(written) != 1 or i + 1 == len(messages) or messages[i + 1]["role"] == "assistant":
                raise EndpointError(400, f"messages[{i}]: a call written as text must be one call with its "
                                    "result in the next message", f"messages[{i}]")  # fmt: skip
            function = written[0].get("function")
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                raise EndpointError(
                    400, f"messages[{i}]: a tool call must name its function", f"messages[{i}]"
                )
            picks.append((function["name"], _text_result(text_of(messages[i + 1]))))
            continue
        calls = message.get("tool_calls") or []
        if not isinstance(calls, list):
            raise EndpointError(400, f"messages[{i}].tool_calls must be a list", f"messages[{i}]")
        if not calls:
            picks.append((None, None))
        for call in calls:
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                raise EndpointError(
                    400, f"messages[{i}]: a tool call must name its function", f"messages[{i}]"
                )
            if not isinstance(call.get("id"), str) or call["id"] not in results:
                raise EndpointError(400, f"messages[{i}]: the tool call {call.get('id')!r} has no tool "
                                    "message with its result", f"messages[{i}]")  # fmt: skip
            picks.append((function["name"], observation_of(results[call["id"]])))
    return picks


def _find_task(task: Task | None, request_text: str, model: str) -> Task:
    having = [t for t in TASKS if t.request == request_text]
    if task is not None:
        if having and task not in having:
            raise EndpointError(400, f"model {model!r} names task {task.name}, whose request is not the "
                                f"request sent (that is {', '.join(t.name for t in having)}'s)", "model")  # fmt: skip
        return task
    if len(having) != 1:
        found = f"{len(having)} tasks ({', '.join(t.name for t in having)}) have" if having else "no task has"
        raise EndpointError(400, f"{found} the request's text {request_text!r}: name the task in the "
                            f"model, {MODEL}@seed=N&task=GNN", "model")  # fmt: skip
    return having[0]


def read_request(body: object) -> Request:
    """The checked request of a parsed body. Raises EndpointError for anything the endpoint refuses."""
    if not isinstance(body, dict):
        raise EndpointError(400, f"the body must be a JSON object, got {type(body).__name__}")
    if body.get("stream"):
        raise EndpointError(400, "streaming is not served: send stream false", "stream")
    seed, named = parse_model(body.get("model"))
    messages = _checked_messages(body)
    tools = body.get("tools")
    if tools is not None and not isinstance(tools, list):
        raise EndpointError(400, "tools must be a list of tool objects", "tools")
    offered = bool(tools) and body.get("tool_choice") != "none"
    system = " ".join(text_of(m) for m in messages if m["role"] in ("system", "developer"))
    user = next((text_of(m) for m in messages if m["role"] == "user"), "")
    lines = user.split("\n")
    kind = ("planner" if SYSTEM_PLANNER in system else "final answer" if not offered
            else "executor" if SYSTEM_EXECUTOR in system else "tool pick")  # fmt: skip
    plan = None
    if kind == "executor":
        written = next((line[len("Plan: ") :] for line in lines if line.startswith("Plan: ")), None)
        try:
            plan = json.loads(written) if written is not None else None
        except ValueError:
            plan = None
        if not isinstance(plan, list) or not all(isinstance(tool, str) for tool in plan):
            raise EndpointError(400, "an executor request's user message needs a line Plan: [...], a JSON "
                                f"list of tool names; got {written!r}", "messages")  # fmt: skip
        plan = tuple(plan)
    task = _find_task(named, lines[0], body["model"])
    finishes = offered and any(isinstance(t, dict) and isinstance(t.get("function"), dict)
                               and t["function"].get("name") == FINAL_ANSWER for t in tools)  # fmt: skip
    picks = [] if kind == "planner" else _picks(messages)
    return Request(seed, task, messages, offered, kind, tools or None, plan, picks, finishes)


def replay(task: Task, sequence: tuple, picks: list, pick: Callable | None) -> tuple[dict, int, int, list]:
    """(state, done, calls, departures) after a conversation's picks, the model's `pick` (target,
    depth, calls) -> tool or None drawing for each as the engine does (None: draw nothing; a pick of
    THE_PICK, a refused call, is then the model's pick there); `sequence`: the task's, whose positions
    the picks aim at."""
    state, done, calls, departures = initial_state(task), 0, 0, []
    for number, (tool, observation) in enumerate(picks, start=1):
        target = sequence[done] if done < len(sequence) else None
        if tool == THE_PICK:  # a refused call: the model's pick there (None without `pick`: a final
            tool = None if pick is None else pick(target, done + 1, calls)  # answer reads the result only)
        elif pick is not None and pick(target, done + 1, calls) != tool:
            departures.append(number)
        if observation is None:
            continue  # a text turn
        if tool is not None:
            fold(tool, state, observation)
            done += tool == target and "error" not in observation
        calls += 1
    return state, done, calls, departures


def answer_text(answer: object) -> str:
    """The text of a final answer: "The answer is <the answer held, as JSON>."."""
    return f"The answer is {json.dumps(answer)}."


def held_answer(text: object) -> int | str | None:
    """The answer held in a final answer's text (`answer_text`'s inverse). Raises InputTypeError,
    InputError for text that is not such an answer."""
    if not isinstance(text, str):
        raise InputTypeError(f"text must be a final answer's text, got {type(text).__name__}")
    match = ANSWER_TEXT.fullmatch(text.strip())
    try:
        if match:
            return json.loads(match[1])
    except ValueError:
        pass
    raise InputError(f"text must read 'The answer is <JSON>.', got {text!r}")


def _pick_function(request: Request, sequence: tuple) -> tuple[Callable, bool | None]:
    """(the model's pick on a fresh stream, for an executor whether the plan sent is the planner's)."""
    task, seed, plan = request.task, request.seed, request.plan
    if request.kind == "tool pick":
        draw = draw_stream(stream_key(seed, task.name))
        return (lambda target, depth, calls: single_loop_pick(target, depth, draw)), None
    draw = draw_stream(stream_key(seed, task.name, planner=True))
    written = write_plan(sequence, draw)  # the planner's draws come first on its stream
    return (lambda target, depth, calls: executor_pick(plan, calls, target, depth, draw)), written == plan


def model_message(request: Request) -> tuple[dict, dict]:
    """(the assistant message, the reply's `sim` field) the model sends for a checked request; the one
    reader of the task's sequence (AA27: picks aim at its positions; AA24, AA29: the plan's)."""
    task, seed = request.task, request.seed
    sequence = task.sequence  # AA27, AA24, AA29: the fictional model reads its task
    about = {"seed": seed, "task": task.name, "request": request.kind}
    if request.kind == "planner":
        plan = write_plan(sequence, draw_stream(stream_key(seed, task.name, planner=True)))
        return {"role": "assistant", "content": json.dumps(list(plan))}, about
    pick, as_written = (None, None) if request.kind == "final answer" else _pick_function(request, sequence)
    state, done, calls, departures = replay(task, sequence, request.picks, pick)
    about.update(picks=len(request.picks), departures=departures)
    if request.kind == "executor":
        about["plan_as_written"] = as_written
    target = sequence[done] if done < len(sequence) else None
    tool = None if pick is None else pick(target, done + 1, calls)
    if tool is None and not request.final_answer_tool:
        return {"role": "assistant", "content": answer_text(state.get("result"))}, about
    arguments = {"answer": answer_text(state.get("result"))} if tool is None else call_arguments(tool, state)
    call = {"id": f"call_{calls + 1}", "type": "function",
            "function": {"name": tool or FINAL_ANSWER, "arguments": json.dumps(arguments)}}  # fmt: skip
    return {"role": "assistant", "content": None, "tool_calls": [call]}, about


def estimated_tokens(value: object) -> int:
    """The usage estimate of a JSON value: ceil(characters of json.dumps(value) / 4)."""
    return math.ceil(len(json.dumps(value)) / CHARACTERS_PER_TOKEN)


def completion(body: object) -> dict:
    """The chat.completion body the endpoint sends for a parsed request body. Raises EndpointError."""
    request = read_request(body)
    message, about = model_message(request)
    prompt = estimated_tokens(request.messages) + (estimated_tokens(request.tools) if request.tools else 0)
    written = estimated_tokens(message)
    return {"id": "chatcmpl-sim", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": written, "total_tokens": prompt + written},
            "sim": about}  # fmt: skip


def model_object(name: str) -> dict:
    """The /v1/models entry of a model name."""
    return {"id": name, "object": "model", "created": 0, "owned_by": "sim (fictional)"}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # a client keeps its connection for the next request, as with a real API
    disable_nagle_algorithm = True  # headers and body go out at once (no 40 ms wait for an ACK)

    def do_POST(self):  # noqa: N802 - the name http.server calls
        self._answer(self._post)

    def do_GET(self):  # noqa: N802
        self._answer(self._get)

    def _post(self) -> dict:
        if self.path.rstrip("/") != "/v1/chat/completions":
            raise EndpointError(
                404, f"no such path {self.path!r}: POST /v1/chat/completions", code="not_found"
            )
        length = self.headers.get("Content-Length") or "0"
        if not length.isdigit() or int(length) > MAX_BODY:
            raise EndpointError(400, f"Content-Length must be a byte count up to {MAX_BODY}, got {length!r}")
        try:
            body = json.loads(self.rfile.read(int(length)) or b"null")
        except (ValueError, UnicodeDecodeError) as error:
            raise EndpointError(400, f"the body is not JSON: {error}") from None
        if self.server.bodies is not None:
            self.server.bodies.append(body)
        return completion(body)

    def _get(self) -> dict:
        path = self.path.rstrip("/")
        if path == "/v1/models":
            return {"object": "list", "data": [model_object(MODEL)]}
        if path.startswith("/v1/models/"):
            name = unquote(path[len("/v1/models/") :])
            parse_model(name)
            return model_object(name)
        raise EndpointError(404, f"no such path {self.path!r}: GET /v1/models", code="not_found")

    def _answer(self, make: Callable[[], dict]) -> None:
        try:
            status, answer = 200, make()
        except EndpointError as error:
            status, answer = error.status, error.body()
        except Exception as error:  # noqa: BLE001 - the server answers, never dies with a traceback
            failed = EndpointError(500, f"the endpoint failed: {type(error).__name__}: {error}")
            status, answer = 500, failed.body()
        if status != 200:  # a body refused may be left unread: the connection ends with the answer
            self.close_connection = True
        send_json(self, status, answer)

    def log_message(self, *args):  # quiet
        pass


def send_json(handler: BaseHTTPRequestHandler, status: int, answer: dict) -> None:
    """Send `answer` as a JSON reply with `status`; a client that gave up gets nothing."""
    data = json.dumps(answer).encode()
    try:
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        if handler.close_connection:  # the client is told the connection ends with this answer
            handler.send_header("Connection", "close")
        handler.end_headers()
        handler.wfile.write(data)
    except OSError:
        pass


@contextmanager
def serve(port: int = 0, bodies: list | None = None) -> Iterator[str]:
    """Serve the model on 127.0.0.1:`port` (0: a free port) in a background thread; yields the base
    URL "http://127.0.0.1:PORT/v1" and shuts the server down on exit; `bodies`: a list that gets each
    request body as sent (parsed JSON), in order."""
    if bodies is not None and not isinstance(bodies, list):
        raise InputTypeError(f"bodies must be a list or None, got {type(bodies).__name__}")
    with served(_Handler, port, bodies=bodies) as base_url:
        yield base_url


@contextmanager
def served(handler: type[BaseHTTPRequestHandler], port: int = 0, **attributes) -> Iterator[str]:
    """Serve `handler` on 127.0.0.1:`port` in a background thread, `attributes` set on the server;
    yields the base URL "http://127.0.0.1:PORT/v1" and shuts the server down on exit."""
    server = ThreadingHTTPServer((HOST, port), handler)
    server.daemon_threads = True
    for name, value in attributes.items():
        setattr(server, name, value)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"the port must be 0 to 65535, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    """Serve the model until interrupted (the command line's entry): --port (default 8000, 0: a free
    one); prints the base URL first."""
    parser = argparse.ArgumentParser(
        description="The course's fictional model as a chat endpoint on 127.0.0.1."
    )
    parser.add_argument("--port", type=_port, default=8000, help="port on 127.0.0.1 (0: a free one)")
    port = parser.parse_args(argv).port
    try:
        with serve(port) as base_url:
            print(
                f"serving {MODEL} at {base_url}; model names {MODEL}@seed=N&task=GNN; Ctrl-C stops",
                flush=True,
            )
            while True:  # short sleeps: Ctrl-C's signal may reach a server thread, and the main
                time.sleep(0.2)  # thread, which raises KeyboardInterrupt, sees it when it wakes
    except KeyboardInterrupt:
        pass
    except OSError as error:  # the port is taken or not ours to open
        print(f"cannot serve on 127.0.0.1:{port}: {error}", file=sys.stderr)
        return 1
    return 0
