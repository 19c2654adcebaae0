"""Lesson 8's exercise checks, one per pattern, each prefixed by its pattern. Each says right or wrong,
never the answer.

parallel_: from a sequential fan-out run's log, the simulated seconds the same plans take with parallel
steps (PX1): each planner call's PLANNER_SECONDS, and between planner calls one wave per round of the
branches' calls, each wave as long as its longest call.

review_: count the wrong writes a blocking reviewer (RV1-RV4, `sim.model.review`) prevented in a run,
from its reviews.

compaction_: the cost of a compacted single-loop step (CP1, sim.model.compaction), written by the
student as a function of the trace length and keep_last, checked against every step the single loop
takes at the student's seed under keep_last 1, 2 and 3.

reflection_: count a run's flips (wrong to right, right to wrong) from its step log; the reference is
`sim.measurement.reflection_flips`."""

from collections.abc import Callable

from sim.engine.config import RunConfig
from sim.engine.contract import PLANNER_SECONDS
from sim.engine.fan_out import fan_out_run
from sim.engine.loops import Run
from sim.engine.plan_schema import tool_seconds
from sim.engine.runs import run_task, run_with
from sim.exercises.step_budget import NotAnswered, answered
from sim.measurement.reflection_flips import reflection_flips
from sim.measurement.review_counts import prevented
from sim.model.checks import check_seed
from sim.model.compaction import compacted_step_tokens
from sim.model.costs import loop_step_tokens, observation_tokens
from sim.model.errors import InputTypeError
from sim.model.fan_out_tasks import FAN_OUT_TASKS
from sim.model.reflection import REFLECTION_KINDS
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen

PARALLEL_STOPS = ("plan complete", "max_replans")  # the runs the check uses: no bound stopped them


def parallel_seconds_from_log(events) -> int:
    """The parallel exercise's answer: a sequential fan-out run's events -> its parallel seconds (PX1).
    Within each stretch between planner calls, the k-th call of every branch runs in wave k."""
    seconds, rounds = 0, []  # rounds: per wave of the current stretch, the longest call's seconds
    calls_of: dict[str, int] = {}
    for event in events:
        if event.kind in ("plan", "replan"):
            seconds += sum(rounds) + PLANNER_SECONDS
            rounds, calls_of = [], {}
        elif event.kind in ("call", "tool error"):
            branch, tool = event.detail.split(":")[0].split()
            wave = calls_of.get(branch, 0)
            calls_of[branch] = wave + 1
            if wave == len(rounds):
                rounds.append(0)
            rounds[wave] = max(rounds[wave], tool_seconds(tool))
    return seconds + sum(rounds)


@fits_the_screen
def check_parallel_seconds(seed: int, function: Callable) -> str:
    """The parallel exercise: `function(events)` gives, from a sequential fan-out run's events, the
    simulated seconds of the same task and seed with parallel steps; checked on the 12 fan-out tasks at
    `seed` (runs no bound stopped) against the parallel run itself. Names the first task it misses,
    not by how much. Raises for a bad seed or a function that is not callable."""
    seed = check_seed(seed)
    if not callable(function):
        raise InputTypeError(f"function must be a function of (events), got {type(function).__name__}")
    checked = 0
    for task in FAN_OUT_TASKS:
        sequential, parallel = fan_out_run(task, seed), fan_out_run(task, seed, parallel_steps=True)
        if sequential.stop_reason not in PARALLEL_STOPS or parallel.stop_reason not in PARALLEL_STOPS:
            continue
        given = function(sequential.events)
        if given is None:
            return "not answered yet: write the body of your function and run the check again"
        if isinstance(given, bool) or not isinstance(given, int):
            return f"wrong: your function returned {given!r}; it must return a whole number of seconds"
        if given != parallel.seconds:
            return (f"wrong: for {task.name} (width {task.width}) at seed {seed} that is not the parallel "
                    "run's seconds; count every planner call, and per wave only its longest call")  # fmt: skip
        checked += 1
    return f"right: your seconds match the parallel runs of all {checked} fan-out tasks at seed {seed}"


REVIEW_CONFIG = RunConfig("single-loop", 8, argument_errors=0.1, reviewer="blocking")  # the exercise's
REVIEW_SEEDS = 5  # seeds the check runs, from the student's seed on (24 tasks each)


def review_prevented(run: Run) -> int:
    """The reviewer exercise's answer: the wrong writes the reviewer prevented in `run` (wrong, refused,
    not made, and with a value to write: a call with no value writes nothing whatever the verdict)."""
    return sum(map(prevented, run.reviews))


def review_runs_to_check(seed: int) -> list[Run]:
    """The runs the reviewer check reads: REVIEW_CONFIG on the 24 tasks at REVIEW_SEEDS seeds from `seed`."""
    seed = check_seed(seed)
    return [run_with(REVIEW_CONFIG, task, seed + k) for k in range(REVIEW_SEEDS) for task in TASKS]


@fits_the_screen
def check_review_prevented(seed: int, function: Callable) -> str:
    """The reviewer exercise: `function(run)` counts the wrong writes the reviewer prevented in a run;
    checked on `review_runs_to_check(seed)`, naming the first run counted wrongly, never its count.
    Raises for a bad seed or a function that is not callable."""
    if not callable(function):
        raise InputTypeError(f"function must be a function of a run, got {type(function).__name__}")
    runs = review_runs_to_check(seed)
    for run in runs:
        given = function(run)
        if given is None:
            return "not answered yet: write the body of your function and run the check again"
        if isinstance(given, bool) or not isinstance(given, int):
            return f"wrong: your function returned {given!r}; it must return a whole number"
        if given != review_prevented(run):
            return (f"wrong: your count for task {run.task} at seed {run.seed} is off; read each review's "
                    "wrong, refused and made, and ask whether the call had a value to write")  # fmt: skip
    return f"right: your count agrees on all {len(runs)} runs from seed {seed}"


COMPACTION_KEEP_LASTS = (1, 2, 3)  # the keep_last values the check runs
COMPACTION_BUDGET = 8  # steps


def compaction_step_tokens(trace_length: int, keep_last: int) -> int:
    """The compaction exercise's answer: a single-loop step's tokens before its observation under CP1,
    the last keep_last calls in full and a summary of the earlier ones."""
    return compacted_step_tokens(loop_step_tokens, trace_length, keep_last)


@fits_the_screen
def check_compaction_step_tokens(seed: int, step_tokens: Callable) -> str:
    """The compaction exercise: `step_tokens(trace_length, keep_last)` against each step of the single
    loop on every task at `seed` under keep_last 1, 2 and 3 (the step's tokens minus its observation);
    names the first trace length and keep_last it gets wrong, not the tokens.
    Raises InputTypeError for a bad seed or a step_tokens that is not callable."""
    seed = check_seed(seed)
    if not callable(step_tokens):
        raise InputTypeError(
            f"step_tokens must be a function (trace_length, keep_last) -> tokens, got {type(step_tokens).__name__}"
        )
    checked = set()
    for keep_last in COMPACTION_KEEP_LASTS:
        config = RunConfig("single-loop", COMPACTION_BUDGET, keep_last=keep_last)
        for task in TASKS:
            for step in run_with(config, task, seed).log:
                if (step.trace_length, keep_last) in checked:
                    continue
                checked.add((step.trace_length, keep_last))
                paid = step.tokens - (0 if step.tool is None else observation_tokens(step.error))
                answer = step_tokens(step.trace_length, keep_last)
                if answer is None:
                    return "not answered yet: write the body of your step_tokens function and run the check again"
                if answer != paid:
                    return (
                        f"wrong: at seed {seed}, a step re-sending a trace of {step.trace_length} calls "
                        f"with keep_last={keep_last} does not cost that; the summary is paid only for "
                        "calls beyond the last keep_last"
                    )
    return f"right: your step cost matches all {len(checked)} (trace length, keep_last) pairs at seed {seed}"


REFLECTION_BUDGET = 8  # the lesson's budget (steps)
REFLECTION_SETUPS = ("single-loop", "plan-execute")


def reflection_runs(seed: int) -> list:
    """The runs the reflection exercise counts: both loops, both reflection rules (RF1, RF2), every
    task at `seed`, budget 8. Raises for a bad seed."""
    seed = check_seed(seed)
    return [run_task(setup, task, seed, REFLECTION_BUDGET, reflection=kind)
            for setup in REFLECTION_SETUPS for kind in REFLECTION_KINDS for task in TASKS]  # fmt: skip


@fits_the_screen
def check_reflection_flips(seed: int, count_flips: Callable) -> str:
    """The reflection exercise: `count_flips(run)` -> (wrong to right, right to wrong) read from a run's
    step log, on every run of `reflection_runs(seed)`, against `reflection_flips`; names the first run
    it miscounts, not by how much. Raises for a bad seed or a count_flips that is not callable."""
    if not callable(count_flips):
        raise InputTypeError(f"count_flips must be a function of a run, got {type(count_flips).__name__}")
    seed, count = check_seed(seed), answered(count_flips)
    for run in reflection_runs(seed):
        try:
            given = count(run)
        except NotAnswered:
            return "not answered yet: write the body of count_flips and run the check again"
        if (tuple(given) if isinstance(given, list | tuple) else given) != reflection_flips(run):
            where = f"{run.setup}, reflection {run.config.reflection}, task {run.task}"
            return (f"wrong: at seed {seed} your counts for the run ({where}) are not its flips; "
                    "compare each step's revised_from and tool with its target (skip steps not revised)")  # fmt: skip
    return f"right: at seed {seed} your function counts the flips of every run"
