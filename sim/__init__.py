"""Agent loops, measured: the course's one simulator. FICTIONAL: no model, tool server or network.

Modules, each readable in one sitting (the world and the model first, then what runs them,
then what measures and shows them):

- errors: the course's error types for bad input (InputError, InputTypeError)
- checks: checks of seeds, budgets, tasks, setups, switches and counts
- draws: the seeded draw stream (one definition for ints and arrays), weighted pick, tokenizer, stream keys
- world: subscribers, tariff, documents, the five tools
- tasks: the 24 tasks and their correct answers
- picks: the fictional model's decisions: right pick by depth, stop share, the planner's plan
- costs: tokens per step, planner call and observation (AA28)
- config: RunConfig, the one checked run configuration, and which option fits which setup
- agents: the single loop and the planner/executor split, one engine (run_loop, take_step)
- common_draws: both loops on shared draws, common random numbers (rule CR1, lesson 5)
- plan_schema: the contract's plan DAG under pydantic, and validation (CT1, CT3, CT4)
- contract: the contract's run: preconditions, scratchpad, replanning, bounds (CT1-CT12)
- exits: exit states (CT12), stop reasons, exit-state tables
- runs: the dispatcher: one task in any setup
- messages: a loop run as the chat-API requests each step sends (OpenAI chat format, tool schemas)
- policy: your own agent: the policy interface (Observation -> tool or "stop"), the built-in loop as a policy
- harness: any policy, route or setup scored like the course's setups, on tuning and held-out seeds
- units: the counted units, defined once
- labels: names of setups and runs (A, B)
- measurement: Measurement (the counted units of a setup at a seed), plan accuracy
- tables: the seed's table and layout, walk-throughs, step tables
- outcomes: what became of each run (lesson 3)
- traces: right picks by depth, side-effect calls, the walk-through task (lesson 1)
- bands: the band rule (AA30)
- batch: many seeds at once, vectorised, equal to the one-seed path
- machine, lanes: the batch path's tool state machine; where its draws come from (AA22 or CR1)
- study: many-seed comparisons: differences and their intervals, band rule over seed pairs, pass^k
- intervals, power, clusters, reliability: t and bootstrap intervals and their coverage; power,
  sign and magnitude errors, A/A studies; task kinds; pass^k at trial counts, cost per success
- showcode: the code a lesson shows, whole functions from `sim`
- figures: saving the lessons' figures; figures_<lesson>: each lesson's figures
- panel: the generic control panel; panel_<lesson>: each lesson's view and panel
- exercises_<lesson>: checks of a lesson's exercises that say right or wrong, not the answer
- cli: `python -m sim`

`import sim` is quick: each name below is imported from its module on first use (PEP 562), so
the command line and a lesson load only what they need.
"""

from importlib import import_module
from importlib.util import find_spec

_EXPORTS = {
    "sim.agents": ("LoopStep", "Run", "ToolCall", "is_correct", "loop_steps", "run_plan_execute",
                   "run_single_loop"),
    "sim.bands": ("BandVerdict", "band_verdict", "compare_setups", "verdict_table"),
    "sim.batch": ("BatchRun", "SeedMeasurements", "measure_batch", "run_batch", "study_seeds"),
    "sim.harness": ("Route", "band_scores", "best_route", "cost_success", "entrant_run", "held_out_seeds",
                    "interval_growth", "kind_differences", "route", "score", "tokens_per_success", "tuning_seeds"),
    "sim.checks": ("SETUP_NAMES", "check_budget", "check_seed", "check_seeds", "check_setup"),
    "sim.config": ("DEFAULT_BUDGET", "DEFAULT_SEED", "RunConfig", "configs_for", "run_config"),
    "sim.errors": ("InputError", "InputTypeError"),
    "sim.labels": ("SETUP_LABELS", "run_label"),
    "sim.measurement": ("ContractCounts", "Measurement", "PlanAccuracy", "measure", "plan_accuracy"),
    "sim.outcomes": ("OUTCOMES", "outcome", "outcome_grid"),
    "sim.policy": ("Observation", "PolicyError", "run_policy"),
    "sim.picks": ("expected_right_share", "selection"),
    "sim.runs": ("plan_length_budget", "run_task"),
    "sim.showcode": ("code_of",),
    "sim.tables": ("FoldedTable", "folded_table", "format_plan_accuracy", "format_table", "format_trace", "loop_step_table", "seed_table",
                   "split_step_table"),
    "sim.tasks": ("TASKS", "TASK_NAMES", "Task", "check_task", "correct_answer"),
    "sim.traces": ("depth_picks", "recovery_task", "side_effect_calls"),
    "sim.units": ("UNITS", "UNIT_NAMES", "Unit"),
    "sim.world": ("SUBSCRIBERS", "TOOLS", "TOOL_NAMES", "WORLD_SEED", "call_tool", "charge"),
}  # fmt: skip
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    """Import an exported name from its module on first use (PEP 562); submodules as attributes."""
    module = _MODULE_OF.get(name)  # the export table first: no stray file can hide an export
    if module is None:
        if not name.startswith("_") and find_spec(f"sim.{name}") is not None:  # a submodule: sim.agents, ...
            return import_module(f"sim.{name}")
        raise AttributeError(f"module 'sim' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
