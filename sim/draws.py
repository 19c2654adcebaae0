"""Deterministic helpers: the seeded draw stream, the weighted pick, the tokenizer, the trace id.

Everything random in the simulator comes from `draw_stream`, so a run is fixed by its seed.
Source: the seed lesson's listing (lesson 2), shared by every lesson.
"""

from collections.abc import Callable, Sequence

MASK32 = 0xFFFFFFFF
LCG_MULTIPLIER, LCG_INCREMENT = 1664525, 1013904223
TWO_TO_32 = 4294967296


def mix32(key):
    """Scramble 32-bit keys into well-spread 32-bit start states (a murmur-style finaliser).

    Parameters
    ----------
    key : int | numpy.ndarray
        A 32-bit key, or a uint64 array of them (the batch path: one key per (task, seed) lane).

    Returns
    -------
    int | numpy.ndarray
        The start state of each draw stream, of the same kind and shape as `key`. One
        definition for both forms: Python ints and uint64 arrays share these operators.
    """
    x = ((key ^ (key >> 16)) * 2246822507) & MASK32
    x = ((x ^ (x >> 13)) * 3266489909) & MASK32
    return (x ^ (x >> 16)) & MASK32


def next_state(state):
    """One step of the 32-bit linear congruential generator (multiplier 1664525, increment
    1013904223), on an int or a uint64 array of states; the draw it gives is state / 2**32."""
    return (state * LCG_MULTIPLIER + LCG_INCREMENT) & MASK32


def draw_stream(key: int) -> Callable[[], float]:
    """Return a stream of uniform draws in [0, 1) fixed by `key`.

    Parameters
    ----------
    key : int
        A non-negative integer (a seed, or a seed mixed with a trace id).

    Returns
    -------
    Callable[[], float]
        Each call advances the generator (`next_state`) from `mix32(key)` and returns
        state / 2**32. The batch path advances the same generator on arrays.
    """
    state = mix32(key)

    def next_draw() -> float:
        nonlocal state
        state = next_state(state)
        return state / TWO_TO_32

    return next_draw


def weighted_pick(u: float, weights: Sequence[float]) -> int:
    """Pick an index by its weight: the first index whose cumulative weight exceeds `u`.

    Parameters
    ----------
    u : float
        A uniform draw in [0, 1).
    weights : Sequence[float]
        Weights summing to 1 (the task kinds' shares, for example).

    Returns
    -------
    int
        The picked index; the last index when rounding leaves `u` above every cumulative sum.

    Source: the seed listing's weighted pick, used to draw the 24 tasks' kinds (lesson 1).
    """
    total = 0.0
    for index, weight in enumerate(weights):
        total += weight
        if u < total:
            return index
    return len(weights) - 1


def tokenize(text: object) -> list[str]:
    """Split text into lower-case word pieces of at most 5 characters.

    Parameters
    ----------
    text : object
        Any value; it is turned into a string. Commas become pieces of their own.

    Returns
    -------
    list[str]
        The pieces, in order: every word longer than 5 characters is cut into 5-character pieces.

    Source: the seed listing's tokenizer, used by the search_docs tool (lesson 1).
    """
    pieces = []
    for word in str(text).lower().replace(",", " , ").split():
        while len(word) > 5:
            pieces.append(word[:5])
            word = word[5:]
        pieces.append(word)
    return pieces


def trace_id(text: object) -> int:
    """Hash a text to 32 bits (FNV-1a), so each task gets its own draw stream.

    Parameters
    ----------
    text : object
        Any value; it is turned into a string (a task name, or "plan" + a task name).

    Returns
    -------
    int
        A 32-bit unsigned hash, XORed with the run's seed to key the draw stream (AA22).
    """
    h = 2166136261
    for char in str(text):
        h = ((h ^ ord(char)) * 16777619) & MASK32
    return h


def stream_key(seed, task_name: str, planner: bool = False):
    """The key of a task's draw stream in a run: seed XOR trace_id(task name), or XOR
    trace_id("plan" + task name) for the planner's stream (the split and the contract), rule AA22.

    `seed` is an int, or a uint64 array of seeds (the batch path); the key is of the same kind.
    """
    return seed ^ trace_id(("plan" if planner else "") + task_name)
