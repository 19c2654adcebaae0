"""The control panel of lesson 2: the four-row table, the band verdicts and chart, a task's walk-through."""

from sim.engine.runs import run_plan_execute
from sim.measurement.bands import compare_setups
from sim.measurement.counts import measure, plan_accuracy
from sim.presentation.figures_planner_executor import draw_band_chart
from sim.presentation.panel import ControlPanel, Settings, View, pre_html
from sim.presentation.panel_runs import RUN_LETTERS, lettered_table, runs_caption, verdicts_html
from sim.presentation.tables import format_plan_accuracy, format_trace


def planner_executor_view(settings: Settings) -> View:
    """Lesson 2's view: the four-row table, band verdicts and chart at (seed, seed + 1), the task's walk-through."""
    seeds = (settings.seed, settings.seed + 1)
    single = [measure("single-loop", seed, settings.budget) for seed in seeds]
    split = [measure("plan-execute", seed, settings.budget) for seed in seeds]
    verdicts = compare_setups(single, split)
    table_text = lettered_table(single + split, seeds)
    accuracy = "\n".join(
        format_plan_accuracy(plan_accuracy(seed), label=letter)
        for seed, letter in zip(seeds, RUN_LETTERS, strict=True)
    )
    walk = format_trace(run_plan_execute(settings.task, settings.seed, settings.budget))
    return View(
        table_html=runs_caption(seeds)
        + pre_html(table_text)
        + verdicts_html(verdicts, seeds, "single loop", "planner + executor"),
        figure=draw_band_chart(verdicts, panel=True),
        text=pre_html(accuracy + "\n\n" + walk),
        data={"measurements": single + split, "verdicts": verdicts},
    )


def planner_executor_panel() -> ControlPanel:
    """Lesson 2's control panel."""
    return ControlPanel(planner_executor_view, Settings())
