"""Lesson 7's panel (sim.presentation.panel_frameworks): a framework agent beside the course loop,
replayed from the recorded runs (transcripts/07_frameworks.csv); its numbers against the CSV read
here with the csv module, its refusals, its controls, and no network while it redraws."""

import csv
import html
import json
import re
import socket

import numpy as np
import pytest
from figure_text import text_problems
from scipy import stats

from sim.chat.framework_runs import RECORDED
from sim.measurement.harness import held_out_seeds
from sim.model.errors import InputError
from sim.model.tasks import BY_NAME, TASK_NAMES, correct_answer
from sim.presentation.panel import Settings
from sim.presentation.panel_frameworks import (
    BASELINE,
    DEFAULT_AGENT,
    frameworks_panel,
    frameworks_view,
    recorded_rows,
    rows_runs,
)

WIDTH = 100  # characters a printed line, at most


def _csv_rows() -> list[dict]:
    """The recorded rows as the csv module reads them: every value text."""
    with RECORDED.open(newline="") as file:
        return list(csv.DictReader(file))


ROWS = _csv_rows()
AGENTS = list(dict.fromkeys(row["agent"] for row in ROWS))
SEEDS = sorted({int(row["seed"]) for row in ROWS})
OTHER = (SEEDS[-1], AGENTS[-1])  # another recorded seed and agent than the defaults


def _plain(text_html: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text_html))


def _indexed() -> dict[tuple[str, int], dict[str, dict]]:
    """(agent, seed) -> task -> (solved, requests, calls, errors, tokens, ended), from the CSV."""
    found = {}
    for row in ROWS:
        found.setdefault((row["agent"], int(row["seed"])), {})[row["task"]] = {
            "solved": json.loads(row["answer"]) == correct_answer(BY_NAME[row["task"]]),
            "requests": int(row["requests"]), "tool calls": int(row["calls"]),
            "tool errors": int(row["errors"]), "tokens": int(row["tokens"]), "ended": row["ended"],
        }  # fmt: skip
    return found


INDEXED = _indexed()


def _at(agent: str, seed: int) -> dict[str, dict]:
    """task -> (solved, requests, calls, errors, tokens, ended) of one agent at one seed, from the CSV."""
    found = INDEXED[agent, seed]
    assert sorted(found) == sorted(TASK_NAMES)
    return found


def _lines(view) -> list[str]:
    return _plain(view.table_html).splitlines() + _plain(view.text).splitlines()


def test_the_recording_is_there_with_the_baseline_first_and_the_default_agent():
    assert RECORDED.exists(), "record it: .venv/bin/python scripts/record_framework_runs.py"
    assert AGENTS[0] == BASELINE == "course loop, 8 steps"
    assert DEFAULT_AGENT == "LangGraph, limit 16" and DEFAULT_AGENT in AGENTS
    assert SEEDS[0] == int(held_out_seeds(1)[0]) and len(SEEDS) >= 2
    assert SEEDS == held_out_seeds(len(SEEDS)).tolist()  # the first held-out seeds, every one


@pytest.mark.parametrize("seed, agent", [(SEEDS[0], DEFAULT_AGENT), OTHER])
def test_the_view_at_a_recorded_seed_and_agent_shows_the_recorded_numbers(seed, agent):
    view = frameworks_view(Settings(seed=seed, extra={"agent": agent}))
    loop, other = _at(BASELINE, seed), _at(agent, seed)
    table = view.data["table"]
    for unit in ("solved", "requests", "tool calls", "tool errors", "tokens", "ended"):
        assert table[unit, "loop"].tolist() == [loop[t][unit] for t in TASK_NAMES], unit
        assert table[unit, "agent"].tolist() == [other[t][unit] for t in TASK_NAMES], unit
    shown = _plain(view.table_html).splitlines()
    assert shown[0] == f"At seed {seed}, all 24 tasks: {agent} beside the {BASELINE}"
    for name, runs in ((BASELINE, loop), (agent, other)):  # the summary: sums over the 24 tasks
        sums = [sum(int(r[u]) for r in runs.values()) for u in ("solved", "requests", "tool calls",
                                                                   "tool errors", "tokens")]  # fmt: skip
        [line] = [line for line in shown[2:5] if line.startswith(name + " ") and "ended" not in line]
        assert line.split()[-5:] == [str(s) for s in sums], line
    differ = [t for t in TASK_NAMES if any(loop[t][u] != other[t][u] for u in
                                           ("solved", "requests", "tool calls", "tool errors", "ended"))]  # fmt: skip
    listed = [line.split()[0] for line in shown if re.match(r"^ ?G\d\d ", line)]
    assert listed == differ
    assert (
        f"Tasks that differ in solved, requests, tool calls, tool errors, ended: {len(differ)} of 24" in shown
    )
    tokens_differ = sum(loop[t]["tokens"] != other[t]["tokens"] for t in TASK_NAMES)
    assert (
        shown[-1]
        == f"Tokens (the endpoint's estimate of what was sent) differ on {tokens_differ} of 24 tasks."
    )
    assert "No budget control" in _plain(view.text)
    assert text_problems(view.figure) == []
    assert max(len(line) for line in _lines(view)) <= WIDTH


@pytest.mark.parametrize("agent", AGENTS[1:])
def test_the_intervals_are_the_same_seed_differences_over_every_recorded_seed(agent):
    view = frameworks_view(Settings(seed=SEEDS[0], extra={"agent": agent}))
    comparison = view.data["comparison"].set_index("unit")
    columns = {"success": "solved", "steps": "requests", "tool calls": "tool calls", "tokens": "tokens",
               "tool errors": "tool errors"}  # fmt: skip
    for unit, column in columns.items():
        per_seed = np.array([
            sum(_at(agent, s)[t][column] for t in TASK_NAMES) - sum(_at(BASELINE, s)[t][column] for t in TASK_NAMES)
            for s in SEEDS
        ], dtype=float) / (24 if unit == "success" else 1)  # fmt: skip
        low, high = (per_seed.mean(),) * 2
        if np.ptp(per_seed):
            low, high = stats.t.interval(0.95, len(per_seed) - 1, per_seed.mean(), stats.sem(per_seed))
        if unit == "success":
            low, high = max(low, -1.0), min(high, 1.0)
        decimals = 4 if unit == "success" else 2
        row = comparison.loc[unit]
        assert row["mean difference"] == f"{per_seed.mean():+.{decimals}f}", unit
        assert row["95 % interval"].rstrip("*") == f"[{low:+.{decimals}f}, {high:+.{decimals}f}]", unit
    text = _plain(view.text)
    assert f"{agent} minus the course loop, same seed, {len(SEEDS)} recorded held-out seeds" in text
    assert re.search(r"^\s*requests\s", text, re.M) and not re.search(r"^\s*steps\s", text, re.M)


def test_every_printed_line_fits_for_every_agent_at_the_first_and_last_seeds():
    for seed in (SEEDS[0], SEEDS[-1]):
        for agent in AGENTS[1:]:
            lines = _lines(frameworks_view(Settings(seed=seed, extra={"agent": agent})))
            assert max(len(line) for line in lines) <= WIDTH, (seed, agent)


def test_the_panels_runs_are_the_csvs_read_with_nulls_kept():
    """recorded_rows keeps the JSON null of a run with no answer (pandas would read it as NaN)."""
    rows = recorded_rows()
    assert rows["answer"].tolist() == [row["answer"] for row in ROWS]
    runs = rows_runs(rows)
    assert list(runs) == AGENTS
    for agent in AGENTS:
        solved = [[_at(agent, s)[t]["solved"] for s in SEEDS] for t in TASK_NAMES]
        assert runs[agent].correct.tolist() == solved
        assert runs[agent].seeds.tolist() == SEEDS


@pytest.mark.parametrize("seed", [SEEDS[0] - 1, SEEDS[-1] + 1, 777, 20260218])
def test_the_view_refuses_a_seed_not_recorded_naming_the_recorded_range(seed):
    with pytest.raises(InputError, match=rf"recorded held-out seeds {SEEDS[0]}\.\.{SEEDS[-1]}, got {seed}$"):
        frameworks_view(Settings(seed=seed))


@pytest.mark.parametrize("agent", [BASELINE, "LangGraph", 3])
def test_the_view_refuses_the_baseline_and_an_agent_not_recorded(agent):
    with pytest.raises(InputError, match=r"agent must be one of 'LangGraph, limit 16'"):
        frameworks_view(Settings(seed=SEEDS[0], extra={"agent": agent}))


def test_the_panel_starts_at_the_first_recorded_seed_and_has_no_budget():
    panel = frameworks_panel()
    assert panel.settings.seed == SEEDS[0] and panel.settings.extra == {"agent": DEFAULT_AGENT}
    row = panel.widget.children[0].children
    assert [getattr(w, "description", "") for w in row] == ["seed", "new seed", "reset", "agent"]
    assert list(panel.extra["agent"].options) == AGENTS[1:]
    status = _plain(panel.status.value)
    assert status.startswith(f"Showing seed {SEEDS[0]}, agent {DEFAULT_AGENT}.") and "budget" not in status


def test_the_panel_refuses_a_seed_not_recorded_and_keeps_working():
    panel = frameworks_panel()
    shown = panel.table.value
    for typed in ("777", "1.5", str(SEEDS[-1] + 1)):
        panel.seed.value = typed
        message = _plain(panel.message.value)
        assert message.startswith(f"Refused: seed must be one of the {len(SEEDS)} recorded held-out seeds "
                                  f"{SEEDS[0]}..{SEEDS[-1]}, got "), message  # fmt: skip
        assert message.endswith(f"Still showing seed {SEEDS[0]}, agent {DEFAULT_AGENT}.")
        assert panel.table.value == shown and panel.seed.value == str(SEEDS[0])
    panel.set(seed=5)
    assert "got 5" in _plain(panel.message.value) and panel.settings.seed == SEEDS[0]
    panel.set(seed=OTHER[0], agent=OTHER[1])  # still working: another recorded seed and agent
    assert panel.message.value == "" and panel.settings.seed == OTHER[0]
    assert _plain(panel.table.value).startswith(f"At seed {OTHER[0]}, all 24 tasks: {OTHER[1]} beside")


def test_new_seed_draws_another_recorded_seed_and_reset_goes_back():
    panel = frameworks_panel()
    for _ in range(5):
        before = panel.settings.seed
        panel.new_seed.click()
        assert panel.settings.seed in SEEDS and panel.settings.seed != before
        assert panel.message.value == ""
    panel.set(agent=OTHER[1])
    panel.reset.click()
    assert panel.settings.seed == SEEDS[0] and panel.settings.extra == {"agent": DEFAULT_AGENT}


def test_the_panel_replays_with_no_network(monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("the panel opened a connection")

    monkeypatch.setattr(socket.socket, "connect", refused)
    monkeypatch.setattr(socket, "create_connection", refused)
    panel = frameworks_panel()
    panel.set(seed=OTHER[0], agent=OTHER[1])
    assert panel.settings.seed == OTHER[0] and panel.message.value == ""


def test_a_panel_on_another_recording_offers_its_seeds_and_none_is_refused(tmp_path):
    kept = [row for row in ROWS if int(row["seed"]) in SEEDS[:2]]
    path = tmp_path / "two_seeds.csv"
    with path.open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(ROWS[0]))
        writer.writeheader()
        writer.writerows(kept)
    panel = frameworks_panel(path)
    assert panel.recorded == SEEDS[:2]
    panel.seed.value = str(SEEDS[2]) if len(SEEDS) > 2 else "777"
    assert f"the 2 recorded held-out seeds {SEEDS[0]}..{SEEDS[1]}, got" in _plain(panel.message.value)
    assert "same seed, 2 recorded held-out seeds" in _plain(panel.text.value)
    with pytest.raises(InputError, match="record them with scripts/record_framework_runs.py"):
        frameworks_panel(tmp_path / "none.csv")


def test_the_view_builds_the_runs_from_rows_given_and_refuses_runs_without_rows():
    rows = recorded_rows()
    settings = Settings(seed=OTHER[0], extra={"agent": OTHER[1]})
    assert frameworks_view(settings, rows=rows).table_html == frameworks_view(settings).table_html
    with pytest.raises(InputError, match="rows must be given with runs"):
        frameworks_view(settings, runs=rows_runs(rows))
