"""The control panel of lesson 4: the three setups, exit states, and one task's contract run."""

import ipywidgets as widgets
import pandas as pd

from sim.engine.config import DEFAULT_MAX_REPLANS, DEFAULT_MAX_TOKENS, RunConfig, configs_for
from sim.engine.contract import contract_run
from sim.engine.exit_states import SUCCESS
from sim.measurement.bands import compare_setups
from sim.measurement.counts import measure_seeds
from sim.measurement.exit_tables import exit_state_frame
from sim.model.tasks import TASKS, check_task
from sim.presentation.figures_contract import draw_exit_states
from sim.presentation.panel import ControlPanel, Settings, View, pre_html
from sim.presentation.panel_runs import lettered, lettered_table, runs_caption, verdicts_html
from sim.presentation.tables import format_events, format_trace

CONTRACT_SETUPS = ("single-loop", "plan-execute", "contract")
MAX_REPLANS_RANGE = (0, 5)  # replans, what the max_replans slider allows
MAX_TOKENS_RANGE = (100, 2000, 10)  # tokens: min, max, step of the max_tokens slider


def not_success_text(config: RunConfig, seed: int) -> str:
    """The contract's tasks at a seed that end in another exit state than SUCCESS, one row each (CT12)."""
    runs = [contract_run(task, seed, config) for task in TASKS]
    rows = [
        {
            "task": run.task,
            "kind": check_task(run.task).kind,
            "exit state": run.exit_state,
            "stop reason": run.stop_reason,
            "holds": "nothing" if run.answer is None else str(run.answer),
            "answer": "right" if run.correct else "wrong",
        }
        for run in runs
        if run.exit_state != SUCCESS
    ]
    if not rows:
        return f"contract, run A (seed {seed}): every task ends in SUCCESS"
    table = pd.DataFrame(rows).to_string(index=False)
    return f"contract, run A (seed {seed}): the tasks that do not end in SUCCESS\n{table}"


def contract_view(settings: Settings) -> View:
    """Lesson 4's view: the three setups, the contract under the panel's bounds (CT11), exit states (CT12)."""
    seeds = (settings.seed, settings.seed + 1)
    options = {"max_replans": settings.extra["max_replans"], "max_tokens": settings.extra["max_tokens"]}
    configs = configs_for(CONTRACT_SETUPS, settings.budget, options)  # each option to the setup that has it
    by_setup = {config.setup: measure_seeds(config, seeds) for config in configs}
    table_text = lettered_table([m for runs in by_setup.values() for m in runs], seeds)
    exits = lettered(exit_state_frame(CONTRACT_SETUPS, seeds, settings.budget, **options), seeds)
    verdicts = compare_setups(by_setup["plan-execute"], by_setup["contract"])
    run = contract_run(check_task(settings.task), settings.seed, configs[-1])
    not_success = not_success_text(configs[-1], settings.seed)
    walk = (format_trace(run) + f"\n  exit state {run.exit_state}  stop reason {run.stop_reason}"
            f"  replans {run.replans}\n" + format_events(run))  # fmt: skip
    return View(
        table_html=runs_caption(seeds)
        + pre_html(table_text + "\n\n" + exits.to_string(index=False) + "\n\n" + not_success)
        + verdicts_html(verdicts, seeds, "planner + executor", "contract"),
        figure=draw_exit_states(exits, panel=True),
        text=pre_html(walk),
        data={"measurements": by_setup, "exits": exits, "verdicts": verdicts, "run": run},
    )


def contract_panel() -> ControlPanel:
    """Lesson 4's control panel, with the contract's max_replans and max_tokens sliders (CT11)."""
    extra = {
        "max_replans": widgets.IntSlider(
            value=DEFAULT_MAX_REPLANS, min=MAX_REPLANS_RANGE[0], max=MAX_REPLANS_RANGE[1],
            description="max replans", continuous_update=False,
        ),
        "max_tokens": widgets.IntSlider(
            value=DEFAULT_MAX_TOKENS, min=MAX_TOKENS_RANGE[0], max=MAX_TOKENS_RANGE[1], step=MAX_TOKENS_RANGE[2],
            description="max tokens", continuous_update=False,
        ),
    }  # fmt: skip
    return ControlPanel(contract_view, Settings(), extra_controls=extra)
