"""Many seeds at once (lesson 5): the single loop and the split on every (task, seed) lane, numpy
arrays of shape (24, n_seeds), bit-identical to the one-seed path of `sim.engine.loops`.

It calls the same definitions (the draw generator, `sim.model.picks`, `sim.model.costs`); the draws
come from `sim.measurement.lanes` (AA22, or CR1), the tools from `sim.measurement.machine`.
"""

import functools
from dataclasses import dataclass, replace

import numpy as np

from sim.engine.config import (
    DEFAULT_BUDGET,
    DEFAULT_SEED,
    PATTERN_OPTIONS,
    PLANNING_STEPS,
    RunConfig,
    not_given,
    run_config,
)
from sim.engine.goals import budgeted_calls, goal_of
from sim.engine.loops import Run, is_correct
from sim.engine.runs import run_with
from sim.measurement.lanes import lane_draws
from sim.measurement.machine import MAX_SEQUENCE, ToolMachine, tool_machine
from sim.model.checks import SEED_LIMIT, check_count, check_instance, check_seed, check_seeds
from sim.model.costs import executor_step_tokens, loop_step_tokens, observation_tokens, planner_tokens
from sim.model.errors import InputError
from sim.model.picks import picks_right, random_tool_index, selection, stops
from sim.model.tasks import TASKS
from sim.model.world import WORLD_TOOLS

TASK_FIELDS = ("correct", "steps", "calls", "tokens", "errors", "approvals", "stopped")  # per (task, seed)
BATCH_SETUPS = ("single-loop", "plan-execute")  # the contract has no batch path


@dataclass(frozen=True)
class SeedMeasurements:
    """The counted units of one setup at each seed, summed over the 24 tasks; arrays (n_seeds,)."""

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
        """Share of tasks solved at each seed, shape (n_seeds,)."""
        return self.solved / self.n_tasks


@dataclass(frozen=True)
class BatchRun:
    """One setup on every task at every seed: config, seeds (n_seeds,) and per-(task, seed) outcomes
    (24, n_seeds), tasks in TASKS order; stopped: the agent stopped because its job was done."""

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
        return self.config.setup

    @property
    def budget(self) -> int:
        return self.config.budget

    @property
    def self_critique(self) -> bool:
        return self.config.self_critique

    @property
    def approval(self) -> bool:
        return self.config.approval

    def head(self, n_seeds: int) -> "BatchRun":
        """The same run cut to its first n_seeds seeds (checked by the caller)."""
        return self.take(slice(n_seeds))

    def take(self, positions) -> "BatchRun":
        """The same run at the seeds in `positions` (a slice, or indexes in their order)."""
        return replace(
            self, **{name: getattr(self, name)[..., positions] for name in ("seeds", *TASK_FIELDS)}
        )

    def per_seed(self) -> SeedMeasurements:
        """The counted units at each seed, summed over the tasks (`measure` at one seed)."""
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


def check_paired_runs(first: object, second: object, what: str = "a BatchRun") -> tuple[BatchRun, BatchRun]:
    """Return (first, second) when both are BatchRuns on the same seeds (a paired comparison); `what`
    names what each must be in the message."""
    check_instance(first, BatchRun, "first", what)
    check_instance(second, BatchRun, "second", what)
    if not np.array_equal(first.seeds, second.seeds):
        raise InputError("first and second must be run on the same seeds")
    return first, second


def _write_plans(draws, machine: ToolMachine, shape: tuple[int, int]) -> np.ndarray:
    """`sim.model.picks.write_plan` in every lane: plans (24, n_seeds, MAX_SEQUENCE) of tool indices."""
    length = machine.length[:, None]
    plan = np.zeros((*shape, MAX_SEQUENCE), dtype=np.int64)
    for position in range(MAX_SEQUENCE):
        writing = np.broadcast_to(position < length, shape)
        right = writing & picks_right(draws.decide(writing, position), selection(1))
        u = draws.tool(writing & ~right, position)
        wanted = machine.sequence[:, position, None]
        plan[:, :, position] = np.where(right, wanted, random_tool_index(u, len(machine.tools)))
    return plan


def _lane_budgets(config: RunConfig, plan_length: np.ndarray) -> np.ndarray:
    """Each lane's step budget: the budget, or SB2's (lesson 3) from what a runtime sees, the length of
    the plan the split was given (shape of `plan_length`), else the router's count for the request
    (RT2, shape (24, 1))."""
    if config.setup == "plan-execute":
        lengths = np.unique(plan_length)
        by_length = np.array([config.task_budget(int(n)) for n in lengths], dtype=np.int64)
        return by_length[np.searchsorted(lengths, plan_length)]
    calls = [budgeted_calls(goal_of(task.request), None) for task in TASKS]
    return np.array([[config.task_budget(n)] for n in calls], dtype=np.int64)


def _run_lanes(config: RunConfig, seeds: np.ndarray) -> BatchRun:
    """`sim.engine.loops.run_loop` on every (task, seed) lane at once; see it for the rules."""
    machine, n_tools = tool_machine(config.tools), len(config.tools)
    shape = (len(TASKS), len(seeds))
    split = config.setup == "plan-execute"
    draws = lane_draws(seeds, split, config.common_draws)
    zeros = np.zeros(shape, dtype=np.int64)
    plan, plan_length = np.zeros((*shape, 1), dtype=np.int64), zeros  # no plan: never followed
    steps, tokens, step_tokens = zeros.copy(), zeros.copy(), loop_step_tokens
    if split:
        plan = _write_plans(draws, machine, shape)
        plan_length = np.broadcast_to(machine.length[:, None], shape)
        steps += PLANNING_STEPS["plan-execute"]  # planning is a step (AA25)
        tokens += planner_tokens(plan_length)
        step_tokens = executor_step_tokens
    state, done, calls, errors, approvals = (zeros.copy() for _ in range(5))
    budgets = _lane_budgets(config, plan_length)
    active, stopped = np.ones(shape, dtype=bool), np.zeros(shape, dtype=bool)
    flat_tasks = np.arange(len(TASKS))[:, None] * machine.n_states
    selection_by_done = np.array([selection(d + 1) for d in range(MAX_SEQUENCE + 1)])
    goal_held = machine.goal if config.stop_when_done else np.zeros_like(machine.goal)
    side_effect = np.array([WORLD_TOOLS[tool].side_effect for tool in machine.tools])
    # flat indices: row t of the sequences starts at t * (MAX_SEQUENCE + 1), lane (t, s) of the plans
    # at ((t * n_seeds) + s) * plan positions (a `take` on them is np.take_along_axis, faster)
    sequence_rows = np.arange(len(TASKS))[:, None] * machine.sequence.shape[1]
    plan_lanes = np.arange(shape[0] * shape[1]).reshape(shape) * plan.shape[2]
    while True:
        active &= steps < budgets
        if not active.any():
            break
        steps += active
        tokens += active * step_tokens(calls)
        target = machine.sequence.reshape(-1).take(sequence_rows + done)
        finished = target < 0
        halt = active & goal_held.reshape(-1).take(flat_tasks + state)  # SB1: a paid stop step
        following = active & ~halt & ~finished & (calls < plan_length)  # blind: the plan's next position
        u = draws.decide(active & ~following & ~halt, done)
        stop = halt | (active & finished & stops(u))
        right = active & ~halt & ~finished & ~following & picks_right(u, selection_by_done[done])
        calling = active & ~stop
        u = draws.tool(calling & ~following & ~right, done)
        choice = np.where(right, target, random_tool_index(u, n_tools))
        if split:  # the single loop follows no plan
            planned = plan.reshape(-1).take(plan_lanes + np.minimum(calls, plan.shape[2] - 1))
            choice = np.where(following, planned, choice)
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
    correct = machine.correct.reshape(-1).take(flat_tasks + state)
    return BatchRun(config, seeds, correct, steps, calls, tokens, errors, approvals, stopped)


def batch_run(config: RunConfig, seeds) -> BatchRun:
    """Run a checked loop configuration on all 24 tasks at every seed; raises InputError for the contract
    (no batch path here) or bad seeds."""
    if config.setup not in BATCH_SETUPS:
        raise InputError(
            f"setup must be one of {', '.join(BATCH_SETUPS)} (the batch path), got {config.setup!r}"
        )
    if config.argument_errors is not None or any(not not_given(getattr(config, n)) for n in PATTERN_OPTIONS):
        return seed_by_seed(config, check_seeds(seeds))  # AE1 and lesson 8's patterns: no array path
    return _run_lanes(config, check_seeds(seeds))


def seed_by_seed(config: RunConfig, seeds: np.ndarray) -> BatchRun:
    """A checked loop configuration on all 24 tasks at checked seeds, run by the one-seed path
    (`run_grid`) and collected as a BatchRun (AE1 and lesson 8's patterns have no array path)."""
    return _collected(config, tuple(int(seed) for seed in seeds))


def run_grid(config: RunConfig, seeds) -> tuple[tuple[Run, ...], ...]:
    """Every run of a checked loop configuration at checked seeds, runs[task][seed position], made once
    and kept for the next caller (a lesson reads the same runs for several tables)."""
    return _grid(config, tuple(int(seed) for seed in seeds))


@functools.lru_cache(maxsize=32)
def _grid(config: RunConfig, seeds: tuple[int, ...]) -> tuple[tuple[Run, ...], ...]:
    return tuple(tuple(run_with(config, task, seed) for seed in seeds) for task in TASKS)


@functools.lru_cache(maxsize=32)
def _collected(config: RunConfig, seeds: tuple[int, ...]) -> BatchRun:
    runs = _grid(config, seeds)
    out = {name: np.array([[_outcome(run, name) for run in row] for row in runs]) for name in TASK_FIELDS}
    for array in out.values():
        array.setflags(write=False)
    seed_array = np.array(seeds, dtype=np.int64)
    seed_array.setflags(write=False)
    return BatchRun(config, seed_array, **out)


def _outcome(run, name: str):
    return is_correct(run) if name == "correct" else getattr(run, name)


def run_batch(setup: str, seeds, max_steps: int = DEFAULT_BUDGET, **options) -> BatchRun:
    """Run one loop setup on all 24 tasks at every seed, equal outcome for outcome to `run_task` at each
    (tests/test_batch.py); options as `run_config`. Raises InputError / InputTypeError naming the parameter."""
    return batch_run(run_config(setup, max_steps, **options), seeds)


def measure_batch(setup: str, seeds, max_steps: int = DEFAULT_BUDGET, **options) -> SeedMeasurements:
    """The counted units of one setup at every seed, `run_batch(...).per_seed()`: each entry equal to
    `measure` at that seed."""
    return batch_run(run_config(setup, max_steps, **options), seeds).per_seed()


def study_seeds(n_seeds: int, first: int = DEFAULT_SEED) -> np.ndarray:
    """The seeds of an N-seed study, first + i for i < n_seeds, int64 (lesson 5); raises InputError when
    the last seed would reach 2**32."""
    n_seeds = check_count(n_seeds, "n_seeds", 1)
    first = check_seed(first, "first")
    if n_seeds > SEED_LIMIT - first:
        raise InputError(f"n_seeds must be at most 2**32 - first = {SEED_LIMIT - first}, got {n_seeds!r}")
    return np.arange(first, first + n_seeds, dtype=np.int64)
