"""Lesson 8's exercise checks, one per pattern, each function prefixed by its pattern. Each says right
or wrong, never the answer (the reference answers are the functions without `check_`).

compaction_: the cost of a compacted single-loop step (CP1, sim.model.compaction), written by the
student as a function of the trace length and keep_last, checked against every step the single loop
takes at the student's seed under keep_last 1, 2 and 3."""

from collections.abc import Callable

from sim.engine.config import RunConfig
from sim.engine.runs import run_with
from sim.model.checks import check_seed
from sim.model.compaction import compacted_step_tokens
from sim.model.costs import loop_step_tokens, observation_tokens
from sim.model.errors import InputTypeError
from sim.model.tasks import TASKS
from sim.presentation.screen import fits_the_screen

COMPACTION_KEEP_LASTS = (1, 2, 3)  # the keep_last values the check runs
COMPACTION_BUDGET = 8  # steps


def compaction_step_tokens(trace_length: int, keep_last: int) -> int:
    """The compaction exercise's answer: a single-loop step's tokens before its observation under CP1,
    the last keep_last calls in full and a summary of the earlier ones."""
    return compacted_step_tokens(loop_step_tokens, trace_length, keep_last)


@fits_the_screen
def check_compaction_step_tokens(seed: int, step_tokens: Callable) -> str:
    """The compaction exercise: `step_tokens(trace_length, keep_last)` against each step of the single
    loop on every task at `seed` under keep_last 1, 2 and 3 (the step's tokens minus its observation);
    names the first trace length and keep_last it gets wrong, not the tokens.
    Raises InputTypeError for a bad seed or a step_tokens that is not callable."""
    seed = check_seed(seed)
    if not callable(step_tokens):
        raise InputTypeError(
            f"step_tokens must be a function (trace_length, keep_last) -> tokens, got {type(step_tokens).__name__}"
        )
    checked = set()
    for keep_last in COMPACTION_KEEP_LASTS:
        config = RunConfig("single-loop", COMPACTION_BUDGET, keep_last=keep_last)
        for task in TASKS:
            for step in run_with(config, task, seed).log:
                if (step.trace_length, keep_last) in checked:
                    continue
                checked.add((step.trace_length, keep_last))
                paid = step.tokens - (0 if step.tool is None else observation_tokens(step.error))
                answer = step_tokens(step.trace_length, keep_last)
                if answer is None:
                    return "not answered yet: write the body of your step_tokens function and run the check again"
                if answer != paid:
                    return (
                        f"wrong: at seed {seed}, a step re-sending a trace of {step.trace_length} calls "
                        f"with keep_last={keep_last} does not cost that; the summary is paid only for "
                        "calls beyond the last keep_last"
                    )
    return f"right: your step cost matches all {len(checked)} (trace length, keep_last) pairs at seed {seed}"
