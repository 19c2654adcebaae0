"""The contract's plan: its pydantic schema (rule CT1), what the fictional planner writes around
its chosen tools (CT3), and validation before execution (CT4). The rules are stated in full in
the docstring of `sim.engine.contract`. Introduced in lesson 4, the contract.
"""

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, model_validator

from sim.model.world import IMITATES, TOOL_NAMES

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


def tool_contract(tool: str) -> ToolContract:
    """A tool's documented contract (CT3); the course's look-alike (LA1, lesson 4) is documented
    with the contract of the tool it imitates, so validation cannot tell the two apart."""
    return TOOL_CONTRACTS[IMITATES.get(tool, tool)]


def tool_seconds(tool: str) -> int:
    """A tool's duration (simulated seconds, CT10): the look-alike's is its original's (LA1); 0 for
    a name that is no tool."""
    return TOOL_SECONDS.get(IMITATES.get(tool, tool), 0)


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
    def _structure(self, info: ValidationInfo):
        problems = structural_problems(self.steps, (info.context or {}).get("tools", TOOL_NAMES))
        if problems:
            raise PlanRejected(problems[0])
        return self


def structural_problems(steps: Sequence[PlanStep], tools: Sequence[str] = TOOL_NAMES) -> list[Rejection]:
    """Structural refusals of a list of steps (CT4), in step order; [] when the structure is sound.
    `tools` is the run's tool set (the five tools; six under LA1, lesson 4): any other tool is unknown."""
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


def validate_plan(
    plan: Plan | Mapping, held: Sequence[str], tools: Sequence[str] = TOOL_NAMES
) -> list[Rejection]:
    """Validate a plan before execution (CT4): the schema and structure, then the data flow.

    Parameters
    ----------
    plan : Plan | Mapping
        A Plan, or the raw data of one ({"goal": ..., "steps": [...]}).
    held : Sequence[str]
        Field names the scratchpad holds.
    tools : Sequence[str]
        The run's tool set (default the five tools; with the look-alike under LA1, lesson 4).

    Returns
    -------
    list[Rejection]
        [] when the plan may run; otherwise its refusals, each naming a step ("plan" when the
        schema refuses before any step can be named).
    """
    parsed, refused = parse_plan(plan, tools)
    return refused if parsed is None else data_flow_problems(parsed, held)


def parse_plan(
    plan: Plan | Mapping, tools: Sequence[str] = TOOL_NAMES
) -> tuple[Plan | None, list[Rejection]]:
    """A plan as the schema reads it (CT1, CT4 structural) for the tool set `tools`: (the typed
    Plan, []) when it takes it, (None, [its refusal]) when it does not. A Plan is returned as it
    is when its tools are in `tools`."""
    if isinstance(plan, Plan):
        unknown = [r for r in structural_problems(plan.steps, tools) if r.kind == "unknown tool"]
        return (None, unknown[:1]) if unknown else (plan, [])
    try:
        return Plan.model_validate(plan, context={"tools": tuple(tools)}), []
    except ValidationError as error:
        return None, [_rejection_from(error)]


def plan_tools(plan: Plan | Mapping) -> tuple[str, ...]:
    """The tools of a plan's steps, in order (a raw plan's "tool" values, where it has them)."""
    steps = plan.steps if isinstance(plan, Plan) else plan.get("steps")
    steps = steps if isinstance(steps, list | tuple) else []
    tools = [
        s.tool if isinstance(s, PlanStep) else s.get("tool")
        for s in steps
        if isinstance(s, PlanStep | Mapping)
    ]
    return tuple(str(tool) for tool in tools)


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
    """The plan the fictional planner writes around its chosen tools (CT3).

    A pure function of its arguments, so its plans (frozen) are kept for reuse: the batch path
    (`sim.measurement.batch_contract`) asks for the same plans thousands of times.

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
    tool_set : Sequence[str]
        The run's tool set, which the schema checks the tools against (LA1 adds the look-alike).

    Returns
    -------
    Plan
        Requires and produces from TOOL_CONTRACTS (`tool_contract`); depends_on the latest earlier step producing
        each required field not held; timeout TIMEOUT_FACTOR x the tool's duration (simulated
        seconds). Data flow is not checked here: `validate_plan` does that.
    """
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


def plan_length(plan: Plan | Mapping) -> int:
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
