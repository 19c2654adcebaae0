"""The fictional model's decisions, written once for every engine (the loops, the contract, the batch
path on arrays): which tool a step picks, when a finished agent stops, what the planner writes.
FICTIONAL: a pick is a draw, never a model call. Lesson 1 (the single loop), lesson 2 (AA24-AA27)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sim.model.checks import check_integer
from sim.model.world import TOOL_NAMES

STOP_SHARE = 0.88  # chance that an agent whose job is done stops at a step
SELECTION_START, SELECTION_DROP, SELECTION_FLOOR = 0.80, 0.09, 0.34
N_TOOLS = len(TOOL_NAMES)


def right_share(depth: int) -> float:
    """The share of right picks at position `depth` (1-based) of a sequence, the lessons' selection(d)."""
    return max(SELECTION_FLOOR, SELECTION_START - SELECTION_DROP * (depth - 1))


def selection(depth: int) -> float:
    """selection(d), the share of right picks at position d (lesson 1; the planner's is selection(1),
    AA24). Raises InputTypeError, InputError for a depth that is not an integer >= 1."""
    return right_share(check_integer(depth, "depth", 1))


def expected_right_share(depth: int) -> float:
    """The share of right picks once lucky random picks count: selection(d) + (1 - selection(d)) / 5
    (lesson 1). Raises as `selection`."""
    share = selection(depth)
    return share + (1 - share) / N_TOOLS


def stops(u):
    """Whether a finished agent stops at this step: draw `u` (a float or an array) below STOP_SHARE."""
    return u < STOP_SHARE


def picks_right(u, share):
    """Whether a pick takes the right tool: draw `u` below the share of right picks (floats or arrays)."""
    return u < share


def random_tool_index(u, n_tools: int = N_TOOLS):
    """The index int(u x n_tools) a missed pick takes in the tool set (an int64 array for an array)."""
    scaled = u * n_tools
    return int(scaled) if isinstance(scaled, float) else scaled.astype("int64")


@dataclass(frozen=True)
class ToolDraws:
    """A draw stream (called for the next draw) with the tool set its random picks draw among (LA1)."""

    stream: Callable[[], float]
    tools: tuple[str, ...]

    def __call__(self) -> float:
        return self.stream()


def draws_among(stream: Callable[[], float], tools: tuple[str, ...]) -> Callable[[], float]:
    """The draws of a run whose tool set is `tools`: the bare stream for the five tools."""
    return stream if tools == TOOL_NAMES else ToolDraws(stream, tools)


def random_tool(draw: Callable[[], float]) -> str:
    """A tool at random with the next draw, among the stream's tool set (the five, or a ToolDraws')."""
    tools = draw.tools if isinstance(draw, ToolDraws) else TOOL_NAMES
    return tools[random_tool_index(draw(), len(tools))]


def single_loop_pick(target: str | None, depth: int, draw: Callable[[], float]) -> str | None:
    """The single loop's decision at one step (lesson 1): the tool to call, or None to stop. `target` is
    the tool at the first position not done (None once the job is done), `depth` that position."""
    if target is None:  # the job is done: the agent should stop
        return None if stops(draw()) else random_tool(draw)
    return target if picks_right(draw(), right_share(depth)) else random_tool(draw)


def write_plan(positions: Sequence[str], draw: Callable[[], float]) -> tuple[str, ...]:
    """The planner's one call (AA24): a tool for each of `positions` (the right tools, which only the
    draw's outcome may use), written before any observation."""
    right = right_share(1)
    return tuple(tool if picks_right(draw(), right) else random_tool(draw) for tool in positions)


def executor_pick(plan: Sequence[str], calls: int, target: str | None, depth: int,
                  draw) -> str | None:  # fmt: skip
    """The executor's decision at one step (AA26, AA27, lesson 2), after `calls` tool calls."""
    if target is not None and calls < len(plan):
        return plan[calls]  # blind: the plan's next position, right or wrong
    return single_loop_pick(target, depth, draw)
