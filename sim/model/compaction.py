"""The course's compacted trace (lesson 8; off by default, so the source's figures stand). FICTIONAL.
Under the option keep_last = k a step re-sends only the last k tool calls of its trace in full and a
summary of the earlier ones.

CP1 (cost): a step's tokens are the source's step formula on min(trace length, k) calls (60 + 22 x
calls in the single loop, 40 + 10 x calls in the executor, sim.model.costs) plus, only when the trace
holds more than k calls, a summary of SUMMARY_TOKENS = 20 and SUMMARY_TOKENS_PER_CALL = 4 per summarized
call. A summary of few calls can cost more than the calls it replaces.
CP2 (what the model loses): a pick whose target tool needs a field (its schema's fields the request
does not give; write_record's value is the answer held) that only a summarized call produced (the
latest call that produced it is older than the last k) is right with share selection(d) x
SUMMARY_RECALL = 0.6 instead of selection(d). The model may know which fields the target needs (a
model rule); the tools still get the full state: compaction changes what the model re-reads, not what
the harness holds. The split's executor follows its plan blindly (AA26) while plan positions remain,
so CP2 touches only its fallback picks. No rule draws: a pick takes the same draw as without the rule.
"""

from collections.abc import Callable, Mapping, Sequence
from functools import cache

from sim.model.picks import executor_pick, picks_right, random_tool, right_share, single_loop_pick
from sim.model.world import WORLD_TOOLS

SUMMARY_TOKENS = 20  # CP1: a summary of the earlier calls, once a step
SUMMARY_TOKENS_PER_CALL = 4  # CP1: and this much per call summarized
SUMMARY_RECALL = 0.6  # CP2: the right-pick share is selection(d) x this when a needed field is summarized
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


def recall_share(needed: Sequence[str], produced: Mapping[str, int], trace_length: int,
                 keep_last: int) -> float:  # fmt: skip
    """CP2: the factor on a pick's right share: SUMMARY_RECALL when a needed field is only in the
    summary (`summarized_fields`), else 1."""
    return SUMMARY_RECALL if summarized_fields(needed, produced, trace_length, keep_last) else 1.0


def recalled_pick(target: str | None, depth: int, draw: Callable[[], float], recall: float) -> str | None:
    """CP2: the single loop's pick (`single_loop_pick`, the same draws) with the right share
    selection(d) x `recall`; a stop decision (target None) is the source's."""
    if target is None or recall == 1:
        return single_loop_pick(target, depth, draw)
    return target if picks_right(draw(), right_share(depth) * recall) else random_tool(draw)


def recalled_executor_pick(plan: Sequence[str], calls: int, target: str | None, depth: int, draw,
                           recall: float) -> str | None:  # fmt: skip
    """CP2 in the split: the executor's pick (`executor_pick`); while plan positions remain it follows
    the plan blindly (AA26), so only its fallback picks take selection(d) x `recall`."""
    if target is not None and calls < len(plan):
        return executor_pick(plan, calls, target, depth, draw)
    return recalled_pick(target, depth, draw, recall)
