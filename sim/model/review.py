"""The course's rules RV1-RV4 (lesson 8; off by default, so the source's figures stand): a reviewer that
can refuse the side-effect tool, and the clock the loops need to show what it costs in time.

RV1 (a model call that may know the truth): every write_record call the model makes is reviewed by a
    second model call, an LLM judge, at REVIEW_TOKENS tokens and REVIEW_SECONDS simulated seconds a
    review. A write is right only when the task asks for a record and the write names the task's
    subscriber with the task's correct answer as its value; every other write (a wrong value or, under
    AE1, a wrong subscriber; a write the task did not ask for; a write with no value) is wrong. A wrong
    write is refused with CATCH_SHARE, a right one with FALSE_REFUSAL_SHARE: one draw a review, from a
    stream of its own ("review/" + task), so the loop's own draws are unchanged.
RV2 (blocking): the write waits for the verdict. A refused write is not made: the step's observation is
    the error REFUSAL, the step is paid and the loop goes on (the model may pick write_record again; that
    call is reviewed again).
RV3 (parallel, the timing of the OpenAI Agents SDK's input guardrails, run_in_parallel=True by default):
    the write runs at once beside the review; the verdict arrives after it; a refusal is a tripwire that
    halts the run at once, the write already made and no answer returned (the runtime raises).
RV4 (a clock for the loops): a step takes MODEL_STEP_SECONDS plus its tool's seconds (CT10; none for a
    stop step or a planning step); blocking adds REVIEW_SECONDS before the write (a refused write's tool
    time is not spent), parallel adds max(0, REVIEW_SECONDS - the write's seconds).
The reviewer is a model and may know the truth; the loop that obeys it is scaffolding and sees only
the verdict. Standard library only."""

from collections.abc import Callable
from dataclasses import dataclass

from sim.model.draws import draw_stream, stream_key
from sim.model.tasks import ANSWERS, Task

REVIEWERS = ("blocking", "parallel")  # the option `reviewer`'s variants (RV2, RV3)
REVIEW_TOKENS = 100  # tokens a review costs (RV1)
REVIEW_SECONDS = 3  # simulated seconds a review takes (RV1)
CATCH_SHARE = 0.9  # share of wrong writes the reviewer refuses (RV1)
FALSE_REFUSAL_SHARE = 0.05  # share of right writes the reviewer refuses (RV1)
MODEL_STEP_SECONDS = 1  # simulated seconds of a loop step's model call (RV4)
REFUSAL = "refused by the reviewer"  # a blocked write's observation (RV2)
REVIEWED_TOOL = "write_record"  # the side-effect tool the reviewer guards


@dataclass(frozen=True)
class Review:
    """One review (RV1): the step it belongs to, the write's subscriber and value as the model filled
    them, the truth (wrong), the verdict (refused), whether the write reached the world (made) and
    whether the refusal halted the run (tripped, RV3)."""

    step: int
    subscriber: str | None
    value: int | str | None
    wrong: bool
    refused: bool
    made: bool
    tripped: bool

    @property
    def empty(self) -> bool:
        """The call has no value: the tool writes nothing whatever the verdict."""
        return self.value is None


def write_is_wrong(task: Task, subscriber: object, value: object) -> bool:
    """RV1's truth: False only for the write the task asks for (a record task, its subscriber, its
    correct answer as the value)."""
    return not (task.kind == "record" and subscriber == task.subscriber and value == ANSWERS[task.name])


def reviewer_draws(seed: int, task_name: str) -> Callable[[], float]:
    """RV1's draw stream for one run: one draw a review, apart from every other stream."""
    return draw_stream(stream_key(seed, "review/" + task_name))


def refuses(wrong: bool, draw: float) -> bool:
    """RV1's verdict for a write of this truth, from one draw in [0, 1)."""
    return draw < (CATCH_SHARE if wrong else FALSE_REFUSAL_SHARE)


def step_seconds(tool_seconds: int, reviewer: str | None = None, refused: bool = False) -> int:
    """RV4: a loop step's simulated seconds from its tool's seconds (0: no tool); `reviewer` the mode
    when the step's call was reviewed (RV2 blocking, RV3 parallel), `refused` its verdict."""
    if reviewer == "blocking":
        return MODEL_STEP_SECONDS + REVIEW_SECONDS + (0 if refused else tool_seconds)
    if reviewer == "parallel":
        return MODEL_STEP_SECONDS + tool_seconds + max(0, REVIEW_SECONDS - tool_seconds)
    return MODEL_STEP_SECONDS + tool_seconds
