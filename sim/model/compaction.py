"""The course's compacted trace (lesson 8; off by default, so the source's figures stand). FICTIONAL.
Under the option keep_last = k a step re-sends only the last k tool calls of its trace in full and a
summary of the earlier ones.

CP1 (cost): a step's tokens are the source's step formula on min(trace length, k) calls (60 + 22 x
calls in the single loop, 40 + 10 x calls in the executor, sim.model.costs) plus, only when the trace
holds more than k calls, a summary of SUMMARY_TOKENS = 20 and SUMMARY_TOKENS_PER_CALL = 4 per summarized
call. A summary of few calls can cost more than the calls it replaces.
CP2 (what the model loses): the model's pick is made as without the rule, with the same draws. When
the pick's target tool needs a field (its schema's fields the request does not give; write_record's
value is the answer held) that only a summarized call produced (the latest call that produced it is
older than the last k), a right pick stays right only with share SUMMARY_RECALL = 0.6; else the model
takes another tool, drawn uniformly among the other tools of the run's tool set. A wrong pick stays
as it is. So such a pick is right with share 0.6 x (selection(d) + (1 - selection(d)) / n) among n
tools, lucky random picks included. The split's executor follows its plan blindly (AA26) while plan
positions remain, so CP2 touches only its fallback picks. The rule's draws (whether a right pick stays
right, then which other tool) come from a stream of its own ("compaction/" + task), so the loop's own
draws are unchanged. The model may know which fields the target needs (a model rule); the tools still
get the full state: compaction changes what the model re-reads, not what the harness holds.
"""

from collections.abc import Callable, Mapping, Sequence
from functools import cache

from sim.model.draws import draw_stream, stream_key
from sim.model.picks import random_tool_index
from sim.model.world import WORLD_TOOLS

SUMMARY_TOKENS = 20  # CP1: a summary of the earlier calls, once a step
SUMMARY_TOKENS_PER_CALL = 4  # CP1: and this much per call summarized
SUMMARY_RECALL = 0.6  # CP2: the share of right picks that stay right when a needed field is summarized
READ_AS = {"value": "result"}  # write_record's value is the answer held (sim.engine.loops.call_arguments)


def summary_tokens(summarized):
    """CP1: the summary of `summarized` calls (an int or an integer array): 0 for none, else 20 + 4 a
    call."""
    return (summarized > 0) * (SUMMARY_TOKENS + SUMMARY_TOKENS_PER_CALL * summarized)


def compacted_step_tokens(step_tokens: Callable, trace_length, keep_last: int):
    """CP1: a step's tokens with the last `keep_last` calls of a trace of `trace_length` calls (ints)
    re-sent in full (the source's `step_tokens` formula) and a summary of the earlier ones."""
    summarized = trace_length - keep_last
    if summarized <= 0:
        return step_tokens(trace_length)
    return step_tokens(keep_last) + SUMMARY_TOKENS + SUMMARY_TOKENS_PER_CALL * summarized


def compacting(step_tokens: Callable, keep_last: int) -> Callable:
    """The step cost (trace length -> tokens) of a loop whose `step_tokens` is compacted to the last
    `keep_last` calls (CP1)."""

    def tokens(trace_length):
        return compacted_step_tokens(step_tokens, trace_length, keep_last)

    return tokens


@cache
def fields_needed(tool: str | None, given: tuple[str, ...]) -> tuple[str, ...]:
    """The fields a call of `tool` needs from earlier calls: its schema's fields not in `given` (what the
    request gives, a tuple), write_record's value read as the answer held; () for a stop (None)."""
    if tool is None:
        return ()
    return tuple(READ_AS.get(name, name) for name in WORLD_TOOLS[tool].fields if name not in given)


def summarized_fields(needed: Sequence[str], produced: Mapping[str, int], trace_length: int,
                      keep_last: int) -> tuple[str, ...]:  # fmt: skip
    """CP2's test: the `needed` fields whose latest producing call (`produced`: field -> 0-based call
    index) is older than the last `keep_last` of `trace_length` calls; fields never produced are not."""
    first_kept = trace_length - keep_last
    return tuple(name for name in needed if name in produced and produced[name] < first_kept)


def recall_draws(seed: int, task_name: str) -> Callable[[], float]:
    """CP2's draw stream for one run: its draws apart from every other stream."""
    return draw_stream(stream_key(seed, "compaction/" + task_name))


def recalled(tool: str, draw: Callable[[], float], tools: Sequence[str]) -> str:
    """CP2: a right pick `tool` whose target needs a field only the summary holds: `tool` with share
    SUMMARY_RECALL (one draw), else another tool of `tools` drawn uniformly (a second draw)."""
    if draw() < SUMMARY_RECALL:
        return tool
    others = tuple(name for name in tools if name != tool)
    return others[random_tool_index(draw(), len(others))]
