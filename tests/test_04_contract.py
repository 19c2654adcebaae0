"""Lesson 4's control panel in plain pytest: set a control, compare what the panel shows with sim."""

import html

import pytest

from sim.engine.contract import run_contract
from sim.measurement.counts import measure
from sim.measurement.exit_tables import exit_state_frame
from sim.presentation.panel import Settings
from sim.presentation.panel_contract import CONTRACT_SETUPS, contract_panel
from sim.presentation.panel_runs import lettered
from sim.presentation.tables import format_table, seed_table


def _expected(seed, budget, max_replans, max_tokens):
    seeds = (seed, seed + 1)
    options = {"max_replans": max_replans, "max_tokens": max_tokens}
    measured = [
        measure(s, x, budget, **(options if s == "contract" else {})) for s in CONTRACT_SETUPS for x in seeds
    ]
    table = format_table(lettered(seed_table(measured), seeds))  # the panel calls its runs A and B
    return table, lettered(exit_state_frame(CONTRACT_SETUPS, seeds, budget, **options), seeds).to_string(
        index=False
    )


@pytest.fixture(scope="module")
def panel():
    return contract_panel()


def _shown(panel):
    return html.unescape(panel.table.value)


def test_the_panel_starts_at_the_lessons_defaults(panel):
    panel.reset.click()
    assert panel.settings == Settings(20260218, 8, "G05", {"max_replans": 2, "max_tokens": 1000})
    table, exits = _expected(20260218, 8, 2, 1000)
    assert table in _shown(panel) and exits in _shown(panel)
    assert "exit state SUCCESS  stop reason plan complete  replans 1" in html.unescape(panel.text.value)
    assert b"<svg" in bytes(panel.figure.value)[:400]


def test_max_replans_and_max_tokens_reach_the_table_and_the_walk_through(panel):
    panel.set(seed=77, budget=6, task="G15", max_replans=0, max_tokens=400)
    assert panel.settings == Settings(77, 6, "G15", {"max_replans": 0, "max_tokens": 400})
    table, exits = _expected(77, 6, 0, 400)
    assert table in _shown(panel) and exits in _shown(panel)
    run = run_contract("G15", 77, 6, max_replans=0, max_tokens=400)
    assert f"exit state {run.exit_state}  stop reason {run.stop_reason}" in html.unescape(panel.text.value)
    panel.extra["max_replans"].value = 3
    assert _expected(77, 6, 3, 400)[1] in _shown(panel)
    assert panel.message.value == ""


def test_a_refused_value_leaves_a_message_and_the_table(panel):
    panel.reset.click()
    shown = panel.table.value
    panel.seed.value = "twelve"
    assert "Refused: seed must be a whole number" in panel.message.value and panel.table.value == shown
    panel.set(max_retries=1)
    assert "unknown control 'max_retries'" in html.unescape(panel.message.value)
    panel.seed.value = "5"
    assert panel.message.value == "" and panel.settings.seed == 5


def test_the_frameworks_read_are_data_each_cell_linked_to_the_lines_read_at_its_version():
    """Lesson 4's framework table (sim/presentation/frameworks_read.csv): every cell has its text and a
    link to the source lines read, on GitHub at the version the row names; the flags are yes or no."""
    from importlib.resources import files

    import pandas as pd

    read = pd.read_csv(files("sim.presentation") / "frameworks_read.csv", keep_default_na=False)
    columns = ("bounds", "SUCCESS", "PARTIAL_SUCCESS", "REPLAN_EXHAUSTED", "TIMEOUT", "lacks")
    flags = ("token_bound", "run_time_bound", "replan_limit", "partial_result", "named_exit_states")
    assert list(read.columns) == ["framework", "version", *[f"{c}{s}" for c in columns for s in ("", "_source")],
                                  *flags]  # fmt: skip
    assert len(read) == 5 and read["framework"].is_unique
    for row in read.itertuples():
        tag = row.version.split()[-1]
        for column in columns:
            text, link = getattr(row, column), getattr(row, f"{column}_source")
            assert text.strip(), (row.framework, column)
            assert link.startswith("https://github.com/") and "/blob/" in link and "#L" in link, link
            assert tag in link.split("/blob/")[1].split("/")[0], (row.framework, column, link)
        assert {getattr(row, flag) for flag in flags} <= {"yes", "no"}
