"""The counted units of AA30 (lesson 2), defined once for tables, the band rule, studies, figures and
the CLI."""

from dataclasses import dataclass

from sim.model.errors import InputError, InputTypeError


@dataclass(frozen=True)
class Unit:
    """One counted unit: its name, the Measurement field of its count per run (count), the BatchRun
    field per (task, seed) (per_task), whether a run reports it as a share (success), its axis label
    and its column in the seed's table."""

    name: str
    count: str
    per_task: str
    share: bool
    label: str
    seed_header: str

    @property
    def reported(self) -> str:
        """The key a table row reports it under."""
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
    """The Unit called `name`. Raises InputTypeError, InputError for another name."""
    if not isinstance(name, str):
        raise InputTypeError(
            f"unit must be one of {', '.join(UNIT_NAMES)}, got {name!r} ({type(name).__name__})"
        )
    if name not in BY_NAME:
        raise InputError(f"unit must be one of {', '.join(UNIT_NAMES)}, got {name!r}")
    return BY_NAME[name]
