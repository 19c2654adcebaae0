"""Exit-state tables (rule CT12, lesson 4): counts per setup and seed, and what ended each contract run."""

from collections.abc import Sequence

import pandas as pd

from sim.engine.config import DEFAULT_BUDGET, configs_for
from sim.engine.exit_states import EXIT_STATES, STOP_REASONS, exit_field, exit_state_of, stop_field
from sim.engine.labels import SETUP_LABELS, run_labels
from sim.engine.loops import is_correct
from sim.engine.runs import run_with
from sim.model.checks import check_seed
from sim.model.tasks import TASKS


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
    rows, configs = [], configs_for(setups, max_steps, contract)
    seeds = [check_seed(seed) for seed in seeds]
    labels = run_labels(seeds)
    for config in configs:
        setup = config.setup
        for index, seed in enumerate(seeds):
            runs = [run_with(config, task, seed) for task in TASKS]
            states = [exit_state_of(run) for run in runs]
            rows.append(
                {"setup": SETUP_LABELS[setup], "run": labels[index], "budget": max_steps,
                 **{state: states.count(state) for state in EXIT_STATES},
                 "solved": sum(is_correct(run) for run in runs)}
            )  # fmt: skip
    return pd.DataFrame(rows)


def contract_table(measurements: Sequence) -> pd.DataFrame:
    """What ended each contract run, per (seed, budget) measured: replans, tasks per exit state
    (CT12), the share ending in SUCCESS, and tasks per stop reason (its plan complete, or the
    bound it hit, CT7 and CT11), beside the bounds used. The CLI prints it under the seed's table.

    Parameters
    ----------
    measurements : Sequence[Measurement]
        Measurements of setup "contract" (others are left out).

    Returns
    -------
    pandas.DataFrame
        One row per contract measurement.
    """
    contract = [m for m in measurements if m.contract is not None]
    seeds = [m.seed for m in contract]
    columns = {"setup": "setup", "budget": "budget", "max_tokens": "max_tokens", "max_seconds": "max_seconds",
               "max_replans": "max_replans", "replans": "replans",
               **{exit_field(state): state for state in EXIT_STATES}, "success_exit": "success_exit",
               **{stop_field(reason): f"stop: {reason}" for reason in STOP_REASONS}}  # fmt: skip
    rows = [{columns[key]: value for key, value in m.row().items() if key in columns} for m in contract]
    table = pd.DataFrame(rows, columns=list(columns.values()))
    table.insert(1, "run", run_labels(seeds) if contract else [])
    table["success_exit"] = table["success_exit"].map(lambda share: f"{share:.4f}")
    return table
