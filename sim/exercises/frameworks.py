"""Lesson 7's exercise checks: each says right or wrong, and what is off, at the student's seed, never
the answer. They run the frameworks against the course's endpoint on 127.0.0.1."""

from collections.abc import Callable

from sim.chat.frameworks import run_course_loop, run_openai_agents
from sim.chat.model_endpoint import held_answer, serve
from sim.exercises.step_budget import count_verdict
from sim.model.checks import check_seed
from sim.model.errors import InputError, InputTypeError
from sim.model.tasks import TASKS, correct_answer
from sim.presentation.screen import fits_the_screen

TURNS = 4  # exercise 1's bound: the Agents SDK's max_turns and the course loop's steps
HANDLER_TURNS = 3  # exercise 2's bound, small so that many runs reach it
NOT_ANSWERED = "not answered yet: write the body of the handler and run the check again"


def answers_lost(seed: int) -> int:
    """Exercise 1's answer: tasks the course loop answers right and the Agents SDK
    turns ends with MaxTurnsExceeded, at `seed` (both at TURNS)."""
    seed = check_seed(seed)
    with serve() as base_url:
        return sum(
            run_course_loop(task, seed, base_url, TURNS).answer == correct_answer(task)  # scoring
            and run_openai_agents(task, seed, base_url, TURNS).ended == "MaxTurnsExceeded"
            for task in TASKS
        )


@fits_the_screen
def check_exercise_1(seed: int, answer: int | None = None) -> str:
    """Exercise 1: the student's count at `seed`, as `count_verdict`."""
    hint = "run each task through both at 4 and count the right answers the SDK's bound loses"
    return count_verdict(seed, answer, "answer_1", len(TASKS), answers_lost, hint)


@fits_the_screen
def check_exercise_2(handler: Callable, seed: int) -> str:
    """Exercise 2: the Agents SDK at 3 turns with `handler` as its max_turns error handler answers every
    task at `seed` as the course loop at 3 steps does (where no tool result holds an answer, with the text
    "The answer is null."); names the first task where it does not, and tells a handler returning None only
    there from one not written. Raises for a handler that is not callable or a bad seed."""
    if not callable(handler):
        raise InputTypeError(f"handler must be a function, got {type(handler).__name__}")
    seed, returned, raised = check_seed(seed), [], []

    def recorded(data):
        try:
            returned.append(handler(data))
        except Exception as error:  # noqa: BLE001 - the student's handler may raise anything
            raised.append(error)
            raise
        return returned[-1]

    unheld = None  # the first task where the handler returned None and no tool result held an answer
    with serve() as base_url:
        for task in TASKS:
            course, before = run_course_loop(task, seed, base_url, HANDLER_TURNS), len(returned)
            try:
                sdk = run_openai_agents(task, seed, base_url, HANDLER_TURNS, recorded)
            except Exception as error:  # noqa: BLE001 - the handler's own error, told; any other raised
                if not raised or (error is not raised[-1] and error.__cause__ is not raised[-1]):
                    raise
                return (
                    f"wrong: at task {task.name} the handler raised {type(raised[-1]).__name__}: {raised[-1]}"
                )
            if len(returned) > before and returned[-1] is None:
                if course.answer is None:  # nothing held: told apart below from a body not yet written
                    unheld = unheld or task.name
                    continue
                if any(value is not None for value in returned):
                    return f"wrong: at task {task.name} the handler returned None, and the tool results hold an answer"
                return NOT_ANSWERED
            if sdk.ended == "MaxTurnsExceeded":
                return f"wrong: at task {task.name} the run still ends with MaxTurnsExceeded"
            if sdk.ended == "max_turns handler" and sdk.answer is None:
                try:
                    held_answer(returned[-1])
                except (InputError, InputTypeError):
                    return (f"wrong: at task {task.name} the handler returned {str(returned[-1])[:40]!r}; "
                            "return the text 'The answer is <JSON>.'")  # fmt: skip
            if sdk.answer != course.answer:
                return (f"wrong: at task {task.name} the SDK answers otherwise than the course loop, "
                        f"whose answer is the one the tool results hold")  # fmt: skip
    if unheld is not None:
        if all(value is None for value in returned):
            return NOT_ANSWERED
        return f"wrong: at task {unheld} no result holds an answer, the handler returned None: say 'The answer is null.'"
    reached = sum(value is not None for value in returned)
    return f"right: all {len(TASKS)} tasks answered as the course loop answers ({reached} by your handler)"
