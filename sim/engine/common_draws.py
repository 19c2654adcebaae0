"""Common random numbers: the two loop setups on shared draws, one seed at a time (rule CR1, lesson 5).

The seed's own rule (AA22) gives each setup a stream of its own: the single loop draws from a
stream keyed by the seed and the task, the split from one keyed by the seed and "plan" + the
task. Two setups run "at the same seed" therefore share no draw. Under the course's option
`common_draws` (off by default) both setups take the same draw for the same decision:

CR1. Every pick aimed at position p of a task's sequence (p = 1..length, and length + 1 for a
     finished agent's decision to stop) draws from a stream of its own, keyed by the seed, the
     task and p (`sim.model.draws.stream_key(..., position=p)`), the same stream in both setups. The
     a-th pick aimed at p in a run takes that stream's draws 2a - 1 and 2a, whether it needs one
     or both (`sim.model.draws.pick_draws`): the first decides (right pick, or stop), the second picks
     the random tool. The split's planner writes the first pick aimed at each position; the
     executor's own picks, once the plan is used up, are the later picks at their positions.

So the single loop's first pick at p and the plan's position p take the same draw: where the
single loop picks right (draw below selection(p)) the planner does too (selection(1) is the
largest share). The picks, costs and the loop engine are those of `sim.model.picks`, `sim.model.costs` and
`sim.engine.loops`, unchanged; only where the draws come from differs. `sim.measurement.batch` applies the same
rule to arrays and is proven equal to this path (tests/test_batch.py).
"""

from sim.engine.config import PLANNING_STEPS, RunConfig
from sim.engine.loops import Run, run_loop
from sim.model.costs import executor_step_tokens, loop_step_tokens, planner_tokens
from sim.model.draws import PositionDraws
from sim.model.errors import InputError
from sim.model.picks import executor_pick, single_loop_pick, write_plan
from sim.model.tasks import Task


def _loop_pick(target, depth, draws: PositionDraws, _trace_length):
    return single_loop_pick(target, depth, draws.pick(depth))


def single_loop_common(task: Task, seed: int, config: RunConfig) -> Run:
    """The single loop on a checked task, seed and config under common draws (CR1): each step's
    pick draws from the stream of the position it aims at."""
    return run_loop(task, seed, config, PositionDraws(seed, task.name), _loop_pick, loop_step_tokens)


def common_plan(task: Task, draws: PositionDraws) -> tuple[str, ...]:
    """The planner's plan under common draws (CR1): `sim.model.picks.write_plan` for each position p of
    the task's sequence, with the draws of the first pick aimed at p."""
    return tuple(
        write_plan((wanted,), draws.pick(position))[0] for position, wanted in enumerate(task.sequence, 1)
    )


def plan_execute_common(task: Task, seed: int, config: RunConfig) -> Run:
    """The planner/executor split on a checked task, seed and config under common draws (CR1):
    the plan as `common_plan`, then the executor as in `sim.engine.loops.plan_execute` (AA26, AA27),
    its own picks drawing from the stream of the position they aim at."""
    draws = PositionDraws(seed, task.name)
    plan = common_plan(task, draws)

    def pick(target, depth, draws, trace_length):
        return executor_pick(plan, trace_length, target, depth, draws.pick(depth))

    planning = PLANNING_STEPS["plan-execute"]  # the planner's one call is a step (AA25)
    return run_loop(task, seed, config, draws, pick, executor_step_tokens, steps=planning,
                    tokens=planner_tokens(len(plan)), plan=plan)  # fmt: skip


def run_common(task: Task, seed: int, config: RunConfig) -> Run:
    """A loop setup's run under common draws (CR1) on a checked task, seed and config.

    Raises
    ------
    InputError
        For a config without `common_draws`, or of a setup that does not have it (the contract).
    """
    engines = {"single-loop": single_loop_common, "plan-execute": plan_execute_common}
    if not config.common_draws or config.setup not in engines:
        raise InputError(f"config must be a loop setup's RunConfig with common_draws=True, got {config!r}")
    return engines[config.setup](task, seed, config)
