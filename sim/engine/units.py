"""The counted units, defined once: what each is called, which field holds it, how it adds up
over a run's tasks, and how a table or a figure labels it.

Tables, the band rule, many-seed studies, figures and the CLI all read UNITS. Source: rule
AA30 of the planner/executor lesson (lesson 2), which names the units success, steps, tool
calls, tokens and tool errors.
"""

from dataclasses import dataclass

from sim.model.errors import InputError, InputTypeError


@dataclass(frozen=True)
class Unit:
    """One counted unit.

    Fields: name (as the lessons say it: "success", "tool calls", ...); count (the field of a
    Measurement or SeedMeasurements holding its exact count per run of the tasks, e.g. "solved");
    per_task (the field of a BatchRun holding it per (task, seed), e.g. "correct"); share (True
    when a run reports it as a share of its tasks, success; False when as a sum); label (for axes
    and table headers); seed_header (its column in the seed's table).
    """

    name: str
    count: str
    per_task: str
    share: bool
    label: str
    seed_header: str

    @property
    def reported(self) -> str:
        """The key a table row reports it under: "success" for the share, else the count's field."""
        return self.name if self.share else self.count


UNITS = (
    Unit("success", "solved", "correct", True, "tasks solved", "success"),
    Unit("steps", "steps", "steps", False, "steps", "step"),
    Unit("tool calls", "calls", "calls", False, "tool calls", "calls"),
    Unit("tokens", "tokens", "tokens", False, "tokens", "tokens"),
    Unit("tool errors", "errors", "errors", False, "tool errors", "error"),
)
UNIT_NAMES = tuple(unit.name for unit in UNITS)
BY_NAME = {unit.name: unit for unit in UNITS}


def unit_named(name: str) -> Unit:
    """The Unit called `name`.

    Raises
    ------
    InputTypeError, InputError
        When `name` is not a string, or not one of UNIT_NAMES.
    """
    if not isinstance(name, str):
        raise InputTypeError(
            f"unit must be one of {', '.join(UNIT_NAMES)}, got {name!r} ({type(name).__name__})"
        )
    if name not in BY_NAME:
        raise InputError(f"unit must be one of {', '.join(UNIT_NAMES)}, got {name!r}")
    return BY_NAME[name]
