"""Figures of lesson 6, your own agent: success against cost with intervals on both axes, and how the
router's interval narrows as the seeds grow.

Each is drawn by a named function returning a matplotlib Figure (no pyplot); `sim.presentation.figures` saves
them and holds the shared colours.
"""

import textwrap

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from sim.presentation.figures import in_course_style

ENTRANT_COLOURS = ("#4C72B0", "#DD8452", "#2E7D32", "#6A1B9A", "#C62828", "#00838F")
LEGEND_WIDTH, LEGEND_LINES = 24, 3  # characters a line, lines a label: the panel figure's legend


@in_course_style
def draw_cost_success(frame, title: str = "") -> Figure:
    """Success against tokens per run, one point per entrant, with 95 % intervals on both axes (lesson 6).

    Parameters
    ----------
    frame : pandas.DataFrame
        From `sim.measurement.harness.cost_success`: entrant, seeds, success, success_low, success_high (shares
        of the 24 tasks per run), tokens, tokens_low, tokens_high (tokens per run of 24 tasks).
    title : str
        Added to the figure's title (e.g. the seed block).

    Returns
    -------
    Figure
        Error bars: the t intervals over the seeds of both means.
    """
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
    """`draw_cost_success` for lesson 6's control panel: the same points, bars, labels and title on
    fixed margins (no layout engine to measure every text, so a redraw costs about half), the legend
    beside the axes with each label wrapped to LEGEND_WIDTH characters on at most LEGEND_LINES lines,
    narrower (down to 8 characters) while the legend would run past the figure's edge (a long name
    of a student's policy is shortened with "..."), and fewer ticks on the y axis.

    Parameters
    ----------
    frame : pandas.DataFrame
        From `sim.measurement.harness.cost_success`, as for `draw_cost_success`.
    title : str
        Added to the figure's title (e.g. the seed block and budget).

    Returns
    -------
    Figure
        8.5 x 4.8 inches, axes at fixed margins; error bars: the t intervals over the seeds.
    """
    fig = Figure(figsize=(8.5, 4.8))
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
    ax.set_title(f"Success against cost, {seeds} seeds {title}".strip(), fontsize=12)


@in_course_style
def draw_interval_growth(frames, title: str = "") -> Figure:
    """The mean paired difference in success and its 95 % interval against the number of seeds (lesson 6).

    Parameters
    ----------
    frames : Mapping[str, pandas.DataFrame]
        Label (e.g. "router minus single loop") -> `sim.measurement.harness.interval_growth` table: seeds,
        mean, low, high (shares of the 24 tasks per run).
    title : str
        The figure's title.

    Returns
    -------
    Figure
        One line of points with bars per comparison, seeds on a log axis, zero marked.
    """
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
