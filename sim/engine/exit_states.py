"""Exit states (rule CT12): how a run ended, for the contract and, read from their traces, for the
loops; what stopped a contract run (CT7, CT11); and the counts per setup and seed.

Introduced in lesson 4, the contract (whose rules CT1-CT12 are stated in `sim.engine.contract`).
"""

from collections.abc import Mapping

from sim.model.tasks import Task, check_task, correct_answer
from sim.model.world import SUBSCRIBERS, consumption_m3

# exit states (CT12) and stop reasons
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
    """The ContractCounts field (and table key) of a stop reason: "stop_plan_complete" for "plan complete"."""
    return "stop_" + reason.replace(" ", "_")


def job_done(task: Task, fields: Mapping) -> bool:
    """CT12: a record task is done when its record is written with the correct value; any other
    task when the result held is the correct answer."""
    if task.kind == "record":
        return fields.get("written") is True and fields.get("value") == correct_answer(task)
    return fields.get("result") == correct_answer(task)


def holds_correct_intermediate(task: Task, fields: Mapping) -> bool:
    """CT12: the right m3 held for a charge or record task, or the right amount for a record task."""
    record = SUBSCRIBERS[task.subscriber]
    right_m3 = fields.get("m3") == consumption_m3(record.previous, record.current)
    if task.kind == "charge":
        return right_m3
    if task.kind == "record":
        return right_m3 or fields.get("amount") == correct_answer(task)
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
    """The CT12 exit state of any run record, a contract run or a loop's (lesson 4 compares them).

    Parameters
    ----------
    run : ContractRun | Run
        A run of any setup. Its trace decides: a record task is done when its last successful
        write_record wrote the correct value; another task when its answer is correct; a
        successful consumption call (any task but a document or consumption task) or a tariff
        call that gave the correct amount (a record task) means a correct intermediate was held
        (the world's tools compute it from the task's own subscriber; under the course's LA1 a
        tariff call may follow the look-alike's wrong m3, lesson 4). The stop reason is the run's own for a contract
        run; for a loop it is "job done" when the agent stopped and "max_steps" when the
        budget ran out, so a loop that stopped with a spoiled answer and no intermediate falls
        to TIMEOUT, the order's last state.

    Returns
    -------
    str
        One of EXIT_STATES; for a contract run it equals `run.exit_state`.
    """
    task = check_task(run.task)
    succeeded = [call for call in run.trace if not call.error]
    if task.kind == "record":
        writes = [call for call in succeeded if call.tool == "write_record"]
        done = bool(writes) and writes[-1].held == correct_answer(task)
    else:
        done = run.answer == correct_answer(task)
    tools = {call.tool for call in succeeded}
    right_amount = any(call.tool == "tariff" and call.held == correct_answer(task) for call in succeeded)
    intermediate = (task.kind in ("charge", "record") and "consumption" in tools) or (
        task.kind == "record" and right_amount
    )
    return exit_state(done, intermediate, stop_reason_of(run))


def stop_reason_of(run) -> str:
    """What ended a run: a contract run's own stop reason (one of STOP_REASONS); for a loop's run
    "job done" when the agent stopped (it stops only once its job is done) and "max_steps" when
    the budget ran out."""
    return getattr(run, "stop_reason", None) or ("job done" if run.stopped else "max_steps")
