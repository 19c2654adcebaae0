"""The course's rules RF1-RF3 (issue 30, lesson 8): reflection after a tool error, with the error's
feedback or intrinsic, and misleading feedback; off by default."""

import math

import numpy as np
import pytest
from cli_run import run_cli

import sim
from sim.engine.config import RunConfig
from sim.engine.loops import call_and_observe, call_arguments, initial_state
from sim.engine.runs import run_task, run_with
from sim.measurement.batch import TASK_FIELDS, batch_run
from sim.measurement.harness import held_out_seeds, score
from sim.measurement.reflection_flips import (
    flips_over,
    reflection_batch,
    reflection_flips,
    reflection_score,
    reflection_table,
)
from sim.model.costs import executor_step_tokens, loop_step_tokens, observation_tokens
from sim.model.errors import InputError, InputTypeError
from sim.model.reflection import (
    FEEDBACK_SHARE,
    INTRINSIC_TOKENS,
    REFLECTION_TOKENS,
    RIGHT_TO_WRONG,
    SUPPLIERS,
    WRONG_TO_RIGHT,
    feedback_pick,
    intrinsic_pick,
    supplier,
)
from sim.model.world import TOOL_NAMES, run_tool

LOOPS = ("single-loop", "plan-execute")
SEEDS = range(20260218, 20260278)
STEP_TOKENS = {"single-loop": loop_step_tokens, "plan-execute": executor_step_tokens}


def _runs(setup, seeds=SEEDS, **options):
    config = RunConfig(setup, 8, **options)
    return [run_with(config, task, seed) for seed in seeds for task in sim.TASKS]


def _replayed(run):
    """Each step of a run with the state before it (replayed from the task's request)."""
    state = initial_state(next(task for task in sim.TASKS if task.name == run.task))
    for step in run.log:
        before = dict(state)
        if step.tool is not None:
            call_and_observe(step.tool, state, step.wrong)
        yield step, before


@pytest.mark.parametrize("setup", LOOPS)
def test_off_changes_nothing_the_one_seed_path_equals_the_array_path(setup):
    seeds = np.arange(20260218, 20260258, dtype=np.int64)
    plain = batch_run(RunConfig(setup, 8), seeds)  # the array path has no reflection hook
    collected, flips = reflection_batch(RunConfig(setup, 8, reflection=None), seeds)
    for name in TASK_FIELDS:
        assert np.array_equal(getattr(plain, name), getattr(collected, name)), name
    assert flips.revised == 0
    assert all(step.revised_from is None for run in _runs(setup, seeds[:5].tolist()) for step in run.log)


def test_each_supplier_supplies_its_field():
    state = next(initial_state(task) for task in sim.TASKS if task.sequence[-1] == "write_record")
    observed = {tool: call_and_observe(tool, state) for tool in ("read_meter", "consumption", "tariff")}
    for field, tool in SUPPLIERS.items():  # a record's value is the answer held, tariff's amount
        assert field in observed[tool] or (field == "value" and state["result"] == observed[tool]["amount"])
    assert "error" not in run_tool("write_record", {**state, "value": state["result"]})
    assert supplier("tariff", {"type": "residential"}) == "consumption"
    assert supplier("consumption", {}) == "read_meter"
    assert supplier("write_record", {"subscriber": "A001", "column": "charge", "value": None}) == "tariff"
    assert supplier("read_meter", {"subscriber": "A999"}) is None  # no such subscriber: no field lacked
    assert supplier("search_docs", {"query": "zzz"}) is None


@pytest.mark.parametrize("setup", LOOPS)
def test_rf1_after_an_error_the_next_pick_follows_the_feedback_at_the_stated_share(setup):
    followed = revisable = unrevisable = 0
    for run in _runs(setup, range(20260218, 20260418), reflection="feedback"):
        steps = list(_replayed(run))
        for (previous, _), (step, before) in zip(steps, steps[1:], strict=False):
            if step.target is None or step.tool is None or not previous.error:
                assert step.revised_from is None  # the rule acts only after an error, job not done
                continue
            named = supplier(previous.tool, call_arguments(previous.tool, before))
            if named is None:
                unrevisable += 1
                assert step.revised_from is None
                continue
            revisable += 1
            followed += step.tool == named
            if step.revised_from is not None:
                assert step.tool == named and step.revised_from != named
    assert revisable > 1000 and unrevisable == 0  # every tool error of the 24 tasks lacks a field
    share = followed / revisable  # followed, or the ordinary pick was the supplier already
    assert FEEDBACK_SHARE - 0.02 < share < FEEDBACK_SHARE + 0.1 * (1 - FEEDBACK_SHARE) + 0.03


@pytest.mark.parametrize("setup", LOOPS)
def test_rf1_charges_its_tokens_on_each_error_step_as_the_self_critique_does(setup):
    for run in _runs(setup, range(20260218, 20260228), reflection="feedback"):
        for step in run.log:
            paid = STEP_TOKENS[setup](step.trace_length)
            if step.tool is not None:
                paid += observation_tokens(step.error) + REFLECTION_TOKENS * step.error
            assert step.tokens == paid


def test_rf1_tokens_equal_the_self_critiques_on_the_same_calls():
    for seed in range(20260218, 20260228):
        for task in sim.TASKS:
            feedback = run_task("single-loop", task, seed, 8, reflection="feedback")
            critique = run_task("single-loop", task, seed, 8, self_critique=True)
            if all(step.revised_from is None for step in feedback.log):
                assert (feedback.tokens, feedback.trace) == (critique.tokens, critique.trace)


@pytest.mark.parametrize("setup", LOOPS)
def test_before_the_first_revision_the_run_is_the_ordinary_run(setup):
    for seed in range(20260218, 20260238):
        for task in sim.TASKS:
            for kind in ("feedback", "intrinsic"):
                on, off = run_task(setup, task, seed, 8, reflection=kind), run_task(setup, task, seed, 8)
                first = next((i for i, s in enumerate(on.log) if s.revised_from is not None), len(on.log))
                for a, b in zip(on.log[:first], off.log, strict=False):
                    assert (a.tool, a.target, a.error, a.held) == (b.tool, b.target, b.error, b.held)
                if first < len(on.log):  # the ordinary pick at the first revision is the run's own
                    assert on.log[first].revised_from == off.log[first].tool


def test_rf3_misleading_feedback_names_another_tool():
    tools = TOOL_NAMES
    assert feedback_pick("tariff", "read_meter", tools, (0.1, 0.9, 0.0), 0.5) == "read_meter"
    assert feedback_pick("tariff", "read_meter", tools, (0.95, 0.0, 0.0), 0.5) == "tariff"
    assert feedback_pick("tariff", None, tools, (0.0, 0.9, 0.0), None) == "tariff"
    wrong = {
        feedback_pick("tariff", "read_meter", tools, (0.1, 0.2, u), 0.5) for u in np.linspace(0, 0.99, 40)
    }
    assert wrong == set(tools) - {"read_meter"}
    named = revisable = 0
    for run in _runs(
        "single-loop", range(20260218, 20260418), reflection="feedback", misleading_feedback=0.5
    ):
        steps = list(_replayed(run))
        for (previous, _), (step, before) in zip(steps, steps[1:], strict=False):
            if previous.error and step.target is not None and step.tool is not None:
                supplied = supplier(previous.tool, call_arguments(previous.tool, before))
                if supplied is not None:
                    revisable += 1
                    named += step.tool == supplied
    assert revisable > 1000 and named / revisable < FEEDBACK_SHARE * 0.5 + 0.2  # well below RF1's


def test_rf2_critiques_every_pick_and_flips_at_the_stated_shares():
    right_picks = right_flipped = wrong_picks = wrong_flipped = 0
    for setup in LOOPS:
        for run in _runs(setup, range(20260218, 20260318), reflection="intrinsic"):
            for step in run.log:
                critiqued = step.tool is not None and step.target is not None
                paid = STEP_TOKENS[setup](step.trace_length)
                if step.tool is not None:
                    paid += observation_tokens(step.error) + INTRINSIC_TOKENS * critiqued
                assert step.tokens == paid
                if not critiqued:
                    assert step.revised_from is None
                    continue
                ordinary = step.revised_from or step.tool
                if ordinary == step.target:
                    right_picks += 1
                    right_flipped += step.revised_from is not None and step.tool != step.target
                else:
                    wrong_picks += 1
                    wrong_flipped += step.tool == step.target
                    assert step.revised_from is None or step.tool == step.target  # only to the right one
    for flipped, picks, share in ((right_flipped, right_picks, RIGHT_TO_WRONG),
                                  (wrong_flipped, wrong_picks, WRONG_TO_RIGHT)):  # fmt: skip
        assert picks > 2000 and abs(flipped / picks - share) < 4 * math.sqrt(share * (1 - share) / picks)


def test_rf2_pure_rule():
    assert intrinsic_pick("read_meter", "read_meter", TOOL_NAMES, (0.5, 0.0)) == "read_meter"
    assert intrinsic_pick("read_meter", "read_meter", TOOL_NAMES, (0.05, 0.0)) != "read_meter"
    assert intrinsic_pick("tariff", "read_meter", TOOL_NAMES, (0.04, 0.0)) == "read_meter"
    assert intrinsic_pick("tariff", "read_meter", TOOL_NAMES, (0.06, 0.0)) == "tariff"


def test_in_the_split_a_revised_call_uses_up_the_plans_position():
    seen = 0
    for run in _runs("plan-execute", reflection="feedback"):
        for step in run.log:
            if step.tool is not None and step.target is not None and step.trace_length < len(run.plan):
                assert (step.revised_from or step.tool) == run.plan[step.trace_length]  # indexed by calls
                seen += step.revised_from is not None
    assert seen > 100


def test_flips_counted_from_the_log():
    run = run_task("plan-execute", "G05", 20260218, 8, reflection="feedback")
    assert [s.revised_from for s in run.log] == [None, None, "tariff", None, None, None]
    assert reflection_flips(run) == (1, 0)
    assert reflection_flips(run_task("single-loop", "G05", 20260218, 8)) == (0, 0)
    flips = flips_over(RunConfig("single-loop", 8, reflection="intrinsic"), [20260218, 20260219])
    by_run = [reflection_flips(r) for r in _runs("single-loop", [20260218, 20260219], reflection="intrinsic")]
    assert (flips.wrong_to_right, flips.right_to_wrong) == tuple(map(sum, zip(*by_run, strict=True)))
    assert flips.wrong_to_wrong == 0 and flips.runs == 48
    with pytest.raises(InputTypeError, match="run must be"):
        reflection_flips("G05")
    with pytest.raises(InputError, match="config must be of setup"):
        flips_over(RunConfig("contract"), [1])


@pytest.mark.parametrize("setup", LOOPS)
def test_the_batch_and_the_harness_run_it_seed_by_seed(setup):
    seeds, config = held_out_seeds(5), RunConfig(setup, 8, reflection="feedback")
    collected, _ = reflection_batch(config, seeds)
    batch = batch_run(config, seeds)
    for name in TASK_FIELDS:
        assert np.array_equal(getattr(batch, name), getattr(collected, name)), name
    table = score(config, RunConfig(setup, 8), seeds=seeds)
    assert list(table["unit"])[0] == "success"
    same, flips = reflection_score(config, RunConfig(setup, 8), seeds)
    assert same.equals(table) and flips == flips_over(config, seeds)
    shown = reflection_table(RunConfig(setup, 8), {"feedback": config}, seeds)
    assert shown.loc[0, "tokens"] == pytest.approx(
        (batch.tokens.sum() - batch_run(RunConfig(setup, 8), seeds).tokens.sum()) / 5
    )


@pytest.mark.parametrize(
    ("options", "kind", "words"),
    [
        ({"reflection": "both"}, InputError, "reflection must be one of feedback, intrinsic"),
        ({"reflection": 1}, InputTypeError, "reflection must be one of"),
        ({"misleading_feedback": 0.2}, InputError, "misleading_feedback needs reflection='feedback'"),
        ({"reflection": "intrinsic", "misleading_feedback": 0.2}, InputError, "misleading_feedback needs"),
        ({"reflection": "feedback", "misleading_feedback": 1.5}, InputError, "strictly between 0 and 1"),
        ({"reflection": "feedback", "common_draws": True}, InputError, "reflection and common_draws"),
        ({"reflection": "feedback", "lookalike": True}, InputError, "reflection and lookalike"),
        ({"reflection": "intrinsic", "self_critique": True}, InputError, "reflection and self_critique"),
    ],
)
def test_bad_input_is_refused_naming_the_options(options, kind, words):
    with pytest.raises(kind, match=words):
        RunConfig("single-loop", 8, **options)


def test_the_contract_has_no_reflection():
    with pytest.raises(InputError, match="reflection is an option of setup 'single-loop' or 'plan-execute'"):
        RunConfig("contract", 8, reflection="feedback")


def test_the_cli_flags():
    plain = run_cli("table", "--setups", "single-loop,plan-execute", check=True).stdout
    on = run_cli(
        "table", "--setups", "single-loop,plan-execute", "--reflection", "feedback", check=True
    ).stdout
    assert on != plain and on.splitlines()[0] == plain.splitlines()[0]
    misled = run_cli("table", "--setups", "plan-execute", "--reflection", "feedback",
                     "--misleading-feedback", "0.3", check=True).stdout  # fmt: skip
    assert misled.splitlines()[1] != on.splitlines()[3]
    bad = run_cli("table", "--reflection", "sometimes")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
    alone = run_cli("table", "--misleading-feedback", "0.3")
    assert alone.returncode != 0 and "--misleading-feedback needs --reflection" in alone.stderr


def test_the_exercise_says_right_or_wrong_without_the_answer():
    from sim.exercises.patterns import check_reflection_flips, reflection_runs

    def by_the_log(run):
        revised = [s for s in run.log if s.revised_from is not None]
        return (sum(s.tool == s.target for s in revised), sum(s.revised_from == s.target for s in revised))

    def every_revision(run):
        return (sum(s.revised_from is not None for s in run.log), 0)

    assert check_reflection_flips(20260218, by_the_log).startswith("right")
    wrong = check_reflection_flips(20260218, every_revision)
    first = next(run for run in reflection_runs(20260218) if every_revision(run) != reflection_flips(run))
    assert wrong.startswith("wrong") and f"task {first.task}" in " ".join(wrong.split())
    assert check_reflection_flips(20260219, lambda run: None).startswith("not answered yet")
    with pytest.raises(InputTypeError, match="count_flips must be a function"):
        check_reflection_flips(20260218, 3)


def printed_by(lesson: str) -> str:
    """Every text a lesson notebook's stored outputs print."""
    import json
    from pathlib import Path

    notebook = json.loads((Path(__file__).resolve().parents[1] / "lessons" / lesson).read_text())
    return "".join(
        "".join(output.get("text", ""))
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
        for output in cell.get("outputs", [])
    )


def test_the_step_lesson_1_shows_is_unchanged():
    from sim.engine import loops
    from sim.presentation.showcode import code_of

    printed = printed_by("01_single_loop.ipynb")
    assert code_of(loops.take_step) in printed  # the hooks sit in run_loop and the pick, not in take_step


def test_the_split_lesson_2_shows_is_unchanged():
    from sim.engine import loops
    from sim.presentation.showcode import code_of

    assert "def plan_execute(" in code_of(loops.plan_execute)
    assert code_of(loops.plan_execute) in printed_by("02_planner_executor.ipynb")  # the patterns: in Loop


# the source's single loop (main, before lesson 8), which no lesson prints: lesson 8's patterns hook into
# Loop and run_loop, never into the setups' own functions
SOURCE_SINGLE_LOOP = '''def single_loop(task: Task, seed: int, config: RunConfig) -> Run:
    """The single loop on a checked task, seed and config; random picks draw among the config's tools."""
    draw = draws_among(draw_stream(stream_key(seed, task.name)), config.tools)

    def pick(target, depth, calls):
        return single_loop_pick(target, depth, draw)

    return run_loop(Loop(task, seed, config, pick, loop_step_tokens))
'''


def test_the_single_loop_is_the_source_one():
    import inspect

    from sim.engine import loops

    assert inspect.getsource(loops.single_loop) == SOURCE_SINGLE_LOOP
