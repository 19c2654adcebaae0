"""The course's rules RF1-RF3 (lesson 8; off by default, so the source's figures stand): the model
reflects on its picks. The ordinary pick is always made first, with its own draws; a rule may then
replace it, with draws from a stream of its own, so every other draw is unchanged.

RF1 feedback (after Reflexion, Shinn et al. 2023): a tool error's step costs REFLECTION_TOKENS more
(the reflection on the error). At the next pick, while the job is not done, the model follows the
error's feedback with share FEEDBACK_SHARE: it takes the tool that supplies the first field the failed
call lacked (SUPPLIERS). An error with no such field ("no such subscriber", "not found") leaves the
ordinary pick.
RF2 intrinsic (Huang et al. 2023: no external feedback): every pick made while the job is not done is
critiqued before its call, INTRINSIC_TOKENS each; a right pick becomes a wrong one (uniform among the
other tools) with share RIGHT_TO_WRONG, a wrong pick the right one with share WRONG_TO_RIGHT (the model
may know the right tool: it is the model's skill).
RF3 misleading feedback: under RF1, with a stated share the feedback names a wrong tool: the replacing
pick is uniform among the tools other than the supplier.
In the split the rules act on every executor pick, its blind plan positions (AA26) included: a replaced
call uses up the plan position it replaced (the executor counts calls), unlike CP2, which leaves them.
"""

from collections.abc import Callable, Mapping

from sim.model.draws import draw_stream, stream_key
from sim.model.picks import random_tool_index
from sim.model.world import WORLD_TOOLS

REFLECTION_KINDS = ("feedback", "intrinsic")  # RF1, RF2
REFLECTION_TOKENS = 40  # RF1: per tool error, as the source's self-critique
FEEDBACK_SHARE = 0.9  # RF1: the share of next picks that follow the error's feedback
INTRINSIC_TOKENS = 40  # RF2: per pick critiqued
RIGHT_TO_WRONG = 0.10  # RF2: a right pick changed into a wrong one
WRONG_TO_RIGHT = 0.05  # RF2: a wrong pick changed into the right one
SUPPLIERS = {"previous": "read_meter", "current": "read_meter", "m3": "consumption", "value": "tariff"}
DRAWS_PER_REVISION = {"feedback": 3, "intrinsic": 2}  # fixed, so that shares compare on common draws


def supplier(tool: str, arguments: Mapping) -> str | None:
    """RF1: the tool that supplies the first field of `tool`'s schema missing from the failed call's
    `arguments` (name -> value; None counts as missing), or None (no such field, or no supplier)."""
    schema = WORLD_TOOLS[tool].fields if tool in WORLD_TOOLS else ()
    missing = [name for name in schema if arguments.get(name) is None]
    return SUPPLIERS.get(missing[0]) if missing else None


def other_tool(tool: str, tools: tuple[str, ...], u: float) -> str:
    """A tool other than `tool`, uniform among the rest of `tools` by draw `u`."""
    others = tuple(name for name in tools if name != tool)
    return others[random_tool_index(u, len(others))]


def feedback_pick(pick: str, named: str | None, tools: tuple[str, ...], draws: tuple[float, ...],
                  misleading: float | None) -> str:  # fmt: skip
    """RF1 and RF3: the pick after an error's feedback naming `named` (None: no supplier), by three
    draws (follow, misleading, which wrong tool)."""
    follow, mislead, which = draws
    if named is None or follow >= FEEDBACK_SHARE:
        return pick
    if misleading is not None and mislead < misleading:
        return other_tool(named, tools, which)  # RF3
    return named


def intrinsic_pick(pick: str, target: str, tools: tuple[str, ...], draws: tuple[float, ...]) -> str:
    """RF2: the pick after a critique without feedback, by two draws (change, which wrong tool)."""
    change, which = draws
    if pick == target:
        return other_tool(target, tools, which) if change < RIGHT_TO_WRONG else pick
    return target if change < WRONG_TO_RIGHT else pick


Reviser = Callable[[str, str, tuple[str, Mapping] | None], str]


def reviser(seed: int, task_name: str, kind: str, misleading: float | None,
            tools: tuple[str, ...]) -> Reviser:  # fmt: skip
    """RF1-RF3 for one run: a function (the ordinary pick, the target, the previous call's (tool,
    arguments) if it was a tool error else None) -> the pick made; called only while the job is not
    done. Each call that may revise takes DRAWS_PER_REVISION draws from the run's own stream."""
    draw = draw_stream(stream_key(seed, "reflection/" + task_name))

    def revise(pick: str, target: str, failed: tuple[str, Mapping] | None) -> str:
        if kind == "feedback" and failed is None:
            return pick
        draws = tuple(draw() for _ in range(DRAWS_PER_REVISION[kind]))
        if kind == "intrinsic":
            return intrinsic_pick(pick, target, tools, draws)
        return feedback_pick(pick, supplier(*failed), tools, draws, misleading)

    return revise


def reflection_tokens(kind: str | None, error: bool, critiqued: bool) -> int:
    """A step's reflection tokens: RF1's per tool error, RF2's per pick critiqued, 0 when off."""
    if kind == "feedback":
        return REFLECTION_TOKENS * error
    return INTRINSIC_TOKENS * critiqued if kind == "intrinsic" else 0
