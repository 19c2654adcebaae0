"""Figures of lesson 2, planner and executor: the counted units, one run's plan against its trace, the band chart."""

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from sim.engine.labels import SETUP_LABELS, run_label
from sim.engine.units import UNITS
from sim.measurement.counts import Measurement
from sim.model.tasks import TASK_NAMES, TASKS
from sim.model.world import TOOL_NAMES
from sim.presentation.figures import (
    ERROR_COLOUR,
    OK_COLOUR,
    RUN_COLOURS,
    TITLE_Y,
    in_course_style,
    panel_bars,
)
from sim.presentation.tables import check_plan_run


@in_course_style
def draw_counted_units(measurements: Sequence[Measurement]) -> Figure:
    """Bars of the five counted units, a panel a unit, a bar a (setup, seed) at one budget, a colour a run."""
    setups = list(dict.fromkeys(m.setup for m in measurements))
    seeds = list(dict.fromkeys(m.seed for m in measurements))
    by_key = {(m.setup, m.seed): m for m in measurements}
    fig = Figure(figsize=(11, 3.2), layout="constrained")
    axes = fig.subplots(1, len(UNITS))
    width = 0.8 / max(len(seeds), 1)
    for ax, (field, title) in zip(axes, [(unit.count, unit.label) for unit in UNITS], strict=True):
        for j, seed in enumerate(seeds):
            xs, values = [], []
            for i, setup in enumerate(setups):
                m = by_key.get((setup, seed))
                if m is not None:
                    xs.append(i + (j - (len(seeds) - 1) / 2) * width)
                    values.append(getattr(m, field))
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


@in_course_style
def draw_plan_and_trace(run) -> Figure:
    """A plan-execute run step by step; raises InputError for a run without a plan."""
    check_plan_run(run)
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


@in_course_style
def draw_band_chart(
    verdicts, first_label: str = "single loop", second_label: str = "planner + executor", panel: bool = False
) -> Figure:
    """The band rule drawn: each run's difference a dot, the band a grey bar, in % of the first's mean;
    `panel`: the same bars and dots, the bars one artist and a run's dots one (the panel's, lighter)."""
    fig = Figure(figsize=(9, 3.8))  # fixed margins: no layout engine, so a panel redraws fast
    ax = fig.subplots(gridspec_kw={"left": 0.12, "right": 0.98, "bottom": 0.17, "top": 0.9})
    ax.axhline(0, color="black", linewidth=0.8)
    if panel:
        scales = [sum(v.first) / len(v.first) or 1 for v in verdicts]
        bands = np.array([100 * v.band / scale for v, scale in zip(verdicts, scales, strict=True)])
        panel_bars(ax, range(len(verdicts)), 2 * bands, 0.5, -bands, color="#DDDDDD", label="band")
        runs = len(verdicts[0].differences) if verdicts else 0
        for j in range(runs):
            ax.scatter([x + (j - (runs - 1) / 2) * 0.12 for x in range(len(verdicts))],
                       [100 * v.differences[j] / scale for v, scale in zip(verdicts, scales, strict=True)],
                       s=45, zorder=3, color=RUN_COLOURS[j % len(RUN_COLOURS)], label=f"run {'AB'[j]}" if j < 2 else None)  # fmt: skip
    else:  # the lesson's: a patch a bar, a collection a dot
        for x, v in enumerate(verdicts):
            scale = sum(v.first) / len(v.first) or 1
            band = 100 * v.band / scale
            ax.bar(x, 2 * band, bottom=-band, width=0.5, color="#DDDDDD", label="band" if x == 0 else None)
            for j, d in enumerate(v.differences):
                ax.scatter(x + (j - (len(v.differences) - 1) / 2) * 0.12, 100 * d / scale, s=45, zorder=3,
                           color=RUN_COLOURS[j % len(RUN_COLOURS)], label=f"run {'AB'[j]}" if x == 0 and j < 2 else None)  # fmt: skip
    ax.set_xticks(range(len(verdicts)), [f"{v.unit}\n{v.verdict}" for v in verdicts], fontsize=10)
    ax.set_ylabel(f"{second_label} minus {first_label}\n% of {first_label} mean", fontsize=10)
    ax.legend(fontsize=10, loc="upper left")
    ax.set_title(
        "Difference per run against the band: measured only when every dot is outside the grey bar",
        fontsize=11,
        y=TITLE_Y,
    )
    return fig
