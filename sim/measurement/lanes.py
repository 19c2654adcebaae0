"""Where the batch path's draws come from: one draw source per run of many seeds (`sim.measurement.batch`).

A lane is one (task, seed) pair; arrays have shape (24, n_seeds), tasks in TASKS order. Every
pick in the batch path asks its source twice, in this order: `decide` for the lanes that draw a
decision (right pick, or stop), then `tool` for the lanes whose pick missed or did not stop
(a random tool). Both sources call the generator of `sim.model.draws` on uint64 arrays:

- `SeedLanes`, the seed's rule AA22: one stream per lane, keyed by `sim.model.draws.stream_key(seed,
  task)` (or "plan" + task for the split), advanced by one draw in the lanes that draw.
- `PositionLanes`, rule CR1 (common draws, lesson 5): one stream per (lane, position), keyed by
  `stream_key(seed, task, position=p)`; a pick aimed at position p takes that stream's next 2
  draws (`sim.model.draws.pick_draws`) at `decide`, and `tool` hands out the second.

Introduced in lesson 5, how many seeds.
"""

import numpy as np

from sim.measurement.machine import MAX_SEQUENCE
from sim.model.draws import TWO_TO_32, mix32, next_state, next_state_into, pick_draws, stream_key
from sim.model.tasks import TASK_NAMES


def draw(state: np.ndarray, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Advance the draw streams of the lanes where `lanes` is True; return (new states, draws).

    The draws are state / 2**32 as in sim.model.draws.draw_stream, in [0, 1); where `lanes` is
    False the state is kept and the draw is meaningless.
    """
    advanced = next_state(state)
    return np.where(lanes, advanced, state), advanced / TWO_TO_32


class SeedLanes:
    """The seed's streams (AA22): one per (task, seed) lane, the split's keyed by "plan" + task.

    Parameters
    ----------
    seeds : numpy.ndarray
        Checked seeds, shape (n_seeds,).
    planner : bool
        True for the split (its streams are the planner's, AA22).
    """

    def __init__(self, seeds: np.ndarray, planner: bool):
        seeds = seeds.astype(np.uint64)
        self.state = mix32(np.stack([stream_key(seeds, name, planner) for name in TASK_NAMES]))
        self._work = (np.empty_like(self.state), np.empty_like(self.state))  # this source's scratch arrays

    def decide(self, lanes: np.ndarray, position) -> np.ndarray:
        """The decision draw of a pick in the lanes where `lanes` is True (the position plays no part)."""
        return self._advance(lanes)

    def tool(self, lanes: np.ndarray, position) -> np.ndarray:
        """The random tool's draw in the lanes where `lanes` is True: the next draw of the lane's stream."""
        return self._advance(lanes)

    def _advance(self, lanes: np.ndarray) -> np.ndarray:
        """`draw` on this source's states, in place: the same states and draws, without the new
        arrays of each step (making those cost more than the arithmetic at 10,000 seeds)."""
        advanced, change = self._work
        next_state_into(self.state, advanced)
        u = advanced / TWO_TO_32
        # the new state where `lanes`, else the old: state + (advanced - state) x lanes, exact modulo 2**64
        np.subtract(advanced, self.state, out=change)
        np.multiply(change, lanes, out=change)
        np.add(self.state, change, out=self.state)
        return u


class PositionLanes:
    """Common draws (CR1): one stream per (task, seed, position), shared by both setups.

    Positions are 0-based here, index i for position i + 1 (the one-seed path's depth); index
    length is a finished agent's stop decision. `seeds` as in SeedLanes; both setups use the same
    streams, so there is no `planner`.
    """

    def __init__(self, seeds: np.ndarray):
        seeds = seeds.astype(np.uint64)
        keys = [
            [stream_key(seeds, name, position=i + 1) for i in range(MAX_SEQUENCE + 1)] for name in TASK_NAMES
        ]
        self.state = mix32(np.array(keys)).transpose(0, 2, 1)  # (24, n_seeds, positions)
        self.second = None

    def decide(self, lanes: np.ndarray, position) -> np.ndarray:
        """The first of the pick's 2 draws (`pick_draws`) from the stream of the position each lane
        aims at (`position`: an int, or an int array of 0-based positions of shape (24, n_seeds));
        the position's stream advances by 2 in the lanes where `lanes` is True."""
        index = np.broadcast_to(np.asarray(position), lanes.shape)[:, :, None]
        state = np.take_along_axis(self.state, index, axis=2)[:, :, 0]
        after, first, self.second = pick_draws(state)
        np.put_along_axis(self.state, index, np.where(lanes, after, state)[:, :, None], axis=2)
        return first

    def tool(self, lanes: np.ndarray, position) -> np.ndarray:
        """The second draw of the pick that `decide` drew last (no stream advances)."""
        return self.second


def lane_draws(seeds: np.ndarray, planner: bool, common_draws: bool):
    """The draw source of a batch run: PositionLanes under common draws (CR1), else SeedLanes (AA22)."""
    return PositionLanes(seeds) if common_draws else SeedLanes(seeds, planner)
