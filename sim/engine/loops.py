"""The two loop setups, one seed at a time: the single loop and the planner/executor split.

Both are FICTIONAL: no model is called. A pick is a draw from the run's own stream by the rules
of `sim.model.picks`; a step's tokens follow `sim.model.costs` (rule AA28). Both setups share one engine,
`run_loop`, and differ only in how a step picks its tool (`single_loop_pick` or
`executor_pick`), what a step costs, and the planning step before the loop. This readable
one-seed path is the specification; `sim.measurement.batch` is proven equal to it. Introduced in lesson 1
(the single loop) and lesson 2 (planner and executor, rules AA22-AA30).
"""

from dataclasses import dataclass

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED, PLANNING_STEPS, RunConfig
from sim.model.checks import check_seed, check_switch
from sim.model.costs import executor_step_tokens, loop_step_tokens, observation_tokens, planner_tokens
from sim.model.draws import draw_stream, stream_key
from sim.model.errors import InputError, InputTypeError
from sim.model.picks import draws_among, executor_pick, single_loop_pick, write_plan
from sim.model.tasks import Task, check_task, correct_answer
from sim.model.world import IMITATES, TOOLS, call_tool

# which observation field becomes the answer the agent holds
RESULT_FIELDS = {"consumption": "m3", "tariff": "amount", "search_docs": "code"}


@dataclass(frozen=True)
class ToolCall:
    """One tool call in a trace: the tool, whether it returned a tool error, and the answer held after it."""

    tool: str
    error: bool
    held: int | str | None


@dataclass(frozen=True)
class LoopStep:
    """One step of a loop run (after the split's planning step), as the loop took it.

    Fields: step (1-based, counting the split's planning step); depth (the position of the
    sequence the step aimed at, 1-based: positions already done + 1; None once the job was
    done); target (the tool at that position, None once the job was done); tool (the tool
    called, None when the agent stopped at this step); right (tool == target, None when there
    was no target; a random pick that lands on the target counts as right); error (the call
    returned a tool error); trace_length (tool calls in the trace before this step); tokens
    (what this step cost: step + observation + self-critique, in tokens); held (the answer held
    after the step).
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


class TaskRun:
    """A finished run of one task, of any setup: a `Run` (the loops) or a `ContractRun` (the contract).
    Every record has setup, task, seed, budget, steps, tokens, errors, approvals, answer, trace,
    plan and stopped."""


def check_run(run: object, name: str = "run", setups: tuple[str, ...] | None = None) -> TaskRun:
    """Return `run` if it is a run record (of one of `setups`, when given), else the course's error
    naming the parameter: InputTypeError for anything but a record, InputError for another setup."""
    what = "a run record of one task (from sim.run_task)"
    if not isinstance(run, TaskRun):
        raise InputTypeError(f"{name} must be {what}, got {type(run).__name__}")
    if setups is not None and run.setup not in setups:
        raise InputError(f"{name} must be a run of setup {' or '.join(setups)}, got setup {run.setup!r}")
    return run


@dataclass(frozen=True)
class Run(TaskRun):
    """The record of one task run.

    Fields: setup name; task name; seed; budget (steps); steps used (planning counts as one,
    rule AA25); tokens; tool errors; approvals asked (single loop with `approval` only);
    answer held at the end (None if none); trace of tool calls; plan (split only, tool names
    in order); stopped (True when the agent stopped because the job was done, False when the
    budget ran out); log (the loop's steps, one LoopStep each, the split's planning step
    excluded); config (the RunConfig it ran with).
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
    log: tuple[LoopStep, ...]
    config: RunConfig

    @property
    def calls(self) -> int:
        """Tool calls made in this run (each run counts its own)."""
        return len(self.trace)


def initial_state(task: Task) -> dict:
    """What an agent holds before its first step: the subscriber, the request as a query, and the
    column a record is written to (every setup starts from this)."""
    return {"subscriber": task.subscriber, "query": task.request, "column": "charge"}


def call_and_observe(tool: str, state: dict) -> dict:
    """Call `tool` on `state` and fold a good observation into it; return the observation.

    A write_record call writes the answer held (`state["value"]`). A tool error (an observation
    with the key "error") changes nothing else; otherwise the observation's fields join the
    state, and the field named by RESULT_FIELDS becomes the answer held (`state["result"]`); the
    course's look-alike (LA1, lesson 4) is read like the tool it imitates.
    Used by every setup, and by the batch path to tabulate each task's tools.
    """
    if tool == "write_record":
        state["value"] = state.get("result")
    observation = call_tool(tool, state)
    if "error" not in observation:
        state.update(observation)
        original = IMITATES.get(tool, tool)
        if original in RESULT_FIELDS:
            state["result"] = observation[RESULT_FIELDS[original]]
    return observation


def take_step(task: Task, state: dict, done: int, trace_length: int, number: int, draw, pick,
              step_tokens, self_critique: bool = False) -> LoopStep:  # fmt: skip
    """One step of a loop: pay for the step, pick a tool (or stop), call it and observe (lesson 1).

    Parameters
    ----------
    task : Task
    state : dict
        What the agent holds; a call's observation is folded into it.
    done : int
        Positions of the task's sequence done so far.
    trace_length : int
        Tool calls made so far (the trace the step re-sends).
    number : int
        The step's number, 1-based.
    draw : Callable[[], float]
        The run's draw stream.
    pick : Callable
        The setup's decision, called as pick(target, depth, draw, trace_length); returns a tool
        name or None to stop.
    step_tokens : Callable[[int], int]
        The setup's cost of a step re-sending `trace_length` calls (tokens, AA28).
    self_critique : bool
        Whether a tool error costs the self-critique tokens.

    Returns
    -------
    LoopStep
        With tool None when the agent stopped at this step.
    """
    target = task.sequence[done] if done < len(task.sequence) else None
    depth = done + 1 if target is not None else None
    tool = pick(target, done + 1, draw, trace_length)
    tokens = step_tokens(trace_length)
    if tool is None:
        held = state.get("result")
        return LoopStep(number, depth, target, None, None, False, trace_length, tokens, held)
    error = "error" in call_and_observe(tool, state)
    tokens += observation_tokens(error, self_critique)
    right = None if target is None else tool == target
    held = state.get("result")
    return LoopStep(number, depth, target, tool, right, error, trace_length, tokens, held)


def run_loop(task: Task, seed: int, config: RunConfig, draw, pick, step_tokens, steps: int = 0,
             tokens: int = 0, plan: tuple[str, ...] | None = None, state: dict | None = None,
             trace: list | None = None) -> Run:  # fmt: skip
    """Run a loop until it stops or its budget runs out (the engine of both loop setups, lesson 3).

    The seed's rule: the loop takes steps while steps < budget; an agent whose job is done stops
    at a step with share STOP_SHARE. The course's stopping criterion SB1 (config.stop_when_done,
    lesson 3) ends the run right after the call that completes the job, with no further step.
    A call moves the job one position on when it is the position's tool and is no tool error.

    Parameters
    ----------
    task : Task
    seed : int
    config : RunConfig
        Checked; its budget is this task's step budget (steps).
    draw, pick, step_tokens
        As in `take_step`.
    steps, tokens : int
        Steps and tokens spent before the loop (the split's planning step).
    plan : tuple[str, ...] | None
        The split's plan, kept in the record.
    state, trace : dict | None, list | None
        The agent's state (None: `initial_state(task)`) and an empty list for its trace (None: a
        new one), which the loop fills as it goes: a caller that passes its own reads, at each
        pick, what the agent holds and has called so far (a policy's observation, `sim.engine.policy`).

    Returns
    -------
    Run
    """
    state = initial_state(task) if state is None else state
    trace, log = [] if trace is None else trace, []
    errors = approvals = done = 0
    stopped = False
    while steps < config.budget:
        steps += 1
        step = take_step(task, state, done, len(trace), steps, draw, pick, step_tokens,
                         config.self_critique)  # fmt: skip
        log.append(step)
        tokens += step.tokens
        if step.tool is None:
            stopped = True
            break
        approvals += config.approval and TOOLS[step.tool].side_effect
        errors += step.error
        done += bool(step.right) and not step.error
        trace.append(ToolCall(step.tool, step.error, step.held))
        if config.stop_when_done and done == len(task.sequence):  # SB1, lesson 3
            stopped = True
            break
    return Run(
        config.setup, task.name, seed, config.budget, steps, tokens, errors, int(approvals),
        state.get("result"), tuple(trace), plan, stopped, tuple(log), config,
    )  # fmt: skip


def _loop_pick(target, depth, draw, _trace_length):
    return single_loop_pick(target, depth, draw)


def single_loop(task: Task, seed: int, config: RunConfig) -> Run:
    """The single loop on a checked task, seed and config (see `run_single_loop`); its random picks
    draw among the config's tool set (the five tools, or six under LA1, lesson 4)."""
    draw = draws_among(draw_stream(stream_key(seed, task.name)), config.tools)
    return run_loop(task, seed, config, draw, _loop_pick, loop_step_tokens)


def plan_execute(task: Task, seed: int, config: RunConfig) -> Run:
    """The planner/executor split on a checked task, seed and config (see `run_plan_execute`); its
    planner and executor draw among the config's tool set (six tools under LA1, lesson 4)."""
    draw = draws_among(draw_stream(stream_key(seed, task.name, planner=True)), config.tools)
    plan = write_plan(task.sequence, draw)  # the planner's one call: a step (AA23, AA25)

    def pick(target, depth, draw, trace_length):
        return executor_pick(plan, trace_length, target, depth, draw)

    planning = PLANNING_STEPS["plan-execute"]  # the planner's one call is a step (AA25)
    return run_loop(task, seed, config, draw, pick, executor_step_tokens, steps=planning,
                    tokens=planner_tokens(len(plan)), plan=plan)  # fmt: skip


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
        When True every tool error costs SELF_CRITIQUE_TOKENS more tokens (lesson 1).
    approval : bool
        When True every side-effecting call asks for approval (counted in `approvals`, lesson 1).
    stop_when_done : bool
        The stopping criterion of lesson 3 (rule SB1): when True the run ends right after the
        call that completes the task's sequence (for a record task: the record is written),
        with no further step. False (the default) is the seed's rule: a finished agent stops
        at its next step with share STOP_SHARE.

    Returns
    -------
    Run
        Steps, tokens (rule AA28: 60 + 22 x trace length a step, 30 an observation), tool
        errors, approvals, answer, trace and the step log.

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for a bad task, seed, budget or switch.
    """
    task, seed = check_task(task), check_seed(seed)
    return single_loop(
        task, seed, RunConfig("single-loop", max_steps, self_critique, approval, stop_when_done)
    )


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
        The stopping criterion of lesson 3 (rule SB1), as in `run_single_loop`.

    Returns
    -------
    Run
        With `plan` set. Tokens per rule AA28: 60 + 25 x plan length for the planner,
        40 + 10 x trace length an executor step, 30 an observation.

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for a bad task, seed, budget or switch.
    """
    task, seed = check_task(task), check_seed(seed)
    return plan_execute(task, seed, RunConfig("plan-execute", max_steps, stop_when_done=stop_when_done))


def loop_steps(run: Run, self_critique: bool | None = None) -> tuple[LoopStep, ...]:
    """A loop run's steps as the loop took them: what each step aimed at, picked and cost (lesson 1).

    Parameters
    ----------
    run : Run
        A run of setup "single-loop" (from `run_single_loop`).
    self_critique : bool | None
        Optional: the switch the run was made with; when given it must be the run's own.

    Returns
    -------
    tuple[LoopStep, ...]
        One record per step (run.steps of them); the last has tool None when the agent stopped.

    Raises
    ------
    TypeError, ValueError
        For a run that is not a single-loop Run, or a `self_critique` that is not the run's.
    """
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
    """Whether a run counts as a success by the seed's measure (AA30).

    Parameters
    ----------
    run : Run
        A finished run.

    Raises
    ------
    TypeError
        (InputTypeError) for anything but a run record.

    Returns
    -------
    bool
        True when the run's final answer equals the task's correct answer. Answers only: a record
        task's missing record write is not checked (lesson 3 shows what that hides).
    """
    run = check_run(run)
    return run.answer == correct_answer(run.task)
