"""The two agent setups: the single loop and the planner/executor split.

Both are FICTIONAL: no model is called. A "pick" is a draw from the run's own stream, and
the share of right picks is the rule `selection(depth)`. Introduced in lesson 1 (single loop)
and lesson 2 (planner and executor, rules AA22-AA30).
"""

from collections.abc import Callable
from dataclasses import dataclass

from sim.checks import check_budget, check_seed, check_switch, check_task
from sim.draws import draw_stream, trace_id
from sim.tasks import Task, correct_answer
from sim.world import TOOL_NAMES, TOOLS, WORLD_SEED, call_tool

DEFAULT_SEED = WORLD_SEED  # run A of the lessons; run B is DEFAULT_SEED + 1
DEFAULT_BUDGET = 8  # steps (rule AA25)
STOP_SHARE = 0.88  # chance that an agent whose job is done stops at a step

# Token accounting (rule AA28), in tokens.
LOOP_STEP_TOKENS = 60  # a single-loop step: 60 + 22 x trace length
LOOP_TOKENS_PER_CALL = 22
PLANNER_TOKENS = 60  # the planner's one call: 60 + 25 x plan length
PLANNER_TOKENS_PER_POSITION = 25
EXECUTOR_STEP_TOKENS = 40  # an executor step: 40 + 10 x trace length
EXECUTOR_TOKENS_PER_CALL = 10
OBSERVATION_TOKENS = 30  # every tool observation
SELF_CRITIQUE_TOKENS = 40  # per tool error, when the single loop critiques itself

SELECTION_START, SELECTION_DROP, SELECTION_FLOOR = 0.80, 0.09, 0.34

# which observation field becomes the answer the agent holds
RESULT_FIELDS = {"consumption": "m3", "tariff": "amount", "search_docs": "code"}


def selection(depth: int) -> float:
    """The share of right tool picks at a position of a task's sequence.

    Parameters
    ----------
    depth : int
        Position in the sequence, 1 for the first tool.

    Returns
    -------
    float
        max(0.34, 0.80 - 0.09 x (depth - 1)): 0.8 at the first position, falling 0.09 a position.

    Source: the seed's single loop (lesson 1); the planner uses selection(1) everywhere (AA24).
    """
    return max(SELECTION_FLOOR, SELECTION_START - SELECTION_DROP * (depth - 1))


def expected_right_share(depth: int) -> float:
    """Expected share of right picks at position `depth` once lucky random picks count: a pick that
    misses the rule's draw takes one of the 5 tools at random, the right one with share 1/5.

    Returns selection(depth) + (1 - selection(depth)) / 5, a fraction in [0, 1]. Source: lesson 1.
    """
    share = selection(depth)
    return share + (1 - share) / len(TOOL_NAMES)


def cheapest_loop_tokens(length: int) -> int:
    """Tokens of the cheapest single-loop run of a sequence of `length` tools: every pick right, then a stop step.

    The sum over calls k = 0 .. length - 1 of (60 + 22 k + 30), plus the stop step 60 + 22 x
    length (rule AA28), in tokens. Source: lesson 1.
    """
    calls = sum(LOOP_STEP_TOKENS + LOOP_TOKENS_PER_CALL * k + OBSERVATION_TOKENS for k in range(length))
    return calls + LOOP_STEP_TOKENS + LOOP_TOKENS_PER_CALL * length


@dataclass(frozen=True)
class ToolCall:
    """One tool call in a trace: the tool, whether it returned a tool error, and the answer held after it."""

    tool: str
    error: bool
    held: int | str | None


@dataclass(frozen=True)
class Run:
    """The record of one task run.

    Fields: setup name; task name; seed; budget (steps); steps used (planning counts as one,
    rule AA25); tokens; tool errors; approvals asked (single loop with `approval` only);
    answer held at the end (None if none); trace of tool calls; plan (split only, tool names
    in order); stopped (True when the agent stopped because the job was done, False when the
    budget ran out).
    """

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

    @property
    def calls(self) -> int:
        """Tool calls made in this run (each run counts its own)."""
        return len(self.trace)


def _initial_state(task: Task) -> dict:
    return {"subscriber": task.subscriber, "query": task.request, "column": "charge"}


def _random_tool(draw: Callable[[], float]) -> str:
    return TOOL_NAMES[int(draw() * len(TOOL_NAMES))]


def _call_and_observe(choice: str, state: dict) -> bool:
    """Call `choice` on `state`, fold a good observation into it; return True on a tool error."""
    if choice == "write_record":
        state["value"] = state.get("result")
    observation = call_tool(choice, state)
    if "error" in observation:
        return True
    state.update({key: value for key, value in observation.items() if key != "error"})
    if choice in RESULT_FIELDS:
        state["result"] = observation[RESULT_FIELDS[choice]]
    return False


def run_single_loop(
    task: Task | str,
    seed: int = DEFAULT_SEED,
    max_steps: int = DEFAULT_BUDGET,
    self_critique: bool = False,
    approval: bool = False,
    stop_when_done: bool = False,
) -> Run:
    """Run the single loop on one task: every step picks the next tool (or stops), calls it and observes.

    Parameters
    ----------
    task : Task | str
        The task or its name, G01..G24.
    seed : int
        Run seed, 0 <= seed < 2**32; it drives only the agent's draws.
    max_steps : int
        Step budget (steps), >= 1.
    self_critique : bool
        When True every tool error costs SELF_CRITIQUE_TOKENS more tokens.
    approval : bool
        When True every side-effecting call asks for approval (counted in `approvals`).
    stop_when_done : bool
        The stopping criterion of lesson 3 (rule SB1): when True the run ends right after the
        call that completes the task's sequence (for a record task: the record is written),
        with no further step. False (the default) is the seed's rule: a finished agent stops
        at its next step with share STOP_SHARE.

    Returns
    -------
    Run
        Steps, tokens (rule AA28: 60 + 22 x trace length a step, 30 an observation), tool
        errors, approvals, answer and trace.

    Raises
    ------
    TypeError, ValueError
        For a bad task, seed, budget or switch.
    """
    task = check_task(task)
    seed = check_seed(seed)
    max_steps = check_budget(max_steps)
    check_switch(self_critique, "self_critique")
    check_switch(approval, "approval")
    check_switch(stop_when_done, "stop_when_done")
    draw = draw_stream(seed ^ trace_id(task.name))
    state = _initial_state(task)
    trace, steps, tokens, errors, approvals, done = [], 0, 0, 0, 0, 0
    stopped = False
    while steps < max_steps:
        steps += 1
        tokens += LOOP_STEP_TOKENS + LOOP_TOKENS_PER_CALL * len(trace)
        target = task.sequence[done] if done < len(task.sequence) else None
        if target is None:  # the job is done: the agent should stop
            if draw() < STOP_SHARE:
                stopped = True
                break
            choice = _random_tool(draw)
        else:
            choice = target if draw() < selection(done + 1) else _random_tool(draw)
        if approval and TOOLS[choice].side_effect:
            approvals += 1
        error = _call_and_observe(choice, state)
        tokens += OBSERVATION_TOKENS
        if error:
            errors += 1
            tokens += SELF_CRITIQUE_TOKENS if self_critique else 0
        elif choice == target:
            done += 1
        trace.append(ToolCall(choice, error, state.get("result")))
        if stop_when_done and done == len(task.sequence):
            stopped = True
            break
    return Run(
        "single-loop", task.name, seed, max_steps, steps, tokens, errors, approvals,
        state.get("result"), tuple(trace), None, stopped,
    )  # fmt: skip


@dataclass(frozen=True)
class LoopStep:
    """One step of a single-loop run, as the loop saw it.

    Fields: step (1-based); depth (the position of the sequence the step aimed at, 1-based:
    positions already done + 1; None once the job was done); target (the tool at that
    position, None once the job was done); tool (the tool called, None when the agent
    stopped at this step); right (tool == target, None when there was no target; a random
    pick that lands on the target counts as right); error (the call returned a tool error);
    trace_length (tool calls in the trace before this step); tokens (what this step cost:
    step + observation + self-critique, in tokens); held (the answer held after the step).
    """

    step: int
    depth: int | None
    target: str | None
    tool: str | None
    right: bool | None
    error: bool
    trace_length: int
    tokens: int
    held: int | str | None


def loop_steps(run: Run, self_critique: bool = False) -> tuple[LoopStep, ...]:
    """Replay a single-loop run step by step from its trace: what each step aimed at, picked and cost.

    No draw is repeated: the trace fixes every step. A step aims at the first position of the
    task's sequence not yet done; a call that is the target and returns no tool error moves
    the job one position on (the single loop's rule). Tokens follow rule AA28.

    Parameters
    ----------
    run : Run
        A run of setup "single-loop" (from `run_single_loop`).
    self_critique : bool
        Whether the run was made with self-critique (it adds SELF_CRITIQUE_TOKENS per tool error).

    Returns
    -------
    tuple[LoopStep, ...]
        One record per step (run.steps of them); the last has tool None when the agent stopped.

    Raises
    ------
    TypeError, ValueError
        For a run that is not a single-loop Run, a bad switch, or a `self_critique` that does
        not give the run's own token total.
    """
    if not isinstance(run, Run) or run.setup != "single-loop":
        raise TypeError(
            f"run must be a single-loop Run, got {type(run).__name__} {getattr(run, 'setup', '')!r}"
        )
    check_switch(self_critique, "self_critique")
    sequence = check_task(run.task).sequence
    steps, done, held = [], 0, None
    for index, call in enumerate(run.trace):
        target = sequence[done] if done < len(sequence) else None
        tokens = LOOP_STEP_TOKENS + LOOP_TOKENS_PER_CALL * index + OBSERVATION_TOKENS
        tokens += SELF_CRITIQUE_TOKENS if call.error and self_critique else 0
        depth = done + 1 if target is not None else None
        right = None if target is None else call.tool == target
        steps.append(
            LoopStep(index + 1, depth, target, call.tool, right, call.error, index, tokens, call.held)
        )
        done += bool(right) and not call.error
        held = call.held
    if run.steps > len(run.trace):  # a step spent deciding to stop (not under stop_when_done, SB1)
        tokens = LOOP_STEP_TOKENS + LOOP_TOKENS_PER_CALL * len(run.trace)
        steps.append(LoopStep(len(steps) + 1, None, None, None, None, False, len(run.trace), tokens, held))
    if sum(step.tokens for step in steps) != run.tokens:
        raise ValueError(
            f"self_critique={self_critique} does not give the run's {run.tokens} tokens; "
            "pass the switch the run was made with"
        )
    return tuple(steps)


def write_plan(task: Task, draw: Callable[[], float]) -> tuple[str, ...]:
    """The planner's one call: a whole plan, written before any observation.

    Parameters
    ----------
    task : Task
        The task; the planner knows its sequence length, not its sequence (AA29).
    draw : Callable[[], float]
        The run's draw stream (keyed by seed ^ trace_id("plan" + task name)).

    Returns
    -------
    tuple[str, ...]
        One tool name per position: the right tool with share selection(1), else a random tool (AA24).
    """
    return tuple(wanted if draw() < selection(1) else _random_tool(draw) for wanted in task.sequence)


def run_plan_execute(
    task: Task | str, seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET, stop_when_done: bool = False
) -> Run:
    """Run the planner/executor split on one task.

    The planner writes the whole plan in one call, which counts as a step (AA23, AA25). The
    executor runs the plan in order, a wrong position included (AA26); when the plan is used
    up and the job is not done it goes on by the single loop's rule (AA27).

    Parameters
    ----------
    task : Task | str
        The task or its name, G01..G24.
    seed : int
        Run seed, 0 <= seed < 2**32; it drives only the planner's and executor's draws.
    max_steps : int
        Step budget (steps), >= 1; the planning step is one of them.
    stop_when_done : bool
        The stopping criterion of lesson 3 (rule SB1): when True the run ends right after the
        call that completes the task's sequence, with no further step. False (the default) is
        the seed's rule.

    Returns
    -------
    Run
        With `plan` set. Tokens per rule AA28: 60 + 25 x plan length for the planner,
        40 + 10 x trace length an executor step, 30 an observation.

    Raises
    ------
    TypeError, ValueError
        For a bad task, seed or budget.
    """
    task = check_task(task)
    seed = check_seed(seed)
    max_steps = check_budget(max_steps)
    check_switch(stop_when_done, "stop_when_done")
    draw = draw_stream(seed ^ trace_id("plan" + task.name))
    plan = write_plan(task, draw)
    state = _initial_state(task)
    trace, errors, done, stopped = [], 0, 0, False
    steps = 1  # planning is a step (AA25)
    tokens = PLANNER_TOKENS + PLANNER_TOKENS_PER_POSITION * len(plan)
    while steps < max_steps:
        steps += 1
        tokens += EXECUTOR_STEP_TOKENS + EXECUTOR_TOKENS_PER_CALL * len(trace)
        target = task.sequence[done] if done < len(task.sequence) else None
        if target is None:
            if draw() < STOP_SHARE:
                stopped = True
                break
            choice = _random_tool(draw)
        elif len(trace) < len(plan):
            choice = plan[len(trace)]  # blind: the plan's next position, right or wrong
        else:
            choice = target if draw() < selection(done + 1) else _random_tool(draw)
        error = _call_and_observe(choice, state)
        tokens += OBSERVATION_TOKENS
        if error:
            errors += 1
        elif choice == target:
            done += 1
        trace.append(ToolCall(choice, error, state.get("result")))
        if stop_when_done and done == len(task.sequence):
            stopped = True
            break
    return Run(
        "plan-execute", task.name, seed, max_steps, steps, tokens, errors, 0,
        state.get("result"), tuple(trace), plan, stopped,
    )  # fmt: skip


def is_correct(run: Run) -> bool:
    """Whether a run counts as a success by the seed's measure (AA30).

    Parameters
    ----------
    run : Run
        A finished run.

    Returns
    -------
    bool
        True when the run's final answer equals the task's correct answer. Answers only: a record
        task's missing record write is not checked (lesson 3 shows what that hides).
    """
    return run.answer == correct_answer(check_task(run.task))
