"""The checked coding exercises of lessons 1 to 4 (issue 14, section 4): each check accepts the reference
solution, computed here from sim, rejects wrong answers saying what is off, says "not answered yet" for
the notebook's placeholder, and never shows the answer."""

import sim
from sim.exercises import contract as ex04
from sim.exercises import planner_executor as ex02
from sim.exercises import single_loop as ex01
from sim.exercises import step_budget as ex03

SEED = 4242  # a student's seed


# ---- lesson 2


def _band_rule(first, second):
    """The reference solution of lesson 2, exercise 5, written from the rule, not from sim.measurement.bands."""
    differences = [abs(b - a) for a, b in zip(first, second, strict=True)]
    band = max(abs(first[1] - first[0]), abs(second[1] - second[0]))
    return "measured" if all(d > band for d in differences) else "unmeasured"


def test_band_verdict_check_accepts_the_rule_and_rejects_wrong_functions():
    assert ex02.check_band_verdict(SEED, _band_rule).startswith("right")
    assert ex02.check_band_verdict(SEED, lambda first, second: None).startswith("not answered yet")
    assert ex02.check_band_verdict(SEED, lambda first, second: "measured").startswith("wrong: for ")
    assert ex02.check_band_verdict(SEED, lambda first, second: "unmeasured").startswith("wrong: for ")
    assert ex02.check_band_verdict(SEED, lambda first, second: True).startswith(
        "wrong: your function returned"
    )

    def one_run_only(first, second):  # a common slip: looks at run A alone
        return "measured" if abs(second[0] - first[0]) > max(abs(first[1] - first[0]),
                                                              abs(second[1] - second[0])) else "unmeasured"  # fmt: skip

    def at_least_band(first, second):  # >= instead of >
        band = max(abs(first[1] - first[0]), abs(second[1] - second[0]))
        return (
            "measured"
            if all(abs(b - a) >= band for a, b in zip(first, second, strict=True))
            else "unmeasured"
        )

    wrong = [
        f for f in (one_run_only, at_least_band) if not ex02.check_band_verdict(SEED, f).startswith("right")
    ]
    assert wrong, "neither slip is caught at this seed"
    assert set(ex02.band_verdicts(SEED)) == {"measured", "unmeasured"}  # both verdicts are checked


def test_plan_chance_check_accepts_the_pick_rule_and_never_says_which_way():
    tasks = {t.name: t for t in sim.TASKS}
    share = sim.selection(1) + (1 - sim.selection(1)) / len(sim.TOOL_NAMES)
    chance = 1.0
    for name in ex02.plan_tasks(SEED):
        chance *= share ** len(tasks[name].sequence)
    assert ex02.check_plan_chance(SEED, chance).startswith("right")
    assert ex02.check_plan_chance(SEED, round(chance, 4)).startswith("right")
    assert ex02.check_plan_chance(SEED).startswith("not answered yet")
    above = ex02.check_plan_chance(SEED, chance * 1.1)
    no_luck = 1.0
    for name in ex02.plan_tasks(SEED):
        no_luck *= sim.selection(1) ** len(tasks[name].sequence)
    below = ex02.check_plan_chance(SEED, no_luck)
    assert above.startswith("not right") and above == below  # a hint of the method, not a direction
    assert "too high" not in above and "too low" not in above
    assert "percentage" in ex02.check_plan_chance(SEED, 100 * chance + 1)
    for answer in (None, 0.5, chance * 1.1):
        assert f"{chance:.4f}" not in ex02.check_plan_chance(SEED, answer)
    assert ex02.plan_tasks(SEED) != ex02.plan_tasks(SEED + 1)  # two students, two task lists


# ---- lesson 1


def _tokens_by_rule(steps, calls):
    """The reference solution of lesson 1, exercise 6, from the rule table's constants: a step re-sends
    the calls before it (the stop step re-sends them all), every call's observation is paid."""
    from sim.model import costs

    lengths = list(range(calls)) + [calls] * (steps - calls)
    return (
        sum(costs.LOOP_STEP_TOKENS + costs.LOOP_TOKENS_PER_CALL * n for n in lengths)
        + costs.OBSERVATION_TOKENS * calls
    )


def test_loop_tokens_check_accepts_the_rule_and_names_what_is_off():
    for seed in (SEED, sim.DEFAULT_SEED):
        assert ex01.check_loop_tokens(seed, _tokens_by_rule).startswith("right")
        assert ex01.check_loop_tokens(seed, ex01.loop_tokens).startswith("right")
    assert ex01.check_loop_tokens(SEED, lambda steps, calls: None).startswith("not answered yet")
    no_stop_step = ex01.check_loop_tokens(SEED, lambda steps, calls: _tokens_by_rule(calls, calls))
    assert "too low" in no_stop_step and "stop step" in no_stop_step
    own_call = ex01.check_loop_tokens(SEED, lambda steps, calls: _tokens_by_rule(steps, calls) + 22 * calls)
    assert "too high" in own_call
    assert ex01.check_loop_tokens(SEED, lambda steps, calls: "many").startswith(
        "wrong: your function returned"
    )
    run = sim.run_single_loop(sim.TASKS[0], SEED, 8)
    assert str(run.tokens) not in no_stop_step


def test_clean_chance_check_accepts_the_pick_rule_and_says_which_way():
    chance, flat = 1.0, 1.0
    for name in ex01.clean_tasks(SEED):
        for depth in range(1, len(sim.check_task(name).sequence) + 1):
            chance *= sim.selection(depth) + (1 - sim.selection(depth)) / len(sim.TOOL_NAMES)
            flat *= sim.selection(depth)
    assert ex01.check_clean_chance(SEED, chance).startswith("right")
    assert ex01.check_clean_chance(SEED, round(chance, 4)).startswith("right")
    assert ex01.check_clean_chance(SEED).startswith("not answered yet")
    assert ex01.check_clean_chance(SEED, flat).startswith("not right: too low")
    assert "lucky pick" in ex01.check_clean_chance(SEED, flat)
    with_stops = chance * sim.model.picks.STOP_SHARE ** len(ex01.clean_tasks(SEED))  # a stop step counted
    assert "stop step left out" in ex01.check_clean_chance(SEED, with_stops)
    assert ex01.check_clean_chance(SEED, min(1.0, chance * 1.2)).startswith("not right: too high")
    assert "percentage" in ex01.check_clean_chance(SEED, 50)
    assert f"{chance:.4f}" not in ex01.check_clean_chance(SEED, 0.5)


# ---- lesson 3


def test_saved_by_stopping_check_accepts_the_count_and_never_says_which_way():
    count = sum(
        not sim.is_correct(sim.run_task(setup, task, SEED, 12))
        and sim.is_correct(sim.run_task(setup, task, SEED, 12, stop_when_done=True))
        for setup in ("single-loop", "plan-execute") for task in sim.TASKS
    )  # fmt: skip
    assert ex03.check_saved_by_stopping(SEED, count).startswith("right")
    above = ex03.check_saved_by_stopping(SEED, count + 1)
    assert above.startswith("wrong: at seed 4242 that is not the count")
    assert "too high" not in above and "too low" not in above  # a small count is not found by halving
    if count:
        assert ex03.check_saved_by_stopping(SEED, count - 1) == above
    assert ex03.check_saved_by_stopping(SEED).startswith("not answered yet")


def _done(observation):
    """The reference solution of lesson 3, exercise 6: the request's words say what it asks for."""
    request, state = observation.request, observation.state
    if "kayda yaz" in request:  # a record: written, and what was written is the amount observed
        return state.get("written") is True and "amount" in state and state["value"] == state["amount"]
    wanted = "amount" if "bedeli" in request else "m3" if "tuketimi" in request else "code"
    return wanted in state and observation.held == state[wanted]


def test_stop_predicate_check_accepts_the_rule_and_names_the_first_slip():
    for seed in (SEED, sim.DEFAULT_SEED):
        assert ex03.check_stop_predicate(seed, _done).startswith("right")
    assert ex03.check_stop_predicate(SEED, lambda observation: None).startswith("not answered yet")
    late = ex03.check_stop_predicate(SEED, lambda observation: False)
    assert late.startswith("wrong: on task") and "later" in late
    early = ex03.check_stop_predicate(SEED, lambda observation: observation.held is not None)
    assert early.startswith("wrong: on task") and "before its goal is observed" in early
    assert "amount" not in early and "written" not in early  # the slip is named, not the rule
    broken = ex03.check_stop_predicate(SEED, lambda observation: observation.no_such_field)
    assert broken.startswith("wrong: policy") and "AttributeError" in broken


# ---- lesson 4


def test_exit_counts_check_accepts_the_counts_and_names_the_state_off():
    from sim.engine.contract import run_contract

    states = [run_contract(task, SEED, 8).exit_state for task in sim.TASKS]
    counts = {state: states.count(state) for state in set(states)}
    assert ex04.check_exit_counts(SEED, counts).startswith("right")
    assert ex04.check_exit_counts(SEED).startswith("not answered yet")
    assert ex04.check_exit_counts(SEED, {"SUCCESS": 24}).startswith(
        "wrong: at seed 4242 your count for SUCCESS"
    )
    most = max(counts, key=counts.get)
    below = ex04.check_exit_counts(SEED, {**counts, most: counts[most] - 1})
    above = ex04.check_exit_counts(SEED, {**counts, most: counts[most] + 1})
    assert below == above and f"your count for {most} is not right" in below  # not which way
    assert "too high" not in below and "too low" not in below
    assert "is no exit state" in ex04.check_exit_counts(SEED, {"DONE": 24})
    message = ex04.check_exit_counts(SEED, {"TIMEOUT": 0})
    assert str(counts[most]) not in message.replace(str(SEED), "")


def _plan_ok(plan, held):
    """The reference solution of lesson 4, exercise 7, from the data-flow rule (CT4), not from sim."""
    by_id, upstream = {step.id: step for step in plan.steps}, {}
    for step in plan.steps:
        provided = set()
        for dependency in step.depends_on:
            provided |= set(by_id[dependency].produces) | upstream[dependency]
        upstream[step.id] = provided
        if any(name not in provided and name not in held for name in step.requires):
            return False
    return plan.goal in held or any(plan.goal in step.produces for step in plan.steps)


def test_plan_validator_check_accepts_the_rule_and_rejects_slips():
    from sim.engine.plan_schema import data_flow_problems

    cases = ex04.plan_cases(SEED)
    assert len({not data_flow_problems(plan, held) for _, plan, held in cases}) == 2  # both kinds are checked
    assert ex04.check_plan_validator(SEED, _plan_ok).startswith("right")
    assert ex04.check_plan_validator(SEED, lambda plan, held: None).startswith("not answered yet")
    assert "lets it run" in ex04.check_plan_validator(SEED, lambda plan, held: True)
    assert "refuses it" in ex04.check_plan_validator(SEED, lambda plan, held: False)

    def in_order(plan, held):  # ignores depends_on: the fields of every earlier step count
        have = set(held)
        for step in plan.steps:
            if any(name not in have for name in step.requires):
                return False
            have |= set(step.produces)
        return plan.goal in have

    assert ex04.check_plan_validator(SEED, in_order).startswith("wrong: a plan for")
    assert ex04.check_plan_validator(SEED, lambda plan, held: "yes").startswith(
        "wrong: your function returned"
    )
    assert ex04.plan_cases(SEED)[0][1] != ex04.plan_cases(SEED + 1)[0][1] or len(cases) > 1
