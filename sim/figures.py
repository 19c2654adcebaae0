"""Figures the lessons draw, each by a named function, and the one helper that saves them.

Figures are matplotlib `Figure` objects made without pyplot, so drawing one never shows it
twice and leaves no global figure state. `save_figure` writes into the repository's
`figures/` folder whatever the working directory, or into the folder named by the
environment variable COURSE_FIGURES_DIR (the tests set it, so running them never rewrites a
committed figure). Introduced in lesson 2, planner and executor.
"""

import io
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from sim.costs import cheapest_loop_tokens, loop_step_tokens, observation_tokens
from sim.labels import SETUP_LABELS, run_label
from sim.measurement import Measurement
from sim.picks import SELECTION_FLOOR, expected_right_share, selection
from sim.tasks import TASK_NAMES, TASKS
from sim.units import UNITS
from sim.world import ABOVE_LAST_BAND, CUSTOMER_TYPES, TARIFF_BANDS, TOOL_NAMES, charge

FIGURES_ENV = "COURSE_FIGURES_DIR"
REPO_FIGURES = Path(__file__).resolve().parents[1] / "figures"
RUN_COLOURS = ("#4C72B0", "#DD8452")  # run A, run B
OK_COLOUR, ERROR_COLOUR = "#2E7D32", "#C62828"


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


PANEL_DPI = 90  # resolution of a panel's figure; the panel shows it at its own pixel width


def figure_svg(fig: Figure) -> bytes:
    """The figure as SVG bytes with text kept as text, for a panel's Image widget: faster to
    make than a PNG here and sharp at any size. The same figure always gives the same bytes."""
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "agent-loops-measured"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def figure_png(fig: Figure, dpi: int = PANEL_DPI) -> bytes:
    """The figure as PNG bytes, for an Image widget (PANEL_DPI by default)."""
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


SETUP_COLOURS = {"single-loop": "#4C72B0", "plan-execute": "#C44E52"}
OUTCOME_COLOURS = {
    "solved": "#2E7D32",
    "solved, no record written": "#A5D6A7",
    "spoiled": "#F9A825",
    "out of budget": "#BDBDBD",
    "wrong": "#C62828",
}


def draw_budget_sweep(measurements: Sequence[Measurement]) -> Figure:
    """Tasks solved, tokens and tool errors against the step budget, per setup, both runs drawn (lesson 3).

    Parameters
    ----------
    measurements : Sequence[Measurement]
        One per (setup, seed, budget). Each setup is one colour; its first run is a solid
        line, its second a dashed line, and the area between them (its run-to-run band) is
        shaded.

    Returns
    -------
    Figure
        Three panels sharing the x axis (step budget, steps).
    """
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


def draw_outcome_grid(grid, title: str) -> Figure:
    """A task x budget grid coloured by outcome (lesson 3).

    Parameters
    ----------
    grid : pandas.DataFrame
        From `sim.outcomes.outcome_grid`: index task names, columns budgets, values outcomes.
    title : str
        The figure's title.

    Returns
    -------
    Figure
        One cell per (task, budget), coloured by OUTCOME_COLOURS, with a legend of outcomes.
    """
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    names = list(OUTCOME_COLOURS)
    codes = grid.apply(lambda column: column.map(names.index)).to_numpy()
    fig = Figure(figsize=(3.4 + 0.3 * grid.shape[1], 6.2), layout="constrained")
    ax = fig.subplots()
    ax.imshow(codes, cmap=ListedColormap(list(OUTCOME_COLOURS.values())), vmin=-0.5, vmax=len(names) - 0.5,
              aspect="auto", interpolation="nearest")  # fmt: skip
    ax.set_yticks(range(grid.shape[0]), grid.index, fontsize=7)
    ax.set_xticks(range(grid.shape[1]), [str(b) for b in grid.columns], fontsize=7)
    ax.set_xlabel("step budget (steps)", fontsize=8)
    ax.set_title(title, fontsize=8)
    fig.legend(handles=[Patch(color=OUTCOME_COLOURS[n], label=n) for n in names], loc="outside right upper",
               fontsize=7, frameon=False)  # fmt: skip
    return fig


# ---- lesson 1, the single loop


def draw_tariff(max_m3: int = 70) -> Figure:
    """The tiered tariff: charge against consumption for both customer types, band edges marked.

    Parameters
    ----------
    max_m3 : int
        Right end of the consumption axis (m3); the world's meters move by at most 69 m3.

    Returns
    -------
    Figure
        One axes: charge (currency units) against m3 (0 .. max_m3), a line per customer type,
        a dashed vertical line at each band edge with the band's unit price written above it.
        Source: lesson 1 (world rules).
    """

    fig = Figure(figsize=(7, 3.6), layout="constrained")
    ax = fig.subplots()
    m3 = list(range(max_m3 + 1))
    for colour, customer_type in zip(RUN_COLOURS, CUSTOMER_TYPES, strict=True):
        ax.plot(m3, [charge(x, customer_type) for x in m3], color=colour, label=customer_type)
    lower = 0
    prices = [unit for _, unit in TARIFF_BANDS] + [ABOVE_LAST_BAND]
    edges = [upper for upper, _ in TARIFF_BANDS]
    for edge in edges:
        ax.axvline(edge, color="grey", linestyle="--", linewidth=0.8)
    for upper, unit in zip(edges + [max_m3], prices, strict=True):
        ax.text((lower + upper) / 2, 0.97, f"{unit}/m3", transform=ax.get_xaxis_transform(),
                ha="center", va="top", fontsize=8)  # fmt: skip
        lower = upper
    ax.set_xticks([0, *edges, max_m3])
    ax.set_xlim(0, max_m3)
    ax.set_xlabel("consumption (m3)")
    ax.set_ylabel("charge")
    ax.legend(fontsize=8, loc="center left")
    ax.set_title(
        "Tiered tariff: each band at its unit price (residential), commercial pays double", fontsize=10
    )
    return fig


def draw_selection_rule(max_depth: int = 8) -> Figure:
    """The single loop's rule for right picks: selection(d) and the expected share once lucky random picks count.

    Parameters
    ----------
    max_depth : int
        Last position of the sequence drawn (the tasks reach position 4; further shows the floor).

    Returns
    -------
    Figure
        One axes: share of right picks (0..1) against depth 1 .. max_depth; the shaded range
        marks the depths the 24 tasks reach. Source: lesson 1.
    """

    depths = list(range(1, max_depth + 1))
    deepest = max(len(task.sequence) for task in TASKS)
    fig = Figure(figsize=(7, 3.4), layout="constrained")
    ax = fig.subplots()
    ax.axvspan(0.5, deepest + 0.5, color="#EEF3FA", label="depths the tasks reach")
    ax.plot(depths, [selection(d) for d in depths], marker="o", color="black", label="selection(d)")
    ax.plot(depths, [expected_right_share(d) for d in depths], marker="o", linestyle="--", color="grey",
            label="expected, lucky random picks counted")  # fmt: skip
    ax.axhline(SELECTION_FLOOR, color="grey", linewidth=0.6, linestyle=":")
    ax.text(max_depth, SELECTION_FLOOR, "floor", va="bottom", ha="right", fontsize=8)
    ax.set_xticks(depths)
    ax.set_ylim(0, 1)
    ax.set_xlabel("depth d (position of the sequence)")
    ax.set_ylabel("share of right picks")
    ax.legend(fontsize=8, loc="lower left")
    ax.set_title("The single loop's rule: the deeper the position, the fewer right picks", fontsize=10)
    return fig


def draw_depth_shares(tables: dict) -> Figure:
    """Measured share of right picks by depth, per run, beside the model line and the expected share.

    Parameters
    ----------
    tables : dict[str, pd.DataFrame]
        Run label -> `sim.depth_picks(...)` table (columns depth, picks, right, share, model,
        expected). Up to 2 runs are told apart by colour.

    Returns
    -------
    Figure
        One axes: share (0..1) against depth; each measured point is labelled right/picks,
        so how few picks a point rests on stays visible. Fixed margins (no layout engine), so
        a panel redraws it fast. Source: lesson 1.
    """
    fig = Figure(figsize=(7, 3.4))
    ax = fig.subplots(gridspec_kw={"left": 0.1, "right": 0.98, "bottom": 0.14, "top": 0.9})
    first = next(iter(tables.values()))
    ax.plot(first["depth"], first["model"], color="black", marker="_", markersize=14, label="selection(d)")
    ax.plot(
        first["depth"], first["expected"], color="grey", linestyle="--", label="expected, lucky picks counted"
    )
    offsets = [(j - (len(tables) - 1) / 2) * 0.12 for j in range(len(tables))]
    for j, (label, table) in enumerate(tables.items()):
        colour = RUN_COLOURS[j % len(RUN_COLOURS)]
        xs = table["depth"] + offsets[j]
        ax.scatter(xs, table["share"], s=40, color=colour, zorder=3, label=f"measured, run {label}")
        for x, share, right, picks in zip(xs, table["share"], table["right"], table["picks"], strict=True):
            if picks:
                side = -1 if j == 0 else 1  # run A's labels to the left, run B's to the right
                ax.annotate(f"{right}/{picks}", (x, share), textcoords="offset points", xytext=(7 * side, -3),
                            ha="right" if side < 0 else "left", fontsize=7, color=colour)  # fmt: skip
    ax.set_xticks(list(first["depth"]))
    ax.set_xlim(0.5, len(first) + 0.5)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("depth d (position of the sequence)")
    ax.set_ylabel("share of right picks")
    ax.legend(fontsize=7, loc="lower left")
    ax.set_title("Right picks by depth, counted from the traces (labels: right/picks)", fontsize=10)
    return fig


def draw_growing_trace(steps, runs) -> Figure:
    """Why the single loop pays for its own history: tokens per step, and total tokens by sequence length.

    Parameters
    ----------
    steps : Sequence[LoopStep]
        The steps of one long single-loop run (`sim.loop_steps`).
    runs : dict[str, Sequence[Run]]
        Run label -> the 24 single-loop runs of that run (for the right panel).

    Returns
    -------
    Figure
        Left: tokens each step cost against step index, split into the step's base, the
        re-sent trace and the observation. Right: each task's total tokens against its
        sequence length (a dot per run and total, its area the number of tasks), with the cheapest
        possible run of each length (every pick right, then stop). Source: lesson 1.
    """
    fig = Figure(figsize=(10, 3.6), layout="constrained")
    left, right = fig.subplots(1, 2)
    index = [s.step for s in steps]
    base = loop_step_tokens(0)
    trace_part = [loop_step_tokens(s.trace_length) - base for s in steps]
    observed = [observation_tokens(False) if s.tool is not None else 0 for s in steps]
    left.bar(index, [base] * len(steps), color="#BBBBBB", label="step base")
    left.bar(index, trace_part, bottom=[base] * len(steps), color=RUN_COLOURS[0], label="re-sent trace")
    left.bar(index, observed, bottom=[base + t for t in trace_part], color="#8FBF8F", label="observation")
    for s in steps:
        left.annotate(s.tool or "stop", (s.step, s.tokens), textcoords="offset points", xytext=(0, 2),
                      ha="center", fontsize=6, rotation=60)  # fmt: skip
    left.set_xticks(index)
    left.set_xlabel("step")
    left.set_ylabel("tokens this step")
    left.margins(y=0.35)
    left.legend(fontsize=7, loc="upper left")
    left.set_title(f"One long run: {sum(s.tokens for s in steps)} tokens in {len(steps)} steps", fontsize=9)
    lengths = sorted({len(task.sequence) for task in TASKS})
    for j, (label, task_runs) in enumerate(runs.items()):
        points = Counter((len(TASKS[TASK_NAMES.index(r.task)].sequence), r.tokens) for r in task_runs)
        xs = [length + (j - 0.5) * 0.2 for length, _ in points]
        right.scatter(xs, [tokens for _, tokens in points], s=[18 * n for n in points.values()], alpha=0.7,
                      color=RUN_COLOURS[j % 2], label=f"run {label} (dot area: tasks)")  # fmt: skip
    cheapest = [cheapest_loop_tokens(n) for n in lengths]
    right.plot(lengths, cheapest, color="black", marker="_", markersize=14, label="cheapest run")
    right.set_xticks(lengths)
    right.set_xlabel("sequence length (tools)")
    right.set_ylabel("tokens for the task")
    right.legend(fontsize=7, loc="upper left")
    right.set_title("Total tokens against sequence length, every task", fontsize=9)
    return fig


EXIT_COLOURS = {"SUCCESS": OK_COLOUR, "PARTIAL_SUCCESS": "#F9A825", "REPLAN_EXHAUSTED": "#6A1B9A",
                "TIMEOUT": ERROR_COLOUR}  # fmt: skip


def draw_exit_states(frame) -> Figure:
    """Stacked bars of exit states (rule CT12), one bar per setup and run (lesson 4).

    Parameters
    ----------
    frame : pandas.DataFrame
        From `sim.exits.exit_state_frame`: columns setup, run, budget and one per exit state
        (tasks, of 24).

    Returns
    -------
    Figure
        One horizontal bar per row, split into the four exit states, counts written inside.
    """
    states = list(EXIT_COLOURS)
    labels = [f"{row.setup}, run {row.run}" for row in frame.itertuples()]
    height = 0.45 * len(labels) + 1.4
    fig = Figure(figsize=(8, height))  # fixed margins, no layout engine: a panel redraws fast
    ax = fig.subplots(
        gridspec_kw={"left": 0.25, "right": 0.97, "top": 1 - 0.4 / height, "bottom": 0.95 / height}
    )
    left = [0] * len(labels)
    for state in states:
        values = list(frame[state])
        bars = ax.barh(labels, values, left=left, color=EXIT_COLOURS[state], label=state)
        ax.bar_label(bars, labels=[str(v) if v else "" for v in values], label_type="center",
                     fontsize=8, color="white")  # fmt: skip
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.invert_yaxis()
    ax.set_xlabel("tasks (of 24)")
    fig.legend(fontsize=7, ncols=len(states), loc="lower center")
    budgets = sorted(set(frame["budget"]))
    ax.set_title(f"Exit states per setup and run, budget {', '.join(map(str, budgets))} "
                 "(the contract's rule CT12 applied to every run)", fontsize=9)  # fmt: skip
    return fig


def draw_cost_against_success(frame) -> Figure:
    """Tasks solved against tokens and against steps, one line per setup and run across budgets (lesson 4).

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns setup (label), run, budget (steps), solved (tasks, of 24), tokens, steps.

    Returns
    -------
    Figure
        Two panels sharing the y axis (tasks solved): x tokens and x steps, summed over the
        24 tasks; each point is a budget, written next to it.
    """
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


# ---- lesson 5, how many seeds

STUDY_COLOURS = ("#4C72B0", "#DD8452")  # first and second setup of a study
RESAMPLE_COLOURS = {"seeds": "#4C72B0", "tasks": "#55A868"}
STUDY_UNITS = tuple((unit.count, unit.label + (" (of 24)" if unit.share else ""))
                    for unit in UNITS if unit.name in ("success", "tokens", "tool errors"))  # fmt: skip


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
            colour = STUDY_COLOURS[j % 2]
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
        colour = STUDY_COLOURS[j % 2]
        ax.plot(table["k"], table[f"{label} pass^k"], "o-", color=colour, label=f"{label}: pass^k")
        ax.plot(table["k"], table[f"{label} p^k"], "--", color=colour, label=f"{label}: p^k")
    ax.set_xlabel("k (runs of the same task that must all succeed)", fontsize=9)
    ax.set_ylabel("chance", fontsize=9)
    ax.legend(fontsize=7)
    ax.set_title("pass^k against p^k: failures gather on some tasks", fontsize=10)
    return fig
