"""The registry of the lessons' claims (see claims.py for the rule): per lesson, (fragment of the
sentence as written, evidence). A lesson joins the claim rule when it has an entry list here.

Checks are named functions, evaluated at the lesson's defaults (seeds 20260218 and 20260219,
budget 8), so a failing check names what no longer holds.
"""

from functools import cache

import nbformat
from claims import ByRule, Holds, NotAClaim, Printed  # noqa: F401 - the kinds of evidence entries use
from course_checks import LESSONS, printed_text

import sim
from sim import contract, costs, exits, outcomes, plan_schema, world

SEEDS = (sim.DEFAULT_SEED, sim.DEFAULT_SEED + 1)  # runs A and B of every lesson
SEED_A = SEEDS[0]
BUDGET = sim.DEFAULT_BUDGET  # 8 steps
SWEEP = (2, 4, 6, 8, 12)  # lesson 3's budgets, swept again in lesson 4
LOOPS = ("single-loop", "plan-execute")
UNIT_FIELDS = ("solved", "steps", "calls", "tokens", "errors")


# ---- shared helpers (cached: several checks read the same runs)


@cache
def _runs(setup: str, seed: int, budget: int = BUDGET, stop_when_done: bool = False) -> tuple:
    """Every task's run in a loop setup at a seed and budget."""
    return tuple(sim.run_task(setup, task, seed, budget, stop_when_done=stop_when_done) for task in sim.TASKS)


@cache
def _contract_runs(seed: int, budget: int = BUDGET) -> tuple:
    """Every task's contract run at a seed and budget, default bounds."""
    return tuple(contract.run_contract(task, seed, budget) for task in sim.TASKS)


@cache
def _measure(setup: str, seed: int, budget: int = BUDGET, **options) -> sim.Measurement:
    return sim.measure(setup, seed, budget, **options)


def _pair(setup: str, budget: int = BUDGET, **options) -> list:
    """Runs A and B of a setup, measured."""
    return [_measure(setup, seed, budget, **options) for seed in SEEDS]


def _counts(m) -> tuple:
    return tuple(getattr(m, name) for name in UNIT_FIELDS)


def _verdicts(first: list, second: list) -> dict:
    """The band rule's verdicts, by unit name."""
    return {v.unit: v for v in sim.compare_setups(first, second)}


def _band_rule_as_stated(first: list, second: list) -> bool:
    """Every unit's verdict is the rule in words: measured only when, on every run, the difference
    exceeds the larger of the two setups' own run-to-run differences."""
    for v in sim.compare_setups(first, second):
        band = max(max(v.first) - min(v.first), max(v.second) - min(v.second))
        differences = [b - a for a, b in zip(v.first, v.second, strict=True)]
        expected = "measured" if all(abs(d) > band for d in differences) else "unmeasured"
        if v.band != band or v.verdict != expected:
            return False
    return True


def _positions_done(run) -> int:
    """Positions of a loop run's sequence done: right calls that were no tool error."""
    return sum(bool(step.right) and not step.error for step in run.log)


# ---- lessons 1 and 2: the single loop's picks, tokens and switches


def right_picks_fall_with_depth_on_both_runs() -> bool:
    """Measured: on runs A and B the share of right picks falls from each depth to the next (1 to 4)."""
    for seed in SEEDS:
        shares = sim.depth_picks(seed, BUDGET)["share"].tolist()
        if not all(a > b for a, b in zip(shares, shares[1:], strict=False)):
            return False
    return True


def draw_share_falls_with_depth() -> bool:
    """The rule: the draw's share of taking the right tool falls with the position, to a floor."""
    shares = [sim.selection(d) for d in range(1, 10)]
    return (
        all(a >= b for a, b in zip(shares, shares[1:], strict=False))
        and shares[-1] == sim.picks.SELECTION_FLOOR
    )


def right_share_above_draw_share() -> bool:
    """The rule: counting lucky random picks, the share of right picks is above the draw's share at
    every position."""
    return all(sim.expected_right_share(d) > sim.selection(d) for d in range(1, 13))


def world_is_fixed_whatever_the_seed() -> bool:
    """The rule: the subscribers are built from the world seed alone, and no run at either seed, in
    either loop, changes them."""
    before = dict(sim.SUBSCRIBERS)
    for setup in LOOPS:
        for seed in SEEDS:
            _runs(setup, seed)
    return dict(sim.SUBSCRIBERS) == before == dict(world._build_subscribers())


def g03_later_steps_pay_for_the_failed_call() -> bool:
    """Run A's G03: every step after the wrong pick re-sends a trace one call longer because the failed
    call stays in it, so its step cost is 22 tokens above the cost without that call."""
    log = sim.run_single_loop("G03", SEED_A, BUDGET).log
    wrong = next((step.step for step in log if step.right is False), None)
    later = [step for step in log if wrong is not None and step.step > wrong]
    return bool(later) and all(
        step.trace_length == step.step - 1
        and costs.loop_step_tokens(step.trace_length) - costs.loop_step_tokens(step.trace_length - 1) == 22
        for step in later
    )


def loop_rows_are_lesson_2_rows() -> bool:
    """Lesson 1's two single-loop rows, as sim formats them, are printed by lesson 2 as well."""
    table = sim.format_table(sim.seed_table(_pair("single-loop")))
    rows = [line for line in table.splitlines() if line.startswith("single loop")]
    lesson_2 = printed_text(nbformat.read(LESSONS / "02_planner_executor.ipynb", as_version=4))
    return len(rows) == 2 and all(row in lesson_2 for row in rows)


def each_call_costs_22_more_than_the_step_before() -> bool:
    """The rule: in every single-loop run of runs A and B, a step that calls a tool costs 22 tokens
    more than the step before it (the trace it re-sends is one call longer)."""
    for seed in SEEDS:
        for run in _runs("single-loop", seed):
            for before, step in zip(run.log, run.log[1:], strict=False):
                if step.tool is not None and step.tokens - before.tokens != 22:
                    return False
    return True


def tokens_grow_faster_than_steps() -> bool:
    """The rule: each step of a clean run costs more than the one before, so the cheapest run's tokens
    grow by more with every tool added (lengths 1 to 8)."""
    cheapest = [costs.cheapest_loop_tokens(n) for n in range(1, 9)]
    added = [b - a for a, b in zip(cheapest, cheapest[1:], strict=False)]
    return all(a < b for a, b in zip(added, added[1:], strict=False))


def approval_asks_for_every_side_effect_call() -> bool:
    """The rule: with approval on, every run of runs A and B asks exactly once per write_record call,
    the one tool with a side effect."""
    only = [name for name, tool in sim.TOOLS.items() if tool.side_effect] == ["write_record"]
    return only and all(
        run.approvals == sum(call.tool == "write_record" for call in run.trace)
        for seed in SEEDS
        for run in (sim.run_single_loop(task, seed, BUDGET, approval=True) for task in sim.TASKS)
    )


def switches_change_no_draw() -> bool:
    """The rule, over the 10,000 seeds the lesson prints: with either switch every task's success, steps,
    calls and errors equal the plain loop's; tokens too with approval, and with self-critique they
    differ by exactly 40 a tool error."""
    from sim.many_seeds import many_seed_run

    plain = many_seed_run(sim.RunConfig("single-loop", BUDGET))
    critique = many_seed_run(sim.RunConfig("single-loop", BUDGET, self_critique=True))
    approval = many_seed_run(sim.RunConfig("single-loop", BUDGET, approval=True))
    same = all(
        (getattr(run, name) == getattr(plain, name)).all()
        for run in (critique, approval)
        for name in ("correct", "steps", "calls", "errors")
    )
    return (
        same
        and (approval.tokens == plain.tokens).all()
        and (critique.tokens - plain.tokens == costs.SELF_CRITIQUE_TOKENS * plain.errors).all()
    )


def band_rule_as_stated_for_the_switches() -> bool:
    """The band rule's verdicts for both switches against the plain loop are the rule as the lesson
    words it."""
    plain = _pair("single-loop")
    return _band_rule_as_stated(plain, _pair("single-loop", self_critique=True)) and _band_rule_as_stated(
        plain, _pair("single-loop", approval=True)
    )


# ---- lesson 2: the split


def planner_share_is_flat() -> bool:
    """The rule: the planner takes the right tool with selection(1) at every position; a draw of 0.75,
    which misses selection(2) in the loop, is right at all 4 positions of a plan."""
    sequence = ("read_meter", "consumption", "tariff", "write_record")
    return sim.picks.write_plan(sequence, lambda: 0.75) == sequence and not sim.picks.picks_right(
        0.75, sim.selection(2)
    )


def planning_is_a_step_of_the_budget() -> bool:
    """The rule: the split's planning is a step of the budget: at budget 1 a run plans and calls
    nothing; at budget 8 every run's steps are its planning step plus its loop steps, within 8."""
    for seed in SEEDS:
        for task in sim.TASKS:
            tiny = sim.run_plan_execute(task, seed, 1)
            if tiny.steps != 1 or tiny.calls != 0:
                return False
        if not all(run.steps == 1 + len(run.log) <= BUDGET for run in _runs("plan-execute", seed)):
            return False
    return True


def executor_follows_the_plan_first() -> bool:
    """The rule: on runs A and B every split run's first calls are its plan's positions, in order,
    right or wrong; only after them does any other pick come."""
    for seed in SEEDS:
        for run in _runs("plan-execute", seed):
            calls = [call.tool for call in run.trace]
            n = min(len(run.plan), len(calls))
            if calls[:n] != list(run.plan[:n]):
                return False
    return True


def band_rule_as_stated_loop_against_split() -> bool:
    """The band rule's verdicts, single loop against the split, are the rule as the lesson words it."""
    return _band_rule_as_stated(_pair("single-loop"), _pair("plan-execute"))


def read_meter_and_search_docs_find_their_fields() -> bool:
    """The rule: read_meter and search_docs need only fields every run starts with, so a call to
    either makes no tool error at any point of any task."""
    from sim.agents import initial_state

    return all(
        "error" not in world.call_tool(tool, initial_state(task))
        for task in sim.TASKS
        for tool in ("read_meter", "search_docs")
    )


# ---- lesson 3: the step budget


def g05_split_needs_three_calls_after_its_plan() -> bool:
    """Run A's G05 in the split: after its 3 plan positions it needs 3 more calls to finish."""
    run = sim.run_plan_execute("G05", SEED_A, BUDGET)
    return len(run.trace) - len(run.plan) == 3 and _positions_done(run) == 3


def a_sequence_needs_its_length_in_steps() -> bool:
    """The rule: with one step fewer than its sequence's length (plus the split's planning step), no
    task completes its sequence, in either loop on runs A and B."""
    for setup in LOOPS:
        planning = sim.config.PLANNING_STEPS[setup]
        for seed in SEEDS:
            for task in sim.TASKS:
                budget = len(task.sequence) + planning - 1
                if budget < 1:
                    continue
                if _positions_done(sim.run_task(setup, task, seed, budget)) >= len(task.sequence):
                    return False
    return True


def both_flip_cases_are_g23() -> bool:
    """The sweep's only cases of a smaller budget solving more are run A's single loop at 6 against 8
    and 12, and in both the one task that flips is G23."""
    cases = []
    for setup in LOOPS:
        for seed in SEEDS:
            solved = {budget: _measure(setup, seed, budget).solved for budget in SWEEP}
            cases += [(setup, seed, a, b) for a in SWEEP for b in SWEEP if a < b and solved[a] > solved[b]]
    if cases != [("single-loop", SEED_A, 6, 8), ("single-loop", SEED_A, 6, 12)]:
        return False
    for setup, seed, small, large in cases:
        flipped = [
            task.name
            for task in sim.TASKS
            if sim.is_correct(sim.run_task(setup, task, seed, small))
            and not sim.is_correct(sim.run_task(setup, task, seed, large))
        ]
        if flipped != ["G23"]:
            return False
    return True


def single_loop_spoils_only_before_done() -> bool:
    """On runs A and B, at every budget of the sweep, each answer the single loop spoils was lost
    before its job was done."""
    for seed in SEEDS:
        for budget in SWEEP:
            for run in _runs("single-loop", seed, budget):
                if outcomes.outcome(run) == "spoiled" and outcomes.loss_cause(run) != outcomes.LOSSES[1]:
                    return False
    return True


def success_unchanged_from_8_to_12() -> bool:
    """Runs A and B: from budget 8 to 12 success does not change in either loop; steps and tokens do
    not fall, and on the single loop's run B nothing changes."""
    for setup in LOOPS:
        for seed in SEEDS:
            at_8, at_12 = _measure(setup, seed, 8), _measure(setup, seed, 12)
            if at_8.solved != at_12.solved or at_12.steps < at_8.steps or at_12.tokens < at_8.tokens:
                return False
    return _counts(_measure("single-loop", SEEDS[1], 8)) == _counts(_measure("single-loop", SEEDS[1], 12))


@cache
def _tuned_margins() -> dict:
    """Lesson 3's margins, tuned as the lesson tunes them: 99 % of task runs on 200 seeds from run A + 2."""
    from sim.many_seeds import extra_steps, smallest_margin

    tuning = sim.study_seeds(200, SEED_A + 2)
    return {setup: smallest_margin(extra_steps(setup, tuning), 0.99) for setup in LOOPS}


def margin_never_cuts_the_lesson_runs() -> bool:
    """Runs A and B: in both loops SB1 alone at budget 12 and SB1 with SB2 at the tuned margin give the
    same counted units (the margins are 4 and 6)."""
    margins = _tuned_margins()
    if margins != {"single-loop": 4, "plan-execute": 6}:
        return False
    return all(
        _counts(_measure(setup, seed, 12, stop_when_done=True))
        == _counts(_measure(setup, seed, 12, stop_when_done=True, budget_margin=margins[setup]))
        for setup in LOOPS
        for seed in SEEDS
    )


# ---- lesson 4: the contract


def split_cheaper_in_tokens_on_both_runs() -> bool:
    """Lesson 2's finding: on runs A and B the split spends fewer tokens than the single loop."""
    return all(
        split.tokens < loop.tokens
        for loop, split in zip(_pair("single-loop"), _pair("plan-execute"), strict=True)
    )


def contract_bounds_hold_and_one_exit_state() -> bool:
    """The rule: on runs A and B, at every budget from 1 to 12 and with tighter token and time bounds,
    no contract run exceeds a bound, and each ends in exactly one of the 4 exit states."""
    cases = [dict(max_steps=b) for b in range(1, 13)]
    cases += [dict(max_steps=BUDGET, max_tokens=t, max_seconds=s) for t in (205, 400, 600) for s in (7, 12)]
    for seed in SEEDS:
        for bounds in cases:
            for task in sim.TASKS:
                run = contract.run_contract(task, seed, **bounds)
                b = run.bounds
                if not (
                    run.steps <= b.max_steps
                    and run.tokens <= b.max_tokens
                    and run.seconds <= b.max_seconds
                    and run.replans <= b.max_replans
                    and run.exit_state in exits.EXIT_STATES
                    and run.exit_state == exits.exit_state_of(run)
                ):
                    return False
    return True


def contract_first_plan_is_split_plan() -> bool:
    """The rule (CT2): on runs A and B every task's first contract plan is the split's plan."""
    return all(
        run.plan == split.plan
        for seed in SEEDS
        for run, split in zip(_contract_runs(seed), _runs("plan-execute", seed), strict=True)
    )


def refused_replans_count() -> bool:
    """The rule (CT7): run A's G03 has its first plan and both replans refused; the 2 refused replans
    use up max_replans and the run stops on it."""
    run = contract.run_contract("G03", SEED_A, BUDGET)
    refused = sum(event.kind == "refused" for event in run.events)
    return refused == 3 and run.replans == 2 == run.bounds.max_replans and run.stop_reason == "max_replans"


def contract_steps_are_planner_and_tool_calls() -> bool:
    """The rule (CT8): on runs A and B each contract run's steps are its planner calls plus its tool
    calls; a refusal or a failed precondition adds no step, token or second."""
    for seed in SEEDS:
        for run in _contract_runs(seed):
            planner_calls = sum(event.kind in ("plan", "replan") for event in run.events)
            if run.steps != planner_calls + run.calls:
                return False
            for before, event in zip(run.events, run.events[1:], strict=False):
                if event.kind in ("refused", "precondition") and (event.step, event.tokens, event.seconds) != (
                    before.step, before.tokens, before.seconds
                ):  # fmt: skip
                    return False
    return True


def plans_follow_tool_contracts() -> bool:
    """The rule (CT3): every step of every plan written on runs A and B requires and produces what its
    tool's contract says."""
    return all(
        (step.requires, step.produces)
        == (plan_schema.TOOL_CONTRACTS[step.tool].requires, plan_schema.TOOL_CONTRACTS[step.tool].produces)
        for seed in SEEDS
        for run in _contract_runs(seed)
        for plan in run.plans
        for step in plan.steps
    )


def validated_plans_never_fail_a_precondition() -> bool:
    """The rule: every tool, called with what its contract requires, gives what its contract produces;
    and no contract run of runs A and B, at any budget from 1 to 12, fails a precondition or makes a
    tool error."""
    from sim.agents import call_and_observe, initial_state

    for task in sim.TASKS:
        state = initial_state(task)
        for tool in task.sequence:
            observation = call_and_observe(tool, state)
            if not set(plan_schema.TOOL_CONTRACTS[tool].produces) <= set(observation):
                return False
    for seed in SEEDS:
        for budget in range(1, 13):
            for run in _contract_runs(seed, budget):
                if run.errors or any(event.kind in ("precondition", "tool error") for event in run.events):
                    return False
    return True


def scratchpad_keeps_every_raw_result() -> bool:
    """The scratchpad of every contract run of runs A and B keeps one raw result per tool call and the
    outputs of each completed step."""
    return all(
        len(run.scratchpad.raw) == run.calls and len(run.scratchpad.outputs) == run.calls - run.errors
        for seed in SEEDS
        for run in _contract_runs(seed)
    )


def sb1_spends_no_stop_step() -> bool:
    """The rule: under SB1 a loop run that ends its job spends no step deciding to stop (its steps are
    its calls, plus the planning step), as a contract run whose plan completes."""
    for setup in LOOPS:
        planning = sim.config.PLANNING_STEPS[setup]
        for seed in SEEDS:
            for run in _runs(setup, seed, BUDGET, stop_when_done=True):
                if run.stopped and run.steps != run.calls + planning:
                    return False
    return all(
        run.steps == run.calls + sum(e.kind in ("plan", "replan") for e in run.events)
        for seed in SEEDS
        for run in _contract_runs(seed)
        if run.stop_reason == exits.PLAN_COMPLETE
    )


def g03_never_calls_a_tool() -> bool:
    """Run A's G03 under the contract: no tool call, ending REPLAN_EXHAUSTED."""
    run = contract.run_contract("G03", SEED_A, BUDGET)
    return run.calls == 0 and run.exit_state == exits.REPLAN_EXHAUSTED


def contract_never_calls_a_wrong_tool() -> bool:
    """The rule: on runs A and B, at every budget from 1 to 12, a contract run's tool calls are its
    task's sequence, in order, and none is a tool error."""
    for seed in SEEDS:
        for budget in range(1, 13):
            for run, task in zip(_contract_runs(seed, budget), sim.TASKS, strict=True):
                tools = [call.tool for call in run.trace]
                if run.errors or tools != list(task.sequence[: len(tools)]):
                    return False
    return True


def spoiled_loop_runs_fall_as_stated() -> bool:
    """The rule (CT12 read from a trace): every loop run of runs A and B that stopped by itself with a
    wrong answer ends PARTIAL_SUCCESS when it held a correct intermediate and TIMEOUT otherwise."""
    for setup in LOOPS:
        for seed in SEEDS:
            for run in _runs(setup, seed):
                if not run.stopped or sim.is_correct(run):
                    continue
                task = sim.check_task(run.task)
                held = {call.tool for call in run.trace if not call.error}
                intermediate = (task.kind in ("charge", "record") and "consumption" in held) or (
                    task.kind == "record" and "tariff" in held
                )
                if exits.exit_state_of(run) != (exits.PARTIAL_SUCCESS if intermediate else exits.TIMEOUT):
                    return False
    return True


@cache
def _sweep_verdicts() -> dict:
    """(budget, other setup) -> the band rule's verdicts of the contract against it, runs A and B."""
    return {
        (budget, other): _verdicts(_pair(other, budget), _pair("contract", budget))
        for budget in SWEEP
        for other in LOOPS
    }


def success_measured_at_two_budgets_only() -> bool:
    """Across the sweep, success is measured only at 2 steps against the single loop (3 and 4 tasks
    fewer for the contract) and at 6 steps against the split (3 more on both runs)."""
    measured = {
        key: verdicts["success"].differences
        for key, verdicts in _sweep_verdicts().items()
        if verdicts["success"].verdict == "measured"
    }
    return measured == {(2, "single-loop"): (-3, -4), (6, "plan-execute"): (3, 3)}


def contract_tokens_against_both_across_the_sweep() -> bool:
    """Across the sweep: at 2 steps the contract spends more tokens than both loops, and from 4 steps on
    fewer than both, measured every time."""
    for (budget, _other), verdicts in _sweep_verdicts().items():
        tokens = verdicts["tokens"]
        sign = 1 if budget == 2 else -1
        if tokens.verdict != "measured" or not all(d * sign > 0 for d in tokens.differences):
            return False
    return True


def band_rule_as_stated_contract() -> bool:
    """The band rule's verdicts, contract against the single loop and against the split, are the rule as
    the lesson words it."""
    runs = _pair("contract")
    return all(_band_rule_as_stated(_pair(other), runs) for other in LOOPS)


# ---- the registry


REGISTRY: dict[str, list] = {
    "01": [
        ("At every step the agent looks at the job and at everything it has done so far",
         NotAClaim("defines the single loop; the step's code is shown further down")),
        ("Every other arrangement in this course is measured against it",
         NotAClaim("states the course's plan: each later lesson sets its setup beside the single loop's rows")),
        ("the small fictional world every lesson runs in",
         NotAClaim("describes the course: every lesson imports the one world of sim")),
        ("it picks worse the deeper it gets into a job", Holds(right_picks_fall_with_depth_on_both_runs)),
        ("Every figure in this text is printed by a cell of this notebook",
         NotAClaim("the prose-figure rule, enforced by tests/test_lessons.py, not a result")),
        ("The world is built once and never changes", ByRule(world_is_fixed_whatever_the_seed)),
        ("and every m3 above 40 at 16", Printed(" above 40          16")),
        ("But every other request finds something as well",
         Printed("tasks whose request search_docs cannot match: 0 of 24")),
        ("Each step of the single loop does the same things, in this order",
         NotAClaim("introduces the numbered definition of a step; the code is printed after it")),
        ("that share falls by 0.09 with every position, down to a floor of 0.34",
         Printed("max(0.34, 0.8 - 0.09 x (d - 1))")),
        ("so the share of right picks is a little higher than the draw's", ByRule(right_share_above_draw_share)),
        ("Token accounting: a step costs 60 + 22 x trace length",
         Printed("single-loop step (tokens)                60 + 22 x trace length",
                 "observation (tokens)                                    30",
                 "self-critique, per tool error (tokens)                                    40")),
        ("so step 3 aims at the same position again",
         Printed("    3     2 consumption consumption right                        2     134             336          52")),
        ("every step after it costs 22 tokens more than it would have",
         Holds(g03_later_steps_pay_for_the_failed_call)),
        ("These are the same two rows", Holds(loop_rows_are_lesson_2_rows)),
        ("the deeper the position, the fewer right picks", Holds(right_picks_fall_with_depth_on_both_runs)),
        ("How far does the share fall by the fourth position?", NotAClaim("a question the next cell answers")),
        ("On run A the share of right picks falls from 0.8 at the first position to 0.5",
         Printed("run A: depth 1 0.8000 (24/30) -> depth 4 0.5000 (3/6)",
                 "run B: depth 1 0.7742 (24/31) -> depth 4 0.5000 (3/6)")),
        ("the share fell to 0.625 and 0.6458 of its value",
         Printed("depth 4 / depth 1 = 0.6250, a fall of 37.5 %", "depth 4 / depth 1 = 0.6458, a fall of 35.4 %")),
        ("One pick more or less right would move it by 0.1667",
         Printed("one right pick more or less at depth 4 moves its share by 1/6 = 0.1667")),
        ("more than the 0.072 the expected line falls from one depth to the next",
         Printed("run A: largest gap between measured and expected share 0.124 at depth 4",
                 "run B: largest gap between measured and expected share 0.124 at depth 4",
                 "the expected line falls 0.072 from one depth to the next")),
        ("the points say that the share falls, not by how much", Holds(right_picks_fall_with_depth_on_both_runs)),
        ("What the model predicts becomes visible only with many more picks",
         Printed("largest gap between measured and expected share 0.124",
                 "     4    934    568 0.6081     0.624           -0.0159")),
        ("The same count, pooled over many seeds:", NotAClaim("describes what the next cell does")),
        ("Pooled over 200 seeds, the shares fall at every depth",
         Printed("     1   5683   4800 0.8446     0.840            0.0046",
                 "     2   4449   3400 0.7642     0.768           -0.0038",
                 "     3   2644   1793 0.6781     0.696           -0.0179",
                 "     4    934    568 0.6081     0.624           -0.0159")),
        ("each step that calls a tool costs 22 tokens more than the one before it",
         ByRule(each_call_costs_22_more_than_the_step_before)),
        ("The right panel puts every task's total tokens against its sequence length",
         NotAClaim("describes the figure the next cell draws")),
        ("tokens grow faster than steps: each wasted step makes every later step dearer",
         ByRule(tokens_grow_faster_than_steps)),
        ("Each is measured on the same runs as the plain loop",
         NotAClaim("describes the method: the cells measure each switch at the plain loop's seeds and budget")),
        ("a difference counts as measured only when, on every run, it exceeds the larger",
         ByRule(band_rule_as_stated_for_the_switches)),
        ("reflects on every tool error, which costs 40 tokens an error",
         Printed("run A: tokens +320 = 40 x 8 tool errors", "run B: tokens +280 = 40 x 7 tool errors")),
        ("so all 24 traces are the same on both runs",
         Printed("tasks whose trace is the same with and without self-critique: 24 and 24 of 24")),
        ("every call to a side-effecting tool asks a human for approval before it runs",
         ByRule(approval_asks_for_every_side_effect_call)),
        ("is the only such tool", Printed("5 tools, 1 with a side effect")),
        ("in tasks that never asked for a record; on run B, 9 and 6",
         Printed("approvals asked                         7  9", "write_record where no record was asked  4  6")),
        ("and one more kind of damage: G23, a record task, writes TR01",
         Printed(" G23   record              True     8 write_record      4   True  False  TR01    1132",
                 "run A: 23/24 solved; unsolved: G23")),
        ("Approval changes none of the counted units",
         Printed("success: (23, 23) -> (23, 23), band 0: unmeasured",
                 "steps: (97, 98) -> (97, 98), band 1: unmeasured",
                 "tool calls: (74, 74) -> (74, 74), band 0: unmeasured",
                 "tokens: (11978, 11994) -> (11978, 11994), band 16: unmeasured",
                 "tool errors: (8, 7) -> (8, 7), band 1: unmeasured")),
        ("7 and 9 approval requests against none, measured against a band of 2",
         Printed("approvals asked: (0, 0) -> (7, 9), band 2: measured",
                 "approvals for unwanted writes: (0, 0) -> (4, 6), band 2: measured")),
        ("What refusing them would save is a question",
         NotAClaim("names a question the simulator cannot answer; it claims no saving")),
        ("every difference but self-critique's tokens is exactly zero on every seed",
         ByRule(switches_change_no_draw)),
        ("Right picks fall with depth: from 0.8 to 0.5 on run A",
         Printed("run A: depth 1 0.8000 (24/30) -> depth 4 0.5000 (3/6); depth 4 / depth 1 = 0.6250, a fall of 37.5 %",
                 "run B: depth 1 0.7742 (24/31) -> depth 4 0.5000 (3/6); depth 4 / depth 1 = 0.6458, a fall of 35.4 %")),
        ("Every step re-sends the trace: 32.9 % and 32.5 % of all tokens",
         Printed("run A: 3938 of 11978 tokens re-send the trace (32.9 %)",
                 "run B: 3894 of 11994 tokens re-send the trace (32.5 %)",
                 "G15: 1306 tokens, of which 616 re-send the trace (47.2 %)")),
        ("it asks 7 and 9 times, 4 and 6 of them for writes in tasks that never asked for a record",
         Printed("approvals asked                         7  9", "write_record where no record was asked  4  6")),
        ("why do the depth-1 points move so much less?", NotAClaim("an exercise question for the student")),
        ("Is the token difference always measured?", NotAClaim("an exercise question for the student")),
        ("Are the unwanted writes usually more or fewer than the wanted ones",
         NotAClaim("an exercise question for the student")),
        ("the checks compute the answers for that seed and say right or wrong, and what is off, never the answer",
         NotAClaim("an exercise for the student: describes what the checks of sim.exercises_* print")),
    ],
    "02": [
        ("the share of right tool picks falls with every position of the sequence",
         Holds(right_picks_fall_with_depth_on_both_runs)),
        ("Does the split solve more tasks than the single loop?", NotAClaim("a question the lesson sets out to answer")),
        ("Every figure in this text is printed by a cell of this notebook",
         NotAClaim("the prose-figure rule, enforced by tests/test_lessons.py, not a result")),
        ("It chooses every position at once, with the same information", ByRule(planner_share_is_flat)),
        ("It is paid out of the same budget as every other step", ByRule(planning_is_a_step_of_the_budget)),
        ("does the executor fall back to the single loop's rule for what remains",
         ByRule(executor_follows_the_plan_first)),
        ("Every observation costs 30.", Printed("observation (tokens)                              30")),
        ("Every position of the plan is one draw: right with the flat share", ByRule(planner_share_is_flat)),
        ("but only after every one of the 8 steps was used",
         Printed("steps 8  tokens 805  tool errors 3  answer 550  correct 550")),
        ("The same run as a table, one row a step:", NotAClaim("describes what the next cell prints")),
        ("in both setups, on both runs, with the same step budget", Printed("step budget: 8 steps for both setups")),
        ("Each unit gets the same test, the band rule", ByRule(band_rule_as_stated_loop_against_split)),
        ("The same figures as a picture", NotAClaim("describes the figure the next cell draws")),
        ("on run A it only equals the band, on run B there is none",
         Printed("split's run-to-run difference: 2 tasks = 0.0833",
                 "difference between setups: 2 tasks on run A, 0 on run B")),
        ("Over 10,000 seeds the split does solve fewer tasks, by less than 1 % of them a run",
         Printed("over 10000 seeds: -0.0079 of the tasks a run, 95 % interval [-0.0092, -0.0066]: resolved down")),
        ("The cell lists every lost task with its cause",
         NotAClaim("describes the next cell and defines its cause 'spoiled after the job was done'")),
        ("Planning adds one step to every task, 24 steps in all", ByRule(planning_is_a_step_of_the_budget)),
        ("It takes fewer, and the difference can be accounted for to the step",
         Printed("run A: 97 + 24 = 121 expected, 118 measured: 3 fewer = 3 fewer tool calls + 0 fewer stop steps",
                 "run B: 98 + 24 = 122 expected, 116 measured: 6 fewer = 4 fewer tool calls + 2 fewer stop steps")),
        ("So the two runs do not tell the same story in detail",
         Printed("3 fewer = 3 fewer tool calls + 0 fewer stop steps", "6 fewer = 4 fewer tool calls + 2 fewer stop steps")),
        ("over 10,000 seeds the split makes about 0.86 more calls a run",
         Printed("tool calls over 10000 seeds: +0.86 a run, 95 % interval [+0.72, +1.01]: resolved up")),
        ("a fall of 13.6 % on run A and 15.5 % on run B",
         Printed("run A: 11978 -> 10345, fall 13.6 %", "run B: 11994 -> 10135, fall 15.5 %")),
        ("for the same trace an executor step costs 40 + 10 tokens a call",
         Printed("single-loop step (tokens)          60 + 22 x trace length",
                 "executor step (tokens)          40 + 10 x trace length")),
        ("the rules alone then account for the fall, less the plans' cost",
         Printed("run A: fall 1633 = 3908 (the split's own steps at the loop's price, by the rules) - 2765 (the plans)"
                 " + 490 (different steps taken)",
                 "run B: fall 1859 = 3748 (the split's own steps at the loop's price, by the rules) - 2765 (the plans)"
                 " + 876 (different steps taken)")),
        ("The split makes more tool errors: 10 and 12 against 8 and 7",
         Printed("single loop 8, 7 | planner + executor 10, 12")),
        ("The direction is the same on both runs", Printed("bands: 1 and 2 | differences: 2 and 5")),
        ("always finds its fields and makes no tool error", ByRule(read_meter_and_search_docs_find_their_fields)),
        ("With 8 tasks or fewer per length, the 2 runs' counts are small; the 10,000 seeds follow the model",
         Printed("           1      7       6/7 = 0.8571       6/7 = 0.8571        0.8400       0.8399",
                 "           2      8       6/8 = 0.7500       6/8 = 0.7500        0.7056       0.7018",
                 "           3      6       4/6 = 0.6667       5/6 = 0.8333        0.5927       0.5922",
                 "           4      3       2/3 = 0.6667       1/3 = 0.3333        0.4979       0.4945")),
        ("The counted units once more, as bars", NotAClaim("describes the figure the next cell draws")),
        ("The difference never exceeds the split's own band",
         Printed("    success       23       23        21        23            -2             0           0            2"
                 "     2 unmeasured")),
        ("planning adds exactly one step per task, by the rules", ByRule(planning_is_a_step_of_the_budget)),
        ("On run A 121 would be expected and the split took 118: 3 fewer tool calls",
         Printed("run A: 97 + 24 = 121 expected, 118 measured: 3 fewer = 3 fewer tool calls")),
        ("On run B, 122 and 116: 4 fewer tool calls and 2 fewer stop steps",
         Printed("run B: 98 + 24 = 122 expected, 116 measured: 6 fewer = 4 fewer tool calls + 2 fewer stop steps")),
        ("Tokens fall by 13.6 % and 15.5 %, far above bands of 16 and 210: measured",
         Printed("fall 13.6 %", "fall 15.5 %", "bands: single loop 16, planner + executor 210 tokens; verdict: measured")),
        ("Much of the fall is given by the token rules (a cheaper executor step), less the plans' cost",
         Printed("3908 (the split's own steps at the loop's price, by the rules) - 2765 (the plans)",
                 "3748 (the split's own steps at the loop's price, by the rules) - 2765 (the plans)")),
        ("the split solves fewer tasks and makes more tool calls and more tool errors; it uses fewer tokens",
         Printed("the 2-run verdict agrees with 10000 seeds on 2 of 5 units",
                 "-0.0079   [-0.0092, -0.0066] resolved down",
                 "+0.86       [+0.72, +1.01]   resolved up",
                 "+4.75       [+4.65, +4.86]   resolved up",
                 "-1237.42 [-1257.78, -1217.07] resolved down")),
        ("Two runs measured fewer tool calls; 10,000 seeds resolve more",
         Printed(" tool calls measured down           +0.86       [+0.72, +1.01]   resolved up")),
        ("Tool errors rise on both runs (10 and 12 against 8 and 7)",
         Printed("single loop 8, 7 | planner + executor 10, 12", "bands: 1 and 2 | differences: 2 and 5 | verdict: unmeasured")),
        ("Both setups ran on the same step budget, 8 steps", Printed("step budget: 8 steps for both setups")),
        ("G05 needed 3 more steps after its plan ran out", Holds(g05_split_needs_three_calls_after_its_plan)),
        ("with a smaller budget it ends with a wrong answer",
         Printed("G05, split, budget 6: answer 55, correct 550", "G05, split, budget 7: answer 550, correct 550")),
        ("Press new seed until the split solves more tasks than the single loop on both runs",
         NotAClaim("an exercise for the student")),
        ("why does the planning step weigh more at a small budget?", NotAClaim("an exercise question for the student")),
        ("The token fall is measured at the lesson's seeds",
         Printed("bands: single loop 16, planner + executor 210 tokens; verdict: measured")),
        ("Find the smallest budget at which the split still uses fewer tokens", NotAClaim("an exercise for the student")),
        ("the checks compute the answers for that seed and say right or wrong, and what is off, never the answer",
         NotAClaim("an exercise for the student: describes what the checks of sim.exercises_* print")),
        ("The check runs it on every counted unit at several seed pairs from your seed",
         NotAClaim("an exercise for the student: describes what check_band_verdict runs")),
    ],
    "03": [
        ("ran both setups with a budget of 8 steps and never said why",
         NotAClaim("about the earlier lesson's text: it fixed the budget without a reason; no measured result")),
        ("Too small, and a loop cannot finish: the split's G05 needed 3 more steps after its plan ran out",
         Holds(g05_split_needs_three_calls_after_its_plan)),
        ("look at the cases where a smaller budget scores higher than a larger one",
         Printed("single loop, run A: budget 6 solves 24, budget 8 solves 23", "cases found: 2")),
        ("everything is fictional and every figure in the text is printed by a cell",
         NotAClaim("the prose-figure rule, enforced by tests/test_lessons.py, not a result")),
        ("Both setups, both runs, every budget: the counted units", NotAClaim("describes what the next cell prints")),
        ("The same sweep as lines.", NotAClaim("describes the figure the next cell draws")),
        ("A task needs at least as many steps as its sequence has tools", ByRule(a_sequence_needs_its_length_in_steps)),
        ("At budget 4 every sequence fits into the single loop's budget",
         Printed("      4                         24                                21")),
        ("shows the same edge for one task",
         Printed("G05, split, budget 6: answer 55, correct 550, outcome: out of budget")),
        ("Its plan wasted 3 steps, so it needs every step up to the budget of 7",
         Printed("G05, split, budget 6: answer 55, correct 550, outcome: out of budget",
                 "G05, split, budget 7: answer 550, correct 550, outcome: solved")),
        ("Too large: fewer steps that score higher", Printed("single loop, run A: budget 6 solves 24, budget 8 solves 23")),
        ("Can a larger budget score lower?", NotAClaim("a question the next cell answers")),
        ("The cell searches the sweep for every setup, run and pair of budgets",
         NotAClaim("describes what the next cell does")),
        ("Both cases are the same task, G23, a record task", Holds(both_flip_cases_are_g23)),
        ("the answer is right, the record was never written, and the original measure counts a success",
         Printed("budget 6: outcome solved, no record written",
                 "steps 6  tokens 870  tool errors 0  answer 1132  correct 1132")),
        ("The smaller budget did not do better; it stopped the run before its mistake",
         Printed("budget 6: outcome solved, no record written", "budget 8: outcome spoiled")),
        ("The cell sorts every run of the sweep into outcomes",
         NotAClaim("defines the outcomes the next cell counts")),
        ("First, the small budgets flatter the record tasks",
         Printed("       single loop   A       6      22                          2        0              0      0"
                 "                 24",
                 "planner + executor   A       4      16                          2        1              5      0"
                 "                 18")),
        ("The grids show every task at every budget from 1 to 12 on run A",
         NotAClaim("describes the figures the next cell draws")),
        ("The cell reruns every task at budget 12 with one change", NotAClaim("describes what the next cell does")),
        ("In the single loop every spoiled answer on these runs was lost before the job was done",
         Holds(single_loop_spoils_only_before_done)),
        ("Every task finished, and none needed more than 4 steps beyond its plan",
         Printed("every task stopped: True | largest extra steps: 4 -> margin = 4")),
        ("But that margin was read off the same 2 runs it would be applied to",
         NotAClaim("states how the margin above was read: from runs A and B, the runs the rule is measured on")),
        ("the tuned margins let more than 99 % of task runs finish in both setups",
         Printed("it lets 0.9906 of task runs finish", "it lets 0.9921 of task runs finish")),
        ("holds for the single loop but falls short for the split",
         Printed("the 2-run margin 4 lets 0.9906", "the 2-run margin 4 lets 0.9662")),
        ("and the effect of stopping when done alone at the same budget of 8 steps",
         Printed("the rule's budgets: 5 to 8 steps by task, against 8; stop when done alone at budget 8",
                 "the rule's budgets: 8 to 11 steps by task, against 8; stop when done alone at budget 8")),
        ("In the split it rises by 2 tasks on run A and 1 on run B, which is no more than the band of 2 tasks",
         Printed("    success       21       23        23        24             2             1           2            1"
                 "     2 unmeasured")),
        ("The split also makes 3 and 2 fewer tool calls, against a band of 1: measured",
         Printed(" tool calls       71       70        68        68            -3            -2           1            0"
                 "     1   measured")),
        ("On these runs the margin never cuts a run short", Holds(margin_never_cuts_the_lesson_runs)),
        ("on the held-out seeds it lets more than 99 % of them finish",
         Printed("it lets 0.9906 of task runs finish", "it lets 0.9921 of task runs finish")),
        ("At budget 2 the split can only finish the 7 tasks of length 1, and solves 6",
         Printed("      2                         15                                 7",
                 "planner + executor   A       2       6", "planner + executor   B       2       6")),
        ("From budget 8 to 12 success does not change in either setup on either run",
         Holds(success_unchanged_from_8_to_12)),
        ("is not a better result than 23 at 8: 2 of those successes never wrote their record",
         Printed("       single loop   A       6      22                          2",
                 "       single loop   A       8      23                          0")),
        ("On runs A and B it saves steps and tokens, measured",
         Printed("      steps       97       98        73        71           -24           -27           1            2"
                 "     2   measured",
                 "     tokens    11978    11994      9034      8546         -2944         -3448          16          488"
                 "   488   measured",
                 "      steps      118      116        92        92           -26           -24           2            0"
                 "     2   measured",
                 "     tokens    10345    10135      8485      8525         -1860         -1610         210           40"
                 "   210   measured")),
        ("does any task need more than its plan length plus 4?", NotAClaim("an exercise question for the student")),
        ("the checks compute the answers for that seed and say right or wrong, and what is off, never the answer",
         NotAClaim("an exercise for the student: describes what the checks of sim.exercises_* print")),
        ("What stopping saves, counted.", NotAClaim("an exercise for the student")),
        ("it must stop each task at the first step after its job is done, as SB1 does, never before",
         NotAClaim("an exercise for the student: what check_stop_predicate requires")),
        ("the outcome grid of one setup for every budget up to the chosen one",
         NotAClaim("describes the control panel")),
    ],
    "04": [
        ("The split was cheaper in tokens", Holds(split_cheaper_in_tokens_on_both_runs)),
        ("hard bounds on steps, tokens and simulated seconds stop every run; and every run ends in exactly one exit state",
         ByRule(contract_bounds_hold_and_one_exit_state)),
        ("the blind split on the same 24 tasks, seeds and budgets", Printed("step budget: 8 steps for every setup")),
        ("The first plan (CT2) is the split's plan for the same task and seed", ByRule(contract_first_plan_is_split_plan)),
        ("Preconditions (CT5) are checked before every call",
         Printed("precondition: step 's2' (tariff): the scratchpad lacks m3")),
        ("refused ones included", ByRule(refused_replans_count)),
        ("Every planner call and every tool call is a step; validation and precondition checks cost nothing",
         ByRule(contract_steps_are_planner_and_tool_calls)),
        ("Every plan's requires and produces come from this table", ByRule(plans_follow_tool_contracts)),
        ("the same 3 tools from the same draws",
         Printed("split's plan   : tariff -> consumption -> tariff", "contract's plan: tariff -> consumption -> tariff")),
        ("each on a copy of the same right plan with one thing broken",
         NotAClaim("describes the next cell's method: each case breaks one thing of the same right plan")),
        ("so the executor checks each step's required fields against the scratchpad before every call",
         Printed("precondition: step 's2' (tariff): the scratchpad lacks m3")),
        ("a plan that passes validation never fails a precondition; to see the check work",
         ByRule(validated_plans_never_fail_a_precondition)),
        ("One object holds the state of a run", ByRule(scratchpad_keeps_every_raw_result)),
        ("each right with the same flat share as before, from the same draw stream",
         Printed(" CT6 share of right positions, every replan             selection(1) = 0.8",
                 "replan: s4:read_meter -> s5:consumption -> s6:tariff")),
        ("so no bound is ever exceeded", ByRule(contract_bounds_hold_and_one_exit_state)),
        ("yet the record was never written",
         Printed("          G15, right plan, max_steps 4  PARTIAL_SUCCESS     max_steps     True      4     400        9"
                 "        0")),
        ("The same first plan, from the same draws",
         Printed("split's plan   : tariff -> consumption -> tariff", "contract's plan: tariff -> consumption -> tariff")),
        ("On G05 the refusal costs 1 planner call (165 tokens) and saves the 3 blind calls that failed",
         Printed("the replan cost 1 step, 165 tokens and 5 simulated seconds",
                 "the contract saves 3 steps, 3 tool calls, 265 tokens and 3 tool errors on G05")),
        ("The first table is the original one; the second adds what only the contract counts",
         NotAClaim("describes the two tables the next cell prints")),
        ("The band rule decides each unit", ByRule(band_rule_as_stated_contract)),
        ("which never exceeds the split's own band of 2",
         Printed("    success       23       23        23        23             0             0           0            0"
                 "     0 unmeasured",
                 "    success       21       23        23        23             2             0           2            0"
                 "     2 unmeasured")),
        ("Over 10,000 seeds the contract solves more than either",
         Printed("    success    unmeasured         +0.0172   [+0.0160, +0.0184]   resolved up",
                 "    success    unmeasured         +0.0251   [+0.0240, +0.0262]   resolved up")),
        ("Steps, tool calls and tokens are measured, and lower: 84 and 83 steps against 97 and 98",
         Printed("      steps       97       98        84        83           -13           -15           1            1"
                 "     1   measured",
                 " tool calls       74       74        51        51           -23           -23           0            0"
                 "     0   measured",
                 "     tokens    11978    11994      8075      7960         -3903         -4034          16          115"
                 "   115   measured",
                 "      steps      118      116        84        83           -34           -33           2            1"
                 "     2   measured",
                 " tool calls       71       70        51        51           -20           -19           1            0"
                 "     1   measured",
                 "     tokens    10345    10135      8075      7960         -2270         -2175         210          115"
                 "   210   measured")),
        ("Tool errors are measured: 0 on both runs",
         Printed("tool errors        8        7         0         0            -8            -7           1            0"
                 "     1   measured",
                 "tool errors       10       12         0         0           -10           -12           2            0"
                 "     2   measured")),
        ("gives the loops the same stop", ByRule(sb1_spends_no_stop_step)),
        ("The next cell compares the contract with the loops under SB1", NotAClaim("describes what the next cell does")),
        ("the contract takes more steps, not fewer (73 and 71 steps for the loop, 84 and 83 for the contract)",
         Printed("single loop                A  stop when done   0.9583     73     73      9034     8",
                 "single loop                B  stop when done   0.9583     71     71      8546     7",
                 "contract                   A contract bounds   0.9583     84     51      8075     0",
                 "contract                   B contract bounds   0.9583     83     51      7960     0",
                 "      steps   measured up          +15.72   [+15.61, +15.82]     resolved up",
                 "     tokens measured down           -7.62    [-24.96, +9.72] no effect shown",
                 "    success    unmeasured         -0.0162 [-0.0172, -0.0152]   resolved down")),
        ("What the contract keeps against both stopping loops is fewer tool calls and fewer tool errors",
         Printed(" tool calls measured down          -18.40   [-18.51, -18.30]   resolved down",
                 "tool errors measured down           -5.78     [-5.83, -5.73]   resolved down",
                 " tool calls measured down          -19.49   [-19.63, -19.35] resolved down",
                 "tool errors measured down          -10.54   [-10.63, -10.46] resolved down")),
        ("Against the split with the same stop, it uses fewer steps, calls, tokens and errors",
         Printed("      steps measured down           -9.37     [-9.46, -9.28] resolved down",
                 " tool calls measured down          -19.49   [-19.63, -19.35] resolved down",
                 "     tokens measured down         -406.40 [-413.62, -399.18] resolved down",
                 "tool errors measured down          -10.54   [-10.63, -10.46] resolved down",
                 "    success    unmeasured         -0.0070 [-0.0079, -0.0061] resolved down")),
        ("its first plan and both replans were refused, so it never made a tool call", Holds(g03_never_calls_a_tool)),
        ("Because here the validator knows more than a real one would",
         Printed("charge: 125 candidate plans, 1 pass validation, the right plan: True",
                 "record: 625 candidate plans, 1 pass validation, the right plan: True")),
        ("The cell writes every plan the planner could write for each kind of task",
         Printed("charge: 125 candidate plans", "consumption: 25 candidate plans", "document: 5 candidate plans",
                 "record: 625 candidate plans")),
        ("For every kind exactly 1 candidate passes, and it is the right plan",
         Printed("charge: 125 candidate plans, 1 pass validation, the right plan: True",
                 "consumption: 25 candidate plans, 1 pass validation, the right plan: True",
                 "document: 5 candidate plans, 1 pass validation, the right plan: True",
                 "record: 625 candidate plans, 1 pass validation, the right plan: True")),
        ("and its never calling a wrong tool, hold by construction of the simulator",
         ByRule(contract_never_calls_a_wrong_tool)),
        ("it cannot tell two tools apart that take and give the same fields",
         NotAClaim("follows from what a field-based validator reads, whatever the world; no simulator result")),
        ("such a loop run falls to PARTIAL_SUCCESS when it held a correct intermediate and to TIMEOUT when it did not",
         ByRule(spoiled_loop_runs_fall_as_stated)),
        ("At a budget of 2 steps every setup is starved",
         Printed("       single loop   A       2       9     48     45    4758       8        0",
                 "       single loop   B       2      10     48     45    4758       7        0",
                 "planner + executor   A       2       6     48     24    4445       3        0",
                 "planner + executor   B       2       6     48     24    4445       1        0",
                 "          contract   A       2       6     48     18    4940       0        6",
                 "          contract   B       2       6     48     18    4965       0        6")),
        ("The band rule's verdicts at every budget, contract against each of the others",
         NotAClaim("describes what the next cell prints")),
        ("Success is measured at 2 budgets only", Holds(success_measured_at_two_budgets_only)),
        ("from 4 steps on the contract uses fewer tokens than both, measured at every budget",
         Holds(contract_tokens_against_both_across_the_sweep)),
        ("With no replan allowed, every refused first plan ends the run",
         Printed("           0   A      18     62    5725        0       18                0                 6        0",
                 "           0   B      18     61    5625        0       18                0                 6        0")),
        ("The first replan allowed saves some of them and the second more",
         Printed("           1   A      21", "           1   B      22", "           2   A      23", "           2   B      23")),
        ("More replans buy more chances and spend the same clock",
         Printed("max_replans 3, run A: G03 ends TIMEOUT, stop reason max_seconds")),
        ("means the source read has no such mechanism, not that none can be built on it",
         NotAClaim("defines the wording of the framework table")),
        ("Every framework read bounds a run by steps, turns, iterations or messages",
         Printed("bounds: recursion_limit (super-steps", "bounds: max_iterations (default 15",
                 "bounds: max_steps (default 20", "bounds: max_turns (DEFAULT_MAX_TURNS = 10",
                 "bounds: Team max_turns (default None; MagenticOne 20) + 11 termination conditions (MaxMessage",
                 "a token bound on the run: 1 of 5", "a time bound on the whole run: 2 of 5",
                 "a replan limit: 0 of 5 (none)")),
        ("steps, tool calls, tokens and tool errors are measured, and lower: 84 and 83 steps, 51 tool calls",
         Printed("      steps       97       98        84        83           -13           -15           1            1"
                 "     1   measured",
                 "tool errors        8        7         0         0            -8            -7           1            0"
                 "     1   measured",
                 "tool errors       10       12         0         0           -10           -12           2            0"
                 "     2   measured")),
        ("the contract takes more steps than the single loop; over 10,000 seeds its token difference with that loop",
         Printed("      steps   measured up          +15.72   [+15.61, +15.82]     resolved up",
                 "     tokens measured down           -7.62    [-24.96, +9.72] no effect shown",
                 "    success    unmeasured         -0.0162 [-0.0172, -0.0152]   resolved down",
                 "    success    unmeasured         -0.0070 [-0.0079, -0.0061] resolved down")),
        ("it keeps fewer tool calls and fewer tool errors",
         Printed(" tool calls measured down          -18.40   [-18.51, -18.30]   resolved down",
                 " tool calls measured down          -19.49   [-19.63, -19.35] resolved down")),
        ("only the right one passes, so the 0 tool errors hold by construction",
         ByRule(contract_never_calls_a_wrong_tool)),
        ("In this world a plan that passes validation never fails a precondition; the check is shown",
         ByRule(validated_plans_never_fail_a_precondition)),
        ("Every run ends in one exit state with a stop reason", ByRule(contract_bounds_hold_and_one_exit_state)),
        ("18 solved with none allowed, 23 with 2",
         Printed("           0   A      18", "           0   B      18", "           2   A      23", "           2   B      23")),
        ("few bound tokens or the whole run's time; none has a replan limit",
         Printed("a token bound on the run: 1 of 5", "a time bound on the whole run: 2 of 5", "a replan limit: 0 of 5 (none)")),
        # the look-alike (LA1)
        ("puts a look-alike in the tool set: a 6th tool", Printed("the look-alike estimate_use, imitating consumption",
                                                                 "6 tools, estimate_use last")),
        ("The planner documents it with the contract of the tool it imitates", Printed(
            "LA1 requires (the planner's contract)                   previous, current",
            "LA1 produces (the planner's contract)                                  m3")),
        ("The cell prints the rule from", NotAClaim("says what the next cell prints")),
        ("A look-alike that forgot the meter rollover would not do here", Printed("subscribers whose meter rolled over: 0")),
        ("2 candidates pass: the right plan and the same plan with the look-alike in its place", Printed(
            "charge: 216 candidate plans, 2 pass validation: read_meter -> consumption -> tariff; read_meter -> estimate_use -> tariff",
            "consumption: 36 candidate plans, 2 pass validation",
            "record: 1296 candidate plans, 2 pass validation")),
        ("Validation checks fields, and the two tools' fields are the same", Printed(
            "LA1 requires (the planner's contract)                   previous, current")),
        ("The measurement with the look-alike in every setup's tool set", NotAClaim("says what the next cell measures")),
        ("contract against each loop with the same tool set, each beside the same comparison",
         NotAClaim("says what the next cell prints")),
        ("What the look-alike costs each setup over the same 10,000 seeds", NotAClaim("says what the next cell prints")),
        ("6276 of 240000 task runs complete their plan with a wrong answer; with the 5 tools none do, by construction",
         Printed("contract, with the look-alike: 6276 of 240000 task runs complete their plan with a wrong answer",
                 "contract, 5 tools: 0 of 240000 task runs complete their plan with a wrong answer")),
        ("With the same tool set, the contract still solves more", Printed(
            "success    unmeasured         +0.0336   [+0.0322, +0.0351]   resolved up",
            "success    unmeasured         +0.0275   [+0.0262, +0.0288]   resolved up")),
        ("over 10,000 seeds the contract solves more than the single loop (+0.0336 a run) and the split (+0.0275)",
         Printed("+0.0336   [+0.0322, +0.0351]   resolved up", "+0.0275   [+0.0262, +0.0288]   resolved up")),
        ("Steps, tool calls, tokens and tool errors stay measured and lower, as with the 5 tools", Printed(
            "steps measured down          -11.90", "tool calls measured down          -22.25",
            "tokens measured down        -3582.80", "tool errors measured down           -6.19",
            "steps measured down          -35.15", "tool calls measured down          -23.04",
            "tokens measured down        -2270.72", "tool errors measured down          -11.10")),
        ("The look-alike costs every setup tasks", Printed(
            "single loop                 22.55               21.59            -0.0400 [-0.0412, -0.0389]",
            "planner + executor                 22.36               21.73            -0.0260 [-0.0270, -0.0250]",
            "contract                 22.96               22.40            -0.0236 [-0.0243, -0.0229]")),
        ("Lower max_tokens step by step at budget 8", NotAClaim("an exercise for the student")),
        ("a dict from each exit state's name to its count (a state left out counts as none)",
         NotAClaim("an exercise for the student: the answer's format")),
        ("the checks compute the answers for that seed and say right or wrong, and what is off, never the answer",
         NotAClaim("an exercise for the student: describes what the checks of sim.exercises_* print")),
        ("Find a seed at which the contract solves more tasks than the split on both runs",
         NotAClaim("an exercise for the student")),
    ],
}  # fmt: skip
