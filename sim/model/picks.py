"""The fictional model's decisions: which tool a step picks, when a finished agent stops, what the
planner writes. FICTIONAL: a "pick" is a draw, never a model call.

Each rule is written once here and used by every engine: the one-seed runners (`sim.engine.loops`),
the contract (`sim.engine.contract`) and the many-seed batch path (`sim.measurement.batch`, which applies the same
comparisons to arrays of draws). Source: the seed lesson's single loop (lesson 1) and rules
AA24, AA26, AA27 of the planner/executor lesson (lesson 2).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sim.model.checks import check_integer
from sim.model.world import TOOL_NAMES

STOP_SHARE = 0.88  # chance that an agent whose job is done stops at a step
SELECTION_START, SELECTION_DROP, SELECTION_FLOOR = 0.80, 0.09, 0.34
N_TOOLS = len(TOOL_NAMES)


def selection(depth: int) -> float:
    """The share of right tool picks at a position of a task's sequence.

    Parameters
    ----------
    depth : int
        Position in the sequence, 1 for the first tool.

    Returns
    -------
    float
        max(0.34, 0.80 - 0.09 x (depth - 1)): 0.8 at the first position, falling 0.09 a position.

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for a depth that is not an integer >= 1.

    Source: the seed's single loop (lesson 1); the planner uses selection(1) everywhere (AA24).
    """
    check_integer(depth, "depth", 1)
    return max(SELECTION_FLOOR, SELECTION_START - SELECTION_DROP * (depth - 1))


def expected_right_share(depth: int) -> float:
    """Expected share of right picks at position `depth` once lucky random picks count: a pick that
    misses the rule's draw takes one of the 5 tools at random, the right one with share 1/5.

    Returns selection(depth) + (1 - selection(depth)) / 5, a fraction in [0, 1]; raises as
    `selection` for a depth that is not an integer >= 1. Source: lesson 1.
    """
    share = selection(depth)
    return share + (1 - share) / N_TOOLS


def stops(u):
    """Whether a finished agent stops at this step: draw `u` (a float or an array) below STOP_SHARE."""
    return u < STOP_SHARE


def picks_right(u, share):
    """Whether a pick takes the right tool: draw `u` below the share of right picks at its position
    (`selection(depth)`; floats or arrays)."""
    return u < share


def random_tool_index(u, n_tools: int = N_TOOLS):
    """The tool a pick takes when it misses: index int(u x N) of the tool set in use, N = n_tools
    tools (5, or 6 under the course's rule LA1), for a draw `u` in [0, 1) (an int for a float, an
    int64 array for an array of draws)."""
    scaled = u * n_tools
    return int(scaled) if isinstance(scaled, float) else scaled.astype("int64")


@dataclass(frozen=True)
class ToolDraws:
    """A run's draw stream together with the tool set its random picks draw among (lesson 4, LA1).

    Called like the stream itself (the next draw, in [0, 1)); `tools` are tool names in index order.
    A bare draw stream picks among the five tools (TOOL_NAMES).
    """

    stream: Callable[[], float]
    tools: tuple[str, ...]

    def __call__(self) -> float:
        return self.stream()


def draws_among(stream: Callable[[], float], tools: tuple[str, ...]) -> Callable[[], float]:
    """The draws of a run whose tool set is `tools` (`RunConfig.tools`): the bare stream for the
    five tools, else the stream with its tool set (ToolDraws)."""
    return stream if tools == TOOL_NAMES else ToolDraws(stream, tools)


def random_tool(draw: Callable[[], float]) -> str:
    """A tool picked at random with the next draw of the stream, among the stream's tool set (every
    tool with share 1/N: the five tools, or under LA1 the six of a ToolDraws)."""
    tools = draw.tools if isinstance(draw, ToolDraws) else TOOL_NAMES
    return tools[random_tool_index(draw(), len(tools))]


def single_loop_pick(target: str | None, depth: int, draw: Callable[[], float]) -> str | None:
    """The single loop's decision at one step (lesson 1).

    Parameters
    ----------
    target : str | None
        The tool at the first position of the task's sequence not yet done; None once the job is done.
    depth : int
        That position, 1-based.
    draw : Callable[[], float]
        The run's draw stream.

    Returns
    -------
    str | None
        None when a finished agent stops (share STOP_SHARE); otherwise the tool called: the
        target with share selection(depth), else a tool at random (a finished agent that does
        not stop calls a tool at random too).
    """
    if target is None:  # the job is done: the agent should stop
        return None if stops(draw()) else random_tool(draw)
    return target if picks_right(draw(), selection(depth)) else random_tool(draw)


def write_plan(positions: Sequence[str], draw: Callable[[], float]) -> tuple[str, ...]:
    """The planner's one call: a tool for each position, written before any observation.

    Parameters
    ----------
    positions : Sequence[str]
        The right tool of each position to plan (a task's sequence for a first plan, AA29; the
        positions that remain for the contract's replan, CT6). The planner knows how many
        positions there are, not which tools.
    draw : Callable[[], float]
        The run's draw stream (keyed by seed ^ trace_id("plan" + task name)).

    Returns
    -------
    tuple[str, ...]
        One tool name per position: the right tool with the flat share selection(1), else a
        random tool (AA24).
    """
    right = selection(1)
    return tuple(tool if picks_right(draw(), right) else random_tool(draw) for tool in positions)


def executor_pick(plan: Sequence[str], calls: int, target: str | None, depth: int,
                  draw) -> str | None:  # fmt: skip
    """The executor's decision at one step (AA26, AA27, lesson 2).

    While the job is not done and the plan has positions left, the executor calls the plan's next
    position, right or wrong, without a draw (blind, AA26). Once the plan is used up it picks by
    the single loop's rule (AA27); once the job is done it stops like the single loop.

    Parameters
    ----------
    plan : Sequence[str]
        The plan's tools.
    calls : int
        Tool calls made so far (the plan position to execute next).
    target, depth, draw
        As in `single_loop_pick`.

    Returns
    -------
    str | None
        The tool to call, or None to stop.
    """
    if target is not None and calls < len(plan):
        return plan[calls]  # blind: the plan's next position, right or wrong
    return single_loop_pick(target, depth, draw)
