"""Common random numbers (rule CR1, lesson 5, off by default): both loop setups take the same draw for
the same decision. Every pick aimed at position p of a task's sequence (length + 1: a finished agent's
stop) draws from a stream keyed by the seed, the task and p (`sim.model.draws.PositionDraws`); the
split's planner writes the first pick at each position. Picks, costs and the loop are unchanged;
`sim.measurement.batch` is proven equal to this path."""

from sim.engine.config import RunConfig
from sim.engine.loops import Loop, Run, run_loop
from sim.model.costs import executor_step_tokens, loop_step_tokens
from sim.model.draws import PositionDraws
from sim.model.picks import executor_pick, single_loop_pick, write_plan
from sim.model.tasks import Task


def single_loop_common(task: Task, seed: int, config: RunConfig) -> Run:
    """The single loop under CR1: each pick draws from the stream of the position it aims at."""
    draws = PositionDraws(seed, task.name)

    def pick(target, depth, calls):
        return single_loop_pick(target, depth, draws.pick(depth))

    return run_loop(Loop(task, seed, config, pick, loop_step_tokens))


def common_plan(task: Task, draws: PositionDraws) -> tuple[str, ...]:
    """The planner's plan under CR1: each position p written with the draws of the first pick at p."""
    return tuple(
        write_plan((wanted,), draws.pick(position))[0]
        for position, wanted in enumerate(task.sequence, 1)  # CR1, AA29
    )


def plan_execute_common(task: Task, seed: int, config: RunConfig) -> Run:
    """The split under CR1: `common_plan`, then the executor (AA26, AA27) on the position streams."""
    draws = PositionDraws(seed, task.name)
    plan = common_plan(task, draws)

    def pick(target, depth, calls):
        return executor_pick(plan, calls, target, depth, draws.pick(depth))

    return run_loop(Loop(task, seed, config, pick, executor_step_tokens, plan))
