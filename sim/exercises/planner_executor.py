"""The checks of lesson 2's coding exercises, for a seed the student chooses: a band verdict the student's
own function computes from two runs, and the chance of a fully right plan predicted from the pick rule.
Each check says right or wrong, and what is off, never the answer; the reference answers
(`band_verdicts`, `plan_chance`) go into INSTRUCTORS.md through scripts/make_answer_key.py.
"""

from collections.abc import Callable

import numpy as np

from sim.engine.units import UNITS
from sim.exercises.single_loop import chance_verdict
from sim.measurement.bands import compare_setups
from sim.measurement.counts import measure
from sim.model.checks import check_integer
from sim.model.errors import InputTypeError
from sim.model.picks import expected_right_share
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen

PAIRS = 5  # seed pairs the band-verdict check runs: (seed, seed + 1), (seed + 2, seed + 3), ...
PLAN_TASKS = 4  # tasks the student's seed names for the plan-chance exercise
VERDICTS = ("measured", "unmeasured")


def _seed(seed: object) -> int:
    return check_integer(seed, "seed", 0, 2**32 - 2 * PAIRS)


def band_cases(seed: int) -> list[tuple[tuple[int, int], str, list[int], list[int]]]:
    """The cases exercise 5 of lesson 2 checks: for each of PAIRS seed pairs from `seed` (runs seed,
    seed + 1; seed + 2, seed + 3; ...), each counted unit's exact counts for the single loop (first) and
    the split (second) at budget 8, as (runs, unit, first, second). Raises for a bad seed."""
    seed, cases = _seed(seed), []
    for k in range(PAIRS):
        runs = (seed + 2 * k, seed + 2 * k + 1)
        single = [measure("single-loop", s, 8) for s in runs]
        split = [measure("plan-execute", s, 8) for s in runs]
        for unit in UNITS:
            cases.append((runs, unit.name, [getattr(m, unit.count) for m in single],
                          [getattr(m, unit.count) for m in split]))  # fmt: skip
    return cases


def band_verdicts(seed: int) -> list[str]:
    """Exercise 5's answers: the band rule's verdict ("measured" or "unmeasured") for each case of
    `band_cases(seed)`, in order, from `compare_setups`. Raises for a bad seed."""
    seed, verdicts = _seed(seed), []
    for k in range(PAIRS):
        runs = (seed + 2 * k, seed + 2 * k + 1)
        single = [measure("single-loop", s, 8) for s in runs]
        split = [measure("plan-execute", s, 8) for s in runs]
        verdicts += [v.verdict for v in compare_setups(single, split)]
    return verdicts


@fits_the_screen
def check_band_verdict(seed: int, function: Callable) -> str:
    """Lesson 2, exercise 5: `function(first, second)` takes one unit's exact counts in the two setups
    (one value a run, two runs) and returns "measured" or "unmeasured" by the band rule. The check
    runs it on every unit at PAIRS seed pairs from `seed` and returns "right: ...", "wrong: ..." naming
    the first case it gets wrong, or "not answered yet" (the function returns None); never a verdict.

    Raises InputTypeError / InputError for a function that is not callable or a bad seed."""
    if not callable(function):
        raise InputTypeError(f"function must be a function of (first, second), got {type(function).__name__}")
    seed = _seed(seed)
    for (runs, unit, first, second), wanted in zip(band_cases(seed), band_verdicts(seed), strict=True):
        given = function(list(first), list(second))
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
    """The tasks exercise 6 of lesson 2 names for `seed`: PLAN_TASKS distinct tasks drawn with a numpy
    Generator seeded with `seed`, in the course's order. Raises for a bad seed."""
    chosen = np.random.default_rng(_seed(seed)).choice(len(TASKS), PLAN_TASKS, replace=False)
    return [TASKS[i].name for i in sorted(chosen)]


def plan_chance(seed: int) -> float:
    """Exercise 6's answer: by the pick rule, the chance that the planner's plans for all of
    `plan_tasks(seed)` are fully right at one seed (every position right with share
    expected_right_share(1), positions and plans independent). Raises for a bad seed."""
    by_name = {task.name: task for task in TASKS}
    positions = sum(len(by_name[name].sequence) for name in plan_tasks(seed))
    return expected_right_share(1) ** positions


@fits_the_screen
def check_plan_chance(seed: int, answer: object = None) -> str:
    """Lesson 2, exercise 6: the student's chance (a share in [0, 1], unrounded; within CHANCE_TOLERANCE) that all
    the plans for `plan_tasks(seed)` are fully right. Returns "right: ...", "not right: ..." (too high
    or too low, with a hint) or "not answered yet"; never the chance itself.

    Raises InputTypeError / InputError for a bad seed or an answer that is not a number."""
    too_high = (
        "does every position of every plan count, and does a position's share include only the "
        "right draw and the lucky random pick of the right tool?"
    )
    return chance_verdict(answer, plan_chance(seed), too_high)
