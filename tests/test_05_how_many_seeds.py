"""Lesson 5: the study's statistics against direct computations, and its panel driven from Python."""

import html
import math
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from scipy import stats

from sim.measurement import study
from sim.measurement.bands import band_verdict
from sim.measurement.batch import measure_batch, run_batch, study_seeds
from sim.presentation.panel import Settings
from sim.presentation.panel_how_many_seeds import how_many_seeds_panel

SEEDS = study_seeds(400)
LESSON = Path(__file__).resolve().parents[1] / "lessons" / "05_how_many_seeds.ipynb"


@pytest.fixture(scope="module")
def pair():
    return run_batch("single-loop", SEEDS), run_batch("plan-execute", SEEDS)


def test_pass_hat_k_is_the_mean_over_tasks_of_the_binomial_ratio():
    correct = np.array([[1, 1, 1, 0, 1], [0, 0, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=bool)
    for k in range(1, 6):
        expected = np.mean([math.comb(int(c), k) / math.comb(5, k) for c in correct.sum(axis=1)])
        assert study.pass_hat_k(correct, k) == pytest.approx(expected, rel=1e-12)
    assert study.pass_hat_k(correct, 1) == pytest.approx(correct.mean())
    with pytest.raises(ValueError, match=r"k must be an integer 1 <= k <= 5"):
        study.pass_hat_k(correct, 6)


def test_pass_k_is_at_least_p_to_the_k(pair):
    table = study.pass_k_table({"single loop": pair[0]}, ks=range(1, 9))
    assert (table["single loop pass^k"] >= table["single loop p^k"] - 1e-12).all()
    assert table["single loop pass^k"].iloc[0] == pytest.approx(pair[0].correct.mean())


def test_seed_interval_is_the_t_interval_of_per_seed_differences(pair):
    single, split = pair
    interval = study.paired_interval(single, split, "success", 300)
    data = (split.per_seed().solved[:300] - single.per_seed().solved[:300]) / 24
    direct = stats.ttest_1samp(data, 0).confidence_interval(0.95)
    assert interval.method == "t" and interval.difference == pytest.approx(data.mean())
    assert (interval.low, interval.high) == pytest.approx((direct.low, direct.high))


def test_seed_interval_can_be_scipys_bootstrap_of_per_seed_differences(pair):
    single, split = pair
    interval = study.paired_interval(single, split, "tokens", 300, "seeds", 2000, method="percentile")
    data = split.per_seed().tokens[:300] - single.per_seed().tokens[:300]
    direct = stats.bootstrap((data,), np.mean, n_resamples=2000, method="percentile",
                             rng=np.random.default_rng(study.RESAMPLING_SEED))  # fmt: skip
    assert interval.difference == pytest.approx(data.mean())
    assert (interval.low, interval.high) == pytest.approx(tuple(direct.confidence_interval))


def test_task_interval_resamples_the_24_task_means(pair):
    single, split = pair
    interval = study.paired_interval(single, split, "success", 400, "tasks", 2000, method="percentile")
    per_task = (split.correct.astype(int) - single.correct.astype(int)).mean(axis=1)
    direct = stats.bootstrap((per_task,), np.mean, n_resamples=2000, method="percentile",
                             rng=np.random.default_rng(study.RESAMPLING_SEED))  # fmt: skip
    assert interval.difference == pytest.approx(
        split.per_seed().success.mean() - single.per_seed().success.mean()
    )
    assert (interval.low, interval.high) == pytest.approx(tuple(direct.confidence_interval))


def test_identical_setups_give_a_zero_point_interval(pair):
    single = pair[0]
    interval = study.paired_interval(single, single, "success", 100)
    assert (interval.difference, interval.low, interval.high, interval.excludes_zero) == (0, 0, 0, False)


def test_bad_study_arguments(pair):
    single, split = pair
    with pytest.raises(ValueError, match="unit must be one of"):
        study.paired_interval(single, split, "speed", 100)
    with pytest.raises(ValueError, match="resample must be one of seeds, tasks"):
        study.paired_interval(single, split, "success", 100, "runs")
    with pytest.raises(ValueError, match="method must be one of t, percentile, BCa"):
        study.paired_interval(single, split, "success", 100, method="normal")
    with pytest.raises(ValueError, match=r"n_seeds must be an integer 2 <= n_seeds <= 400"):
        study.paired_interval(single, split, "success", 401)
    other = run_batch("plan-execute", SEEDS, 4)
    with pytest.raises(ValueError, match="same seeds with the same budget"):
        study.paired_interval(single, other, "success", 100)


def test_band_rule_over_pairs_counts_what_band_verdict_says(pair):
    first, second = pair[0].per_seed(), pair[1].per_seed()
    counts = study.band_rule_over_pairs(first, second, "tool calls")
    measured = [
        band_verdict("tool calls", first.calls[i : i + 2].tolist(), second.calls[i : i + 2].tolist())
        for i in range(0, 400, 2)
    ]
    hits = [v for v in measured if v.verdict == "measured"]
    assert counts["pairs"] == 200 and counts["measured"] == len(hits)
    assert counts["measured_up"] == sum(v.differences[0] > 0 for v in hits)
    assert counts["measured_size"] == pytest.approx(np.mean([abs(sum(v.differences)) / 2 for v in hits]))


def test_band_rule_at_the_lessons_seeds_is_lesson_2s():
    single = measure_batch("single-loop", SEEDS[:2])
    split = measure_batch("plan-execute", SEEDS[:2])
    counts = study.band_rule_over_pairs(single, split, "tool calls")
    assert counts == {"pairs": 1, "measured": 1, "measured_up": 0, "measured_down": 1, "measured_size": 3.5}


# ---- the panel


@pytest.fixture(scope="module")
def panel():
    return how_many_seeds_panel()


def _expected_row(settings, unit):
    setups = [study.SETUP_CHOICES[settings.extra[name]] for name in ("first", "second")]
    seeds = study_seeds(settings.extra["n_seeds"], settings.seed)
    common = settings.extra["common_draws"]
    first, second = (
        run_batch(
            c.setup,
            seeds,
            settings.budget,
            self_critique=c.self_critique,
            approval=c.approval,
            common_draws=common,
        )
        for c in setups
    )
    interval = study.paired_interval(first, second, unit, len(seeds), "seeds")
    return f"[{interval.low:.4f}, {interval.high:.4f}]", f"{interval.difference:.4f}"


def test_panel_starts_at_the_lessons_defaults(panel):
    panel.reset.click()
    assert panel.settings == Settings(
        20260218, 8, "G05",
        {"n_seeds": 10000, "first": "single loop", "second": "planner + executor", "common_draws": False},
    )  # fmt: skip
    shown = html.unescape(panel.table.value)
    assert "-0.0079" in shown and b"<svg" in bytes(panel.figure.value)[:400]
    assert "95 % t intervals" in panel.text.value and "own streams" in panel.text.value


@pytest.mark.slow
def test_the_seeds_slider_and_setups_redraw_what_sim_computes(panel):
    panel.reset.click()
    panel.extra["n_seeds"].value = 300
    low_high, difference = _expected_row(panel.settings, "success")
    row = panel.view.data["table"].set_index("unit").loc["success"]
    assert row["95 % interval over seeds"] == low_high and row["difference"] == difference
    panel.extra["common_draws"].value = True
    low_high, difference = _expected_row(panel.settings, "success")
    row = panel.view.data["table"].set_index("unit").loc["success"]
    assert row["95 % interval over seeds"] == low_high and row["difference"] == difference
    assert panel.view.data["first"].config.common_draws and "common draws (CR1)" in panel.text.value
    panel.extra["second"].value = "single loop + self-critique"
    panel.budget.value = 5
    low_high, difference = _expected_row(panel.settings, "tokens")
    row = panel.view.data["table"].set_index("unit").loc["tokens"]
    assert row["95 % interval over seeds"] == low_high and row["difference"] == difference
    assert panel.view.data["second"].self_critique and panel.view.data["second"].budget == 5
    assert panel.message.value == ""


def test_a_study_past_the_last_seed_is_refused_and_the_panel_keeps_working(panel):
    panel.reset.click()
    table = panel.table.value
    panel.seed.value = str(2**32 - 100)
    refusal = f"Refused: seed must be a whole number 0 &lt;= seed &lt;= {2**32 - 10000} with 10000 seeds"
    assert refusal in panel.message.value and f"got {2**32 - 100}." in panel.message.value
    assert str(2**32 - 100 + 9999) not in panel.message.value  # the study's last seed: never typed
    assert panel.table.value == table and panel.settings.seed == 20260218
    panel.extra["n_seeds"].value = 50  # 2**32 - 100 + 49 fits: the same seed is now accepted
    panel.seed.value = str(2**32 - 100)
    assert panel.message.value == "" and panel.settings.seed == 2**32 - 100
    assert panel.view.data["first"].seeds[-1] == 2**32 - 51


@pytest.mark.parametrize("typed", ["4294967295", "4294967296", "4294957297"])
def test_a_seed_refusal_quotes_what_was_typed_and_the_range_this_panel_allows(panel, typed):
    panel.reset.click()
    panel.seed.value = typed
    message = html.unescape(panel.message.value)
    assert f"seed must be a whole number 0 <= seed <= {2**32 - 10000} with 10000 seeds" in message
    assert f"got {typed}." in message and str(int(typed) + 9999) not in message
    assert panel.settings.seed == 20260218 and panel.seed.value == "20260218"
    panel.seed.value = str(2**32 - 10000)  # the largest seed it names is taken
    assert panel.message.value == "" and panel.settings.seed == 2**32 - 10000


def test_the_same_setup_as_first_and_second_is_refused(panel):
    panel.reset.click()
    table = panel.table.value
    panel.extra["second"].value = "single loop"
    message = html.unescape(panel.message.value)
    assert "Refused: first and second must be two different setups, got single loop for both" in message
    assert panel.table.value == table and panel.extra["second"].value == "planner + executor"
    panel.set(first="single loop", second="single loop")
    assert (
        "two different setups" in panel.message.value
        and panel.settings.extra["second"] == "planner + executor"
    )
    panel.extra["second"].value = "single loop + self-critique"  # the control changes again: redrawn
    assert panel.message.value == "" and panel.settings.extra["second"] == "single loop + self-critique"
    assert (panel.table.value != table) and panel.view.data["table"].columns[1] == "single loop"


# ---- the sources


def test_the_sources_are_a_markdown_list_each_with_its_link_and_no_cell_prints_them():
    cells = nbformat.read(LESSON, as_version=4).cells
    heading = [c for c in cells if c.cell_type == "markdown" and c.source.startswith("### Sources")]
    assert len(heading) == 1, "one markdown cell headed ### Sources"
    items = re.findall(r"^- (.*(?:\n  .*)*)", heading[0].source, re.M)
    assert len(items) == 13
    for item in items:
        assert re.search(r"\]\(https://[^)\s]+\)", item) and "Here: " in item, item
    assert "https://arxiv.org/abs/2406.12045" in heading[0].source  # tau-bench, where pass^k comes from
    printed = [c for c in cells if c.cell_type == "code" and "SOURCES" in c.source]
    assert printed == [], "the sources are prose, not a table a cell prints"
