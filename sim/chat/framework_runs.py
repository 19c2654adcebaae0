"""Lesson 7's framework agents as entrants of the harness, and their recorded runs (issue 29): each
agent runs every task at each seed against the course's FICTIONAL model on 127.0.0.1; the maintainer
records them (scripts/record_framework_runs.py) and the lesson replays the record as BatchRuns."""

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from sim.chat.frameworks import (
    FrameworkRun,
    run_course_loop,
    run_langgraph,
    run_openai_agents,
    run_smolagents,
)
from sim.chat.model_endpoint import serve
from sim.chat.plan_graph import run_langgraph_plan_execute
from sim.engine.config import DEFAULT_BUDGET, RunConfig
from sim.measurement.batch import BatchRun
from sim.model.checks import SETUP_NAMES, check_seeds
from sim.model.errors import InputError, InputTypeError
from sim.model.tasks import BY_NAME, TASKS, correct_answer

RECORD_COLUMNS = ("agent", "seed", "task", "answer", "requests", "calls", "errors", "tokens", "ended")
RECORDED = Path(__file__).resolve().parents[2] / "transcripts" / "07_frameworks.csv"


@dataclass(frozen=True)
class FrameworkAgent:
    """An entrant of the harness (lesson 7): a name, `run` (task, seed, base_url) -> FrameworkRun, and
    the setup it is a kind of (tables' label only). Its bound is its own, set in `run` (e.g.
    partial(run_openai_agents, max_turns=N)); steps are its model requests, tokens the endpoint's
    estimate. Raises InputTypeError, InputError for a bad name, run or setup."""

    name: str
    run: Callable
    setup: str = "single-loop"

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise InputTypeError(f"name must be a non-empty string, got {self.name!r}")
        if not callable(self.run):
            raise InputTypeError(
                f"run must be a function (task, seed, base_url) -> FrameworkRun, got {self.run!r}"
            )
        if self.setup not in SETUP_NAMES:
            raise InputError(f"setup must be one of {', '.join(SETUP_NAMES)}, got {self.setup!r}")

    def batch_run(self, seeds, max_steps: int = DEFAULT_BUDGET) -> BatchRun:
        """Every task at each seed against a fresh endpoint, as a BatchRun scored by correct_answer.
        Raises InputError for a max_steps other than the harness's default: the agent's bound is its own."""
        if max_steps != DEFAULT_BUDGET:
            raise InputError(f"max_steps must be left at {DEFAULT_BUDGET} for {self.name!r}: a framework agent's "
                             "bound is its own; set it in its run, e.g. partial(run_openai_agents, max_turns=N)")  # fmt: skip
        seeds = check_seeds(seeds)
        with serve() as base_url:
            records = [self.run(task, seed, base_url) for seed in seeds.tolist() for task in TASKS]
        return records_batch(self.setup, [record_row(self.name, r) for r in records])


def record_row(agent: str, record: FrameworkRun) -> dict:
    """One recorded row (RECORD_COLUMNS) of a run; the answer as JSON."""
    return {"agent": agent, "seed": record.seed, "task": record.task, "answer": json.dumps(record.answer),
            "requests": record.requests, "calls": len(record.tools), "errors": record.errors,
            "tokens": record.tokens, "ended": record.ended}  # fmt: skip


def records_batch(setup: str, rows) -> BatchRun:
    """The BatchRun of one agent's rows (every task at each seed): correct by correct_answer (scoring),
    steps = requests, stopped = ended with an answer; no approvals."""
    frame = pd.DataFrame(list(rows), columns=list(RECORD_COLUMNS))
    seeds = np.array(list(dict.fromkeys(frame["seed"].tolist())), dtype=np.int64)  # in the order run
    index = {task.name: i for i, task in enumerate(TASKS)}
    frame = frame.assign(t=frame["task"].map(index), s=frame["seed"].map({s: i for i, s in enumerate(seeds)}))
    if len(frame) != len(TASKS) * len(seeds) or frame[["t", "s"]].duplicated().any():
        raise InputError(f"rows must hold every task once at each seed; got {len(frame)} rows")
    frame = frame.sort_values(["t", "s"])
    pairs = zip(frame["answer"], frame["task"], strict=True)
    right = [json.loads(text) == correct_answer(BY_NAME[name]) for text, name in pairs]  # scoring
    shape = (len(TASKS), len(seeds))

    def grid(values, kind=np.int64):
        return np.asarray(values, dtype=kind).reshape(shape)

    return BatchRun(RunConfig(setup), seeds, correct=grid(right, bool), steps=grid(frame["requests"]),
                    calls=grid(frame["calls"]), tokens=grid(frame["tokens"]), errors=grid(frame["errors"]),
                    approvals=np.zeros(shape, dtype=np.int64), stopped=grid(frame["ended"] == "answer", bool))  # fmt: skip


def recorded_rows(path: Path = RECORDED) -> pd.DataFrame:
    """The recorded rows (RECORD_COLUMNS), an answer as its JSON text ("null": none). Raises InputError
    when the file is missing (record it: scripts/record_framework_runs.py)."""
    if not Path(path).exists():
        raise InputError(f"no recorded runs at {path}: record them with scripts/record_framework_runs.py")
    # keep_default_na=False: the JSON "null" of a run with no answer stays the text "null"
    return pd.read_csv(path, dtype={"answer": str, "ended": str}, keep_default_na=False)[list(RECORD_COLUMNS)]


def rows_runs(rows: pd.DataFrame) -> dict[str, BatchRun]:
    """Agent name -> BatchRun of recorded rows, in the order recorded."""
    return {agent: records_batch(LESSON_SETUPS.get(agent, "single-loop"), part.to_dict("records"))
            for agent, part in rows.groupby("agent", sort=False)}  # fmt: skip


def recorded_runs(path: Path = RECORDED) -> dict[str, BatchRun]:
    """The recorded runs of lesson 7 (scripts/record_framework_runs.py): agent name -> BatchRun."""
    return rows_runs(recorded_rows(path))


def recorded_endings(path: Path = RECORDED) -> dict[str, dict[str, int]]:
    """How the recorded runs ended, agent name -> {ended: runs}, in the record's order."""
    frame = recorded_rows(path)
    return {
        agent: rows["ended"].value_counts(sort=False).to_dict()
        for agent, rows in frame.groupby("agent", sort=False)
    }


LESSON_AGENTS = (
    FrameworkAgent("course loop, 8 steps", run_course_loop),
    FrameworkAgent("LangGraph, limit 16", partial(run_langgraph, recursion_limit=16)),
    FrameworkAgent("LangGraph, limit 10007 (default)", run_langgraph),
    FrameworkAgent("Agents SDK, 8 turns", partial(run_openai_agents, max_turns=8)),
    FrameworkAgent("Agents SDK, 10 turns (default)", run_openai_agents),
    FrameworkAgent("smolagents, 8 steps", partial(run_smolagents, max_steps=8)),
    FrameworkAgent("smolagents, 20 steps (default)", run_smolagents),
    FrameworkAgent(
        "LangGraph plan-execute, no replanner",
        partial(run_langgraph_plan_execute, replan=False),
        "plan-execute",
    ),
    FrameworkAgent("LangGraph plan-execute, replanner", run_langgraph_plan_execute, "plan-execute"),
)
LESSON_SETUPS = {agent.name: agent.setup for agent in LESSON_AGENTS}
BASELINE = LESSON_AGENTS[0].name  # the course's loop through the same endpoint
