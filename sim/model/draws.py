"""The seeded draw stream, the weighted pick, the tokenizer and the trace id (the source's listing,
lesson 2). Everything random comes from `draw_stream`, so a run is fixed by its seed. Functions of
states and keys take an int or a uint64 array (the batch path's lanes) and return the same kind."""

import functools
from collections.abc import Callable, Sequence

MASK32 = 0xFFFFFFFF
LCG_MULTIPLIER, LCG_INCREMENT = 1664525, 1013904223
TWO_TO_32 = 4294967296


def mix32(key):
    """A stream's 32-bit start state from its key (a murmur-style finaliser)."""
    x = ((key ^ (key >> 16)) * 2246822507) & MASK32
    x = ((x ^ (x >> 13)) * 3266489909) & MASK32
    return (x ^ (x >> 16)) & MASK32


def next_state(state):
    """One step of the 32-bit linear congruential generator; the draw it gives is state / 2**32."""
    return (state * LCG_MULTIPLIER + LCG_INCREMENT) & MASK32


def next_state_into(state, out):
    """`next_state` of a uint64 array written into `out` (at 10,000 seeds new arrays cost more than
    the arithmetic); returns `out`."""
    out[...] = state
    out *= LCG_MULTIPLIER
    out += LCG_INCREMENT
    out &= MASK32
    return out


def draw_stream(key: int) -> Callable[[], float]:
    """A stream of uniform draws in [0, 1) fixed by `key` (a seed mixed with a trace id)."""
    state = mix32(key)

    def next_draw() -> float:
        nonlocal state
        state = next_state(state)
        return state / TWO_TO_32

    return next_draw


def weighted_pick(u: float, weights: Sequence[float]) -> int:
    """The first index whose cumulative weight exceeds the draw `u` (the last when rounding leaves `u`
    above them all); it draws the tasks' kinds."""
    total = 0.0
    for index, weight in enumerate(weights):
        total += weight
        if u < total:
            return index
    return len(weights) - 1


def tokenize(text: object) -> list[str]:
    """Lower-case word pieces of at most 5 characters, commas apart (search_docs' tokenizer)."""
    pieces = []
    for word in str(text).lower().replace(",", " , ").split():
        while len(word) > 5:
            pieces.append(word[:5])
            word = word[5:]
        pieces.append(word)
    return pieces


def trace_id(text: object) -> int:
    """A text's 32-bit FNV-1a hash, XORed with the run's seed to key a draw stream (AA22)."""
    return _fnv1a(str(text))


@functools.lru_cache(maxsize=1024)  # the texts hashed are the tasks' names and a few labels
def _fnv1a(text: str) -> int:
    h = 2166136261
    for char in text:
        h = ((h ^ ord(char)) * 16777619) & MASK32
    return h


def stream_key(seed, task_name: str, planner: bool = False, position: int | None = None):
    """The key of a run's draw stream (AA22): the single loop's, or with `planner` the split's and the
    contract's; under common draws (CR1, lesson 5) the stream of the picks aimed at `position`."""
    if position is not None:  # CR1: one stream per (task, position), shared by both setups
        return seed ^ trace_id(f"{task_name}/{position}")
    return seed ^ trace_id(("plan" if planner else "") + task_name)


def pick_draws(state):
    """One pick's 2 draws under common draws (CR1), taken whether it needs 1 or 2: (the state after
    them, the draw that decides, the draw of the random tool)."""
    first = next_state(state)
    second = next_state(first)
    return second, first / TWO_TO_32, second / TWO_TO_32


class PositionDraws:
    """The draws of one task's run under common draws (CR1, lesson 5): a stream per position p of the
    sequence (length + 1: a finished agent's stop), shared by both setups; the a-th pick at p takes
    its draws 2a - 1 and 2a."""

    def __init__(self, seed: int, task_name: str):
        self._seed, self._task, self._states = seed, task_name, {}

    def pick(self, position: int) -> Callable[[], float]:
        """The draws of the next pick aimed at `position`: its 2 draws, taken at its first call (a pick
        that never draws, the blind executor's, takes none)."""
        taken: list[float] = []

        def draw() -> float:
            if not taken:
                state = self._states.get(position)
                if state is None:
                    state = mix32(stream_key(self._seed, self._task, position=position))
                self._states[position], first, second = pick_draws(state)
                taken.extend((second, first))
            return taken.pop()

        return draw
