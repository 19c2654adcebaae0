"""The planner-executor contract: plan DAG, validation, preconditions, replanning, bounds, exit states.
FICTIONAL like the rest of `sim`; its rules CT1..CT12 are stated in lesson 4's rule table; the option
parallel_steps runs ready steps in waves (the course's PX1, lesson 8)."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType

from sim.engine.config import (
    DEFAULT_BUDGET,
    DEFAULT_MAX_REPLANS,
    DEFAULT_MAX_SECONDS,
    DEFAULT_MAX_TOKENS,
    DEFAULT_SEED,
    RunConfig,
)
from sim.engine.exit_states import PLAN_COMPLETE, exit_state
from sim.engine.goals import goal_of, goal_reached, holds_intermediate
from sim.engine.loops import TaskRun, ToolCall, call_and_observe, call_arguments, initial_state
from sim.engine.plan_schema import (
    CheckedPlan,
    Plan,
    Rejection,
    check_plan,
    checked_plan_from_tools,
    plan_length,
    plan_tools,
    tool_seconds,
)
from sim.model.arguments import argument_writer
from sim.model.checks import check_seed
from sim.model.costs import executor_step_tokens, observation_tokens, planner_tokens
from sim.model.draws import draw_stream, stream_key
from sim.model.errors import InputTypeError
from sim.model.picks import draws_among, write_plan
from sim.model.tasks import ANSWERS, Task, check_task

PLANNER_SECONDS = 5  # simulated seconds per planner call (CT10)
INTERNAL_FIELDS = ("result", "value")  # what the executor keeps for itself, not a planned field


def _held(pad) -> tuple[str, ...]:
    return tuple(name for name in pad.fields if name not in INTERNAL_FIELDS)


@dataclass
class Scratchpad:
    """The one state of a contract run while it runs (lesson 4): the fields held, each completed
    step's outputs, every raw observation as (step id, tool, observation), a note per failure, the
    positions done (progress) and the counters (seconds simulated)."""

    fields: dict
    outputs: dict = field(default_factory=dict)
    raw: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    progress: int = 0
    steps: int = 0
    calls: int = 0
    tokens: int = 0
    seconds: int = 0
    replans: int = 0
    errors: int = 0
    held = _held  # the field names a plan may rely on

    def record(self) -> "ScratchpadRecord":
        """A frozen copy (read-only mappings and tuples)."""
        return ScratchpadRecord(
            MappingProxyType(dict(self.fields)),
            MappingProxyType({step: MappingProxyType(dict(out)) for step, out in self.outputs.items()}),
            tuple((step, tool, MappingProxyType(dict(obs))) for step, tool, obs in self.raw),
            tuple(self.notes), self.progress, self.steps, self.calls, self.tokens, self.seconds,  # CT6
            self.replans, self.errors,
        )  # fmt: skip


@dataclass(frozen=True)
class ScratchpadRecord:
    """The scratchpad at the end of a contract run, frozen."""

    fields: Mapping
    outputs: Mapping
    raw: tuple
    notes: tuple[str, ...]
    progress: int
    steps: int
    calls: int
    tokens: int
    seconds: int
    replans: int
    errors: int
    held = _held


@dataclass(frozen=True)
class Bounds:
    """The four bounds of a run (CT11): steps, tokens, simulated seconds, replans."""

    max_steps: int = DEFAULT_BUDGET
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_seconds: int = DEFAULT_MAX_SECONDS
    max_replans: int = DEFAULT_MAX_REPLANS


@dataclass(frozen=True)
class Event:
    """One line of a contract run's log, with the steps, tokens and seconds spent so far; positions is
    what a plan or replan wrote (CT9 charges for it), else 0."""

    step: int
    kind: str
    detail: str
    tokens: int
    seconds: int
    positions: int = 0


@dataclass(frozen=True)
class ContractRun(TaskRun):
    """The record of one contract run (lesson 4). plan: the tools of the first plan given; plans:
    every plan the schema accepted; correct: the answer is the correct one (AA30); stopped: the
    plan completed."""

    setup: str
    task: str
    seed: int
    budget: int
    bounds: Bounds
    steps: int
    tokens: int
    seconds: int
    errors: int
    replans: int
    answer: int | str | None
    trace: tuple[ToolCall, ...]
    plan: tuple[str, ...]
    plans: tuple[Plan, ...]
    events: tuple[Event, ...]
    scratchpad: ScratchpadRecord
    exit_state: str
    stop_reason: str
    correct: bool
    stopped: bool
    config: RunConfig
    approvals: int = 0

    @property
    def calls(self) -> int:
        return len(self.trace)


def spend_within(counts, bounds: Bounds, tokens: int, seconds: int) -> str | None:
    """CT11 for anything that counts steps, tokens and seconds (`counts`, changed in place): pay one step
    of `tokens` and `seconds`, or name the first bound it would break, in the order steps, tokens, seconds."""
    if counts.steps + 1 > bounds.max_steps:
        return "max_steps"
    if counts.tokens + tokens > bounds.max_tokens:
        return "max_tokens"
    if counts.seconds + seconds > bounds.max_seconds:
        return "max_seconds"
    counts.steps, counts.tokens, counts.seconds = (
        counts.steps + 1,
        counts.tokens + tokens,
        counts.seconds + seconds,
    )
    return None


@dataclass
class Contract:
    """A contract run as it goes: its task and config, the scratchpad, the log and the trace."""

    task: Task
    config: RunConfig
    pad: Scratchpad
    events: list = field(default_factory=list)
    trace: list = field(default_factory=list)
    plans: list = field(default_factory=list)
    written: int = 0  # plan positions written so far, so step ids stay unique
    writer: Callable | None = None  # AE1's argument writer, None when the rule is off
    bounds: Bounds = field(init=False)  # CT11's, from the config, once
    goal: str | None = field(init=False)  # what the request asks for (RT1), read once
    checked: CheckedPlan | None = None  # the latest plan written or checked, with CT4's findings

    def __post_init__(self):
        config = self.config
        self.bounds = Bounds(config.budget, config.max_tokens, config.max_seconds)
        self.goal = goal_of(self.task.request)

    def log(self, kind: str, detail: str, positions: int = 0) -> None:
        pad = self.pad
        self.events.append(Event(pad.steps, kind, detail, pad.tokens, pad.seconds, positions))

    def spend(self, tokens: int, seconds: int) -> str | None:
        """Pay for one call (a step, CT8), or name the first bound it would break (CT11)."""
        return spend_within(self.pad, self.bounds, tokens, seconds)

    def write(self, tools: tuple[str, ...]) -> Plan:
        """The plan the planner writes around its tools (CT3), its step ids after those written."""
        held = self.pad.held()
        self.checked = checked_plan_from_tools(
            tuple(tools), self.goal, held, 1 + self.written, self.config.tools
        )
        return self.checked.plan

    def check(self, plan: Plan | Mapping) -> CheckedPlan:
        """CT4's findings on `plan` with the fields held now: those found when it was written (no field
        changes between a plan's writing and its run), else new."""
        if self.checked is None or self.checked.plan is not plan:
            self.checked = check_plan(plan, self.pad.held(), self.config.tools)
        return self.checked

    def remaining(self) -> tuple[str, ...]:
        """The positions a replan writes (CT6): those not done, or the last one if all are."""
        return self.task.sequence[self.pad.progress :] or self.task.sequence[-1:]  # CT6

    def call_planner(self, plan: Plan | Mapping, replan: bool) -> str | None:
        """One planner call (CT9, CT10), or the bound that stops it."""
        length = plan_length(plan)
        stop = self.spend(planner_tokens(length, replan), PLANNER_SECONDS)
        if stop is None:
            self.pad.replans += replan
            self.written += length
            self.log("replan" if replan else "plan", self.check(plan).description, length)
        return stop

    def run_plan(self, plan: Plan | Mapping) -> str | None:
        """Validate a plan (CT4) and execute it (CT5): the stop reason, or None after a replan event."""
        checked = self.check(plan)
        parsed, problems = checked.parsed, checked.refusals
        if parsed is not None:
            self.plans.append(parsed)
        if problems:
            error = problems[0]
            self.log("refused", error.message)
        else:
            error, stop = self.execute(parsed)
            if stop:
                return stop
        self.pad.notes.append(f"{error.kind}: {error.message}")
        if error.kind in ("precondition", "goal"):
            self.log(error.kind, error.message)
        return None

    def execute(self, plan: Plan) -> tuple[Rejection | None, str | None]:
        """Run a valid plan step by step: (the replan event's error, None) or (None, the stop reason); with
        parallel_steps (PX1, lesson 8) wave by wave (`execute_waves`)."""
        if self.config.parallel_steps:
            return self.execute_waves(plan)
        pad = self.pad
        for step in plan.steps:
            missing = self.missing(step)
            if missing:  # CT5
                return self.precondition(step, missing), None
            tokens = executor_step_tokens(pad.calls) + observation_tokens(False)
            stop = self.spend(tokens, min(tool_seconds(step.tool), step.timeout))
            if stop:
                return None, stop
            error = self.call(step)
            if error:
                return error, None
        return self.goal_check(plan)

    def execute_waves(self, plan: Plan) -> tuple[Rejection | None, str | None]:
        """PX1 (lesson 8): each step runs a wave, every step not run whose depends_on outputs and requires
        fields are held, as one model turn: tokens executor_step_tokens(calls before the wave) plus an
        observation per call, seconds the wave's longest call. An error in a wave: its other calls have
        run, the first error in plan order is the replan event's; no step ready: the first one's CT5."""
        pad, waiting = self.pad, list(plan.steps)
        while waiting:
            wave = [step for step in waiting if not self.missing(step)]
            if not wave:  # CT5
                return self.precondition(waiting[0], self.missing(waiting[0])), None
            tokens = executor_step_tokens(pad.calls) + observation_tokens(False) * len(wave)
            stop = self.spend(tokens, max(min(tool_seconds(step.tool), step.timeout) for step in wave))
            if stop:
                return None, stop
            errors = [error for error in map(self.call, wave) if error]
            if errors:
                return errors[0], None
            waiting = [step for step in waiting if step not in wave]
        return self.goal_check(plan)

    def missing(self, step) -> list[str]:
        """What CT5 finds lacking before a step: required fields, then dependencies' outputs."""
        pad = self.pad
        return [name for name in step.requires if name not in pad.fields] + [
            d for d in step.depends_on if d not in pad.outputs
        ]

    @staticmethod
    def precondition(step, missing: list[str]) -> Rejection:
        return Rejection("precondition", step.id, f"step {step.id!r} ({step.tool}): "
                         f"the scratchpad lacks {', '.join(missing)}")  # fmt: skip

    def call(self, step) -> Rejection | None:
        """One paid step's tool call, observed into the scratchpad: its error's Rejection, or None."""
        pad, task = self.pad, self.task
        pad.calls, wrong = pad.calls + 1, ()
        if tool_seconds(step.tool) > step.timeout:
            observation = {"error": f"timed out after {step.timeout} s"}
        else:
            wrong = self.writer(call_arguments(step.tool, pad.fields)) if self.writer else ()
            observation = call_and_observe(step.tool, pad.fields, wrong)
        error = observation.get("error")
        pad.raw.append((step.id, step.tool, dict(observation)))
        if error:
            pad.errors += 1
        else:
            pad.outputs[step.id] = dict(observation)
            if pad.progress < len(task.sequence) and step.tool == task.sequence[pad.progress]:  # CT6
                pad.progress += 1
        self.trace.append(ToolCall(step.tool, bool(error), pad.fields.get("result"), wrong))
        self.log(
            "tool error" if error else "call", f"{step.id} {step.tool}" + (f": {error}" if error else "")
        )
        if error:
            kind = "timeout" if error.startswith("timed out") else "tool error"
            return Rejection(kind, step.id, f"step {step.id!r} ({step.tool}): {error}")
        return None

    def goal_check(self, plan: Plan) -> tuple[Rejection | None, str | None]:
        """After the plan's last step: the goal's Rejection unless the goal field is held (CT5)."""
        if plan.goal not in self.pad.fields:
            last = plan.steps[-1].id
            return Rejection(
                "goal", last, f"the plan ended at step {last!r} without its goal {plan.goal!r}"
            ), None
        return None, PLAN_COMPLETE

    def record(self, seed: int, first_tools: tuple[str, ...], stop: str) -> ContractRun:
        """The run's record once `stop` ended it, with its exit state (CT12)."""
        task, config, pad = self.task, self.config, self.pad
        goal = self.goal
        state = exit_state(goal_reached(goal, pad.fields), holds_intermediate(goal, pad.fields), stop)
        self.log("stop", f"{stop}: {state}")
        answer = pad.fields.get("result")
        bounds = Bounds(config.budget, config.max_tokens, config.max_seconds, config.max_replans)
        return ContractRun(
            "contract", task.name, seed, config.budget, bounds, pad.steps, pad.tokens, pad.seconds,
            pad.errors, pad.replans, answer, tuple(self.trace), first_tools, tuple(self.plans),
            tuple(self.events), pad.record(), state, stop, answer == ANSWERS[task.name],  # scoring
            stop == PLAN_COMPLETE, config, 0,
        )  # fmt: skip


def run_contract(
    task: Task | str,
    seed: int = DEFAULT_SEED,
    max_steps: int = DEFAULT_BUDGET,
    max_replans: int | None = None,
    max_tokens: int | None = None,
    max_seconds: int | None = None,
    first_plan: Plan | Mapping | None = None,
) -> ContractRun:
    """Run one task under the contract (CT1-CT12, lesson 4). Bounds of None take the defaults
    (2 replans, 1000 tokens, 22 simulated seconds); `first_plan` replaces the planner's first plan
    (its draws are made all the same).

    Raises InputTypeError, InputError for a bad task, seed, bound or first plan."""
    task, seed = check_task(task), check_seed(seed)
    if first_plan is not None and not isinstance(first_plan, Plan | Mapping):
        raise InputTypeError(
            f"first_plan must be a Plan, the mapping of one, or None, got {type(first_plan).__name__}"
        )
    config = RunConfig("contract", max_steps, max_replans=max_replans, max_tokens=max_tokens,
                       max_seconds=max_seconds)  # fmt: skip
    return contract_run(task, seed, config, first_plan)


def contract_run(task: Task, seed: int, config: RunConfig, first_plan=None, planner=None):
    """The contract on a checked task, seed and config (CT1-CT12), a ContractRun. `planner(positions)
    -> tools` writes every plan (default: the seed's planner stream; the batch path passes its own)."""
    if planner is None:
        draw = draws_among(draw_stream(stream_key(seed, task.name, planner=True)), config.tools)
        planner = partial(write_plan, draw=draw)
    share = config.argument_errors
    writer = None if share is None else argument_writer(seed, task.name, share)
    run = Contract(task, config, Scratchpad(initial_state(task)), writer=writer)
    plan = run.write(planner(task.sequence))  # CT2: the split's first plan, from the same draws
    plan = plan if first_plan is None else first_plan
    first_tools = plan_tools(plan)
    stop = run.call_planner(plan, replan=False)
    while stop is None:
        stop = run.run_plan(plan)  # CT4, CT5
        if stop is not None:
            break
        if run.pad.replans >= config.max_replans:  # CT7
            stop = "max_replans"
            break
        plan = run.write(planner(run.remaining()))  # CT6: a sub-plan for the positions left
        stop = run.call_planner(plan, replan=True)
    return run.record(seed, first_tools, stop)
