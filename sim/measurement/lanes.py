"""Where the batch path's draws come from (lesson 5), per (task, seed) lane: `SeedLanes`, the seed's
streams (AA22), or `PositionLanes`, one stream per (lane, position) shared by both setups (CR1). A
pick asks `decide` (right pick or stop), then `tool` for the lanes that draw a random tool.
"""

import numpy as np

from sim.measurement.machine import MAX_SEQUENCE
from sim.model.draws import TWO_TO_32, mix32, next_state, next_state_into, pick_draws, stream_key
from sim.model.tasks import TASK_NAMES


def draw(state: np.ndarray, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Advance the streams of the lanes where `lanes` is True: (new states, draws in [0, 1)); elsewhere
    the state is kept and the draw is meaningless."""
    advanced = next_state(state)
    return np.where(lanes, advanced, state), advanced / TWO_TO_32


class SeedLanes:
    """The seed's streams (AA22), one per lane; the split's (planner=True) keyed by "plan" + task."""

    def __init__(self, seeds: np.ndarray, planner: bool):
        seeds = seeds.astype(np.uint64)
        self.state = mix32(np.stack([stream_key(seeds, name, planner) for name in TASK_NAMES]))
        self._work = (np.empty_like(self.state), np.empty_like(self.state))  # this source's scratch arrays

    def decide(self, lanes: np.ndarray, position) -> np.ndarray:
        """The decision draw of a pick in the lanes that draw (the position plays no part)."""
        return self._advance(lanes)

    def tool(self, lanes: np.ndarray, position) -> np.ndarray:
        """The random tool's draw: the lane's next draw."""
        return self._advance(lanes)

    def _advance(self, lanes: np.ndarray) -> np.ndarray:
        """`draw` on this source's states, in place (new arrays each step cost more than the arithmetic)."""
        advanced, change = self._work
        next_state_into(self.state, advanced)
        u = advanced / TWO_TO_32
        # the new state where `lanes`, else the old: state + (advanced - state) x lanes, exact modulo 2**64
        np.subtract(advanced, self.state, out=change)
        np.multiply(change, lanes, out=change)
        np.add(self.state, change, out=self.state)
        return u


class PositionLanes:
    """Common draws (CR1): one stream per (task, seed, position); index i is position i + 1, index
    length a finished agent's stop decision."""

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
