"""Lesson 6, your own agent: the policy interface, the scoring harness, `python -m sim score`, and the
exercises' checks (issue 14, sections 1-3)."""

import json

import numpy as np
import pytest
from cli_run import run_cli

import sim
from sim.engine.goals import goal_of
from sim.engine.policy import STOP, PolicyError, goal_met, model_policy, run_policy, stop_when_goal_met
from sim.exercises.your_agent import check_exercise_1, check_exercise_2, spoiled_but_kept
from sim.measurement import harness
from sim.measurement.bands import compare_setups
from sim.measurement.batch import study_seeds
from sim.measurement.counts import measure
from sim.measurement.harness import route
from sim.model.costs import loop_step_tokens, observation_tokens
from sim.model.world import TOOL_NAMES

SEEDS = study_seeds(400, 7)
FIELDS = ("correct", "steps", "calls", "tokens", "errors", "stopped")


@pytest.mark.slow
@pytest.mark.parametrize("budget", [1, 3, 8, 12])
def test_the_single_loop_as_a_policy_equals_the_built_in_runner(budget):
    """Over 400 seeds x 24 tasks and several budgets: every outcome of the policy form equals the
    built-in single loop's (the batch path, itself proven equal to the one-seed path)."""
    policy, built_in = (harness.entrant_run(e, SEEDS, budget) for e in (model_policy, "single-loop"))
    for name in FIELDS:
        assert np.array_equal(getattr(policy, name), getattr(built_in, name)), name


def test_a_policy_run_is_the_runners_run_record_for_record():
    for seed in (1, 20260218):
        for task in sim.TASKS:
            assert run_policy(model_policy, task, seed, 8) == sim.run_single_loop(task, seed, 8)


def test_the_router_takes_each_task_from_its_setup():
    """A route equals the built-in setups task by task (the other setups, where natural)."""
    single, split = (harness.entrant_run(s, SEEDS, 8) for s in ("single-loop", "plan-execute"))
    for setup, twin in (("single-loop", single), ("plan-execute", split)):
        routed = harness.entrant_run(route(dict.fromkeys(harness.GOALS, setup)), SEEDS, 8)
        for name in FIELDS:
            assert np.array_equal(getattr(routed, name), getattr(twin, name)), (setup, name)


def test_the_observable_stop_rule_is_lesson_3s_rule_run_for_run():
    """Both test GT1 on what was observed and pay a step to stop: the same runs, every counted unit."""
    policy = harness.entrant_run(stop_when_goal_met, SEEDS, 8)
    sb1 = harness.entrant_run(sim.RunConfig("single-loop", 8, stop_when_done=True), SEEDS)
    for name in FIELDS:
        assert np.array_equal(getattr(policy, name), getattr(sb1, name)), name
    assert policy.stopped.any() and (policy.steps[policy.stopped] >= 2).all()  # a call, then the paid stop


def test_a_policy_never_sees_the_sequence():
    seen = []

    def spy(observation):
        seen.append(observation)
        return observation.model_pick()

    run_policy(spy, "G05", 3, 8)
    names = {field for o in seen for field in vars(o)}
    assert not names & {"sequence", "target", "kind", "plan_length"}
    assert [o.step for o in seen] == list(range(1, len(seen) + 1))
    assert [o.steps_left for o in seen] == [8 - k for k in range(len(seen))]
    assert not goal_met(seen[0]) and "bedeli" in seen[0].request and seen[0].fields == ()
    assert all(list(o.fields) == sorted(o.state) for o in seen)  # the names, sorted, of the values seen


@pytest.mark.parametrize(
    "bad, says",
    [
        (lambda o: 1 / 0, "raised ZeroDivisionError"),
        (lambda o: None, "returned None"),
        (lambda o: "read meter", "returned 'read meter'"),
        (lambda o: ["stop"], "returned ['stop']"),
    ],
)
def test_a_misbehaving_policy_is_named_with_task_seed_and_step(bad, says):
    with pytest.raises(PolicyError) as caught:
        run_policy(bad, "G05", 11, 8)
    message = str(caught.value)
    assert says in message and "task G05" in message and "seed 11" in message and "step 1" in message
    assert "policy '<lambda>'" in message


def test_the_harness_never_reports_a_partial_result():
    def fails_late(observation):
        if observation.request and observation.step == 2 and "kayda yaz" in observation.request:
            raise RuntimeError("boom")
        return observation.model_pick()

    with pytest.raises(PolicyError, match="step 2"):
        harness.entrant_run(fails_late, SEEDS[:50], 8)
    with pytest.raises(PolicyError):
        harness.score(fails_late, "single-loop", 8, SEEDS[:5])


def _asking(times: int, keep: int):
    """A policy that asks the model `times` times a step and returns the reply number `keep` (0-based)."""

    def asks(observation):
        replies = [observation.model_pick() for _ in range(times)]
        return replies[keep]

    asks.__name__ = f"asks_{times}_keeps_{keep}"
    return asks


def _request_paid(step, requests: int) -> int:
    """A step's tokens under AA28 and MR1: its request `requests` times, and the tool's observation."""
    observed = 0 if step.tool is None else observation_tokens(step.error, False)
    return requests * loop_step_tokens(step.trace_length) + observed


@pytest.mark.parametrize("times", [1, 2, 3])
def test_each_further_model_request_in_a_step_is_paid_as_the_steps_request(times):
    """MR1: a policy that asks the model `times` times every step pays its step's request `times` times,
    step by step, stop steps included; asking once is the single loop's own price."""
    for seed in (1, 20260218):
        for task in sim.TASKS[::5]:
            run = run_policy(_asking(times, -1), task, seed, 8)
            assert all(step.tokens == _request_paid(step, times) for step in run.log), (task.name, seed)
            assert run.tokens == sum(step.tokens for step in run.log)
    asked_once = run_policy(_asking(1, 0), "G05", 3, 8)
    assert asked_once == sim.run_single_loop("G05", 3, 8)


def test_a_further_model_request_is_a_new_draw_not_a_copy():
    """MR1: the second call draws anew on the run's stream (a new reply): over many runs it differs
    from the first somewhere, and keeping the first reply still pays for the second request."""
    seen = []

    def compare(observation):
        first, second = observation.model_pick(), observation.model_pick()
        seen.append(first != second)
        return first

    for seed in range(40):
        run = run_policy(compare, "G09", seed, 8)
        assert all(step.tokens == _request_paid(step, 2) for step in run.log)
    assert any(seen)


def test_a_policy_that_never_stops_is_stopped_by_the_budget():
    run = run_policy(lambda o: "search_docs", "G03", 5, 6)
    assert run.steps == 6 and not run.stopped and run.calls == 6
    assert run_policy(lambda o: STOP, "G03", 5, 6).steps == 1


def test_randomness_comes_only_from_the_stream():
    def coin(observation):
        return TOOL_NAMES[int(observation.draw() * len(TOOL_NAMES))] if observation.step < 4 else STOP

    first, again = (harness.entrant_run(coin, SEEDS[:30], 8) for _ in range(2))
    assert all(np.array_equal(getattr(first, n), getattr(again, n)) for n in FIELDS)


def test_tuning_and_held_out_blocks_are_apart_and_the_report_default_is_held_out():
    tuning, held = harness.tuning_seeds(10000), harness.held_out_seeds(10000)
    assert not set(tuning.tolist()) & set(held.tolist())
    assert not set(held.tolist()) & set(study_seeds(10000).tolist())  # lesson 5's block
    by_default = harness.score("plan-execute", "single-loop")
    explicit = harness.score("plan-execute", "single-loop", seeds=harness.held_out_seeds())
    assert by_default.equals(explicit)


def test_the_score_holds_the_units_the_band_and_the_intervals():
    table = harness.score("plan-execute", "single-loop", 8, SEEDS[:200])
    assert list(table["unit"]) == list(sim.UNIT_NAMES)
    verdicts = compare_setups(*[[measure(s, seed, 8) for seed in harness.LESSON_SEEDS]
                                    for s in ("single-loop", "plan-execute")])  # fmt: skip
    assert [v.verdict for v in harness.band_scores("plan-execute", "single-loop")] == [
        v.verdict for v in verdicts
    ]
    plane = harness.cost_success(
        {s: harness.entrant_run(s, SEEDS[:200], 8) for s in ("single-loop", "plan-execute")}
    )
    for axis in ("success", "tokens"):
        assert (plane[f"{axis}_low"] < plane[axis]).all() and (plane[axis] < plane[f"{axis}_high"]).all()
    assert (plane["per_success_low"] < plane["tokens_per_success"]).all()
    runs = {s: harness.entrant_run(s, SEEDS[:200], 8) for s in ("single-loop", "plan-execute")}
    quick = harness.cost_success(runs, per_success_interval=False)  # the panel's: no bootstrap
    assert quick.drop(columns=["per_success_low", "per_success_high"]).equals(
        plane.drop(columns=["per_success_low", "per_success_high"])
    )
    assert quick[["per_success_low", "per_success_high"]].isna().all().all()


def test_the_tuned_router_sends_only_record_tasks_to_the_split():
    tuning = [harness.entrant_run(s, harness.tuning_seeds(2000), 8) for s in ("single-loop", "plan-execute")]
    assert dict(harness.best_route(*tuning).by_goal) == {
        "code": "single-loop", "m3": "single-loop", "amount": "single-loop", "written": "plan-execute"
    }  # fmt: skip


def _cli(*args):
    return run_cli(*args)


def test_the_cli_scores_a_policy_file(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("def proposal(observation):\n    return observation.model_pick()\n")
    done = _cli("score", f"{path}:proposal", "--held-out", "20", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    rows = {(r["entrant"], r["seed"]): r for r in data["rows"]}
    assert rows["proposal", 20260218]["tokens"] == rows["single loop", 20260218]["tokens"] == 11978
    assert all(row["agrees"] == "yes" for row in data["held_out"][0]["paired"])
    text = _cli("score", f"{path}:proposal", "--held-out", "0", "--seeds", "1,2", "--budgets", "4,8")
    assert text.returncode == 0 and len(text.stdout.splitlines()) == 1 + 2 * 2 * 2
    csv = _cli("score", f"{path}:proposal", "--held-out", "0", "--format", "csv")
    assert csv.stdout.splitlines()[0] == "part,entrant,seed,budget,success,steps,calls,tokens,errors"
    parts = {line.split(",")[0] for line in csv.stdout.splitlines()[1:]}
    assert parts == {"run"}  # --held-out 0: the rows only


def test_the_cli_refuses_a_bad_policy_in_one_line(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("def wrong(observation):\n    return 'fly'\n")
    for args, says in (((f"{path}:missing",), "has no function 'missing'"),
                       ((f"{tmp_path / 'none.py'}:f",), "not found"),
                       (("nofile",), "FILE.py:FUNCTION"),
                       ((f"{path}:wrong", "--held-out", "0"), "returned 'fly'")):  # fmt: skip
        done = _cli("score", *args)
        assert done.returncode == 2 and says in done.stderr and len(done.stderr.splitlines()) == 1, (
            done.stderr
        )


def _scripted(observation):
    """A fixed workflow by request: the tools of the goal its words ask for (RT1), in order."""
    sequences = {"amount": ("read_meter", "consumption", "tariff"), "m3": ("read_meter", "consumption"),
                 "code": ("search_docs",), "written": ("read_meter", "consumption", "tariff", "write_record")}  # fmt: skip
    if goal_met(observation):
        return STOP
    return sequences[goal_of(observation.request)][len(observation.trace)]


@pytest.mark.parametrize("seed", [0, 12345, 20260218])
def test_the_exercise_checks_say_right_for_the_answer_and_never_print_it(seed):
    wanted = spoiled_but_kept(seed)
    assert check_exercise_1(seed, wanted).startswith("right")
    said = {
        check_exercise_1(seed, wrong) for wrong in (wanted + 1, max(wanted - 1, 0) if wanted else wanted + 2)
    }
    assert len(said) == 1, said  # too high and too low read the same: the count is not found by halving
    message = said.pop()
    assert (
        message.startswith("wrong")
        and "too " not in message
        and str(wanted) not in message.replace(str(seed), "")
    )
    assert check_exercise_1(seed).startswith("not answered yet")  # the untouched placeholder
    assert check_exercise_1(seed, None) == check_exercise_1(seed)
    assert check_exercise_2(_scripted, seed).startswith("right")
    assert check_exercise_2(stop_when_goal_met, seed).startswith("wrong")
    assert check_exercise_2(lambda o: "fly", seed).startswith("wrong")
    with pytest.raises(sim.InputError):
        check_exercise_1(seed, "3")


@pytest.mark.slow
def test_the_panel_scores_the_chosen_policy_and_offers_the_students_own():
    from sim.presentation.panel_your_agent import ROUTER, your_agent_panel

    panel = your_agent_panel({"mine": model_policy})
    assert panel.message.value == "" and "stop when goal met" in panel.text.value
    panel.extra["policy"].value = "mine"
    cost = panel.view.data["cost"].set_index("entrant")
    assert cost.loc["mine", "tokens"] == cost.loc["single loop", "tokens"]  # the proposal is the single loop
    panel.extra["policy"].value = "router (record: split)"
    assert "router (record: split)" in panel.text.value and dict(ROUTER.by_goal)["written"] == "plan-execute"
    panel.budget.value = 4
    assert "budget 4" in panel.table.value and panel.message.value == ""
    with pytest.raises(sim.InputTypeError, match="extra"):
        your_agent_panel({"bad": 5})


def test_exercise_2_says_not_answered_yet_for_the_untouched_placeholder():
    def scripted(observation):
        return None  # the lesson's placeholder

    assert (
        check_exercise_2(scripted, 12345)
        == "not answered yet: write the body of scripted and run the check again"
    )
    assert check_exercise_2(lambda o: "stop", 12345).startswith(
        "wrong"
    )  # an answer that stops at once is wrong
