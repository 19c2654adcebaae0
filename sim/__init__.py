"""Agent loops, measured: the course's one simulator. FICTIONAL: no model, tool server or network.

Modules, each readable in one sitting:
- draws: the seeded draw stream, weighted pick, tokenizer, trace id
- world: subscribers, tariff, documents, the five tools
- tasks: the 24 tasks and their correct answers
- agents: the single loop (and its step records) and the planner/executor split
- contract: the planner-executor contract (plan schema, validation, replanning, bounds, exit states)
- measure: counted units, plan accuracy, the seed's table, right picks by depth, outcomes
- bands: the band rule (AA30)
- batch: many seeds at once, vectorised, equal to the one-seed path
- study: many-seed statistics: paired bootstrap intervals, band rule over seed pairs, pass^k
- checks: validation of seeds, budgets, tasks, setups
"""

from sim.agents import (
    DEFAULT_BUDGET,
    DEFAULT_SEED,
    LoopStep,
    Run,
    ToolCall,
    expected_right_share,
    is_correct,
    loop_steps,
    run_plan_execute,
    run_single_loop,
    selection,
)
from sim.bands import BandVerdict, band_verdict, compare_setups, verdict_table
from sim.batch import BatchRun, SeedMeasurements, measure_batch, run_batch, study_seeds
from sim.checks import SETUP_NAMES, check_budget, check_seed, check_seeds, check_setup, check_task
from sim.measure import (
    SETUP_LABELS,
    Measurement,
    PlanAccuracy,
    depth_picks,
    format_plan_accuracy,
    format_table,
    format_trace,
    loop_step_table,
    measure,
    measurement_frame,
    plan_accuracy,
    plan_length_budget,
    recovery_task,
    run_label,
    run_task,
    seed_table,
    side_effect_calls,
    split_step_table,
)
from sim.tasks import TASK_NAMES, TASKS, Task, correct_answer
from sim.world import SUBSCRIBERS, TOOL_NAMES, TOOLS, WORLD_SEED, call_tool, charge

__all__ = [
    "DEFAULT_BUDGET", "DEFAULT_SEED", "SETUP_NAMES", "SUBSCRIBERS", "TASKS", "TASK_NAMES",
    "TOOLS", "TOOL_NAMES", "WORLD_SEED", "BandVerdict", "Measurement", "PlanAccuracy", "Run", "SETUP_LABELS",
    "Task", "ToolCall", "band_verdict", "call_tool", "charge", "check_budget", "check_seed",
    "check_setup", "check_task", "compare_setups", "correct_answer", "format_plan_accuracy",
    "format_table", "format_trace", "is_correct", "measure", "measurement_frame",
    "plan_accuracy", "plan_length_budget", "run_label", "run_plan_execute", "run_single_loop", "run_task",
    "seed_table", "selection", "verdict_table", "LoopStep", "depth_picks", "expected_right_share", "loop_steps",
    "recovery_task", "side_effect_calls", "loop_step_table", "split_step_table",
    "BatchRun", "SeedMeasurements", "check_seeds", "measure_batch", "run_batch", "study_seeds",
]  # fmt: skip
