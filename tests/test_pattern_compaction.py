"""The course's compacted trace (lesson 8, CP1-CP2, issue 30): option keep_last of both loops, off by
default."""

import math

import numpy as np
import pytest
from cli_run import run_cli

from sim.engine.config import PATTERN_OPTIONS, RunConfig, run_config
from sim.engine.loops import GIVEN, call_and_observe, initial_state, produced_fields
from sim.engine.runs import run_with
from sim.exercises.patterns import check_compaction_step_tokens, compaction_step_tokens
from sim.measurement.batch import batch_run
from sim.measurement.compaction_sweep import (
    compacted_steps,
    compaction_table,
    longest_resent_trace,
    sweep_runs,
    turn,
)
from sim.measurement.harness import held_out_seeds, score
from sim.model import compaction
from sim.model.costs import executor_step_tokens, loop_step_tokens, observation_tokens
from sim.model.draws import draw_stream
from sim.model.errors import InputError, InputTypeError
from sim.model.picks import selection, single_loop_pick
from sim.model.tasks import BY_NAME, TASKS

LOOPS = ("single-loop", "plan-execute")
STEP_TOKENS = {"single-loop": loop_step_tokens, "plan-execute": executor_step_tokens}
SEEDS = range(20260218, 20260258)


def same_run(first, second) -> bool:
    return (first.log, first.tokens, first.trace, first.answer, first.steps) == (
        second.log, second.tokens, second.trace, second.answer, second.steps,
    )  # fmt: skip


def recalls(run, keep_last: int) -> list[float]:
    """CP2's factor at each step of a run, replayed from its own trace: the fields each call produced
    (its observation on the state the calls before it left), then the target's needed fields."""
    state, produced, out = initial_state(BY_NAME[run.task]), {}, []
    for step in run.log:
        needed = compaction.fields_needed(step.target, GIVEN)
        out.append(compaction.recall_share(needed, produced, step.trace_length, keep_last))
        if step.tool is not None:
            observation = call_and_observe(step.tool, state, step.wrong)
            produced.update(dict.fromkeys(produced_fields(step.tool, observation), step.trace_length))
    return out


def test_off_by_default_and_a_keep_last_no_step_reaches_changes_nothing():
    assert "keep_last" in PATTERN_OPTIONS and RunConfig("single-loop").keep_last is None
    for setup in LOOPS:
        longest = longest_resent_trace(setup, 8)
        for seed in SEEDS:
            for task in TASKS:
                off = run_with(RunConfig(setup, 8), task, seed)
                assert same_run(off, run_with(run_config(setup, 8, keep_last=None), task, seed))
                assert same_run(off, run_with(RunConfig(setup, 8, keep_last=longest), task, seed))
                assert max(step.trace_length for step in off.log) <= longest


def test_off_keeps_the_source_step_formula():
    for setup in LOOPS:
        for task in TASKS:
            run = run_with(RunConfig(setup, 8), task, 20260218)
            for step in run.log:
                seen = 0 if step.tool is None else observation_tokens(step.error)
                assert step.tokens == STEP_TOKENS[setup](step.trace_length) + seen


@pytest.mark.parametrize("keep_last", [1, 2, 3, 5])
def test_cp1_a_step_resends_the_last_k_calls_and_a_summary_of_the_rest(keep_last):
    summarized_steps = 0
    for setup in LOOPS:
        for seed in SEEDS:
            for task in TASKS:
                run = run_with(RunConfig(setup, 8, keep_last=keep_last), task, seed)
                for step in run.log:
                    length, seen = (
                        step.trace_length,
                        0 if step.tool is None else observation_tokens(step.error),
                    )
                    summary = 20 + 4 * (length - keep_last) if length > keep_last else 0
                    summarized_steps += length > keep_last
                    assert step.tokens == STEP_TOKENS[setup](min(length, keep_last)) + summary + seen
                assert run.tokens == sum(step.tokens for step in run.log) + (
                    60 + 25 * len(run.plan) if run.plan else 0
                )
    assert summarized_steps > 100


def test_cp1_the_summary_costs_more_than_it_saves_when_little_is_summarized():
    assert compaction.summary_tokens(0) == 0 and compaction.summary_tokens(1) == 24
    assert list(compaction.summary_tokens(np.array([0, 1, 3]))) == [0, 24, 32]
    # one call summarized: 24 tokens for the 22 (single loop) or 10 (executor) it replaces
    assert compaction.compacted_step_tokens(loop_step_tokens, 3, 2) == loop_step_tokens(3) + 2
    assert compaction.compacted_step_tokens(executor_step_tokens, 3, 2) == executor_step_tokens(3) + 14
    assert compaction.compacted_step_tokens(loop_step_tokens, 5, 1) == loop_step_tokens(5) - 88 + 36


def test_cp2_runs_agree_with_off_up_to_the_first_pick_that_needs_a_summarized_field():
    touched = 0
    for setup in LOOPS:
        for seed in SEEDS:
            for task in TASKS:
                on, off = (run_with(RunConfig(setup, 8, keep_last=1), task, seed),
                           run_with(RunConfig(setup, 8), task, seed))  # fmt: skip
                factors = recalls(on, 1)
                first = next((i for i, f in enumerate(factors) if f < 1), len(on.log))
                picks = [(s.tool, s.right, s.error, s.held) for s in on.log[:first]]
                assert picks == [(s.tool, s.right, s.error, s.held) for s in off.log[:first]]
                if first < len(on.log) and on.log[first].tool is not None:
                    # the same draw against a lower share: right on means right off, wrong off means
                    # the same random pick on (the next draw)
                    step_on, step_off = on.log[first], off.log[first]
                    assert step_on.target == step_off.target is not None
                    assert step_off.right if step_on.right else True
                    assert step_on.tool == step_off.tool if not step_off.right else True
                    touched += 1
    assert touched > 100


def test_cp2_a_pick_needing_a_summarized_field_is_right_with_the_lowered_share():
    hits, expected, n, plain = 0, 0.0, 0, 0
    for seed in range(20260218, 20260518):
        for task in TASKS:
            run = run_with(RunConfig("single-loop", 8, keep_last=1), task, seed)
            for step, factor in zip(run.log, recalls(run, 1), strict=True):
                if step.target is None or step.tool is None:
                    continue
                if factor < 1:
                    share = selection(step.depth) * compaction.SUMMARY_RECALL
                    hits, n, expected = hits + step.right, n + 1, expected + share + (1 - share) / 5
                else:
                    plain += 1
    assert n > 1000 and plain > 1000
    sd = math.sqrt(expected * (1 - expected / n))
    assert abs(hits - expected) < 4 * sd  # lucky random picks of the target count as right (lesson 1)


def test_cp2_needs_the_model_fields_and_the_latest_producer():
    assert compaction.fields_needed("write_record", GIVEN) == ("result",)
    assert compaction.fields_needed("tariff", GIVEN) == ("m3", "type")
    assert compaction.fields_needed("read_meter", GIVEN) == () and compaction.fields_needed(None, GIVEN) == ()
    produced = {"previous": 0, "current": 0, "m3": 2}
    assert compaction.summarized_fields(("previous", "current"), produced, 3, 2) == ("previous", "current")
    assert compaction.summarized_fields(("m3", "type"), produced, 3, 2) == ()  # type never produced
    assert compaction.recall_share(("m3",), produced, 3, 1) == 1.0
    assert compaction.recall_share(("m3",), produced, 4, 1) == compaction.SUMMARY_RECALL


def test_cp2_with_recall_one_is_the_source_pick():
    for seed in range(50):
        first, second = draw_stream(seed), draw_stream(seed)
        for depth in (1, 2, 3, 4):
            assert single_loop_pick("tariff", depth, first) == compaction.recalled_pick("tariff", depth,
                                                                                        second, 1.0)  # fmt: skip


def test_the_executor_follows_its_plan_blindly_under_compaction():
    fallback = 0
    for seed in SEEDS:
        for task in TASKS:
            run = run_with(RunConfig("plan-execute", 8, keep_last=1), task, seed)
            for step in run.log:
                if step.target is not None and step.trace_length < len(run.plan):
                    assert step.tool == run.plan[step.trace_length]  # AA26: CP2 never touches these
                else:
                    fallback += step.target is not None
    assert fallback > 0


def test_the_seed_by_seed_batch_run_and_the_sweep():
    seeds = held_out_seeds(5)
    for setup in LOOPS:
        config = RunConfig(setup, 8, keep_last=2)
        batch = batch_run(config, seeds)
        for i, task in enumerate(TASKS):
            for j, seed in enumerate(seeds):
                run = run_with(config, task, int(seed))
                assert (batch.tokens[i, j], batch.steps[i, j], batch.calls[i, j]) == (
                    run.tokens, run.steps, run.calls,
                )  # fmt: skip
        runs = sweep_runs(setup, (longest_resent_trace(setup, 8), 2), seeds)
        real = batch_run(RunConfig(setup, 8, keep_last=longest_resent_trace(setup, 8)), seeds)
        assert np.array_equal(runs[longest_resent_trace(setup, 8)].tokens, real.tokens)
        assert np.array_equal(runs[2].tokens, batch.tokens)


def test_the_table_has_the_intervals_of_the_harness_score():
    seeds = held_out_seeds(20)
    table = compaction_table("single-loop", (1, 2, 8), seeds)
    assert list(table.keep_last.astype(object).fillna(0)) == [0, 1, 2, 8]
    assert table.loc[3, "tokens saved"] == 0 and table.loc[3, "success lost"] == 0
    scored = score(RunConfig("single-loop", 8, keep_last=2), RunConfig("single-loop", 8), seeds=seeds)
    tokens = scored[scored.unit == "tokens"].iloc[0]
    low, high = table.loc[2, ["saved low", "saved high"]]  # saved = off minus on: score's sign turned
    assert tokens["mean difference"] == f"{-table.loc[2, 'tokens saved']:+.2f}"
    assert tokens["95 % interval"] == f"[{-high:+.2f}, {-low:+.2f}]"
    success = scored[scored.unit == "success"].iloc[0]
    assert success["mean difference"] == f"{-table.loc[2, 'success lost']:+.4f}"
    assert turn(table)["cheapest"] in (1, 2, 8, None)


def test_turn_reads_the_table():
    import pandas as pd

    rows = {"keep_last": pd.array([None, 1, 2, 3], dtype="Int64"), "tokens per solved": [10, 9, 8, 9.5],
            "success low": [0, -0.2, -0.1, -0.05], "success high": [0, -0.1, 0.02, 0.03]}  # fmt: skip
    assert turn(pd.DataFrame(rows)) == {"cheapest": 2, "indistinguishable": 2}
    rows["tokens per solved"] = [7, 9, 8, 9.5]
    rows["success high"] = [0, -0.1, -0.01, 0.03]
    assert turn(pd.DataFrame(rows)) == {"cheapest": None, "indistinguishable": 3}


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"keep_last": 0}, InputError, "keep_last must be an integer >= 1"),
        ({"keep_last": "2"}, InputTypeError, "keep_last must be an integer >= 1"),
        ({"keep_last": True}, InputTypeError, "keep_last must be an integer >= 1"),
        ({"keep_last": 2, "common_draws": True}, InputError, "keep_last and common_draws cannot be combined"),
    ],
)
def test_bad_input_is_refused_naming_the_option(options, error, words):
    with pytest.raises(error, match=words):
        RunConfig("single-loop", 8, **options)


def test_the_contract_has_no_keep_last_and_the_sweep_checks_its_input():
    with pytest.raises(InputError, match="keep_last is an option of setup 'single-loop' or 'plan-execute'"):
        RunConfig("contract", keep_last=2)
    with pytest.raises(InputError, match="setup"):
        sweep_runs("contract", (1,), held_out_seeds(2))
    with pytest.raises(InputError, match="keep_last must be an integer >= 1"):
        sweep_runs("single-loop", (0,), held_out_seeds(2))


def test_the_cli_flag():
    plain = run_cli("table", "--setups", "single-loop", check=True).stdout
    compacted = run_cli("table", "--setups", "single-loop", "--keep-last", "2", check=True).stdout
    assert plain != compacted and "single loop" in compacted
    refused = run_cli("table", "--setups", "single-loop", "--keep-last", "0")
    assert refused.returncode == 2 and "--keep-last must be an integer >= 1" in refused.stderr
    both = run_cli("table", "--keep-last", "2", "--common-draws")
    assert both.returncode == 2 and "--keep-last and --common-draws cannot be combined" in both.stderr


def test_the_exercise_check():
    assert check_compaction_step_tokens(20260218, compaction_step_tokens).startswith("right")
    wrong = check_compaction_step_tokens(20260218, lambda length, k: 60 + 22 * min(length, k) + 24)
    assert wrong.startswith("wrong") and str(compaction_step_tokens(0, 1)) not in wrong.replace(
        "20260218", ""
    )
    assert check_compaction_step_tokens(20260218, lambda length, k: None).startswith("not answered")
    with pytest.raises(InputTypeError, match="step_tokens must be a function"):
        check_compaction_step_tokens(20260218, 3)


def test_the_step_view_shows_what_only_the_summary_holds():
    run = run_with(RunConfig("single-loop", 8, keep_last=1), BY_NAME["G05"], 20260218)
    steps = compacted_steps(run)
    assert list(steps.tokens) == [step.tokens for step in run.log]
    assert list(steps.summarized) == [max(0, step.trace_length - 1) for step in run.log]
    factors = recalls(run, 1)
    assert [lost != "-" for lost in steps["only in summary"]] == [factor < 1 for factor in factors]
    with pytest.raises(InputError, match="keep_last"):
        compacted_steps(run_with(RunConfig("single-loop", 8), BY_NAME["G05"], 20260218))
