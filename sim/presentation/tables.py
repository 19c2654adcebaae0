"""Tables for printing: the seed's table, plan accuracy, a run's walk-through, steps, events, folding."""

import html
import textwrap
from collections.abc import Sequence

import pandas as pd

from sim.engine.labels import SETUP_LABELS, run_label, run_labels
from sim.engine.loops import LoopStep, check_run
from sim.engine.units import UNITS
from sim.measurement.counts import Measurement, PlanAccuracy
from sim.model.checks import check_instance, check_integer, check_items
from sim.model.errors import InputError
from sim.model.tasks import check_task, correct_answer


class FoldedTable:
    """A long printed table: a closed <details> block in JupyterLab, its plain text elsewhere (nbval, `print`)."""

    def __init__(self, text: str, summary: str):
        self.text, self.summary = text, summary

    def __repr__(self) -> str:  # str() too
        return self.text

    def _repr_html_(self) -> str:
        return (f"<details><summary>{html.escape(self.summary)}</summary>"
                f"<pre>{html.escape(self.text)}</pre></details>")  # fmt: skip


def folded_table(text: str, summary: str = "The whole table (click to open)") -> FoldedTable:
    """`text` (printed tables) folded under the line `summary`. Raises InputTypeError, InputError (empty)."""
    for value, name in ((text, "text"), (summary, "summary")):
        check_instance(value, str, name, "a string")
        if not value.strip():
            raise InputError(f"{name} must be a non-empty string, got {value!r}")
    return FoldedTable(text, summary)


def seed_table(measurements: Sequence[Measurement]) -> pd.DataFrame:
    """The seed's table, with `budget` when budgets differ and `rule` when a rule or LA1 was used."""
    measurements = check_items(
        measurements, Measurement, "measurements", "Measurements (from sim.measurement.counts.measure)", 1
    )
    table = pd.DataFrame(
        {
            "setup": [SETUP_LABELS[m.setup] for m in measurements],
            "run": run_labels([m.seed for m in measurements]),
            "budget": [m.budget for m in measurements],
            "rule": [m.rule for m in measurements],
            **{unit.seed_header: [m.reported(unit) for m in measurements] for unit in UNITS},
        }
    )
    if table["budget"].nunique() <= 1:
        table = table.drop(columns="budget")
    if not any(m.config.stop_when_done or m.config.budget_margin is not None or m.config.lookalike
               for m in measurements):  # fmt: skip
        table = table.drop(columns="rule")
    return table


# column widths of the seed's table (characters, one space between columns)
COLUMN_WIDTHS = {
    "setup": 22,
    "run": 5,
    "budget": 6,
    "success": 8,
    "step": 6,
    "calls": 6,
    "tokens": 9,
    "error": 5,
}


def format_table(table: pd.DataFrame) -> str:
    """A seed_table as text, its rows character for character the seed's. Raises InputTypeError, InputError."""
    check_instance(table, pd.DataFrame, "table", "a DataFrame from seed_table")
    missing = [name for name in ("setup", "run", *(unit.seed_header for unit in UNITS)) if name not in table]
    if missing:
        raise InputError(f"table must be a table from seed_table, it lacks the columns {', '.join(missing)}")
    widths = {column: COLUMN_WIDTHS["success"] if column == "success" else
              max(COLUMN_WIDTHS.get(column, 8), table[column].astype(str).str.len().max())
              for column in table.columns}  # fmt: skip
    header = " ".join(
        name.ljust(width) if name == "setup" else name.rjust(width) for name, width in widths.items()
    )
    formatters = {"setup": lambda s: f"{s:<22}", "success": lambda x: f"{x:.4f}"}
    return header + "\n" + table.to_string(index=False, header=False, col_space=widths, formatters=formatters)


def format_plan_accuracy(accuracy: PlanAccuracy, seeds=None, label: str | None = None) -> str:
    """The seed's line "right positions r/p = share ; fully right plans f/n". Raises InputTypeError."""
    check_instance(
        accuracy, PlanAccuracy, "accuracy", "a PlanAccuracy (from sim.measurement.counts.plan_accuracy)"
    )
    if label is not None:
        check_instance(label, str, "label", "a string (from sim.engine.labels.run_labels)")
    return (
        f"plan {run_label(accuracy.seed, seeds) if label is None else label} : right positions {accuracy.right_positions}/"
        f"{accuracy.positions} = {accuracy.position_share:.4f} ; fully right plans "
        f"{accuracy.right_plans}/{accuracy.plans}"
    )


def format_trace(run) -> str:
    """One run's walk-through in the seed's form. Raises InputTypeError for anything but a run record."""
    task = check_task(check_run(run).task)
    lines = [f"{task.name} ({task.kind}) correct sequence : {' -> '.join(task.sequence)}"]
    if run.plan is not None:
        lines.append(f"  plan     : {' -> '.join(run.plan)}")
    marks = [(" [error]" if c.error else "") + "".join(f" [wrong {n}]" for n in c.wrong) for c in run.trace]
    executed = " -> ".join(call.tool + mark for call, mark in zip(run.trace, marks, strict=True))
    lines.append(f"  executed : {executed or '(no tool call)'}")
    lines.append(
        f"  steps {run.steps}  tokens {run.tokens}  tool errors {run.errors}"
        f"  answer {run.answer}  correct {correct_answer(task)}"
    )
    return "\n".join(lines)


def loop_step_table(steps) -> pd.DataFrame:
    """A row a step of a single-loop run (`loop_steps`), tokens and their running total (lesson 1)."""
    steps = check_items(steps, LoopStep, "steps", "LoopSteps (from sim.loop_steps)")
    rows, running = [], 0
    for step in steps:
        running += step.tokens
        rows.append({
            "step": step.step,
            "depth": "" if step.depth is None else step.depth,
            "target": step.target or "(job done)",
            "tool": step.tool or "(stops)",
            "pick": "" if step.right is None else ("right" if step.right else "wrong"),
            "tool error": "yes" if step.error else "",
            "trace length": step.trace_length,
            "tokens": step.tokens,
            "total": running,
            "answer held": "" if step.held is None else step.held,
        })  # fmt: skip
    return pd.DataFrame(rows)


def split_step_table(run) -> pd.DataFrame:
    """A row a step of a plan-execute run, with its phase; raises InputError for a run without a plan."""
    check_plan_run(run)
    rows = [
        {"step": 1, "phase": "planning", "tool": "(writes the plan)", "tool error": "", "answer held": ""}
    ]
    for index, call in enumerate(run.trace):
        phase = f"plan position {index + 1}" if index < len(run.plan) else "single-loop rule"
        rows.append({"step": index + 2, "phase": phase, "tool": call.tool, "tool error": "yes" if call.error else "",
                     "answer held": "" if call.held is None else call.held})  # fmt: skip
    if run.steps > 1 + len(run.trace):  # a step spent deciding to stop (not under stop_when_done)
        rows.append(
            {"step": run.steps, "phase": "stop", "tool": "(job done)", "tool error": "", "answer held": ""}
        )
    return pd.DataFrame(rows)


def check_plan_run(run) -> None:
    """InputTypeError for anything but a run record, InputError for a run without a plan."""
    if check_run(run).plan is None:
        raise InputError(f"run must be a plan-execute run with a plan, got setup {run.setup!r}")


EVENT_INDENT = 19  # a wrapped event goes on 19 characters in, just past the start of the event column


def format_events(run, width: int | None = None) -> str:
    """A contract run's events, a line each, wrapped at `width` (>= 40). Raises InputTypeError, InputError."""
    check_run(run, setups=("contract",))
    width = None if width is None else check_integer(width, "width", 40)
    lines = [f"{'step':>4} {'tokens':>6} {'sec':>4}  event"]
    for e in run.events:
        line = f"{e.step:>4} {e.tokens:>6} {e.seconds:>4}  {e.kind}: {e.detail}"
        if width is not None:
            line = textwrap.fill(
                line, width=width, subsequent_indent=" " * EVENT_INDENT, break_long_words=False
            )
        lines.append(line)
    return "\n".join(lines)
