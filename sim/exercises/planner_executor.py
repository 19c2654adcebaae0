"""Lesson 2's exercise checks: a band verdict the student's function computes from two runs, and the
chance of fully right plans by the pick rule. Each says right or wrong, never the answer (the
answers: scripts/make_answer_key.py)."""

from collections.abc import Callable

import numpy as np

from sim.engine.units import UNITS
from sim.exercises.single_loop import chance_verdict
from sim.measurement.bands import band_verdict
from sim.measurement.counts import measure
from sim.model.checks import SEED_LIMIT, check_integer
from sim.model.errors import InputTypeError
from sim.model.picks import expected_right_share
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen

PAIRS = 5  # seed pairs the band-verdict check runs: (seed, seed + 1), (seed + 2, seed + 3), ...
PLAN_TASKS = 4  # tasks the student's seed names for the plan-chance exercise
VERDICTS = ("measured", "unmeasured")


def _seed(seed: object) -> int:
    return check_integer(seed, "seed", 0, SEED_LIMIT - 2 * PAIRS)  # room for the PAIRS pairs


def band_cases(seed: int) -> list[tuple[tuple[int, int], str, list[int], list[int]]]:
    """Exercise 1's cases: (runs, unit, single-loop counts, split counts) for each of the PAIRS seed
    pairs from `seed` and each unit, budget 8."""
    cases, seed = [], _seed(seed)
    for runs in ((seed + 2 * k, seed + 2 * k + 1) for k in range(PAIRS)):
        single = [measure("single-loop", s, 8) for s in runs]
        split = [measure("plan-execute", s, 8) for s in runs]
        for unit in UNITS:
            cases.append((runs, unit.name, [getattr(m, unit.count) for m in single],
                          [getattr(m, unit.count) for m in split]))  # fmt: skip
    return cases


def band_verdicts(seed: int) -> list[str]:
    """Exercise 1's answers: the band rule's verdict for each case of `band_cases(seed)`, in order."""
    return [band_verdict(unit, first, second).verdict for _, unit, first, second in band_cases(seed)]


@fits_the_screen
def check_band_verdict(seed: int, function: Callable) -> str:
    """Exercise 1: `function(first, second)` gives "measured" or "unmeasured" for one unit's exact
    counts (two runs a setup); names the first case it gets wrong. Raises for a bad seed or a
    function that is not callable."""
    if not callable(function):
        raise InputTypeError(f"function must be a function of (first, second), got {type(function).__name__}")
    seed = _seed(seed)
    for runs, unit, first, second in band_cases(seed):
        given, wanted = function(list(first), list(second)), band_verdict(unit, first, second).verdict
        if given is None:
            return "not answered yet: write the body of your function and run the check again"
        if given not in VERDICTS:
            return f'wrong: your function returned {given!r}; it must return "measured" or "unmeasured"'
        if given != wanted:
            return (f"wrong: for {unit} at runs {runs[0]} and {runs[1]} (single loop {first}, split {second}) "
                    f"your function says {given}; compare the difference on every run with the larger of the "
                    "two setups' run-to-run differences, in exact counts")  # fmt: skip
    return (
        f"right: your function agrees with the band rule on all {PAIRS * len(UNITS)} cases from seed {seed}"
    )


def plan_tasks(seed: int) -> list[str]:
    """Exercise 6's PLAN_TASKS distinct tasks for `seed` (numpy Generator), in the course's order."""
    chosen = np.random.default_rng(_seed(seed)).choice(len(TASKS), PLAN_TASKS, replace=False)
    return [TASKS[i].name for i in sorted(chosen)]


def plan_chance(seed: int) -> float:
    """Exercise 6's answer: the chance that every plan for `plan_tasks(seed)` is fully right, each
    position right with share expected_right_share(1), independently."""
    chosen = plan_tasks(seed)
    positions = sum(len(task.sequence) for task in TASKS if task.name in chosen)
    return expected_right_share(1) ** positions


@fits_the_screen
def check_plan_chance(seed: int, answer: object = None) -> str:
    """Exercise 6: the student's chance, unrounded, within CHANCE_TOLERANCE; a wrong one gets the same
    hint of the method whichever side it lies on. Raises for a bad seed or an answer that is not a number."""
    wanted = plan_chance(seed)
    hint = (
        "count every position of every one of your plans; each position is right with the "
        "flat draw's share plus the lucky random pick of the right tool, independently of the others"
    )
    return chance_verdict(answer, wanted, hint, direction=False)
