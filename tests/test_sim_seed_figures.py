"""The seed lesson's own printed figures, digit for digit (seed 000, its G05 walk-through and table)."""

from sim import run_plan_execute
from sim.measurement.bands import compare_setups
from sim.measurement.counts import measure, plan_accuracy
from sim.presentation.tables import format_plan_accuracy, format_table, format_trace, seed_table

SEEDS = (20260218, 20260219)

# Printed by the seed lesson's listing (lines copied from its output).
SEED_TABLE_HEADER = "setup                    run  success   step  calls  tokens error"
SEED_TABLE_ROWS = """\
single loop                A   0.9583     97     74     11978     8
single loop                B   0.9583     98     74     11994     7
planner + executor         A   0.8750    118     71     10345    10
planner + executor         B   0.9583    116     70     10135    12"""
SEED_PLAN_LINES = """\
plan A : right positions 47/53 = 0.8868 ; fully right plans 18/24
plan B : right positions 47/53 = 0.8868 ; fully right plans 18/24"""
SEED_G05 = """\
G05 (charge) correct sequence : read_meter -> consumption -> tariff
  plan     : tariff -> consumption -> tariff
  executed : tariff [error] -> consumption [error] -> tariff [error] -> read_meter -> consumption -> tariff
  steps 8  tokens 805  tool errors 3  answer 550  correct 550"""


def _lesson_measurements():
    return [measure(setup, seed, 8) for setup in ("single-loop", "plan-execute") for seed in SEEDS]


def test_four_row_table_rows_are_the_seeds_character_for_character():
    header, *rows = format_table(seed_table(_lesson_measurements())).splitlines()
    assert "\n".join(rows) == SEED_TABLE_ROWS
    assert header.split() == SEED_TABLE_HEADER.split()


def test_table_values():
    got = [(m.setup, m.seed, m.solved, m.steps, m.calls, m.tokens, m.errors) for m in _lesson_measurements()]
    assert got == [
        ("single-loop", 20260218, 23, 97, 74, 11978, 8),
        ("single-loop", 20260219, 23, 98, 74, 11994, 7),
        ("plan-execute", 20260218, 21, 118, 71, 10345, 10),
        ("plan-execute", 20260219, 23, 116, 70, 10135, 12),
    ]


def test_plan_accuracy_lines():
    assert "\n".join(format_plan_accuracy(plan_accuracy(seed)) for seed in SEEDS) == SEED_PLAN_LINES
    accuracy = plan_accuracy(20260218)
    assert (accuracy.right_positions, accuracy.positions, accuracy.right_plans, accuracy.plans) == (
        47,
        53,
        18,
        24,
    )


def test_g05_walk_through():
    run = run_plan_execute("G05", 20260218, 8)
    assert format_trace(run) == SEED_G05
    assert (run.steps, run.tokens, run.errors, run.answer, run.calls) == (8, 805, 3, 550, 6)


def test_band_rule_verdicts_on_the_seed_table():
    single, split = _lesson_measurements()[:2], _lesson_measurements()[2:]
    verdicts = {v.unit: v for v in compare_setups(single, split)}
    assert {unit: v.verdict for unit, v in verdicts.items()} == {
        "success": "unmeasured",
        "steps": "measured",
        "tool calls": "measured",
        "tokens": "measured",
        "tool errors": "unmeasured",
    }
    # the figures it compared: exact counts, not rounded shares
    assert verdicts["success"].differences == (-2, 0) and verdicts["success"].band == 2
    assert verdicts["tool errors"].differences == (2, 5) and verdicts["tool errors"].band == 2
    assert (verdicts["tokens"].band_first, verdicts["tokens"].band_second) == (16, 210)
    assert verdicts["steps"].differences == (21, 18)


def test_split_step_table_of_g05():
    from sim import run_single_loop
    from sim.presentation.tables import split_step_table

    table = split_step_table(run_plan_execute("G05", 20260218, 8))
    assert list(table["phase"]) == ["planning", "plan position 1", "plan position 2", "plan position 3",
                                    "single-loop rule", "single-loop rule", "single-loop rule", "stop"]  # fmt: skip
    assert list(table["tool error"]) == ["", "yes", "yes", "yes", "", "", "", ""]
    assert table["answer held"].iloc[6] == 550
    ruled = split_step_table(run_plan_execute("G05", 20260218, 8, stop_when_done=True))
    assert list(ruled["phase"])[-1] == "stop"  # SB1's stop is a step, paid like any other
    import pytest

    with pytest.raises(ValueError, match="plan-execute run"):
        split_step_table(run_single_loop("G05"))
