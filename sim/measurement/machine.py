"""Every task's tools as a small state machine, for the batch path (lesson 5).

What a tool returns depends only on the state the agent holds, and a task reaches few states, so
the machine is found once by calling the real tools through the one-seed path's own step
(`sim.engine.loops.call_and_observe`): no tariff or document rule is written twice.
"""

from dataclasses import dataclass
from functools import cache

import numpy as np

from sim.engine.goals import goal_of, goal_reached
from sim.engine.loops import call_and_observe, initial_state
from sim.model.tasks import TASKS, correct_answer
from sim.model.world import TOOL_NAMES

MAX_SEQUENCE = max(len(task.sequence) for task in TASKS)


@dataclass(frozen=True)
class ToolMachine:
    """Every task's tools as a state machine, stacked over the 24 tasks (read-only arrays): per (task,
    state, tool) the next state and whether the call is a tool error; per (task, state) whether the
    answer held is correct and whether the goal test holds (GT1, SB1); the sequences as tool indices (-1 past their length) and their lengths."""

    tools: tuple[str, ...]
    n_states: int
    next_state: np.ndarray
    error: np.ndarray
    correct: np.ndarray
    goal: np.ndarray
    sequence: np.ndarray
    length: np.ndarray


def _task_states(task, tools: tuple[str, ...]) -> tuple[list[dict], dict, dict]:
    """Breadth-first search of the states a task reaches with `tools`: states, next-state and error maps."""
    states = [initial_state(task)]
    index = {tuple(sorted(states[0].items())): 0}
    next_state_of, error = {}, {}
    position = 0
    while position < len(states):
        for tool_index, tool in enumerate(tools):
            after = dict(states[position])
            failed = "error" in call_and_observe(tool, after)
            key = tuple(sorted(after.items()))
            if key not in index:
                index[key] = len(states)
                states.append(after)
            next_state_of[position, tool_index] = index[key]
            error[position, tool_index] = failed
        position += 1
    return states, next_state_of, error


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def tool_machine(tools: tuple[str, ...] = TOOL_NAMES) -> ToolMachine:
    """The ToolMachine of the tool set `tools` (RunConfig.tools), built on first use and kept."""
    return _tool_machine(tuple(tools))


@cache
def _tool_machine(tools: tuple[str, ...]) -> ToolMachine:
    searched = [_task_states(task, tools) for task in TASKS]
    n_states = max(len(states) for states, _, _ in searched)
    next_state_of = np.zeros((len(TASKS), n_states, len(tools)), dtype=np.int64)
    error = np.zeros((len(TASKS), n_states, len(tools)), dtype=bool)
    correct = np.zeros((len(TASKS), n_states), dtype=bool)
    goal = np.zeros((len(TASKS), n_states), dtype=bool)
    for t, (task, (states, moves, failures)) in enumerate(zip(TASKS, searched, strict=True)):
        for (state, tool), after in moves.items():
            next_state_of[t, state, tool] = after
            error[t, state, tool] = failures[state, tool]
        wanted = correct_answer(task)
        correct[t, : len(states)] = [state.get("result") == wanted for state in states]
        goal[t, : len(states)] = [goal_reached(goal_of(task.request), state) for state in states]
    sequence = np.full((len(TASKS), MAX_SEQUENCE + 1), -1, dtype=np.int64)
    for t, task in enumerate(TASKS):
        sequence[t, : len(task.sequence)] = [tools.index(tool) for tool in task.sequence]
    length = np.array([len(task.sequence) for task in TASKS], dtype=np.int64)
    arrays = (next_state_of, error, correct, goal, sequence, length)
    return ToolMachine(tools, n_states, *(_read_only(a) for a in arrays))
