"""Your own agent: the policy interface through which a function decides, at each step, which tool
to call next or to stop (lesson 6).

A policy is a function `policy(observation) -> str`: it returns one of the five tool names, or
STOP ("stop"). It sees an `Observation`: what a real agent would know at that step (the request,
the task's kind and plan length, its own trace, the fields it has observed, the steps left) and
the run's draw stream, so that any randomness it uses comes from `sim` and a run stays
deterministic for a seed. It never sees the task's sequence: that is the fictional model's
oracle.

The engine is the one of every loop (`sim.engine.loops.run_loop`): a policy runs in the single loop's
setting, with its draw stream (keyed by seed and task) and its token rule (AA28, 60 + 22 x
trace length a step, 30 an observation). A policy that raises (any exception, the SystemExit of
`sys.exit` included; a KeyboardInterrupt interrupts, as Ctrl-C does), or returns anything but a
tool or "stop", stops the whole run with a PolicyError naming the policy, the task, the seed and
the step; one that never stops is stopped by the step budget, as any loop is.

THE CHOICE ABOUT THE MODEL'S PROPOSAL. The built-in single loop picks the right tool with a
share that falls with depth; to draw that pick it must know the right tool, which no policy
may see. So `sim` hands every policy `observation.model_pick`: the fictional model's proposal
for this step (a tool or "stop"), drawn from the run's stream by the single loop's own rule
(`sim.model.picks.single_loop_pick`) only when the policy calls it. The built-in single loop is then
the policy that returns the proposal (`model_policy`), and its runs equal the built-in runner's
draw for draw. The proposal stands for what a language model would suggest; a student policy
may use it, overrule it (e.g. stop when the goal is observed), or ignore it entirely.
"""

import reprlib
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED, RunConfig
from sim.engine.loops import Run, ToolCall, initial_state, run_loop
from sim.model.checks import check_seed
from sim.model.costs import loop_step_tokens
from sim.model.draws import draw_stream, stream_key
from sim.model.errors import InputError, InputTypeError
from sim.model.picks import single_loop_pick
from sim.model.tasks import Task, check_task
from sim.model.world import TOOL_NAMES

STOP = "stop"  # what a policy returns to stop
DECISIONS = (*TOOL_NAMES, STOP)
STARTING_FIELDS = frozenset(
    initial_state(check_task("G01"))
)  # subscriber, query, column: given, not observed
GOAL_FIELDS = MappingProxyType(
    {"charge": "amount", "consumption": "m3", "document": "code", "record": "written"}
)


class PolicyError(InputError):
    """A policy that raised or returned something that is not a tool or "stop": the message names
    the policy, the task, the seed and the step. An InputError (the policy is the caller's input),
    so the CLI and the panels report it in one line."""


@dataclass(frozen=True)
class Observation:
    """What a policy knows at one step (lesson 6).

    Fields: request (the task's request text); kind ("charge", "consumption", "document" or
    "record"); plan_length (tool calls the task takes when every pick is right; the planner
    knows it too, AA29); trace (the tool calls so far, each a ToolCall: tool, error, answer
    held after it); fields (names of the fields the tools have returned so far, e.g. "m3");
    held (the answer held now, None if none); step (this step's number, 1-based); steps_left
    (steps, this one included); draw (the run's draw stream: call it for a float in [0, 1));
    model_pick (call it for the fictional model's proposal, a tool name or "stop"; it draws from
    the same stream).
    """

    request: str
    kind: str
    plan_length: int
    trace: tuple[ToolCall, ...]
    fields: frozenset
    held: int | str | None
    step: int
    steps_left: int
    draw: Callable[[], float]
    model_pick: Callable[[], str]


def policy_name(policy: object) -> str:
    """A policy's name as messages and tables show it: its __name__, else its repr."""
    return getattr(policy, "__name__", None) or repr(policy)


def check_policy(policy: object, name: str = "policy") -> Callable:
    """Return `policy` if it is callable, else InputTypeError naming the parameter."""
    if not callable(policy):
        raise InputTypeError(f"{name} must be a function observation -> tool name or 'stop', "
                             f"got {type(policy).__name__}")  # fmt: skip
    return policy


def model_policy(observation: Observation) -> str:
    """The built-in single loop as a policy: take the fictional model's proposal (lesson 6).

    Parameters
    ----------
    observation : Observation

    Returns
    -------
    str
        observation.model_pick(): a tool name, or "stop" (a finished agent stops with share
        STOP_SHARE, rule of lesson 1). Runs equal the built-in single loop's, by construction.
    """
    return observation.model_pick()


def goal_met(observation: Observation) -> bool:
    """The task's goal as a postcondition on what has been observed (lesson 6).

    Parameters
    ----------
    observation : Observation

    Returns
    -------
    bool
        For a charge task, an "amount" observed; consumption, "m3"; document, "code"; record, a
        record written (a write_record call without error) after an amount was observed. Reads
        only the observation, never the task's sequence.
    """
    if observation.kind != "record":
        return GOAL_FIELDS[observation.kind] in observation.fields
    amount_seen = False
    for call in observation.trace:
        amount_seen = amount_seen or (call.tool == "tariff" and not call.error)
        if call.tool == "write_record" and not call.error and amount_seen:
            return True
    return False


def stop_when_goal_met(observation: Observation) -> str:
    """The observable stop rule (lesson 6): "stop" once `goal_met`, else the model's proposal.

    Parameters
    ----------
    observation : Observation

    Returns
    -------
    str
        "stop" when the goal is observed; otherwise observation.model_pick() (which may itself
        be "stop" before the goal is met).
    """
    return STOP if goal_met(observation) else observation.model_pick()


def _adapter(policy: Callable, task: Task, seed: int, budget: int, state: dict, trace: list):
    """The engine's pick (target, depth, draw, trace_length) -> tool or None, around a policy that
    sees an Observation. It reads what the agent observed from the engine's own `state` and
    `trace` (`run_loop` fills them), as they stand when the step picks."""
    name, step = policy_name(policy), [0]
    request, kind, plan_length = task.request, task.kind, len(task.sequence)
    hidden = STARTING_FIELDS | {"result", "value"}

    def pick(target, depth, draw, _trace_length):
        step[0] += 1

        def model_pick() -> str:
            tool = single_loop_pick(target, depth, draw)
            return STOP if tool is None else tool

        observation = Observation(request, kind, plan_length, tuple(trace), frozenset(state) - hidden,
                                  state.get("result"), step[0], budget - step[0] + 1, draw, model_pick)  # fmt: skip
        try:
            decision = policy(observation)
        except KeyboardInterrupt:  # Ctrl-C (or a policy that says so) interrupts, it is no failure
            raise
        except BaseException as error:  # any failure of the student's code (sys.exit included), named
            raise PolicyError(f"{_where(name, task, seed, step[0])} raised {describe(error)}") from error
        if not isinstance(decision, str) or decision not in DECISIONS:
            raise PolicyError(f"{_where(name, task, seed, step[0])} returned {_SHOWN.repr(decision)}: "
                              f"return one of {', '.join(DECISIONS)}")  # fmt: skip
        return None if decision == STOP else decision

    return pick


_SHOWN = reprlib.Repr()  # what a policy returned, shown short (even when its own repr fails)
_SHOWN.maxstring = _SHOWN.maxother = 60


def describe(error: BaseException) -> str:
    """An exception in one line, as "Name: message" ("Name" alone when it has no message), for
    any exception a student's code raises, even one whose message cannot be printed."""
    try:
        text = " ".join(str(error).split())
    except Exception:  # noqa: BLE001 - a __str__ that fails: the type still names it
        text = "(its message cannot be printed)"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _where(name: str, task: Task, seed: int, step: int) -> str:
    return f"policy {name!r} on task {task.name}, seed {seed}, step {step}"


def policy_run(policy: Callable, task: Task, seed: int, config: RunConfig) -> Run:
    """A policy on a checked task, seed and single-loop RunConfig (see `run_policy`)."""
    draw = draw_stream(stream_key(seed, task.name))
    state, trace = initial_state(task), []
    pick = _adapter(policy, task, seed, config.budget, state, trace)
    return run_loop(task, seed, config, draw, pick, loop_step_tokens, state=state, trace=trace)


def run_policy(
    policy: Callable, task: Task | str, seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET
) -> Run:
    """Run a policy on one task in the single loop's engine (lesson 6).

    Parameters
    ----------
    policy : Callable[[Observation], str]
        Returns a tool name (one of TOOL_NAMES) or "stop" at each step.
    task : Task | str
        The task or its name, G01..G24.
    seed : int
        Run seed, 0 <= seed < 2**32; it keys the draw stream the policy and model_pick use.
    max_steps : int
        Step budget (steps), >= 1: a policy that never stops is stopped here.

    Returns
    -------
    Run
        Setup "single-loop" (the engine and token rule it ran with), steps, tokens, tool errors,
        answer, trace and step log; `stopped` is True when the policy said "stop".

    Raises
    ------
    InputTypeError, InputError
        For a policy that is not callable, a bad task, seed or budget.
    PolicyError
        When the policy raises or returns anything but a tool name or "stop" (naming the policy,
        task, seed and step); no partial run is returned.
    """
    policy, task, seed = check_policy(policy), check_task(task), check_seed(seed)
    return policy_run(policy, task, seed, RunConfig("single-loop", max_steps))
