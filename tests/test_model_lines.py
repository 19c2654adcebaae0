"""Every model line a lesson draws or quotes, against a many-seed measurement (issue 12).

A line computed from the model's rules must describe what the simulator does: the measured share
over many seeds lies within 4 standard errors of the line (binomial standard error of the share).
"""

import math

import numpy as np
import pytest

import sim
from sim.measurement.many_seeds import fully_right_plans
from sim.measurement.traces import depth_picks


def _within(measured: float, model: float, n: int, k: float = 4.0) -> bool:
    return abs(measured - model) <= k * math.sqrt(model * (1 - model) / n)


def test_a_plan_of_length_l_is_fully_right_with_share_084_to_the_l():
    table = fully_right_plans(10000)
    for row in table.itertuples():
        assert row.model == pytest.approx(sim.expected_right_share(1) ** row.length)
        assert _within(row.share, row.model, row.plans), row
    assert sim.expected_right_share(1) == pytest.approx(0.84)


def test_right_picks_by_depth_follow_the_expected_share_not_the_draw_share():
    """Lesson 1's lines: selection(d) is the draw's share; a pick is right with selection(d) plus the
    lucky fifth of the rest. Over 400 seeds the measured share matches the second line."""
    picks = right = None
    for seed in range(400):
        table = depth_picks(seed, 8)
        picks = table["picks"].to_numpy() if picks is None else picks + table["picks"].to_numpy()
        right = table["right"].to_numpy() if right is None else right + table["right"].to_numpy()
    for depth, (n, r) in enumerate(zip(picks, right, strict=True), start=1):
        expected = sim.expected_right_share(depth)
        assert _within(r / n, expected, n), (depth, r / n, expected)
        assert not _within(
            r / n, sim.selection(depth), n, k=2.0
        )  # the draw share alone is not the pick share
    assert np.all(picks > 1000)
