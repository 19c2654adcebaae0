"""Deterministic helpers: the seeded draw stream, the weighted pick, the tokenizer, the trace id.

Everything random in the simulator comes from `draw_stream`, so a run is fixed by its seed.
Source: the seed lesson's listing (lesson 2), shared by every lesson.
"""

from collections.abc import Callable, Sequence

MASK32 = 0xFFFFFFFF


def _mix32(key: int) -> int:
    """Scramble a 32-bit key into a well-spread 32-bit start state (a murmur-style finaliser)."""
    x = ((key ^ (key >> 16)) * 2246822507) & MASK32
    x = ((x ^ (x >> 13)) * 3266489909) & MASK32
    return (x ^ (x >> 16)) & MASK32


def draw_stream(key: int) -> Callable[[], float]:
    """Return a stream of uniform draws in [0, 1) fixed by `key`.

    Parameters
    ----------
    key : int
        A non-negative integer (a seed, or a seed mixed with a trace id).

    Returns
    -------
    Callable[[], float]
        Each call advances a 32-bit linear congruential generator
        (multiplier 1664525, increment 1013904223) and returns state / 2**32.
    """
    state = _mix32(key)

    def next_draw() -> float:
        nonlocal state
        state = (state * 1664525 + 1013904223) & MASK32
        return state / 4294967296

    return next_draw


def weighted_pick(u: float, weights: Sequence[float]) -> int:
    """Return the index whose cumulative weight first exceeds the draw `u` (the last if none does)."""
    total = 0.0
    for index, weight in enumerate(weights):
        total += weight
        if u < total:
            return index
    return len(weights) - 1


def tokenize(text: object) -> list[str]:
    """Split text into lower-case word pieces of at most 5 characters; commas are pieces too."""
    pieces = []
    for word in str(text).lower().replace(",", " , ").split():
        while len(word) > 5:
            pieces.append(word[:5])
            word = word[5:]
        pieces.append(word)
    return pieces


def trace_id(text: object) -> int:
    """Return the 32-bit FNV-1a hash of `text`, used to give each task its own draw stream."""
    h = 2166136261
    for char in str(text):
        h = ((h ^ ord(char)) * 16777619) & MASK32
    return h
