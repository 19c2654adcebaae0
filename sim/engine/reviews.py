"""Lesson 8's reviewer seen from a finished loop run: the clock RV4 and the writes a run made (the rules
RV1-RV4 are stated in `sim.model.review`; the loops apply them in `sim.engine.loops`)."""

from sim.engine.config import PLANNING_STEPS
from sim.engine.loops import LoopStep, Run, check_run
from sim.engine.plan_schema import tool_seconds
from sim.model.arguments import wrong_value
from sim.model.review import MODEL_STEP_SECONDS, REVIEWED_TOOL, step_seconds, write_is_wrong
from sim.model.tasks import BY_NAME


def run_seconds(run: Run) -> int:
    """RV4: a loop run's simulated seconds: each planning step MODEL_STEP_SECONDS, each loop step its
    model call plus its tool's seconds (CT10), a reviewed write as RV2 or RV3 say.

    Raises InputTypeError, InputError for anything but a loop Run."""
    run = check_run(run, setups=tuple(PLANNING_STEPS))
    verdicts = {review.step: review.refused for review in run.reviews}
    reviewer = run.config.reviewer
    return MODEL_STEP_SECONDS * PLANNING_STEPS[run.setup] + sum(
        step_seconds(tool_seconds(step.tool), reviewer if step.step in verdicts else None,
                     verdicts.get(step.step, False))
        for step in run.log
    )  # fmt: skip


def write_of(run: Run, step: LoopStep) -> tuple[str, object]:
    """The subscriber and value a write_record step of `run` wrote (or would have), as the model filled
    them (AE1's wrong arguments included)."""
    subscriber = BY_NAME[run.task].subscriber
    value = step.held
    return (
        wrong_value("subscriber", subscriber) if "subscriber" in step.wrong else subscriber,
        wrong_value("value", value) if "value" in step.wrong else value,
    )


def writes_made(run: Run) -> tuple[bool, ...]:
    """Each write that reached the world in `run` (a write_record call without an error), in order:
    True for a wrong one (RV1's truth), with or without a reviewer."""
    task = BY_NAME[run.task]
    return tuple(
        write_is_wrong(task, *write_of(run, step))
        for step in run.log
        if step.tool == REVIEWED_TOOL and not step.error
    )
