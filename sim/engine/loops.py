"""The two loop setups, one seed at a time: the single loop (lesson 1) and the planner/executor split
(lesson 2, rules AA22-AA30). FICTIONAL: a pick is a draw (`sim.model.picks`), a step's tokens follow
`sim.model.costs`. Both run `run_loop`; `sim.measurement.batch` is proven equal to this path."""

from collections.abc import Callable
from dataclasses import dataclass, field

from sim.engine.config import PLANNING_STEPS, RunConfig
from sim.engine.goals import budgeted_calls, goal_of, goal_reached
from sim.model import compaction
from sim.model.arguments import argument_writer, wrong_value
from sim.model.checks import check_switch
from sim.model.costs import executor_step_tokens, loop_step_tokens, observation_tokens, planner_tokens
from sim.model.draws import draw_stream, stream_key
from sim.model.errors import InputError, InputTypeError
from sim.model.picks import draws_among, executor_pick, single_loop_pick, write_plan
from sim.model.reflection import reflection_tokens, reviser
from sim.model.review import (
    REVIEW_TOKENS,
    REVIEWED_TOOL,
    Review,
    refuses,
    reviewer_draws,
    write_is_wrong,
)
from sim.model.tasks import ANSWERS, Task
from sim.model.world import IMITATES, TOOLS, WORLD_TOOLS, run_tool

# which observation field becomes the answer the agent holds
RESULT_FIELDS = {"consumption": "m3", "tariff": "amount", "search_docs": "code"}


@dataclass(frozen=True)
class ToolCall:
    """One tool call in a trace: the tool, whether it was a tool error, the answer held after it, and
    the arguments the model filled wrong (AE1; empty when the rule is off)."""

    tool: str
    error: bool
    held: int | str | None
    wrong: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoopStep:
    """One step of a loop run as the loop took it (lesson 1). depth and target: the sequence position
    aimed at and its tool (None once the job is done); tool None: the agent stopped; right: tool ==
    target; trace_length: calls before the step; tokens: what the step cost; revised_from: the ordinary
    pick a reflection rule replaced (RF1-RF3, lesson 8; None: not replaced)."""

    step: int
    depth: int | None
    target: str | None
    tool: str | None
    right: bool | None
    error: bool
    trace_length: int
    tokens: int
    held: int | str | None
    wrong: tuple[str, ...] = ()
    revised_from: str | None = None


class TaskRun:
    """A finished run of one task, of any setup: a `Run` (the loops) or a `ContractRun` (the contract)."""


def check_run(run: object, name: str = "run", setups: tuple[str, ...] | None = None) -> TaskRun:
    """`run` if it is a run record (of one of `setups`, when given); else InputTypeError or InputError."""
    what = "a run record of one task (from sim.run_task)"
    if not isinstance(run, TaskRun):
        raise InputTypeError(f"{name} must be {what}, got {type(run).__name__}")
    if setups is not None and run.setup not in setups:
        raise InputError(f"{name} must be a run of setup {' or '.join(setups)}, got setup {run.setup!r}")
    return run


@dataclass(frozen=True)
class Run(TaskRun):
    """The record of one loop run: steps (planning counts as one, AA25), approvals (single loop with
    `approval`), plan (split only), stopped (the agent stopped; False: the budget ran out), log (one
    LoopStep a step, the planning step excluded); reviews (RV1, under `reviewer`) and tripped (a parallel
    reviewer's refusal halted the run, RV3: no answer)."""

    setup: str
    task: str
    seed: int
    budget: int
    steps: int
    tokens: int
    errors: int
    approvals: int
    answer: int | str | None
    trace: tuple[ToolCall, ...]
    plan: tuple[str, ...] | None
    stopped: bool
    log: tuple[LoopStep, ...]
    config: RunConfig
    reviews: tuple[Review, ...] = ()
    tripped: bool = False

    @property
    def calls(self) -> int:
        return len(self.trace)


GIVEN = ("subscriber", "query", "column")  # what the request gives; a tool's echo does not overwrite it


def initial_state(task: Task) -> dict:
    """What an agent holds before its first step (every setup starts from this)."""
    return dict(zip(GIVEN, (task.subscriber, task.request, "charge"), strict=True))


def call_arguments(tool: str, state: dict) -> dict:
    """The arguments a call of `tool` takes from `state` (name -> value; a record's value is the
    answer held)."""
    given = {**state, "value": state.get("result")} if tool == "write_record" else state
    return (
        {name: given[name] for name in WORLD_TOOLS[tool].fields if name in given}
        if tool in WORLD_TOOLS
        else {}
    )


def call_and_observe(tool: str, state: dict, wrong: tuple[str, ...] = ()) -> dict:
    """Call `tool` on `state` and fold a good observation into it; return the observation. The look-alike
    (LA1, lesson 4) is read like the tool it imitates; `wrong`: the arguments filled wrong (AE1)."""
    if tool == "write_record":
        state["value"] = state.get("result")
    given = {**state, **{name: wrong_value(name, state[name]) for name in wrong}} if wrong else state
    observation = run_tool(tool, given)
    if "error" not in observation:
        state.update({name: value for name, value in observation.items() if name not in GIVEN})
        original = IMITATES.get(tool, tool)
        if original in RESULT_FIELDS:
            state["result"] = observation[RESULT_FIELDS[original]]
    return observation


# CP2 (lesson 8): the fields a successful call of each tool folds into the state (`call_and_observe`):
# its observation's fields but the request's (GIVEN), and the answer held ("result") for a tool that sets it
OUTPUT_FIELDS = {
    "read_meter": ("previous", "current", "type", "region"),
    "consumption": ("m3", "result"),
    "tariff": ("amount", "result"),
    "search_docs": ("code", "text", "result"),
    "write_record": ("written", "value"),
    "estimate_use": ("m3", "result"),
}


def produced_fields(tool: str, error: bool) -> tuple[str, ...]:
    """The fields a call of `tool` folded into the state (`OUTPUT_FIELDS`); none for a tool error."""
    return () if error else OUTPUT_FIELDS[tool]


@dataclass
class Loop:
    """A loop run as it goes: its task, seed and config; the setup's pick (target, depth, calls) -> tool
    or None and its step cost (tokens for a trace length); the plan; what the agent holds and has done."""

    task: Task
    seed: int
    config: RunConfig
    pick: Callable
    step_tokens: Callable[[int], int]
    plan: tuple[str, ...] | None = None
    writer: Callable | None = field(init=False)  # AE1's argument writer, None when the rule is off
    reviser: Callable | None = field(init=False)  # RF1-RF3's reviser of a pick, None when off
    revised: str | None = None  # RF1-RF3: the ordinary pick the step's reflection replaced
    critiqued: bool = False  # RF1-RF3: the step's pick went through the reflection (job not done)
    state: dict = field(init=False)
    trace: list = field(default_factory=list)
    log: list = field(default_factory=list)
    goal: str | None = field(init=False)  # what the request asks for (RT1): what SB1 tests
    done: int = 0  # positions of the task's sequence done (the model's progress, AA27)
    steps: int = 0
    tokens: int = 0
    errors: int = 0
    approvals: int = 0
    reviews: list = field(default_factory=list)  # RV1's reviews, under the option `reviewer`
    review_draw: Callable | None = field(init=False)  # RV1's own draw stream, one draw a review
    produced: dict = field(default_factory=dict)  # field -> index of the call that last produced it (CP2)

    def __post_init__(self):
        share = self.config.argument_errors
        self.writer = None if share is None else argument_writer(self.seed, self.task.name, share)
        self.review_draw = self.config.reviewer and reviewer_draws(self.seed, self.task.name)  # RV1
        kind, misleading = self.config.reflection, self.config.misleading_feedback
        self.reviser = kind and reviser(self.seed, self.task.name, kind, misleading, self.config.tools)
        if self.config.keep_last is not None:  # CP2 (lesson 8): inside the reflection's pick
            self.pick = recalling_pick(self, self.pick)
        self.pick = reflective_pick(self, self.pick) if self.reviser else self.pick
        self.state, self.goal = initial_state(self.task), goal_of(self.task.request)
        planned = None if self.plan is None else len(self.plan)
        self.config = self.config.for_task(budgeted_calls(self.goal, planned))  # SB2
        if self.config.keep_last is not None:  # CP1 (lesson 8): the last k calls in full and a summary
            self.step_tokens = compaction.compacting(self.step_tokens, self.config.keep_last)
        if self.plan is not None:  # the planner's one call is a step (AA23, AA25)
            self.steps, self.tokens = PLANNING_STEPS[self.config.setup], planner_tokens(len(self.plan))

    def goal_stops(self) -> bool:
        """SB1 (lesson 3): once the goal test GT1 holds, this step is a stop step, paid, with no call."""
        return self.config.stop_when_done and goal_reached(self.goal, self.state)

    def record(self, stopped: bool, tripped: bool = False) -> "Run":
        """The finished run's record; a tripped run (RV3) returns no answer."""
        return Run(
            self.config.setup, self.task.name, self.seed, self.config.budget, self.steps, self.tokens,
            self.errors, int(self.approvals), None if tripped else self.state.get("result"), tuple(self.trace),
            self.plan, stopped, tuple(self.log), self.config, tuple(self.reviews), tripped,
        )  # fmt: skip


def take_step(loop: Loop) -> LoopStep:
    """One step: pick a tool (or stop), call it and observe, and say what it cost (lesson 1)."""
    sequence, done, calls = loop.task.sequence, loop.done, len(loop.trace)  # AA27: the model's pick
    target = sequence[done] if done < len(sequence) else None
    depth = done + 1 if target is not None else None
    tool = None if loop.goal_stops() else loop.pick(target, done + 1, calls)
    tokens, right, error, wrong = loop.step_tokens(calls), None, False, ()
    if tool is not None:
        wrong = loop.writer(call_arguments(tool, loop.state)) if loop.writer else ()
        error = "error" in call_and_observe(tool, loop.state, wrong)
        tokens += observation_tokens(error, loop.config.self_critique)
        right = None if target is None else tool == target
    held = loop.state.get("result")
    return LoopStep(loop.steps, depth, target, tool, right, error, calls, tokens, held, wrong)


def reflective_pick(loop: Loop, pick: Callable) -> Callable:
    """RF1-RF3 (lesson 8): `pick` (the setup's ordinary pick, made first with its own draws) followed
    by the model's reflection while the job is not done; the pick it replaced is kept in loop.revised."""

    def reflected(target, depth, calls):
        tool = pick(target, depth, calls)
        if tool is None or target is None:
            return tool
        loop.critiqued = True
        last, failed = loop.trace[-1] if loop.trace else None, None
        if last is not None and last.error:  # RF1: the failed call's tool and what it was given
            failed = (last.tool, call_arguments(last.tool, loop.state))
        revised = loop.reviser(tool, target, failed)
        loop.revised = None if revised == tool else tool
        return revised

    return reflected


def reflected_step(loop: Loop, step: LoopStep) -> LoopStep:
    """A step under RF1-RF3 (lesson 8): its reflection tokens added and the pick replaced noted."""
    tokens = step.tokens + reflection_tokens(loop.config.reflection, step.error, loop.critiqued)
    # the step is new and not yet shared: set in place (dataclasses.replace would cost a tenth of the run)
    object.__setattr__(step, "tokens", tokens)
    object.__setattr__(step, "revised_from", loop.revised)
    loop.revised, loop.critiqued = None, False
    return step


def recalling_pick(loop: Loop, pick: Callable) -> Callable:
    """CP2 (lesson 8): `pick` (the setup's ordinary pick, made first with its own draws); when its target
    needs a field only the summary holds and the pick is not a blind plan position of the executor
    (AA26), the model's recall (`compaction.recalled`, its own draws) may replace a right pick."""
    draw, plan = compaction.recall_draws(loop.seed, loop.task.name), loop.plan

    def recalled(target, depth, calls):
        tool, keep_last = pick(target, depth, calls), loop.config.keep_last
        if target is None or tool != target or calls <= keep_last or (plan is not None and calls < len(plan)):
            return tool  # a wrong pick or a stop, nothing summarized yet, or the plan followed blindly
        needed = compaction.fields_needed(target, GIVEN)  # the model may know what its target needs
        if not compaction.summarized_fields(needed, loop.produced, calls, keep_last):
            return tool
        return compaction.recalled(tool, draw, loop.config.tools)

    return recalled


def run_loop(loop: Loop) -> Run:
    """Take steps until the agent stops or the budget runs out (both loop setups, lesson 3)."""
    config = loop.config
    while loop.steps < config.budget:
        loop.steps += 1
        step = reviewed_step(loop) if config.reviewer else take_step(loop)  # RV1-RV3 (lesson 8)
        step = reflected_step(loop, step) if loop.reviser else step  # RF1-RF3 (lesson 8)
        loop.log.append(step)
        loop.tokens += step.tokens
        if step.tool is None:
            return loop.record(stopped=True)
        loop.approvals += config.approval and TOOLS[step.tool].side_effect
        loop.errors += step.error
        loop.done += bool(step.right) and not step.error  # AA27: the model's progress
        loop.trace.append(ToolCall(step.tool, step.error, step.held, step.wrong))
        if config.keep_last is not None:  # CP2 (lesson 8): which call last produced each field
            loop.produced.update(dict.fromkeys(produced_fields(step.tool, step.error), step.trace_length))
        if loop.reviews and loop.reviews[-1].tripped and loop.reviews[-1].step == loop.steps:  # RV3
            return loop.record(stopped=False, tripped=True)
    return loop.record(stopped=False)


def reviewed_step(loop: Loop) -> LoopStep:
    """`take_step` under the reviewer (RV1-RV3, lesson 8): a write_record call is reviewed (RV1, the
    reviewer a model that judges the write as the model filled it against the truth; one draw of its own
    stream), then blocked (RV2) or made beside the review (RV3); the review is kept on the loop. A tool
    only reads the state (`run_tool`) and the world keeps no record of a write, so a blocked write is the
    step with the call's fold into the state taken back: the state as before, the step a tool error."""
    before = dict(loop.state)  # what the model filled the write from
    step = take_step(loop)
    if step.tool != REVIEWED_TOOL:
        return step
    arguments = call_arguments(step.tool, before)
    arguments.update({name: wrong_value(name, arguments[name]) for name in step.wrong})
    subscriber, value = arguments.get("subscriber"), arguments.get("value")
    is_wrong = write_is_wrong(loop.task, subscriber, value)
    refused, blocking = refuses(is_wrong, loop.review_draw()), loop.config.reviewer == "blocking"
    tokens = step.tokens + REVIEW_TOKENS
    if refused and blocking:  # RV2: the write is not made, its observation the error REFUSAL
        loop.state.clear()
        loop.state.update(before)
        critique = loop.config.self_critique
        tokens += observation_tokens(True, critique) - observation_tokens(step.error, critique)
        object.__setattr__(step, "error", True)  # the step is new and not yet shared: set in place
    object.__setattr__(step, "tokens", tokens)
    loop.reviews.append(
        Review(loop.steps, subscriber, value, is_wrong, refused, not step.error, refused and not blocking)
    )
    return step


def single_loop(task: Task, seed: int, config: RunConfig) -> Run:
    """The single loop on a checked task, seed and config; random picks draw among the config's tools."""
    draw = draws_among(draw_stream(stream_key(seed, task.name)), config.tools)

    def pick(target, depth, calls):
        return single_loop_pick(target, depth, draw)

    return run_loop(Loop(task, seed, config, pick, loop_step_tokens))


def plan_execute(task: Task, seed: int, config: RunConfig) -> Run:
    """The planner/executor split on a checked task, seed and config (lesson 2)."""
    draw = draws_among(draw_stream(stream_key(seed, task.name, planner=True)), config.tools)
    plan = write_plan(task.sequence, draw)  # AA24, AA29

    def pick(target, depth, calls):
        return executor_pick(plan, calls, target, depth, draw)

    return run_loop(Loop(task, seed, config, pick, executor_step_tokens, plan))


def loop_steps(run: Run, self_critique: bool | None = None) -> tuple[LoopStep, ...]:
    """A single-loop run's steps as the loop took them (lesson 1); `self_critique`, when given, must be
    the run's own switch.

    Raises InputTypeError, InputError for anything but a single-loop Run, or another switch."""
    if not isinstance(run, Run) or run.setup != "single-loop":
        raise InputTypeError(
            f"run must be a single-loop Run, got {type(run).__name__} {getattr(run, 'setup', '')!r}"
        )
    if len(run.log) != run.steps or not isinstance(run.config, RunConfig):
        raise InputError(f"run must hold its step log (one LoopStep a step, {run.steps}), got {len(run.log)}")
    if self_critique is not None and check_switch(self_critique, "self_critique") != run.config.self_critique:
        raise InputError(
            f"self_critique={self_critique} does not give the run's {run.tokens} tokens; "
            "pass the switch the run was made with"
        )
    return run.log


def is_correct(run: Run) -> bool:
    """Whether a run's final answer is the task's correct answer (AA30; a record write is not checked).
    Raises InputTypeError for anything but a run record."""
    return check_run(run).answer == ANSWERS[run.task]  # scoring (AA30)
