"""The control panel of lesson 2, planner and executor: the four-row table, the band verdicts and chart,
and one task's walk-through under the split.
"""

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED
from sim.engine.labels import run_label
from sim.engine.loops import run_plan_execute
from sim.measurement.bands import compare_setups
from sim.measurement.counts import measure, plan_accuracy
from sim.presentation.figures_planner_executor import draw_band_chart
from sim.presentation.panel import ControlPanel, Settings, View, pre_html
from sim.presentation.panel_runs import RUN_LETTERS, lettered, runs_caption, verdicts_html
from sim.presentation.tables import format_plan_accuracy, format_table, format_trace, seed_table


def planner_executor_view(settings: Settings) -> View:
    """Lesson 2's view: the four-row table and band verdicts for seeds (seed, seed + 1) at the
    budget, the band chart, and the chosen task's walk-through under the split."""
    seeds = (settings.seed, settings.seed + 1)
    single = [measure("single-loop", seed, settings.budget) for seed in seeds]
    split = [measure("plan-execute", seed, settings.budget) for seed in seeds]
    verdicts = compare_setups(single, split)
    table_text = format_table(lettered(seed_table(single + split), seeds))
    accuracy = "\n".join(
        format_plan_accuracy(plan_accuracy(seed), seeds).replace(
            f"plan {run_label(seed, seeds)} ", f"plan {letter} ", 1
        )
        for seed, letter in zip(seeds, RUN_LETTERS, strict=True)
    )
    walk = format_trace(run_plan_execute(settings.task, settings.seed, settings.budget))
    return View(
        table_html=runs_caption(seeds)
        + pre_html(table_text)
        + verdicts_html(verdicts, seeds, "single loop", "planner + executor"),
        figure=draw_band_chart(verdicts),
        text=pre_html(accuracy + "\n\n" + walk),
        data={"measurements": single + split, "verdicts": verdicts},
    )


def planner_executor_panel() -> ControlPanel:
    """The control panel of lesson 2 (planner and executor): defaults seed 20260218, budget 8, task G05."""
    return ControlPanel(planner_executor_view, Settings(DEFAULT_SEED, DEFAULT_BUDGET, "G05"))
