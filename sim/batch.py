"""Many seeds at once: the single loop and the planner/executor split run over a whole array of
seeds, vectorised with numpy across (task, seed), bit-identical to the one-seed path in sim.agents.

The one-seed path (`run_single_loop`, `run_plan_execute`) stays the readable reference; this
module only repeats its arithmetic on arrays. Two facts make that possible:

- The draw stream is a 32-bit linear congruential generator started by a murmur-style mix of
  (seed XOR trace id); it is carried out here in uint64 arrays with a 32-bit mask, one stream
  per (task, seed) lane, advanced only in the lanes that draw at that step.
- What a tool returns depends only on the state the agent holds. From a task's starting state
  only a few states can be reached (44 per task), so each task's tools form a small state
  machine: for every reachable state and every tool, the next state and whether the call is a
  tool error. The machine is found once, at import, by calling the real tools through the
  one-seed path's own step (`sim.agents._call_and_observe`, which uses `sim.world.call_tool`),
  so no tariff or document rule is written twice.

Introduced in lesson 5, how many seeds.
"""

from dataclasses import dataclass, replace

import numpy as np

from sim.agents import (
    DEFAULT_BUDGET,
    EXECUTOR_STEP_TOKENS,
    EXECUTOR_TOKENS_PER_CALL,
    LOOP_STEP_TOKENS,
    LOOP_TOKENS_PER_CALL,
    OBSERVATION_TOKENS,
    PLANNER_TOKENS,
    PLANNER_TOKENS_PER_POSITION,
    SELF_CRITIQUE_TOKENS,
    STOP_SHARE,
    _call_and_observe,
    _initial_state,
    selection,
)
from sim.checks import SEED_LIMIT, check_budget, check_seed, check_seeds, check_setup, check_switch
from sim.draws import MASK32, trace_id
from sim.tasks import TASK_NAMES, TASKS, correct_answer
from sim.world import TOOL_NAMES, TOOLS

N_TOOLS = len(TOOL_NAMES)
MAX_SEQUENCE = max(len(task.sequence) for task in TASKS)
OUTCOMES = (
    "correct",
    "steps",
    "calls",
    "tokens",
    "errors",
    "approvals",
    "stopped",
)  # per-(task, seed) fields
LCG_MULTIPLIER, LCG_INCREMENT = 1664525, 1013904223  # as in sim.draws.draw_stream


@dataclass(frozen=True)
class ToolMachine:
    """Every task's tools as a state machine, stacked over the 24 tasks (read-only arrays).

    Fields: n_states (states per task; state 0 is the task's starting state, tasks with
    fewer states are padded); next_state (n_tasks, n_states, n_tools) int64, the state after
    calling a tool; error (same shape) bool, whether that call is a tool error; correct
    (n_tasks, n_states) bool, whether the answer held in that state is the task's correct
    answer; sequence (n_tasks, MAX_SEQUENCE + 1) int64, the tool index at each position of
    the task's sequence, -1 from its length on; length (n_tasks,) int64, the sequence length.
    """

    n_states: int
    next_state: np.ndarray
    error: np.ndarray
    correct: np.ndarray
    sequence: np.ndarray
    length: np.ndarray


def _state_key(state: dict) -> tuple:
    return tuple(sorted(state.items()))


def _task_states(task) -> tuple[list[dict], dict, dict]:
    """Breadth-first search of the states a task can reach; returns states, next and error maps."""
    states = [_initial_state(task)]
    index = {_state_key(states[0]): 0}
    next_state, error = {}, {}
    position = 0
    while position < len(states):
        for tool_index, tool in enumerate(TOOL_NAMES):
            after = dict(states[position])
            failed = _call_and_observe(tool, after)
            key = _state_key(after)
            if key not in index:
                index[key] = len(states)
                states.append(after)
            next_state[position, tool_index] = index[key]
            error[position, tool_index] = failed
        position += 1
    return states, next_state, error


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def build_tool_machine() -> ToolMachine:
    """Find every task's reachable states with the real tools and tabulate them (see ToolMachine)."""
    searched = [_task_states(task) for task in TASKS]
    n_states = max(len(states) for states, _, _ in searched)
    next_state = np.zeros((len(TASKS), n_states, N_TOOLS), dtype=np.int64)
    error = np.zeros((len(TASKS), n_states, N_TOOLS), dtype=bool)
    correct = np.zeros((len(TASKS), n_states), dtype=bool)
    for t, (task, (states, moves, failures)) in enumerate(zip(TASKS, searched, strict=True)):
        for (state, tool), after in moves.items():
            next_state[t, state, tool] = after
            error[t, state, tool] = failures[state, tool]
        wanted = correct_answer(task)
        correct[t, : len(states)] = [state.get("result") == wanted for state in states]
    sequence = np.full((len(TASKS), MAX_SEQUENCE + 1), -1, dtype=np.int64)
    for t, task in enumerate(TASKS):
        sequence[t, : len(task.sequence)] = [TOOL_NAMES.index(tool) for tool in task.sequence]
    length = np.array([len(task.sequence) for task in TASKS], dtype=np.int64)
    return ToolMachine(n_states, *(_read_only(a) for a in (next_state, error, correct, sequence, length)))


MACHINE = build_tool_machine()
# selection(done + 1) for done = 0..MAX_SEQUENCE (the last is never used: the job is done)
SELECTION_BY_DONE = _read_only(np.array([selection(done + 1) for done in range(MAX_SEQUENCE + 1)]))
SIDE_EFFECT = _read_only(np.array([TOOLS[tool].side_effect for tool in TOOL_NAMES]))
TASK_IDS = _read_only(np.array([trace_id(name) for name in TASK_NAMES], dtype=np.uint64))
PLAN_IDS = _read_only(np.array([trace_id("plan" + name) for name in TASK_NAMES], dtype=np.uint64))


def mix32(keys: np.ndarray) -> np.ndarray:
    """sim.draws._mix32 on a uint64 array of 32-bit keys: the start state of each draw stream."""
    mask = np.uint64(MASK32)
    x = ((keys ^ (keys >> np.uint64(16))) * np.uint64(2246822507)) & mask
    x = ((x ^ (x >> np.uint64(13))) * np.uint64(3266489909)) & mask
    return (x ^ (x >> np.uint64(16))) & mask


def draw(state: np.ndarray, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Advance the draw streams of the lanes where `lanes` is True; return (new states, draws).

    The draws are state / 2**32 as in sim.draws.draw_stream, in [0, 1); where `lanes` is
    False the state is kept and the draw is meaningless.
    """
    advanced = (state * np.uint64(LCG_MULTIPLIER) + np.uint64(LCG_INCREMENT)) & np.uint64(MASK32)
    return np.where(lanes, advanced, state), advanced / 4294967296.0


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

    Fields: setup; seeds (n_seeds,) int64; budget (steps); self_critique and approval (the
    single loop's switches); and per-(task, seed) outcomes, arrays of shape (24, n_seeds) with
    the tasks in TASKS order: correct (bool, the final answer is the task's correct answer),
    steps, calls (tool calls), tokens, errors (tool errors), approvals (int64), stopped (bool,
    the agent stopped because its job was done rather than because the budget ran out).
    """

    setup: str
    seeds: np.ndarray
    budget: int
    self_critique: bool
    approval: bool
    correct: np.ndarray
    steps: np.ndarray
    calls: np.ndarray
    tokens: np.ndarray
    errors: np.ndarray
    approvals: np.ndarray
    stopped: np.ndarray

    def head(self, n_seeds: int) -> "BatchRun":
        """The same run cut to its first n_seeds seeds (1 <= n_seeds <= len(seeds))."""
        if (
            isinstance(n_seeds, bool)
            or not isinstance(n_seeds, int | np.integer)
            or not 1 <= n_seeds <= len(self.seeds)
        ):
            raise ValueError(f"n_seeds must be an integer 1..{len(self.seeds)}, got {n_seeds!r}")
        cut = {name: getattr(self, name)[..., :n_seeds] for name in ("seeds", *OUTCOMES)}
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


def _lanes(seeds: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Start states of the (task, seed) draw streams, shape (24, n_seeds)."""
    return mix32(seeds.astype(np.uint64)[None, :] ^ ids[:, None])


def _call_tools(state, choice, calling):
    """Look up each calling lane's tool call in the machine; return (next state, tool error)."""
    flat = (np.arange(len(TASKS))[:, None] * MACHINE.n_states + state) * N_TOOLS + choice
    after = MACHINE.next_state.reshape(-1).take(flat)
    failed = MACHINE.error.reshape(-1).take(flat) & calling
    return np.where(calling, after, state), failed


def _finish(setup, seeds, budget, self_critique, approval, state, counts, stopped) -> BatchRun:
    flat = np.arange(len(TASKS))[:, None] * MACHINE.n_states + state
    correct = MACHINE.correct.reshape(-1).take(flat)
    return BatchRun(setup, seeds, budget, self_critique, approval, correct, *counts, stopped)


def _single_loop_batch(seeds, max_steps, self_critique, approval) -> BatchRun:
    """run_single_loop on every (task, seed) lane at once; see that function for the rules."""
    shape = (len(TASKS), len(seeds))
    stream = _lanes(seeds, TASK_IDS)
    state, done = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    steps, calls, tokens, errors, approvals = (np.zeros(shape, dtype=np.int64) for _ in range(5))
    active, stopped = np.ones(shape, dtype=bool), np.zeros(shape, dtype=bool)
    for _ in range(max_steps):
        if not active.any():
            break
        steps += active
        tokens += active * (LOOP_STEP_TOKENS + LOOP_TOKENS_PER_CALL * calls)
        target = np.take_along_axis(MACHINE.sequence, done, axis=1)
        stream, u = draw(stream, active)
        finished = target < 0
        stop = active & finished & (u < STOP_SHARE)
        right = active & ~finished & (u < SELECTION_BY_DONE[done])
        calling = active & ~stop
        stream, u = draw(stream, calling & ~right)
        choice = np.where(right, target, (u * N_TOOLS).astype(np.int64))
        if approval:
            approvals += calling & SIDE_EFFECT[choice]
        state, failed = _call_tools(state, choice, calling)
        tokens += calling * OBSERVATION_TOKENS + (failed * SELF_CRITIQUE_TOKENS if self_critique else 0)
        errors += failed
        done += calling & ~failed & (choice == target)
        calls += calling
        stopped |= stop
        active = calling
    counts = (steps, calls, tokens, errors, approvals)
    return _finish("single-loop", seeds, max_steps, self_critique, approval, state, counts, stopped)


def _plan_execute_batch(seeds, max_steps) -> BatchRun:
    """run_plan_execute on every (task, seed) lane at once; see that function for the rules."""
    shape = (len(TASKS), len(seeds))
    stream = _lanes(seeds, PLAN_IDS)
    length = MACHINE.length[:, None]
    plan = np.zeros((len(TASKS), len(seeds), MAX_SEQUENCE), dtype=np.int64)
    for position in range(MAX_SEQUENCE):  # the planner's one call (write_plan)
        writing = np.broadcast_to(position < length, shape)
        stream, u = draw(stream, writing)
        right = writing & (u < selection(1))
        stream, u = draw(stream, writing & ~right)
        wanted = MACHINE.sequence[:, position, None]
        plan[:, :, position] = np.where(right, wanted, (u * N_TOOLS).astype(np.int64))
    state, done = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    calls, errors = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    steps = np.ones(shape, dtype=np.int64)  # planning is a step (AA25)
    tokens = np.broadcast_to(PLANNER_TOKENS + PLANNER_TOKENS_PER_POSITION * length, shape).copy()
    active, stopped = np.ones(shape, dtype=bool), np.zeros(shape, dtype=bool)
    for _ in range(max_steps - 1):
        if not active.any():
            break
        steps += active
        tokens += active * (EXECUTOR_STEP_TOKENS + EXECUTOR_TOKENS_PER_CALL * calls)
        target = np.take_along_axis(MACHINE.sequence, done, axis=1)
        finished = target < 0
        following = active & ~finished & (calls < length)  # blind: the plan's next position
        stream, u = draw(stream, active & ~following)
        stop = active & finished & (u < STOP_SHARE)
        right = active & ~finished & ~following & (u < SELECTION_BY_DONE[done])
        calling = active & ~stop
        stream, u = draw(stream, calling & ~following & ~right)
        position = np.minimum(calls, MAX_SEQUENCE - 1)[:, :, None]
        planned = np.take_along_axis(plan, position, axis=2)[:, :, 0]
        choice = np.where(following, planned, np.where(right, target, (u * N_TOOLS).astype(np.int64)))
        state, failed = _call_tools(state, choice, calling)
        tokens += calling * OBSERVATION_TOKENS
        errors += failed
        done += calling & ~failed & (choice == target)
        calls += calling
        stopped |= stop
        active = calling
    counts = (steps, calls, tokens, errors, np.zeros(shape, dtype=np.int64))
    return _finish("plan-execute", seeds, max_steps, False, False, state, counts, stopped)


def run_batch(
    setup: str,
    seeds,
    max_steps: int = DEFAULT_BUDGET,
    self_critique: bool = False,
    approval: bool = False,
) -> BatchRun:
    """Run one setup on all 24 tasks at every seed of `seeds`, vectorised across (task, seed).

    Outcome for outcome equal to calling `sim.run_task(setup, task, seed, max_steps, ...)`
    for every task and seed (tests/test_batch.py checks it), and much faster for many seeds.

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

    Returns
    -------
    BatchRun
        Per-(task, seed) outcomes of shape (24, n_seeds); `.per_seed()` sums them per seed.

    Raises
    ------
    TypeError, ValueError
        For a bad setup, seeds, budget or switch, naming the parameter.
    """
    setup = check_setup(setup, allowed=("single-loop", "plan-execute"))  # the contract has no batch path
    seeds = check_seeds(seeds)
    max_steps = check_budget(max_steps)
    check_switch(self_critique, "self_critique")
    check_switch(approval, "approval")
    if setup == "single-loop":
        return _single_loop_batch(seeds, max_steps, self_critique, approval)
    if self_critique or approval:
        raise ValueError(
            f"self_critique and approval are switches of setup 'single-loop' only, not of {setup!r}"
        )
    return _plan_execute_batch(seeds, max_steps)


def measure_batch(
    setup: str,
    seeds,
    max_steps: int = DEFAULT_BUDGET,
    self_critique: bool = False,
    approval: bool = False,
) -> SeedMeasurements:
    """The counted units of one setup at every seed: `run_batch(...).per_seed()`.

    Parameters and raises as `run_batch`. Returns SeedMeasurements, arrays of shape (n_seeds,),
    each entry equal to the field of `sim.measure(setup, seed, max_steps, ...)`.
    """
    return run_batch(setup, seeds, max_steps, self_critique, approval).per_seed()


def study_seeds(n_seeds: int, first: int = 20260218) -> np.ndarray:
    """The seeds of an N-seed study, first + i for i = 0..n_seeds - 1 (lesson 5), as int64.

    Raises
    ------
    TypeError, ValueError
        When n_seeds is not an integer >= 1, or the last seed would reach 2**32.
    """
    if isinstance(n_seeds, bool) or not isinstance(n_seeds, int | np.integer):
        raise TypeError(f"n_seeds must be an integer >= 1, got {n_seeds!r} ({type(n_seeds).__name__})")
    if n_seeds < 1:
        raise ValueError(f"n_seeds must be an integer >= 1, got {n_seeds!r}")
    first = check_seed(first, "first")
    if n_seeds > SEED_LIMIT - first:
        raise ValueError(f"n_seeds must be at most 2**32 - first = {SEED_LIMIT - first}, got {n_seeds!r}")
    return check_seeds(np.arange(first, first + n_seeds, dtype=np.int64))
