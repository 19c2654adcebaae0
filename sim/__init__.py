"""Agent loops, measured: the course's one simulator. FICTIONAL: no model, tool server or network.

Layers, each a folder; a module imports only from its own layer or below (tests/test_structure.py):

- model: the world, the 24 tasks, the draw stream, the fictional model's picks and its costs, the
  input checks (the source's rules: the model's given skill)
- engine: the loops, the contract's runtime, the policy interface, the run dispatcher, one run's
  configuration and names (the scaffolding under study)
- measurement: measurement of setups over seeds, the batch paths, bands, statistics, the harness
- presentation: tables, figures, panels, the notebook save hook
- exercises: checks of each lesson's exercises; chat: the chat-API bridge; cli: `python -m sim`

`import sim` gives the model's and the engine's names (standard library and pydantic only); the
layers above from their modules: `from sim.measurement.counts import measure`.
"""

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED, RunConfig, configs_for, run_config
from sim.engine.labels import SETUP_LABELS, run_label
from sim.engine.loops import (
    LoopStep,
    Run,
    ToolCall,
    is_correct,
    loop_steps,
)
from sim.engine.policy import Observation, PolicyError, run_policy
from sim.engine.runs import plan_length_budget, run_plan_execute, run_single_loop, run_task
from sim.engine.units import UNIT_NAMES, UNITS, Unit
from sim.model.checks import SETUP_NAMES, check_budget, check_seed, check_seeds, check_setup
from sim.model.errors import InputError, InputTypeError
from sim.model.picks import expected_right_share, selection
from sim.model.tasks import TASK_NAMES, TASKS, Task, check_task, correct_answer
from sim.model.world import SUBSCRIBERS, TOOL_NAMES, TOOLS, WORLD_SEED, call_tool, charge

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_SEED",
    "InputError",
    "InputTypeError",
    "LoopStep",
    "Observation",
    "PolicyError",
    "Run",
    "RunConfig",
    "SETUP_LABELS",
    "SETUP_NAMES",
    "SUBSCRIBERS",
    "TASKS",
    "TASK_NAMES",
    "TOOLS",
    "TOOL_NAMES",
    "Task",
    "ToolCall",
    "UNITS",
    "UNIT_NAMES",
    "Unit",
    "WORLD_SEED",
    "call_tool",
    "charge",
    "check_budget",
    "check_seed",
    "check_seeds",
    "check_setup",
    "check_task",
    "configs_for",
    "correct_answer",
    "expected_right_share",
    "is_correct",
    "loop_steps",
    "plan_length_budget",
    "run_config",
    "run_label",
    "run_plan_execute",
    "run_policy",
    "run_single_loop",
    "run_task",
    "selection",
]
