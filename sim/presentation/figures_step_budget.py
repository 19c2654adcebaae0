"""Figures of lesson 3, the step budget: the budget sweep and the outcome grid."""

import textwrap
from collections.abc import Sequence

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from sim.engine.labels import SETUP_LABELS, run_label
from sim.measurement.counts import Measurement
from sim.presentation.figures import in_course_style

SETUP_COLOURS = {"single-loop": "#4C72B0", "plan-execute": "#C44E52"}
OUTCOME_COLOURS = {
    "solved": "#2E7D32",
    "solved, no record written": "#A5D6A7",
    "spoiled": "#F9A825",
    "out of budget": "#BDBDBD",
    "wrong": "#C62828",
}


@in_course_style
def draw_budget_sweep(measurements: Sequence[Measurement]) -> Figure:
    """Tasks solved, tokens and tool errors against the step budget, a colour a setup, its band shaded."""
    fig = Figure(figsize=(11, 3.4), layout="constrained")
    axes = fig.subplots(1, 3, sharex=True)
    setups = list(dict.fromkeys(m.setup for m in measurements))
    for ax, (field, title) in zip(
        axes, (("solved", "tasks solved"), ("tokens", "tokens"), ("errors", "tool errors")), strict=True
    ):
        for setup in setups:
            colour = SETUP_COLOURS.get(setup, "black")
            seeds = list(dict.fromkeys(m.seed for m in measurements if m.setup == setup))
            lines = []
            for j, seed in enumerate(seeds):
                points = sorted(
                    (m.budget, getattr(m, field)) for m in measurements if m.setup == setup and m.seed == seed
                )
                xs, ys = zip(*points, strict=True)
                lines.append(ys)
                ax.plot(xs, ys, color=colour, linestyle="-" if j == 0 else "--", marker="o" if j == 0 else "s",
                        markersize=4, label=f"{SETUP_LABELS.get(setup, setup)}, run {run_label(seed)}")  # fmt: skip
            if len(lines) >= 2:
                ax.fill_between(xs, [min(v) for v in zip(*lines, strict=True)], [max(v) for v in zip(*lines, strict=True)],
                                color=colour, alpha=0.15, linewidth=0)  # fmt: skip
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("step budget (steps)", fontsize=9)
        ax.set_xticks(sorted({m.budget for m in measurements}))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.tick_params(labelsize=8)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=4, fontsize=8)
    return fig


@in_course_style
def draw_outcome_grid(grid, title: str, panel: bool = False) -> Figure:
    """An `outcome_grid` (task x budget) coloured by outcome (lesson 3); `panel`: the cells saved as they
    are (an SVG scales them, pixelated) rather than resampled, which costs a fifth of a panel's draw."""
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    names = list(OUTCOME_COLOURS)
    codes = grid.apply(lambda column: column.map(names.index)).to_numpy()
    width, height = max(6.5, 1.6 + 0.36 * grid.shape[1]), 7.8  # inches
    fig = Figure(figsize=(width, height))  # fixed margins (inches), no layout engine: a panel redraws fast
    ax = fig.subplots(gridspec_kw={"left": 0.6 / width, "right": 1 - 0.25 / width, "top": 1 - 0.75 / height,
                                   "bottom": 1.3 / height})  # fmt: skip
    ax.imshow(codes, cmap=ListedColormap(list(OUTCOME_COLOURS.values())), vmin=-0.5, vmax=len(names) - 0.5,
              aspect="auto", interpolation="none" if panel else "nearest")  # fmt: skip
    ax.set_yticks(range(grid.shape[0]), grid.index, fontsize=10)
    ax.set_xticks(range(grid.shape[1]), [str(b) for b in grid.columns], fontsize=10)
    ax.set_xlabel("step budget (steps)", fontsize=10)
    fig.suptitle(
        textwrap.fill(title, 60), fontsize=11, y=1 - 0.08 / height, va="top"
    )  # wrapped to the figure
    fig.legend(handles=[Patch(color=OUTCOME_COLOURS[n], label=n) for n in names], loc="lower center",
               ncols=3, fontsize=10, frameon=False)  # fmt: skip
    return fig
