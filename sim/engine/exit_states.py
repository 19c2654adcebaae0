"""Exit states (CT12, lesson 4): how a run ended as a runtime sees it, for the contract and, from what
they observed, for the loops; and what stopped a run (CT7, CT11). Scaffolding: no answer is read."""

from sim.engine.goals import goal_of, goal_reached, holds_intermediate
from sim.engine.loops import call_and_observe, initial_state
from sim.model.tasks import BY_NAME

SUCCESS, PARTIAL_SUCCESS = "SUCCESS", "PARTIAL_SUCCESS"
REPLAN_EXHAUSTED, TIMEOUT = "REPLAN_EXHAUSTED", "TIMEOUT"
EXIT_STATES = (SUCCESS, PARTIAL_SUCCESS, REPLAN_EXHAUSTED, TIMEOUT)
PLAN_COMPLETE, JOB_DONE = "plan complete", "job done"  # a contract's plan ended; a loop's agent stopped
BOUND_NAMES = ("max_steps", "max_tokens", "max_seconds")  # checked in this order before a call (CT11)
STOP_REASONS = (PLAN_COMPLETE, *BOUND_NAMES, "max_replans")
TRIPWIRE = "tripwire"  # a loop run halted by a parallel reviewer's refusal (RV3, lesson 8)


def exit_field(state: str) -> str:
    """The ContractCounts field (and table key) of an exit state: "exit_success" for SUCCESS."""
    return f"exit_{state.lower()}"


def stop_field(reason: str) -> str:
    """The ContractCounts field (and table key) of a stop reason: "stop_plan_complete"."""
    return "stop_" + reason.replace(" ", "_")


def exit_state(goal_held: bool, intermediate: bool, stop_reason: str) -> str:
    """The one exit state a runtime reports, in the order of CT12: SUCCESS when its plan completed (a
    loop: the agent stopped) with the goal test held (GT1); PARTIAL_SUCCESS when the goal or a field
    on the way to it is held; REPLAN_EXHAUSTED when replans ran out; else TIMEOUT. It is a claim: the
    answer's truth is a separate column."""
    if goal_held and stop_reason in (PLAN_COMPLETE, JOB_DONE):
        return SUCCESS
    if goal_held or intermediate:
        return PARTIAL_SUCCESS
    if stop_reason == "max_replans":
        return REPLAN_EXHAUSTED
    return TIMEOUT


def observed_fields(run) -> dict:
    """The fields a loop run holds at its end: its trace's calls, with their wrong arguments (AE1),
    replayed from the starting state; a write a blocking reviewer refused (RV2) was never made."""
    fields = initial_state(BY_NAME[run.task])
    blocking = getattr(run.config, "reviewer", None) == "blocking"
    for call in run.trace:
        if blocking and call.error and call.tool == "write_record":
            continue
        call_and_observe(call.tool, fields, call.wrong)  # as the loop called it (the tools are pure)
    return fields


def exit_state_of(run) -> str:
    """The CT12 exit state of any run from what it observed (a contract run's equals its own; lesson 4);
    a loop that stopped ends like a completed plan, one cut by its budget like one cut by a bound."""
    fields = run.scratchpad.fields if hasattr(run, "scratchpad") else observed_fields(run)
    goal = goal_of(BY_NAME[run.task].request)
    return exit_state(goal_reached(goal, fields), holds_intermediate(goal, fields), stop_reason_of(run))


def stop_reason_of(run) -> str:
    """What ended a run: a contract run's stop reason; for a loop "job done" when the agent stopped,
    "max_steps" when the budget ran out, TRIPWIRE when a parallel reviewer halted it (RV3)."""
    if getattr(run, "tripped", False):
        return TRIPWIRE
    return getattr(run, "stop_reason", None) or (JOB_DONE if run.stopped else "max_steps")
