"""The planner-executor contract: a plan DAG under a pydantic schema, validation before execution,
preconditions before every call, a scratchpad, bounded replanning, hard bounds and four exit states.

FICTIONAL, like the rest of `sim`: no model is called. The world, tools and tasks are the seed's
(AA22); the first plan is the split's (AA23, AA24, AA29). Introduced in lesson 4, the contract.
Its model, stated as rules CT1..CT12 (the constants below carry the numbers):

- CT1. Plan. A plan is a goal field and a list of steps; a step has an id, a tool, the ids it
  depends on, the fields it requires, the fields it produces and a timeout in simulated seconds.
  The steps run in list order, so a step may depend only on earlier steps.
- CT2. First plan. The contract's first plan for a task is the split's plan for the same task
  and seed, from the same draws (`sim.agents.write_plan` on the stream seed ^ trace_id("plan" +
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
  observation (AA28's executor step).
- CT10. Simulated seconds. A planner call takes PLANNER_SECONDS; a tool call takes its tool's
  duration (TOOL_SECONDS), or its step's timeout when it is cut there.
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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sim.agents import (
    DEFAULT_BUDGET,
    DEFAULT_SEED,
    EXECUTOR_STEP_TOKENS,
    EXECUTOR_TOKENS_PER_CALL,
    OBSERVATION_TOKENS,
    PLANNER_TOKENS,
    PLANNER_TOKENS_PER_POSITION,
    RESULT_FIELDS,
    ToolCall,
    selection,
    write_plan,
)
from sim.checks import check_budget, check_limit, check_seed, check_task
from sim.draws import draw_stream, trace_id
from sim.tasks import Task, correct_answer
from sim.world import SUBSCRIBERS, TOOL_NAMES, TOOLS, call_tool, consumption_m3

# ---- the contract's constants (rules CT3, CT9, CT10, CT11)

DEFAULT_MAX_REPLANS = 2  # replans (CT11)
DEFAULT_MAX_TOKENS = 1000  # tokens (CT11): twice the longest right run
DEFAULT_MAX_SECONDS = 22  # simulated seconds (CT11): twice the longest right run
REPLAN_CONTEXT_TOKENS = 30  # tokens a replan call adds for the error context (CT9)
PLANNER_SECONDS = 5  # simulated seconds per planner call (CT10)
TOOL_SECONDS = MappingProxyType(
    {"read_meter": 2, "consumption": 1, "tariff": 1, "search_docs": 3, "write_record": 2}
)  # simulated seconds per tool call (CT10)
TIMEOUT_FACTOR = 2  # a step's timeout is this many times its tool's duration (CT3)


@dataclass(frozen=True)
class ToolContract:
    """What a tool needs in the scratchpad (requires) and what it adds to it (produces): field names."""

    requires: tuple[str, ...]
    produces: tuple[str, ...]


TOOL_CONTRACTS = MappingProxyType(
    {
        "read_meter": ToolContract(("subscriber",), ("previous", "current", "type", "region")),
        "consumption": ToolContract(("previous", "current"), ("m3",)),
        "tariff": ToolContract(("m3", "type"), ("amount",)),
        "search_docs": ToolContract(("query",), ("code", "text")),
        "write_record": ToolContract(("subscriber", "column", "amount"), ("written",)),
    }
)  # CT3
GOALS = MappingProxyType({"charge": "amount", "consumption": "m3", "document": "code", "record": "written"})

# exit states (CT12) and stop reasons
SUCCESS, PARTIAL_SUCCESS = "SUCCESS", "PARTIAL_SUCCESS"
REPLAN_EXHAUSTED, TIMEOUT = "REPLAN_EXHAUSTED", "TIMEOUT"
EXIT_STATES = (SUCCESS, PARTIAL_SUCCESS, REPLAN_EXHAUSTED, TIMEOUT)
PLAN_COMPLETE = "plan complete"
BOUND_NAMES = ("max_steps", "max_tokens", "max_seconds")  # checked in this order before a call (CT11)
STOP_REASONS = (PLAN_COMPLETE, *BOUND_NAMES, "max_replans")
INTERNAL_FIELDS = ("result", "value")  # what the executor keeps for itself, not a planned field


# ---- the plan schema (CT1, CT4 structural)


@dataclass(frozen=True)
class Rejection:
    """Why a plan or a step was refused: kind ("duplicate id", "unknown tool", "missing dependency",
    "later dependency", "data flow", "goal", "precondition", "tool error", "timeout"), the step id
    it names, and a plain message."""

    kind: str
    step: str
    message: str


class PlanRejected(ValueError):
    """A structural refusal raised inside the schema; `rejection` holds the Rejection."""

    def __init__(self, rejection: Rejection):
        super().__init__(rejection.message)
        self.rejection = rejection


class PlanStep(BaseModel):
    """One step of a plan (CT1): id, tool, depends_on (earlier step ids), requires and produces
    (field names), timeout (simulated seconds, >= 1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str = Field(min_length=1)
    tool: str
    depends_on: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    produces: tuple[str, ...] = ()
    timeout: int = Field(ge=1)


class Plan(BaseModel):
    """A plan (CT1): the goal field and at least one step; structurally valid by construction (CT4).

    Raises
    ------
    pydantic.ValidationError
        For a malformed step, or a structural problem (duplicate id, unknown tool, a dependency
        on a missing or later step); the message names the step.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    goal: str
    steps: tuple[PlanStep, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _structure(self):
        problems = structural_problems(self.steps)
        if problems:
            raise PlanRejected(problems[0])
        return self


def structural_problems(steps: Sequence[PlanStep]) -> list[Rejection]:
    """Structural refusals of a list of steps (CT4), in step order; [] when the structure is sound."""
    problems, seen = [], set()
    ids = [step.id for step in steps]
    for index, step in enumerate(steps):
        if step.id in seen:
            problems.append(Rejection("duplicate id", step.id, f"step {step.id!r}: the id is used twice"))
        if step.tool not in TOOLS:
            problems.append(
                Rejection("unknown tool", step.id, f"step {step.id!r}: unknown tool {step.tool!r}; "
                          f"the tools are {', '.join(TOOL_NAMES)}")
            )  # fmt: skip
        for dependency in step.depends_on:
            if dependency in ids[index:]:
                problems.append(
                    Rejection("later dependency", step.id, f"step {step.id!r} depends on {dependency!r}, "
                              "which is not an earlier step (a cycle or a wrong order)")
                )  # fmt: skip
            elif dependency not in ids:
                problems.append(
                    Rejection("missing dependency", step.id, f"step {step.id!r} depends on {dependency!r}, "
                              "which is no step of the plan")
                )  # fmt: skip
        seen.add(step.id)
    return problems


def data_flow_problems(plan: Plan, held: Sequence[str]) -> list[Rejection]:
    """Data-flow refusals of a structurally valid plan (CT4), given the fields the scratchpad holds.

    Parameters
    ----------
    plan : Plan
    held : Sequence[str]
        Field names the scratchpad holds before the plan runs (the initial scratchpad, or more).

    Returns
    -------
    list[Rejection]
        One per step with a required field that neither an upstream step (through depends_on,
        transitively) nor `held` provides, then one naming the last step if no step produces the
        goal and the scratchpad does not hold it; [] when the data flows.
    """
    by_id = {step.id: step for step in plan.steps}
    upstream_fields: dict[str, set[str]] = {}
    problems = []
    for step in plan.steps:
        provided = set()
        for dependency in step.depends_on:
            provided |= set(by_id[dependency].produces) | upstream_fields[dependency]
        upstream_fields[step.id] = provided
        missing = [name for name in step.requires if name not in provided and name not in held]
        if missing:
            problems.append(
                Rejection("data flow", step.id, f"step {step.id!r} ({step.tool}) requires {', '.join(missing)}: "
                          "no upstream step produces it and the scratchpad does not hold it")
            )  # fmt: skip
    produced = {name for step in plan.steps for name in step.produces}
    if plan.goal not in produced and plan.goal not in held:
        last = plan.steps[-1]
        problems.append(
            Rejection(
                "goal",
                last.id,
                f"step {last.id!r} ends the plan, and no step produces the goal {plan.goal!r}",
            )
        )
    return problems


def validate_plan(plan: Plan | Mapping, held: Sequence[str]) -> list[Rejection]:
    """Validate a plan before execution (CT4): the schema and structure, then the data flow.

    Parameters
    ----------
    plan : Plan | Mapping
        A Plan, or the raw data of one ({"goal": ..., "steps": [...]}).
    held : Sequence[str]
        Field names the scratchpad holds.

    Returns
    -------
    list[Rejection]
        [] when the plan may run; otherwise its refusals, each naming a step ("plan" when the
        schema refuses before any step can be named).
    """
    if not isinstance(plan, Plan):
        try:
            plan = Plan.model_validate(plan)
        except ValidationError as error:
            return [_rejection_from(error)]
    return data_flow_problems(plan, held)


def _rejection_from(error: ValidationError) -> Rejection:
    first = error.errors()[0]
    cause = first.get("ctx", {}).get("error")
    if isinstance(cause, PlanRejected):
        return cause.rejection
    where = first.get("loc", ())
    step = f"step {where[1]}" if len(where) > 1 and where[0] == "steps" else "plan"
    return Rejection("schema", step, f"{'.'.join(map(str, where)) or 'plan'}: {first['msg']}")


def plan_from_tools(tools: Sequence[str], goal: str, held: Sequence[str], first_number: int = 1) -> Plan:
    """The plan the fictional planner writes around its chosen tools (CT3).

    Parameters
    ----------
    tools : Sequence[str]
        Tool names in order (as `write_plan` picks them).
    goal : str
        The goal field (GOALS[task.kind]).
    held : Sequence[str]
        Fields the scratchpad holds; a required field held needs no dependency.
    first_number : int
        Steps are numbered s<first_number>, s<first_number + 1>, ... so ids stay unique in a run.

    Returns
    -------
    Plan
        Requires and produces from TOOL_CONTRACTS; depends_on the latest earlier step producing
        each required field not held; timeout TIMEOUT_FACTOR x the tool's duration (simulated
        seconds). Data flow is not checked here: `validate_plan` does that.
    """
    steps = []
    for offset, tool in enumerate(tools):
        contract = TOOL_CONTRACTS[tool]
        depends = []
        for name in contract.requires:
            producers = [s.id for s in steps if name in s.produces]
            if name not in held and producers and producers[-1] not in depends:
                depends.append(producers[-1])
        steps.append(
            PlanStep(id=f"s{first_number + offset}", tool=tool, depends_on=tuple(depends),
                     requires=contract.requires, produces=contract.produces,
                     timeout=TIMEOUT_FACTOR * TOOL_SECONDS[tool])
        )  # fmt: skip
    return Plan(goal=goal, steps=tuple(steps))


def write_subplan(remaining: Sequence[str], draw: Callable[[], float]) -> tuple[str, ...]:
    """A replan's tools (CT6): one position per remaining sequence position, right with the flat
    share selection(1), else a random tool (the rule of AA24, on the positions that remain)."""
    return tuple(
        wanted if draw() < selection(1) else TOOL_NAMES[int(draw() * len(TOOL_NAMES))] for wanted in remaining
    )


# ---- the scratchpad, costs and bounds (CT8-CT11)


@dataclass
class Scratchpad:
    """The one state object of a contract run (lesson 4).

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


@dataclass(frozen=True)
class Bounds:
    """The four bounds of a run (CT11): max_steps (steps), max_tokens (tokens), max_seconds
    (simulated seconds), max_replans (replans)."""

    max_steps: int = DEFAULT_BUDGET
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_seconds: int = DEFAULT_MAX_SECONDS
    max_replans: int = DEFAULT_MAX_REPLANS


def planner_cost(length: int, replan: bool) -> tuple[int, int]:
    """(tokens, simulated seconds) of one planner call writing `length` positions (CT9, CT10)."""
    tokens = PLANNER_TOKENS + PLANNER_TOKENS_PER_POSITION * length
    return tokens + (REPLAN_CONTEXT_TOKENS if replan else 0), PLANNER_SECONDS


def tool_cost(calls_so_far: int, step: PlanStep) -> tuple[int, int]:
    """(tokens, simulated seconds) of one tool call after `calls_so_far` calls (CT9, CT10); the
    seconds are the tool's duration, or the step's timeout when that is shorter."""
    tokens = EXECUTOR_STEP_TOKENS + EXECUTOR_TOKENS_PER_CALL * calls_so_far + OBSERVATION_TOKENS
    return tokens, min(TOOL_SECONDS.get(step.tool, 0), step.timeout)


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


def job_done(task: Task, fields: Mapping) -> bool:
    """CT12: a record task is done when its record is written with the correct value; any other
    task when the result held is the correct answer."""
    if task.kind == "record":
        return fields.get("written") is True and fields.get("value") == correct_answer(task)
    return fields.get("result") == correct_answer(task)


def holds_correct_intermediate(task: Task, fields: Mapping) -> bool:
    """CT12: the right m3 held for a charge or record task, or the right amount for a record task."""
    record = SUBSCRIBERS[task.subscriber]
    right_m3 = fields.get("m3") == consumption_m3(record.previous, record.current)
    if task.kind == "charge":
        return right_m3
    if task.kind == "record":
        return right_m3 or fields.get("amount") == correct_answer(task)
    return False


def exit_state(done: bool, intermediate: bool, stop_reason: str) -> str:
    """The one exit state of a run, in the order of CT12."""
    if done:
        return SUCCESS
    if intermediate:
        return PARTIAL_SUCCESS
    if stop_reason == "max_replans":
        return REPLAN_EXHAUSTED
    return TIMEOUT


# ---- the run


@dataclass(frozen=True)
class Event:
    """One line of a contract run's log: the step count after it, what happened, a detail, and
    the tokens and simulated seconds spent so far."""

    step: int
    kind: str
    detail: str
    tokens: int
    seconds: int


@dataclass(frozen=True)
class ContractRun:
    """The record of one contract run (lesson 4).

    Fields: setup ("contract"); task; seed; budget (max_steps); bounds; steps, tokens, seconds
    (simulated), errors (tool errors), replans; answer (the result held, None if none); trace
    (tool calls); plan (the first plan's tools, the split's plan); plans (every plan written, as
    Plans, the first included); events (the log); scratchpad (the final Scratchpad; read it, do
    not change it); exit_state (CT12); stop_reason; correct (answer equals the correct answer,
    the seed's success measure); stopped (True when the plan completed).
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
    scratchpad: Scratchpad
    exit_state: str
    stop_reason: str
    correct: bool
    stopped: bool
    approvals: int = 0

    @property
    def calls(self) -> int:
        """Tool calls made in this run."""
        return len(self.trace)


def _log(events: list, pad: Scratchpad, kind: str, detail: str) -> None:
    events.append(Event(pad.steps, kind, detail, pad.tokens, pad.seconds))


def _planner_call(pad, bounds, events, length, replan, plan_text) -> str | None:
    tokens, seconds = planner_cost(length, replan)
    hit = bound_hit(pad, bounds, tokens, seconds)
    if hit:
        return hit
    pad.steps, pad.tokens, pad.seconds = pad.steps + 1, pad.tokens + tokens, pad.seconds + seconds
    pad.replans += replan
    _log(events, pad, "replan" if replan else "plan", plan_text)
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
        if TOOL_SECONDS.get(step.tool, 0) > step.timeout:
            observation = {"error": f"timed out after {step.timeout} s"}
        else:
            if step.tool == "write_record":
                pad.fields["value"] = pad.fields.get("result")
            observation = call_tool(step.tool, pad.fields)
        pad.raw.append((step.id, step.tool, dict(observation)))
        error = "error" in observation
        if error:
            pad.errors += 1
        else:
            pad.fields.update(observation)
            pad.outputs[step.id] = dict(observation)
            if step.tool in RESULT_FIELDS:
                pad.fields["result"] = observation[RESULT_FIELDS[step.tool]]
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


def _plan_length(plan: Plan | Mapping) -> int:
    """Positions in a plan (a raw plan's steps, if they are a list; else 0): what its planner call wrote."""
    if isinstance(plan, Plan):
        return len(plan.steps)
    steps = plan.get("steps")
    return len(steps) if isinstance(steps, list | tuple) else 0


def describe_plan(plan: Plan | Mapping) -> str:
    """One line for a plan: its steps as id:tool joined by arrows (raw data shown as given)."""
    steps = plan.steps if isinstance(plan, Plan) else plan.get("steps")
    steps = steps if isinstance(steps, list | tuple) else []
    parts = [
        f"{s.id}:{s.tool}" if isinstance(s, PlanStep) else f"{s.get('id')}:{s.get('tool')}"
        for s in steps
        if isinstance(s, PlanStep | Mapping)
    ]
    return " -> ".join(parts) or "(no step)"


def run_contract(
    task: Task | str,
    seed: int = DEFAULT_SEED,
    max_steps: int = DEFAULT_BUDGET,
    max_replans: int = DEFAULT_MAX_REPLANS,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    max_seconds: int = DEFAULT_MAX_SECONDS,
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
    max_replans : int
        Replans allowed, >= 0 (refused sub-plans count).
    max_tokens : int
        Token bound (tokens), >= 1.
    max_seconds : int
        Simulated-clock bound (simulated seconds), >= 1.
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
        For a bad task, seed, budget or bound.
    """
    task = check_task(task)
    seed = check_seed(seed)
    if first_plan is not None and not isinstance(first_plan, Plan | Mapping):
        raise TypeError(
            f"first_plan must be a Plan, the mapping of one, or None, got {type(first_plan).__name__}"
        )
    bounds = Bounds(
        check_budget(max_steps),
        check_limit(max_tokens, "max_tokens", 1),
        check_limit(max_seconds, "max_seconds", 1),
        check_limit(max_replans, "max_replans", 0),
    )
    draw = draw_stream(seed ^ trace_id("plan" + task.name))
    first_tools = write_plan(task, draw)  # CT2: the split's first plan, the same draws
    pad = Scratchpad(fields={"subscriber": task.subscriber, "query": task.request, "column": "charge"})
    goal = GOALS[task.kind]
    plan = plan_from_tools(first_tools, goal, pad.held()) if first_plan is None else first_plan
    events, trace, plans = [], [], []
    length = _plan_length(plan)
    stop = _planner_call(pad, bounds, events, length, False, describe_plan(plan))
    while stop is None:
        plans.append(plan)
        problems = validate_plan(plan, pad.held())
        error = problems[0] if problems else None
        if error is None:
            plan = plan if isinstance(plan, Plan) else Plan.model_validate(plan)
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
        tools = write_subplan(remaining, draw)
        number = 1 + sum(_plan_length(p) for p in plans)
        plan = plan_from_tools(tools, goal, pad.held(), number)
        stop = _planner_call(pad, bounds, events, len(tools), True, describe_plan(plan))
    fields = pad.fields
    state = exit_state(job_done(task, fields), holds_correct_intermediate(task, fields), stop)
    answer = fields.get("result")
    _log(events, pad, "stop", f"{stop}: {state}")
    return ContractRun(
        "contract", task.name, seed, bounds.max_steps, bounds, pad.steps, pad.tokens, pad.seconds,
        pad.errors, pad.replans, answer, tuple(trace), first_tools, tuple(plans), tuple(events), pad,
        state, stop, answer == correct_answer(task), stop == PLAN_COMPLETE,
    )  # fmt: skip


def format_events(run: ContractRun) -> str:
    """The run's log as text, one event a line: step, tokens, seconds, what happened."""
    lines = [f"{'step':>4} {'tokens':>6} {'sec':>4}  event"]
    for e in run.events:
        lines.append(f"{e.step:>4} {e.tokens:>6} {e.seconds:>4}  {e.kind}: {e.detail}")
    return "\n".join(lines)


def exit_state_of(run) -> str:
    """The CT12 exit state of any run record, a contract run or a loop's (lesson 4 compares them).

    Parameters
    ----------
    run : ContractRun | Run
        A run of any setup. Its trace decides: a record task is done when its last successful
        write_record wrote the correct value; another task when its answer is correct; a
        successful consumption call (any task but a document or consumption task) or tariff
        call (a record task) means a correct intermediate was held (the world's tools compute
        it from the task's own subscriber). The stop reason is the run's own for a contract
        run; for a loop it is "plan complete" when the agent stopped and "max_steps" when the
        budget ran out, so a loop that stopped with a spoiled answer and no intermediate falls
        to TIMEOUT, the order's last state.

    Returns
    -------
    str
        One of EXIT_STATES; for a contract run it equals `run.exit_state`.
    """
    task = check_task(run.task)
    succeeded = [call for call in run.trace if not call.error]
    if task.kind == "record":
        writes = [call for call in succeeded if call.tool == "write_record"]
        done = bool(writes) and writes[-1].held == correct_answer(task)
    else:
        done = run.answer == correct_answer(task)
    tools = {call.tool for call in succeeded}
    intermediate = (task.kind in ("charge", "record") and "consumption" in tools) or (
        task.kind == "record" and "tariff" in tools
    )
    reason = getattr(run, "stop_reason", None) or (PLAN_COMPLETE if run.stopped else "max_steps")
    return exit_state(done, intermediate, reason)
