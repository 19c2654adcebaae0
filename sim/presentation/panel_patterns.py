"""The control panel of lesson 8, the patterns: one pattern (a rule of the course's own) on or off at
one seed, the 24 tasks' sums side by side, tokens (or seconds) task by task, and one task's steps."""

import html

import ipywidgets as widgets
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED, RunConfig
from sim.engine.fan_out import fan_out_run
from sim.engine.labels import SETUP_LABELS
from sim.engine.loops import is_correct
from sim.engine.reviews import run_seconds, writes_made
from sim.engine.runs import run_with
from sim.measurement.reflection_flips import reflection_flips
from sim.model.fan_out_tasks import FAN_OUT_TASKS
from sim.model.tasks import TASKS, check_task
from sim.presentation.figures import TITLE_Y, in_course_style, panel_bars
from sim.presentation.panel import ControlPanel, Settings, View, pre_html

PATTERNS = {  # what the panel's pattern control offers: its label -> the option it sets
    "reflection with feedback (RF1)": ("reflection", "feedback"),
    "intrinsic self-critique (RF2)": ("reflection", "intrinsic"),
    "blocking reviewer (RV2)": ("reviewer", "blocking"),
    "parallel reviewer (RV3)": ("reviewer", "parallel"),
    "compacted trace (CP1-CP2)": ("keep_last", None),  # k from the keep-last control
    "parallel steps, fan-out tasks (PX1)": ("parallel_steps", True),
}
LOOP_SETUPS = ("single-loop", "plan-execute")
KEEP_LAST_RANGE = (1, 7)  # calls kept in full: at 7 no single-loop run of budget 8 summarizes a call
FAN_OUT_TASK = "F10"  # the panel's fan-out task: one of width 4, the widest
UNITS = ("solved", "steps", "calls", "tokens", "errors")


def _loop_totals(runs) -> dict:
    return {"solved": sum(map(is_correct, runs)), "steps": sum(r.steps for r in runs),
            "calls": sum(r.calls for r in runs), "tokens": sum(r.tokens for r in runs),
            "errors": sum(r.errors for r in runs)}  # fmt: skip


def _pattern_counts(option: str, runs) -> dict:
    """The pattern's own counts over a seed's runs: flips (RF), reviews and trips (RV)."""
    if option == "reflection":
        flips = [reflection_flips(run) for run in runs]
        return {"wrong to right": sum(f[0] for f in flips), "right to wrong": sum(f[1] for f in flips)}
    if option == "reviewer":
        reviews = [review for run in runs for review in run.reviews]
        return {"reviews": len(reviews), "refused": sum(r.refused for r in reviews),
                "trips": sum(run.tripped for run in runs)}  # fmt: skip
    return {}


def _write_counts(runs) -> dict:
    """Wrong and right writes that reached the world (RV1's truth) and the seconds (RV4) of a seed's runs."""
    made = [wrong for run in runs for wrong in writes_made(run)]
    return {"wrong writes made": sum(made), "right writes made": len(made) - sum(made),
            "seconds": sum(map(run_seconds, runs))}  # fmt: skip


@in_course_style
def draw_task_pairs(labels, off, on, unit: str, names: tuple[str, str], title: str) -> Figure:
    """Two bars a task: `unit` without and with the pattern (lesson 8's panel)."""
    fig = Figure(figsize=(8.5, 3.6))
    ax = fig.add_axes((0.08, 0.2, 0.9, 0.68))
    positions = np.arange(len(labels))
    panel_bars(ax, positions - 0.2, off, 0.4, facecolors="#4C72B0", label=names[0])
    panel_bars(ax, positions + 0.2, on, 0.4, facecolors="#DD8452", label=names[1])
    ax.set_xticks(positions, labels, rotation=90, fontsize=9)
    ax.set_ylabel(unit, fontsize=10)
    ax.set_title(title, fontsize=11, y=TITLE_Y)
    ax.legend(fontsize=9, loc="upper left", ncols=2)
    ax.grid(alpha=0.3, axis="y")
    return fig


def patterns_view(settings: Settings) -> View:
    """Lesson 8's view at one seed: the chosen pattern on against off (a loop setup at the budget on the
    24 tasks; parallel steps on the 12 fan-out tasks at their own bounds, FB1)."""
    option, value = PATTERNS[settings.extra.get("pattern", next(iter(PATTERNS)))]
    if option == "parallel_steps":
        return _fan_out_view(settings)
    setup = settings.extra.get("setup", "single-loop")
    value = int(settings.extra.get("keep_last", 2)) if option == "keep_last" else value
    off, on = RunConfig(setup, settings.budget), RunConfig(setup, settings.budget, **{option: value})
    runs = {name: [run_with(config, task, settings.seed) for task in TASKS]
            for name, config in (("off", off), ("on", on))}  # fmt: skip
    rows = {name: {**_loop_totals(r), **_pattern_counts(option, r)} for name, r in runs.items()}
    if option == "reviewer":  # the truth beside the verdicts, with and without the reviewer
        for name, r in runs.items():
            rows[name].update(_write_counts(r))
    table = pd.DataFrame(rows).rename(columns={"on": f"{option} {value}"})  # a unit a row: narrow
    caption = (f"{SETUP_LABELS[setup]}, seed {settings.seed}, budget {settings.budget}: sums over the "
               f"{len(TASKS)} tasks, one run each (a single trial; lesson 8 gives the intervals)")  # fmt: skip
    figure = draw_task_pairs([t.name for t in TASKS], [r.tokens for r in runs["off"]],
                             [r.tokens for r in runs["on"]], "tokens", ("off", f"{option} {value}"),
                             f"tokens a task, seed {settings.seed}")  # fmt: skip
    task = check_task(settings.task)
    steps = _step_lines(run_with(on, task, settings.seed), option)
    return View(
        table_html=f"<p style='margin:2px 0'><b>{html.escape(caption)}</b></p>" + pre_html(table.to_string()),
        figure=figure,
        text=pre_html(f"{task.name} with {option} {value}, seed {settings.seed}\n" + "\n".join(steps)),
        data={"runs": runs, "table": table},
    )


def _step_lines(run, option: str) -> list[str]:
    """One line a step of a loop run under a pattern: the tool, a tool error, what the pattern did."""
    verdicts = {review.step: ("refused" if review.refused else "passed") for review in run.reviews}
    lines = []
    for step in run.log:
        notes = [f"tokens {step.tokens}"]
        if step.error:
            notes.append("tool error")
        if step.revised_from:
            notes.append(f"replaced {step.revised_from}")
        if step.step in verdicts:
            notes.append(f"reviewer: {verdicts[step.step]}")
        lines.append(f"step {step.step:2}  {step.tool or '(stops)':13} " + ", ".join(notes))
    ending = "tripped: no answer" if getattr(run, "tripped", False) else f"answer {run.answer}"
    return [*lines, ending + (" (right)" if is_correct(run) else " (not right)")]


def _fan_out_view(settings: Settings) -> View:
    runs = {parallel: [fan_out_run(task, settings.seed, parallel_steps=parallel) for task in FAN_OUT_TASKS]
            for parallel in (False, True)}  # fmt: skip
    rows = {("parallel steps" if parallel else "sequential"): {
        "solved": sum(r.correct for r in rs), "steps": sum(r.steps for r in rs), "calls": sum(r.calls for r in rs),
        "tokens": sum(r.tokens for r in rs), "seconds": sum(r.seconds for r in rs)} for parallel, rs in runs.items()}  # fmt: skip
    caption = (f"the {len(FAN_OUT_TASKS)} fan-out tasks at seed {settings.seed}, at their own bounds "
               "(FB1; the budget control sets the loops only): one run each")  # fmt: skip
    figure = draw_task_pairs([t.name for t in FAN_OUT_TASKS], [r.seconds for r in runs[False]],
                             [r.seconds for r in runs[True]], "simulated seconds",
                             ("sequential", "parallel steps"), f"seconds a task, seed {settings.seed}")  # fmt: skip
    run = fan_out_run(FAN_OUT_TASK, settings.seed, parallel_steps=True)
    events = [f"step {e.step:2}  {e.seconds:3} s  {e.kind:12} {e.detail}"[:100] for e in run.events]
    return View(
        table_html=f"<p style='margin:2px 0'><b>{html.escape(caption)}</b></p>"
        + pre_html(pd.DataFrame(rows).to_string()),
        figure=figure,
        text=pre_html(
            f"{FAN_OUT_TASK} (width 4) with parallel steps, seed {settings.seed}\n" + "\n".join(events)
        ),
        data={"runs": runs},
    )


def patterns_panel() -> ControlPanel:
    """Lesson 8's control panel: the pattern, the loop setup, and k for the compacted trace."""
    controls = {
        "pattern": widgets.Dropdown(
            options=list(PATTERNS), value=next(iter(PATTERNS)), description="pattern"
        ),
        "setup": widgets.Dropdown(
            options=[(SETUP_LABELS[s], s) for s in LOOP_SETUPS], value="single-loop", description="loop"
        ),  # fmt: skip
        "keep_last": widgets.IntSlider(
            value=2,
            min=KEEP_LAST_RANGE[0],
            max=KEEP_LAST_RANGE[1],
            description="keep last",
            continuous_update=False,
        ),  # fmt: skip
    }
    return ControlPanel(patterns_view, Settings(DEFAULT_SEED, DEFAULT_BUDGET, "G05"), two_runs=False,
                        extra_controls=controls)  # fmt: skip
