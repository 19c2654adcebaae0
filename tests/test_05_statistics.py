"""Lesson 5's statistics against independent computations: intervals and their coverage, power and the
closed form, sign and magnitude errors, A/A studies, task kinds, pass^k at trial counts, cost per
success, and the checked exercises."""

import math

import numpy as np
import pytest
from scipy import stats

import sim
from sim.engine.config import RunConfig
from sim.exercises import how_many_seeds as exercises
from sim.measurement import clusters, intervals, power, reliability
from sim.measurement.batch import measure_batch, run_batch, study_seeds

RNG = np.random.default_rng(13)
NORMAL = RNG.normal(0.3, 1.0, size=20000)


@pytest.fixture(scope="module")
def pair():
    seeds = study_seeds(2000)
    return run_batch("single-loop", seeds), run_batch("plan-execute", seeds)


# ---- intervals


def test_t_interval_is_scipys_one_sample_t_interval():
    data = NORMAL[:37]
    low, high = intervals.t_interval(data)
    direct = stats.ttest_1samp(data, 0).confidence_interval(0.95)
    assert (low, high) == pytest.approx((direct.low, direct.high))
    many = intervals.t_interval(NORMAL[:300].reshape(10, 30))
    assert many[0].shape == (10,) and many[0][3] == pytest.approx(intervals.t_interval(NORMAL[90:120])[0])


def test_bootstrap_interval_is_scipys_and_a_flat_study_is_a_point():
    data = NORMAL[:25]
    low, high = intervals.bootstrap_interval(data, "percentile", 2000, 7)
    direct = stats.bootstrap(
        (data,), np.mean, n_resamples=2000, method="percentile", rng=np.random.default_rng(7)
    )
    assert (low, high) == pytest.approx(tuple(direct.confidence_interval))
    flat = np.array([[2.0, 2.0, 2.0], [1.0, 2.0, 4.0]])
    for method in ("percentile", "BCa"):
        low, high = intervals.bootstrap_interval(flat, method, 500)
        assert low[0] == high[0] == 2.0 and low[1] < high[1]


def test_coverage_of_normal_data_is_near_nominal_for_t_and_short_for_the_percentile_at_small_n():
    table = intervals.coverage_table(NORMAL, 0.3, sizes=(5, 50), methods=("t", "percentile"), n_resamples=500)
    at = table.set_index(["n_seeds", "method"])["coverage"]
    assert 0.935 < at[5, "t"] < 0.965 and at[5, "percentile"] < 0.9
    assert 0.9 < at[50, "percentile"] < 0.97
    row = table.iloc[0]
    ci = stats.binomtest(int(row.covered), int(row.studies)).proportion_ci(0.95)
    assert (row.coverage_low, row.coverage_high) == pytest.approx((ci.low, ci.high))


def test_the_percentile_width_ratio_is_what_normal_data_show():
    table = intervals.coverage_table(NORMAL, 0.3, sizes=(5,), methods=("t", "percentile"), n_resamples=500)
    widths = table.set_index("method")["width"]
    assert widths["percentile"] / widths["t"] == pytest.approx(intervals.percentile_width_ratio(5), rel=0.05)


def test_disjoint_studies_and_excludes_zero():
    studies = intervals.disjoint_studies(np.arange(10), 3)
    assert studies.tolist() == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert intervals.excludes_zero(np.array([0.1, -1, -2]), np.array([1, 1, -0.5])).tolist() == [
        True,
        False,
        True,
    ]
    with pytest.raises(sim.InputTypeError, match="low must be a number"):
        intervals.excludes_zero("x", 1)


# ---- power, sign and magnitude errors, A/A studies


def test_closed_form_seeds_and_power_agree_with_each_other_and_with_measured_power():
    n = power.seeds_for_power(1.0, 0.3)
    assert n == pytest.approx((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) ** 2 / 0.09)
    assert power.closed_form_power(1.0, 0.3, math.ceil(n)) == pytest.approx(0.8, abs=0.01)
    table = power.power_table(NORMAL - 0.3 + 0.25, sizes=(20, 100), truth=0.25).set_index("n_seeds")
    for n_seeds in (20, 100):
        assert table.loc[n_seeds, "power"] == pytest.approx(
            power.closed_form_power(1.0, 0.25, n_seeds), abs=0.06
        )


def test_type_s_and_type_m_errors_count_what_they_say():
    differences = np.array([3.0, 3.1, 2.9, -3.0, -3.1, -2.9, 0.1, -0.1, 0.2, 0.0, 0.1, 0.05])
    table = power.power_table(differences, sizes=(3,), truth=1.0).iloc[0]
    assert (table.studies, table.excluding, table.wrong_sign) == (4, 2, 1)
    assert table.type_s == 0.5 and table.type_m == pytest.approx(3.0)


def test_aa_differences_peeking_and_family_error():
    values = np.arange(40.0)
    aa = power.aa_differences(values, 2, 10)
    assert aa.shape == (2, 10) and (aa == 10).all()
    null = RNG.normal(size=(4000, 50))
    result = power.peeking(null, [10, 20, 30, 40, 50])
    assert 0.035 < result["fixed"] < 0.065 and result["peeking"] > 1.8 * result["fixed"]
    flags = {
        ("a", 1, "seeds"): np.array([True, False, False]),
        ("b", 1, "seeds"): np.array([False, False, True]),
    }
    assert power.family_error(flags) == pytest.approx(2 / 3)
    assert power.family_error(flags, [("a", 1, "seeds")]) == pytest.approx(1 / 3)


def test_aa_exclusions_cover_every_unit_size_and_way():
    per_task = power.per_task_outcomes(RunConfig("single-loop"), 400, 5, chunk=150)
    assert set(per_task) == set(sim.UNIT_NAMES) and per_task["tokens"].shape == (24, 400)
    direct = run_batch("single-loop", study_seeds(400, 5))
    assert np.array_equal(per_task["tokens"], direct.tokens)
    found = power.aa_exclusions(per_task, 4, (10, 50))
    assert len(found) == 5 * 2 * 2 and found["success", 50, "tasks"].shape == (4,)
    cut = power.aa_differences(per_task["tokens"].astype(float), 4, 50)  # (24, 4, 50)
    by_seed = intervals.excludes_zero(*intervals.t_interval(cut.sum(axis=0)))
    assert np.array_equal(found["tokens", 50, "seeds"], by_seed)


# ---- task kinds


def test_kind_differences_weight_up_to_the_whole(pair):
    single, split = pair
    kinds = clusters.kind_table(single, split, "success", 2000)
    overall = (split.correct.astype(int) - single.correct.astype(int)).mean()
    assert (kinds["difference"] * kinds["tasks"]).sum() / 24 == pytest.approx(overall)
    both = clusters.task_intervals(single, split, "success", 2000).set_index("interval")
    assert both["difference"].tolist() == pytest.approx([overall, overall])
    per_task = (split.correct.astype(int) - single.correct.astype(int)).mean(axis=1)
    direct = stats.ttest_1samp(per_task, 0).confidence_interval(0.95)
    assert (both.loc["tasks", "low"], both.loc["tasks", "high"]) == pytest.approx((direct.low, direct.high))


# ---- reliability and cost


def test_per_task_pass_is_the_binomial_ratio_and_pass_at_k_its_complement():
    correct = np.array([[1, 1, 0, 1], [0, 0, 0, 1]], dtype=bool)
    assert reliability.per_task_pass(correct, 2).tolist() == pytest.approx([3 / 6, 0])
    assert reliability.per_task_pass(correct, 2, True).tolist() == pytest.approx([1, 1 - 3 / 6])


def test_trial_table_is_unbiased_and_pass_at_1_is_pass_hat_1(pair):
    table = reliability.trial_table(pair[0], 4, (1, 4)).set_index("k")
    assert table.loc[1, "pass_at_k"] == pytest.approx(table.loc[1, "mean"])
    assert table.loc[4, "mean"] == pytest.approx(table.loc[4, "all_seeds"], abs=0.01)  # unbiased
    assert table.loc[4, "studies"] == 500 and table.loc[4, "p5"] <= table.loc[4, "p95"]


def test_cost_per_success_is_tokens_over_tasks_solved(pair):
    single = pair[0]
    found = reliability.cost_per_success(single, 100, n_resamples=500)
    totals = single.head(100).per_seed()
    assert found["tokens_per_success"] == pytest.approx(totals.tokens.sum() / totals.solved.sum())
    assert found["low"] < found["tokens_per_success"] < found["high"]
    assert found["success"] == pytest.approx(totals.success.mean())


# ---- the checked exercises


def test_the_power_exercise_checks_an_independent_computation():
    first = 31337
    seeds = study_seeds(5000, first)
    d = (measure_batch("plan-execute", seeds).solved - measure_batch("single-loop", seeds).solved) / 24
    cis = [stats.ttest_1samp(block, 0).confidence_interval(0.95) for block in d.reshape(50, 100)]
    share = np.mean([ci.low > 0 or ci.high < 0 for ci in cis])
    assert exercises.check_power(first, float(share)).startswith("right")
    above = exercises.check_power(first, float(share) + 0.02)
    assert above.startswith("not right: your power is not the one computed for your seed")
    assert exercises.check_power(first, float(share) - 0.02) == above  # never which way
    assert exercises.check_power(first).startswith("not answered yet")
    assert str(share) not in exercises.check_power(first, 0.5)


def test_the_coverage_exercise_accepts_a_little_resampling_noise():
    answer = exercises.coverage_answer(99)
    assert exercises.check_coverage(99, answer + 0.005).startswith("right")
    below = exercises.check_coverage(99, answer - 0.05)
    assert below.startswith("not right: your coverage is not the one computed") and "too low" not in below
    assert "a percentage?" in exercises.check_coverage(99, 85)
