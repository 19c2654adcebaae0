"""The planner-executor contract: a plan DAG under a pydantic schema, validation before execution,
preconditions before every call, a scratchpad, bounded replanning, hard bounds and four exit states.

FICTIONAL, like the rest of `sim`: no model is called. The world, tools and tasks are the seed's
(AA22); the first plan is the split's (AA23, AA24, AA29). Introduced in lesson 4, the contract.
Its model, stated as rules CT1..CT12 (the constants below carry the numbers):

- CT1. Plan. A plan is a goal field and a list of steps; a step has an id, a tool, the ids it
  depends on, the fields it requires, the fields it produces and a timeout in simulated seconds.
  The steps run in list order, so a step may depend only on earlier steps.
- CT2. First plan. The contract's first plan for a task is the split's plan for the same task
  and seed, from the same draws (`sim.model.picks.write_plan` on the stream seed ^ trace_id("plan" +
  name)): every position right with the flat share selection(1), else a random tool (AA24), as
  long as the task's sequence (AA29). Only what happens after the first plan differs.
- CT3. What the planner writes around the tools. Each step's requires and produces are its
  tool's documented contract (TOOL_CONTRACTS); it depends on the latest earlier step that
  produces each field it requires; its timeout is TIMEOUT_FACTOR x the tool's duration. The plan's
  goal is the field the request asks for (GOALS): the planner reads the kind of job from the
  request, not the tool sequence.
- CT4. Validation before execution. Structural: duplicate step ids, unknown tools, a dependency
  on a missing or a later step (cycles included) are refused by the schema. Data flow: a step
  whose required field neither an upstream step (through depends_on) nor the scratchpad holds,
  and a plan that produces no goal field, are refused. Each refusal names the step. A refused
  plan is not executed: it is a replan event.
- CT5. Preconditions during execution. Before every tool call the executor checks that the
  scratchpad holds every field the step requires. A missing field, a tool error, or a call cut
  at its step's timeout is a replan event carrying the error; the executor never calls blindly.
  A plan that ends without its goal field held is a replan event too.
- CT6. Replanning. At a replan the planner sees the scratchpad (which fields are held and how
  far the job has got: the loops' progress count) and the error (which step failed and why).
  It discards the rest of the current plan and writes a sub-plan for the positions that remain
  (the sequence's length minus the progress). The error tells it where to restart, not which
  tool is right: every position of the sub-plan is again right with the flat share
  selection(1), else a random tool, drawn from the same stream after the first plan's draws.
- CT7. Replan limit. Every replan counts against max_replans, a replan whose sub-plan is refused
  in turn included. A replan event when max_replans replans were already made ends the run
  (stop reason "max_replans").
- CT8. Steps. Every planner call (the first plan and every replan) is a step, and so is every
  tool call (AA25). Validation and precondition checks are local code: no step, no token, no
  simulated second.
- CT9. Tokens. The first plan costs 60 + 25 x plan length (AA28); a replan 60 + 25 x sub-plan
  length + 30 for the error context; a tool call 40 + 10 x tool calls so far, plus 30 for its
  observation (AA28's executor step). All of it is `sim.model.costs`.
- CT10. Simulated seconds. A planner call takes PLANNER_SECONDS; a tool call takes its tool's
  duration (TOOL_SECONDS, `tool_seconds`), or its step's timeout when it is cut there.
- CT11. Bounds. max_steps (default 8, the course's budget), max_tokens (default 1000), max_seconds
  (default 22) and max_replans (default 2). The token and seconds defaults are twice the cost of
  the longest right run (a record task: 1 plan and 4 tool calls, 500 tokens, 11 seconds). Before
  every call the contract checks that the call fits all three of steps, tokens, seconds; if it
  does not, the run stops there, naming the first bound in that order. No bound is ever exceeded.
- CT12. Exit state, decided in this order: SUCCESS when the job is done (a record task: its
  record written with the correct value; any other task: the correct result held); otherwise
  PARTIAL_SUCCESS when the scratchpad holds a correct computed intermediate (the right m3 for a
  charge or record task, or the right amount for a record task not yet written); otherwise
  REPLAN_EXHAUSTED when the run stopped because a replan was needed beyond max_replans;
  otherwise TIMEOUT. The stop reason names what ended the run ("plan complete" or a bound), and
  answer-correctness (the seed's success measure: the answer held equals the correct answer)
  is reported beside the exit state.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from sim.engine.config import (
    DEFAULT_BUDGET,
    DEFAULT_MAX_REPLANS,
    DEFAULT_MAX_SECONDS,
    DEFAULT_MAX_TOKENS,
    DEFAULT_SEED,
    RunConfig,
)
from sim.engine.exit_states import (
    PLAN_COMPLETE,
    exit_state,
    holds_correct_intermediate,
    job_done,
)
from sim.engine.loops import TaskRun, ToolCall, call_and_observe, initial_state
from sim.engine.plan_schema import (
    GOALS,
    Plan,
    PlanStep,
    Rejection,
    data_flow_problems,
    describe_plan,
    parse_plan,
    plan_from_tools,
    plan_length,
    plan_tools,
    tool_seconds,
)
from sim.model.checks import check_seed
from sim.model.costs import executor_step_tokens, observation_tokens, planner_tokens
from sim.model.draws import draw_stream, stream_key
from sim.model.errors import InputTypeError
from sim.model.picks import draws_among, write_plan
from sim.model.tasks import Task, check_task, correct_answer

PLANNER_SECONDS = 5  # simulated seconds per planner call (CT10)

INTERNAL_FIELDS = ("result", "value")  # what the executor keeps for itself, not a planned field


# ---- the scratchpad, costs and bounds (CT8-CT11)


@dataclass
class Scratchpad:
    """The one state object of a contract run while it runs (lesson 4); the run's record keeps a
    frozen copy (`ScratchpadRecord`).

    Fields: fields (what the scratchpad holds by name: the initial fields, every field a tool
    produced, and the executor's own `result`/`value`); outputs (step id -> the outputs of each
    completed step); raw (every tool call's raw observation, as (step id, tool, observation));
    notes (one line per failure: refusal, failed precondition, tool error); progress (how many
    positions of the task's sequence are done, the loops' count); and the counters steps, calls
    (tool calls), tokens, seconds (simulated), replans, errors (tool errors).
    """

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

    def held(self) -> tuple[str, ...]:
        """The field names a plan may rely on (the executor's own result/value excluded)."""
        return tuple(name for name in self.fields if name not in INTERNAL_FIELDS)

    def record(self) -> "ScratchpadRecord":
        """A frozen copy of the scratchpad as it is now (read-only mappings and tuples)."""
        return ScratchpadRecord(
            MappingProxyType(dict(self.fields)),
            MappingProxyType({step: MappingProxyType(dict(out)) for step, out in self.outputs.items()}),
            tuple((step, tool, MappingProxyType(dict(obs))) for step, tool, obs in self.raw),
            tuple(self.notes), self.progress, self.steps, self.calls, self.tokens, self.seconds,
            self.replans, self.errors,
        )  # fmt: skip


@dataclass(frozen=True)
class ScratchpadRecord:
    """The scratchpad at the end of a contract run, frozen: the fields of `Scratchpad`, with
    read-only mappings (fields, outputs and each step's outputs) and tuples (raw, notes)."""

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

    def held(self) -> tuple[str, ...]:
        """The field names a plan may rely on (the executor's own result/value excluded)."""
        return tuple(name for name in self.fields if name not in INTERNAL_FIELDS)


@dataclass(frozen=True)
class Bounds:
    """The four bounds of a run (CT11): max_steps (steps), max_tokens (tokens), max_seconds
    (simulated seconds), max_replans (replans). The defaults are `sim.engine.config`'s."""

    max_steps: int = DEFAULT_BUDGET
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_seconds: int = DEFAULT_MAX_SECONDS
    max_replans: int = DEFAULT_MAX_REPLANS

    @classmethod
    def of(cls, config: RunConfig) -> "Bounds":
        """The bounds of a contract RunConfig."""
        return cls(config.budget, config.max_tokens, config.max_seconds, config.max_replans)


def planner_cost(length: int, replan: bool) -> tuple[int, int]:
    """(tokens, simulated seconds) of one planner call writing `length` positions (CT9, CT10)."""
    return planner_tokens(length, replan), PLANNER_SECONDS


def tool_cost(calls_so_far: int, step: PlanStep) -> tuple[int, int]:
    """(tokens, simulated seconds) of one tool call after `calls_so_far` calls (CT9, CT10): the
    executor's step and its observation; the seconds are the tool's duration, or the step's
    timeout when that is shorter."""
    tokens = executor_step_tokens(calls_so_far) + observation_tokens(False)
    return tokens, min(tool_seconds(step.tool), step.timeout)


def bound_hit(pad: Scratchpad, bounds: Bounds, tokens: int, seconds: int) -> str | None:
    """The first bound (max_steps, max_tokens, max_seconds) that one more call costing `tokens`
    and `seconds` would exceed, or None when the call fits (CT11)."""
    if pad.steps + 1 > bounds.max_steps:
        return "max_steps"
    if pad.tokens + tokens > bounds.max_tokens:
        return "max_tokens"
    if pad.seconds + seconds > bounds.max_seconds:
        return "max_seconds"
    return None


# ---- the run


@dataclass(frozen=True)
class Event:
    """One line of a contract run's log: the step count after it, what happened, a detail, and
    the tokens and simulated seconds spent so far; for a plan or replan, the positions the
    planner call wrote (what CT9 charges for), else 0."""

    step: int
    kind: str
    detail: str
    tokens: int
    seconds: int
    positions: int = 0


@dataclass(frozen=True)
class ContractRun(TaskRun):
    """The record of one contract run (lesson 4), immutable.

    Fields: setup ("contract"); task; seed; budget (max_steps); bounds; steps, tokens, seconds
    (simulated), errors (tool errors), replans; answer (the result held, None if none); trace
    (tool calls); plan (the tools of the first plan the run was given: the split's plan, or a
    constructed first plan's); plans (every plan written that
    the schema accepted, as Plans, the first included; a constructed first plan that the schema
    refuses is in the events only); events (the log); scratchpad (the final ScratchpadRecord);
    exit_state (CT12); stop_reason (one of STOP_REASONS: what ended the run); correct (answer
    equals the correct answer, the seed's success measure); stopped (True when the plan
    completed); config (the RunConfig it ran with); approvals (always 0).
    """

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
        """Tool calls made in this run."""
        return len(self.trace)


def _log(events: list, pad: Scratchpad, kind: str, detail: str, positions: int = 0) -> None:
    events.append(Event(pad.steps, kind, detail, pad.tokens, pad.seconds, positions))


def _planner_call(pad, bounds, events, length, replan, plan_text) -> str | None:
    tokens, seconds = planner_cost(length, replan)
    hit = bound_hit(pad, bounds, tokens, seconds)
    if hit:
        return hit
    pad.steps, pad.tokens, pad.seconds = pad.steps + 1, pad.tokens + tokens, pad.seconds + seconds
    pad.replans += replan
    _log(events, pad, "replan" if replan else "plan", plan_text, length)
    return None


def _execute(task, plan: Plan, pad, bounds, events, trace) -> tuple[Rejection | None, str | None]:
    """Run a validated plan step by step; return (the replan event's error, None) or (None, stop reason)."""
    for step in plan.steps:
        missing = [name for name in step.requires if name not in pad.fields]
        missing += [d for d in step.depends_on if d not in pad.outputs]
        if missing:
            return Rejection("precondition", step.id, f"step {step.id!r} ({step.tool}): "
                             f"the scratchpad lacks {', '.join(missing)}"), None  # fmt: skip
        tokens, seconds = tool_cost(pad.calls, step)
        hit = bound_hit(pad, bounds, tokens, seconds)
        if hit:
            return None, hit
        pad.steps, pad.calls = pad.steps + 1, pad.calls + 1
        pad.tokens, pad.seconds = pad.tokens + tokens, pad.seconds + seconds
        if tool_seconds(step.tool) > step.timeout:
            error, observation = True, {"error": f"timed out after {step.timeout} s"}
        else:
            observation = call_and_observe(step.tool, pad.fields)
            error = "error" in observation
        pad.raw.append((step.id, step.tool, dict(observation)))
        if error:
            pad.errors += 1
        else:
            pad.outputs[step.id] = dict(observation)
            if pad.progress < len(task.sequence) and step.tool == task.sequence[pad.progress]:
                pad.progress += 1
        trace.append(ToolCall(step.tool, error, pad.fields.get("result")))
        _log(events, pad, "tool error" if error else "call", f"{step.id} {step.tool}"
             + (f": {observation['error']}" if error else ""))  # fmt: skip
        if error:
            kind = "timeout" if observation["error"].startswith("timed out") else "tool error"
            return Rejection(kind, step.id, f"step {step.id!r} ({step.tool}): {observation['error']}"), None
    if plan.goal not in pad.fields:
        last = plan.steps[-1].id
        return Rejection(
            "goal", last, f"the plan ended at step {last!r} without its goal {plan.goal!r}"
        ), None
    return None, PLAN_COMPLETE


def run_contract(
    task: Task | str,
    seed: int = DEFAULT_SEED,
    max_steps: int = DEFAULT_BUDGET,
    max_replans: int | None = None,
    max_tokens: int | None = None,
    max_seconds: int | None = None,
    first_plan: Plan | Mapping | None = None,
) -> ContractRun:
    """Run one task under the planner-executor contract (rules CT1-CT12).

    Parameters
    ----------
    task : Task | str
        The task or its name, G01..G24.
    seed : int
        Run seed, 0 <= seed < 2**32; it drives only the planner's draws.
    max_steps : int
        Step budget (steps), >= 1; every planner call and every tool call is a step.
    max_replans : int | None
        Replans allowed, >= 0 (refused sub-plans count); None for the default, 2.
    max_tokens : int | None
        Token bound (tokens), >= 1; None for the default, 1000.
    max_seconds : int | None
        Simulated-clock bound (simulated seconds), >= 1; None for the default, 22.
    first_plan : Plan | Mapping | None
        A constructed first plan to use instead of the planner's (for lessons and tests); the
        planner's draws are made all the same, so replans draw what they would have drawn.

    Returns
    -------
    ContractRun
        With the exit state (CT12), the stop reason, answer-correctness and the scratchpad.

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for a bad task, seed, budget, bound or first plan.
    """
    task, seed = check_task(task), check_seed(seed)
    if first_plan is not None and not isinstance(first_plan, Plan | Mapping):
        raise InputTypeError(
            f"first_plan must be a Plan, the mapping of one, or None, got {type(first_plan).__name__}"
        )
    config = RunConfig("contract", max_steps, max_replans=max_replans, max_tokens=max_tokens,
                       max_seconds=max_seconds)  # fmt: skip
    return contract_run(task, seed, config, first_plan)


def contract_run(
    task: Task, seed: int, config: RunConfig, first_plan: Plan | Mapping | None = None, planner=None
) -> ContractRun:
    """The contract on a checked task, seed and config (see `run_contract` and rules CT1-CT12).

    `planner`, when given, writes the tools of every plan in place of the seed's draw stream:
    called as planner(positions) -> tools, in the order the run asks (the first plan, then each
    replan). The batch path (`sim.measurement.batch_contract`) passes the same picks read from arrays; None
    draws them here from the seed's planner stream (`sim.model.picks.write_plan`).
    """
    bounds, tools = Bounds.of(config), config.tools  # the run's tool set: 5 tools, or 6 under LA1 (lesson 4)
    if planner is None:
        draw = draws_among(draw_stream(stream_key(seed, task.name, planner=True)), tools)

        def planner(positions):
            return write_plan(positions, draw)

    first_tools = planner(task.sequence)  # CT2: the split's first plan, the same draws
    pad = Scratchpad(fields=initial_state(task))
    goal = GOALS[task.kind]
    plan = plan_from_tools(first_tools, goal, pad.held(), 1, tools) if first_plan is None else first_plan
    first_used = plan_tools(plan)  # the first plan the run was given: the planner's, or a constructed one
    events, trace, plans, written = [], [], [], 0
    stop = _planner_call(pad, bounds, events, plan_length(plan), False, describe_plan(plan))
    while stop is None:
        written += plan_length(plan)
        parsed, problems = parse_plan(
            plan, tools
        )  # a constructed first plan is kept typed when the schema takes it
        if parsed is not None:
            plan = parsed
            plans.append(plan)
            problems = data_flow_problems(plan, pad.held())
        error = problems[0] if problems else None  # a plan the schema refuses stays in the events and notes
        if error is None:
            error, stop = _execute(task, plan, pad, bounds, events, trace)
            if stop:
                break
        else:
            _log(events, pad, "refused", error.message)
        pad.notes.append(f"{error.kind}: {error.message}")
        if error.kind in ("precondition", "goal"):
            _log(events, pad, error.kind, error.message)
        if pad.replans >= bounds.max_replans:  # CT7
            stop = "max_replans"
            break
        remaining = task.sequence[pad.progress :] or task.sequence[-1:]
        picked = planner(remaining)  # CT6: the planner's rule on the positions that remain
        plan = plan_from_tools(picked, goal, pad.held(), 1 + written, tools)
        stop = _planner_call(pad, bounds, events, len(picked), True, describe_plan(plan))
    fields = pad.fields
    state = exit_state(job_done(task, fields), holds_correct_intermediate(task, fields), stop)
    answer = fields.get("result")
    _log(events, pad, "stop", f"{stop}: {state}")
    return ContractRun(
        "contract", task.name, seed, bounds.max_steps, bounds, pad.steps, pad.tokens, pad.seconds,
        pad.errors, pad.replans, answer, tuple(trace), first_used, tuple(plans), tuple(events),
        pad.record(), state, stop, answer == correct_answer(task), stop == PLAN_COMPLETE, config, 0,
    )  # fmt: skip
