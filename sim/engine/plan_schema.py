"""The contract's plan (lesson 4): its pydantic schema (CT1), what the planner writes around its tools
(CT3) and validation before execution (CT4); the rules are stated in `sim.engine.contract`."""

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, model_validator

from sim.model.tasks import GOALS as GOALS  # the plan's goal field by kind of task (CT3)
from sim.model.world import IMITATES, TOOL_NAMES

TOOL_SECONDS = MappingProxyType(
    {"read_meter": 2, "consumption": 1, "tariff": 1, "search_docs": 3, "write_record": 2}
)  # simulated seconds per tool call (CT10)
TIMEOUT_FACTOR = 2  # a step's timeout is this many times its tool's duration (CT3)


@dataclass(frozen=True)
class ToolContract:
    """The fields a tool needs in the scratchpad (requires) and adds to it (produces)."""

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


def tool_contract(tool: str) -> ToolContract:
    """A tool's documented contract (CT3); the look-alike has its original's (LA1), so validation cannot
    tell the two apart."""
    return TOOL_CONTRACTS[IMITATES.get(tool, tool)]


def tool_seconds(tool: str) -> int:
    """A tool's duration (simulated seconds, CT10), the look-alike's its original's; 0 for no tool."""
    return TOOL_SECONDS.get(IMITATES.get(tool, tool), 0)


# ---- the plan schema (CT1, CT4 structural)


@dataclass(frozen=True)
class Rejection:
    """Why a plan or a step was refused: the kind of refusal, the step id it names and a message."""

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
    """A plan (CT1): the goal field and at least one step, structurally valid by construction (CT4;
    pydantic.ValidationError names the step)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    goal: str
    steps: tuple[PlanStep, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _structure(self, info: ValidationInfo):
        problems = structural_problems(self.steps, (info.context or {}).get("tools", TOOL_NAMES))
        if problems:
            raise PlanRejected(problems[0])
        return self


def structural_problems(steps: Sequence[PlanStep], tools: Sequence[str] = TOOL_NAMES) -> list[Rejection]:
    """Structural refusals of a list of steps (CT4), in step order; a tool outside `tools` is unknown."""
    problems, seen = [], set()
    ids = [step.id for step in steps]
    for index, step in enumerate(steps):
        if step.id in seen:
            problems.append(Rejection("duplicate id", step.id, f"step {step.id!r}: the id is used twice"))
        if step.tool not in tools:
            problems.append(
                Rejection("unknown tool", step.id, f"step {step.id!r}: unknown tool {step.tool!r}; "
                          f"the tools are {', '.join(tools)}")
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
    """Data-flow refusals of a structurally valid plan (CT4), given the fields `held` before it runs: a
    required field no upstream step or held field provides, then a goal nothing produces."""
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


def validate_plan(
    plan: Plan | Mapping, held: Sequence[str], tools: Sequence[str] = TOOL_NAMES
) -> list[Rejection]:
    """A plan's refusals before execution (CT4): schema and structure, then data flow; [] when it may
    run. `plan` is a Plan or its raw data; `tools` the run's tool set."""
    return list(check_plan(plan, held, tools).refusals)


def parse_plan(
    plan: Plan | Mapping, tools: Sequence[str] = TOOL_NAMES
) -> tuple[Plan | None, list[Rejection]]:
    """A plan as the schema reads it for the tool set `tools`: (the Plan, []) or (None, [its refusal])."""
    if isinstance(plan, Plan):
        unknown = [r for r in structural_problems(plan.steps, tools) if r.kind == "unknown tool"]
        return (None, unknown[:1]) if unknown else (plan, [])
    try:
        return Plan.model_validate(plan, context={"tools": tuple(tools)}), []
    except ValidationError as error:
        return None, [_rejection_from(error)]


def _steps(plan: Plan | Mapping) -> list[dict]:
    """A plan's steps as mappings (a raw plan's, where it has them)."""
    if isinstance(plan, Plan):
        return [{"id": step.id, "tool": step.tool} for step in plan.steps]
    steps = plan.get("steps")
    return [s for s in steps if isinstance(s, PlanStep | Mapping)] if isinstance(steps, list | tuple) else []


def plan_tools(plan: Plan | Mapping) -> tuple[str, ...]:
    """The tools of a plan's steps, in order (a raw plan's, where it has them)."""
    return tuple(str(s.tool if isinstance(s, PlanStep) else s.get("tool")) for s in _steps(plan))


def _rejection_from(error: ValidationError) -> Rejection:
    first = error.errors()[0]
    cause = first.get("ctx", {}).get("error")
    if isinstance(cause, PlanRejected):
        return cause.rejection
    where = first.get("loc", ())
    step = f"step {where[1]}" if len(where) > 1 and where[0] == "steps" else "plan"
    return Rejection("schema", step, f"{'.'.join(map(str, where)) or 'plan'}: {first['msg']}")


def plan_from_tools(tools: Sequence[str], goal: str, held: Sequence[str], first_number: int = 1,
                    tool_set: Sequence[str] = TOOL_NAMES) -> Plan:  # fmt: skip
    """The plan the planner writes around its tools (CT3), steps numbered from s<first_number>: each
    step depends on the latest earlier producer of a required field not `held`. Kept for reuse (the
    batch path asks for the same plans thousands of times)."""
    return _plan_from_tools(tuple(tools), goal, tuple(held), first_number, tuple(tool_set))


@functools.lru_cache(maxsize=4096)
def _plan_from_tools(tools: tuple[str, ...], goal: str, held: tuple[str, ...], first_number: int,
                     tool_set: tuple[str, ...]) -> Plan:  # fmt: skip
    steps = []
    for offset, tool in enumerate(tools):
        contract = tool_contract(tool)
        depends = []
        for name in contract.requires:
            producers = [s.id for s in steps if name in s.produces]
            if name not in held and producers and producers[-1] not in depends:
                depends.append(producers[-1])
        steps.append(
            PlanStep(id=f"s{first_number + offset}", tool=tool, depends_on=tuple(depends),
                     requires=contract.requires, produces=contract.produces,
                     timeout=TIMEOUT_FACTOR * tool_seconds(tool))
        )  # fmt: skip
    return Plan.model_validate({"goal": goal, "steps": tuple(steps)}, context={"tools": tuple(tool_set)})


@dataclass(frozen=True)
class CheckedPlan:
    """A plan with what CT4 finds before it runs, given the fields held: the Plan the schema reads (None
    when the schema refuses it), its refusals in order (none: it may run) and its one-line description."""

    plan: Plan | Mapping
    parsed: Plan | None
    refusals: tuple[Rejection, ...]
    description: str


def check_plan(plan: Plan | Mapping, held: Sequence[str], tools: Sequence[str] = TOOL_NAMES) -> CheckedPlan:
    """CT4's findings on a plan (a Plan or its raw data) before it runs: schema and structure, then data
    flow, kept with the Plan parsed and the plan's description; `tools` the run's tool set."""
    parsed, refusals = parse_plan(plan, tools)
    if parsed is not None:
        refusals = data_flow_problems(parsed, held)
    return CheckedPlan(plan, parsed, tuple(refusals), describe_plan(plan))


@functools.lru_cache(maxsize=4096)
def checked_plan_from_tools(tools: tuple[str, ...], goal: str, held: tuple[str, ...], first_number: int,
                            tool_set: tuple[str, ...]) -> CheckedPlan:  # fmt: skip
    """`check_plan` of `plan_from_tools`' plan, given the same held fields; kept, as that plan is (the
    batch path checks the same plans thousands of times)."""
    return check_plan(_plan_from_tools(tools, goal, held, first_number, tool_set), held, tool_set)


def plan_length(plan: Plan | Mapping) -> int:
    """The positions a plan's planner call wrote (a raw plan's steps, if a list; else 0)."""
    if isinstance(plan, Plan):
        return len(plan.steps)
    steps = plan.get("steps")
    return len(steps) if isinstance(steps, list | tuple) else 0


def describe_plan(plan: Plan | Mapping) -> str:
    """A plan in one line, id:tool joined by arrows."""
    parts = [
        f"{s.id}:{s.tool}" if isinstance(s, PlanStep) else f"{s.get('id')}:{s.get('tool')}"
        for s in _steps(plan)
    ]
    return " -> ".join(parts) or "(no step)"
