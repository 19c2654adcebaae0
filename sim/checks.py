"""Checks of what a student, an instructor or a script passes in: seeds, step budgets, tasks, setups.

Each check returns the clean value or raises InputTypeError (wrong kind of value, a TypeError)
or InputError (right kind, not allowed, a ValueError), with a message naming the parameter, the
value and what is allowed.
"""

import numbers

from sim.errors import InputError, InputTypeError
from sim.tasks import TASK_NAMES, TASKS, Task

SEED_LIMIT = 2**32
SETUP_NAMES = ("single-loop", "plan-execute", "contract")


def _is_integer(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_seed(seed: object, name: str = "seed") -> int:
    """Return `seed` as an int if it is an integer with 0 <= seed < 2**32 (bool is refused).

    Raises
    ------
    TypeError
        When `seed` is not an integer (floats, strings and bools included).
    ValueError
        When `seed` is outside 0 .. 2**32 - 1.
    """
    if not _is_integer(seed):
        raise InputTypeError(
            f"{name} must be an integer 0 <= {name} < 2**32, got {seed!r} ({type(seed).__name__})"
        )
    if not 0 <= seed < SEED_LIMIT:
        raise InputError(f"{name} must be an integer 0 <= {name} < 2**32, got {seed!r}")
    return int(seed)


def check_seeds(seeds: object, name: str = "seeds"):
    """Return `seeds` as a one-dimensional int64 array if every seed is an integer 0 <= seed < 2**32.

    Accepts a numpy integer array or a sequence of Python or numpy integers (bool is refused).

    Raises
    ------
    TypeError
        When `seeds` is not a sequence or array of integers.
    ValueError
        When it is empty or not one-dimensional, or a seed is outside 0 .. 2**32 - 1.
    """
    import numpy as np  # only the many-seed paths need numpy

    allowed = f"{name} must be a one-dimensional, non-empty sequence of integers 0 <= seed < 2**32"
    if isinstance(seeds, np.ndarray):
        if seeds.dtype.kind not in "iu":
            raise InputTypeError(f"{allowed}, got an array of dtype {seeds.dtype}")
        array = seeds
    else:
        if isinstance(seeds, str | bytes | dict | set) or not hasattr(seeds, "__iter__"):
            raise InputTypeError(f"{allowed}, got {seeds!r} ({type(seeds).__name__})")
        values = list(seeds)
        wrong = [value for value in values if not _is_integer(value)]
        if wrong:
            wrong = wrong[0]
            raise InputTypeError(f"{allowed}, got the element {wrong!r} ({type(wrong).__name__})")
        array = np.array([int(value) for value in values], dtype=object)
    if array.ndim != 1 or array.size == 0:
        raise InputError(f"{allowed}, got shape {array.shape}")
    outside = (array < 0) | (array >= SEED_LIMIT)
    if outside.any():
        raise InputError(f"{allowed}, got {array[np.argmax(outside)]!r}")
    return array.astype(np.int64)


def check_count(value: object, name: str, minimum: int, label: str = "", unit: str = "") -> int:
    """Return `value` as an int if it is an integer >= `minimum` (bool is refused).

    Parameters
    ----------
    value : object
        What was passed in.
    name : str
        The parameter's name, for the message.
    minimum : int
        The smallest value allowed.
    label, unit : str
        Words for the message, after the name and after the minimum, e.g. " (the step budget)"
        and " (steps)".

    Raises
    ------
    TypeError
        When `value` is not an integer.
    ValueError
        When `value` is below `minimum`.
    """
    allowed = f"{name}{label} must be an integer >= {minimum}{unit}"
    if not _is_integer(value):
        raise InputTypeError(f"{allowed}, got {value!r} ({type(value).__name__})")
    if value < minimum:
        raise InputError(f"{allowed}, got {value!r}")
    return int(value)


def check_budget(max_steps: object, name: str = "max_steps") -> int:
    """Return the step budget (steps) as an int if it is an integer >= 1 (bool is refused).

    Raises
    ------
    TypeError
        When the budget is not an integer.
    ValueError
        When the budget is below 1.
    """
    return check_count(max_steps, name, 1, label=" (the step budget)")


def check_task(task: object, name: str = "task") -> Task:
    """Return the Task for a task name G01..G24 (or a Task of the course's task set).

    Raises
    ------
    TypeError
        When `task` is neither a string nor a Task.
    ValueError
        When no task has that name.
    """
    if isinstance(task, Task) and task in TASKS:
        return task
    if not isinstance(task, str):
        raise InputTypeError(f"{name} must be a task name G01..G24, got {task!r} ({type(task).__name__})")
    if task not in TASK_NAMES:
        raise InputError(f"{name} must be one of G01..G24, got {task!r}")
    return TASKS[TASK_NAMES.index(task)]


def check_setup(setup: object, name: str = "setup", allowed: tuple[str, ...] = SETUP_NAMES) -> str:
    """Return `setup` if it is one of the known setup names.

    Raises
    ------
    TypeError
        When `setup` is not a string.
    ValueError
        When `setup` is not one of `allowed`.
    """
    if not isinstance(setup, str):
        raise InputTypeError(
            f"{name} must be one of {', '.join(allowed)}, got {setup!r} ({type(setup).__name__})"
        )
    if setup not in allowed:
        raise InputError(f"{name} must be one of {', '.join(allowed)}, got {setup!r}")
    return setup


def check_switch(value: object, name: str) -> bool:
    """Return a True/False switch; anything but a bool raises TypeError naming the switch."""
    if not isinstance(value, bool):
        raise InputTypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")
    return value


def check_margin(margin: object, name: str = "budget_margin") -> int:
    """Return a budget margin (steps) as an int if it is an integer >= 0 (bool is refused; lesson 3, SB2).

    Raises
    ------
    TypeError
        When the margin is not an integer.
    ValueError
        When the margin is negative.
    """
    return check_count(margin, name, 0, unit=" (steps)")
