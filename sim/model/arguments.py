"""The course's rule AE1 (lesson 4; off by default, so the source's figures stand): the model can get a
tool's arguments wrong. When it writes a call, each argument it fills that has a plausible wrong
value is, with the stated share, that value instead of the state's: the next subscriber's id, an m3
one too high, a value one too high. The call succeeds with a wrong result and no tool error. The
draws come from a stream of their own (one per argument at risk), so every other draw is unchanged."""

from collections.abc import Callable, Mapping

from sim.model.draws import draw_stream, stream_key
from sim.model.world import SUBSCRIBERS

AT_RISK = ("subscriber", "m3", "value")  # the arguments with a plausible wrong value; the others stay
_IDS = tuple(sorted(SUBSCRIBERS))


def wrong_value(name: str, value: object) -> object:
    """AE1's plausible wrong value of an argument: the next subscriber's id (the last one's is the
    first's), or an integer one too high; anything else stays as it is."""
    if name == "subscriber" and value in SUBSCRIBERS:
        return _IDS[(_IDS.index(value) + 1) % len(_IDS)]
    if name in ("m3", "value") and isinstance(value, int) and not isinstance(value, bool):
        return value + 1
    return value


WrongNames = Callable[[Mapping], tuple[str, ...]]  # a call's arguments -> the names filled wrong


def argument_writer(seed: int, task_name: str, share: float) -> WrongNames:
    """AE1 for one run: a function of a call's arguments (name -> the state's value) that returns the
    names the model fills wrong, one draw per argument at risk, in the arguments' order."""
    draw = draw_stream(stream_key(seed, "arguments/" + task_name))

    def wrong_names(arguments: Mapping) -> tuple[str, ...]:
        at_risk = [
            name
            for name in arguments
            if name in AT_RISK and wrong_value(name, arguments[name]) != arguments[name]
        ]
        return tuple(name for name in at_risk if draw() < share)

    return wrong_names
