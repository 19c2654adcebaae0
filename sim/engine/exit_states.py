"""Exit states (CT12, lesson 4): how a run ended, for the contract and, read from their traces, for the
loops; and what stopped a contract run (CT7, CT11)."""

from collections.abc import Mapping

from sim.model.tasks import ANSWERS, BY_NAME, Task
from sim.model.world import SUBSCRIBERS, consumption_m3

SUCCESS, PARTIAL_SUCCESS = "SUCCESS", "PARTIAL_SUCCESS"
REPLAN_EXHAUSTED, TIMEOUT = "REPLAN_EXHAUSTED", "TIMEOUT"
EXIT_STATES = (SUCCESS, PARTIAL_SUCCESS, REPLAN_EXHAUSTED, TIMEOUT)
PLAN_COMPLETE = "plan complete"
BOUND_NAMES = ("max_steps", "max_tokens", "max_seconds")  # checked in this order before a call (CT11)
STOP_REASONS = (PLAN_COMPLETE, *BOUND_NAMES, "max_replans")


def exit_field(state: str) -> str:
    """The ContractCounts field (and table key) of an exit state: "exit_success" for SUCCESS."""
    return f"exit_{state.lower()}"


def stop_field(reason: str) -> str:
    """The ContractCounts field (and table key) of a stop reason: "stop_plan_complete"."""
    return "stop_" + reason.replace(" ", "_")


def job_done(task: Task, fields: Mapping) -> bool:
    """CT12: a record task's record written with the correct value; another task's correct result held."""
    if task.kind == "record":
        return fields.get("written") is True and fields.get("value") == ANSWERS[task.name]
    return fields.get("result") == ANSWERS[task.name]


def holds_correct_intermediate(task: Task, fields: Mapping) -> bool:
    """CT12: the right m3 held for a charge or record task, or the right amount for a record task."""
    record = SUBSCRIBERS[task.subscriber]
    right_m3 = fields.get("m3") == consumption_m3(record.previous, record.current)
    if task.kind == "charge":
        return right_m3
    if task.kind == "record":
        return right_m3 or fields.get("amount") == ANSWERS[task.name]
    return False


def exit_state(done: bool, intermediate: bool, stop_reason: str) -> str:
    """The one exit state of a run, in the order of CT12."""
    if done:
        return SUCCESS
    if intermediate:
        return PARTIAL_SUCCESS
    if stop_reason == "max_replans":
        return REPLAN_EXHAUSTED
    return TIMEOUT


def exit_state_of(run) -> str:
    """The CT12 exit state of any run, read from its trace (a contract run's equals its own; lesson 4).
    A consumption call, or a tariff call with the right amount, counts as a correct intermediate (the
    look-alike's wrong m3 may precede a tariff call, LA1); a loop stopped by the budget ends in
    TIMEOUT unless done or holding one."""
    task, answer = BY_NAME[run.task], ANSWERS[run.task]
    succeeded = [call for call in run.trace if not call.error]
    if task.kind == "record":
        writes = [call for call in succeeded if call.tool == "write_record"]
        done = bool(writes) and writes[-1].held == answer
    else:
        done = run.answer == answer
    tools = {call.tool for call in succeeded}
    right_amount = any(call.tool == "tariff" and call.held == answer for call in succeeded)
    intermediate = (task.kind in ("charge", "record") and "consumption" in tools) or (
        task.kind == "record" and right_amount
    )
    return exit_state(done, intermediate, stop_reason_of(run))


def stop_reason_of(run) -> str:
    """What ended a run: a contract run's stop reason; for a loop "job done" when the agent stopped,
    "max_steps" when the budget ran out."""
    return getattr(run, "stop_reason", None) or ("job done" if run.stopped else "max_steps")
