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


def next_state_into(state, out):
    """`next_state` of a uint64 array of states, written into `out` (a uint64 array of the same
    shape) rather than into new arrays: the batch path's streams at 10,000 seeds, where making the
    new arrays costs more than the arithmetic. Returns `out`, equal to next_state(state)."""
    out[...] = state
    out *= LCG_MULTIPLIER
    out += LCG_INCREMENT
    out &= MASK32
    return out


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


def stream_key(seed, task_name: str, planner: bool = False, position: int | None = None):
    """The key of a draw stream in a run.

    Parameters
    ----------
    seed : int | numpy.ndarray
        The run's seed, or a uint64 array of seeds (the batch path); the key is of the same kind.
    task_name : str
        The task's name, G01..G24.
    planner : bool
        The seed's rule AA22 (position None): the single loop draws from seed XOR trace_id(task
        name), the split and the contract from seed XOR trace_id("plan" + task name).
    position : int | None
        Under common draws (rule CR1, lesson 5): the key of the stream of every pick aimed at
        this position of the task's sequence (1-based; sequence length + 1 for a finished
        agent's stop decision), seed XOR trace_id(task name + "/" + position). It is the same
        for both setups, so `planner` does not enter it.

    Returns
    -------
    int | numpy.ndarray
        The key, which `draw_stream` (or the batch path's `mix32`) turns into a start state.
    """
    if position is not None:  # CR1: one stream per (task, position), shared by both setups
        return seed ^ trace_id(f"{task_name}/{position}")
    return seed ^ trace_id(("plan" if planner else "") + task_name)


def pick_draws(state):
    """One pick's draws under common draws (rule CR1, lesson 5): the next 2 draws of its position's
    stream, taken whether the pick needs 1 or 2 of them, so that the a-th pick
    aimed at a position always takes that stream's draws 2a - 1 and 2a.

    Parameters
    ----------
    state : int | numpy.ndarray
        The position stream's state (an int, or a uint64 array of states in the batch path).

    Returns
    -------
    tuple
        (state after the 2 draws, first draw, second draw); the draws are in [0, 1). The first
        decides (right pick, or stop), the second picks the random tool when one is needed.
    """
    first = next_state(state)
    second = next_state(first)
    return second, first / TWO_TO_32, second / TWO_TO_32


class PositionDraws:
    """The draws of one task's run under common draws (rule CR1, lesson 5).

    Every pick aimed at position p of the task (p = 1..sequence length, and length + 1 for a
    finished agent's decision to stop) draws from a stream of its own, keyed by
    `stream_key(seed, task_name, position=p)` and shared by both setups; the a-th pick aimed at
    p in a run takes that stream's draws 2a - 1 and 2a (`pick_draws`). The split's planner
    writes the first pick aimed at each position, so the single loop's first pick at p and the
    plan's position p take the same draws.

    Parameters
    ----------
    seed : int
        The run's seed (checked by the caller).
    task_name : str
        The task's name.
    """

    def __init__(self, seed: int, task_name: str):
        self._seed, self._task, self._states = seed, task_name, {}

    def pick(self, position: int) -> Callable[[], float]:
        """The draw stream of the next pick aimed at `position` (1-based): a callable that, at its
        first call, takes the pick's 2 draws (`pick_draws`) and then returns them in order. A pick
        that never draws (the blind executor following its plan) takes nothing."""
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
