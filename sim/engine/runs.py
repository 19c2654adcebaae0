"""One task in any setup: the dispatcher every table, study and panel goes through.

It takes a checked RunConfig (`sim.engine.config`) and hands it to the setup's engine: the loops of
`sim.engine.loops` or the contract of `sim.engine.contract`. Introduced in lesson 2; the stopping rule's
budget (SB2) in lesson 3; the contract in lesson 4; common draws (CR1) in lesson 5.
"""

from sim.engine.common_draws import run_common
from sim.engine.config import RunConfig, run_config
from sim.engine.loops import Run, plan_execute, single_loop
from sim.model.checks import check_margin, check_seed, check_setup
from sim.model.tasks import Task, check_task


def plan_length_budget(setup: str, task, margin: int, max_steps: int) -> int:
    """A task's own step budget under lesson 3's rule SB2.

    Parameters
    ----------
    setup : str
        "single-loop" or "plan-execute" (the split adds 1 step for planning).
    task : Task | str
        The task or its name.
    margin : int
        Steps allowed for wrong picks, >= 0.
    max_steps : int
        The hard bound (steps), >= 1.

    Returns
    -------
    int
        min(max_steps, planning + sequence length + margin), in steps.

    Raises
    ------
    TypeError, ValueError
        For a bad setup, task, margin or bound.
    """
    setup = check_setup(setup, allowed=("single-loop", "plan-execute"))  # the contract plans its own steps
    task = check_task(task)
    return RunConfig(setup, max_steps, budget_margin=check_margin(margin)).task_budget(len(task.sequence))


def task_config(config: RunConfig, task: Task) -> RunConfig:
    """The configuration one task runs with: the budget, or the task's own SB2 budget (lesson 3).
    The config itself when the budget is unchanged (it is frozen), so no second check is made."""
    budget = config.task_budget(len(task.sequence))
    return config if budget == config.budget else config.with_budget(budget)


def run_with(config: RunConfig, task: Task, seed: int):
    """Run a checked task and seed under a checked RunConfig; returns a Run or a ContractRun."""
    if config.setup == "contract":
        from sim.engine.contract import contract_run  # the contract (and pydantic) only when it runs

        return contract_run(task, seed, config)
    config = task_config(config, task)
    if config.common_draws:  # rule CR1, lesson 5
        return run_common(task, seed, config)
    loop = single_loop if config.setup == "single-loop" else plan_execute
    return loop(task, seed, config)


def run_task(setup: str, task, seed: int, max_steps: int, self_critique: bool = False, approval: bool = False,
             stop_when_done: bool = False, **options) -> Run:  # fmt: skip
    """Run one task in the named setup.

    Parameters
    ----------
    setup : str
        "single-loop", "plan-execute" or "contract".
    task : Task | str
        The task or its name, G01..G24.
    seed : int
        Run seed, 0 <= seed < 2**32.
    max_steps : int
        Step budget (steps), >= 1.
    self_critique, approval : bool
        The single loop's switches (lesson 1).
    stop_when_done : bool
        Lesson 3's stopping criterion (SB1), for the loops.
    **options
        The setup's other options (see `sim.engine.config.SETUP_OPTIONS`): budget_margin (the loops,
        lesson 3); common_draws (the loops, rule CR1, lesson 5); max_replans, max_tokens and
        max_seconds (contract, rule CT11, lesson 4); lookalike (every setup, the course's rule LA1,
        lesson 4).

    Returns
    -------
    Run, or ContractRun for setup "contract"

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for bad input, and for an option asked of a setup that has none.
    """
    config = run_config(setup, max_steps, self_critique=self_critique, approval=approval,
                        stop_when_done=stop_when_done, **options)  # fmt: skip
    return run_with(config, check_task(task), check_seed(seed))
