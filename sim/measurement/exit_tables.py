"""Exit-state tables (CT12, lesson 4): counts per setup and seed, and what ended each contract run."""

from collections.abc import Sequence

import pandas as pd

from sim.engine.config import DEFAULT_BUDGET, RunConfig, configs_for
from sim.engine.exit_states import EXIT_STATES, STOP_REASONS, exit_field, exit_state_of, stop_field
from sim.engine.labels import SETUP_LABELS, run_labels
from sim.engine.loops import is_correct
from sim.engine.runs import run_with
from sim.measurement.counts import silent_and_false
from sim.model.checks import check_instance, check_seed
from sim.model.tasks import TASKS


def exit_truth(config, seed: int) -> dict:
    """One RunConfig's 24 runs at a checked seed: tasks per reported exit state (CT12, `exit_state_of`)
    beside the truth: "solved (true)" (AA30), "silent failures" and "false alarms" (`silent_and_false`)."""
    runs = [run_with(config, task, seed) for task in TASKS]
    states = [exit_state_of(run) for run in runs]
    correct = [is_correct(run) for run in runs]  # scoring
    wrong = silent_and_false(states, runs)
    return {**{state: states.count(state) for state in EXIT_STATES}, "solved (true)": sum(correct),
            "silent failures": wrong["silent_failures"], "false alarms": wrong["false_alarms"]}  # fmt: skip


def exit_state_frame(
    setups: Sequence[str], seeds: Sequence[int], max_steps: int = DEFAULT_BUDGET, **contract
):
    """`exit_truth` per setup and seed, a row each with its setup label, run and budget (lesson 4); the
    contract's bounds (CT11) go to "contract" only."""
    configs = configs_for(setups, max_steps, contract)
    seeds = [check_seed(seed) for seed in seeds]
    labels = run_labels(seeds)
    return pd.DataFrame(
        [{"setup": SETUP_LABELS[config.setup], "run": labels[index], "budget": max_steps,
          **exit_truth(config, seed)} for config in configs for index, seed in enumerate(seeds)]
    )  # fmt: skip


def exit_truth_over_seeds(config, seeds: Sequence[int]) -> pd.DataFrame:
    """`exit_truth` of one checked RunConfig at each seed, a row a seed (column "seed"), on the one-seed
    path (lesson 4's many-seed silent failures and false alarms)."""
    check_instance(config, RunConfig, "config", "a RunConfig (from sim.run_config)")
    return pd.DataFrame([{"seed": seed, **exit_truth(config, seed)} for seed in map(check_seed, seeds)])


def contract_table(measurements: Sequence) -> pd.DataFrame:
    """What ended each contract measurement: replans, tasks per exit state (CT12), the share in SUCCESS
    and tasks per stop reason (CT7, CT11), beside the bounds; other setups are left out."""
    contract = [m for m in measurements if m.contract is not None]
    seeds = [m.seed for m in contract]
    columns = {"setup": "setup", "budget": "budget", "max_tokens": "max_tokens", "max_seconds": "max_seconds",
               "max_replans": "max_replans", "replans": "replans",
               **{exit_field(state): state for state in EXIT_STATES}, "success_exit": "success_exit",
               "silent_failures": "silent failures", "false_alarms": "false alarms",
               **{stop_field(reason): f"stop: {reason}" for reason in STOP_REASONS}}  # fmt: skip
    rows = [{columns[key]: value for key, value in m.row().items() if key in columns} for m in contract]
    table = pd.DataFrame(rows, columns=list(columns.values()))
    table.insert(1, "run", run_labels(seeds) if contract else [])
    table["success_exit"] = table["success_exit"].map(lambda share: f"{share:.4f}")
    return table
