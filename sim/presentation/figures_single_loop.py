"""Figures of lesson 1, the single loop: the tariff, the pick rule by depth, right picks by depth, the growing trace."""

from collections import Counter

from matplotlib.figure import Figure

from sim.model.costs import cheapest_loop_tokens, loop_step_tokens, observation_tokens
from sim.model.picks import SELECTION_FLOOR, expected_right_share, selection
from sim.model.tasks import TASK_NAMES, TASKS
from sim.model.world import ABOVE_LAST_BAND, CUSTOMER_TYPES, TARIFF_BANDS, charge
from sim.presentation.figures import RUN_COLOURS, TITLE_Y, in_course_style


@in_course_style
def draw_tariff(max_m3: int = 70) -> Figure:
    """The tiered tariff: charge against consumption (m3, 0..max_m3) for both customer types (lesson 1)."""
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


@in_course_style
def draw_selection_rule(max_depth: int = 8) -> Figure:
    """selection(d) and the expected share of right picks, lucky random picks counted, for d 1..max_depth (lesson 1)."""
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


@in_course_style
def draw_depth_shares(tables: dict) -> Figure:
    """Share of right picks by depth, a run (label -> `depth_picks` table) a colour, beside the model."""
    fig = Figure(figsize=(9, 4.2))  # fixed margins: no layout engine, so a panel redraws fast
    ax = fig.subplots(gridspec_kw={"left": 0.09, "right": 0.98, "bottom": 0.13, "top": 0.91})
    first = next(iter(tables.values()))
    ax.plot(first["depth"], first["model"], color="black", label="selection(d), lucky picks not counted")
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
                ax.annotate(f"{right}/{picks}", (x, share), textcoords="offset points", xytext=(6 * side, -4),
                            ha="right" if side < 0 else "left", fontsize=10, color=colour)  # fmt: skip
    ax.set_xticks(list(first["depth"]))
    ax.set_xlim(0.5, len(first) + 0.5)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("depth d (position of the sequence)")
    ax.set_ylabel("share of right picks")
    ax.legend(fontsize=10, loc="lower left")
    ax.set_title(
        "Right picks by depth, counted from the traces (labels: right/picks)", fontsize=12, y=TITLE_Y
    )
    return fig


@in_course_style
def draw_growing_trace(steps, runs) -> Figure:
    """Tokens per step of one run (`loop_steps`), and each task's tokens against its sequence length."""
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
                      ha="left", fontsize=8, rotation=45, rotation_mode="anchor")  # fmt: skip
    left.set_xticks(index)
    left.set_xlabel("step")
    left.set_ylabel("tokens this step")
    left.margins(y=0.45)
    left.legend(fontsize=7, loc="upper left")
    left.set_title(f"One long run: {sum(s.tokens for s in steps)} tokens in {len(steps)} steps", fontsize=9)
    lengths = sorted({len(task.sequence) for task in TASKS})
    for j, (label, task_runs) in enumerate(runs.items()):
        points = Counter((len(TASKS[TASK_NAMES.index(r.task)].sequence), r.tokens) for r in task_runs)
        xs = [length + (j - 0.5) * 0.2 for length, _ in points]
        right.scatter(xs, [tokens for _, tokens in points], s=[18 * n for n in points.values()], alpha=0.7,
                      color=RUN_COLOURS[j % 2], label=f"run {label}")  # fmt: skip
    for n in (1, 3):  # the key to the dot areas
        right.scatter([], [], s=18 * n, color="grey", alpha=0.7, label=f"{n} task{'s' if n > 1 else ''}")
    cheapest = [cheapest_loop_tokens(n) for n in lengths]
    right.plot(lengths, cheapest, color="black", marker="o", markersize=3, label="cheapest run")
    right.set_xticks(lengths)
    right.set_xlabel("sequence length (tools)")
    right.set_ylabel("tokens for the task")
    right.legend(fontsize=7, loc="upper left")
    right.set_title("Total tokens against sequence length, every task", fontsize=9)
    return fig
