"""Figures of lesson 6, your own agent: success against cost with intervals on both axes, and how the
router's interval narrows as the seeds grow."""

import textwrap

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from sim.presentation.figures import TITLE_Y, in_course_style

ENTRANT_COLOURS = ("#4C72B0", "#DD8452", "#2E7D32", "#6A1B9A", "#C62828", "#00838F", "#8C564B", "#7F7F7F")
LEGEND_WIDTH, LEGEND_LINES = 24, 3  # characters a line, lines a label: the panel figure's legend


@in_course_style
def draw_cost_success(frame, title: str = "") -> Figure:
    """Success against tokens per run, a point an entrant of `cost_success`, 95 % t intervals on both axes."""
    fig = Figure(figsize=(8.5, 4.8), layout="constrained")
    ax = fig.subplots()
    _plot_cost_success(ax, frame, title)
    ax.legend(
        fontsize=10, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0
    )  # beside the axes: never on a point, and cheaper than "best"
    ax.xaxis.set_major_locator(MaxNLocator(nbins=6))
    ax.tick_params(labelsize=10)
    return fig


@in_course_style
def draw_panel_cost_success(frame, title: str = "") -> Figure:
    """`draw_cost_success` for lesson 6's panel: fixed margins, fewer y ticks, and legend labels wrapped
    narrower (down to 8 characters, "..." past LEGEND_LINES) until the legend fits beside the axes."""
    fig = Figure(figsize=(8.5, 4.8))  # no layout engine measuring every text: a redraw costs about half
    ax = fig.add_axes((0.095, 0.115, 0.6, 0.79))  # left, bottom, width, height: room for the legend
    _plot_cost_success(ax, frame, title)
    handles, labels = ax.get_legend_handles_labels()
    for width in range(LEGEND_WIDTH, 7, -4):  # narrower while the legend runs past the figure's edge
        wrapped = [
            textwrap.fill(label, width, max_lines=LEGEND_LINES, placeholder=" ...") for label in labels
        ]
        legend = ax.legend(handles, wrapped, fontsize=10, loc="upper left", bbox_to_anchor=(1.02, 1),
                           borderaxespad=0)  # fmt: skip
        if legend.get_window_extent().x1 <= fig.bbox.x1:
            break
    ax.xaxis.set_major_locator(MaxNLocator(nbins=6))
    ax.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    ax.tick_params(labelsize=10)
    return fig


def _plot_cost_success(ax, frame, title: str) -> None:
    """The points with their bars, the axis labels, the grid and the title of a cost-success figure."""
    for colour, row in zip(ENTRANT_COLOURS * 3, frame.itertuples(), strict=False):
        ax.errorbar(row.tokens, row.success, xerr=[[row.tokens - row.tokens_low], [row.tokens_high - row.tokens]],
                    yerr=[[row.success - row.success_low], [row.success_high - row.success]], fmt="o",
                    color=colour, capsize=3, label=row.entrant)  # fmt: skip
    ax.set_xlabel("tokens per run of 24 tasks (mean, 95 % interval)")
    ax.set_ylabel("share of tasks solved (mean, 95 % interval)")
    ax.grid(alpha=0.3)
    seeds = int(frame["seeds"].iloc[0]) if len(frame) else 0
    ax.set_title(f"Success against cost, {seeds} seeds {title}".strip(), fontsize=12, y=TITLE_Y)


@in_course_style
def draw_interval_growth(frames, title: str = "") -> Figure:
    """The mean paired difference in success and its 95 % interval against the number of seeds (lesson 6).

    `frames`: label (e.g. "router minus single loop") -> `sim.measurement.harness.interval_growth` table."""
    fig = Figure(figsize=(7.5, 3.8), layout="constrained")
    ax = fig.subplots()
    for k, (colour, (label, frame)) in enumerate(zip(ENTRANT_COLOURS, frames.items(), strict=False)):
        shift = 1 + 0.06 * (k - (len(frames) - 1) / 2)  # side by side on the log axis
        x = frame["seeds"] * shift
        ax.errorbar(x, frame["mean"], yerr=[frame["mean"] - frame["low"], frame["high"] - frame["mean"]],
                    fmt="o-", color=colour, capsize=3, label=label)  # fmt: skip
    ax.axhline(0, color="grey", linewidth=1)
    ax.set_xscale("log")
    ax.set_xlabel("held-out seeds")
    ax.set_ylabel("difference in share of tasks solved")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title(title or "Paired difference in success and its 95 % interval", fontsize=10)
    return fig
