"""The control panel of lesson 5: two setups over many seeds, own streams or common draws (CR1)."""

from dataclasses import replace
from functools import lru_cache

import ipywidgets as widgets
import pandas as pd

from sim.engine.units import unit_named
from sim.measurement.batch import batch_run, study_seeds
from sim.measurement.study import SETUP_CHOICES, paired_interval
from sim.model.checks import SEED_LIMIT, check_choice
from sim.model.errors import InputError
from sim.presentation.figures_how_many_seeds import draw_panel_seed_distributions
from sim.presentation.panel import NO_TASK, ControlPanel, Settings, View, pre_html

MAX_STUDY_SEEDS = 10000
PANEL_UNITS = ("success", "tokens", "tool errors")


def study_seed_range(n_seeds: int) -> tuple[int, str]:
    """The largest first seed of a study of `n_seeds` seeds, and why (its last seed stays below 2**32)."""
    return (
        SEED_LIMIT - n_seeds,
        f" with {n_seeds} seeds (the last one, seed + {n_seeds - 1}, stays below 2**32)",
    )


def study_run(first_seed: int, budget: int, label: str, size: int, common_draws: bool = False):
    """The BatchRun of a SETUP_CHOICES label over `size` seeds from `first_seed`, on common draws (CR1) or not."""
    config = replace(SETUP_CHOICES[label].with_budget(budget), common_draws=common_draws)
    return batch_run(config, study_seeds(size, first_seed))


def how_many_seeds_view(settings: Settings, run=study_run) -> View:
    """Lesson 5's view: two setups' means, difference and intervals, distributions (`run`: as `study_run`).
    Raises InputError for a last seed reaching 2**32, an unknown label, or the same setup twice."""
    n_seeds = settings.extra.get("n_seeds", MAX_STUDY_SEEDS)
    chosen = (settings.extra.get("first", "single loop"), settings.extra.get("second", "planner + executor"))
    for name, label in zip(("first", "second"), chosen, strict=True):
        check_choice(label, name, tuple(SETUP_CHOICES))
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
    rows = []
    for unit in PANEL_UNITS:
        by_way = {way: paired_interval(first, second, unit, n_seeds, way) for way in ("seeds", "tasks")}
        field = unit_named(unit).per_task
        scale = 1 / first.correct.shape[0] if unit_named(unit).share else 1
        rows.append({
            "unit": unit,
            **{label: f"{getattr(runs, field).sum(axis=0).mean() * scale:.4f}"
               for label, runs in zip(chosen, (first, second), strict=True)},
            "difference": f"{by_way['seeds'].difference:.4f}",
            "95 % interval over seeds": f"[{by_way['seeds'].low:.4f}, {by_way['seeds'].high:.4f}]",
            "95 % interval over tasks": f"[{by_way['tasks'].low:.4f}, {by_way['tasks'].high:.4f}]",
        })  # fmt: skip
    table = pd.DataFrame(rows)
    figure = draw_panel_seed_distributions(
        dict(zip(chosen, (first.per_seed(), second.per_seed()), strict=True)), marked=(0, 1),
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
    """Lesson 5's control panel: the number of seeds, the two setups and a common-draws switch (CR1)."""
    extra = {
        "n_seeds": widgets.IntSlider(value=MAX_STUDY_SEEDS, min=10, max=MAX_STUDY_SEEDS, step=10,
                                     description="seeds", continuous_update=False),
        "first": widgets.Dropdown(options=list(SETUP_CHOICES), value="single loop", description="first"),
        "second": widgets.Dropdown(options=list(SETUP_CHOICES), value="planner + executor", description="second"),
        "common_draws": widgets.Checkbox(value=False, description="common draws"),
    }  # fmt: skip
    run = lru_cache(maxsize=8)(study_run)  # reused while only the number of seeds moves

    def render(settings: Settings) -> View:
        return how_many_seeds_view(settings, run)

    return ControlPanel(
        render, Settings(), controls=NO_TASK, two_runs=False, extra_controls=extra,
        seed_range=lambda values: study_seed_range(values["n_seeds"]),
    )  # fmt: skip
