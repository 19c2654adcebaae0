"""Checks of what a student, an instructor or a script passes in, used where input enters. Each returns
the clean value or raises InputTypeError (wrong kind) or InputError (not allowed), naming the
parameter, the value and what is allowed."""

import numbers
import re
from collections.abc import Iterable

from sim.model.errors import InputError, InputTypeError

SEED_LIMIT = 2**32  # the seed range rule, written once: 0 <= seed < SEED_LIMIT
SETUP_NAMES = ("single-loop", "plan-execute", "contract")


def _is_integer(value: object) -> bool:
    return type(value) is int or (isinstance(value, numbers.Integral) and not isinstance(value, bool))


def seed_range(name: str = "seed") -> str:
    """The seed range rule in words, as messages give it: "0 <= seed < 2**32"."""
    return f"0 <= {name} < 2**32"


def check_seed(seed: object, name: str = "seed") -> int:
    """`seed` as an int if it is an integer in the seed range (bool is refused)."""
    allowed = f"{name} must be an integer {seed_range(name)}"
    if not _is_integer(seed):
        raise InputTypeError(f"{allowed}, got {seed!r} ({type(seed).__name__})")
    if not 0 <= seed < SEED_LIMIT:
        raise InputError(f"{allowed}, got {seed!r}")
    return int(seed)


def check_seeds(seeds: object, name: str = "seeds"):
    """`seeds` (an integer array or a sequence of integers) as a one-dimensional int64 array, each in the
    seed range, none repeated."""
    import numpy as np  # only the many-seed paths need numpy

    allowed = f"{name} must be a one-dimensional, non-empty sequence of integers {seed_range()}"
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
    array = array.astype(np.int64)
    values, counts = np.unique(array, return_counts=True)
    if (counts > 1).any():
        raise InputError(
            f"{name} must not repeat (each seed is one run), got {values[np.argmax(counts > 1)]} twice"
        )
    return array


def check_count(value: object, name: str, minimum: int, label: str = "", unit: str = "") -> int:
    """`value` as an int if it is an integer >= `minimum`; `label` and `unit` are words for the message
    after the name and after the minimum (" (the step budget)", " (steps)")."""
    allowed = f"{name}{label} must be an integer >= {minimum}{unit}"
    if not _is_integer(value):
        raise InputTypeError(f"{allowed}, got {value!r} ({type(value).__name__})")
    if value < minimum:
        raise InputError(f"{allowed}, got {value!r}")
    return int(value)


def check_budget(max_steps: object, name: str = "max_steps") -> int:
    """The step budget (steps) as an int if it is an integer >= 1."""
    return check_count(max_steps, name, 1, label=" (the step budget)")


def check_setup(setup: object, name: str = "setup", allowed: tuple[str, ...] = SETUP_NAMES) -> str:
    """`setup` if it is one of the `allowed` setup names."""
    return check_choice(setup, name, allowed)


def check_switch(value: object, name: str) -> bool:
    """A True/False switch; anything but a bool is refused."""
    if not isinstance(value, bool):
        raise InputTypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")
    return value


def check_margin(margin: object, name: str = "budget_margin") -> int:
    """A budget margin (steps, SB2, lesson 3) as an int if it is an integer >= 0."""
    return check_count(margin, name, 0, unit=" (steps)")


def check_integer(value: object, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """`value` as an int if it is an integer in [minimum, maximum] (a bound of None: no bound)."""
    if not _is_integer(value):
        raise InputTypeError(
            f"{_integer_allowed(name, minimum, maximum)}, got {value!r} ({type(value).__name__})"
        )
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise InputError(f"{_integer_allowed(name, minimum, maximum)}, got {value!r}")
    return int(value)


def _integer_allowed(name: str, minimum: int | None, maximum: int | None) -> str:
    low = "" if minimum is None else f"{minimum} <= "
    high = "" if maximum is None else f" <= {maximum}"
    return f"{name} must be an integer" + (f" {low}{name}{high}" if low or high else "")


def check_instance(value: object, kind: type | tuple, name: str, what: str) -> object:
    """`value` if it is an instance of `kind`; `what` says what it must be ("a Run from sim.run_task")."""
    if not isinstance(value, kind):
        raise InputTypeError(f"{name} must be {what}, got {type(value).__name__} {_shown(value)}")
    return value


def check_items(values: object, kind: type | tuple, name: str, what: str, minimum: int = 0) -> list:
    """`values` as a list if it is a sequence (not a string) of at least `minimum` instances of `kind`."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise InputTypeError(
            f"{name} must be a sequence of {what}, got {type(values).__name__} {_shown(values)}"
        )
    values = list(values)
    wrong = [v for v in values if not isinstance(v, kind)]
    if wrong:
        raise InputTypeError(f"{name} must be a sequence of {what}, got an element {type(wrong[0]).__name__}")
    if len(values) < minimum:
        raise InputError(f"{name} must hold at least {minimum} of {what}, got {len(values)}")
    return values


WHOLE_NUMBER = re.compile(r"-?[0-9]+")


def parse_whole_number(text: object, name: str) -> int:
    """A number typed as text in the CLI or a panel: the digits 0-9, a minus may lead, spaces around
    are trimmed; "+5", "1_000", "1.0", "1e3" and other scripts' digits are refused (InputTypeError)."""
    if not isinstance(text, str):
        raise InputTypeError(f"{name} must be a whole number as text, got {type(text).__name__}")
    stripped = text.strip()
    if not WHOLE_NUMBER.fullmatch(stripped):
        raise InputTypeError(
            f"{name} must be a whole number, got {_shown(text)}: the digits 0-9 only (a minus may lead)"
        )
    return int(stripped)


def _shown(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def check_choice(value: object, name: str, allowed: tuple[str, ...]) -> str:
    """`value` if it is one of the strings `allowed`."""
    if not isinstance(value, str):
        raise InputTypeError(
            f"{name} must be one of {', '.join(allowed)}, got {value!r} ({type(value).__name__})"
        )
    if value not in allowed:
        raise InputError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def check_share(value: object, name: str) -> float:
    """`value` as a float if it is a number strictly between 0 and 1 (a confidence, a power, a share)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputTypeError(
            f"{name} must be a number strictly between 0 and 1, got {value!r} ({type(value).__name__})"
        )
    if not 0 < value < 1:
        raise InputError(f"{name} must be a number strictly between 0 and 1, got {value!r}")
    return float(value)


def check_values(values: object, name: str, ndim: int | None = 1, minimum: int = 2):
    """`values` as a float array of finite numbers with `ndim` dimensions (None: 1 or more) and at
    least `minimum` along its last axis (bools count as 0 and 1)."""
    import numpy as np  # only the many-seed statistics need numpy

    allowed = (
        f"{name} must be a {ndim}-dimensional array of numbers with at least {minimum} along its last axis"
    )
    if isinstance(values, str | bytes | dict | set) or not isinstance(values, np.ndarray | list | tuple):
        raise InputTypeError(f"{allowed}, got {_shown(values)} ({type(values).__name__})")
    try:
        array = np.asarray(values)
    except ValueError as error:  # ragged sequences
        raise InputError(f"{allowed}: {error}") from None
    if array.dtype.kind not in "biuf":
        raise InputTypeError(f"{allowed}, got an array of dtype {array.dtype}")
    if array.ndim != (ndim or max(array.ndim, 1)) or array.shape[-1] < minimum:
        raise InputError(f"{allowed}, got shape {array.shape}")
    array = array.astype(float)
    if not np.isfinite(array).all():
        raise InputError(f"{allowed} and every value finite, got {array[~np.isfinite(array)][0]!r}")
    return array


def check_real(value: object, name: str) -> float:
    """`value` as a float if it is a finite real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputTypeError(f"{name} must be a number, got {_shown(value)} ({type(value).__name__})")
    if value != value or value in (float("inf"), float("-inf")):
        raise InputError(f"{name} must be a finite number, got {value!r}")
    return float(value)
