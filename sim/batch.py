"""Many seeds at once: the single loop and the planner/executor split run over a whole array of
seeds, vectorised with numpy across (task, seed), bit-identical to the one-seed path in sim.agents.

The one-seed path (`run_single_loop`, `run_plan_execute`) stays the readable reference; this
module applies the same rules to arrays, calling the same definitions: the draw stream's
generator (`sim.draws.mix32`, `next_state`), the picks (`sim.picks`) and the token costs
(`sim.costs`). Two facts make that possible:

- The draw stream is a 32-bit linear congruential generator; it is carried out here in uint64
  arrays, one stream per (task, seed) lane, advanced only in the lanes that draw at that step.
- What a tool returns depends only on the state the agent holds. From a task's starting state
  only a few states can be reached (44 per task), so each task's tools form a small state
  machine: for every reachable state and every tool, the next state and whether the call is a
  tool error. The machine is found once, when first needed, by calling the real tools through
  the one-seed path's own step (`sim.agents.call_and_observe`), so no tariff or document rule
  is written twice.

Introduced in lesson 5, how many seeds.
"""

from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from sim.agents import call_and_observe, initial_state
from sim.checks import SEED_LIMIT, check_seed, check_seeds
from sim.config import DEFAULT_BUDGET, DEFAULT_SEED, PLANNING_STEPS, RunConfig
from sim.costs import executor_step_tokens, loop_step_tokens, observation_tokens, planner_tokens
from sim.draws import TWO_TO_32, mix32, next_state, stream_key
from sim.errors import InputError, InputTypeError
from sim.picks import picks_right, random_tool_index, selection, stops
from sim.tasks import TASK_NAMES, TASKS, correct_answer
from sim.world import TOOL_NAMES, WORLD_TOOLS

MAX_SEQUENCE = max(len(task.sequence) for task in TASKS)
TASK_FIELDS = ("correct", "steps", "calls", "tokens", "errors", "approvals", "stopped")  # per (task, seed)
BATCH_SETUPS = ("single-loop", "plan-execute")  # the contract has no batch path


@dataclass(frozen=True)
class ToolMachine:
    """Every task's tools as a state machine, stacked over the 24 tasks (read-only arrays).

    Fields: tools (the tool set, in index order: the five tools, or six under LA1, lesson 4);
    n_states (states per task; state 0 is the task's starting state, tasks with
    fewer states are padded); next_state (n_tasks, n_states, n_tools) int64, the state after
    calling a tool; error (same shape) bool, whether that call is a tool error; correct
    (n_tasks, n_states) bool, whether the answer held in that state is the task's correct
    answer; sequence (n_tasks, MAX_SEQUENCE + 1) int64, the tool index at each position of
    the task's sequence, -1 from its length on; length (n_tasks,) int64, the sequence length.
    """

    tools: tuple[str, ...]
    n_states: int
    next_state: np.ndarray
    error: np.ndarray
    correct: np.ndarray
    sequence: np.ndarray
    length: np.ndarray


def _task_states(task, tools: tuple[str, ...]) -> tuple[list[dict], dict, dict]:
    """Breadth-first search of the states a task can reach with `tools`; returns states, next and error maps."""
    states = [initial_state(task)]
    index = {tuple(sorted(states[0].items())): 0}
    next_state_of, error = {}, {}
    position = 0
    while position < len(states):
        for tool_index, tool in enumerate(tools):
            after = dict(states[position])
            failed = "error" in call_and_observe(tool, after)
            key = tuple(sorted(after.items()))
            if key not in index:
                index[key] = len(states)
                states.append(after)
            next_state_of[position, tool_index] = index[key]
            error[position, tool_index] = failed
        position += 1
    return states, next_state_of, error


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def tool_machine(tools: tuple[str, ...] = TOOL_NAMES) -> ToolMachine:
    """Find every task's reachable states with the real tools of the tool set `tools` (the run's,
    `RunConfig.tools`) and tabulate them (see ToolMachine); built on first use and kept, one machine
    per tool set (a standard cache; the arrays are read-only)."""
    return _tool_machine(tuple(tools))


@cache
def _tool_machine(tools: tuple[str, ...]) -> ToolMachine:
    searched = [_task_states(task, tools) for task in TASKS]
    n_states = max(len(states) for states, _, _ in searched)
    next_state_of = np.zeros((len(TASKS), n_states, len(tools)), dtype=np.int64)
    error = np.zeros((len(TASKS), n_states, len(tools)), dtype=bool)
    correct = np.zeros((len(TASKS), n_states), dtype=bool)
    for t, (task, (states, moves, failures)) in enumerate(zip(TASKS, searched, strict=True)):
        for (state, tool), after in moves.items():
            next_state_of[t, state, tool] = after
            error[t, state, tool] = failures[state, tool]
        wanted = correct_answer(task)
        correct[t, : len(states)] = [state.get("result") == wanted for state in states]
    sequence = np.full((len(TASKS), MAX_SEQUENCE + 1), -1, dtype=np.int64)
    for t, task in enumerate(TASKS):
        sequence[t, : len(task.sequence)] = [tools.index(tool) for tool in task.sequence]
    length = np.array([len(task.sequence) for task in TASKS], dtype=np.int64)
    arrays = (next_state_of, error, correct, sequence, length)
    return ToolMachine(tools, n_states, *(_read_only(a) for a in arrays))


def draw(state: np.ndarray, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Advance the draw streams of the lanes where `lanes` is True; return (new states, draws).

    The draws are state / 2**32 as in sim.draws.draw_stream, in [0, 1); where `lanes` is
    False the state is kept and the draw is meaningless.
    """
    advanced = next_state(state)
    return np.where(lanes, advanced, state), advanced / TWO_TO_32


@dataclass(frozen=True)
class SeedMeasurements:
    """The counted units of one setup at each seed, summed over the 24 tasks; arrays of shape (n_seeds,).

    Fields: seeds; solved (tasks with the correct final answer, of n_tasks); steps; calls
    (tool calls); tokens; errors (tool errors); approvals; n_tasks.
    """

    seeds: np.ndarray
    solved: np.ndarray
    steps: np.ndarray
    calls: np.ndarray
    tokens: np.ndarray
    errors: np.ndarray
    approvals: np.ndarray
    n_tasks: int

    @property
    def success(self) -> np.ndarray:
        """Share of tasks solved at each seed, fractions in [0, 1], shape (n_seeds,)."""
        return self.solved / self.n_tasks


@dataclass(frozen=True)
class BatchRun:
    """One setup run on every task at every seed of a batch.

    Fields: config (the RunConfig it ran with; `setup`, `budget`, `self_critique` and `approval`
    read from it); seeds (n_seeds,) int64; and per-(task, seed) outcomes, arrays of shape
    (24, n_seeds) with the tasks in TASKS order: correct (bool, the final answer is the task's
    correct answer), steps, calls (tool calls), tokens, errors (tool errors), approvals (int64),
    stopped (bool, the agent stopped because its job was done rather than because the budget ran out).
    """

    config: RunConfig
    seeds: np.ndarray
    correct: np.ndarray
    steps: np.ndarray
    calls: np.ndarray
    tokens: np.ndarray
    errors: np.ndarray
    approvals: np.ndarray
    stopped: np.ndarray

    @property
    def setup(self) -> str:
        """The setup's name."""
        return self.config.setup

    @property
    def budget(self) -> int:
        """The step budget (steps)."""
        return self.config.budget

    @property
    def self_critique(self) -> bool:
        """The single loop's self-critique switch."""
        return self.config.self_critique

    @property
    def approval(self) -> bool:
        """The single loop's approval switch."""
        return self.config.approval

    def head(self, n_seeds: int) -> "BatchRun":
        """The same run cut to its first n_seeds seeds (1 <= n_seeds <= len(seeds))."""
        if (
            isinstance(n_seeds, bool)
            or not isinstance(n_seeds, int | np.integer)
            or not 1 <= n_seeds <= len(self.seeds)
        ):
            kind = (
                InputError
                if isinstance(n_seeds, int | np.integer) and not isinstance(n_seeds, bool)
                else InputTypeError
            )
            raise kind(f"n_seeds must be an integer 1..{len(self.seeds)}, got {n_seeds!r}")
        cut = {name: getattr(self, name)[..., :n_seeds] for name in ("seeds", *TASK_FIELDS)}
        return replace(self, **cut)

    def per_seed(self) -> SeedMeasurements:
        """The counted units at each seed, summed over the tasks (what `sim.measure` gives for one seed)."""
        return SeedMeasurements(
            self.seeds,
            self.correct.sum(axis=0),
            self.steps.sum(axis=0),
            self.calls.sum(axis=0),
            self.tokens.sum(axis=0),
            self.errors.sum(axis=0),
            self.approvals.sum(axis=0),
            len(TASKS),
        )


def _lanes(seeds: np.ndarray, planner: bool) -> np.ndarray:
    """Start states of the (task, seed) draw streams (`sim.draws.stream_key`), shape (24, n_seeds)."""
    seeds = seeds.astype(np.uint64)
    return mix32(np.stack([stream_key(seeds, name, planner) for name in TASK_NAMES]))


def _write_plans(stream: np.ndarray, machine: ToolMachine) -> tuple[np.ndarray, np.ndarray]:
    """`sim.picks.write_plan` in every lane: (stream after the planner's draws, plans of shape
    (24, n_seeds, MAX_SEQUENCE) holding tool indices)."""
    shape = stream.shape
    length = machine.length[:, None]
    plan = np.zeros((*shape, MAX_SEQUENCE), dtype=np.int64)
    for position in range(MAX_SEQUENCE):
        writing = np.broadcast_to(position < length, shape)
        stream, u = draw(stream, writing)
        right = writing & picks_right(u, selection(1))
        stream, u = draw(stream, writing & ~right)
        wanted = machine.sequence[:, position, None]
        plan[:, :, position] = np.where(right, wanted, random_tool_index(u, len(machine.tools)))
    return stream, plan


def _task_budgets(config: RunConfig, machine: ToolMachine) -> np.ndarray:
    """Each task's step budget (steps), shape (24, 1): the budget, or lesson 3's SB2 budget."""
    return np.array([[config.task_budget(int(length))] for length in machine.length], dtype=np.int64)


def _run_lanes(config: RunConfig, seeds: np.ndarray) -> BatchRun:
    """`sim.agents.run_loop` on every (task, seed) lane at once; see it for the rules."""
    machine, n_tools = tool_machine(config.tools), len(config.tools)
    shape = (len(TASKS), len(seeds))
    split = config.setup == "plan-execute"
    stream = _lanes(seeds, split)
    zeros = np.zeros(shape, dtype=np.int64)
    plan, plan_length = np.zeros((*shape, 1), dtype=np.int64), zeros  # no plan: never followed
    steps, tokens, step_tokens = zeros.copy(), zeros.copy(), loop_step_tokens
    if split:
        stream, plan = _write_plans(stream, machine)
        plan_length = np.broadcast_to(machine.length[:, None], shape)
        steps += PLANNING_STEPS["plan-execute"]  # planning is a step (AA25)
        tokens += planner_tokens(plan_length)
        step_tokens = executor_step_tokens
    state, done, calls, errors, approvals = (
        zeros.copy(),
        zeros.copy(),
        zeros.copy(),
        zeros.copy(),
        zeros.copy(),
    )
    budgets = _task_budgets(config, machine)
    active, stopped = np.ones(shape, dtype=bool), np.zeros(shape, dtype=bool)
    flat_tasks = np.arange(len(TASKS))[:, None] * machine.n_states
    selection_by_done = np.array([selection(d + 1) for d in range(MAX_SEQUENCE + 1)])
    side_effect = np.array([WORLD_TOOLS[tool].side_effect for tool in machine.tools])
    while True:
        active &= steps < budgets
        if not active.any():
            break
        steps += active
        tokens += active * step_tokens(calls)
        target = np.take_along_axis(machine.sequence, done, axis=1)
        finished = target < 0
        following = active & ~finished & (calls < plan_length)  # blind: the plan's next position
        stream, u = draw(stream, active & ~following)
        stop = active & finished & stops(u)
        right = active & ~finished & ~following & picks_right(u, selection_by_done[done])
        calling = active & ~stop
        stream, u = draw(stream, calling & ~following & ~right)
        position = np.minimum(calls, plan.shape[2] - 1)[:, :, None]
        planned = np.take_along_axis(plan, position, axis=2)[:, :, 0]
        choice = np.where(following, planned, np.where(right, target, random_tool_index(u, n_tools)))
        if config.approval:
            approvals += calling & side_effect[choice]
        flat = (flat_tasks + state) * n_tools + choice
        failed = machine.error.reshape(-1).take(flat) & calling
        state = np.where(calling, machine.next_state.reshape(-1).take(flat), state)
        tokens += calling * observation_tokens(failed, config.self_critique)
        errors += failed
        done += calling & ~failed & (choice == target)
        calls += calling
        stopped |= stop
        active = calling
        if config.stop_when_done:  # SB1, lesson 3
            complete = calling & (done == machine.length[:, None])
            stopped |= complete
            active &= ~complete
    correct = machine.correct.reshape(-1).take(flat_tasks + state)
    return BatchRun(config, seeds, correct, steps, calls, tokens, errors, approvals, stopped)


def batch_run(config: RunConfig, seeds) -> BatchRun:
    """Run a checked loop configuration on all 24 tasks at every seed (see `run_batch`).

    Raises
    ------
    InputError
        For the contract (it has no batch path) or bad seeds.
    """
    if config.setup not in BATCH_SETUPS:
        raise InputError(
            f"setup must be one of {', '.join(BATCH_SETUPS)} (the batch path), got {config.setup!r}"
        )
    return _run_lanes(config, check_seeds(seeds))


def run_batch(
    setup: str,
    seeds,
    max_steps: int = DEFAULT_BUDGET,
    self_critique: bool = False,
    approval: bool = False,
    stop_when_done: bool = False,
    budget_margin: int | None = None,
    lookalike: bool = False,
) -> BatchRun:
    """Run one setup on all 24 tasks at every seed of `seeds`, vectorised across (task, seed).

    Outcome for outcome equal to calling `sim.run_task(setup, task, seed, ...)` for every task
    and seed (tests/test_batch.py checks it), and much faster for many seeds.

    Parameters
    ----------
    setup : str
        "single-loop" or "plan-execute".
    seeds : Sequence[int] | numpy.ndarray
        One-dimensional, non-empty; every seed an integer 0 <= seed < 2**32.
    max_steps : int
        Step budget per task (steps), >= 1.
    self_critique, approval : bool
        The single loop's switches; asking them of "plan-execute" raises ValueError.
    stop_when_done : bool
        Lesson 3's stopping criterion (SB1).
    budget_margin : int | None
        Lesson 3's budget rule (SB2): each task's budget is planning + sequence length + margin,
        capped at max_steps; None for the fixed budget.
    lookalike : bool
        The course's rule LA1 (lesson 4): the tool set offers the look-alike tool as a sixth.

    Returns
    -------
    BatchRun
        Per-(task, seed) outcomes of shape (24, n_seeds); `.per_seed()` sums them per seed.

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for a bad setup, seeds, budget or option, naming the parameter.
    """
    config = RunConfig(
        setup, max_steps, self_critique, approval, stop_when_done, budget_margin, lookalike=lookalike
    )
    return batch_run(config, seeds)


def measure_batch(
    setup: str,
    seeds,
    max_steps: int = DEFAULT_BUDGET,
    self_critique: bool = False,
    approval: bool = False,
) -> SeedMeasurements:
    """The counted units of one setup at every seed: `run_batch(...).per_seed()`.

    Parameters (setup, seeds, max_steps, the single loop's switches; no stopping rule) and raises as
    `run_batch`. Returns SeedMeasurements, arrays of shape (n_seeds,),
    each entry equal to the field of `sim.measure(setup, seed, max_steps, ...)`.
    """
    return run_batch(setup, seeds, max_steps, self_critique, approval).per_seed()


def study_seeds(n_seeds: int, first: int = DEFAULT_SEED) -> np.ndarray:
    """The seeds of an N-seed study, first + i for i = 0..n_seeds - 1 (lesson 5), as int64.

    Raises
    ------
    TypeError, ValueError
        When n_seeds is not an integer >= 1, or the last seed would reach 2**32.
    """
    if isinstance(n_seeds, bool) or not isinstance(n_seeds, int | np.integer):
        raise InputTypeError(f"n_seeds must be an integer >= 1, got {n_seeds!r} ({type(n_seeds).__name__})")
    if n_seeds < 1:
        raise InputError(f"n_seeds must be an integer >= 1, got {n_seeds!r}")
    first = check_seed(first, "first")
    if n_seeds > SEED_LIMIT - first:
        raise InputError(f"n_seeds must be at most 2**32 - first = {SEED_LIMIT - first}, got {n_seeds!r}")
    return check_seeds(np.arange(first, first + n_seeds, dtype=np.int64))
