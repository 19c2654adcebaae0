"""Figures the lessons draw, each by a named function, and the one helper that saves them.

Figures are matplotlib `Figure` objects made without pyplot, so drawing one never shows it
twice and leaves no global figure state. `save_figure` writes into the repository's
`figures/` folder whatever the working directory, or into the folder named by the
environment variable COURSE_FIGURES_DIR (the tests set it, so running them never rewrites a
committed figure). Introduced in lesson 2, planner and executor.
"""

import io
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from sim.measure import SETUP_LABELS, Measurement, run_label
from sim.tasks import TASK_NAMES, TASKS
from sim.world import TOOL_NAMES

FIGURES_ENV = "COURSE_FIGURES_DIR"
REPO_FIGURES = Path(__file__).resolve().parents[1] / "figures"
RUN_COLOURS = ("#4C72B0", "#DD8452")  # run A, run B
OK_COLOUR, ERROR_COLOUR = "#2E7D32", "#C62828"
UNITS = (("success", "tasks solved"), ("steps", "steps"), ("calls", "tool calls"),
         ("tokens", "tokens"), ("errors", "tool errors"))  # fmt: skip


def figures_dir() -> Path:
    """The folder figures are saved in: $COURSE_FIGURES_DIR if set, else the repository's figures/."""
    return Path(os.environ.get(FIGURES_ENV) or REPO_FIGURES)


def save_figure(fig: Figure, name: str) -> Path:
    """Save `fig` as `<figures_dir()>/<name>.png` (100 dpi) and return the path."""
    folder = figures_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    fig.savefig(path, dpi=100, metadata={"Software": None})
    return path


def figure_png(fig: Figure, dpi: int = 72) -> bytes:
    """The figure as PNG bytes, for an Image widget (72 dpi by default, for speed)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


def draw_counted_units(measurements: Sequence[Measurement]) -> Figure:
    """Bar chart of the five counted units, one panel a unit, setups side by side, each run its own bar.

    Parameters
    ----------
    measurements : Sequence[Measurement]
        One per (setup, seed) at one budget; the runs of a setup are told apart by colour, so
        the gap between a setup's two bars is its run-to-run band.

    Returns
    -------
    Figure
        Five panels: tasks solved (of 24), steps, tool calls, tokens, tool errors.
    """
    setups = list(dict.fromkeys(m.setup for m in measurements))
    seeds = list(dict.fromkeys(m.seed for m in measurements))
    by_key = {(m.setup, m.seed): m for m in measurements}
    fig = Figure(figsize=(11, 3.2), layout="constrained")
    axes = fig.subplots(1, len(UNITS))
    width = 0.8 / max(len(seeds), 1)
    for ax, (field, title) in zip(axes, UNITS, strict=True):
        for j, seed in enumerate(seeds):
            xs, values = [], []
            for i, setup in enumerate(setups):
                m = by_key.get((setup, seed))
                if m is not None:
                    xs.append(i + (j - (len(seeds) - 1) / 2) * width)
                    values.append(m.solved if field == "success" else getattr(m, field))
            colour = RUN_COLOURS[j % len(RUN_COLOURS)]
            bars = ax.bar(xs, values, width=width, color=colour, label=f"run {run_label(seed)}")
            ax.bar_label(bars, fontsize=7, padding=1)
        ax.set_title(title, fontsize=10)
        ax.set_xticks(range(len(setups)), [SETUP_LABELS.get(s, s).replace(" + ", " +\n") for s in setups])
        ax.tick_params(labelsize=8)
        ax.margins(y=0.15)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=max(len(seeds), 1), fontsize=8)
    budget = measurements[0].budget if measurements else "?"
    fig.suptitle(
        f"Counted units over the 24 tasks, budget {budget}: each setup's two runs side by side", fontsize=11
    )
    return fig


def draw_plan_and_trace(run) -> Figure:
    """One run of the split, step by step: the planning step, the plan's positions, the executed calls.

    Parameters
    ----------
    run : Run
        A run of setup "plan-execute" (it needs `run.plan`).

    Returns
    -------
    Figure
        x: step (1 is planning); y: the five tools. Open squares are the plan's positions at
        the steps that executed them; filled markers are executed calls, a cross for a tool
        error; the shaded band marks the steps that followed the plan blindly.

    Raises
    ------
    ValueError
        When the run has no plan.
    """
    if run.plan is None:
        raise ValueError(f"run must be a plan-execute run with a plan, got setup {run.setup!r}")
    task = TASKS[TASK_NAMES.index(run.task)]
    fig = Figure(figsize=(8, 3.4), layout="constrained")
    ax = fig.subplots()
    rows = {tool: i for i, tool in enumerate(TOOL_NAMES)}
    planned_steps = min(len(run.plan), len(run.trace))
    ax.axvspan(0.5, 1.5, color="#DDDDDD", label="planning step")
    if planned_steps:
        ax.axvspan(1.5, 1.5 + planned_steps, color="#FFF3CD", label="plan executed blindly")
    for position, tool in enumerate(run.plan[:planned_steps]):
        ax.scatter(2 + position, rows[tool], s=260, marker="s", facecolors="none", edgecolors="black")
    for index, call in enumerate(run.trace):
        step = 2 + index
        colour = ERROR_COLOUR if call.error else OK_COLOUR
        ax.scatter(step, rows[call.tool], s=90, marker="X" if call.error else "o", color=colour, zorder=3)
    if run.stopped:
        ax.annotate("stops:\njob done", (run.steps, 2), ha="center", va="center", fontsize=8)
    ax.scatter([], [], s=90, marker="o", color=OK_COLOUR, label="tool call")
    ax.scatter([], [], s=90, marker="X", color=ERROR_COLOUR, label="tool error")
    ax.scatter([], [], s=120, marker="s", facecolors="none", edgecolors="black", label="plan position")
    ax.set_yticks(range(len(TOOL_NAMES)), TOOL_NAMES)
    ax.set_xticks(range(1, run.steps + 1))
    ax.set_xlim(0.5, max(run.steps, 2) + 0.5)
    ax.set_ylim(-0.7, len(TOOL_NAMES) - 0.3)
    ax.invert_yaxis()
    ax.set_xlabel("step")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    ax.set_title(
        f"{task.name} ({task.kind}), seed {run.seed}, budget {run.budget}: plan against executed trace\n"
        f"correct sequence: {' -> '.join(task.sequence)}",
        fontsize=9,
    )
    return fig


def draw_band_chart(
    verdicts, first_label: str = "single loop", second_label: str = "planner + executor"
) -> Figure:
    """The band rule made visible: per unit, the difference between setups on each run and the band.

    Parameters
    ----------
    verdicts : Sequence[BandVerdict]
        From `sim.bands.compare_setups`, one per unit.
    first_label, second_label : str
        Names of the two setups (the difference is second minus first).

    Returns
    -------
    Figure
        One axes. For each unit, the difference on each run as a dot and the band as a grey
        bar from -band to +band, all in percent of the first setup's mean on that unit, so
        units of different size share one scale. A unit is measured when every dot lies
        outside its grey bar; the verdict is written under the unit.
    """
    fig = Figure(figsize=(8, 3.2))  # fixed margins: no layout engine, so a panel redraws fast
    ax = fig.subplots(gridspec_kw={"left": 0.12, "right": 0.98, "bottom": 0.17, "top": 0.9})
    ax.axhline(0, color="black", linewidth=0.8)
    for x, v in enumerate(verdicts):
        scale = sum(v.first) / len(v.first) or 1
        band = 100 * v.band / scale
        ax.bar(x, 2 * band, bottom=-band, width=0.5, color="#DDDDDD", label="band" if x == 0 else None)
        for j, d in enumerate(v.differences):
            ax.scatter(x + (j - (len(v.differences) - 1) / 2) * 0.12, 100 * d / scale, s=45, zorder=3,
                       color=RUN_COLOURS[j % len(RUN_COLOURS)], label=f"run {'AB'[j]}" if x == 0 and j < 2 else None)  # fmt: skip
    ax.set_xticks(range(len(verdicts)), [f"{v.unit}\n{v.verdict}" for v in verdicts], fontsize=8)
    ax.set_ylabel(f"{second_label} minus {first_label}\n% of {first_label} mean", fontsize=8)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title(
        "Difference per run against the band: measured only when every dot is outside the grey bar",
        fontsize=9,
    )
    return fig


# ---- lesson 5, how many seeds

SETUP_COLOURS = ("#4C72B0", "#DD8452")  # first and second setup of a study
RESAMPLE_COLOURS = {"seeds": "#4C72B0", "tasks": "#55A868"}
STUDY_UNITS = (("solved", "tasks solved (of 24)"), ("tokens", "tokens"), ("errors", "tool errors"))


def draw_seed_distributions(studies: dict, marked: Sequence[int] = (), title: str = "") -> Figure:
    """Histograms over many seeds of tasks solved, tokens and tool errors, one colour a setup.

    Parameters
    ----------
    studies : dict[str, SeedMeasurements]
        Setup label -> per-seed measurements (from `sim.measure_batch`), at most 2 setups.
    marked : Sequence[int]
        Positions (indices into the seeds) to mark with a line and a letter A, B, ...: the
        lesson's two runs are positions 0 and 1.
    title : str
        Figure title; a default naming the number of seeds when empty.

    Returns
    -------
    Figure
        Three panels; x: tasks solved (of 24), tokens per run of 24 tasks, tool errors per run;
        y: share of seeds. Vertical lines mark the chosen seeds in each setup's colour.
    """
    fig = Figure(figsize=(11, 3.3))  # fixed margins: no layout engine, so a panel redraws fast
    axes = fig.subplots(1, 3, gridspec_kw={"left": 0.06, "right": 0.99, "bottom": 0.2, "top": 0.83,
                                           "wspace": 0.25})  # fmt: skip
    n_seeds = 0
    for ax, (field, label) in zip(axes, STUDY_UNITS, strict=True):
        values = [getattr(m, field) for m in studies.values()]
        low, high = min(v.min() for v in values), max(v.max() for v in values)
        if field == "tokens":
            bins = np.linspace(low, high + 1, 41)
        else:
            bins = np.arange(low, high + 2) - 0.5
        for j, (name, v) in enumerate(zip(studies, values, strict=True)):
            colour = SETUP_COLOURS[j % 2]
            share = np.histogram(v, bins=bins)[0] / len(v)
            ax.stairs(share, bins, fill=True, alpha=0.35, color=colour, label=name)
            ax.stairs(share, bins, color=colour)
            for letter, position in zip("ABCDEFGH", marked, strict=False):
                ax.axvline(v[position], color=colour, linestyle="--", linewidth=1.2)
                ax.annotate(letter, (v[position], 1.0), xycoords=("data", "axes fraction"), color=colour,
                            ha="center", va="bottom", fontsize=8, fontweight="bold")  # fmt: skip
            n_seeds = len(v)
        ax.set_xlabel(label, fontsize=9)
        ax.tick_params(labelsize=8)
    axes[0].set_ylabel("share of seeds", fontsize=9)
    axes[0].legend(fontsize=7, loc="upper left")
    fig.suptitle(
        title or f"Over {n_seeds} seeds, each setup's spread; dashed lines: runs A and B", fontsize=10
    )
    return fig


def draw_interval_growth(table) -> Figure:
    """The paired difference and its interval against the number of seeds, both ways of resampling.

    Parameters
    ----------
    table : pandas.DataFrame
        From `sim.study.interval_table`: unit, n_seeds, resample, difference, low, high.

    Returns
    -------
    Figure
        One panel a unit; x: number of seeds (log scale); y: second minus first per run of 24
        tasks (share of tasks for success); a dot for the difference and a bar for the 95 %
        interval, resampling seeds and resampling tasks side by side; zero as a black line.
    """
    units = list(dict.fromkeys(table["unit"]))
    fig = Figure(figsize=(11, 3.4), layout="constrained")
    axes = fig.subplots(1, len(units))
    for ax, unit in zip(np.atleast_1d(axes), units, strict=True):
        ax.axhline(0, color="black", linewidth=0.8)
        for way, factor in (("seeds", 0.9), ("tasks", 1.1)):
            rows = table[(table["unit"] == unit) & (table["resample"] == way)]
            x = rows["n_seeds"].to_numpy() * factor
            y = rows["difference"].to_numpy()
            error = np.vstack([y - rows["low"].to_numpy(), rows["high"].to_numpy() - y])
            ax.errorbar(x, y, yerr=error, fmt="o", markersize=4, capsize=3, color=RESAMPLE_COLOURS[way],
                        label=f"resampling {way}")  # fmt: skip
        ax.set_xscale("log")
        ax.set_title(unit + (" (share of tasks)" if unit == "success" else " (per run)"), fontsize=10)
        ax.set_xlabel("number of seeds", fontsize=9)
        ax.tick_params(labelsize=8)
    np.atleast_1d(axes)[0].set_ylabel("planner + executor minus single loop", fontsize=9)
    np.atleast_1d(axes)[0].legend(fontsize=7)
    fig.suptitle(
        "Paired difference and its 95 % percentile bootstrap interval as the seeds grow", fontsize=10
    )
    return fig


def draw_pass_k(table) -> Figure:
    """pass^k (unbiased estimator) beside p^k for each setup, k on the x axis.

    Parameters
    ----------
    table : pandas.DataFrame
        From `sim.study.pass_k_table`: column k and, per setup label, '<label> pass^k' and '<label> p^k'.

    Returns
    -------
    Figure
        Solid lines with dots: pass^k; dashed: p^k, what independent trials at the mean
        success share would give; one colour a setup.
    """
    fig = Figure(figsize=(6.5, 3.6), layout="constrained")
    ax = fig.subplots()
    labels = [c[: -len(" pass^k")] for c in table.columns if c.endswith(" pass^k")]
    for j, label in enumerate(labels):
        colour = SETUP_COLOURS[j % 2]
        ax.plot(table["k"], table[f"{label} pass^k"], "o-", color=colour, label=f"{label}: pass^k")
        ax.plot(table["k"], table[f"{label} p^k"], "--", color=colour, label=f"{label}: p^k")
    ax.set_xlabel("k (runs of the same task that must all succeed)", fontsize=9)
    ax.set_ylabel("chance", fontsize=9)
    ax.legend(fontsize=7)
    ax.set_title("pass^k against p^k: failures gather on some tasks", fontsize=10)
    return fig
