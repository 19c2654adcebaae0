"""The course's fictional model behind a chat-completions endpoint (issue 29, part 1), through the
official `openai` client: the course's single loop and split, sent through it by a small client
that runs each returned call itself, reproduce the one-seed engine and the golden rows; two seeds
differ, a seed repeats; a changed call is followed; bad requests get OpenAI-style errors."""

import json
import math
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import golden_runs
import openai
import pytest

import sim
from sim.chat.messages import SYSTEM_EXECUTOR, SYSTEM_LOOP, head, planner_messages, requests, tool_schemas
from sim.chat.model_endpoint import answer_text, held_answer, main, serve
from sim.model.draws import draw_stream, stream_key
from sim.model.picks import single_loop_pick
from sim.model.tasks import ANSWERS, BY_NAME, TASKS
from sim.model.world import run_tool

SEEDS = (20260218, 20260219)
BUDGET = 8
SETUPS = ("single-loop", "plan-execute")
LETTERS = {"read_meter": "R", "consumption": "C", "tariff": "T", "search_docs": "S", "write_record": "W"}


@pytest.fixture(scope="module")
def base_url():
    with serve() as url:
        yield url


@pytest.fixture(scope="module")
def client(base_url):
    return openai.OpenAI(base_url=base_url, api_key="none", max_retries=0, timeout=10)


def model_name(seed: int, task: str) -> str:
    return f"sim-model@seed={seed}&task={task}"


def ask(client, model: str, messages: list, tools: bool = True) -> dict:
    """One request through the openai client; the raw reply body, its usage checked as the estimate."""
    extra = {"tools": tool_schemas()} if tools else {}
    raw = client.chat.completions.with_raw_response.create(model=model, messages=messages, **extra)
    body = raw.http_response.json()
    parsed = raw.parse()  # the client reads it as a ChatCompletion
    assert parsed.choices[0].message.role == "assistant"
    message = body["choices"][0]["message"]
    prompt = math.ceil(len(json.dumps(messages)) / 4) + (
        math.ceil(len(json.dumps(tool_schemas())) / 4) if tools else 0
    )
    written = math.ceil(len(json.dumps(message)) / 4)
    assert body["usage"] == {
        "prompt_tokens": prompt,
        "completion_tokens": written,
        "total_tokens": prompt + written,
    }
    return body


def client_loop(client, model: str, first: list, budget: int) -> dict:
    """A tiny agent loop: send the conversation, run the call returned with the arguments the model
    wrote, append the call and its result, until a text answer or the budget; the answer held is
    then read with a final-answer request (no tools)."""
    messages, out = list(first), {"tools": [], "errors": [], "sent": [], "steps": 0, "departures": []}
    answer = None
    while out["steps"] < budget:
        out["steps"] += 1
        out["sent"].append(list(messages))
        body = ask(client, model, messages)
        out["departures"] += body["sim"]["departures"]
        message = body["choices"][0]["message"]
        if not message.get("tool_calls"):
            assert body["choices"][0]["finish_reason"] == "stop"
            answer = held_answer(message["content"])
            break
        assert body["choices"][0]["finish_reason"] == "tool_calls" and len(message["tool_calls"]) == 1
        call = message["tool_calls"][0]
        observation = run_tool(call["function"]["name"], json.loads(call["function"]["arguments"]))
        messages += [
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call["id"], "content": json.dumps(observation)},
        ]
        out["tools"].append(call["function"]["name"])
        out["errors"].append("error" in observation)
    else:
        final = ask(client, model, messages, tools=False)
        assert final["sim"]["request"] == "final answer"
        answer = held_answer(final["choices"][0]["message"]["content"])
    return {**out, "answer": answer}


def through_endpoint(client, setup: str, task, seed: int) -> dict:
    model = model_name(seed, task.name)
    if setup == "single-loop":
        return {**client_loop(client, model, head(SYSTEM_LOOP, task.request), BUDGET), "plan": None}
    body = ask(client, model, planner_messages(task), tools=False)
    assert body["sim"]["request"] == "planner"
    plan = json.loads(body["choices"][0]["message"]["content"])
    first = head(SYSTEM_EXECUTOR, f"{task.request}\nPlan: {json.dumps(plan)}")
    run = client_loop(client, model, first, BUDGET - 1)
    return {**run, "steps": run["steps"] + 1, "sent": [planner_messages(task), *run["sent"]], "plan": plan}


@pytest.fixture(scope="module")
def endpoint_runs(client):
    """Every task at both seeds in both setups, through the endpoint."""
    return {(setup, seed, task.name): through_endpoint(client, setup, task, seed)
            for setup in SETUPS for seed in SEEDS for task in TASKS}  # fmt: skip


def engine_run(setup: str, task: str, seed: int):
    return (sim.run_single_loop if setup == "single-loop" else sim.run_plan_execute)(task, seed, BUDGET)


@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_course_loop_through_the_endpoint_is_the_one_seed_engine(endpoint_runs, setup, seed):
    for task in TASKS:
        got, run = endpoint_runs[setup, seed, task.name], engine_run(setup, task.name, seed)
        where = f"{setup} {task.name} seed {seed}"
        assert got["tools"] == [call.tool for call in run.trace], where
        assert got["errors"] == [call.error for call in run.trace], where
        assert got["answer"] == run.answer, where
        assert got["steps"] == run.steps, where
        assert got["plan"] == (None if run.plan is None else list(run.plan)), where
        assert got["sent"] == requests(run), where  # every request as the messages view writes it
        assert got["departures"] == [], where


@pytest.mark.parametrize("setup", SETUPS)
def test_the_endpoint_gives_the_golden_rows(endpoint_runs, setup):
    rows = [row for row in golden_runs.golden_by_config()[(setup, "0", "0")]
            if int(row["seed"]) in SEEDS and row["budget"] == str(BUDGET)]  # fmt: skip
    assert len(rows) == len(SEEDS) * len(TASKS)
    for row in rows:
        got = endpoint_runs[setup, int(row["seed"]), row["task"]]
        trace = "".join(
            LETTERS[t].lower() if e else LETTERS[t] for t, e in zip(got["tools"], got["errors"], strict=True)
        )
        assert repr(got["answer"]) == row["answer"], row
        success = got["answer"] == ANSWERS[row["task"]]
        assert success is (row["answer"] == repr(ANSWERS[row["task"]])), row
        assert str(got["steps"]) == row["steps"] and str(sum(got["errors"])) == row["errors"], row
        assert trace == row["trace"] and len(got["tools"]) == len(row["trace"]), row
        assert "".join(LETTERS.get(t, "?") for t in got["plan"] or ()) == row["plan"], row


def test_two_seeds_differ_and_a_seed_repeats(client, endpoint_runs):
    for setup in SETUPS:
        assert any(endpoint_runs[setup, SEEDS[0], t.name]["tools"] != endpoint_runs[setup, SEEDS[1], t.name]["tools"]
                   for t in TASKS), setup  # fmt: skip
    first = head(SYSTEM_LOOP, TASKS[0].request)
    replies = {seed: [ask(client, model_name(seed, t.name), head(SYSTEM_LOOP, t.request)) for t in TASKS]
               for seed in SEEDS}  # fmt: skip
    assert replies[SEEDS[0]] != replies[SEEDS[1]]
    again = ask(client, model_name(SEEDS[0], TASKS[0].name), first)
    assert again == replies[SEEDS[0]][0]
    assert (
        through_endpoint(client, "single-loop", TASKS[0], SEEDS[1])
        == endpoint_runs["single-loop", SEEDS[1], TASKS[0].name]
    )


def test_a_changed_call_is_followed_and_named(client):
    """A framework calls another tool than the model picked: the endpoint goes on from the call made,
    on the stream the engine would have drawn, and numbers the departure."""
    task, seed = BY_NAME["G05"], SEEDS[0]
    model, messages = model_name(seed, task.name), head(SYSTEM_LOOP, task.request)
    draw = draw_stream(stream_key(seed, task.name))
    first = ask(client, model, messages)["choices"][0]["message"]["tool_calls"][0]
    assert first["function"]["name"] == single_loop_pick("read_meter", 1, draw) == "read_meter"
    changed = {"id": "call_1", "type": "function",
               "function": {"name": "search_docs", "arguments": json.dumps({"query": task.request})}}  # fmt: skip
    result = run_tool("search_docs", {"query": task.request})
    messages += [{"role": "assistant", "content": None, "tool_calls": [changed]},
                 {"role": "tool", "tool_call_id": "call_1", "content": json.dumps(result)}]  # fmt: skip
    body = ask(client, model, messages)
    assert body["sim"]["departures"] == [1] and body["sim"]["picks"] == 1
    call = body["choices"][0]["message"]["tool_calls"][0]
    assert call["function"]["name"] == single_loop_pick("read_meter", 1, draw)  # still at position 1
    assert call["id"] == "call_2"


def test_a_final_answer_request_gets_the_answer_held(client):
    run = sim.run_single_loop("G05", SEEDS[0], BUDGET)
    calls = requests(run)[-1]  # the conversation with every call made
    body = ask(client, model_name(SEEDS[0], "G05"), calls, tools=False)
    assert body["sim"]["request"] == "final answer" and body["choices"][0]["finish_reason"] == "stop"
    assert held_answer(body["choices"][0]["message"]["content"]) == run.answer == ANSWERS["G05"]
    assert ask(client, model_name(SEEDS[0], "G05"), calls[:2], tools=False)["choices"][0]["message"][
        "content"
    ] == answer_text(None)  # nothing held before a call


def test_results_as_frameworks_write_them_are_read(client):
    """A result as Python's text of a dict (str(observation)) or as content parts is read as its JSON
    is; a result that holds no object is a tool error; a call id of another type is refused."""
    run = sim.run_single_loop("G05", SEEDS[0], BUDGET)
    sent, model = requests(run)[-1], model_name(SEEDS[0], "G05")
    as_python = [{**m, "content": str(json.loads(m["content"]))} if m["role"] == "tool" else m for m in sent]
    as_parts = [{**m, "content": [{"type": "text", "text": m["content"]}]} if m["role"] == "tool" else m
                for m in sent]  # fmt: skip
    want = ask(client, model, sent)["choices"]
    assert ask(client, model, as_python)["choices"] == want == ask(client, model, as_parts)["choices"]
    no_object = [{**m, "content": "{'m3': b'55'}"} if m["role"] == "tool" else m for m in sent[:4]]
    errors = [{**m, "content": json.dumps({"error": "no such subscriber"})} if m["role"] == "tool" else m
              for m in sent[:4]]  # fmt: skip
    assert ask(client, model, no_object)["choices"] == ask(client, model, errors)["choices"]
    assert ask(client, model, errors)["choices"] != ask(client, model, sent[:4])["choices"]
    odd_id = [*sent[:2], {**sent[2], "tool_calls": [{**sent[2]["tool_calls"][0], "id": ["call_1"]}]}, sent[3]]
    with pytest.raises(openai.BadRequestError, match="no tool message"):
        ask(client, model, odd_id)


def test_an_executor_follows_the_plan_it_is_sent(client):
    task, seed = BY_NAME["G05"], SEEDS[0]
    plan = ["tariff", "read_meter", "consumption"]
    first = head(SYSTEM_EXECUTOR, f"{task.request}\nPlan: {json.dumps(plan)}")
    body = ask(client, model_name(seed, task.name), first)
    assert body["sim"]["plan_as_written"] is (
        tuple(plan) == sim.run_plan_execute(task.name, seed, BUDGET).plan
    )
    assert body["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "tariff"  # blind (AA26)


def test_the_task_is_found_from_the_request_text_when_one_task_has_it(client):
    unique = next(t for t in TASKS if sum(u.request == t.request for u in TASKS) == 1)
    messages = head(SYSTEM_LOOP, unique.request)
    named = ask(client, model_name(SEEDS[0], unique.name), messages)
    found = ask(client, f"sim-model@seed={SEEDS[0]}", messages)
    assert found["choices"] == named["choices"] and found["sim"]["task"] == unique.name


def test_answer_text_reads_back():
    for answer in (412, "SY01", None):
        assert held_answer(answer_text(answer)) == answer
    with pytest.raises(sim.InputError, match="text must read"):
        held_answer("I do not know")
    with pytest.raises(sim.InputTypeError, match="text must be"):
        held_answer(None)


def post(base_url: str, data: bytes, path: str = "/chat/completions") -> tuple[int, dict]:
    request = urllib.request.Request(base_url + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


SHARED = next(t for t in TASKS if sum(u.request == t.request for u in TASKS) > 1)
GOOD = {"model": model_name(SEEDS[0], "G05"), "messages": head(SYSTEM_LOOP, BY_NAME["G05"].request)}
CALL = {"id": "call_1", "type": "function", "function": {"name": "read_meter", "arguments": "{}"}}
BAD = {  # what is sent -> (status, words the error's message holds)
    "not JSON": (b"hello", 400, "not JSON"),
    "cut JSON": (b'{"model": ', 400, "not JSON"),
    "a list": (b"[1, 2]", 400, "JSON object"),
    "no messages": ({"model": GOOD["model"]}, 400, "messages"),
    "empty messages": ({**GOOD, "messages": []}, 400, "messages"),
    "messages of text": ({**GOOD, "messages": ["hi"]}, 400, "messages[0]"),
    "no model": ({"messages": GOOD["messages"]}, 400, "model must be"),
    "another model": ({**GOOD, "model": "gpt-4o"}, 404, "does not exist"),
    "no seed": ({**GOOD, "model": "sim-model"}, 400, "no seed"),
    "a bad seed": ({**GOOD, "model": "sim-model@seed=-3"}, 400, "seed"),
    "a seed out of range": ({**GOOD, "model": f"sim-model@seed={2**40}"}, 400, "seed"),
    "an unknown part": ({**GOOD, "model": "sim-model@seed=1&temperature=0"}, 400, "unknown part"),
    "a repeated part": ({**GOOD, "model": "sim-model@seed=1&seed=2"}, 400, "repeated part"),
    "an unknown task": ({**GOOD, "model": "sim-model@seed=1&task=G99"}, 400, "G01..G24"),
    "another task's request": (
        {**GOOD, "model": model_name(1, SHARED.name if SHARED.name != "G05" else "G01")},
        400,
        "not the request sent",
    ),  # fmt: skip
    "a shared request, no task": (
        {"model": "sim-model@seed=1", "messages": head(SYSTEM_LOOP, SHARED.request)},
        400,
        "name the task",
    ),  # fmt: skip
    "an unknown request, no task": (
        {"model": "sim-model@seed=1", "messages": head(SYSTEM_LOOP, "hi")},
        400,
        "no task has",
    ),  # fmt: skip
    "a call without its result": (
        {**GOOD, "messages": [*GOOD["messages"], {"role": "assistant", "tool_calls": [CALL]}]},
        400,
        "no tool message",
    ),  # fmt: skip
    "an executor without a plan": (
        {**GOOD, "tools": tool_schemas(), "messages": head(SYSTEM_EXECUTOR, BY_NAME["G05"].request)},
        400,
        "Plan:",
    ),  # fmt: skip
    "streaming": ({**GOOD, "stream": True}, 400, "streaming"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_request_gets_an_openai_style_error_and_the_server_goes_on(base_url, client, case):
    sent, status, words = BAD[case]
    data = sent if isinstance(sent, bytes) else json.dumps(sent).encode()
    got_status, body = post(base_url, data)
    assert got_status == status, body
    error = body["error"]
    assert error["type"] == "invalid_request_error" and words in error["message"], error
    assert "Traceback" not in error["message"]
    assert client.models.list().data[0].id == "sim-model"
    assert post(base_url, json.dumps(GOOD).encode())[0] == 200


def test_the_openai_client_raises_its_own_errors(client):
    with pytest.raises(openai.NotFoundError):
        client.chat.completions.create(model="gpt-4o", messages=GOOD["messages"])
    with pytest.raises(openai.BadRequestError, match="G01..G24"):
        client.chat.completions.create(model="sim-model@seed=1&task=G99", messages=GOOD["messages"])
    assert client.models.retrieve(GOOD["model"]).id == GOOD["model"]


def test_a_wrong_path_is_not_found(base_url):
    status, body = post(base_url, json.dumps(GOOD).encode(), path="/completions")
    assert status == 404 and body["error"]["code"] == "not_found"


def test_a_connection_is_kept_for_the_next_request_and_ended_after_an_error(base_url):
    """HTTP/1.1 keep-alive, as a real API: two answers on one connection; an error answer (whose body
    may be left unread) ends the connection, so no request reads the last one's leftovers."""
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(base_url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=10)
    body, headers = json.dumps(GOOD).encode(), {"Content-Type": "application/json"}
    try:
        replies = []
        for path in ("/chat/completions", "/chat/completions", "/completions"):
            connection.request("POST", where.path + path, body, headers)
            response = connection.getresponse()
            replies.append((response.status, response.getheader("Connection"), json.loads(response.read())))
            if path == "/chat/completions":
                assert connection.sock is not None, "the server closed a connection after a good answer"
        assert [status for status, _, _ in replies] == [200, 200, 404]
        assert replies[0][2]["choices"] == replies[1][2]["choices"]
        assert replies[2][1] == "close" and replies[2][2]["error"]["code"] == "not_found"
    finally:
        connection.close()


def test_serve_takes_a_free_port_and_stops():
    with serve() as url:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
        with urllib.request.urlopen(url + "/models", timeout=5) as response:
            assert json.loads(response.read())["data"][0]["id"] == "sim-model"
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "/models", timeout=2)


def test_main_serves_from_the_command_line():
    """`python -m sim serve` (main()) prints its base URL, serves, and ends on an interrupt."""
    command = [sys.executable, "-m", "sim", "serve", "--port", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split(" at ")[1].split(";")[0]
        with urllib.request.urlopen(url + "/models", timeout=5) as response:
            assert json.loads(response.read())["data"][0]["id"] == "sim-model"
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=10) == 0
    finally:
        if server.poll() is None:
            server.kill()


def test_main_refuses_a_bad_port(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--port", "-1"])
    assert stop.value.code == 2 and "the port must be 0 to 65535" in capsys.readouterr().err
    with serve() as url:  # a port taken: said in a line, no traceback
        assert main(["--port", url.rsplit(":", 1)[1].split("/")[0]]) == 1
    assert "cannot serve on 127.0.0.1:" in capsys.readouterr().err


def test_the_cli_refuses_a_bad_port_in_one_line():
    from cli_run import run_cli

    for bad in ("x", "99999", "-1"):
        refused = run_cli("serve", "--port", bad)
        assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
        assert refused.stderr.startswith("python -m sim serve: error: argument --port: --port must be")
