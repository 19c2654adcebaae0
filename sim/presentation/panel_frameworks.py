"""The control panel of lesson 7, real frameworks: one framework agent beside the course's own loop,
replayed from the recorded runs (transcripts/07_frameworks.csv): per task at a recorded held-out seed,
and the same-seed differences with their 95 % t intervals over every recorded seed. No model is called.
"""

from collections.abc import Mapping
from functools import lru_cache, partial
from pathlib import Path

import ipywidgets as widgets
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from sim.chat.framework_runs import BASELINE, LESSON_AGENTS, RECORDED, recorded_rows, rows_runs
from sim.measurement.batch import BatchRun
from sim.measurement.harness import held_out_seeds
from sim.measurement.many_seeds import comparison_text, paired_comparison
from sim.model.errors import InputError, InputTypeError
from sim.model.tasks import TASK_NAMES
from sim.presentation.figures import in_course_style, panel_bars
from sim.presentation.figures_your_agent import ENTRANT_COLOURS
from sim.presentation.panel import ControlPanel, Settings, View, pre_html, seed_of_text

DEFAULT_AGENT = LESSON_AGENTS[1].name  # "LangGraph, limit 16"
CONTROLS = ("seed", "new_seed", "reset")  # no budget: each agent's bound is its own, recorded
COMPARED = ("solved", "requests", "tool calls", "tool errors", "ended")  # a task "differs" in one of these
BOUNDS_LINE = ("No budget control: each agent ran at its own bound (the loop's steps, LangGraph's recursion "
               "limit,\nthe Agents SDK's max_turns, smolagents' max_steps), as its name says and as recorded.")  # fmt: skip


def recorded(path: Path = RECORDED) -> tuple[pd.DataFrame, dict[str, BatchRun]]:
    """The recorded rows and agent -> BatchRun, read once a version of the file (recorded again: read
    again). Raises InputError when there is no recording."""
    path = Path(path)
    return _read(path, path.stat().st_mtime_ns if path.exists() else None)


@lru_cache(maxsize=2)
def _read(path: Path, _version: int | None) -> tuple[pd.DataFrame, dict[str, BatchRun]]:
    rows = recorded_rows(path)
    return rows, rows_runs(rows)


def recorded_seeds(runs: Mapping[str, BatchRun]) -> np.ndarray:
    """The recorded seeds: the baseline's (paired_comparison refuses an agent recorded at others)."""
    return runs[BASELINE].seeds


def seeds_allowed(seeds: np.ndarray) -> str:
    """What the seed control allows, as a refusal says it."""
    first, last = int(seeds[0]), int(seeds[-1])
    contiguous = np.array_equal(seeds, np.arange(first, last + 1))
    where = f"{first}..{last}" if contiguous else ", ".join(map(str, seeds.tolist()))
    return f"seed must be one of the {len(seeds)} recorded held-out seeds {where}"


def check_recorded(seed: int, agent: object, runs: Mapping[str, BatchRun]) -> str:
    """`agent` when it is a recorded agent other than the baseline and `seed` a recorded seed; else
    InputError naming what is recorded."""
    offered = [name for name in runs if name != BASELINE]
    if agent not in offered:
        raise InputError(f"agent must be one of {', '.join(map(repr, offered))}, got {agent!r}")
    seeds = recorded_seeds(runs)
    if seed not in seeds.tolist():
        raise InputError(f"{seeds_allowed(seeds)}, got {seed}")
    return agent


def _ended(rows: pd.DataFrame, agent: str, seed: int) -> list[str]:
    """How each task's run ended (TASKS order), as recorded."""
    at = rows[(rows["agent"] == agent) & (rows["seed"] == seed)].set_index("task")
    return [str(at.at[name, "ended"]) for name in TASK_NAMES]


def seed_table(runs: Mapping[str, BatchRun], rows: pd.DataFrame, agent: str, seed: int) -> pd.DataFrame:
    """Per task at `seed`, the course loop and `agent`: solved, requests, tool calls, tool errors,
    tokens (the endpoint's estimate), how it ended; one row a task, a column per (unit, who)."""
    position = int(np.flatnonzero(recorded_seeds(runs) == seed)[0])
    columns = {}
    for who, name in (("loop", BASELINE), ("agent", agent)):
        run = runs[name]
        columns |= {("solved", who): run.correct[:, position], ("requests", who): run.steps[:, position],
                    ("tool calls", who): run.calls[:, position], ("tool errors", who): run.errors[:, position],
                    ("tokens", who): run.tokens[:, position], ("ended", who): _ended(rows, name, seed)}  # fmt: skip
    return pd.DataFrame(columns, index=pd.Index(TASK_NAMES, name="task"))


def _ended_counts(ended: pd.Series) -> str:
    counts = ended.value_counts(sort=False)
    return ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _at_seed_lines(table: pd.DataFrame, agent: str, seed: int) -> list[str]:
    """The summary at the seed (sums over the 24 tasks) and the tasks where the two runs differ."""
    summary = pd.DataFrame([
        {"solved": int(table["solved", who].sum()), "requests": int(table["requests", who].sum()),
         "tool calls": int(table["tool calls", who].sum()), "tool errors": int(table["tool errors", who].sum()),
         "tokens": int(table["tokens", who].sum())}
        for who in ("loop", "agent")
    ], index=[BASELINE, agent])  # fmt: skip
    differ = np.zeros(len(table), dtype=bool)
    for unit in COMPARED:
        differ |= (table[unit, "loop"] != table[unit, "agent"]).to_numpy()
    lines = [f"At seed {seed}, all {len(table)} tasks: {agent} beside the {BASELINE}", ""]
    lines += summary.to_string().splitlines()  # the index, left-aligned: who
    width = max(len(BASELINE), len(agent))
    lines += [f"{name:{width}}  ended: {_ended_counts(table['ended', who])}"
              for who, name in (("loop", BASELINE), ("agent", agent))]  # fmt: skip
    lines += ["", f"Tasks that differ in {', '.join(COMPARED)}: {int(differ.sum())} of {len(table)}"]
    if differ.any():
        shown = table[differ]

        def pair(unit: str, form=str) -> list[str]:
            return [
                f"{form(a)} / {form(b)}"
                for a, b in zip(shown[unit, "loop"], shown[unit, "agent"], strict=True)
            ]

        yes_no = {True: "yes", False: "no"}.get
        cells = pd.DataFrame({"task": shown.index, "solved": pair("solved", lambda v: yes_no(bool(v))),
                              **{unit: pair(unit) for unit in ("requests", "tool calls", "tool errors", "tokens")},
                              "ended": pair("ended")})  # fmt: skip
        lines += ["(each cell: loop / agent)", *cells.to_string(index=False).splitlines()]
    tokens_differ = int((table["tokens", "loop"] != table["tokens", "agent"]).sum())
    lines += [
        f"Tokens (the endpoint's estimate of what was sent) differ on {tokens_differ} of {len(table)} tasks."
    ]
    return lines


def interval_lines(runs: Mapping[str, BatchRun], agent: str) -> tuple[list[str], pd.DataFrame]:
    """The same-seed differences, agent minus the course loop, over every recorded seed with their 95 %
    t intervals (paired_comparison, comparison_text); steps are model requests here."""
    table = comparison_text(paired_comparison(runs[BASELINE], runs[agent]))
    shown = table.assign(unit=table["unit"].replace({"steps": "requests"}))
    n_seeds = len(recorded_seeds(runs))
    lines = [f"{agent} minus the course loop, same seed, {n_seeds} recorded held-out seeds", ""]
    lines += shown.to_string(index=False).splitlines()
    lines += ["per run of 24 tasks (success: share of tasks); 95 % t intervals over seeds (* cut at a bound)"]
    return lines, table


@in_course_style
def draw_frameworks_tokens(table: pd.DataFrame, agent: str, title: str = "") -> Figure:
    """Lesson 7's panel figure: tokens per task at one seed, the course loop's bar beside the agent's,
    a bar hatched where the task was not solved; `table`: a `seed_table`."""
    fig = Figure(figsize=(8.5, 4.2))  # fixed margins, no layout engine: a redraw stays cheap
    ax = fig.add_axes((0.09, 0.16, 0.89, 0.66))
    x, handles = np.arange(len(table)), []
    for shift, who, label, colour in ((-0.2, "loop", BASELINE, ENTRANT_COLOURS[0]),
                                      (0.2, "agent", agent, ENTRANT_COLOURS[1])):  # fmt: skip
        solved, tokens = table["solved", who].to_numpy(dtype=bool), table["tokens", who].to_numpy()
        panel_bars(ax, x[solved] + shift, tokens[solved], 0.4, facecolors=colour)
        panel_bars(
            ax, x[~solved] + shift, tokens[~solved], 0.4, facecolors="white", edgecolors=colour, hatch="///"
        )
        handles.append(Patch(color=colour, label=label))
    ax.set_xticks(x, table.index, rotation=90, fontsize=9)
    ax.tick_params(axis="y", labelsize=10)
    ax.set_xlim(-0.7, len(table) - 0.3)
    ax.set_ylabel("tokens (estimate)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(
        handles=handles,
        fontsize=10,
        loc="lower left",
        bbox_to_anchor=(0, 1.01),
        ncols=2,
        borderaxespad=0,
        frameon=False,
    )
    fig.text(0.09, 0.955, title or "Tokens per task; hatched: not solved", fontsize=12)
    return fig


def frameworks_view(settings: Settings, runs: Mapping[str, BatchRun] | None = None,
                    rows: pd.DataFrame | None = None, intervals=None) -> View:  # fmt: skip
    """Lesson 7's view, replayed: at the seed, per task, the agent (extra "agent") beside the course
    loop (summary and the tasks where they differ), tokens per task as the figure; over every recorded
    seed, the same-seed differences with 95 % t intervals. `runs`, `rows`: agent -> BatchRun and the
    recorded rows (default: transcripts/07_frameworks.csv); `intervals(agent)`: as `interval_lines`
    on `runs` (a panel passes a cached one: they do not depend on the seed).

    Raises InputError for an agent not recorded (or the baseline) or a seed not recorded, and
    InputTypeError for `runs` without `rows`."""
    if rows is None:
        if runs is not None:
            raise InputTypeError("rows must be given with runs: how each run ended is in the rows")
        rows, runs = recorded(RECORDED)
    elif runs is None:
        runs = rows_runs(rows)
    agent = check_recorded(settings.seed, settings.extra.get("agent", DEFAULT_AGENT), runs)
    table = seed_table(runs, rows, agent, settings.seed)
    intervals, comparison = (intervals or partial(interval_lines, runs))(agent)
    figure = draw_frameworks_tokens(
        table, agent, f"Tokens per task at seed {settings.seed}; hatched: not solved"
    )
    return View(
        table_html=pre_html("\n".join(_at_seed_lines(table, agent, settings.seed))),
        figure=figure,
        text=pre_html("\n".join([*intervals, "", *BOUNDS_LINE.splitlines()])),
        data={"table": table, "comparison": comparison},
    )


class RecordedSeedPanel(ControlPanel):
    """A ControlPanel whose seed is one of `seeds` (recorded runs): another is refused naming them,
    "new seed" draws one of them, and the status line names no budget (the panel has none)."""

    def __init__(self, *args, seeds: np.ndarray, **kwargs):
        self.recorded = [int(seed) for seed in seeds]
        super().__init__(*args, **kwargs)

    def _read_seed(self, text: object, extra: dict | None = None) -> int:
        allowed = seeds_allowed(np.asarray(self.recorded))
        if isinstance(text, str):
            seed = seed_of_text(text, allowed)
        else:
            seed = super()._read_seed(text, extra)  # an integer (set(seed=...)): the panel's own checks
        if seed not in self.recorded:
            raise InputError(f"{allowed}, got {seed}")
        return seed

    def _on_new_seed(self, _button=None) -> None:
        others = [seed for seed in self.recorded if str(seed) != self.seed.value.strip()] or self.recorded
        self.seed.value = str(self._random.choice(others))

    def _describe(self, settings: Settings) -> str:
        parts = [f"seed {settings.seed}"]
        parts += [
            f"{self._label(name)} {self._value_label(name, value)}" for name, value in settings.extra.items()
        ]
        return ", ".join(parts)


def frameworks_panel(path: Path = RECORDED) -> RecordedSeedPanel:
    """Lesson 7's control panel: a recorded held-out seed (default the first, held_out_seeds(1)[0]), the
    agent (default DEFAULT_AGENT) and reset; replayed from `path`. Raises InputError (no recording)."""
    rows, runs = recorded(path)
    agents = [name for name in runs if name != BASELINE]
    choice = widgets.Dropdown(options=agents, value=DEFAULT_AGENT if DEFAULT_AGENT in agents else agents[0],
                              description="agent")  # fmt: skip
    first = int(held_out_seeds(1)[0])
    intervals = lru_cache(maxsize=None)(partial(interval_lines, runs))  # an agent's, whatever the seed
    return RecordedSeedPanel(
        lambda settings: frameworks_view(settings, runs, rows, intervals),
        Settings(seed=first),
        controls=CONTROLS,
        two_runs=False,
        extra_controls={"agent": choice},
        seeds=recorded_seeds(runs),
    )
