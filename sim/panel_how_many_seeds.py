"""The control panel of lesson 5, how many seeds: two setups over many seeds, the paired difference and
its intervals, and the distributions with runs A and B marked.
"""

from functools import lru_cache

import ipywidgets as widgets
import pandas as pd

from sim.batch import batch_run, study_seeds
from sim.checks import SEED_LIMIT
from sim.config import DEFAULT_BUDGET, DEFAULT_SEED
from sim.errors import InputError
from sim.figures_how_many_seeds import draw_seed_distributions
from sim.panel import ControlPanel, Settings, View, pre_html
from sim.study import SETUP_CHOICES, paired_interval
from sim.units import unit_named

PANEL_RESAMPLES = 1000  # bootstrap resamples in the panel (the lesson's cells use 10,000), for speed
MAX_STUDY_SEEDS = 10000
PANEL_UNITS = ("success", "tokens", "tool errors")


def _study_labels(first: str, second: str) -> tuple[str, str]:
    return (first, second) if first != second else (f"{first} (first)", f"{second} (second)")


def study_run(first_seed: int, budget: int, label: str, size: int):
    """One setup (a label of sim.study.SETUP_CHOICES) run over `size` seeds from `first_seed` at the
    budget (steps): the BatchRun a lesson-5 view cuts to its number of seeds."""
    return batch_run(SETUP_CHOICES[label].with_budget(budget), study_seeds(size, first_seed))


def how_many_seeds_view(settings: Settings, run=study_run) -> View:
    """Lesson 5's view: two setups over the seeds seed, seed + 1, ..., seed + N - 1 at the budget.

    Settings: seed (the study's first seed), budget (steps), and the extra controls n_seeds (N),
    first and second (labels of sim.study.SETUP_CHOICES). The table gives each unit's means, the
    paired difference (second minus first) and its 95 % percentile bootstrap intervals, resampling
    seeds and resampling tasks (PANEL_RESAMPLES resamples, resampling seed 2026); the figure is
    the distributions over the N seeds with the first two seeds marked A and B.

    `run` makes the batch runs, called as run(first seed, budget, label, size) with size
    MAX_STUDY_SEEDS where that fits below 2**32: a panel passes a cached `study_run`, so moving
    the number-of-seeds slider only cuts runs already made (`BatchRun.head`).

    Raises
    ------
    InputError
        When the last seed, seed + N - 1, would reach 2**32, or for an unknown setup label.
    """
    n_seeds = settings.extra.get("n_seeds", MAX_STUDY_SEEDS)
    chosen = (settings.extra.get("first", "single loop"), settings.extra.get("second", "planner + executor"))
    for name, label in zip(("first", "second"), chosen, strict=True):
        if label not in SETUP_CHOICES:
            raise InputError(f"{name} must be one of {', '.join(SETUP_CHOICES)}, got {label!r}")
    last = settings.seed + n_seeds - 1
    if last >= SEED_LIMIT:
        raise InputError(f"seed + n_seeds - 1 must stay below 2**32 (the study's last seed), got {last}")
    size = MAX_STUDY_SEEDS if settings.seed + MAX_STUDY_SEEDS <= SEED_LIMIT else n_seeds
    first, second = (run(settings.seed, settings.budget, label, size).head(n_seeds) for label in chosen)
    columns = _study_labels(*chosen)
    rows = []
    for unit in PANEL_UNITS:
        by_way = {
            way: paired_interval(first, second, unit, n_seeds, way, PANEL_RESAMPLES)
            for way in ("seeds", "tasks")
        }
        field = unit_named(unit).per_task
        scale = 1 / first.correct.shape[0] if unit_named(unit).share else 1
        rows.append({
            "unit": unit,
            columns[0]: f"{getattr(first, field).sum(axis=0).mean() * scale:.4f}",
            columns[1]: f"{getattr(second, field).sum(axis=0).mean() * scale:.4f}",
            "difference": f"{by_way['seeds'].difference:.4f}",
            "95 % interval, resampling seeds": f"[{by_way['seeds'].low:.4f}, {by_way['seeds'].high:.4f}]",
            "95 % interval, resampling tasks": f"[{by_way['tasks'].low:.4f}, {by_way['tasks'].high:.4f}]",
        })  # fmt: skip
    table = pd.DataFrame(rows)
    figure = draw_seed_distributions(
        {columns[0]: first.per_seed(), columns[1]: second.per_seed()}, marked=(0, 1),
        title=f"{n_seeds} seeds from {settings.seed}, budget {settings.budget}; dashed: seeds {settings.seed} (A) "
              f"and {settings.seed + 1} (B)",
    )  # fmt: skip
    note = (
        f"seeds {settings.seed}..{last}; difference = {chosen[1]} minus {chosen[0]}, per run of 24 tasks "
        f"(success as a share of tasks); intervals: 95 % percentile bootstrap, {PANEL_RESAMPLES} resamples "
        f"in this panel (10000 in the lesson's cells), resampling seed 2026."
    )
    return View(
        table.to_html(index=False), figure, pre_html(note), {"first": first, "second": second, "table": table}
    )


def how_many_seeds_panel() -> ControlPanel:
    """The control panel of lesson 5 (how many seeds): first seed 20260218, budget 8, 10000 seeds,
    single loop against planner + executor; a number-of-seeds slider and the two setups to compare."""
    extra = {
        "n_seeds": widgets.IntSlider(value=MAX_STUDY_SEEDS, min=10, max=MAX_STUDY_SEEDS, step=10,
                                     description="seeds", continuous_update=False),
        "first": widgets.Dropdown(options=list(SETUP_CHOICES), value="single loop", description="first"),
        "second": widgets.Dropdown(options=list(SETUP_CHOICES), value="planner + executor", description="second"),
    }  # fmt: skip
    run = lru_cache(maxsize=8)(
        study_run
    )  # this panel's batch runs, reused while only the number of seeds moves

    def render(settings: Settings) -> View:
        return how_many_seeds_view(settings, run)

    return ControlPanel(
        render, Settings(DEFAULT_SEED, DEFAULT_BUDGET, "G05"),
        controls=("seed", "new_seed", "budget", "reset"), two_runs=False, extra_controls=extra,
    )  # fmt: skip
