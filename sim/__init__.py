"""Agent loops, measured: the course's one simulator. FICTIONAL: no model, tool server or network.

Modules, each readable in one sitting:
- draws: the seeded draw stream, weighted pick, tokenizer, trace id
- world: subscribers, tariff, documents, the five tools
- tasks: the 24 tasks and their correct answers
- agents: the single loop and the planner/executor split
- measure: counted units, plan accuracy, the seed's table
- bands: the band rule (AA30)
- batch: many seeds at once, vectorised, equal to the one-seed path
- study: many-seed statistics: paired bootstrap intervals, band rule over seed pairs, pass^k
- checks: validation of seeds, budgets, tasks, setups
"""

from sim.agents import (
    DEFAULT_BUDGET,
    DEFAULT_SEED,
    Run,
    ToolCall,
    is_correct,
    run_plan_execute,
    run_single_loop,
    selection,
)
from sim.bands import BandVerdict, band_verdict, compare_setups, verdict_table
from sim.batch import BatchRun, SeedMeasurements, measure_batch, run_batch, study_seeds
from sim.checks import SETUP_NAMES, check_budget, check_seed, check_seeds, check_setup, check_task
from sim.measure import (
    Measurement,
    PlanAccuracy,
    format_plan_accuracy,
    format_table,
    format_trace,
    measure,
    measurement_frame,
    plan_accuracy,
    run_label,
    run_task,
    seed_table,
)
from sim.tasks import TASK_NAMES, TASKS, Task, correct_answer
from sim.world import SUBSCRIBERS, TOOL_NAMES, TOOLS, WORLD_SEED, call_tool, charge

__all__ = [
    "DEFAULT_BUDGET", "DEFAULT_SEED", "SETUP_NAMES", "SUBSCRIBERS", "TASKS", "TASK_NAMES",
    "TOOLS", "TOOL_NAMES", "WORLD_SEED", "BandVerdict", "BatchRun", "Measurement", "PlanAccuracy",
    "Run", "SeedMeasurements", "Task", "ToolCall", "band_verdict", "call_tool", "charge",
    "check_budget", "check_seed", "check_seeds", "check_setup", "check_task", "compare_setups",
    "correct_answer", "format_plan_accuracy", "format_table", "format_trace", "is_correct",
    "measure", "measure_batch", "measurement_frame", "plan_accuracy", "run_batch", "run_label",
    "run_plan_execute", "run_single_loop", "run_task", "seed_table", "selection", "study_seeds",
    "verdict_table",
]  # fmt: skip
