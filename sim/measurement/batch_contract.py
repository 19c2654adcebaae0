"""The contract over many seeds at once, bit-identical to `sim.engine.contract.contract_run` (lesson 4).

A contract run draws only from its planner stream, to pick its plans' tools (CT2, CT6), so a lane's
picks form a fixed tape. Every lane's tape is drawn at once; the one-seed contract then runs once
per distinct prefix of picks a run reads, and every lane that starts with that prefix shares it.
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
    """Every lane's picks for n_positions positions, (24, n_seeds, n_positions) int8: RIGHT where the
    draw took the right tool, else the index of the tool drawn among n_tools (write_plan's rule)."""
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
    """A planner reading picks from one lane's tape in order (tools: the run's tool set); `read()` says
    how many it has read."""
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
    """np.unique(tapes, axis=0, return_inverse=True) of one task's tapes, faster by packing each row into
    one integer (3 bits a pick) when it fits; rows in sorted order, so rows that begin alike neighbour."""
    n_positions = tapes.shape[1]
    if 3 * n_positions > 63 or (tapes.size and int(tapes.max()) - RIGHT > 7):
        distinct, lane_of = np.unique(tapes, axis=0, return_inverse=True)
        return distinct, lane_of.reshape(-1)
    shifts = np.arange(n_positions - 1, -1, -1, dtype=np.int64) * 3  # the first pick in the highest bits
    packed = ((tapes.astype(np.int64) - RIGHT) << shifts).sum(axis=1)
    _, first, lane_of = np.unique(packed, return_index=True, return_inverse=True)
    return tapes[first], lane_of.reshape(-1)


def contract_batch(config: RunConfig, seeds) -> BatchRun:
    """The contract (a checked RunConfig) on all 24 tasks at checked seeds, equal lane for lane to
    `contract_run` (tests/test_batch.py); approvals are 0."""
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
        if config.argument_errors is not None:  # AE1 draws by seed: no two lanes share an outcome
            runs = [contract_run(task, int(seed), config) for seed in seeds]
            for name in OUTCOME_FIELDS:
                out[name][t] = [getattr(run, name) for run in runs]
            continue
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
