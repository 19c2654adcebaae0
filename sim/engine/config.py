"""One run configuration: the setup, the step budget and each option, checked once where input
enters (the API, the CLI, a panel) and passed through every layer.

Which option fits which setup is decided here and nowhere else (SETUP_OPTIONS). Introduced with
the restructuring of `sim`; the options come from lesson 1 (self-critique, approval), lesson 3
(the stopping rule SB1 and the budget rule SB2), lesson 4 (the contract's bounds, CT11) and
lesson 5 (common draws, CR1).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace

from sim.model.checks import SETUP_NAMES, check_budget, check_count, check_items, check_setup, check_switch
from sim.model.errors import InputError, InputTypeError
from sim.model.world import LOOKALIKE_TOOLS, TOOL_NAMES, WORLD_SEED

DEFAULT_SEED = WORLD_SEED  # run A of the lessons; run B is DEFAULT_SEED + 1
DEFAULT_BUDGET = 8  # steps (rule AA25)
DEFAULT_MAX_REPLANS = 2  # replans (CT11)
DEFAULT_MAX_TOKENS = 1000  # tokens (CT11): twice the longest right run
DEFAULT_MAX_SECONDS = 22  # simulated seconds (CT11): twice the longest right run

# every option: (its value when not given, the smallest value allowed for a count; None for a switch)
OPTIONS = {
    "self_critique": (False, None),
    "approval": (False, None),
    "stop_when_done": (False, None),
    "budget_margin": (None, 0),
    "max_replans": (DEFAULT_MAX_REPLANS, 0),
    "max_tokens": (DEFAULT_MAX_TOKENS, 1),
    "max_seconds": (DEFAULT_MAX_SECONDS, 1),
    "lookalike": (False, None),
    "common_draws": (False, None),
}
SETUP_OPTIONS = {
    "single-loop": (
        "self_critique",
        "approval",
        "stop_when_done",
        "budget_margin",
        "lookalike",
        "common_draws",
    ),
    "plan-execute": ("stop_when_done", "budget_margin", "lookalike", "common_draws"),
    "contract": ("max_replans", "max_tokens", "max_seconds", "lookalike"),
}
PLANNING_STEPS = {
    "single-loop": 0,
    "plan-execute": 1,
}  # steps a loop spends planning before its first call (AA25)
UNITS_OF = {"budget_margin": " (steps)"}  # words after the minimum in a message


@dataclass(frozen=True)
class RunConfig:
    """How one setup runs: the setup, the step budget (steps) and the options that setup has.

    Fields: setup ("single-loop", "plan-execute" or "contract"); budget (steps, >= 1);
    self_critique and approval (the single loop's switches, lesson 1); stop_when_done (SB1) and
    budget_margin (SB2, steps, or None for the fixed budget), the loops' stopping rule (lesson 3);
    max_replans, max_tokens (tokens) and max_seconds (simulated seconds), the contract's bounds
    (CT11, lesson 4); lookalike, the course's own rule LA1 (every setup, lesson 4; stated in
    `sim.model.world`): the run's tool set (`tools`) offers the look-alike `estimate_use` after the
    five tools; common_draws (the loops, rule CR1, lesson 5: both setups take the same draw
    for the same pick, common random numbers; off by default, the seed's own streams). An option
    that the setup does not have keeps its value of "not given"
    (False, None); the contract's bounds take their defaults when not given.

    Raises
    ------
    InputTypeError, InputError
        On construction, for a value of the wrong kind or out of range, or an option asked of a
        setup that does not have it, naming the option and the setups that have it; and for
        lookalike with approval (approval counts the side effects of the five tools only) or with
        common_draws (CR1 picks among the five tools).
    """

    setup: str
    budget: int = DEFAULT_BUDGET
    self_critique: bool = False
    approval: bool = False
    stop_when_done: bool = False
    budget_margin: int | None = None
    max_replans: int | None = None
    max_tokens: int | None = None
    max_seconds: int | None = None
    lookalike: bool = False
    common_draws: bool = False

    def __post_init__(self):
        setup = check_setup(self.setup)
        object.__setattr__(self, "budget", check_budget(self.budget))
        for name, (default, minimum) in OPTIONS.items():
            value = getattr(self, name)
            if name in SETUP_OPTIONS[setup]:
                if minimum is None:  # a switch: True or False, nothing else
                    value = check_switch(value, name)
                elif value is None:  # a count not given: its default
                    value = default
                if minimum is not None and value is not None:
                    value = check_count(value, name, minimum, unit=UNITS_OF.get(name, ""))
                object.__setattr__(self, name, value)
            elif not not_given(value):
                raise InputError(f"{name} is an option of setup {_having(name)} only, not of {setup!r}")
        if self.lookalike and self.approval:
            raise InputError("lookalike and approval cannot be combined: approval counts the five tools only")
        if self.lookalike and self.common_draws:
            raise InputError(
                "lookalike and common_draws cannot be combined: common draws pick among the five tools"
            )

    @property
    def tools(self) -> tuple[str, ...]:
        """The tool set the run offers, in the order random picks index it: the five tools, and
        under LA1 (lookalike, lesson 4) the look-alike after them."""
        return TOOL_NAMES + tuple(LOOKALIKE_TOOLS) if self.lookalike else TOOL_NAMES

    @property
    def rule(self) -> str:
        """The stopping rule that runs: "fixed budget" (the seed's), "stop when done", or "<stop>,
        budget plan length + m" (lesson 3); "contract bounds" for the contract (CT11, lesson 4);
        followed by ", look-alike (LA1)" when the tool set offers the look-alike (lesson 4), and
        by " + common draws" under rule CR1 (lesson 5)."""
        if self.setup == "contract":
            return "contract bounds" + self._lookalike_note()
        stop = "stop when done" if self.stop_when_done else "original stop"
        if self.budget_margin is not None:
            rule = f"{stop}, budget plan length + {self.budget_margin}"
        else:
            rule = "stop when done" if self.stop_when_done else "fixed budget"
        return rule + self._lookalike_note() + (" + common draws" if self.common_draws else "")

    def _lookalike_note(self) -> str:
        return ", look-alike (LA1)" if self.lookalike else ""

    def options(self) -> dict:
        """The setup's own options and their values, by name."""
        return {name: getattr(self, name) for name in SETUP_OPTIONS[self.setup]}

    def task_budget(self, length: int) -> int:
        """A task's own step budget (steps) for a sequence of `length` tools: the budget, or under
        lesson 3's rule SB2 min(budget, planning steps + length + budget_margin)."""
        if self.budget_margin is None:
            return self.budget
        return min(self.budget, PLANNING_STEPS[self.setup] + length + self.budget_margin)

    def with_budget(self, budget: int) -> "RunConfig":
        """The same configuration with another step budget (steps)."""
        return replace(self, budget=budget)


def not_given(value: object) -> bool:
    """An option's value of "not given": None, or False for a switch (0 is a value: a margin of 0)."""
    return value is None or value is False


def _having(option: str) -> str:
    return " or ".join(repr(setup) for setup in SETUP_NAMES if option in SETUP_OPTIONS[setup])


def run_config(setup: str, budget: int = DEFAULT_BUDGET, **options) -> RunConfig:
    """A checked RunConfig from keyword options (what `measure` and `run_task` accept).

    Raises
    ------
    InputTypeError
        For an unknown option name (naming the options there are).
    InputError
        As RunConfig.
    """
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise InputTypeError(f"unknown option {unknown[0]!r}: the options are {', '.join(OPTIONS)}")
    return RunConfig(setup, budget, **options)


def configs_for(setups: Iterable[str], budget: int, options: Mapping[str, object]) -> list[RunConfig]:
    """One RunConfig per setup, for a table of several setups (the CLI's rule for mixed setups).

    The rule: each option given applies to every chosen setup that has it and to no other; an
    option that none of the chosen setups has is refused. Each row's `rule` and option columns
    then say what ran.

    Parameters
    ----------
    setups : Iterable[str]
        Setup names.
    budget : int
        Step budget (steps).
    options : Mapping[str, object]
        Options given, by name; values equal to "not given" (False, None) are ignored.

    Raises
    ------
    InputError
        For an option that no chosen setup has, naming the setups that have it.
    """
    setups = [
        check_setup(setup, "setups") for setup in check_items(setups, object, "setups", "setup names", 1)
    ]
    if not isinstance(options, Mapping):
        raise InputTypeError(
            f"options must be a mapping of option name -> value, got {type(options).__name__}"
        )
    given = {name: value for name, value in options.items() if not not_given(value)}
    for name in given:
        if name not in OPTIONS:
            raise InputTypeError(f"unknown option {name!r}: the options are {', '.join(OPTIONS)}")
        if not any(name in SETUP_OPTIONS[setup] for setup in setups):
            raise InputError(
                f"{name} is an option of setup {_having(name)}; none of the chosen setups "
                f"({', '.join(setups)}) has it"
            )
    return [
        RunConfig(setup, budget, **{n: v for n, v in given.items() if n in SETUP_OPTIONS[setup]})
        for setup in setups
    ]


CONFIG_FIELDS = tuple(f.name for f in fields(RunConfig))
