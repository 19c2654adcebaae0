"""Lesson 1 (the single loop): its table agrees with lesson 2's, step records replay runs exactly,
depth counts are what the traces say, and its panel shows what sim computes."""

import html
import re
from pathlib import Path

import nbformat
import pytest

import sim
from sim.measurement.bands import compare_setups
from sim.measurement.counts import measure
from sim.measurement.traces import depth_picks, recovery_task, side_effect_calls
from sim.presentation.panel import Settings
from sim.presentation.panel_runs import lettered
from sim.presentation.panel_single_loop import single_loop_panel
from sim.presentation.tables import format_table, loop_step_table, seed_table

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
SEEDS = (20260218, 20260219)
# the single-loop rows the seed lesson prints (lesson 2's table), copied from its output
SEED_SINGLE_LOOP_ROWS = [
    "single loop                A   0.9583     97     74     11978     8",
    "single loop                B   0.9583     98     74     11994     7",
]


def _printed_single_loop_rows(notebook_name: str) -> list[str]:
    """The table rows starting 'single loop' in the first cell that prints a table with a 'setup' header."""
    notebook = nbformat.read(LESSONS / notebook_name, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        text = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
        if re.search(r"^setup +run +success", text, re.M):
            return [line for line in text.splitlines() if line.startswith("single loop ")]
    raise AssertionError(f"{notebook_name} prints no seed table")


def test_lesson_1_single_loop_rows_equal_lesson_2s_and_the_seeds():
    lesson_1 = _printed_single_loop_rows("01_single_loop.ipynb")
    lesson_2 = _printed_single_loop_rows("02_planner_executor.ipynb")
    assert lesson_1 == lesson_2 == SEED_SINGLE_LOOP_ROWS
    fields = [row.split()[-5:] for row in lesson_1]
    assert fields == [["0.9583", "97", "74", "11978", "8"], ["0.9583", "98", "74", "11994", "7"]]


@pytest.mark.parametrize("seed", [0, 7, *SEEDS, 2**32 - 1])
@pytest.mark.parametrize("budget", [1, 3, 8, 12])
@pytest.mark.parametrize("critique", [False, True])
def test_loop_steps_replay_every_run_exactly(seed, budget, critique):
    for task in sim.TASKS:
        run = sim.run_single_loop(task, seed, budget, self_critique=critique)
        steps = sim.loop_steps(run, critique)
        assert len(steps) == run.steps and [s.step for s in steps] == list(range(1, run.steps + 1))
        assert sum(s.tokens for s in steps) == run.tokens
        assert [(s.tool, s.error, s.held) for s in steps if s.tool] == [
            (c.tool, c.error, c.held) for c in run.trace
        ]
        assert (steps[-1].tool is None) == run.stopped
        assert all(s.tool is not None for s in steps[:-1])
        if run.stopped:  # a run stops only once every position is done
            assert steps[-1].depth is None and all(s.depth is not None for s in steps if s.right)


def test_depth_is_the_position_the_loop_drew_selection_for(monkeypatch):
    """Independent check: record the depth the loop itself passes to selection's rule at each pick."""
    seen = []
    real = sim.model.picks.right_share

    def recording(depth):
        seen.append(depth)
        return real(depth)

    for seed in (*SEEDS, 5):
        for task in sim.TASKS:
            seen.clear()
            monkeypatch.setattr(sim.model.picks, "right_share", recording)
            run = sim.run_single_loop(task, seed, 8)
            monkeypatch.setattr(sim.model.picks, "right_share", real)
            assert [s.depth for s in sim.loop_steps(run) if s.depth is not None] == seen


def test_loop_step_tokens_follow_the_rule():
    steps = sim.loop_steps(sim.run_single_loop("G03", SEEDS[0], 8))
    # read_meter (trace 0), tariff error (trace 1), consumption (trace 2), stop (trace 3)
    assert [s.tokens for s in steps] == [60 + 30, 60 + 22 + 30, 60 + 44 + 30, 60 + 66]
    critiqued = sim.loop_steps(sim.run_single_loop("G03", SEEDS[0], 8, self_critique=True), True)
    assert [s.tokens for s in critiqued] == [90, 112 + 40, 134, 126]


def test_loop_steps_refuses_a_split_run_and_a_wrong_switch():
    with pytest.raises(TypeError, match="run must be a single-loop Run"):
        sim.loop_steps(sim.run_plan_execute("G05"))
    with pytest.raises(TypeError, match="run must be a single-loop Run"):
        sim.loop_steps("G05")
    with pytest.raises(ValueError, match="self_critique=True does not give the run's"):
        sim.loop_steps(sim.run_single_loop("G03"), True)  # G03 has a tool error at run A
    with pytest.raises(TypeError, match="self_critique must be True or False"):
        sim.loop_steps(sim.run_single_loop("G03"), 1)


def test_depth_picks_count_what_the_traces_hold():
    for seed in SEEDS:
        table = depth_picks(seed, 8)
        steps = [s for t in sim.TASKS for s in sim.loop_steps(sim.run_single_loop(t, seed, 8))]
        assert table["picks"].sum() == sum(s.depth is not None for s in steps)
        assert table["right"].sum() == sum(bool(s.right) for s in steps)
        assert list(table["model"]) == [sim.selection(d) for d in range(1, 5)]
    # lesson 1's figures at budget 8: right/picks by depth, counted by hand from the traces
    assert list(zip(*[depth_picks(SEEDS[0])[c] for c in ("right", "picks")], strict=True)) == [
        (24, 30), (17, 24), (9, 13), (3, 6),
    ]  # fmt: skip
    assert list(zip(*[depth_picks(SEEDS[1])[c] for c in ("right", "picks")], strict=True)) == [
        (24, 31), (17, 22), (9, 12), (3, 6),
    ]  # fmt: skip
    shallow = depth_picks(SEEDS[0], 1)
    assert list(shallow["picks"]) == [24, 0, 0, 0] and shallow["share"][1:].isna().all()


def test_expected_share_counts_lucky_picks():
    assert sim.expected_right_share(1) == pytest.approx(0.8 + 0.2 / 5)
    assert sim.expected_right_share(4) == pytest.approx(0.53 + 0.47 / 5)


def test_side_effect_calls_are_the_approvals():
    for seed in (*SEEDS, 11):
        calls = side_effect_calls(seed, 8)
        assert len(calls) == measure("single-loop", seed, 8, approval=True).approvals
        assert set(calls["tool"]) <= {"write_record"}
        assert (calls["asked_for_record"] == (calls["kind"] == "record")).all()
    assert side_effect_calls(SEEDS[0], 8)["asked_for_record"].value_counts().to_dict() == {
        False: 4,
        True: 3,
    }


def test_recovery_task_matches_its_rule():
    name = recovery_task(SEEDS[0], 8)
    run = sim.run_single_loop(name, SEEDS[0], 8)
    steps = sim.loop_steps(run)
    assert run.stopped and sim.is_correct(run)
    assert any(s.right is False and s.error and s.depth >= 2 for s in steps)
    earlier = sim.TASK_NAMES[: sim.TASK_NAMES.index(name)]
    for other in earlier:
        r = sim.run_single_loop(other, SEEDS[0], 8)
        qualifies = any(s.right is False and s.error and s.depth >= 2 for s in sim.loop_steps(r))
        assert not (qualifies and r.stopped and sim.is_correct(r))


def test_bad_input_is_refused_by_name():
    with pytest.raises(TypeError, match="seed must be an integer"):
        depth_picks("x")
    with pytest.raises(ValueError, match="max_steps"):
        side_effect_calls(1, 0)
    with pytest.raises(ValueError, match="seed must be an integer"):
        recovery_task(-1)


# ---- the panel


@pytest.fixture
def panel():
    return single_loop_panel()


def _shown(widget) -> str:
    return html.unescape(widget.value)


def test_panel_starts_at_the_lessons_defaults(panel):
    assert panel.settings == Settings(20260218, 8, "G03", {"self_critique": False, "approval": False})
    assert "\n".join(SEED_SINGLE_LOOP_ROWS) in _shown(panel.table)
    assert b"<svg" in bytes(panel.figure.value)[:400]
    assert "verdict" not in _shown(panel.table)  # no switch, no comparison


def test_panel_seed_and_budget_redraw_table_and_depth(panel):
    before = panel.figure.value
    panel.set(seed=777, budget=4)
    measured = seed_table([measure("single-loop", s, 4) for s in (777, 778)])
    expected = format_table(lettered(measured, (777, 778)))  # runs A and B, the caption gives the seeds
    assert expected in _shown(panel.table)
    assert panel.figure.value != before
    assert "run A = seed 777, run B = seed 778" in _shown(panel.table)
    for label, seed in (("A", 777), ("B", 778)):
        assert panel.view.data["depth"][label].equals(depth_picks(seed, 4))
    run = sim.run_single_loop("G03", 777, 4)
    assert f"{loop_step_table(sim.loop_steps(run)).to_string(index=False)}" in _shown(panel.text)


def test_panel_switches_show_measured_verdicts(panel):
    panel.extra["self_critique"].value = True
    plain = [measure("single-loop", s, 8) for s in SEEDS]
    critique = [measure("single-loop", s, 8, self_critique=True) for s in SEEDS]
    assert format_table(seed_table(critique)) in _shown(panel.table)
    shown = {v.unit: v.verdict for v in panel.view.data["verdicts"]}
    assert shown == {v.unit: v.verdict for v in compare_setups(plain, critique)}
    assert shown["tokens"] == "measured" and shown["success"] == "unmeasured"
    panel.set(approval=True, self_critique=False)
    assert "run A: 7 approvals asked, 4 of them write_record calls" in _shown(panel.table)
    assert "run B: 9 approvals asked, 6 of them" in _shown(panel.table)
    panel.reset.click()
    assert panel.settings.extra == {"self_critique": False, "approval": False}


def test_panel_refuses_bad_input_and_keeps_working(panel):
    table = panel.table.value
    panel.seed.value = "not a seed"
    assert "Refused: seed must be a whole number" in panel.message.value and panel.table.value == table
    panel.set(budget=0)
    assert "budget must be an integer 1..20, got 0" in panel.message.value
    panel.set(critique=True)
    assert "unknown control" in _shown(panel.message)
    panel.seed.value = "3"  # the seed's refusal and the unknown control's go; the budget's stays
    assert panel.settings.seed == 3 and "seed must" not in panel.message.value
    assert (
        "unknown control" not in panel.message.value
        and "budget must be an integer 1..20, got 0" in panel.message.value
    )
    panel.budget.value = 5  # until the budget changes again
    assert panel.settings.budget == 5 and panel.message.value == ""
