"""The checks of lesson 4's coding exercises, for a seed the student chooses: the exit states of the
contract's runs, counted, and a plan validator the student writes (the data-flow rule, CT4). Each check
says right or wrong, and what is off, never the answer; the reference answers (`exit_counts`,
`plan_cases` with `sim.engine.plan_schema.data_flow_problems`) go into INSTRUCTORS.md through
scripts/make_answer_key.py.
"""

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
    """Exercise 6's answer: how many of the 24 tasks end in each exit state (every state of EXIT_STATES,
    0 included) under the contract at `seed`, budget 8, default bounds. Raises for a bad seed."""
    seed = check_seed(seed)
    states = [run_contract(task, seed, BUDGET).exit_state for task in TASKS]
    return {state: states.count(state) for state in EXIT_STATES}


@fits_the_screen
def check_exit_counts(seed: int, answer: object = None) -> str:
    """Lesson 4, exercise 6: the student's counts, a dict from exit state to tasks, at `seed`.
    Returns "right: ...", "wrong: ..." naming the first state whose count is off (not which way: a
    small count could be found by halving), or "not answered yet"; never a count. A state left out counts as 0.

    Raises InputTypeError / InputError for a bad seed or an answer that is not such a dict."""
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


def _held(task) -> tuple[str, ...]:
    return tuple(name for name in initial_state(task) if name not in INTERNAL_FIELDS)


def plan_cases(seed: int) -> list[tuple[str, Plan, tuple[str, ...]]]:
    """The cases exercise 7 of lesson 4 checks, drawn with a numpy Generator seeded with `seed`: PLAN_CASES
    (task name, plan, held) triples. A plan is what the planner writes (`plan_from_tools`) around the
    task's sequence (share RIGHT_TOOLS) or random tools of the same length; in a share DROPPED of them
    the depends_on of one step that has any is emptied. `held` is the task's initial scratchpad. Raises for a bad seed."""
    rng, cases = np.random.default_rng(check_seed(seed)), []
    for _ in range(PLAN_CASES):
        task = TASKS[int(rng.integers(len(TASKS)))]
        if rng.random() < RIGHT_TOOLS:
            tools = list(task.sequence)
        else:
            tools = [TOOL_NAMES[int(i)] for i in rng.integers(len(TOOL_NAMES), size=len(task.sequence))]
        held = _held(task)
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
    """Lesson 4, exercise 7: `function(plan, held)` returns True when the plan may run by the data-flow
    rule (CT4) and False when validation refuses it. The check runs it on `plan_cases(seed)` against
    `sim.engine.plan_schema.data_flow_problems` and returns "right: ...", "wrong: ..." naming the first plan it
    judges wrongly (as its steps) and which way, or "not answered yet" (the function returns None).

    Raises InputTypeError / InputError for a function that is not callable or a bad seed."""
    if not callable(function):
        raise InputTypeError(f"function must be a function of (plan, held), got {type(function).__name__}")
    for name, plan, held in plan_cases(seed):
        given = function(plan, held)
        if given is None:
            return "not answered yet: write the body of your function and run the check again"
        if not isinstance(given, bool | np.bool_):
            return f"wrong: your function returned {given!r}; it must return True or False"
        valid = not data_flow_problems(plan, held)
        if bool(given) != valid:
            steps = "; ".join(f"{s.id} {s.tool} depends on {list(s.depends_on)}" for s in plan.steps)
            return (f"wrong: a plan for {name} ({steps}; scratchpad holds {', '.join(held)}) is "
                    + ("refused by validation, and your function lets it run" if given else
                       "valid, and your function refuses it")
                    + ": follow depends_on upstream, transitively, and check the goal")  # fmt: skip
    return f"right: your validator agrees with validation on all {PLAN_CASES} plans from seed {seed}"
