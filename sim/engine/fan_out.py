"""The contract's rules per branch on the fan-out tasks (FO2-FO4, PX1, FB1; lesson 8), a small engine
reusing the contract's cost and time functions. FICTIONAL like the rest of `sim`.

FO2: one planner call writes all 3k positions, each right with selection(1) from the run's planner stream
(write_plan). FO3: a branch's step runs when its previous step's output and its tool's required fields
are held in the branch's own state (CT5 per branch); a tool error, or a step whose precondition fails,
stops the branch; a branch whose positions end without its amount has failed (its goal). FO4: when no
branch can go on and some failed, one replan (CT7 permitting) writes every failed branch's remaining
positions (CT6 per branch) in one planner call. Bounds CT11 as the contract's `spend`; the exit state
CT12 (goal: every branch's amount held, the answer their sum). Sequential (parallel_steps off): one call
a step, branch after branch in plan order. PX1 (on): one step runs every ready branch's call at once."""

from dataclasses import dataclass, field
from functools import cache

from sim.engine.config import DEFAULT_MAX_REPLANS, DEFAULT_SEED
from sim.engine.contract import PLANNER_SECONDS, Bounds, Event, spend_within
from sim.engine.exit_states import PLAN_COMPLETE, exit_state
from sim.engine.goals import holds_intermediate
from sim.engine.loops import call_and_observe
from sim.engine.plan_schema import tool_contract, tool_seconds
from sim.model.checks import check_count, check_seed, check_switch
from sim.model.costs import executor_step_tokens, observation_tokens, planner_tokens
from sim.model.draws import draw_stream, stream_key
from sim.model.errors import InputTypeError
from sim.model.fan_out_tasks import (
    BOUND_FACTOR,
    BRANCH_GOAL,
    BRANCH_SEQUENCE,
    FAN_OUT_ANSWERS,
    WIDTHS,
    FanOutTask,
    check_fan_out_task,
)
from sim.model.picks import write_plan

RUNNING, DONE, FAILED = "running", "done", "failed"  # a branch's state


@cache
def _requires(tool: str) -> tuple[str, ...]:
    return tool_contract(tool).requires


def right_sequential_run(width: int) -> tuple[int, int, int]:
    """The steps, tokens and simulated seconds of a fan-out run of `width` branches whose every position
    is right, run sequentially: one planner call, then 3 x width calls."""
    positions = BRANCH_SEQUENCE * width
    tokens = planner_tokens(len(positions)) + sum(
        executor_step_tokens(calls) + observation_tokens(False) for calls in range(len(positions))
    )
    return 1 + len(positions), tokens, PLANNER_SECONDS + sum(map(tool_seconds, positions))


def fan_out_bounds() -> Bounds:
    """FB1: the fan-out tasks' bounds, BOUND_FACTOR times the longest right sequential run's steps,
    tokens and seconds (the widest task's), and the contract's replans; the same for both schedules."""
    steps, tokens, seconds = right_sequential_run(max(WIDTHS))
    return Bounds(BOUND_FACTOR * steps, BOUND_FACTOR * tokens, BOUND_FACTOR * seconds, DEFAULT_MAX_REPLANS)


FAN_OUT_BOUNDS = fan_out_bounds()
CONTRACT_BOUNDS = Bounds()  # the contract's defaults (8 steps, 1000 tokens, 22 s, 2 replans)


@dataclass
class Branch:
    """One branch as it runs: its number (b1, b2, ...), its subscriber, its own state, the tools planned for it (the current
    plan's), the next of them to run, its right positions done (CT6) and whether it runs, is done or
    failed."""

    number: int
    subscriber: str
    fields: dict
    tools: tuple[str, ...] = ()
    at: int = 0
    progress: int = 0
    state: str = RUNNING


@dataclass(frozen=True)
class FanOutRun:
    """The record of one fan-out run: its counters, the plans written (the tools per planner call), the
    log, the answer (the branches' sum, None unless every branch holds its amount), whether it is the
    correct one, the exit state (CT12) and the stop reason."""

    task: str
    width: int
    seed: int
    parallel_steps: bool
    bounds: Bounds
    steps: int
    calls: int
    tokens: int
    seconds: int
    errors: int
    replans: int
    answer: int | None
    correct: bool
    exit_state: str
    stop_reason: str
    plans: tuple[tuple[str, ...], ...]
    events: tuple[Event, ...]


@dataclass
class _Run:
    task: FanOutTask
    parallel: bool
    bounds: Bounds
    branches: list
    steps: int = 0
    calls: int = 0
    tokens: int = 0
    seconds: int = 0
    errors: int = 0
    replans: int = 0
    plans: list = field(default_factory=list)
    events: list = field(default_factory=list)

    def log(self, kind: str, detail: str, positions: int = 0) -> None:
        self.events.append(Event(self.steps, kind, detail, self.tokens, self.seconds, positions))

    def spend(self, tokens: int, seconds: int) -> str | None:
        """Pay for one step, or name the first bound it would break (CT11, as the contract does)."""
        return spend_within(self, self.bounds, tokens, seconds)

    def plan(self, branches: list, draw, replan: bool) -> str | None:
        """One planner call writing each of `branches`' positions left (CT6; all 3k at first), FO2."""
        wanted = [BRANCH_SEQUENCE[b.progress :] or BRANCH_SEQUENCE[-1:] for b in branches]  # CT6
        positions = sum(map(len, wanted))
        stop = self.spend(planner_tokens(positions, replan), PLANNER_SECONDS)
        if stop:
            return stop
        tools = write_plan(tuple(tool for part in wanted for tool in part), draw)
        self.plans.append(tools)
        self.replans += replan
        start = 0
        for branch, part in zip(branches, wanted, strict=True):
            branch.tools, branch.at, branch.state = tools[start : start + len(part)], 0, RUNNING
            start += len(part)
        self.log(
            "replan" if replan else "plan", " | ".join(" -> ".join(b.tools) for b in branches), positions
        )
        return None

    def ready(self) -> list:
        """The running branches whose next step may run (CT5 per branch), sequentially only the first of
        them; a branch whose next tool lacks a required field fails here, before any call."""
        ready = []
        for branch in self.branches:
            if branch.state != RUNNING:
                continue
            tool = branch.tools[branch.at]
            missing = [name for name in _requires(tool) if name not in branch.fields]
            if missing:
                branch.state = FAILED
                self.log("precondition", f"b{branch.number} {tool}: the branch lacks {', '.join(missing)}")
            else:
                ready.append(branch)
                if not self.parallel:
                    break
        return ready

    def call(self, branch: Branch) -> None:
        """One call of a branch's next tool on its own state; a tool error or a plan that ends without the
        branch's amount fails it."""
        number, tool = branch.number, branch.tools[branch.at]
        observation = call_and_observe(tool, branch.fields)
        self.calls, branch.at = self.calls + 1, branch.at + 1
        error = observation.get("error")
        self.log("tool error" if error else "call", f"b{number} {tool}" + (f": {error}" if error else ""))
        if error:
            self.errors, branch.state = self.errors + 1, FAILED
            return
        if branch.progress < len(BRANCH_SEQUENCE) and tool == BRANCH_SEQUENCE[branch.progress]:  # CT6
            branch.progress += 1
        if branch.at == len(branch.tools):  # the branch's positions end: its goal test
            held = BRANCH_GOAL in branch.fields and branch.fields.get("result") == branch.fields[BRANCH_GOAL]
            branch.state = DONE if held else FAILED
            if not held:
                self.log("goal", f"b{number}: its positions ended without its {BRANCH_GOAL}")

    def wave(self, ready: list) -> str | None:
        """One step: the first ready call (sequential), or every ready call at once (PX1)."""
        wave = ready if self.parallel else ready[:1]  # ready has one branch when sequential
        tools = [branch.tools[branch.at] for branch in wave]
        tokens = executor_step_tokens(self.calls) + observation_tokens(False) * len(wave)
        stop = self.spend(tokens, max(map(tool_seconds, tools)))
        if stop:
            return stop
        for branch in wave:
            self.call(branch)
        return None


def check_bounds(bounds: object) -> Bounds:
    """A Bounds whose steps, tokens and seconds are integers >= 1 and replans >= 0. Raises InputTypeError,
    InputError."""
    if not isinstance(bounds, Bounds):
        raise InputTypeError(f"bounds must be a sim.engine.contract.Bounds, got {type(bounds).__name__}")
    minimums = (("max_steps", 1), ("max_tokens", 1), ("max_seconds", 1), ("max_replans", 0))
    return Bounds(*(check_count(getattr(bounds, name), name, minimum) for name, minimum in minimums))


def fan_out_run(
    task: FanOutTask | str,
    seed: int = DEFAULT_SEED,
    parallel_steps: bool = False,
    bounds: Bounds = FAN_OUT_BOUNDS,
) -> FanOutRun:
    """Run one fan-out task (F01..F12) by FO2-FO4: sequentially, or with parallel_steps by PX1, within
    `bounds` (default FB1's; CONTRACT_BOUNDS are the contract's defaults).

    Raises InputTypeError, InputError for a bad task, seed, switch or bound."""
    task, seed = check_fan_out_task(task), check_seed(seed)
    return run_fan_out(task, seed, check_switch(parallel_steps, "parallel_steps"), check_bounds(bounds))


def run_fan_out(task: FanOutTask, seed: int, parallel: bool, bounds: Bounds) -> FanOutRun:
    """`fan_out_run` on checked input (the many-seed tables check once, then run it thousands of times)."""
    branches = [
        Branch(number, s, {"subscriber": s, "query": task.request, "column": "charge"})
        for number, s in enumerate(task.subscribers, 1)
    ]
    run = _Run(task, parallel, bounds, branches)
    draw = draw_stream(stream_key(seed, task.name, planner=True))
    stop = run.plan(branches, draw, replan=False)
    while stop is None:
        ready = run.ready()
        if ready:
            stop = run.wave(ready)
            continue
        failed = [branch for branch in branches if branch.state == FAILED]
        if not failed:
            stop = PLAN_COMPLETE
        elif run.replans >= bounds.max_replans:  # CT7
            stop = "max_replans"
        else:
            stop = run.plan(failed, draw, replan=True)  # FO4: one call for every failed branch
    held = all(branch.state == DONE for branch in branches)
    partial = any(holds_intermediate("amount", b.fields) or BRANCH_GOAL in b.fields for b in branches)  # CT12
    state = exit_state(held, partial, stop)
    run.log("stop", f"{stop}: {state}")
    answer = sum(branch.fields[BRANCH_GOAL] for branch in branches) if held else None
    return FanOutRun(
        task.name, task.width, seed, parallel, bounds, run.steps, run.calls, run.tokens, run.seconds,
        run.errors, run.replans, answer, answer == FAN_OUT_ANSWERS[task.name], state, stop,  # scoring
        tuple(run.plans), tuple(run.events),
    )  # fmt: skip
