"""How a two-run panel names its runs: A and B whatever their seeds, a caption giving the seeds."""

import html

from sim.engine.labels import run_labels
from sim.measurement.bands import verdict_table
from sim.presentation.tables import format_table, seed_table

RUN_LETTERS = ("A", "B")  # a panel's two runs, whatever their seeds; the caption gives the seeds


def runs_caption(seeds) -> str:
    """The line above a two-run panel's tables: which seed is run A and which run B (HTML)."""
    named = ", ".join(f"run {letter} = seed {seed}" for letter, seed in zip(RUN_LETTERS, seeds, strict=False))
    return f"<p style='margin:2px 0'><b>{html.escape(named)}</b></p>"


def lettered(table, seeds):
    """A copy of a table with a `run` column, its runs called A and B in the order of `seeds`."""
    names = dict(zip(run_labels(seeds), RUN_LETTERS, strict=False))
    table = table.copy()
    table["run"] = table["run"].map(lambda run: names.get(run, run))
    return table


def lettered_table(measurements, seeds) -> str:
    """The seed's table of `measurements` as text, its runs called A and B."""
    return format_table(lettered(seed_table(measurements), seeds))


def verdicts_html(verdicts, seeds, first: str, second: str) -> str:
    """A `verdict_table` as HTML under a line naming its setups, runs A and B, headers kept on one line."""
    table = (
        verdict_table(verdicts, seeds, labels=RUN_LETTERS[: len(seeds)])
        .to_html(index=False)
        .replace("<th>", "<th style='white-space:nowrap'>")
    )
    heading = f"first = {first}, second = {second}; difference = second minus first, per run"
    return f"<p style='margin:2px 0'>{html.escape(heading)}</p>{table}"
