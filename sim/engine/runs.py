"""One task in any setup under a RunConfig: the dispatcher every table, study and panel goes through
(lesson 2; SB2 budgets lesson 3; the contract lesson 4; common draws lesson 5)."""

from sim.engine.common_draws import plan_execute_common, single_loop_common
from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED, RunConfig, run_config
from sim.engine.goals import budgeted_calls, goal_of
from sim.engine.loops import Run, plan_execute, single_loop
from sim.model.checks import check_margin, check_seed, check_setup
from sim.model.tasks import Task, check_task

LOOPS = {  # (setup, common_draws) -> the loop that runs it
    ("single-loop", False): single_loop,
    ("plan-execute", False): plan_execute,
    ("single-loop", True): single_loop_common,
    ("plan-execute", True): plan_execute_common,
}


def expected_calls(setup: str, task: Task) -> int | None:
    """SB2's expected calls for a task, without a run (`sim.engine.goals.budgeted_calls`), for tables: the
    split's plan is as long as the sequence (AA29), the single loop has the router's count for its
    request (RT1, RT2). A run itself budgets from the plan it was given (`Loop`, the batch's lanes)."""
    planned = len(task.sequence) if setup == "plan-execute" else None  # AA29, the planner
    return budgeted_calls(goal_of(task.request), planned)


def plan_length_budget(setup: str, task, margin: int, max_steps: int) -> int:
    """A task's own step budget under SB2 (lesson 3): min(max_steps, planning + expected calls + margin).

    Raises InputTypeError, InputError for a bad setup (a loop's), task, margin or bound."""
    setup = check_setup(setup, allowed=("single-loop", "plan-execute"))  # the contract plans its own steps
    task = check_task(task)
    return RunConfig(setup, max_steps, budget_margin=check_margin(margin)).task_budget(
        expected_calls(setup, task)  # AA29
    )


def run_with(config: RunConfig, task: Task, seed: int):
    """Run a checked task and seed under a RunConfig; a Run, or a ContractRun for the contract."""
    if config.setup == "contract":
        from sim.engine.contract import contract_run  # pydantic loads only when the contract runs

        return contract_run(task, seed, config)
    return LOOPS[config.setup, config.common_draws](task, seed, config)


def run_task(setup: str, task, seed: int, max_steps: int, **options) -> Run:
    """Run one task in the named setup with its options (`SETUP_OPTIONS`). Raises InputTypeError,
    InputError for bad input, or an option the setup does not have."""
    return run_with(run_config(setup, max_steps, **options), check_task(task), check_seed(seed))


def run_single_loop(
    task: Task | str, seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET, **options
) -> Run:
    """Run the single loop on one task (lesson 1), as `run_task("single-loop", ...)`; options as
    `run_config`. Raises InputTypeError, InputError for a bad task, seed, budget or option."""
    return run_task("single-loop", task, seed, max_steps, **options)


def run_plan_execute(
    task: Task | str, seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET, **options
) -> Run:
    """Run the planner/executor split on one task (lesson 2), as `run_task("plan-execute", ...)`; the
    planning step is one of max_steps. Raises InputTypeError, InputError for a bad task, seed, budget or option."""
    return run_task("plan-execute", task, seed, max_steps, **options)
