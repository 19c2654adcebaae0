"""Lesson 8's exercise checks, one a pattern, each prefixed with its pattern's name. Each says right or
wrong, never the answer (the reference: the functions of `sim.measurement.reflection_flips`)."""

from collections.abc import Callable

from sim.engine.runs import run_task
from sim.exercises.step_budget import NotAnswered, answered
from sim.measurement.reflection_flips import reflection_flips
from sim.model.checks import check_seed
from sim.model.errors import InputTypeError
from sim.model.reflection import REFLECTION_KINDS
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen

REFLECTION_BUDGET = 8  # the lesson's budget (steps)
REFLECTION_SETUPS = ("single-loop", "plan-execute")


def reflection_runs(seed: int) -> list:
    """The runs the reflection exercise counts: both loops, both reflection rules (RF1, RF2), every
    task at `seed`, budget 8. Raises for a bad seed."""
    seed = check_seed(seed)
    return [run_task(setup, task, seed, REFLECTION_BUDGET, reflection=kind)
            for setup in REFLECTION_SETUPS for kind in REFLECTION_KINDS for task in TASKS]  # fmt: skip


@fits_the_screen
def reflection_check_flips(seed: int, count_flips: Callable) -> str:
    """The reflection exercise: `count_flips(run)` -> (wrong to right, right to wrong) read from a run's
    step log, on every run of `reflection_runs(seed)`, against `reflection_flips`; names the first run
    it miscounts, not by how much. Raises for a bad seed or a count_flips that is not callable."""
    if not callable(count_flips):
        raise InputTypeError(f"count_flips must be a function of a run, got {type(count_flips).__name__}")
    seed, count = check_seed(seed), answered(count_flips)
    for run in reflection_runs(seed):
        try:
            given = count(run)
        except NotAnswered:
            return "not answered yet: write the body of count_flips and run the check again"
        if (tuple(given) if isinstance(given, list | tuple) else given) != reflection_flips(run):
            where = f"{run.setup}, reflection {run.config.reflection}, task {run.task}"
            return (f"wrong: at seed {seed} your counts for the run ({where}) are not its flips; "
                    "compare each step's revised_from and tool with its target (skip steps not revised)")  # fmt: skip
    return f"right: at seed {seed} your function counts the flips of every run"
