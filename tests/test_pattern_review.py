"""Lesson 8's reviewer (RV1-RV4, sim.model.review): off changes nothing, each rule does what its words
say on the step log, the reviewer's draws are its own, the seed-by-seed BatchRun, the counts, bad input
and the CLI flag."""

import numpy as np
import pytest
from cli_run import run_cli
from scipy import stats

from sim.engine.config import RunConfig
from sim.engine.plan_schema import TOOL_SECONDS
from sim.engine.reviews import run_seconds, write_of, writes_made
from sim.engine.runs import run_with
from sim.measurement.batch import TASK_FIELDS, batch_run
from sim.measurement.review_counts import review_counts, review_differences, review_runs, review_table
from sim.model.errors import InputError, InputTypeError
from sim.model.review import (
    CATCH_SHARE,
    FALSE_REFUSAL_SHARE,
    MODEL_STEP_SECONDS,
    REVIEW_SECONDS,
    REVIEW_TOKENS,
    step_seconds,
    write_is_wrong,
)
from sim.model.tasks import ANSWERS, BY_NAME, TASKS

SETUPS = ("single-loop", "plan-execute")
SEEDS = np.arange(20360218, 20360278, dtype=np.int64)  # 60 seeds x 24 tasks a setup
RECORD = next(task for task in TASKS if task.kind == "record")
CHARGE = next(task for task in TASKS if task.kind == "charge")


def _runs(setup, **options):
    config = RunConfig(setup, 8, **options)
    return [run_with(config, task, int(seed)) for task in TASKS for seed in SEEDS]


@pytest.mark.parametrize("setup", SETUPS)
def test_off_the_runs_are_the_array_paths_and_carry_no_reviews(setup):
    """Off (the option not given): every run equals the array path (which has no reviewer code)."""
    off, lanes = review_runs(RunConfig(setup, 8), SEEDS), batch_run(RunConfig(setup, 8), SEEDS)
    for name in TASK_FIELDS:
        got = [[bool(run.answer == ANSWERS[run.task]) if name == "correct" else getattr(run, name)
                for run in row] for row in off]  # fmt: skip
        assert np.array_equal(np.array(got), getattr(lanes, name)), name
    assert all(
        run.reviews == () and not run.tripped and run.config.reviewer is None for row in off for run in row
    )


@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize("reviewer", ["blocking", "parallel"])
def test_a_run_without_a_refusal_is_the_off_run_plus_the_reviews_cost(setup, reviewer):
    """The reviewer draws from its own stream: where it refuses nothing, the run takes the off run's
    steps and tools, and costs REVIEW_TOKENS more a review (RV1)."""
    compared = 0
    for on, off in zip(_runs(setup, reviewer=reviewer), _runs(setup), strict=True):
        if any(review.refused for review in on.reviews):
            continue
        compared += 1
        assert [s.tool for s in on.log] == [s.tool for s in off.log] and on.answer == off.answer
        assert on.tokens == off.tokens + REVIEW_TOKENS * len(on.reviews)
        assert len(on.reviews) == sum(s.tool == "write_record" for s in on.log)
    assert compared > 1000


def test_blocking_a_refused_write_is_an_error_step_and_the_loop_goes_on():
    """RV2: a refused write is not made, the step is an error and paid, the loop takes more steps."""
    refused = [
        (run, review)
        for run in _runs("single-loop", reviewer="blocking")
        for review in run.reviews
        if review.refused
    ]
    assert len(refused) > 100
    for run, review in refused:
        step = run.log[review.step - 1]
        assert step.step == review.step and step.tool == "write_record" and step.error and not review.made
        assert step.tokens >= REVIEW_TOKENS and not run.tripped
    assert any(review.step < run.steps for run, review in refused)  # the loop went on after a refusal
    retried = [run for run, review in refused if any(r.step > review.step for r in run.reviews)]
    assert retried  # a later write_record is reviewed again


def test_parallel_a_refusal_trips_the_run_after_the_write():
    """RV3: the write runs beside the review; a refusal halts the run at its step, with no answer."""
    runs = _runs("plan-execute", reviewer="parallel")
    tripped = [run for run in runs if run.tripped]
    assert len(tripped) > 100
    for run in tripped:
        last = run.reviews[-1]
        assert last.refused and last.tripped and last.step == run.steps and run.log[-1].step == run.steps
        assert run.answer is None and not run.stopped
        assert last.made == (not run.log[-1].error)  # the write was made unless the tool itself failed
    assert any(run.reviews[-1].made and run.reviews[-1].wrong for run in tripped)  # a wrong write made
    assert all(not r.refused for run in runs for r in run.reviews[:-1])  # only the last review can refuse


def test_the_verdict_shares_hold_by_the_truth():
    """RV1: wrong writes refused with CATCH_SHARE, right ones with FALSE_REFUSAL_SHARE (binomial test)."""
    reviews = [
        r for run in _runs("single-loop", reviewer="blocking", argument_errors=0.1) for r in run.reviews
    ]
    for wrong, share in ((True, CATCH_SHARE), (False, FALSE_REFUSAL_SHARE)):
        group = [r.refused for r in reviews if r.wrong == wrong]
        assert len(group) > 100
        assert stats.binomtest(sum(group), len(group), share).pvalue > 0.001, (wrong, sum(group), len(group))


def test_the_truth_of_a_write():
    """RV1: only the record task's own subscriber with its correct answer is right."""
    assert not write_is_wrong(RECORD, RECORD.subscriber, ANSWERS[RECORD.name])
    assert write_is_wrong(RECORD, RECORD.subscriber, ANSWERS[RECORD.name] + 1)
    assert write_is_wrong(RECORD, "A000", ANSWERS[RECORD.name])
    assert write_is_wrong(RECORD, RECORD.subscriber, None)
    assert write_is_wrong(CHARGE, CHARGE.subscriber, ANSWERS[CHARGE.name])  # a write not asked for


def test_argument_errors_make_wrong_subscribers_the_reviewer_sees():
    """Under AE1 the review judges the write as the model filled it (a wrong subscriber or value)."""
    runs = _runs("single-loop", reviewer="blocking", argument_errors=0.1)
    bent = [(run, r) for run in runs for r in run.reviews if r.subscriber != BY_NAME[run.task].subscriber]
    assert bent and all(r.wrong for _, r in bent)
    for run in runs:
        for review in run.reviews:
            assert (review.subscriber, review.value) == write_of(run, run.log[review.step - 1])


def test_the_clock():
    """RV4 on the step log: model call + tool seconds; blocking and parallel add the review's time."""
    assert step_seconds(0) == MODEL_STEP_SECONDS
    assert step_seconds(2, "blocking") == MODEL_STEP_SECONDS + REVIEW_SECONDS + 2
    assert step_seconds(2, "blocking", refused=True) == MODEL_STEP_SECONDS + REVIEW_SECONDS
    assert step_seconds(2, "parallel", refused=True) == MODEL_STEP_SECONDS + max(2, REVIEW_SECONDS)
    for setup, planning in (("single-loop", 0), ("plan-execute", 1)):
        for run in _runs(setup, reviewer="blocking")[:300]:
            reviewed = {r.step: r for r in run.reviews}
            expected = planning * MODEL_STEP_SECONDS
            for step in run.log:
                seconds = TOOL_SECONDS.get(step.tool, 0)
                if step.step in reviewed:
                    seconds = REVIEW_SECONDS + (0 if reviewed[step.step].refused else seconds)
                expected += MODEL_STEP_SECONDS + seconds
            assert run_seconds(run) == expected


@pytest.mark.parametrize("setup", SETUPS)
def test_seed_by_seed_batch_run_holds_the_reviewed_runs(setup):
    config = RunConfig(setup, 6, reviewer="parallel")
    collected, grid = batch_run(config, SEEDS[:12]), review_runs(config, SEEDS[:12])
    assert np.array_equal(collected.tokens, [[run.tokens for run in row] for row in grid])
    assert np.array_equal(
        collected.correct, [[run.answer == ANSWERS[run.task] for run in row] for row in grid]
    )


def test_counts_add_up_against_the_runs():
    grid = review_runs(RunConfig("single-loop", 8, reviewer="blocking"), SEEDS[:20])
    off = review_runs(RunConfig("single-loop", 8), SEEDS[:20])
    counts, flat = review_counts(grid), [run for row in grid for run in row]
    assert counts["runs"] == len(flat) == 480 and counts["trips"] == 0
    assert counts["reviews"] == sum(s.tool == "write_record" for run in flat for s in run.log)
    assert counts["wrong writes made"] == sum(sum(writes_made(run)) for run in flat)
    assert counts["wrong writes prevented"] + counts["empty writes refused"] <= counts["reviews"]
    assert counts["right writes lost"] <= counts["right writes refused"]
    assert (
        review_counts(off)["reviews"] == 0
        and review_counts(off)["wrong writes made"] > counts["wrong writes made"]
    )
    table = review_table({"off": off, "blocking": grid})
    assert list(table.index) == ["off", "blocking"] and table.loc["off", "runs"] == 480
    differences = review_differences(grid, off)
    assert differences.loc["tokens", "low"] > 0 and differences.loc["wrong writes made", "high"] < 0


def test_bad_input():
    with pytest.raises(InputError, match="reviewer must be one of blocking, parallel"):
        RunConfig("single-loop", reviewer="sometimes")
    with pytest.raises(InputTypeError, match="reviewer"):
        RunConfig("plan-execute", reviewer=True)
    with pytest.raises(InputError, match="reviewer is an option of setup"):
        RunConfig("contract", reviewer="blocking")
    for other in ("common_draws", "lookalike"):
        with pytest.raises(InputError, match=f"reviewer and {other} cannot be combined"):
            RunConfig("single-loop", reviewer="parallel", **{other: True})
    with pytest.raises(InputTypeError):
        run_seconds("G01")
    with pytest.raises(InputError, match="config must be of setup"):
        review_runs(RunConfig("contract"), SEEDS[:2])
    with pytest.raises(InputError, match="same seeds"):
        review_differences(review_runs(RunConfig("single-loop"), SEEDS[:3]),
                           review_runs(RunConfig("single-loop"), SEEDS[1:4]))  # fmt: skip


def test_the_cli_flag():
    off = run_cli("table", "--setups", "single-loop,plan-execute", check=True).stdout
    on = run_cli("table", "--setups", "single-loop,plan-execute", "--reviewer", "blocking", check=True)
    assert on.stdout != off and "single loop" in on.stdout
    bad = run_cli("table", "--setups", "single-loop", "--reviewer", "always")
    assert bad.returncode != 0 and "--reviewer" in bad.stderr and "blocking" in bad.stderr
    assert "--reviewer" in run_cli("trace", "--help", check=True).stdout


def test_the_exercise_says_right_or_wrong_without_the_answer():
    from sim.exercises.patterns import check_review_prevented, review_prevented, review_runs_to_check

    seed = 20260219
    assert check_review_prevented(seed, review_prevented).startswith("right")
    naive = check_review_prevented(seed, lambda run: sum(r.wrong and r.refused for r in run.reviews))
    assert naive.startswith("wrong") and "at seed" in naive
    assert check_review_prevented(seed, lambda run: None).startswith("not answered")
    assert check_review_prevented(seed, lambda run: 1.0).startswith("wrong")
    runs = review_runs_to_check(seed)
    assert sum(map(review_prevented, runs)) > 0 and any(
        r.empty and r.refused for run in runs for r in run.reviews
    )
    with pytest.raises(InputTypeError):
        check_review_prevented(seed, 3)
    with pytest.raises(InputTypeError):
        check_review_prevented("seed", review_prevented)


def test_the_differences_agree_with_the_harness_score():
    """review_differences and the harness's score (through the seed-by-seed BatchRun) give one interval."""
    from sim.measurement.harness import held_out_seeds, score

    seeds = held_out_seeds(20)
    on, off = RunConfig("plan-execute", 8, reviewer="blocking"), RunConfig("plan-execute", 8)
    mine = review_differences(review_runs(on, seeds), review_runs(off, seeds)).loc["tokens"]
    table = score(on, off, seeds=seeds).set_index("unit")
    assert table.loc["tokens", "95 % interval"] == f"[{mine['low']:+.2f}, {mine['high']:+.2f}]"


def test_the_runtimes_view_a_refused_write_is_not_held_and_a_trip_is_its_own_stop_reason():
    """The exit state is the runtime's claim: a blocked write left nothing written (RV2); a trip's stop
    reason is the tripwire (RV3), beside the truth of the write in the review."""
    from sim.engine.exit_states import TRIPWIRE, observed_fields, stop_reason_of

    task, seed = BY_NAME["G15"], 20260219
    blocked = run_with(RunConfig("single-loop", 8, argument_errors=0.1, reviewer="blocking"), task, seed)
    assert blocked.reviews and all(r.refused and not r.made for r in blocked.reviews)
    assert "written" not in observed_fields(blocked) and stop_reason_of(blocked) == "max_steps"
    tripped = run_with(RunConfig("single-loop", 8, argument_errors=0.1, reviewer="parallel"), task, seed)
    assert tripped.tripped and stop_reason_of(tripped) == TRIPWIRE and tripped.reviews[-1].wrong
    off = run_with(RunConfig("single-loop", 8, argument_errors=0.1), task, seed)
    assert "written" in observed_fields(off) and stop_reason_of(off) != TRIPWIRE
