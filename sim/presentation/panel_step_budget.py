"""The control panel of lesson 3, the step budget: both setups under a stopping rule, an outcome grid."""

import ipywidgets as widgets

from sim.engine.config import RunConfig
from sim.engine.labels import SETUP_LABELS
from sim.measurement.counts import measure
from sim.measurement.outcomes import OUTCOMES, outcome_grid
from sim.presentation.figures_step_budget import draw_outcome_grid
from sim.presentation.panel import NO_TASK, ControlPanel, Settings, View, pre_html
from sim.presentation.panel_runs import lettered_table, runs_caption

LOOP_SETUPS = ("single-loop", "plan-execute")  # the setups lesson 3's stopping rule applies to


def step_budget_view(settings: Settings) -> View:
    """Lesson 3's view: both setups under the stopping rule, and one setup's outcomes at budgets 1..budget."""
    setup, stop = settings.extra.get("setup", "plan-execute"), settings.extra.get("stop_when_done", False)
    seeds = (settings.seed, settings.seed + 1)
    measurements = [
        measure(name, seed, settings.budget, stop_when_done=stop) for name in LOOP_SETUPS for seed in seeds
    ]
    grid = outcome_grid(setup, settings.seed, range(1, settings.budget + 1), stop_when_done=stop)
    counts = grid[settings.budget].value_counts().reindex(OUTCOMES, fill_value=0).rename_axis(None)
    rule = RunConfig(setup, settings.budget, stop_when_done=stop).rule
    title = f"{SETUP_LABELS[setup]}, seed {settings.seed}, {rule}"
    return View(
        table_html=runs_caption(seeds) + pre_html(lettered_table(measurements, seeds)),
        figure=draw_outcome_grid(grid, title, panel=True),
        text=pre_html(f"outcomes at budget {settings.budget} ({title}):\n{counts.to_string()}"),
        data={"measurements": measurements, "grid": grid},
    )


def step_budget_panel() -> ControlPanel:
    """Lesson 3's control panel: seed, budget, setup and stopping rule."""
    setup = widgets.Dropdown(options=[(SETUP_LABELS[name], name) for name in LOOP_SETUPS], value="plan-execute",
                             description="setup")  # fmt: skip
    stop = widgets.Checkbox(value=False, description="stop when done")
    extra = {"setup": setup, "stop_when_done": stop}
    return ControlPanel(step_budget_view, Settings(), controls=NO_TASK, extra_controls=extra)
