"""Figures of lesson 4, the contract: exit states, cost against success."""

from matplotlib.figure import Figure

from sim.presentation.figures import ERROR_COLOUR, OK_COLOUR, TITLE_Y, in_course_style, panel_bars

EXIT_COLOURS = {"SUCCESS": OK_COLOUR, "PARTIAL_SUCCESS": "#F9A825", "REPLAN_EXHAUSTED": "#6A1B9A",
                "TIMEOUT": ERROR_COLOUR}  # fmt: skip


@in_course_style
def draw_exit_states(frame, panel: bool = False) -> Figure:
    """Stacked bars of reported exit states (CT12), one a row of `exit_state_frame` (tasks, of 24); the
    silent failures hatched inside SUCCESS, the truth (solved, false alarms) written beside each bar;
    `panel`: the same bars, a colour one artist (`panel_bars`), for the panel."""
    states = list(EXIT_COLOURS)
    labels = [f"{row.setup}, run {row.run}" for row in frame.itertuples()]
    height = 0.5 * len(labels) + 1.9
    fig = Figure(figsize=(9, height))  # fixed margins, no layout engine: a panel redraws fast
    ax = fig.subplots(
        gridspec_kw={"left": 0.27, "right": 0.78, "top": 1 - 0.65 / height, "bottom": 1.25 / height}
    )
    if panel:
        ax.set_yticks(range(len(labels)), labels)

    def bars(values, left, **style):  # the lesson's: a patch a bar on a categorical axis
        if panel:
            return panel_bars(ax, range(len(labels)), values, 0.8, left, horizontal=True, **style)
        return ax.barh(labels, values, left=left, **style)

    left = [0] * len(labels)
    for state in states:
        values = list(frame[state])
        bars(values, left, color=EXIT_COLOURS[state], label=state)
        for row, (start, value) in enumerate(zip(left, values, strict=True)):
            if value:  # the count inside its bar (plain text: cheaper to draw than bar labels)
                ax.text(
                    start + value / 2, row, str(value), ha="center", va="center", fontsize=10, color="white"
                )
        left = [a + b for a, b in zip(left, values, strict=True)]
    silent = list(frame["silent failures"])  # the last ones of SUCCESS: reported, with a wrong answer
    bars(silent, [s - n for s, n in zip(frame["SUCCESS"], silent, strict=True)],
         facecolor="none", edgecolor="black", hatch="///", linewidth=0, label="silent failure")  # fmt: skip
    truth = zip(frame["solved (true)"], frame["false alarms"], strict=True)
    for row, (solved, alarms) in enumerate(truth):  # the truth, beside the bar
        ax.text(max(left) * 1.02, row, f"solved {solved}, false alarms {alarms}", va="center", fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel("tasks (of 24)")
    fig.legend(fontsize=9, ncols=len(states) + 1, loc="lower center", frameon=False)
    budgets = sorted(set(frame["budget"]))
    ax.set_title(f"Exit states reported per setup and run, budget {', '.join(map(str, budgets))}; the "
                 "truth beside\n(CT12 on what each run observed; hatched: SUCCESS with a wrong answer)",
                 fontsize=11, loc="left", y=TITLE_Y)  # fmt: skip
    return fig


@in_course_style
def draw_cost_against_success(frame) -> Figure:
    """Tasks solved against tokens and against steps, a line a setup and run across budgets (lesson 4)."""
    fig = Figure(figsize=(10, 3.8), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    markers = {"A": "o", "B": "s"}
    colours = dict(
        zip(dict.fromkeys(frame["setup"]), ("#4C72B0", "#DD8452", "#2E7D32", "#6A1B9A"), strict=False)
    )
    for ax, cost in zip(axes, ("tokens", "steps"), strict=True):
        for (setup, run), group in frame.groupby(["setup", "run"], sort=False):
            group = group.sort_values("budget")
            ax.plot(group[cost], group["solved"], marker=markers.get(run, "^"), color=colours[setup],
                    linestyle="-" if run == "A" else "--", label=f"{setup}, run {run}")  # fmt: skip
            if run == "A":  # budgets landing on the same point share one label
                points = {}
                for row in group.itertuples():
                    points.setdefault((getattr(row, cost), row.solved), []).append(str(row.budget))
                for point, budgets in points.items():
                    ax.annotate(
                        ", ".join(budgets), point, fontsize=7, textcoords="offset points", xytext=(3, -9)
                    )
        ax.set_xlabel(f"{cost} (sum over the 24 tasks)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("tasks solved (of 24)")
    axes[0].yaxis.get_major_locator().set_params(integer=True)
    axes[1].legend(fontsize=7, loc="lower right")
    fig.suptitle("Cost against success across step budgets (numbers: the budget, run A)", fontsize=10)
    return fig
