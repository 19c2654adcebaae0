"""Measurement: the counted units of one (setup, seed, budget), the plan accuracy, the table, the band rule.

The counted units are success, steps, tool calls, tokens and tool errors (rule AA30).
Introduced in lesson 2, planner and executor.
"""

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import pandas as pd

from sim.agents import (
    DEFAULT_BUDGET,
    DEFAULT_SEED,
    expected_right_share,
    is_correct,
    loop_steps,
    run_plan_execute,
    run_single_loop,
    selection,
)
from sim.checks import check_budget, check_margin, check_seed, check_setup, check_switch, check_task
from sim.contract import EXIT_STATES, exit_state_of, run_contract
from sim.tasks import TASKS, correct_answer
from sim.world import TOOLS

SETUP_LABELS = {"single-loop": "single loop", "plan-execute": "planner + executor", "contract": "contract"}
CONTRACT_OPTIONS = ("max_replans", "max_tokens", "max_seconds")  # options of setup "contract" only
RUN_LABELS = {DEFAULT_SEED: "A", DEFAULT_SEED + 1: "B"}


@dataclass(frozen=True)
class Measurement:
    """The counted units of one setup at one seed and budget over the 24 tasks.

    Fields: setup; seed; budget (steps); solved (tasks whose final answer is correct, of
    n_tasks); steps, calls (tool calls), tokens and errors (tool errors), each summed over
    the tasks; approvals (side-effecting calls that asked for approval); the switches and the
    stopping rule used (lesson 3). Setup "contract" also fills replans, seconds (simulated,
    summed), one count of tasks per exit state (exit_success, exit_partial_success,
    exit_replan_exhausted, exit_timeout) and the contract's bounds (max_replans, max_tokens,
    max_seconds); other setups leave them 0/None (lesson 4).
    """

    setup: str
    seed: int
    budget: int
    solved: int
    n_tasks: int
    steps: int
    calls: int
    tokens: int
    errors: int
    approvals: int
    self_critique: bool = False
    approval: bool = False
    stop_when_done: bool = False
    budget_margin: int | None = None
    replans: int = 0
    seconds: int = 0
    exit_success: int = 0
    exit_partial_success: int = 0
    exit_replan_exhausted: int = 0
    exit_timeout: int = 0
    max_replans: int | None = None
    max_tokens: int | None = None
    max_seconds: int | None = None

    @property
    def success(self) -> float:
        """Share of tasks solved, a fraction in [0, 1]."""
        return self.solved / self.n_tasks

    @property
    def success_exit(self) -> float:
        """Share of tasks ending in exit state SUCCESS (setup "contract"; 0 for the others)."""
        return self.exit_success / self.n_tasks

    @property
    def rule(self) -> str:
        """The stopping rule that ran: "fixed budget" (the seed's), "stop when done", or
        "stop when done, budget plan length + m" (lesson 3); for setup "contract", "contract
        bounds" (it stops at its goal or at a bound, rule CT11, lesson 4)."""
        if self.setup == "contract":
            return "contract bounds"
        stop = "stop when done" if self.stop_when_done else "original stop"
        if self.budget_margin is not None:
            return f"{stop}, budget plan length + {self.budget_margin}"
        return "stop when done" if self.stop_when_done else "fixed budget"


def run_task(
    setup: str,
    task,
    seed: int,
    max_steps: int,
    self_critique=False,
    approval=False,
    stop_when_done=False,
    **contract,
):
    """Run one task in the named setup.

    Parameters
    ----------
    setup : str
        "single-loop", "plan-execute" or "contract".
    task : Task | str
        The task or its name, G01..G24.
    seed : int
        Run seed, 0 <= seed < 2**32.
    max_steps : int
        Step budget (steps), >= 1.
    self_critique, approval : bool
        Single-loop switches (lesson 1).
    stop_when_done : bool
        Lesson 3's stopping criterion (SB1), for the single loop and the split (the contract
        always stops when its goal is reached).
    **contract
        Options of setup "contract" only: max_replans, max_tokens, max_seconds (see
        `sim.contract.run_contract`); a missing one takes its default (rule CT11).

    Returns
    -------
    Run, or ContractRun for setup "contract"

    Raises
    ------
    TypeError, ValueError
        For bad input, and when a switch or option is asked of a setup that has none.
    """
    setup = check_setup(setup)
    check_switch(self_critique, "self_critique")
    check_switch(approval, "approval")
    check_switch(stop_when_done, "stop_when_done")
    unknown = sorted(set(contract) - set(CONTRACT_OPTIONS))
    if unknown:
        raise TypeError(
            f"unknown option {unknown[0]!r}: the options are self_critique, approval, stop_when_done"
            f" (and budget_margin for measure), and for setup 'contract' {', '.join(CONTRACT_OPTIONS)}"
        )
    if contract and setup != "contract":
        raise ValueError(
            f"{', '.join(CONTRACT_OPTIONS)} are options of setup 'contract' only, not of {setup!r}"
        )
    if setup == "single-loop":
        return run_single_loop(task, seed, max_steps, self_critique, approval, stop_when_done)
    if self_critique or approval:
        raise ValueError(
            f"self_critique and approval are switches of setup 'single-loop' only, not of {setup!r}"
        )
    if setup == "contract":
        if stop_when_done:
            raise ValueError("stop_when_done is an option of setups 'single-loop' and 'plan-execute' only")
        return run_contract(task, seed, max_steps, **contract)
    return run_plan_execute(task, seed, max_steps, stop_when_done)


def plan_length_budget(setup: str, task, margin: int, max_steps: int) -> int:
    """A task's own step budget under lesson 3's rule SB2.

    Parameters
    ----------
    setup : str
        "single-loop" or "plan-execute" (the split adds 1 step for planning).
    task : Task | str
        The task or its name.
    margin : int
        Steps allowed for wrong picks, >= 0.
    max_steps : int
        The hard bound (steps), >= 1.

    Returns
    -------
    int
        min(max_steps, planning + sequence length + margin), in steps.

    Raises
    ------
    TypeError, ValueError
        For a bad setup, task, margin or bound.
    """
    setup = check_setup(setup, allowed=("single-loop", "plan-execute"))  # the contract plans its own steps
    task, margin = check_task(task), check_margin(margin)
    planning = 1 if setup == "plan-execute" else 0
    return min(check_budget(max_steps), planning + len(task.sequence) + margin)


def measure(
    setup: str,
    seed: int = DEFAULT_SEED,
    max_steps: int = DEFAULT_BUDGET,
    self_critique: bool = False,
    approval: bool = False,
    stop_when_done: bool = False,
    budget_margin: int | None = None,
    **contract,
) -> Measurement:
    """Run all 24 tasks in one setup and count the units.

    Parameters
    ----------
    setup : str
        "single-loop", "plan-execute" or "contract".
    seed : int
        Run seed, 0 <= seed < 2**32.
    max_steps : int
        Step budget per task (steps), >= 1.
    self_critique, approval : bool
        Single-loop switches; asking them of another setup raises ValueError.
    stop_when_done : bool
        Lesson 3's stopping criterion (SB1): end a run right after the call that completes
        the job. False is the seed's rule.
    budget_margin : int | None
        Lesson 3's budget rule (SB2): when given, each task's budget is planning step + its
        sequence length + budget_margin, capped at max_steps. None: every task gets max_steps.
    **contract
        max_replans, max_tokens, max_seconds: options of setup "contract" only (rule CT11).

    Returns
    -------
    Measurement
        For setup "contract" with replans, seconds, the exit-state counts and the bounds used.

    Raises
    ------
    TypeError, ValueError
        For a bad setup, seed, budget or switch.
    """
    setup = check_setup(setup)
    seed = check_seed(seed)
    max_steps = check_budget(max_steps)
    check_switch(stop_when_done, "stop_when_done")
    if budget_margin is not None:
        budget_margin = check_margin(budget_margin)
        if setup == "contract":
            raise ValueError("budget_margin is a rule of setups 'single-loop' and 'plan-execute' only")
    budgets = [
        max_steps if budget_margin is None else plan_length_budget(setup, task, budget_margin, max_steps)
        for task in TASKS
    ]
    runs = [
        run_task(setup, task, seed, budget, self_critique, approval, stop_when_done, **contract)
        for task, budget in zip(TASKS, budgets, strict=True)
    ]
    extra = {}
    if setup == "contract":
        exits = [run.exit_state for run in runs]
        bounds = runs[0].bounds
        extra = {
            "replans": sum(run.replans for run in runs),
            "seconds": sum(run.seconds for run in runs),
            **{f"exit_{state.lower()}": exits.count(state) for state in EXIT_STATES},
            "max_replans": bounds.max_replans,
            "max_tokens": bounds.max_tokens,
            "max_seconds": bounds.max_seconds,
        }
    return Measurement(
        setup=setup,
        seed=seed,
        budget=max_steps,
        solved=sum(is_correct(run) for run in runs),
        n_tasks=len(runs),
        steps=sum(run.steps for run in runs),
        calls=sum(run.calls for run in runs),
        tokens=sum(run.tokens for run in runs),
        errors=sum(run.errors for run in runs),
        approvals=sum(run.approvals for run in runs),
        self_critique=self_critique,
        approval=approval,
        stop_when_done=stop_when_done,
        budget_margin=budget_margin,
        **extra,
    )


@dataclass(frozen=True)
class PlanAccuracy:
    """How right the planner's first plans are at one seed: right positions of all positions, fully right plans of all plans."""

    seed: int
    right_positions: int
    positions: int
    right_plans: int
    plans: int

    @property
    def position_share(self) -> float:
        """Share of plan positions that name the right tool."""
        return self.right_positions / self.positions


def plan_accuracy(seed: int = DEFAULT_SEED) -> PlanAccuracy:
    """How right the planner's plans are at one seed (AA24, AA29).

    Parameters
    ----------
    seed : int
        Run seed, 0 <= seed < 2**32.

    Returns
    -------
    PlanAccuracy
        Right positions of the 53 plan positions, and fully right plans of the 24.

    Raises
    ------
    TypeError, ValueError
        For a bad seed.
    """
    seed = check_seed(seed)
    right_positions = positions = right_plans = 0
    for task in TASKS:
        plan = run_plan_execute(task, seed, 1).plan
        matches = [planned == wanted for planned, wanted in zip(plan, task.sequence, strict=True)]
        right_positions += sum(matches)
        positions += len(task.sequence)
        right_plans += all(matches)
    return PlanAccuracy(seed, right_positions, positions, right_plans, len(TASKS))


def run_label(seed: int, seeds=None) -> str:
    """The lessons' label of a run.

    Parameters
    ----------
    seed : int
        A run seed.
    seeds : Iterable[int] | None
        The seeds shown beside it. Letters are used only when every one of them is a lesson
        run, so a table of seeds 20260217 and 20260218 never calls its second run "A".

    Returns
    -------
    str
        "A" for 20260218, "B" for 20260219, otherwise the seed's digits (lesson 2).
    """
    if seeds is not None and not set(seeds) <= set(RUN_LABELS):
        return str(seed)
    return RUN_LABELS.get(seed, str(seed))


def measurement_frame(measurements: Sequence[Measurement]) -> pd.DataFrame:
    """All fields of the measurements as a table.

    Parameters
    ----------
    measurements : Sequence[Measurement]
        Any number of measurements.

    Returns
    -------
    pandas.DataFrame
        Shape (len(measurements), fields): every Measurement field, plus `success` (a fraction
        in [0, 1]), `success_exit` (share ending in SUCCESS, contract only), `run` (A, B or the
        seed) and `rule` (the stopping rule's name).
    """
    seeds = [m.seed for m in measurements]
    rows = [
        {
            **asdict(m),
            "success": m.success,
            "success_exit": m.success_exit,
            "run": run_label(m.seed, seeds),
            "rule": m.rule,
        }
        for m in measurements
    ]
    return pd.DataFrame(rows)


def seed_table(measurements: Sequence[Measurement]) -> pd.DataFrame:
    """The seed lesson's table: columns setup, run, success, step, calls, tokens, error.

    A `budget` column is added after `run` when the measurements span more than one budget,
    and a `rule` column when any measurement used lesson 3's stopping rule.
    Print it with `format_table` to get the seed's layout (success with 4 decimals).
    """
    if not measurements:
        raise ValueError("measurements must hold at least one Measurement, got none")
    frame = measurement_frame(measurements)
    table = pd.DataFrame(
        {
            "setup": frame["setup"].map(SETUP_LABELS).fillna(frame["setup"]),
            "run": frame["run"],
            "budget": frame["budget"],
            "rule": frame["rule"],
            "success": frame["success"],
            "step": frame["steps"],
            "calls": frame["calls"],
            "tokens": frame["tokens"],
            "error": frame["errors"],
        }
    )
    if table["budget"].nunique() <= 1:
        table = table.drop(columns="budget")
    if not (frame["stop_when_done"].any() or frame["budget_margin"].notna().any()):
        table = table.drop(columns="rule")
    return table


# column widths of the seed's table (characters, one space between columns)
COLUMN_WIDTHS = {
    "setup": 22,
    "run": 5,
    "budget": 6,
    "success": 8,
    "step": 6,
    "calls": 6,
    "tokens": 9,
    "error": 5,
}


def format_table(table: pd.DataFrame) -> str:
    """Plain text of a seed_table in the seed's layout: setup left-aligned, numbers right-aligned,
    success with 4 decimals; the data rows are character for character the seed's."""
    widths = {
        column: max(COLUMN_WIDTHS.get(column, 8), table[column].astype(str).str.len().max())
        if column != "success"
        else COLUMN_WIDTHS["success"]
        for column in table.columns
    }
    header = " ".join(
        name.ljust(width) if name == "setup" else name.rjust(width) for name, width in widths.items()
    )
    rows = table.to_string(
        index=False,
        header=False,
        col_space=widths,
        formatters={"setup": lambda s: f"{s:<22}", "success": lambda x: f"{x:.4f}"},
    )
    return header + "\n" + rows


def format_plan_accuracy(accuracy: PlanAccuracy, seeds=None) -> str:
    """One line in the seed's form: right positions r/p = share ; fully right plans f/n.
    `seeds`: the seeds shown beside it, for the run's label (see `run_label`)."""
    return (
        f"plan {run_label(accuracy.seed, seeds)} : right positions {accuracy.right_positions}/"
        f"{accuracy.positions} = {accuracy.position_share:.4f} ; fully right plans "
        f"{accuracy.right_plans}/{accuracy.plans}"
    )


def format_trace(run) -> str:
    """The walk-through of one Run in the seed's form: correct sequence, plan (split only),
    executed trace with tool errors marked, then steps, tokens, tool errors, answer and correct answer."""
    task = check_task(run.task)
    lines = [
        f"{task.name} ({task.kind}) correct sequence : {' -> '.join(task.sequence)}",
    ]
    if run.plan is not None:
        lines.append(f"  plan     : {' -> '.join(run.plan)}")
    executed = " -> ".join(f"{call.tool}{' [error]' if call.error else ''}" for call in run.trace)
    lines.append(f"  executed : {executed or '(no tool call)'}")
    lines.append(
        f"  steps {run.steps}  tokens {run.tokens}  tool errors {run.errors}"
        f"  answer {run.answer}  correct {correct_answer(task)}"
    )
    return "\n".join(lines)


OUTCOMES = ("solved", "solved, no record written", "spoiled", "out of budget", "wrong")


def outcome(run) -> str:
    """Classify one run (lesson 3).

    Returns one of OUTCOMES:
    - "solved": the final answer is right and, for a record task, a record was written with
      the right value;
    - "solved, no record written": the answer is right but a record task never wrote the
      right record (the seed's success measure counts it; the side effect did not happen);
    - "spoiled": the run held the right answer at some step and lost it by the end;
    - "out of budget": the budget ran out before the right answer was ever held;
    - "wrong": the run stopped without ever holding the right answer.
    """
    task = check_task(run.task)
    right = correct_answer(task)
    if run.answer == right:
        wrote = any(
            call.tool == "write_record" and not call.error and call.held == right for call in run.trace
        )
        return "solved" if task.kind != "record" or wrote else "solved, no record written"
    if any(call.held == right for call in run.trace):
        return "spoiled"
    return "wrong" if run.stopped else "out of budget"


def outcome_grid(setup: str, seed: int, budgets, stop_when_done: bool = False) -> pd.DataFrame:
    """The outcome of every task at every budget (lesson 3).

    Parameters
    ----------
    setup : str
        "single-loop" or "plan-execute".
    seed : int
        Run seed, 0 <= seed < 2**32.
    budgets : Iterable[int]
        Step budgets (steps), each >= 1.
    stop_when_done : bool
        Lesson 3's stopping criterion (SB1).

    Returns
    -------
    pandas.DataFrame
        Shape (24 tasks, len(budgets)): index task names, columns budgets, values from OUTCOMES.
    """
    setup = check_setup(setup, allowed=("single-loop", "plan-execute"))  # outcomes are lesson 3's loops
    budgets = [check_budget(b, "budgets") for b in budgets]
    data = {
        budget: [
            outcome(run_task(setup, task, seed, budget, stop_when_done=stop_when_done)) for task in TASKS
        ]
        for budget in budgets
    }
    return pd.DataFrame(data, index=[task.name for task in TASKS])


def depth_picks(seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET) -> pd.DataFrame:
    """Right tool picks by depth over the 24 tasks in the single loop, counted from the traces.

    A pick at depth d is a step whose target was the d-th tool of the task's sequence (d - 1
    positions already done); it is right when the tool called is that target, a lucky random
    pick included. Steps taken after the job was done are not picks at any depth.

    Parameters
    ----------
    seed : int
        Run seed, 0 <= seed < 2**32.
    max_steps : int
        Step budget per task (steps), >= 1.

    Returns
    -------
    pd.DataFrame
        One row per depth 1 .. longest sequence (4): depth, picks, right, share (right / picks,
        NaN with no pick), model (selection(d)), expected (selection(d) + (1 - selection(d)) / 5).

    Raises
    ------
    TypeError, ValueError
        For a bad seed or budget. Source: lesson 1.
    """
    seed = check_seed(seed)
    max_steps = check_budget(max_steps)
    depths = range(1, max(len(task.sequence) for task in TASKS) + 1)
    picks, right = dict.fromkeys(depths, 0), dict.fromkeys(depths, 0)
    for task in TASKS:
        for step in loop_steps(run_single_loop(task, seed, max_steps)):
            if step.depth is not None:
                picks[step.depth] += 1
                right[step.depth] += step.right
    return pd.DataFrame(
        {
            "depth": list(depths),
            "picks": [picks[d] for d in depths],
            "right": [right[d] for d in depths],
            "share": [right[d] / picks[d] if picks[d] else float("nan") for d in depths],
            "model": [selection(d) for d in depths],
            "expected": [expected_right_share(d) for d in depths],
        }
    )


def side_effect_calls(seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET) -> pd.DataFrame:
    """Every side-effecting tool call the single loop makes over the 24 tasks: the calls that
    would ask for approval with the `approval` switch on.

    Parameters
    ----------
    seed : int
        Run seed, 0 <= seed < 2**32.
    max_steps : int
        Step budget per task (steps), >= 1.

    Returns
    -------
    pd.DataFrame
        One row per call: task, kind, asked_for_record (the task's own sequence ends in a
        side-effecting tool), step, tool, depth (None once the job was done), right (the call
        was the step's target), error (a tool error: nothing was written), value (what was
        written, None on an error), correct (the task's correct answer).

    Raises
    ------
    TypeError, ValueError
        For a bad seed or budget. Source: lesson 1.
    """
    seed = check_seed(seed)
    max_steps = check_budget(max_steps)
    rows = []
    for task in TASKS:
        asked = any(TOOLS[tool].side_effect for tool in task.sequence)
        for step in loop_steps(run_single_loop(task, seed, max_steps)):
            if step.tool is None or not TOOLS[step.tool].side_effect:
                continue
            rows.append({"task": task.name, "kind": task.kind, "asked_for_record": asked, "step": step.step,
                         "tool": step.tool, "depth": step.depth, "right": bool(step.right), "error": step.error,
                         "value": None if step.error else step.held, "correct": correct_answer(task)})  # fmt: skip
    columns = [
        "task",
        "kind",
        "asked_for_record",
        "step",
        "tool",
        "depth",
        "right",
        "error",
        "value",
        "correct",
    ]
    return pd.DataFrame(rows, columns=columns).astype({"step": "int64", "depth": "Int64"})


def recovery_task(seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET) -> str:
    """The first task (G01 onward) whose single-loop run shows a wrong pick and the recovery from it.

    Chosen as: a pick at depth 2 or more was wrong and drew a tool error, and the run still
    stopped on its own with the correct answer. Falls back to the first run with any wrong
    pick, then to G01.

    Returns
    -------
    str
        A task name. Source: lesson 1.
    """
    seed = check_seed(seed)
    max_steps = check_budget(max_steps)
    any_wrong = None
    for task in TASKS:
        run = run_single_loop(task, seed, max_steps)
        steps = loop_steps(run)
        wrong = [step for step in steps if step.right is False]
        if any(step.depth >= 2 and step.error for step in wrong) and run.stopped and is_correct(run):
            return task.name
        if wrong and any_wrong is None:
            any_wrong = task.name
    return any_wrong or TASKS[0].name


def loop_step_table(steps) -> pd.DataFrame:
    """One row per step of a single-loop run (from `loop_steps`), for printing.

    Columns: step; depth (the position aimed at, blank once the job was done); target; tool
    ("(stops)" when the agent stopped); pick ("right", "wrong" or blank without a target);
    tool error ("yes" or blank); trace length (calls re-sent with the step); tokens (this
    step); running tokens; answer held (blank when none). Source: lesson 1.
    """
    rows, running = [], 0
    for step in steps:
        running += step.tokens
        rows.append({
            "step": step.step,
            "depth": "" if step.depth is None else step.depth,
            "target": step.target or "(job done)",
            "tool": step.tool or "(stops)",
            "pick": "" if step.right is None else ("right" if step.right else "wrong"),
            "tool error": "yes" if step.error else "",
            "trace length": step.trace_length,
            "tokens": step.tokens,
            "running tokens": running,
            "answer held": "" if step.held is None else step.held,
        })  # fmt: skip
    return pd.DataFrame(rows)


def exit_state_frame(
    setups: Sequence[str], seeds: Sequence[int], max_steps: int = DEFAULT_BUDGET, **contract
):
    """Exit-state counts (rule CT12, read from each run by `exit_state_of`) per setup and seed.

    Parameters
    ----------
    setups : Sequence[str]
        Setup names; the contract's options go to setup "contract" only.
    seeds : Sequence[int]
        Run seeds.
    max_steps : int
        Step budget per task (steps).
    **contract
        max_replans, max_tokens, max_seconds for setup "contract" (rule CT11).

    Returns
    -------
    pandas.DataFrame
        One row per (setup, seed): setup (label), run, budget, one column per exit state
        (tasks, of 24) and solved (tasks with the correct answer, the seed's measure).
        Introduced in lesson 4.
    """
    rows = []
    for setup in setups:
        setup = check_setup(setup)
        options = contract if setup == "contract" else {}
        for seed in seeds:
            runs = [run_task(setup, task, seed, max_steps, **options) for task in TASKS]
            states = [exit_state_of(run) for run in runs]
            rows.append(
                {"setup": SETUP_LABELS[setup], "run": run_label(seed, seeds), "budget": max_steps,
                 **{state: states.count(state) for state in EXIT_STATES},
                 "solved": sum(is_correct(run) for run in runs)}
            )  # fmt: skip
    return pd.DataFrame(rows)


def split_step_table(run) -> pd.DataFrame:
    """One row per step of a planner/executor run, for printing (lesson 2).

    Parameters
    ----------
    run : Run
        A run of setup "plan-execute" (it needs `run.plan`).

    Returns
    -------
    pandas.DataFrame
        Columns step; phase ("planning", "plan position k" while the executor follows the plan
        blindly, "single-loop rule" after it, AA26-AA27, and "stop" for a step spent stopping);
        tool; tool error ("yes" or blank); answer held (blank when none).

    Raises
    ------
    ValueError
        When the run has no plan.
    """
    if run.plan is None:
        raise ValueError(f"run must be a plan-execute run with a plan, got setup {run.setup!r}")
    rows = [
        {"step": 1, "phase": "planning", "tool": "(writes the plan)", "tool error": "", "answer held": ""}
    ]
    for index, call in enumerate(run.trace):
        phase = f"plan position {index + 1}" if index < len(run.plan) else "single-loop rule"
        rows.append({"step": index + 2, "phase": phase, "tool": call.tool, "tool error": "yes" if call.error else "",
                     "answer held": "" if call.held is None else call.held})  # fmt: skip
    if run.steps > 1 + len(run.trace):  # a step spent deciding to stop (not under stop_when_done)
        rows.append(
            {"step": run.steps, "phase": "stop", "tool": "(job done)", "tool error": "", "answer held": ""}
        )
    return pd.DataFrame(rows)
