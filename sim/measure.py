"""Measurement: the counted units of one (setup, seed, budget), the plan accuracy, the table, the band rule.

The counted units are success, steps, tool calls, tokens and tool errors (rule AA30).
Introduced in lesson 2, planner and executor.
"""

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import pandas as pd

from sim.agents import DEFAULT_BUDGET, DEFAULT_SEED, is_correct, run_plan_execute, run_single_loop
from sim.checks import check_budget, check_seed, check_setup, check_switch, check_task
from sim.contract import EXIT_STATES, exit_state_of, run_contract
from sim.tasks import TASKS, correct_answer

SETUP_LABELS = {"single-loop": "single loop", "plan-execute": "planner + executor", "contract": "contract"}
CONTRACT_OPTIONS = ("max_replans", "max_tokens", "max_seconds")  # options of setup "contract" only
RUN_LABELS = {DEFAULT_SEED: "A", DEFAULT_SEED + 1: "B"}


@dataclass(frozen=True)
class Measurement:
    """The counted units of one setup at one seed and budget over the 24 tasks.

    Fields: setup; seed; budget (steps); solved (tasks whose final answer is correct, of
    n_tasks); steps, calls (tool calls), tokens and errors (tool errors), each summed over
    the tasks; approvals (side-effecting calls that asked for approval); the switches used.
    Setup "contract" also fills replans, seconds (simulated, summed), one count of tasks per
    exit state (exit_success, exit_partial_success, exit_replan_exhausted, exit_timeout) and
    the contract's bounds (max_replans, max_tokens, max_seconds); other setups leave them 0/None.
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


def run_task(setup: str, task, seed: int, max_steps: int, self_critique=False, approval=False, **contract):
    """Run one task in the named setup and return its Run (a ContractRun for setup "contract").

    Parameters
    ----------
    setup : str
        "single-loop", "plan-execute" or "contract".
    task, seed, max_steps
        As `run_single_loop`.
    self_critique, approval : bool
        Single-loop switches.
    **contract
        Options of setup "contract" only: max_replans, max_tokens, max_seconds (see
        `sim.contract.run_contract`); a missing one takes its default (rule CT11).

    Raises
    ------
    ValueError
        When a single-loop switch or a contract option is asked of a setup that has none.
    """
    setup = check_setup(setup)
    check_switch(self_critique, "self_critique")
    check_switch(approval, "approval")
    unknown = sorted(set(contract) - set(CONTRACT_OPTIONS))
    if unknown:
        raise TypeError(
            f"unknown option {unknown[0]!r}; the contract's options are {', '.join(CONTRACT_OPTIONS)}"
        )
    if contract and setup != "contract":
        raise ValueError(
            f"{', '.join(CONTRACT_OPTIONS)} are options of setup 'contract' only, not of {setup!r}"
        )
    if setup == "single-loop":
        return run_single_loop(task, seed, max_steps, self_critique, approval)
    if self_critique or approval:
        raise ValueError(
            f"self_critique and approval are switches of setup 'single-loop' only, not of {setup!r}"
        )
    if setup == "contract":
        return run_contract(task, seed, max_steps, **contract)
    return run_plan_execute(task, seed, max_steps)


def measure(
    setup: str,
    seed: int = DEFAULT_SEED,
    max_steps: int = DEFAULT_BUDGET,
    self_critique: bool = False,
    approval: bool = False,
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
    runs = [run_task(setup, task, seed, max_steps, self_critique, approval, **contract) for task in TASKS]
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
    """Count the right positions (of 53) and the fully right plans (of 24) the planner writes at `seed` (rule AA24)."""
    seed = check_seed(seed)
    right_positions = positions = right_plans = 0
    for task in TASKS:
        plan = run_plan_execute(task, seed, 1).plan
        matches = [planned == wanted for planned, wanted in zip(plan, task.sequence, strict=True)]
        right_positions += sum(matches)
        positions += len(task.sequence)
        right_plans += all(matches)
    return PlanAccuracy(seed, right_positions, positions, right_plans, len(TASKS))


def run_label(seed: int) -> str:
    """The lessons' label of a run: A for 20260218, B for 20260219, otherwise the seed itself."""
    return RUN_LABELS.get(seed, str(seed))


def measurement_frame(measurements: Sequence[Measurement]) -> pd.DataFrame:
    """All fields of the measurements, one row each, plus `success` and `success_exit` (fractions) and the `run` label."""
    rows = [
        {**asdict(m), "success": m.success, "success_exit": m.success_exit, "run": run_label(m.seed)}
        for m in measurements
    ]
    return pd.DataFrame(rows)


def seed_table(measurements: Sequence[Measurement]) -> pd.DataFrame:
    """The seed lesson's table: columns setup, run, success, step, calls, tokens, error.

    A `budget` column is added after `run` when the measurements span more than one budget.
    Print it with `format_table` to get the seed's layout (success with 4 decimals).
    """
    frame = measurement_frame(measurements)
    table = pd.DataFrame(
        {
            "setup": frame["setup"].map(SETUP_LABELS).fillna(frame["setup"]),
            "run": frame["run"],
            "budget": frame["budget"],
            "success": frame["success"],
            "step": frame["steps"],
            "calls": frame["calls"],
            "tokens": frame["tokens"],
            "error": frame["errors"],
        }
    )
    if table["budget"].nunique() <= 1:
        table = table.drop(columns="budget")
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


def format_plan_accuracy(accuracy: PlanAccuracy) -> str:
    """One line in the seed's form: right positions r/p = share ; fully right plans f/n."""
    return (
        f"plan {run_label(accuracy.seed)} : right positions {accuracy.right_positions}/"
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
                {"setup": SETUP_LABELS[setup], "run": run_label(seed), "budget": max_steps,
                 **{state: states.count(state) for state in EXIT_STATES},
                 "solved": sum(is_correct(run) for run in runs)}
            )  # fmt: skip
    return pd.DataFrame(rows)
