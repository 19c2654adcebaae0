"""Lesson 4's exercise checks: the exit states counted, and a plan validator by the data-flow rule
(CT4). Each says right or wrong, never the answer (the answers: scripts/make_answer_key.py)."""

from collections.abc import Callable

import numpy as np

from sim.engine.contract import INTERNAL_FIELDS, run_contract
from sim.engine.exit_states import EXIT_STATES
from sim.engine.loops import initial_state
from sim.engine.plan_schema import GOALS, Plan, data_flow_problems, plan_from_tools
from sim.model.checks import check_seed
from sim.model.errors import InputTypeError
from sim.model.tasks import TASKS
from sim.model.world import TOOL_NAMES
from sim.presentation.screen import fits_the_screen

BUDGET = 8  # the lesson's budget (steps)
PLAN_CASES = 40  # plans the validator check runs
RIGHT_TOOLS = 0.5  # share of the cases whose tools are the task's sequence
DROPPED = 0.3  # share of the cases with one linked step's depends_on emptied


def exit_counts(seed: int) -> dict[str, int]:
    """Exercise 7's answer: the tasks ending in each exit state at `seed`, budget 8, default bounds."""
    seed = check_seed(seed)
    states = [run_contract(task, seed, BUDGET).exit_state for task in TASKS]
    return {state: states.count(state) for state in EXIT_STATES}


@fits_the_screen
def check_exit_counts(seed: int, answer: object = None) -> str:
    """Exercise 7: the student's dict exit state -> tasks (a state left out counts 0). Names the first
    state off, not which way (halving would find it). Raises for a bad seed or answer."""
    seed = check_seed(seed)
    if answer is None:
        return "not answered yet: set my_exits and run the check again"
    if not isinstance(answer, dict):
        raise InputTypeError(f"answer must be a dict from exit state to a count, got {type(answer).__name__}")
    unknown = [state for state in answer if state not in EXIT_STATES]
    if unknown:
        return f"wrong: {unknown[0]!r} is no exit state; the states are {', '.join(EXIT_STATES)}"
    wanted = exit_counts(seed)
    for state in EXIT_STATES:
        given = answer.get(state, 0)
        if isinstance(given, bool) or not isinstance(given, int):
            return f"wrong: the count for {state} must be a whole number, got {given!r}"
        if given != wanted[state]:
            return (f"wrong: at seed {seed} your count for {state} is not right; "
                    "run every task once with sim.engine.contract.run_contract at budget 8 and read run.exit_state")  # fmt: skip
    return f"right: at seed {seed} those are the counts"


def plan_cases(seed: int) -> list[tuple[str, Plan, tuple[str, ...]]]:
    """Exercise 1's PLAN_CASES (task name, plan, initial scratchpad), drawn from `seed`: planner plans
    of the task's sequence (share RIGHT_TOOLS) or of random tools; in a share DROPPED one linked step
    loses its depends_on."""
    rng, cases = np.random.default_rng(check_seed(seed)), []
    for _ in range(PLAN_CASES):
        task = TASKS[int(rng.integers(len(TASKS)))]
        if rng.random() < RIGHT_TOOLS:
            tools = list(task.sequence)
        else:
            tools = [TOOL_NAMES[int(i)] for i in rng.integers(len(TOOL_NAMES), size=len(task.sequence))]
        held = tuple(name for name in initial_state(task) if name not in INTERNAL_FIELDS)
        plan = plan_from_tools(tools, GOALS[task.kind], held)
        linked = [i for i, step in enumerate(plan.steps) if step.depends_on]
        if rng.random() < DROPPED and linked:
            k = linked[int(rng.integers(len(linked)))]
            steps = [
                s.model_copy(update={"depends_on": ()}) if i == k else s for i, s in enumerate(plan.steps)
            ]
            plan = Plan.model_validate({"goal": plan.goal, "steps": steps})
        cases.append((task.name, plan, held))
    return cases


@fits_the_screen
def check_plan_validator(seed: int, function: Callable) -> str:
    """Exercise 1: `function(plan, held)` says whether a plan may run by CT4, checked on
    `plan_cases(seed)` against `data_flow_problems`; names the first plan judged wrongly.
    Raises for a bad seed or a function that is not callable."""
    if not callable(function):
        raise InputTypeError(f"function must be a function of (plan, held), got {type(function).__name__}")
    for name, plan, held in plan_cases(seed):
        given = function(plan, held)
        if given is None:
            return "not answered yet: write the body of your function and run the check again"
        if not isinstance(given, bool | np.bool_):
            return f"wrong: your function returned {given!r}; it must return True or False"
        if bool(given) == bool(data_flow_problems(plan, held)):
            steps = "; ".join(f"{s.id} {s.tool} depends on {list(s.depends_on)}" for s in plan.steps)
            return (f"wrong: a plan for {name} ({steps}; scratchpad holds {', '.join(held)}) is "
                    + ("refused by validation, and your function lets it run" if given else
                       "valid, and your function refuses it")
                    + ": follow depends_on upstream, transitively, and check the goal")  # fmt: skip
    return f"right: your validator agrees with validation on all {PLAN_CASES} plans from seed {seed}"
