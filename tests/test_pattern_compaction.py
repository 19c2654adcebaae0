"""The course's compacted trace (lesson 8, CP1-CP2, issue 30): option keep_last of both loops, off by
default."""

import math

import numpy as np
import pytest
from cli_run import run_cli

from sim.engine.config import PATTERN_OPTIONS, RunConfig, run_config
from sim.engine.loops import (
    GIVEN,
    OUTPUT_FIELDS,
    RESULT_FIELDS,
    Loop,
    call_and_observe,
    initial_state,
    produced_fields,
    run_loop,
)
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
from sim.model.draws import draw_stream, stream_key
from sim.model.errors import InputError, InputTypeError
from sim.model.picks import draws_among, executor_pick, selection, single_loop_pick, write_plan
from sim.model.tasks import BY_NAME, TASKS
from sim.model.world import IMITATES, TOOL_NAMES, WORLD_TOOLS

LOOPS = ("single-loop", "plan-execute")
STEP_TOKENS = {"single-loop": loop_step_tokens, "plan-execute": executor_step_tokens}
SEEDS = range(20260218, 20260258)


def same_run(first, second) -> bool:
    return (first.log, first.tokens, first.trace, first.answer, first.steps) == (
        second.log, second.tokens, second.trace, second.answer, second.steps,
    )  # fmt: skip


def summarized_needs(run, keep_last: int) -> list[bool]:
    """Whether CP2 applies at each step of a run, replayed from its own trace: the fields each call
    produced (its observation on the state the calls before it left), then whether the target needs one
    only a summarized call produced; never at a blind plan position of the executor (AA26)."""
    state, produced, out = initial_state(BY_NAME[run.task]), {}, []
    for step in run.log:
        needed = compaction.fields_needed(step.target, GIVEN)
        blind = run.plan is not None and step.target is not None and step.trace_length < len(run.plan)
        lost = compaction.summarized_fields(needed, produced, step.trace_length, keep_last)
        out.append(bool(lost) and not blind)
        if step.tool is not None:
            observation = call_and_observe(step.tool, state, step.wrong)
            if "error" not in observation:
                fields = [name for name in observation if name not in GIVEN]
                fields += ["result"] if IMITATES.get(step.tool, step.tool) in RESULT_FIELDS else []
                produced.update(dict.fromkeys(fields, step.trace_length))
    return out


def ordinary_and_final_picks(setup: str, config: RunConfig, task, seed: int):
    """A run made as the setup makes it (`single_loop`, `plan_execute`), its ordinary picks (the setup's
    pick before CP2, with the setup's own draws) recorded: (the run, [(target, ordinary pick)])."""
    planner = setup == "plan-execute"
    draw = draws_among(draw_stream(stream_key(seed, task.name, planner=planner)), config.tools)
    plan = write_plan(task.sequence, draw) if planner else None
    ordinary = []

    def pick(target, depth, calls):
        tool = (
            executor_pick(plan, calls, target, depth, draw)
            if planner
            else single_loop_pick(target, depth, draw)
        )
        ordinary.append((target, tool))
        return tool

    run = run_loop(Loop(task, seed, config, pick, STEP_TOKENS[setup], plan))
    assert same_run(run, run_with(config, task, seed))  # the replica is the setup
    return run, ordinary


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


def test_cp2_runs_agree_with_off_up_to_the_first_right_pick_it_replaces():
    touched = 0
    for setup in LOOPS:
        for seed in SEEDS:
            for task in TASKS:
                on, off = (run_with(RunConfig(setup, 8, keep_last=1), task, seed),
                           run_with(RunConfig(setup, 8), task, seed))  # fmt: skip
                applies = summarized_needs(on, 1)
                seen = [(s.target, s.tool, s.right, s.error, s.held) for s in on.log]
                plain = [(s.target, s.tool, s.right, s.error, s.held) for s in off.log]
                first = next(
                    (i for i, pair in enumerate(zip(seen, plain, strict=False)) if pair[0] != pair[1]), None
                )
                if first is None:
                    assert seen == plain  # the rule replaced no pick: the same run, CP1's tokens aside
                    continue
                # the first difference: a right pick (off's) the rule replaced by another tool
                step_on, step_off = on.log[first], off.log[first]
                assert applies[first] and step_off.right and step_on.target == step_off.target
                assert step_on.tool != step_on.target and step_on.tool in TOOL_NAMES
                touched += 1
    assert touched > 100


@pytest.mark.parametrize("setup", LOOPS)
def test_cp2_on_the_step_log_a_right_pick_stays_right_with_the_share_else_another_tool(setup):
    kept = replaced = unchanged = wrong = 0
    others = {tool: dict.fromkeys(TOOL_NAMES, 0) for tool in TOOL_NAMES}  # target -> the tool taken instead
    config = RunConfig(setup, 8, keep_last=1)
    for seed in range(20260218, 20260418):
        for task in TASKS:
            run, ordinary = ordinary_and_final_picks(setup, config, task, seed)
            assert len(ordinary) == len(run.log)  # no goal stop: one pick a step
            for step, (target, pick), applies in zip(
                run.log, ordinary, summarized_needs(run, 1), strict=True
            ):
                assert target == step.target
                if not applies:
                    assert step.tool == pick  # untouched: the ordinary pick
                    unchanged += 1
                elif pick != target:
                    assert step.tool == pick  # a wrong pick stays as it is
                    wrong += 1
                elif step.tool == target:
                    kept += 1
                else:
                    assert step.tool in TOOL_NAMES and step.tool != target
                    others[target][step.tool] += 1
                    replaced += 1
    n = kept + replaced
    assert n > 1000 and unchanged > 1000 and wrong > 100
    assert abs(kept - 0.6 * n) < 4 * math.sqrt(n * 0.6 * 0.4)  # SUMMARY_RECALL
    # the other tool is uniform among the other four, for each target the rule meets
    assert sum(sum(taken.values()) for taken in others.values()) == replaced
    met = 0
    for target, taken in others.items():
        each = sum(taken.values()) / 4
        if each >= 25:
            met += 1
            assert taken[target] == 0
            assert all(abs(taken[tool] - each) < 4 * math.sqrt(each) for tool in TOOL_NAMES if tool != target)
    assert met >= 2


def test_cp2_a_pick_needing_a_summarized_field_is_right_with_the_lowered_share():
    hits, expected, n, plain = 0, 0.0, 0, 0
    for seed in range(20260218, 20260518):
        for task in TASKS:
            run = run_with(RunConfig("single-loop", 8, keep_last=1), task, seed)
            for step, applies in zip(run.log, summarized_needs(run, 1), strict=True):
                if step.target is None or step.tool is None:
                    continue
                if applies:  # right with 0.6 x the source's share, lucky random picks counted (lesson 1)
                    share = selection(step.depth)
                    hits, n = hits + step.right, n + 1
                    expected += compaction.SUMMARY_RECALL * (share + (1 - share) / 5)
                else:
                    plain += 1
    assert n > 1000 and plain > 1000
    sd = math.sqrt(expected * (1 - expected / n))
    assert abs(hits - expected) < 4 * sd


def test_cp2_the_other_tool_is_uniform_among_the_run_tool_set():
    for tools in (TOOL_NAMES, (*TOOL_NAMES, "estimate_use")):
        for tool in tools:
            draw = compaction.recall_draws(20260218, "G05/" + tool)
            picks = [compaction.recalled(tool, draw, tools) for _ in range(20000)]
            n, others = len(picks), [name for name in tools if name != tool]
            stay = picks.count(tool)
            assert abs(stay - 0.6 * n) < 4 * math.sqrt(n * 0.6 * 0.4)
            assert set(picks) == {tool, *others}
            each = (n - stay) / len(others)
            for name in others:
                assert abs(picks.count(name) - each) < 4 * math.sqrt(each)
    # its own stream: apart from the loop's and the reviewer's
    assert stream_key(20260218, "compaction/G05") not in (stream_key(20260218, "G05"),
                                                          stream_key(20260218, "review/G05"))  # fmt: skip


def test_cp2_under_the_look_alike_the_other_tool_may_be_the_look_alike():
    replaced = set()
    config = RunConfig("single-loop", 8, keep_last=1, lookalike=True)
    for seed in SEEDS:
        for task in TASKS:
            run, ordinary = ordinary_and_final_picks("single-loop", config, task, seed)
            for step, (target, pick) in zip(run.log, ordinary, strict=True):
                if pick == target is not None and step.tool != target:
                    replaced.add(step.tool)
    assert "estimate_use" in replaced and replaced <= set(config.tools)


def test_the_output_fields_are_what_each_tool_folds_into_the_state():
    checked = set()
    for task in TASKS:
        for tools in (task.sequence, [("estimate_use" if t == "consumption" else t) for t in task.sequence]):
            state = initial_state(task)
            for tool in tools:
                before = dict(state)
                observation = call_and_observe(tool, state, ())
                if "error" in observation:
                    assert produced_fields(tool, True) == ()
                    break
                changed = {name for name in state if name not in before or state[name] != before[name]}
                fields = {name for name in observation if name not in GIVEN}
                fields |= {"result"} if IMITATES.get(tool, tool) in RESULT_FIELDS else set()
                assert set(produced_fields(tool, False)) == set(OUTPUT_FIELDS[tool]) == fields >= changed
                checked.add(tool)
    assert checked == set(WORLD_TOOLS) == set(OUTPUT_FIELDS)


def test_cp2_needs_the_model_fields_and_the_latest_producer():
    assert compaction.fields_needed("write_record", GIVEN) == ("result",)
    assert compaction.fields_needed("tariff", GIVEN) == ("m3", "type")
    assert compaction.fields_needed("read_meter", GIVEN) == () and compaction.fields_needed(None, GIVEN) == ()
    produced = {"previous": 0, "current": 0, "m3": 2}
    assert compaction.summarized_fields(("previous", "current"), produced, 3, 2) == ("previous", "current")
    assert compaction.summarized_fields(("m3", "type"), produced, 3, 2) == ()  # type never produced
    assert compaction.summarized_fields(("m3",), produced, 3, 1) == ()
    assert compaction.summarized_fields(("m3",), produced, 4, 1) == ("m3",)


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
    assert tokens["mean difference"] == f"{0.0 - table.loc[2, 'tokens saved']:+.2f}"
    assert tokens["95 % interval"] == f"[{-high:+.2f}, {-low:+.2f}]"
    success = scored[scored.unit == "success"].iloc[0]
    # 0.0 minus: a difference of exactly 0 is printed +0.0000 by the score, never -0.0000
    assert success["mean difference"] == f"{0.0 - table.loc[2, 'success lost']:+.4f}"
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
    assert [lost != "-" for lost in steps["only in summary"]] == summarized_needs(
        run, 1
    )  # no plan: never blind
    with pytest.raises(InputError, match="keep_last"):
        compacted_steps(run_with(RunConfig("single-loop", 8), BY_NAME["G05"], 20260218))
