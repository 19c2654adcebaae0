"""Every function `sim` exports checks its arguments as its docstring states them (issue 18): a wrong
type, a value out of range or None (where None is not a default) raises the course's own error
(`sim.InputError`; `sim.InputTypeError` for a wrong kind, also a TypeError), naming the parameter.
Never an AttributeError, an IndexError or a library's internals."""

import dataclasses
import inspect

import numpy as np
import pytest

import sim
from sim.chat import chat_policy, messages
from sim.engine.config import RunConfig
from sim.exercises import contract as ex04
from sim.exercises import how_many_seeds as exercises
from sim.exercises import planner_executor as ex02
from sim.exercises import single_loop as ex01
from sim.exercises import step_budget as ex03
from sim.measurement import clusters, intervals, power, reliability, study
from sim.measurement.bands import band_verdict, compare_setups, verdict_table
from sim.measurement.batch import measure_batch, run_batch, study_seeds
from sim.measurement.counts import measure, plan_accuracy
from sim.measurement.harness import (
    band_scores,
    best_route,
    cost_success,
    entrant_run,
    goal_differences,
    held_out_seeds,
    interval_growth,
    route,
    score,
    tokens_per_success,
    tuning_seeds,
)
from sim.measurement.outcomes import outcome, outcome_grid
from sim.measurement.traces import depth_picks, recovery_task, side_effect_calls
from sim.presentation.showcode import code_of
from sim.presentation.tables import (
    folded_table,
    format_plan_accuracy,
    format_table,
    format_trace,
    loop_step_table,
    seed_table,
    split_step_table,
)

M1, M2 = measure("single-loop", 1, 4), measure("single-loop", 2, 4)
SPLIT, LOOP = sim.run_plan_execute("G05"), sim.run_single_loop("G05")
B1, B2 = run_batch("single-loop", [1, 2, 3], 4), run_batch("plan-execute", [1, 2, 3], 4)
VALUES = np.linspace(-1.0, 2.0, 12)
PER_TASK = power.per_task_outcomes(RunConfig("single-loop", 4), 40, 1)
FLAGS = power.aa_exclusions(PER_TASK, 2, [5])

ROUTE = route({"amount": "single-loop", "m3": "single-loop", "code": "single-loop",
                   "written": "plan-execute"})  # fmt: skip


def _proposal(observation):
    return observation.model_pick()


def _verdict(first, second):
    return "unmeasured"


def _tokens(steps, calls):
    return 0


def _done(observation):
    return True


def _plan_ok(plan, held):
    return True


VALID = {
    band_verdict: dict(unit="steps", first=[1, 2], second=[3, 4]),
    sim.call_tool: dict(name="read_meter", state={"subscriber": "A001"}),
    sim.charge: dict(m3=10, customer_type="residential"),
    sim.check_budget: dict(max_steps=3),
    sim.check_seed: dict(seed=3),
    sim.check_seeds: dict(seeds=[1, 2]),
    sim.check_setup: dict(setup="contract"),
    sim.check_task: dict(task="G01"),
    code_of: dict(obj=sim.model.picks.selection, docstring=False),
    compare_setups: dict(first=[M1, M2], second=[M1, M2]),
    sim.configs_for: dict(setups=["single-loop"], budget=8, options={}),
    sim.correct_answer: dict(task="G05"),
    depth_picks: dict(seed=1, max_steps=3),
    sim.expected_right_share: dict(depth=2),
    format_plan_accuracy: dict(accuracy=plan_accuracy(1)),
    folded_table: dict(text="a  b\n1  2", summary="The whole table"),
    format_table: dict(table=seed_table([M1])),
    format_trace: dict(run=SPLIT),
    sim.is_correct: dict(run=SPLIT),
    loop_step_table: dict(steps=sim.loop_steps(LOOP)),
    sim.loop_steps: dict(run=LOOP),
    measure: dict(setup="single-loop", seed=1, max_steps=3, self_critique=False, budget_margin=1,
                      common_draws=False),
    measure_batch: dict(setup="single-loop", seeds=[1, 2], max_steps=3),
    outcome: dict(run=LOOP),
    outcome_grid: dict(setup="single-loop", seed=1, budgets=[2, 3]),
    plan_accuracy: dict(seed=1, common_draws=True),
    sim.plan_length_budget: dict(setup="plan-execute", task="G05", margin=1, max_steps=8),
    recovery_task: dict(seed=1, max_steps=3),
    run_batch: dict(setup="single-loop", seeds=[1, 2], max_steps=3, budget_margin=1, lookalike=False,
                        common_draws=True),
    sim.run_config: dict(setup="single-loop", budget=3),
    sim.run_label: dict(seed=20260218),
    sim.run_plan_execute: dict(task="G05", seed=1, max_steps=3),
    sim.run_single_loop: dict(task="G05", seed=1, max_steps=3, approval=False),
    sim.run_task: dict(setup="single-loop", task="G05", seed=1, max_steps=3),
    seed_table: dict(measurements=[M1]),
    sim.selection: dict(depth=1),
    side_effect_calls: dict(seed=1, max_steps=3),
    split_step_table: dict(run=SPLIT),
    study_seeds: dict(n_seeds=3, first=5),
    verdict_table: dict(verdicts=compare_setups([M1, M2], [M1, M2]), seeds=[1, 2]),
    study.pass_hat_k: dict(correct=B1.correct, k=2),
    sim.run_policy: dict(policy=_proposal, task="G05", seed=1, max_steps=3),
    entrant_run: dict(entrant=_proposal, seeds=[1, 2], max_steps=3),
    band_scores: dict(entrant=ROUTE, baseline="single-loop", max_steps=3, seeds=[1, 2]),
    score: dict(entrant="plan-execute", baseline="single-loop", max_steps=3, seeds=[1, 2, 3], lesson_seeds=[1, 2]),
    route: dict(by_goal={"amount": "single-loop", "m3": "single-loop", "code": "single-loop",
                             "written": "plan-execute"}),
    best_route: dict(default=B1, other=B2),
    goal_differences: dict(first=B1, second=B2),
    interval_growth: dict(first=B1, second=B2, unit="success", sizes=[2, 3]),
    cost_success: dict(runs={"a": B1, "b": B2}),
    tokens_per_success: dict(run=B1),
    tuning_seeds: dict(n_seeds=3),
    held_out_seeds: dict(n_seeds=3),
    study.paired_interval: dict(first=B1, second=B2, unit="tokens", n_seeds=3, n_resamples=50, random_seed=1),
    study.band_rule_over_pairs: dict(first=B1.per_seed(), second=B2.per_seed(), unit="tokens"),
    study.interval_table: dict(first=B1, second=B2, units=["tokens"], sizes=[3], n_resamples=50, method="t"),
    intervals.t_interval: dict(values=VALUES, confidence=0.9),
    intervals.bootstrap_interval: dict(values=VALUES, method="BCa", n_resamples=50, random_seed=1, confidence=0.9),
    intervals.interval: dict(values=VALUES, method="percentile", n_resamples=50, random_seed=1),
    intervals.disjoint_studies: dict(values=VALUES, n_seeds=4),
    intervals.coverage_table: dict(values=VALUES, truth=0.5, sizes=[3], methods=["t"], n_resamples=20, random_seed=1),
    intervals.percentile_width_ratio: dict(n_seeds=5, confidence=0.9),
    power.seeds_for_power: dict(sd=2.0, effect=0.5, power=0.8, confidence=0.95),
    power.closed_form_power: dict(sd=2.0, effect=0.5, n_seeds=10, confidence=0.95),
    power.power_table: dict(differences=VALUES, sizes=[3], truth=0.5),
    power.per_task_outcomes: dict(config=RunConfig("single-loop", 4), n_seeds=3, first=1, chunk=2),
    power.aa_differences: dict(values=VALUES, n_studies=2, n_seeds=3),
    power.peeking: dict(differences=VALUES.reshape(2, 6), looks=[3, 6]),
    power.aa_exclusions: dict(per_task=PER_TASK, n_studies=2, sizes=[5], confidence=0.9),
    power.family_error: dict(exclusions=FLAGS, keys=[("tokens", 5, "seeds")]),
    clusters.kind_table: dict(first=B1, second=B2, unit="tokens", n_seeds=3),
    clusters.task_intervals: dict(first=B1, second=B2, unit="tokens", n_seeds=3),
    reliability.per_task_pass: dict(correct=B1.correct, k=2, at_least_one=True),
    reliability.trial_table: dict(run=B1, n_trials=1, ks=[1]),
    reliability.cost_per_success: dict(run=B1, n_seeds=3, method="percentile", n_resamples=50, random_seed=1),
    messages.requests: dict(run=LOOP),
    messages.request_sizes: dict(run=SPLIT),
    messages.format_messages: dict(messages=[{"role": "user", "content": "x"}], width=40),
    chat_policy.chat_policy: dict(model=chat_policy.SHIPPED_MODEL, base_url="http://127.0.0.1:9/v1", api_key="none", timeout=1.0,
                                  max_retries=0, label="x"),
    chat_policy.read_transcript: dict(transcript=str(chat_policy.SHIPPED_TRANSCRIPT)),
    chat_policy.replay_policy: dict(transcript=str(chat_policy.SHIPPED_TRANSCRIPT)),
    exercises.check_power: dict(first=1, answer=0.5),
    exercises.check_coverage: dict(first=1, answer=0.5),
    exercises.power_answer: dict(first=1),
    exercises.coverage_answer: dict(first=1),
    ex02.check_band_verdict: dict(seed=1, function=_verdict),
    ex02.check_plan_chance: dict(seed=1, answer=0.5),
    ex02.band_cases: dict(seed=1),
    ex02.band_verdicts: dict(seed=1),
    ex02.plan_tasks: dict(seed=1),
    ex02.plan_chance: dict(seed=1),
    ex01.loop_tokens: dict(steps=3, calls=2),
    ex01.check_loop_tokens: dict(seed=1, function=_tokens),
    ex01.clean_tasks: dict(seed=1),
    ex01.clean_chance: dict(seed=1),
    ex01.check_clean_chance: dict(seed=1, answer=0.5),
    ex03.saved_by_stopping: dict(seed=1),
    ex03.check_saved_by_stopping: dict(seed=1, answer=3),
    ex03.check_stop_predicate: dict(seed=1, done=_done),
    ex04.exit_counts: dict(seed=1),
    ex04.check_exit_counts: dict(seed=1, answer={"SUCCESS": 24}),
    ex04.plan_cases: dict(seed=1),
    ex04.check_plan_validator: dict(seed=1, function=_plan_ok),
}  # fmt: skip
NAMED_BY_VALUE = {"name", "allowed"}  # a check's own naming parameters: they say what to call the value
ALIASES = {"budget": "budget", "max_steps": "max_steps", "obj": "obj"}
# a value out of range, or of the right kind but refused, for these parameters
OUT_OF_RANGE = {
    "unit": "foo", "setup": "react", "task": "G99", "customer_type": "industrial", "seeds": [1, 1],
    "first": [M1], "budgets": [0], "measurements": [], "k": 99, "n_resamples": 0, "depth": 0, "m3": -1,
    "run": None, "n_seeds": 0, "method": "normal", "values": [1.0], "confidence": 1.5, "power": 0.0,
    "sizes": [1], "units": ["speed"], "looks": [1], "ks": [0], "methods": ["normal"], "keys": [("speed", 1, "seeds")], "sd": 0.0,
    "effect": 0.0, "truth": float("nan"), "n_trials": 0, "n_studies": 0, "chunk": 0, "differences": [1.0],
}  # fmt: skip
SPECIAL = [
    (verdict_table, "seeds", [1]),
    (verdict_table, "labels", ["A"]),
    (verdict_table, "labels", [1, 2]),
    (split_step_table, "run", LOOP),
    (study.pass_hat_k, "correct", B1.correct[0]),
    (study.pass_hat_k, "k", 1.5),
    (study.paired_interval, "first", B1.head(2)),
    (band_verdict, "label", 5),
    (sim.run_label, "seeds", "AB"),
    (measure, "lookalike", "yes"),  # lesson 4's LA1, an option reached through **options
    (sim.run_task, "lookalike", 1),
    (sim.run_config, "lookalike", None),
]


def _wrong_values(name, valid, default):
    values = [] if default is None else [None]
    if isinstance(valid, float):  # a real number: any number is of the right kind
        values += ["x", True]
    elif isinstance(valid, bool):
        values += ["yes", 1]
    elif isinstance(valid, int):
        values += ["3", 2.5, True, -1 if name not in ("seed", "first") else -5]
    elif isinstance(valid, str):
        values += [5]
    elif isinstance(valid, list | tuple | np.ndarray):
        values += [5, "x"]
    else:
        values += ["x", 5]
    if name in OUT_OF_RANGE and OUT_OF_RANGE[name] is not None:
        values.append(OUT_OF_RANGE[name])
    return values


OPTION_DEFAULTS = {field.name: field.default for field in dataclasses.fields(sim.RunConfig)}
CASES = []
for function, valid in VALID.items():
    parameters = inspect.signature(function).parameters
    for name, value in valid.items():
        if name in NAMED_BY_VALUE:
            continue
        # an option reached through **options (run_config) has RunConfig's default
        default = parameters[name].default if name in parameters else OPTION_DEFAULTS[name]
        for wrong in _wrong_values(name, value, None if default is inspect.Parameter.empty else default):
            CASES.append((function, name, wrong))
CASES += SPECIAL


# the public functions of the layers above the engine that the lessons import (sim.__all__ holds
# the model's and the engine's)
ABOVE = (band_scores, band_verdict, best_route, code_of, compare_setups, cost_success, depth_picks, entrant_run,
         folded_table, format_plan_accuracy, format_table, format_trace, held_out_seeds, interval_growth,
         goal_differences, loop_step_table, measure, measure_batch, outcome, outcome_grid, plan_accuracy,
         recovery_task, route, run_batch, score, seed_table, side_effect_calls, split_step_table, study_seeds,
         tokens_per_success, tuning_seeds, verdict_table)  # fmt: skip


def test_every_exported_function_has_a_valid_call_here():
    exported = {getattr(sim, n) for n in sim.__all__ if inspect.isfunction(getattr(sim, n))} | set(ABOVE)
    assert exported <= set(VALID), sorted(f.__name__ for f in exported - set(VALID))
    for function, valid in VALID.items():
        function(**valid)  # the baseline is accepted


@pytest.mark.parametrize("function, name, wrong", CASES,
                         ids=[f"{f.__name__}-{n}-{type(w).__name__}-{i}" for i, (f, n, w) in enumerate(CASES)])  # fmt: skip
def test_a_wrong_argument_is_refused_naming_its_parameter(function, name, wrong):
    arguments = {**VALID[function], name: wrong}
    with pytest.raises(sim.InputError) as caught:
        function(**arguments)
    message = str(caught.value)
    assert ALIASES.get(name, name).split("_")[0] in message, message
    if isinstance(wrong, str) and name not in ("unit", "setup", "task", "customer_type", "name", "method"):
        assert isinstance(caught.value, TypeError), f"a string for {name} is a wrong kind: {message}"
