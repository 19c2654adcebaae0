"""The contract over many seeds at once, bit-identical to its one-seed path (`sim.engine.contract.contract_run`).

A contract run draws only from its planner stream, and only to pick the tools of its plans: the
first plan, then each replan, every position right with the flat share selection(1), else a tool
at random (CT2, CT6). So the picks of a (task, seed) lane form a fixed tape: position after
position, whatever the run does with them. This module draws every lane's tape at once with the
batch path's generator (`sim.measurement.batch.draw`, the same rules of `sim.model.picks`), then runs the readable
one-seed contract once per distinct prefix of picks a run actually reads, and gives every lane
that starts with that prefix the same outcome. Lanes share prefixes often (most plans are right),
so 10,000 seeds cost a few thousand one-seed runs. Introduced for lesson 4's many-seed columns.
"""

import numpy as np

from sim.engine.config import RunConfig
from sim.engine.contract import contract_run
from sim.measurement.batch import BatchRun
from sim.measurement.lanes import draw
from sim.model.draws import mix32, stream_key
from sim.model.picks import N_TOOLS, picks_right, random_tool_index, selection
from sim.model.tasks import TASK_NAMES, TASKS

RIGHT = -1  # a pick that took the position's right tool (by the draw, not by luck)
OUTCOME_FIELDS = ("correct", "steps", "calls", "tokens", "errors", "stopped")


def planner_tapes(seeds: np.ndarray, n_positions: int, n_tools: int = N_TOOLS) -> np.ndarray:
    """Every lane's picks for `n_positions` positions, shape (24, n_seeds, n_positions), int8:
    RIGHT where the draw took the right tool, else the index of the tool drawn at random among
    `n_tools` tools (`sim.model.picks.write_plan`'s rule, on each task's planner stream; 6 under LA1)."""
    keys = np.stack([stream_key(seeds.astype(np.uint64), name, planner=True) for name in TASK_NAMES])
    stream = mix32(keys)
    lanes = np.ones(stream.shape, dtype=bool)
    tapes = np.empty((*stream.shape, n_positions), dtype=np.int8)
    for position in range(n_positions):
        stream, u = draw(stream, lanes)
        right = picks_right(u, selection(1))
        stream, u = draw(stream, ~right)
        tapes[:, :, position] = np.where(right, RIGHT, random_tool_index(u, n_tools))
    return tapes


def _tape_planner(tape: np.ndarray, tools: tuple[str, ...]):
    """A planner reading picks from one lane's tape, in order (a random pick's index is one of
    `tools`, the run's tool set); `read()` says how many it has read."""
    used = 0

    def planner(positions):
        nonlocal used
        picks = tape[used : used + len(positions)]
        used += len(positions)
        return tuple(
            wanted if pick == RIGHT else tools[pick] for wanted, pick in zip(positions, picks, strict=True)
        )

    planner.read = lambda: used
    return planner


def _distinct_tapes(tapes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of one task's tapes (n_seeds, n_positions), in np.unique's sorted order (so
    rows that begin alike are neighbours: `contract_batch` relies on it), and, per lane, the index
    of its row among them: `np.unique(tapes, axis=0, return_inverse=True)`, made faster by first
    packing each row into one integer (3 bits a pick: RIGHT as 0, tool index k as k + 1, the first
    pick highest) when it fits."""
    n_positions = tapes.shape[1]
    if 3 * n_positions > 63 or (tapes.size and int(tapes.max()) - RIGHT > 7):
        distinct, lane_of = np.unique(tapes, axis=0, return_inverse=True)
        return distinct, lane_of.reshape(-1)
    shifts = np.arange(n_positions - 1, -1, -1, dtype=np.int64) * 3  # the first pick in the highest bits
    packed = ((tapes.astype(np.int64) - RIGHT) << shifts).sum(axis=1)
    _, first, lane_of = np.unique(packed, return_index=True, return_inverse=True)
    return tapes[first], lane_of.reshape(-1)


def contract_batch(config: RunConfig, seeds) -> BatchRun:
    """The contract on all 24 tasks at every seed: a BatchRun equal, lane for lane, to
    `sim.engine.contract.contract_run` (tests/test_batch.py checks it).

    Parameters
    ----------
    config : RunConfig
        A checked configuration of setup "contract" (its bounds, CT11).
    seeds : Sequence[int] | numpy.ndarray
        Distinct integers 0 <= seed < 2**32.

    Returns
    -------
    BatchRun
        Per-(task, seed) outcomes of shape (24, n_seeds); approvals are 0 (the contract asks none).

    Raises
    ------
    InputError
        For a configuration of another setup, or bad seeds.
    """
    seeds = np.asarray(seeds, dtype=np.int64)
    longest = max(len(task.sequence) for task in TASKS)
    # every planner call writes at most `longest` picks; the planner writes once more than the calls
    # that fit the budget (a replan is drawn, then refused by a bound), never more than 1 + max_replans
    n_positions = longest * min(1 + config.max_replans, config.budget + 1)
    tapes = planner_tapes(seeds, n_positions, len(config.tools))  # 5 tools, or 6 under LA1
    shape = (len(TASKS), len(seeds))
    out = {name: np.zeros(shape, dtype=bool if name in ("correct", "stopped") else np.int64)
           for name in OUTCOME_FIELDS}  # fmt: skip
    for t, task in enumerate(TASKS):
        # lanes with the same tape have the same outcome: run each distinct tape once
        distinct, lane_of = _distinct_tapes(tapes[t])
        seed_of = np.zeros(len(distinct), dtype=np.int64)
        seed_of[lane_of.reshape(-1)] = seeds  # any seed of a tape will do: the planner reads only the tape
        # The distinct tapes come sorted (np.unique), so the tapes that begin with the picks a run
        # read follow that run's tape, one after the other: each needs no run of its own.
        read_picks, outcome, outcomes = None, None, []
        for tape, seed in zip(distinct, seed_of, strict=True):
            row = tape.tobytes()  # one byte a pick (int8)
            if read_picks is None or not row.startswith(read_picks):
                planner = _tape_planner(tape, config.tools)
                run = contract_run(task, int(seed), config, planner=planner)
                outcome = (run.correct, run.steps, run.calls, run.tokens, run.errors, run.stopped)
                read_picks = row[: planner.read()]
            outcomes.append(outcome)
        for name, column in zip(OUTCOME_FIELDS, zip(*outcomes, strict=True), strict=True):
            out[name][t] = np.array(column)[lane_of.reshape(-1)]
    return BatchRun(config, seeds, out["correct"], out["steps"], out["calls"], out["tokens"], out["errors"],
                    np.zeros(shape, dtype=np.int64), out["stopped"])  # fmt: skip
