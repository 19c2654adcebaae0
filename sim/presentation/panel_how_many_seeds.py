"""The control panel of lesson 5, how many seeds: two setups over many seeds, on their own streams or
on common draws (CR1), the difference and its intervals, and the distributions with runs A and B marked.
"""

from dataclasses import replace
from functools import lru_cache

import ipywidgets as widgets
import pandas as pd

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED
from sim.engine.units import unit_named
from sim.measurement.batch import batch_run, study_seeds
from sim.measurement.study import SETUP_CHOICES, paired_interval
from sim.model.checks import SEED_LIMIT
from sim.model.errors import InputError
from sim.presentation.figures_how_many_seeds import draw_panel_seed_distributions
from sim.presentation.panel import ControlPanel, Settings, View, pre_html

MAX_STUDY_SEEDS = 10000
PANEL_UNITS = ("success", "tokens", "tool errors")


def study_seed_range(n_seeds: int) -> tuple[int, str]:
    """The largest first seed of a study of `n_seeds` seeds, and why (its last seed stays below 2**32)."""
    return (
        SEED_LIMIT - n_seeds,
        f" with {n_seeds} seeds (the last one, seed + {n_seeds - 1}, stays below 2**32)",
    )


def study_run(first_seed: int, budget: int, label: str, size: int, common_draws: bool = False):
    """One setup (a label of sim.measurement.study.SETUP_CHOICES) run over `size` seeds from `first_seed` at the
    budget (steps), on common draws (CR1) or its own streams: the BatchRun a lesson-5 view cuts to
    its number of seeds."""
    config = replace(SETUP_CHOICES[label].with_budget(budget), common_draws=common_draws)
    return batch_run(config, study_seeds(size, first_seed))


def how_many_seeds_view(settings: Settings, run=study_run) -> View:
    """Lesson 5's view: two setups over the seeds seed, seed + 1, ..., seed + N - 1 at the budget.

    Settings: seed (the study's first seed), budget (steps), and the extra controls n_seeds (N),
    first and second (labels of sim.measurement.study.SETUP_CHOICES) and common_draws (rule CR1). The table
    gives each unit's means, the difference (second minus first) and its 95 % t intervals, over
    seeds and over tasks (the intervals whose coverage lesson 5 measures); the figure is the
    distributions over the N seeds with the first two seeds marked A and B.

    `run` makes the batch runs, called as run(first seed, budget, label, size, common_draws) with size
    MAX_STUDY_SEEDS where that fits below 2**32: a panel passes a cached `study_run`, so moving
    the number-of-seeds slider only cuts runs already made (`BatchRun.head`).

    Raises
    ------
    InputError
        When the last seed, seed + N - 1, would reach 2**32, for an unknown setup label, or when
        first and second are the same setup (their difference is zero by construction).
    """
    n_seeds = settings.extra.get("n_seeds", MAX_STUDY_SEEDS)
    chosen = (settings.extra.get("first", "single loop"), settings.extra.get("second", "planner + executor"))
    for name, label in zip(("first", "second"), chosen, strict=True):
        if label not in SETUP_CHOICES:
            raise InputError(f"{name} must be one of {', '.join(SETUP_CHOICES)}, got {label!r}")
    if chosen[0] == chosen[1]:
        raise InputError(f"first and second must be two different setups, got {chosen[0]} for both")
    last = settings.seed + n_seeds - 1
    seed_max, why = study_seed_range(n_seeds)
    if settings.seed > seed_max:
        raise InputError(f"seed must be a whole number 0 <= seed <= {seed_max}{why}, got {settings.seed}")
    size = MAX_STUDY_SEEDS if settings.seed + MAX_STUDY_SEEDS <= SEED_LIMIT else n_seeds
    common = settings.extra.get("common_draws", False)
    first, second = (
        run(settings.seed, settings.budget, label, size, common).head(n_seeds) for label in chosen
    )
    columns = chosen
    rows = []
    for unit in PANEL_UNITS:
        by_way = {way: paired_interval(first, second, unit, n_seeds, way) for way in ("seeds", "tasks")}
        field = unit_named(unit).per_task
        scale = 1 / first.correct.shape[0] if unit_named(unit).share else 1
        rows.append({
            "unit": unit,
            columns[0]: f"{getattr(first, field).sum(axis=0).mean() * scale:.4f}",
            columns[1]: f"{getattr(second, field).sum(axis=0).mean() * scale:.4f}",
            "difference": f"{by_way['seeds'].difference:.4f}",
            "95 % interval over seeds": f"[{by_way['seeds'].low:.4f}, {by_way['seeds'].high:.4f}]",
            "95 % interval over tasks": f"[{by_way['tasks'].low:.4f}, {by_way['tasks'].high:.4f}]",
        })  # fmt: skip
    table = pd.DataFrame(rows)
    figure = draw_panel_seed_distributions(
        {columns[0]: first.per_seed(), columns[1]: second.per_seed()}, marked=(0, 1),
        title=f"{n_seeds} seeds from {settings.seed}, budget {settings.budget}; dashed: seeds {settings.seed} (A) "
              f"and {settings.seed + 1} (B)",
    )  # fmt: skip
    draws = "common draws (CR1)" if common else "each setup's own streams (AA22)"
    note = (
        f"seeds {settings.seed}..{last}, {draws}; difference = {chosen[1]} minus {chosen[0]}, per run of 24 "
        f"tasks (success as a share of tasks); intervals: 95 % t intervals, over seeds (one value a seed) "
        f"and over tasks (one value a task)."
    )
    return View(
        table.to_html(index=False), figure, pre_html(note), {"first": first, "second": second, "table": table}
    )


def how_many_seeds_panel() -> ControlPanel:
    """The control panel of lesson 5 (how many seeds): first seed 20260218, budget 8, 10000 seeds,
    single loop against planner + executor on their own streams; a number-of-seeds slider, the two
    setups to compare and a common-draws switch (CR1)."""
    extra = {
        "n_seeds": widgets.IntSlider(value=MAX_STUDY_SEEDS, min=10, max=MAX_STUDY_SEEDS, step=10,
                                     description="seeds", continuous_update=False),
        "first": widgets.Dropdown(options=list(SETUP_CHOICES), value="single loop", description="first"),
        "second": widgets.Dropdown(options=list(SETUP_CHOICES), value="planner + executor", description="second"),
        "common_draws": widgets.Checkbox(value=False, description="common draws"),
    }  # fmt: skip
    run = lru_cache(maxsize=8)(
        study_run
    )  # this panel's batch runs, reused while only the number of seeds moves

    def render(settings: Settings) -> View:
        return how_many_seeds_view(settings, run)

    return ControlPanel(
        render, Settings(DEFAULT_SEED, DEFAULT_BUDGET, "G05"),
        controls=("seed", "new_seed", "budget", "reset"), two_runs=False, extra_controls=extra,
        seed_range=lambda values: study_seed_range(values["n_seeds"]),
    )  # fmt: skip
