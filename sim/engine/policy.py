"""Your own agent (lesson 6): a policy `policy(observation) -> str` picks the next tool or "stop" at
each step, in the single loop's engine (its draws and its token rule, AA28).

It sees an `Observation`, what a real agent would know, never the task's sequence. Since the
single loop's right pick needs that sequence, every policy gets `observation.model_pick`: the
fictional model's proposal, drawn by the single loop's own rule only when called, so
`model_policy` reproduces the single loop draw for draw. MR1: each call is a model request; a step's
first is the step's own request (AA28), and each further call within the step is a further request,
a new draw, paid the step's request tokens again (`_paying`). A policy that raises (SystemExit
included; KeyboardInterrupt interrupts) or returns anything but a tool or "stop" ends the run with
a PolicyError naming the policy, task, seed and step.
"""

import reprlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED, RunConfig
from sim.engine.goals import goal_of, goal_reached
from sim.engine.loops import Loop, Run, ToolCall, initial_state, run_loop
from sim.model.checks import check_seed
from sim.model.costs import loop_step_tokens
from sim.model.draws import draw_stream, stream_key
from sim.model.errors import InputError, InputTypeError
from sim.model.picks import single_loop_pick
from sim.model.tasks import TASKS, Task, check_task
from sim.model.world import TOOL_NAMES

STOP = "stop"  # what a policy returns to stop
MR1 = ("each call of model_pick() after a step's first is a further model request, a new proposal, "
       "paid as the step's own request (AA28)")  # fmt: skip
DECISIONS = (*TOOL_NAMES, STOP)
STARTING_FIELDS = frozenset(initial_state(TASKS[0]))  # subscriber, query, column: given, not observed


class PolicyError(InputError):
    """A policy that raised or returned something that is not a tool or "stop" (the policy is the
    caller's input, so the CLI and the panels report it in one line)."""


@dataclass(frozen=True)
class Observation:
    """What a policy knows at one step (lesson 6), what a real agent sees: the request, the calls so
    far, fields (the names the tools returned, sorted) and state (their values, read-only), the answer
    held, steps_left (this step included), draw (the run's stream) and model_pick (the fictional
    model's proposal, a tool or "stop"; it draws from the stream; a second call within a step is a
    further request, paid, MR1), and what the harness tells it of
    its run: the seed it runs at and the task's name (an id, G01..G24, as a benchmark's harness names
    its tasks). No task kind, no plan length."""

    request: str
    trace: tuple[ToolCall, ...]
    fields: tuple[str, ...]
    state: Mapping
    held: int | str | None
    step: int
    steps_left: int
    draw: Callable[[], float]
    model_pick: Callable[[], str]
    seed: int
    task_name: str


def policy_name(policy: object) -> str:
    """A policy's name in messages and tables: its __name__, else its repr."""
    return getattr(policy, "__name__", None) or repr(policy)


def check_policy(policy: object, name: str = "policy") -> Callable:
    """`policy` if it is callable, else InputTypeError naming the parameter."""
    if not callable(policy):
        raise InputTypeError(f"{name} must be a function observation -> tool name or 'stop', "
                             f"got {type(policy).__name__}")  # fmt: skip
    return policy


def model_policy(observation: Observation) -> str:
    """The built-in single loop as a policy: the fictional model's proposal (lesson 6)."""
    return observation.model_pick()


def goal_met(observation: Observation) -> bool:
    """The request's goal observed (lesson 6): the goal test GT1 on the field the router RT1 reads
    from the request."""
    return goal_reached(goal_of(observation.request), {**observation.state, "result": observation.held})


def stop_when_goal_met(observation: Observation) -> str:
    """The observable stop rule (lesson 6): "stop" once `goal_met`, else the model's proposal."""
    return STOP if goal_met(observation) else observation.model_pick()


_SHOWN = reprlib.Repr()  # what a policy returned, shown short (even when its own repr fails)
_SHOWN.maxstring = _SHOWN.maxother = 60
HIDDEN = STARTING_FIELDS | {"result"}  # given at the start, or the answer held (observation.held)


def _adapter(policy: Callable, loop: Loop, draw, further: list) -> Callable:
    """The loop's pick around a policy: it builds the Observation from what the loop holds; `further`
    counts the step's model requests beyond its first (MR1, paid by `_paying`)."""
    task = loop.task

    def pick(target, depth, calls):
        asked = False  # whether the step's policy has asked the model yet

        def model_pick() -> str:
            nonlocal asked
            further[0] += asked  # MR1: a further request within the step, paid by _paying
            asked = True
            tool = single_loop_pick(target, depth, draw)
            return STOP if tool is None else tool

        step, state = loop.steps, loop.state
        seen = {name: state[name] for name in sorted(state) if name not in HIDDEN}
        trace = tuple(replace(call, wrong=()) for call in loop.trace)  # a policy sees what it sent, no label
        observation = Observation(task.request, trace, tuple(seen), MappingProxyType(seen),
                                  state.get("result"), step, loop.config.budget - step + 1, draw,
                                  model_pick, loop.seed, task.name)  # fmt: skip
        try:
            decision = policy(observation)
        except KeyboardInterrupt:  # Ctrl-C interrupts, it is no failure
            raise
        except BaseException as error:  # any failure of the student's code (sys.exit included), named
            raise PolicyError(f"{_where(policy, loop)} raised {describe(error)}") from error
        if not isinstance(decision, str) or decision not in DECISIONS:
            raise PolicyError(f"{_where(policy, loop)} returned {_SHOWN.repr(decision)}: "
                              f"return one of {', '.join(DECISIONS)}")  # fmt: skip
        return None if decision == STOP else decision

    return pick


def _where(policy: Callable, loop: Loop) -> str:
    return f"policy {policy_name(policy)!r} on task {loop.task.name}, seed {loop.seed}, step {loop.steps}"


def describe(error: BaseException) -> str:
    """An exception in one line, "Name: message", even one whose message cannot be printed."""
    try:
        text = " ".join(str(error).split())
    except Exception:  # noqa: BLE001 - a __str__ that fails: the type still names it
        text = "(its message cannot be printed)"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def policy_run(policy: Callable, task: Task, seed: int, config: RunConfig) -> Run:
    """A policy on a checked task, seed and single-loop RunConfig (see `run_policy`)."""
    loop, further = Loop(task, seed, config, None, loop_step_tokens), [0]
    loop.pick = _adapter(policy, loop, draw_stream(stream_key(seed, task.name)), further)
    loop.step_tokens = _paying(loop.step_tokens, further)
    return run_loop(loop)


def _paying(request_tokens: Callable[[int], int], further: list) -> Callable[[int], int]:
    """MR1: a step's request tokens (AA28; `take_step` asks once a step, after the pick) paid once for the
    step's own request and once for each further model request its pick made; the count then starts anew."""

    def step_tokens(trace_length: int) -> int:
        paid = request_tokens(trace_length) * (1 + further[0])
        further[0] = 0
        return paid

    return step_tokens


def run_policy(
    policy: Callable, task: Task | str, seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET
) -> Run:
    """Run a policy on one task in the single loop's engine (lesson 6); a Run of setup "single-loop".

    Raises InputTypeError, InputError for a bad policy, task, seed or budget; PolicyError when the
    policy raises or returns anything but a tool name or "stop"."""
    policy, task, seed = check_policy(policy), check_task(task), check_seed(seed)
    return policy_run(policy, task, seed, RunConfig("single-loop", max_steps))
