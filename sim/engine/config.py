"""One run's configuration: the setup, the step budget and each option, checked once on construction
where input enters (the API, the CLI, a panel); the engine trusts it. Which option fits which setup is
decided here only (SETUP_OPTIONS). Options: self_critique, approval (lesson 1); stop_when_done SB1,
budget_margin SB2 (lesson 3); the contract's bounds CT11 and lookalike LA1 (lesson 4); common_draws
CR1 (lesson 5); argument_errors AE1 (lesson 4); reflection RF1/RF2 and misleading_feedback RF3, parallel_steps
PX1, reviewer RV1-RV4, keep_last CP1-CP2 (lesson 8)."""

import functools
from collections.abc import Iterable, Mapping
from copy import copy
from dataclasses import dataclass, fields

from sim.model.checks import (
    SETUP_NAMES,
    check_budget,
    check_choice,
    check_count,
    check_items,
    check_setup,
    check_share,
    check_switch,
)
from sim.model.errors import InputError, InputTypeError
from sim.model.reflection import REFLECTION_KINDS
from sim.model.review import REVIEWERS
from sim.model.world import LOOKALIKE_TOOLS, TOOL_NAMES, WORLD_SEED

DEFAULT_SEED = WORLD_SEED  # run A of the lessons; run B is DEFAULT_SEED + 1
DEFAULT_BUDGET = 8  # steps (rule AA25)
DEFAULT_MAX_REPLANS = 2  # replans (CT11)
DEFAULT_MAX_TOKENS = 1000  # tokens (CT11): twice the longest right run
DEFAULT_MAX_SECONDS = 22  # simulated seconds (CT11): twice the longest right run

# every option: (its value when not given, the smallest value allowed for a count; None for a switch,
# "share" for a number strictly between 0 and 1, a tuple of the strings allowed for a choice)
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
    "argument_errors": (None, "share"),
    "parallel_steps": (False, None),
    "reviewer": (None, REVIEWERS),
    "keep_last": (None, 1),
    "reflection": (None, REFLECTION_KINDS),
    "misleading_feedback": (None, "share"),
}
OPTION_HELP = {  # each option's words in the CLI's --help
    "self_critique": "40 more tokens per tool error",
    "approval": "count side-effecting calls that ask for approval",
    "stop_when_done": "lesson 3's rule SB1: end a run right after the call that completes the job",
    "budget_margin": "lesson 3's rule SB2: each task gets planning + sequence length + this margin (steps), "
    "capped at the budget",
    "max_replans": "at most this many replans",
    "max_tokens": "at most this many tokens",
    "max_seconds": "at most this many simulated seconds",
    "lookalike": "the course's rule LA1 (lesson 4): offer the look-alike tool estimate_use beside the five",
    "common_draws": "lesson 5's rule CR1 (common random numbers): both loops take the same draw for the "
    "same pick, a stream per task and position; off: each setup's own streams",
    "argument_errors": "the course's rule AE1 (lesson 4): each subscriber id, m3 or value the model writes "
    "into a call is, with this share (strictly between 0 and 1), a plausible wrong one",
    "parallel_steps": "the course's rule PX1 (lesson 8): one step runs every ready plan step at once (tokens: "
    "one executor step plus an observation per call; seconds: the longest call's); the 24 tasks' valid plans are "
    "chains, so there it changes nothing: the fan-out tasks (python -m sim fan-out) branch",
    "reviewer": "the course's rule RV1-RV4 (lesson 8): a model reviews every write_record call and may refuse "
    "it; blocking: the write waits for the verdict; parallel: a refusal halts the run after the write",
    "keep_last": "the course's rules CP1-CP2 (lesson 8): each step re-sends only the last this many tool "
    "calls in full and a summary of the earlier ones (20 + 4 tokens a call); when a pick's target needs a "
    "field only the summary holds, a right pick stays right with share 0.6, else the model takes another "
    "tool drawn uniformly (the executor's plan positions excepted)",
    "reflection": "the course's rules RF1/RF2 (lesson 8): after a tool error the next pick follows the "
    "error's feedback (feedback), or every pick is critiqued without feedback (intrinsic)",
    "misleading_feedback": "the course's rule RF3 (lesson 8), with --reflection feedback: with this share "
    "(strictly between 0 and 1) the feedback names a wrong tool",
}
REFLECTION_OPTIONS = ("reflection", "misleading_feedback")  # lesson 8, RF1-RF3
PATTERN_OPTIONS = (
    *REFLECTION_OPTIONS,
    "reviewer",
    "keep_last",
)  # lesson 8's: the loops run them seed by seed
LOOP_OPTIONS = ("stop_when_done", "budget_margin", "lookalike", "common_draws")
SETUP_OPTIONS = {
    "single-loop": (
        "self_critique",
        "approval",
        *LOOP_OPTIONS,
        "argument_errors",
        *REFLECTION_OPTIONS,
        "reviewer",
        "keep_last",
    ),
    "plan-execute": (*LOOP_OPTIONS, "argument_errors", *REFLECTION_OPTIONS, "reviewer", "keep_last"),
    "contract": (
        "max_replans",
        "max_tokens",
        "max_seconds",
        "lookalike",
        "argument_errors",
        "parallel_steps",
    ),
}
PLANNING_STEPS = {"single-loop": 0, "plan-execute": 1}  # steps a loop spends planning (AA25)
UNITS_OF = {"budget_margin": " (steps)"}  # words after the minimum in a message


@dataclass(frozen=True)
class RunConfig:
    """How one setup runs: the setup, the step budget (steps) and the options that setup has; an
    option the setup lacks stays "not given" (False, None), the contract's bounds take defaults.

    Raises InputTypeError, InputError on construction for a bad value, an option of another setup,
    or lookalike with approval or common_draws (those count or pick among the five tools); lesson 8's:
    reflection with self_critique, common_draws or lookalike, misleading_feedback without
    reflection="feedback", reflection with keep_last, reviewer with common_draws or lookalike, keep_last with
    common_draws."""

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
    argument_errors: float | None = None
    parallel_steps: bool = False
    reviewer: str | None = None
    keep_last: int | None = None
    reflection: str | None = None
    misleading_feedback: float | None = None

    def __post_init__(self):
        setup = check_setup(self.setup)
        object.__setattr__(self, "budget", check_budget(self.budget))
        for name, (default, minimum) in OPTIONS.items():
            value = getattr(self, name)
            if name not in SETUP_OPTIONS[setup]:
                if not not_given(value):
                    raise InputError(f"{name} is an option of setup {_having(name)} only, not of {setup!r}")
            elif minimum is None:  # a switch: True or False, nothing else
                object.__setattr__(self, name, check_switch(value, name))
            elif value is None and default is None:
                continue
            elif minimum == "share":
                object.__setattr__(self, name, check_share(value, name))
            elif isinstance(minimum, tuple):  # a choice among named variants
                object.__setattr__(self, name, check_choice(value, name, minimum))
            else:
                value = default if value is None else value
                object.__setattr__(self, name, check_count(value, name, minimum, unit=UNITS_OF.get(name, "")))
        if self.lookalike and self.approval:
            raise InputError("lookalike and approval cannot be combined: approval counts the five tools only")
        if self.lookalike and self.common_draws:
            raise InputError(
                "lookalike and common_draws cannot be combined: common draws pick among the five tools"
            )
        for other in ("common_draws", "lookalike"):
            if self.reviewer is not None and getattr(self, other):
                raise InputError(f"reviewer and {other} cannot be combined: the reviewer (RV1) is not "
                                 f"implemented with {other}")  # fmt: skip
        if self.keep_last is not None and self.common_draws:
            raise InputError(
                "keep_last and common_draws cannot be combined: the compacted trace (CP1-CP2) runs on "
                "each setup's own streams"
            )
        self._check_reflection()

    def _check_reflection(self):
        """RF1-RF3's combinations (lesson 8); raises InputError naming both options."""
        if self.misleading_feedback is not None and self.reflection != "feedback":
            raise InputError(
                f"misleading_feedback needs reflection='feedback' (RF3 misleads the error's feedback), "
                f"got reflection={self.reflection!r}"
            )
        refused = {
            "self_critique": "both charge the model's critique of an error; compare them side by side",
            "common_draws": "reflection revises picks that common draws tie to a position",
            "lookalike": "reflection's suppliers and wrong picks are among the five tools",
            "keep_last": "both revise the ordinary pick, and a flip would credit the compaction's change",
        }
        for name, why in refused.items():
            if self.reflection is not None and getattr(self, name):
                raise InputError(f"reflection and {name} cannot be combined: {why}")

    @property
    def tools(self) -> tuple[str, ...]:
        """The run's tool set in the order random picks index it; LA1 adds the look-alike (lesson 4)."""
        return TOOL_NAMES + tuple(LOOKALIKE_TOOLS) if self.lookalike else TOOL_NAMES

    @property
    def rule(self) -> str:
        """The stopping rule that ran, as tables name it (lessons 3 to 5)."""
        lookalike = ", look-alike (LA1)" if self.lookalike else ""
        if self.setup == "contract":
            parallel = ", parallel steps (PX1)" if self.parallel_steps else ""
            return "contract bounds" + lookalike + self._argument_rule() + parallel
        if self.budget_margin is None:
            rule = "stop when done" if self.stop_when_done else "fixed budget"
        else:
            stop = "stop when done" if self.stop_when_done else "original stop"
            rule = f"{stop}, budget plan length + {self.budget_margin}"
        common = " + common draws" if self.common_draws else ""
        compacted = "" if self.keep_last is None else f", keep last {self.keep_last} (CP1-CP2)"
        reviewed = "" if self.reviewer is None else f", {self.reviewer} reviewer (RV1)"
        return rule + lookalike + common + self._argument_rule() + compacted + reviewed

    def _argument_rule(self) -> str:
        argument = "" if self.argument_errors is None else f", argument errors {self.argument_errors:g} (AE1)"
        return argument + self._reflection_rule()

    def _reflection_rule(self) -> str:
        if self.reflection is None:
            return ""
        code = "RF1" if self.reflection == "feedback" else "RF2"
        share = self.misleading_feedback
        misleading = "" if share is None else f", misleading {share:g} (RF3)"
        return f", reflection {self.reflection} ({code})" + misleading

    def options(self) -> dict:
        """The setup's own options and their values, by name."""
        return {name: getattr(self, name) for name in SETUP_OPTIONS[self.setup]}

    def task_budget(self, length: int | None) -> int:
        """A task's step budget for `length` expected calls (the plan's length, or the router's RT2;
        None: unknown): the budget, or under SB2 (lesson 3) the calls, the planning step and the
        margin, at most the budget."""
        if self.budget_margin is None or length is None:
            return self.budget
        return min(self.budget, PLANNING_STEPS[self.setup] + length + self.budget_margin)

    def for_task(self, length: int | None) -> "RunConfig":
        """This configuration at a task's own budget under SB2 (`task_budget`), else itself."""
        budget = self.task_budget(length)
        return self if budget == self.budget else self.with_budget(budget)

    def with_budget(self, budget: int) -> "RunConfig":
        """The same configuration with another step budget (steps, trusted: not checked again)."""
        config = copy(self)
        object.__setattr__(config, "budget", budget)
        return config


def not_given(value: object) -> bool:
    """An option's value of "not given": None, or False for a switch (0 is a value: a margin of 0)."""
    return value is None or value is False


def _having(option: str) -> str:
    return " or ".join(repr(setup) for setup in SETUP_NAMES if option in SETUP_OPTIONS[setup])


def run_config(setup: str, budget: int = DEFAULT_BUDGET, **options) -> RunConfig:
    """A RunConfig from keyword options (what `measure` and `run_task` accept).

    Raises InputTypeError for an unknown option name, else as RunConfig."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise InputTypeError(f"unknown option {unknown[0]!r}: the options are {', '.join(OPTIONS)}")
    try:
        hash((setup, budget, *options.values()))
    except TypeError:  # no allowed value is unhashable: RunConfig refuses it by name
        return RunConfig(setup, budget, **options)
    return _kept_config(setup, budget, **options)


# A RunConfig is frozen, and the one-seed path asks for the same few thousands of times; typed, so that
# True is not taken for a budget of 1 (RunConfig refuses it).
@functools.lru_cache(maxsize=1024, typed=True)
def _kept_config(setup, budget, **options) -> RunConfig:
    return RunConfig(setup, budget, **options)


def configs_for(setups: Iterable[str], budget: int, options: Mapping[str, object]) -> list[RunConfig]:
    """One RunConfig per setup for a table of several setups: each option given goes to every chosen
    setup that has it (values "not given" are ignored).

    Raises InputTypeError, InputError for an unknown option or one that no chosen setup has."""
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
