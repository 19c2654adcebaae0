"""The batch path against the seed's own listing and the one-seed path: every per-(task, seed) outcome equal.

Two references, neither of them the batch path: the 288,000 runs of the source lesson's own
listing (tests/golden/, which sim's one-seed path reproduces row for row in
tests/test_sim_golden.py), at every budget 1..12 over its 200 seeds; and the readable one-seed
path (`sim.run_task`), called task by task and seed by seed, over 1,009 seeds spread over the
whole seed range, edges included. The batch path must give the same correct-answer flag,
steps, tool calls, tokens, tool errors, approvals and stop flag for every task and seed, in
both setups and with all four combinations of the single loop's switches.
"""

import functools

import numpy as np
import pytest
from golden_runs import CONFIGS, golden_by_config

from sim import TASKS, correct_answer, is_correct, run_task
from sim.engine.config import RunConfig
from sim.engine.contract import contract_run
from sim.measurement.batch import (
    TASK_FIELDS,
    batch_run,
    measure_batch,
    run_batch,
    seed_by_seed,
    study_seeds,
    tool_machine,
)
from sim.measurement.batch_contract import contract_batch
from sim.measurement.counts import measure
from sim.model.world import TOOL_NAMES, call_tool

EDGES = [0, 1, 2, 2**31 - 1, 2**31, 20260218, 20260219, 2**32 - 2, 2**32 - 1]
SEEDS = np.unique(
    np.concatenate([EDGES, np.random.default_rng(5).integers(0, 2**32, size=1000, dtype=np.int64)])
)
LISTING_BUDGETS = range(1, 13)
ONE_SEED_BUDGET = 12  # the longest runs: the most draws per task and seed
SWITCHES = [(False, False), (True, False), (False, True), (True, True)]
CASES = [("single-loop", critique, approval) for critique, approval in SWITCHES] + [
    ("plan-execute", False, False)
]
FIELDS = ("correct", "steps", "calls", "tokens", "errors", "approvals", "stopped")


def _reference(setup, seeds, budget, self_critique, approval):
    """The one-seed path's outcomes, arrays of shape (24, n_seeds) in FIELDS order."""
    out = {name: np.zeros((len(TASKS), len(seeds)), dtype=np.int64) for name in FIELDS}
    for t, task in enumerate(TASKS):
        for j, seed in enumerate(seeds):
            run = run_task(setup, task, int(seed), budget, self_critique=self_critique, approval=approval)
            values = (is_correct(run), *(getattr(run, name) for name in FIELDS[1:]))
            for name, value in zip(FIELDS, values, strict=True):
                out[name][t, j] = value
    return out


@functools.cache
def _listing(config):
    """The listing's outcomes for one (setup, switches): seeds, and per budget arrays (24, n_seeds) in
    FIELDS order. Tool calls are the trace's length; a run stopped when it took a step beyond its
    calls (and the split's planning step), the step on which the agent stopped."""
    rows = golden_by_config()[config]
    seeds = np.array(sorted({int(row["seed"]) for row in rows}), dtype=np.int64)
    column = {int(seed): j for j, seed in enumerate(seeds)}
    task_index = {task.name: t for t, task in enumerate(TASKS)}
    right = {task.name: repr(correct_answer(task)) for task in TASKS}
    planning = 1 if config[0] == "plan-execute" else 0
    out = {
        b: {name: np.zeros((len(TASKS), len(seeds)), dtype=np.int64) for name in FIELDS}
        for b in LISTING_BUDGETS
    }
    for row in rows:
        at = (task_index[row["task"]], column[int(row["seed"])])
        steps, calls = int(row["steps"]), len(row["trace"])
        values = (row["answer"] == right[row["task"]], steps, calls, int(row["tokens"]), int(row["errors"]),
                  int(row["approvals"]), steps > planning + calls)  # fmt: skip
        for name, value in zip(FIELDS, values, strict=True):
            out[int(row["budget"])][name][at] = value
    return seeds, out


def _assert_equal(batch, expected, seeds):
    for name in FIELDS:
        got = getattr(batch, name)
        assert got.shape == (len(TASKS), len(seeds))
        mismatch = np.argwhere(got != expected[name])
        assert mismatch.size == 0, (
            f"{name} differs at {len(mismatch)} (task, seed) pairs, first: task "
            f"{TASKS[mismatch[0][0]].name}, seed {seeds[mismatch[0][1]]}"
        )


def test_the_seed_set_is_spread_and_large():
    assert len(SEEDS) >= 1000 and SEEDS[0] == 0 and SEEDS[-1] == 2**32 - 1
    assert np.histogram(SEEDS, bins=8, range=(0, 2**32))[0].min() > 50  # spread over the whole range


@pytest.mark.slow
@pytest.mark.parametrize("budget", LISTING_BUDGETS)
@pytest.mark.parametrize("config", CONFIGS, ids=["-".join(c) for c in CONFIGS])
def test_every_outcome_equals_the_seed_listing(config, budget):
    seeds, by_budget = _listing(config)
    setup, critique, approval = config
    _assert_equal(
        run_batch(setup, seeds, budget, self_critique=critique == "1", approval=approval == "1"),
        by_budget[budget],
        seeds,
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "setup, self_critique, approval", CASES, ids=[f"{s}-critique{c:d}-approval{a:d}" for s, c, a in CASES]
)
def test_every_outcome_equals_the_one_seed_path(setup, self_critique, approval):
    batch = run_batch(setup, SEEDS, ONE_SEED_BUDGET, self_critique=self_critique, approval=approval)
    _assert_equal(batch, _reference(setup, SEEDS, ONE_SEED_BUDGET, self_critique, approval), SEEDS)


@pytest.mark.parametrize("budget", (3, 8))
def test_per_seed_measurements_equal_sim_measure(budget):
    seeds = [20260218, 20260219, 0, 2**32 - 1, 777]
    for setup, critique, approval in CASES:
        totals = measure_batch(setup, seeds, budget, self_critique=critique, approval=approval)
        for j, seed in enumerate(seeds):
            m = measure(setup, seed, budget, self_critique=critique, approval=approval)
            units = ("solved", "steps", "calls", "tokens", "errors", "approvals")
            assert [getattr(totals, unit)[j] for unit in units] == [getattr(m, unit) for unit in units]
            assert totals.success[j] == m.success and totals.seeds[j] == seed


def test_the_lessons_table_comes_out_of_the_batch():
    single = measure_batch("single-loop", [20260218, 20260219])
    split = measure_batch("plan-execute", [20260218, 20260219])
    assert single.tokens.tolist() == [11978, 11994] and split.tokens.tolist() == [10345, 10135]
    assert split.steps.tolist() == [118, 116] and split.errors.tolist() == [10, 12]


def test_the_tool_machine_is_what_the_tools_say():
    """Walk random tool sequences through the real tools and through the machine, side by side."""
    from sim.engine.loops import call_and_observe, initial_state

    machine = tool_machine()
    rng = np.random.default_rng(11)
    for t, task in enumerate(TASKS):
        for _ in range(30):
            state, index = initial_state(task), 0
            for tool in rng.integers(0, len(TOOL_NAMES), size=6):
                observation = call_tool(TOOL_NAMES[tool], {**state, "value": state.get("result")})
                failed = "error" in call_and_observe(TOOL_NAMES[tool], state)
                assert failed == ("error" in observation) == machine.error[t, index, tool]
                index = machine.next_state[t, index, tool]
            assert machine.correct[t, index] == (state.get("result") == correct_answer(task))


def test_study_seeds():
    assert study_seeds(3).tolist() == [20260218, 20260219, 20260220]
    with pytest.raises(ValueError, match="n_seeds must be an integer >= 1, got 0"):
        study_seeds(0)
    with pytest.raises(TypeError, match="n_seeds must be an integer"):
        study_seeds(2.0)
    with pytest.raises(ValueError, match="seeds must be"):
        study_seeds(10, first=2**32 - 5)


@pytest.mark.parametrize(
    "seeds, error, words",
    [
        ([], ValueError, "non-empty"),
        ([1, -1], ValueError, "got -1"),
        ([1, 2**32], ValueError, "got 4294967296"),
        ([1, 2.5], TypeError, "got the element 2.5 (float)"),
        ([1, True], TypeError, "got the element True (bool)"),
        ("12", TypeError, "got '12' (str)"),
        (7, TypeError, "got 7 (int)"),
        (np.array([1.0, 2.0]), TypeError, "dtype float64"),
        (np.array([[1, 2]]), ValueError, "shape (1, 2)"),
    ],
)
def test_bad_seeds_are_refused_by_name(seeds, error, words):
    with pytest.raises(error) as caught:
        run_batch("single-loop", seeds)
    assert "seeds must be a one-dimensional, non-empty sequence of integers" in str(caught.value)
    assert words in str(caught.value)


def test_bad_setup_budget_and_switches():
    with pytest.raises(ValueError, match="setup must be one of"):
        run_batch("react", [1])
    with pytest.raises(ValueError, match="max_steps"):
        run_batch("single-loop", [1], 0)
    with pytest.raises(ValueError, match="is an option of setup 'single-loop' only, not of 'plan-execute'"):
        run_batch("plan-execute", [1], 8, approval=True)
    with pytest.raises(TypeError, match="approval must be True or False"):
        run_batch("single-loop", [1], 8, approval=1)


RULES = [(setup, stop, margin) for setup in ("single-loop", "plan-execute") for stop, margin in
         ((True, None), (False, 0), (True, 2))]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("budget", (2, 6, 12))
@pytest.mark.parametrize("setup, stop_when_done, budget_margin", RULES)
def test_the_stopping_rules_of_lesson_3_equal_the_one_seed_path(setup, stop_when_done, budget_margin, budget):
    """SB1 and SB2 run in the batch path from the same RunConfig; every outcome equals the one-seed path."""
    seeds = SEEDS[:200]
    batch = run_batch(setup, seeds, budget, stop_when_done=stop_when_done, budget_margin=budget_margin)
    for t, task in enumerate(TASKS):
        for j, seed in enumerate(seeds):
            run = run_task(
                setup, task, int(seed), budget, stop_when_done=stop_when_done, budget_margin=budget_margin
            )
            want = (is_correct(run), *(getattr(run, name) for name in FIELDS[1:]))
            got = tuple(getattr(batch, name)[t, j] for name in FIELDS)
            assert got == want, (task.name, int(seed))


CONTRACT_CONFIGS = [RunConfig("contract"), RunConfig("contract", 3, max_replans=0), RunConfig("contract", 2),
                    RunConfig("contract", 12, max_replans=4, max_tokens=600), RunConfig("contract", 8, max_seconds=9),
                    RunConfig("contract", lookalike=True), RunConfig("contract", 3, max_replans=0, lookalike=True),
                    RunConfig("contract", 12, max_replans=4, max_tokens=600, lookalike=True)]  # fmt: skip


@pytest.mark.parametrize(
    "config", CONTRACT_CONFIGS, ids=[f"contract-{i}" for i in range(len(CONTRACT_CONFIGS))]
)
@pytest.mark.slow
def test_the_contracts_batch_path_equals_its_one_seed_path(config):
    """sim.measurement.batch_contract draws each lane's planner picks at once and runs the one-seed contract per
    distinct prefix of picks; every lane must equal sim.engine.contract.contract_run at its seed."""
    seeds = np.concatenate([EDGES, SEEDS[:150]])
    seeds = np.unique(seeds)
    batch = contract_batch(config, seeds)
    for t, task in enumerate(TASKS):
        for j, seed in enumerate(seeds):
            run = contract_run(task, int(seed), config)
            want = (run.correct, run.steps, run.calls, run.tokens, run.errors, run.stopped, 0)
            got = tuple(getattr(batch, name)[t, j] for name in ("correct", "steps", "calls", "tokens", "errors",
                                                                   "stopped", "approvals"))  # fmt: skip
            assert got == want, (task.name, int(seed))


LOOKALIKE_CASES = [("single-loop", {}), ("single-loop", {"self_critique": True}), ("plan-execute", {}),
                   ("single-loop", {"stop_when_done": True, "budget_margin": 1}),
                   ("plan-execute", {"stop_when_done": True})]  # fmt: skip


@pytest.mark.parametrize("budget", (2, 8, 12))
@pytest.mark.parametrize(
    "setup, options", LOOKALIKE_CASES, ids=[f"{s}-{sorted(o)}" for s, o in LOOKALIKE_CASES]
)
@pytest.mark.slow
def test_the_lookalike_runs_in_the_batch_path_as_in_the_one_seed_path(setup, options, budget):
    """Lesson 4's LA1: with the look-alike in the tool set the loops pick among 6 tools; the batch path
    searches that tool set's machine and equals the one-seed path lane for lane."""
    seeds = np.unique(np.concatenate([EDGES, SEEDS[:250]]))
    batch = run_batch(setup, seeds, budget, lookalike=True, **options)
    assert batch.config.tools[-1] == "estimate_use" and len(batch.config.tools) == 6
    for t, task in enumerate(TASKS):
        for j, seed in enumerate(seeds):
            run = run_task(setup, task, int(seed), budget, lookalike=True, **options)
            want = (is_correct(run), *(getattr(run, name) for name in FIELDS[1:]))
            got = tuple(getattr(batch, name)[t, j] for name in FIELDS)
            assert got == want, (task.name, int(seed))


def test_the_lookalikes_machine_has_a_sixth_tool_and_the_five_tools_machine_is_unchanged():
    five, six = tool_machine(), tool_machine(RunConfig("single-loop", lookalike=True).tools)
    assert five is tool_machine(TOOL_NAMES) and five.tools == TOOL_NAMES
    assert six.next_state.shape[2] == 6 and five.next_state.shape[2] == 5
    assert np.array_equal(six.sequence, five.sequence)  # the five keep their indices


def test_the_in_place_stream_step_is_the_streams_step():
    """sim.model.draws.next_state_into (the batch path's streams, in place) equals next_state, and a
    SeedLanes draw advances only the lanes asked for, as sim.measurement.lanes.draw does."""
    from sim.measurement.lanes import SeedLanes, draw
    from sim.model.draws import next_state, next_state_into

    rng = np.random.default_rng(5)
    states = rng.integers(0, 2**32, size=(24, 300), dtype=np.uint64)
    out = np.empty_like(states)
    assert np.array_equal(next_state_into(states, out), next_state(states)) and out is not states
    lanes_a = SeedLanes(np.arange(300, dtype=np.int64), planner=False)
    state = lanes_a.state.copy()
    for step in range(6):
        asked = rng.random(state.shape) < 0.5
        state, expected = draw(state, asked)
        u = lanes_a.decide(asked, step) if step % 2 else lanes_a.tool(asked, step)
        assert np.array_equal(lanes_a.state, state)
        assert np.array_equal(u[asked], expected[asked])


def test_the_contracts_distinct_tapes_are_numpys_unique_rows():
    """sim.measurement.batch_contract packs each tape into one integer before np.unique; the rows and each
    lane's row are np.unique(axis=0)'s, in its order, and tapes too long to pack take its path."""
    from sim.measurement.batch_contract import _distinct_tapes

    rng = np.random.default_rng(3)
    for positions, tools in ((12, 5), (12, 6), (21, 6), (22, 6), (4, 9)):
        tapes = rng.integers(-1, tools, size=(3000, positions)).astype(np.int8)
        tapes[::3] = tapes[0]  # lanes that share a tape
        distinct, lane_of = _distinct_tapes(tapes)
        expected, expected_lane_of = np.unique(tapes, axis=0, return_inverse=True)
        assert np.array_equal(distinct, expected) and np.array_equal(lane_of, expected_lane_of.reshape(-1))


@pytest.mark.parametrize("setup", ["single-loop", "plan-execute"])
def test_seed_by_seed_collects_the_one_seed_path_as_the_array_path_does(setup):
    config, seeds = RunConfig(setup, 6), np.arange(20460218, 20460230, dtype=np.int64)
    collected, lanes = seed_by_seed(config, seeds), batch_run(config, seeds)
    for name in TASK_FIELDS:
        assert np.array_equal(getattr(collected, name), getattr(lanes, name)), name
