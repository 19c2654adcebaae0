"""Figures of lesson 5, how many seeds: spreads, intervals, coverage, power, pass^k, cost per success."""

import textwrap
from collections.abc import Sequence

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from sim.engine.units import UNITS
from sim.presentation.figures import in_course_style

STUDY_COLOURS = ("#4C72B0", "#DD8452")  # first and second setup of a study
RESAMPLE_COLOURS = {"seeds": "#4C72B0", "tasks": "#55A868"}
PALETTE = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B2", "#937860", "#DA8BC3")
PANEL_TICKS = (5, 4)  # bins of the x and y axes' ticks in the panel's figure
STUDY_UNITS = tuple((unit.count, unit.label + (" (of 24)" if unit.share else ""))
                    for unit in UNITS if unit.name in ("success", "tokens", "tool errors"))  # fmt: skip


def _mark_runs(ax, marks: list[list[float]]) -> None:
    """Letter the marked runs above the axes, a row of letters a setup; letters too close share a label."""
    low, high = ax.get_xlim()
    near = 0.06 * (high - low)  # closer than this, two letters would print on each other
    for j, values in enumerate(marks):
        spots: dict[float, list[str]] = {}
        for letter, value in zip("ABCDEFGH", values, strict=False):
            spot = next((s for s in spots if abs(s - float(value)) < near), float(value))
            spots.setdefault(spot, []).append(letter)
        for value, letters in spots.items():
            ax.annotate(" ".join(letters), (value, 1.0), xycoords=("data", "axes fraction"),
                        xytext=(0, 2 + 12 * j), textcoords="offset points", color=STUDY_COLOURS[j % 2],
                        ha="center", va="bottom", fontsize=10, fontweight="bold")  # fmt: skip


@in_course_style
def draw_seed_distributions(
    studies: dict, marked: Sequence[int] = (), title: str = "", panel: bool = False
) -> Figure:
    """Histograms over seeds of solved, tokens and errors (label -> SeedMeasurements), `marked` as lines;
    `panel`: the panel's lighter figure (PANEL_TICKS ticks, a setup's lines as one artist)."""
    fig = Figure(figsize=(11, 3.9))  # fixed margins: no layout engine, so a panel redraws fast
    axes = fig.subplots(1, 3, gridspec_kw={"left": 0.07, "right": 0.975, "bottom": 0.17, "top": 0.8,
                                           "wspace": 0.25})  # fmt: skip
    n_seeds = 0
    for ax, (field, label) in zip(axes, STUDY_UNITS, strict=True):
        values = [getattr(m, field) for m in studies.values()]
        low, high = min(v.min() for v in values), max(v.max() for v in values)
        bins = np.linspace(low, high + 1, 41) if field == "tokens" else np.arange(low, high + 2) - 0.5
        for j, (name, v) in enumerate(zip(studies, values, strict=True)):
            colour = STUDY_COLOURS[j % 2]
            share = np.histogram(v, bins=bins)[0] / len(v)
            ax.stairs(share, bins, fill=True, facecolor=to_rgba(colour, 0.35), edgecolor=colour, linewidth=1.5,
                      label=name)  # fmt: skip
            if panel:  # axvline's lines (bottom to top, not in the limits) as one artist
                segments = [[(v[p], 0), (v[p], 1)] for p in marked[:8]]
                lines = LineCollection(segments, colors=colour, linestyles="--", linewidths=1.2,
                                       transform=ax.get_xaxis_transform())  # fmt: skip
                ax.add_collection(lines, autolim=False)
            else:
                for position in marked[:8]:
                    ax.axvline(v[position], color=colour, linestyle="--", linewidth=1.2)
            n_seeds = len(v)
        _mark_runs(ax, [[v[p] for p in marked] for v in values])
        ax.set_xlabel(label, fontsize=10)
        ax.tick_params(labelsize=10)
        if panel:
            ax.xaxis.set_major_locator(MaxNLocator(nbins=PANEL_TICKS[0], integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(nbins=PANEL_TICKS[1], steps=[1, 2, 2.5, 5, 10]))
    axes[0].set_ylabel("share of seeds", fontsize=10)
    axes[0].legend(fontsize=10, loc="upper left")
    fig.suptitle(
        textwrap.fill(title or f"Over {n_seeds} seeds, each setup's spread; dashed lines: runs A and B", 110),
        fontsize=11,
    )
    return fig


@in_course_style
def draw_panel_seed_distributions(studies: dict, marked: Sequence[int] = (), title: str = "") -> Figure:
    """`draw_seed_distributions`, lighter (fewer ticks and artists), so lesson 5's panel redraws faster."""
    return draw_seed_distributions(studies, marked, title, panel=True)


def _errorbar(ax, rows, shift: float, value: str, low: str, high: str, **style) -> None:
    """Dots of `value` with bars from `low` to `high` against n_seeds (times `shift`, side by side on a log axis)."""
    y = rows[value].to_numpy()
    error = np.vstack([y - rows[low].to_numpy(), rows[high].to_numpy() - y])
    ax.errorbar(rows["n_seeds"].to_numpy() * shift, y, yerr=error, markersize=4, capsize=3, **style)


@in_course_style
def draw_interval_growth(table) -> Figure:
    """The paired difference and its t interval against the number of seeds (`interval_table`)."""
    units = list(dict.fromkeys(table["unit"]))
    fig = Figure(figsize=(11, 3.4), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(units)))
    for ax, unit in zip(axes, units, strict=True):
        ax.axhline(0, color="black", linewidth=0.8)
        for way, shift in (("seeds", 0.9), ("tasks", 1.1)):
            rows = table[(table["unit"] == unit) & (table["resample"] == way)]
            _errorbar(ax, rows, shift, "difference", "low", "high", fmt="o", color=RESAMPLE_COLOURS[way],
                      label=f"over {way}")  # fmt: skip
        ax.set_xscale("log")
        ax.set_title(unit + (" (share of tasks)" if unit == "success" else " (per run)"), fontsize=10)
        ax.set_xlabel("number of seeds", fontsize=9)
        ax.tick_params(labelsize=8)
    axes[0].set_ylabel("planner + executor minus single loop", fontsize=9)
    axes[0].legend(fontsize=7)
    fig.suptitle("Difference and its 95 % t interval as the seeds grow", fontsize=10)
    return fig


@in_course_style
def draw_pass_k(table) -> Figure:
    """pass^k beside p^k for each setup against k; `table` from `sim.measurement.study.pass_k_table`."""
    fig = Figure(figsize=(6.5, 3.6), layout="constrained")
    ax = fig.subplots()
    labels = [c[: -len(" pass^k")] for c in table.columns if c.endswith(" pass^k")]
    for j, label in enumerate(labels):
        colour = STUDY_COLOURS[j % 2]
        ax.plot(table["k"], table[f"{label} pass^k"], "o-", color=colour, label=f"{label}: pass^k")
        ax.plot(table["k"], table[f"{label} p^k"], "--", color=colour, label=f"{label}: p^k")
    ax.set_xlabel("k (runs of the same task that must all succeed)", fontsize=9)
    ax.set_ylabel("chance", fontsize=9)
    ax.legend(fontsize=7)
    ax.set_title("pass^k against p^k: failures gather on some tasks", fontsize=10)
    return fig


@in_course_style
def draw_paired_spread(own, common, title: str = "") -> Figure:
    """Histograms of the per-seed difference in tasks solved, on own streams (AA22) and common draws (CR1)."""
    fig = Figure(figsize=(6.5, 3.4), layout="constrained")
    ax = fig.subplots()
    low, high = min(own.min(), common.min()), max(own.max(), common.max())
    bins = np.arange(low, high + 2) - 0.5
    for values, label, colour in ((own, "own streams (AA22)", STUDY_COLOURS[0]),
                                  (common, "common draws (CR1)", STUDY_COLOURS[1])):  # fmt: skip
        share = np.histogram(values, bins=bins)[0] / len(values)
        ax.stairs(share, bins, fill=True, alpha=0.35, color=colour,
                  label=f"{label}: sd {np.std(values, ddof=1):.2f}")  # fmt: skip
        ax.stairs(share, bins, color=colour)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("planner + executor minus single loop, tasks solved per run", fontsize=9)
    ax.set_ylabel("share of seeds", fontsize=9)
    ax.legend(fontsize=8)
    ax.set_title(title or "The per-seed difference, own streams against common draws", fontsize=10)
    return fig


@in_course_style
def draw_coverage(tables: dict, confidence: float = 0.95) -> Figure:
    """Coverage of each interval method against the number of seeds (unit label -> `coverage_table`)."""
    fig = Figure(figsize=(10, 3.4), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(tables), sharey=True))
    colours = {"t": "#4C72B0", "percentile": "#DD8452", "BCa": "#55A868"}
    shift = {"t": 0.92, "percentile": 1.0, "BCa": 1.08}
    for ax, (label, table) in zip(axes, tables.items(), strict=True):
        ax.axhline(confidence, color="black", linestyle="--", linewidth=0.8)
        for method, rows in table.groupby("method", sort=False):
            _errorbar(ax, rows, shift.get(method, 1.0), "coverage", "coverage_low", "coverage_high", fmt="o-",
                      color=colours.get(method), label=method)  # fmt: skip
        ax.set_xscale("log")
        ax.set_xlabel("seeds per study", fontsize=9)
        ax.set_title(label, fontsize=10)
        ax.tick_params(labelsize=8)
    axes[0].set_ylabel("share of studies covering the 10,000-seed value", fontsize=9)
    axes[0].legend(fontsize=8, loc="lower right")
    fig.suptitle(f"Do {confidence:.0%} intervals cover? Disjoint studies of the 10,000 seeds", fontsize=10)
    return fig


@in_course_style
def draw_power(tables: dict, curves: dict | None = None, target: float = 0.8) -> Figure:
    """Measured power (label -> `power_table`) against seeds, with closed-form curves (label -> (x, y))."""
    fig = Figure(figsize=(7.5, 3.8), layout="constrained")
    ax = fig.subplots()
    labels = dict.fromkeys([*tables, *(curves or {})])  # a curve takes the colour of its table
    colour = {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(labels)}
    for label, table in tables.items():
        ax.plot(table["n_seeds"], table["power"], "o-", color=colour[label], label=f"{label}: measured")
    for label, (x, y) in (curves or {}).items():
        ax.plot(x, y, "--", color=colour[label], label=f"{label}: closed form")
    ax.axhline(target, color="black", linestyle=":", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("seeds per study", fontsize=9)
    ax.set_ylabel("share of studies whose interval excludes 0", fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title("Power: how often an N-seed study shows the effect", fontsize=10)
    return fig


@in_course_style
def draw_cost_success(table) -> Figure:
    """Setups on the success / tokens-per-success plane, 95 % intervals on both (`cost_per_success`)."""
    fig = Figure(figsize=(6.5, 4.0), layout="constrained")
    ax = fig.subplots()
    palette = PALETTE[:6]
    for i, row in enumerate(table.itertuples(index=False)):
        ax.errorbar(row.success, row.tokens_per_success,
                    xerr=[[row.success - row.success_low], [row.success_high - row.success]],
                    yerr=[[row.tokens_per_success - row.low], [row.high - row.tokens_per_success]],
                    fmt="o", capsize=3, color=palette[i % len(palette)], label=row.setup)  # fmt: skip
    ax.set_xlabel("share of tasks solved", fontsize=9)
    ax.set_ylabel("tokens per solved task", fontsize=9)
    ax.legend(fontsize=7)
    ax.set_title("Cost and success, each with its 95 % interval", fontsize=10)
    return fig
