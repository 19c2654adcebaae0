"""The registry of the lessons' claims (see claims.py for the rule): per lesson, (fragment of the
sentence as written, evidence). A lesson joins the claim rule when it has an entry list here.

Checks are named functions, evaluated at the lesson's defaults (seeds 20260218 and 20260219,
budget 8), so a failing check names what no longer holds. A direction or a universal over a table
is checked over the runs' values (`says` and `scores` word the band rule's and the many seeds'
verdicts as the lessons do); a Printed entry quotes a phrase, never a table's padding.
"""

import json
from functools import cache

import nbformat
import numpy as np
from claims import ByRule, Holds, NotAClaim, Printed  # noqa: F401 - the kinds of evidence entries use
from course_checks import LESSONS, printed_text

import sim
from sim.engine import contract, loops, plan_schema
from sim.engine import exit_states as exits
from sim.measurement import clusters, outcomes, reliability, study
from sim.measurement.bands import compare_setups
from sim.measurement.batch import run_batch, study_seeds
from sim.measurement.counts import Measurement, measure
from sim.measurement.many_seeds import fully_right_plans, many_seed_run, paired_difference, t_interval
from sim.measurement.traces import depth_picks, recovery_task, side_effect_calls
from sim.model import costs, world
from sim.presentation.tables import format_table, seed_table

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
def _measure(setup: str, seed: int, budget: int = BUDGET, **options) -> Measurement:
    return measure(setup, seed, budget, **options)


def _pair(setup: str, budget: int = BUDGET, **options) -> list:
    """Runs A and B of a setup, measured."""
    return [_measure(setup, seed, budget, **options) for seed in SEEDS]


def _counts(m) -> tuple:
    return tuple(getattr(m, name) for name in UNIT_FIELDS)


def _verdicts(first: list, second: list) -> dict:
    """The band rule's verdicts, by unit name."""
    return {v.unit: v for v in compare_setups(first, second)}


def _band_rule_as_stated(first: list, second: list) -> bool:
    """Every unit's verdict is the rule in words: measured only when, on every run, the difference
    exceeds the larger of the two setups' own run-to-run differences."""
    for v in compare_setups(first, second):
        band = max(max(v.first) - min(v.first), max(v.second) - min(v.second))
        differences = [b - a for a, b in zip(v.first, v.second, strict=True)]
        expected = "measured" if all(abs(d) > band for d in differences) else "unmeasured"
        if v.band != band or v.verdict != expected:
            return False
    return True


def _positions_done(run) -> int:
    """Positions of a loop run's sequence done: right calls that were no tool error."""
    return sum(bool(step.right) and not step.error for step in run.log)


@cache
def _many(setup: str, **options):
    """A loop setup over lesson 4's 10,000 seeds from runs A and B on, at budget 8 (the batch path)."""
    return many_seed_run(sim.RunConfig(setup, BUDGET, **options))


def _sign(values) -> int:
    """+1 when every value is above zero, -1 when every one is below, 0 otherwise."""
    return 1 if all(v > 0 for v in values) else -1 if all(v < 0 for v in values) else 0


def _band_says(verdict, words: str) -> bool:
    """Whether a band verdict is as worded: "measured up", "measured down", "unmeasured", or "unmeasured
    up" (unmeasured, with every run's difference above zero)."""
    direction = {1: " up", -1: " down", 0: ""}[_sign(verdict.differences)]
    return words in (verdict.verdict + direction, "unmeasured" if verdict.verdict == "unmeasured" else None)


def _many_word(first, second, unit: str) -> str:
    """A many-seed paired difference (second minus first) as the lessons word it: "up", "down" or "none"
    (its 95 % interval holds zero)."""
    d = paired_difference(first, second, unit)
    return "up" if d["low"] > 0 else "down" if d["high"] < 0 else "none"


def says(name: str, first, second: tuple, **expected: str):
    """A named check: the second setup against the first (each (setup, options); first may be a list of
    them, each checked) gives every unit named (tool_calls for "tool calls") the words expected: the band
    rule's at runs A and B, then after "; " the 10,000 seeds' (say "measured down; up", or one alone)."""

    def check() -> bool:
        for base in first if isinstance(first, list) else [first]:
            verdicts = _verdicts(_pair(base[0], **base[1]), _pair(second[0], **second[1]))
            for unit, words in expected.items():
                unit = unit.replace("_", " ")
                band, _, many = words.rpartition("; ") if ";" in words else (words, "", "")
                if band and not _band_says(verdicts[unit], band):
                    return False
                if (
                    many
                    and _many_word(_many(base[0], **base[1]), _many(second[0], **second[1]), unit) != many
                ):
                    return False
        return True

    check.__name__ = name
    return check


LOOP, SPLIT, CONTRACT = ("single-loop", {}), ("plan-execute", {}), ("contract", {})
LOOP_SB1, SPLIT_SB1 = ("single-loop", {"stop_when_done": True}), ("plan-execute", {"stop_when_done": True})
LOOKALIKE = {setup: (setup, {"lookalike": True}) for setup in ("single-loop", "plan-execute", "contract")}


# ---- lessons 1 and 2: the single loop's picks, tokens and switches


def split_out_of_budget_losses_have_wrong_plans() -> bool:
    """Over lesson 2's 200 cause seeds: the split loses 0.745 tasks a run out of budget, the single loop
    0.045, and every split task lost out of budget had a wrong plan."""
    from sim.measurement.outcomes import loss_table

    out = loss_table(range(SEED_A, SEED_A + 200), BUDGET)["out of budget"]
    return out.to_dict() == {("single loop", "no plan"): 0.045, ("split", "plan fully right"): 0.0,
                             ("split", "plan wrong"): 0.745}  # fmt: skip


def record_success_needs_no_write() -> bool:
    """Lesson 2: success (AA30) reads the answer held alone: over 50 seeds from run A, a record task's
    run counts as solved exactly when its answer is right, and some of those wrote no record."""
    from sim.measurement.outcomes import outcome

    runs = [sim.run_task(setup, task, seed, BUDGET) for setup in ("single-loop", "plan-execute")
            for task in sim.TASKS if task.kind == "record" for seed in range(SEED_A, SEED_A + 50)]  # fmt: skip
    by_answer = all(sim.is_correct(run) == (run.answer == sim.correct_answer(run.task)) for run in runs)
    return by_answer and any(outcome(run) == "solved, no record written" for run in runs)


def record_task_holds_amount_before_write() -> bool:
    """Lesson 2's rules: every record task ends with write_record, and the calls of its sequence before
    that already leave its right answer (the amount) held."""
    from sim import TASKS, correct_answer
    from sim.engine.loops import call_and_observe, initial_state

    for task in (t for t in TASKS if t.kind == "record"):
        state = initial_state(task)
        for tool in task.sequence[:-1]:
            call_and_observe(tool, state)
        if task.sequence[-1] != "write_record" or state.get("result") != correct_answer(task):
            return False
    return True


def right_picks_fall_with_depth_on_both_runs() -> bool:
    """Measured: on runs A and B the share of right picks falls from each depth to the next (1 to 4)."""
    for seed in SEEDS:
        shares = depth_picks(seed, BUDGET)["share"].tolist()
        if not all(a > b for a, b in zip(shares, shares[1:], strict=False)):
            return False
    return True


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
    table = format_table(seed_table(_pair("single-loop")))
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
    """The rule, over the 10,000 seeds of many_seed_run: with either switch every task's success, steps,
    calls and errors equal the plain loop's; tokens too with approval, and with self-critique they
    differ by exactly 40 a tool error."""
    from sim.measurement.many_seeds import many_seed_run

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


def tariff_bands_as_stated() -> bool:
    """The rule: each m3 costs 4 up to 10 m3, 7 up to 25, 11 up to 40 and 16 above 40 (residential)."""
    prices = [sim.charge(m + 1, "residential") - sim.charge(m, "residential") for m in range(120)]
    return prices == [4] * 10 + [7] * 15 + [11] * 15 + [16] * 80


def g03_step_3_aims_at_the_same_position() -> bool:
    """Run A's walk-through task is G03: step 2 misses depth 2 with a tool error, step 3 aims at depth 2
    again and picks right, holding 52."""
    steps = loops.loop_steps(sim.run_single_loop("G03", SEED_A, BUDGET))
    two, three = steps[1], steps[2]
    return (
        recovery_task(SEED_A, BUDGET) == "G03"
        and (two.depth, two.right, two.error) == (2, False, True)
        and (three.depth, three.right, three.held) == (2, True, 52)
    )


@cache
def _pooled_gaps() -> tuple:
    """Lesson 1's 200 pooled seeds (0 .. 199): the right-pick share minus the expected line, depths 1 to 4,
    and the shares."""
    pooled = sum(depth_picks(seed, BUDGET)[["picks", "right"]] for seed in range(200))
    shares = (pooled["right"] / pooled["picks"]).tolist()
    return tuple(s - sim.expected_right_share(d) for d, s in enumerate(shares, 1)), tuple(shares)


def pooled_shares_fall_near_the_line() -> bool:
    """Pooled over 200 seeds the share falls at every depth and stays within 0.0179 of the expected line,
    below it at depths 2 to 4."""
    gaps, shares = _pooled_gaps()
    return (
        all(a > b for a, b in zip(shares, shares[1:], strict=False))
        and max(abs(g) for g in gaps) < 0.01795
        and all(g < 0 for g in gaps[1:])
    )


def model_shows_only_with_many_picks() -> bool:
    """On runs A and B the largest gap to the expected line exceeds what the line falls from one depth to
    the next; pooled over 200 seeds it is under it."""
    fall = sim.expected_right_share(1) - sim.expected_right_share(2)
    two_runs = [
        (depth_picks(seed, BUDGET)["share"] - depth_picks(seed, BUDGET)["expected"]).abs().max()
        for seed in SEEDS
    ]
    return min(two_runs) > fall > max(abs(g) for g in _pooled_gaps()[0])


def approvals_ask_for_unwanted_writes() -> bool:
    """With approval on, runs A and B ask 7 and 9 times, and 4 and 6 of those writes are in tasks whose
    sequence has no write_record."""
    counts = []
    for seed in SEEDS:
        runs = [sim.run_single_loop(task, seed, BUDGET, approval=True) for task in sim.TASKS]
        unwanted = sum(
            call.tool == "write_record"
            for task, run in zip(sim.TASKS, runs, strict=True)
            if "write_record" not in task.sequence
            for call in run.trace
        )
        counts.append((sum(run.approvals for run in runs), unwanted))
    return counts == [(7, 4), (9, 6)]


def g23_writes_a_document_code() -> bool:
    """Run A's only unsolved task is G23, a record task, whose record gets TR01, a document code, where
    its charge belongs."""
    unsolved = [task.name for task, run in zip(sim.TASKS, _runs("single-loop", SEED_A), strict=True)
                if not sim.is_correct(run)]  # fmt: skip
    writes = side_effect_calls(SEED_A, BUDGET)
    g23 = writes[(writes["task"] == "G23") & ~writes["error"]]
    return (
        unsolved == ["G23"]
        and sim.TASKS[22].kind == "record"
        and g23["value"].tolist()[-1:] == ["TR01"]
        and "TR01" in world.DOCUMENTS
        and g23["correct"].tolist()[-1] != "TR01"
    )


# ---- lesson 2: the split


def planner_share_is_flat() -> bool:
    """The rule: the planner takes the right tool with selection(1) at every position; a draw of 0.75,
    which misses selection(2) in the loop, is right at all 4 positions of a plan."""
    sequence = ("read_meter", "consumption", "tariff", "write_record")
    return sim.model.picks.write_plan(sequence, lambda: 0.75) == sequence and not sim.model.picks.picks_right(
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


def the_single_loop_stops_only_when_done() -> bool:
    """The rule: `single_loop_pick` returns a stop (None) only when there is no target, the job done;
    checked at every depth with draws that would stop at once and draws that never would."""
    from sim.model.picks import single_loop_pick

    never_stops = [
        single_loop_pick(target, depth, lambda u=u: u)
        for target in sim.TOOL_NAMES
        for depth in range(1, 8)
        for u in (0.0, 0.5, 0.999999)
    ]
    return None not in never_stops and single_loop_pick(None, 1, lambda: 0.0) is None


def read_meter_and_search_docs_find_their_fields() -> bool:
    """The rule: read_meter and search_docs need only fields every run starts with, so a call to
    either makes no tool error at any point of any task."""
    from sim.engine.loops import initial_state

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
        planning = sim.engine.config.PLANNING_STEPS[setup]
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
    from sim.measurement.many_seeds import extra_steps, smallest_margin

    tuning = study_seeds(200, SEED_A + 2)
    return {setup: smallest_margin(extra_steps(setup, tuning), 0.99) for setup in LOOPS}


def margin_never_cuts_the_lesson_runs() -> bool:
    """Runs A and B: in both loops SB1 alone at budget 12 and SB1 with SB2 at the tuned margin give the
    same counted units (the margins are 6 and 7)."""
    margins = _tuned_margins()
    if margins != {"single-loop": 6, "plan-execute": 7}:
        return False
    return all(
        _counts(_measure(setup, seed, 12, stop_when_done=True))
        == _counts(_measure(setup, seed, 12, stop_when_done=True, budget_margin=margins[setup]))
        for setup in LOOPS
        for seed in SEEDS
    )


def stop_and_budget_rules_read_no_ground_truth() -> bool:
    """The rule: the router, the goal test and the budget rule read no task sequence, kind or answer
    (read from their source as tests/test_honest_scaffolding.py reads it); the one read on SB2's path
    is the split's plan length, AA29."""
    import inspect

    from test_honest_scaffolding import truth_reads

    from sim.engine import config, goals, runs

    config_reads = truth_reads(inspect.getsource(config.RunConfig))
    calls_reads = [what for _, what, _ in truth_reads(inspect.getsource(runs.expected_calls))]
    return (
        truth_reads(inspect.getsource(goals)) == []
        and config_reads == []
        and calls_reads == ["task.sequence"]
    )


def lesson_runs_need_one_to_five_extra_steps() -> bool:
    """Runs A and B, budget 20, SB1: every task stops, and each needs 1 to 5 steps beyond planning and
    its expected calls (5 at most, reached; 1 at least: its stop step)."""
    from sim.engine import runs

    extra = []
    for setup in LOOPS:
        for seed in SEEDS:
            for task in sim.TASKS:
                run = sim.run_task(setup, task, seed, 20, stop_when_done=True)
                if not run.stopped:
                    return False
                planning = sim.engine.config.PLANNING_STEPS[setup]
                extra.append(run.steps - planning - runs.expected_calls(setup, task))
    return min(extra) == 1 and max(extra) == 5


def both_stops_cost_a_step() -> bool:
    """The rule: at runs A and B, budget 12, every stop step, the original agent's and SB1's, is a step of
    the budget with no call and costs what a step of its setup costs for its trace (AA28)."""
    price = {"single-loop": costs.loop_step_tokens, "plan-execute": costs.executor_step_tokens}
    for setup in LOOPS:
        for seed in SEEDS:
            for stop in (False, True):
                for run in _runs(setup, seed, 12, stop):
                    stops = [step for step in run.log if step.tool is None]
                    if len(stops) != run.stopped or any(
                        s.tokens != price[setup](s.trace_length) for s in stops
                    ):
                        return False
    return True


def _stop_accounts(setup: str, seed: int) -> dict:
    """SB1 against the plain loop at budget 12: steps and tokens saved, the plain runs' calls after the
    goal was observed, both sides' stop steps and SB1's stop tokens."""
    plain, ruled = _runs(setup, seed, 12), _runs(setup, seed, 12, True)
    return {
        "saved": sum(r.steps for r in plain) - sum(r.steps for r in ruled),
        "saved_tokens": sum(r.tokens for r in plain) - sum(r.tokens for r in ruled),
        "after": sum(outcomes.calls_after_goal(run) or 0 for run in plain),
        "stops": (sum(r.stopped for r in plain), sum(r.stopped for r in ruled)),
        "stop_tokens": sum(step.tokens for run in ruled for step in run.log if step.tool is None),
    }


def _held_out_03(config: sim.RunConfig):
    """Lesson 3's held-out block (2000 seeds from run A + 202, after its tuning block) on the batch path."""
    from sim.measurement.batch import batch_run

    return batch_run(config, study_seeds(2000, SEED_A + 202))


def stop_saves_little_at_one_budget() -> bool:
    """SB1 against the plain loop at budget 12, both loops, runs A and B and lesson 3's 2000 held-out seeds:
    it saves steps and tokens, never more than 5 % of the plain loop's (on the runs and in the mean)."""
    for setup in LOOPS:
        for seed in SEEDS:
            plain, ruled = _measure(setup, seed, 12), _measure(setup, seed, 12, stop_when_done=True)
            for unit in ("steps", "tokens"):
                saved = getattr(plain, unit) - getattr(ruled, unit)
                if not 0 < saved <= 0.05 * getattr(plain, unit):
                    return False
        first = _held_out_03(sim.RunConfig(setup, 12))
        second = _held_out_03(sim.RunConfig(setup, 12, stop_when_done=True))
        for unit, per_task in (("steps", first.steps), ("tokens", first.tokens)):
            d = paired_difference(first, second, unit)
            if not -0.05 * per_task.sum(axis=0).mean() <= d["low"] <= d["high"] < 0:
                return False
    return True


def steps_saved_are_calls_after_the_goal() -> bool:
    """Both loops, runs A and B, budget 12: the steps SB1 saves equal the plain runs' calls after their
    goal was observed, both sides stop in all 24 tasks, and a free stop would show the saving plus
    SB1's stop steps (and tokens)."""
    for setup in LOOPS:
        for seed in SEEDS:
            a = _stop_accounts(setup, seed)
            if a["stops"] != (24, 24) or a["saved"] != a["after"]:
                return False
    a = _stop_accounts("single-loop", SEED_A)
    return (a["saved"] + a["stops"][1], a["saved_tokens"] + a["stop_tokens"]) == (25, 3180)


def free_stop_saving_is_mostly_stop_steps() -> bool:
    """Both loops, runs A and B, budget 12: of the steps a free stop would seem to save (the saving plus
    SB1's stop steps), the stop steps are at least 85 %."""
    for setup in LOOPS:
        for seed in SEEDS:
            a = _stop_accounts(setup, seed)
            if a["stops"][1] < 0.85 * (a["saved"] + a["stops"][1]):
                return False
    return True


def _rule_against_fixed(setup: str, fixed: int, unit: str) -> dict:
    """The course's rule (SB1 with SB2 at the tuned margin) minus a fixed budget, over lesson 3's held-out
    block."""
    rule = sim.RunConfig(setup, 12, stop_when_done=True, budget_margin=_tuned_margins()[setup])
    return paired_difference(_held_out_03(sim.RunConfig(setup, fixed)), _held_out_03(rule), unit)


def loop_rule_saves_over_many_seeds() -> bool:
    """Single loop, the course's rule against the fixed budget of 8 over the held-out seeds: fewer steps and
    tokens, more success (every interval off zero)."""
    steps, tokens = (_rule_against_fixed("single-loop", 8, unit) for unit in ("steps", "tokens"))
    return (
        steps["high"] < 0
        and tokens["high"] < 0
        and _rule_against_fixed("single-loop", 8, "success")["low"] > 0
    )


def split_rule_dearer_than_budget_8() -> bool:
    """The split, the course's rule against the fixed budget of 8 over the held-out seeds: every task's budget
    above 8, and success, steps and tokens all higher (every interval above zero)."""
    budgets = {
        sim.plan_length_budget("plan-execute", t, _tuned_margins()["plan-execute"], 12) for t in sim.TASKS
    }
    return min(budgets) > 8 and all(
        _rule_against_fixed("plan-execute", 8, unit)["low"] > 0 for unit in ("success", "steps", "tokens")
    )


def rule_cheaper_depends_on_the_fixed_budget() -> bool:
    """The split's rule costs more tokens than the fixed budget of 8 and fewer than the fixed budget of 12,
    over lesson 3's held-out seeds."""
    return (
        _rule_against_fixed("plan-execute", 8, "tokens")["low"] > 0
        and _rule_against_fixed("plan-execute", 12, "tokens")["high"] < 0
    )


def larger_budget_spoils_only_finished_split_tasks() -> bool:
    """Runs A and B, every task at budgets 1 to 12: the tasks solved at some budget and spoiled at a larger
    one are the split's G04 and G18 on run A and G19 on run B, none in the single loop; each is spoiled at
    every budget above the first that solved it, and at budget 12 it was spoiled after its job was done."""
    found = {}
    for setup in LOOPS:
        for seed in SEEDS:
            grid = outcomes.outcome_grid(setup, seed, range(1, 13))
            for name, row in grid.iterrows():
                solved = [b for b in grid.columns if row[b] == "solved"]
                if solved and "spoiled" in [row[b] for b in grid.columns if b > solved[0]]:
                    found[setup, seed, name] = all(row[b] == "spoiled" for b in grid.columns if b > solved[0])
    expected = {
        ("plan-execute", SEEDS[0], "G04"),
        ("plan-execute", SEEDS[0], "G18"),
        ("plan-execute", SEEDS[1], "G19"),
    }
    return (
        set(found) == expected
        and all(found.values())
        and all(
            outcomes.loss_cause(sim.run_task(setup, name, seed, 12)) == outcomes.LOSSES[0]
            for setup, seed, name in found
        )
    )


def no_run_of_the_sweep_ends_wrong() -> bool:
    """Lesson 3's sweep (both loops, runs A and B, budgets 2, 4, 6, 8, 12): no task run's outcome is "wrong"."""
    return all(
        outcomes.outcome(run) != "wrong"
        for setup in LOOPS
        for seed in SEEDS
        for b in SWEEP
        for run in _runs(setup, seed, b)
    )


def _rule_against_stop(setup: str, stop_budget: int, unit: str) -> dict:
    """The course's rule (SB1 with SB2 at the tuned margin, hard bound 12) minus SB1 alone at a fixed budget,
    over lesson 3's held-out block."""
    rule = sim.RunConfig(setup, 12, stop_when_done=True, budget_margin=_tuned_margins()[setup])
    stop = sim.RunConfig(setup, stop_budget, stop_when_done=True)
    return paired_difference(_held_out_03(stop), _held_out_03(rule), unit)


def per_task_budget_changes_almost_nothing() -> bool:
    """SB2 added to SB1, both at the hard bound of 12, over the held-out block: in both loops the mean
    differences stay under 0.2 steps, 50 tokens and 0.001 success a run (runs of about 100 steps and 10,000
    tokens); and on the first 50 held-out seeds, a task run the rule changes is one SB1 alone takes
    beyond the task's budget (the rule cuts only runs longer than its margin allows)."""
    for setup in LOOPS:
        for unit, bound in (("steps", 0.2), ("tokens", 50), ("success", 0.001)):
            if abs(_rule_against_stop(setup, 12, unit)["mean"]) >= bound:
                return False
        margin = _tuned_margins()[setup]
        for seed in study_seeds(50, SEED_A + 202):
            for task in sim.TASKS:
                alone = sim.run_task(setup, task, seed, 12, stop_when_done=True)
                ruled = sim.run_task(setup, task, seed, 12, stop_when_done=True, budget_margin=margin)
                fits = alone.steps <= sim.plan_length_budget(setup, task, margin, 12)
                if fits != (
                    (alone.steps, alone.trace, alone.answer) == (ruled.steps, ruled.trace, ruled.answer)
                ):
                    return False
    return True


def stop_at_8_cheaper_than_the_rule() -> bool:
    """The course's rule minus SB1 alone at the fixed budget of 8, over the held-out block: in both loops
    more steps and tokens (intervals above zero); in the single loop for under 0.002 more success."""
    for setup in LOOPS:
        if not all(_rule_against_stop(setup, 8, unit)["low"] > 0 for unit in ("steps", "tokens")):
            return False
    return _rule_against_stop("single-loop", 8, "success")["mean"] < 0.002


# ---- lesson 4: the contract


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
    from sim.engine.loops import call_and_observe, initial_state

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


def sb1_pays_its_stop_step() -> bool:
    """The rule (SB1, AA28): on runs A and B every loop run that stopped under SB1 ends with one stop step
    (no call) that costs tokens (its steps are its calls, the planning step and the stop); a contract run
    whose plan completes spends no step on its end (steps: planner calls plus tool calls, CT8)."""
    for setup in LOOPS:
        planning = sim.engine.config.PLANNING_STEPS[setup]
        for seed in SEEDS:
            for run in _runs(setup, seed, BUDGET, stop_when_done=True):
                last = run.log[-1]
                if run.stopped and not (
                    last.tool is None and last.tokens > 0 and run.steps == run.calls + planning + 1
                ):
                    return False
    return all(
        run.steps == run.calls + sum(e.kind in ("plan", "replan") for e in run.events)
        for seed in SEEDS
        for run in _contract_runs(seed)
        if run.stop_reason == exits.PLAN_COMPLETE
    )


def loops_wander_after_done() -> bool:
    """On runs A and B some run of each plain loop makes a call after its job is done (a step aimed at no
    position, with a tool), and some other stops late: the model's own stop does not always come at once."""
    for setup in LOOPS:
        after = [run for seed in SEEDS for run in _runs(setup, seed)
                 if any(step.target is None and step.tool is not None for step in run.log)]  # fmt: skip
        if not after:
            return False
    return True


def _la_runs(setup: str, seed: int, stop_when_done: bool = False) -> tuple:
    """Every task's run with the look-alike (LA1) at a seed, budget 8."""
    return tuple(sim.run_task(setup, task, seed, BUDGET, lookalike=True, stop_when_done=stop_when_done)
                 for task in sim.TASKS)  # fmt: skip


def exit_states_read_only_observations() -> bool:
    """The rule (CT12): on runs A and B, with the 5 tools and with the look-alike, every run's exit state
    of every setup is CT12 on GT1 and the fields it observed, for the goal its request names (RT1); the
    answer's truth never enters it, so with the look-alike some SUCCESS is wrong."""
    from sim.engine.goals import goal_of, goal_reached, holds_intermediate

    wrong_success = 0
    for seed in SEEDS:
        for runs in (_runs("single-loop", seed), _runs("plan-execute", seed), _contract_runs(seed),
                     _la_runs("single-loop", seed), _la_runs("plan-execute", seed),
                     tuple(sim.run_task("contract", t, seed, BUDGET, lookalike=True) for t in sim.TASKS)):  # fmt: skip
            for run in runs:
                fields = run.scratchpad.fields if hasattr(run, "scratchpad") else exits.observed_fields(run)
                goal = goal_of(sim.check_task(run.task).request)
                state = exits.exit_state(goal_reached(goal, fields), holds_intermediate(goal, fields),
                                         exits.stop_reason_of(run))  # fmt: skip
                if exits.exit_state_of(run) != state:
                    return False
                wrong_success += state == exits.SUCCESS and not sim.is_correct(run)
    return wrong_success > 0


def single_loop_stop_steps_left_out() -> bool:
    """Over 10,000 seeds, contract steps minus the SB1 loop's steps less its stop steps (one per stopped
    run): above zero against the single loop, below zero against the split."""
    signs = []
    for setup in LOOPS:
        loop = _many(setup, stop_when_done=True)
        left_out = _many("contract").steps.sum(axis=0) - (loop.steps - loop.stopped).sum(axis=0)
        _, low, high = t_interval(left_out)
        signs.append(1 if low > 0 else -1 if high < 0 else 0)
    return signs == [1, -1]


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
    """The rule (CT12 on what a loop observed): every loop run of runs A and B that stopped by itself with
    a wrong answer fails GT1, and ends PARTIAL_SUCCESS when it holds a field on the way to its goal and
    TIMEOUT otherwise; there is at least one such run."""
    from sim.engine.goals import goal_of, goal_reached, holds_intermediate

    spoiled = 0
    for setup in LOOPS:
        for seed in SEEDS:
            for run in _runs(setup, seed):
                if not run.stopped or sim.is_correct(run):
                    continue
                spoiled += 1
                fields, goal = exits.observed_fields(run), goal_of(sim.check_task(run.task).request)
                expected = exits.PARTIAL_SUCCESS if holds_intermediate(goal, fields) else exits.TIMEOUT
                if goal_reached(goal, fields) or exits.exit_state_of(run) != expected:
                    return False
    return spoiled > 0


def timeout_is_every_other_end() -> bool:
    """The rule (CT12's last case): every run of every setup at runs A and B, budgets 1 to 12, that ends
    TIMEOUT holds neither its goal field nor a field on the way to it and did not run out of replans;
    such runs include bounds (max_steps) and, in a loop, the agent's own stop."""
    from sim.engine.goals import goal_of, goal_reached, holds_intermediate

    reasons = set()
    for seed in SEEDS:
        for budget in range(1, 13):
            runs = [
                *_contract_runs(seed, budget),
                *(r for setup in LOOPS for r in _runs(setup, seed, budget)),
            ]
            for run in runs:
                if exits.exit_state_of(run) != exits.TIMEOUT:
                    continue
                fields = run.scratchpad.fields if hasattr(run, "scratchpad") else exits.observed_fields(run)
                goal = goal_of(sim.check_task(run.task).request)
                if goal_reached(goal, fields) or holds_intermediate(goal, fields):
                    return False
                reasons.add(exits.stop_reason_of(run))
    return "max_replans" not in reasons and {"max_steps", exits.JOB_DONE} <= reasons


TRUTH_SEEDS = range(SEED_A, SEED_A + 200)  # lesson 4's truth table: the first 200 of its 10,000 seeds


@cache
def _truth_runs(setup: str, stop_when_done: bool, lookalike: bool) -> tuple:
    """(exit state, correct, run) of every task's run at each truth seed, budget 8, the one-seed path."""
    config = sim.RunConfig(setup, BUDGET, lookalike=lookalike, stop_when_done=stop_when_done)
    from sim.engine.runs import run_with

    return tuple((exits.exit_state_of(run), sim.is_correct(run), run)
                 for seed in TRUTH_SEEDS for task in sim.TASKS for run in [run_with(config, task, seed)])  # fmt: skip


def _truth_mean(setup: str, stop_when_done: bool, lookalike: bool, what: str) -> float:
    """Mean per run of 24 tasks over the truth seeds: "solved", "silent" or "alarm"."""
    rows = _truth_runs(setup, stop_when_done, lookalike)
    count = {"solved": lambda s, c: c, "silent": lambda s, c: s == exits.SUCCESS and not c,
             "alarm": lambda s, c: s != exits.SUCCESS and c}[what]  # fmt: skip
    return sum(bool(count(state, correct)) for state, correct, _ in rows) / len(TRUTH_SEEDS)


def contract_success_is_a_complete_plan() -> bool:
    """The rule: a contract run reports SUCCESS exactly when its plan completes (a validated plan's last
    step produces its goal), on the truth seeds with the look-alike and with the 5 tools."""
    return all(
        (state == exits.SUCCESS) == (run.stop_reason == exits.PLAN_COMPLETE)
        for lookalike in (False, True)
        for state, _, run in _truth_runs("contract", False, lookalike)
    )


def every_setup_reports_some_wrong_success() -> bool:
    """On the truth seeds with the look-alike, every setup (the loops also under SB1) has silent failures,
    the single loop with SB1 the most; the contract's SUCCESS is a completed plan (as above)."""
    silent = {(setup, sb1): _truth_mean(setup, sb1, True, "silent")
              for setup, sb1 in (*((s, False) for s in (*LOOPS, "contract")), *((s, True) for s in LOOPS))}  # fmt: skip
    return (
        min(silent.values()) > 0
        and max(silent, key=silent.get) == ("single-loop", True)
        and (contract_success_is_a_complete_plan())
    )


def five_tool_truth_as_stated() -> bool:
    """On the truth seeds with the 5 tools: the contract's SUCCESS count is its solved count, with no silent
    failure and no false alarm; every silent failure of a loop is a record task whose record was written
    with the right value (the answer measure reads a later result)."""
    contract_rows = _truth_runs("contract", False, False)
    if any((state == exits.SUCCESS) != correct for state, correct, _ in contract_rows):
        return False
    for setup in LOOPS:
        for sb1 in (False, True):
            for state, correct, run in _truth_runs(setup, sb1, False):
                if state == exits.SUCCESS and not correct:
                    task, written = sim.check_task(run.task), exits.observed_fields(run).get("value")
                    if task.kind != "record" or written != sim.correct_answer(task):
                        return False
    return True


def loops_false_alarms_mostly_cut_by_budget() -> bool:
    """On the truth seeds with the look-alike, the contract raises no false alarm, and most of each loop's
    false alarms (also under SB1) are runs the budget cut (not stopped)."""
    if _truth_mean("contract", False, True, "alarm") != 0:
        return False
    for setup in LOOPS:
        for sb1 in (False, True):
            alarms = [run for state, correct, run in _truth_runs(setup, sb1, True)
                      if state != exits.SUCCESS and correct]  # fmt: skip
            if not alarms or sum(not run.stopped for run in alarms) <= len(alarms) / 2:
                return False
    return True


def lookalike_costs_sb1_loop_more_than_contract() -> bool:
    """With the 5 tools both SB1 loops solve more than the contract over 10,000 seeds; on the truth seeds
    the look-alike costs the single loop with SB1 more solved tasks a run than the contract."""
    loss = {setup: _truth_mean(setup, sb1, False, "solved") - _truth_mean(setup, sb1, True, "solved")
            for setup, sb1 in (("single-loop", True), ("contract", False))}  # fmt: skip
    return (
        says("_", [LOOP_SB1, SPLIT_SB1], CONTRACT, success="; down")()
        and loss["single-loop"] > loss["contract"]
    )


def sweep_false_alarms_at_budget_4() -> bool:
    """The contract at budget 4 on runs A and B: 5 and 4 runs end PARTIAL_SUCCESS, and its false alarms (2
    and 1) are all among them."""
    counts = []
    for seed in SEEDS:
        runs = _contract_runs(seed, 4)
        partial = [run for run in runs if run.exit_state == exits.PARTIAL_SUCCESS]
        alarms = [run for run in runs if run.correct and run.exit_state != exits.SUCCESS]
        if not all(run.exit_state == exits.PARTIAL_SUCCESS for run in alarms):
            return False
        counts.append((len(partial), len(alarms)))
    return counts == [(5, 2), (4, 1)]


@cache
def _sweep_verdicts() -> dict:
    """(budget, other setup) -> the band rule's verdicts of the contract against it, runs A and B."""
    return {
        (budget, other): _verdicts(_pair(other, budget), _pair("contract", budget))
        for budget in SWEEP
        for other in LOOPS
    }


def step_tokens_as_stated() -> bool:
    """The rules, on every step of runs A and B: a single-loop step costs 60 + 22 x its trace length and an
    executor step 40 + 10 x its trace length, each 30 more when it observes a call, and a loop step 40
    more for a tool error when self-critique is on."""
    for seed in SEEDS:
        for task in sim.TASKS:
            for critique in (False, True):
                run = sim.run_single_loop(task, seed, BUDGET, self_critique=critique)
                if any(step.tokens != 60 + 22 * step.trace_length + 30 * (step.tool is not None)
                       + 40 * (critique and step.error) for step in run.log):  # fmt: skip
                    return False
            split = sim.run_plan_execute(task, seed, BUDGET)
            if any(
                step.tokens != 40 + 10 * step.trace_length + 30 * (step.tool is not None)
                for step in split.log
            ):
                return False
    return True


def g05_split_spends_all_8_steps() -> bool:
    """Run A's G05 in the split: its 3 planned calls are tool errors; the right answer (550) comes with its
    last call, at step 7, and step 8 stops: all 8 steps of the budget used."""
    run = sim.run_plan_execute("G05", SEED_A, BUDGET)
    return (
        [call.error for call in run.trace[:3]] == [True] * 3
        and run.steps == BUDGET
        and sim.is_correct(run)
        and [step.held for step in run.log].index(550) == len(run.log) - 2
        and run.log[-1].tool is None
    )


def plans_follow_the_model_by_length() -> bool:
    """At most 8 tasks per plan length, so 2 runs give small counts; over 10,000 seeds the share of fully
    right plans is within 0.004 of the model's 0.84^length at every length."""
    table = fully_right_plans(10_000)
    per_length = [sum(len(task.sequence) == n for task in sim.TASKS) for n in table["length"]]
    return max(per_length) <= 8 and ((table["share"] - table["model"]).abs() < 0.004).all()


def within_band(name: str, first: tuple, second: tuple, own: str, unit: str = "success"):
    """A named check: at runs A and B the unit's difference, second setup minus first, is unmeasured and
    never larger than the own run-to-run difference of the setup named by own ("first" or "second")."""

    def check() -> bool:
        v = _verdicts(_pair(first[0], **first[1]), _pair(second[0], **second[1]))[unit]
        runs = v.first if own == "first" else v.second
        return v.verdict == "unmeasured" and all(abs(d) <= max(runs) - min(runs) for d in v.differences)

    check.__name__ = name
    return check


def _unwritten(setup: str, seed: int, budget: int) -> tuple:
    """(tasks solved by the original measure, record tasks among them whose record was never written)."""
    runs = [sim.run_task(setup, task, seed, budget) for task in sim.TASKS]
    solved = [(task, run) for task, run in zip(sim.TASKS, runs, strict=True) if sim.is_correct(run)]
    unwritten = sum(
        "write_record" in task.sequence
        and not any(c.tool == "write_record" and not c.error for c in run.trace)
        for task, run in solved
    )
    return len(solved), unwritten


def small_budgets_flatter_record_tasks() -> bool:
    """On run A the single loop solves 24 at budget 6, 2 of them record tasks that never wrote their
    record, against 23 and none at budget 8; the split at budget 4 counts 2 such tasks too."""
    return (
        _unwritten("single-loop", SEED_A, 6) == (24, 2)
        and _unwritten("single-loop", SEED_A, 8) == (23, 0)
        and _unwritten("plan-execute", SEED_A, 4)[1] == 2
    )


def g23_at_6_right_but_unwritten() -> bool:
    """Run A's G23 at budget 6 in the single loop: the answer held is right (1132), so the original measure
    counts it solved, and no write_record call went through."""
    run = sim.run_single_loop("G23", SEED_A, 6)
    return (
        sim.is_correct(run)
        and sim.correct_answer("G23") == 1132
        and not any(c.tool == "write_record" and not c.error for c in run.trace)
    )


def g23_is_the_one_fall_right_but_unwritten() -> bool:
    """Lesson 3: the single loop's one fall in the sweep is G23 on run A, right at budget 6 with its
    record never written."""
    return both_flip_cases_are_g23() and g23_at_6_right_but_unwritten()


def budget_4_fits_every_sequence_but_not_the_split_records() -> bool:
    """The rule: no sequence is longer than 4 tools; the split's planning step leaves 3 steps at budget 4, so
    on runs A and B none of the 3 record tasks (4 tools) gets to call all 4."""
    records = [task for task in sim.TASKS if len(task.sequence) == 4]
    return (
        max(len(task.sequence) for task in sim.TASKS) == 4
        and len(records) == 3
        and all(len(sim.run_plan_execute(task, seed, 4).trace) < 4 for seed in SEEDS for task in records)
    )


def split_at_budget_2_finishes_only_length_1() -> bool:
    """At budget 2 the split solves only tasks of length 1 (7 tasks), 6 of them on both runs A and B."""
    short = {task.name for task in sim.TASKS if len(task.sequence) == 1}
    solved = [
        {task.name for task in sim.TASKS if sim.is_correct(sim.run_plan_execute(task, seed, 2))}
        for seed in SEEDS
    ]
    return len(short) == 7 and all(s <= short and len(s) == 6 for s in solved)


def budget_2_starves_every_setup() -> bool:
    """At 2 steps every setup leaves most of the 24 tasks unsolved on runs A and B; the contract solves
    document tasks only (its plan takes a step) and ends every other run in TIMEOUT."""
    for seed in SEEDS:
        runs = _contract_runs(seed, 2)
        kinds = {task.kind for task, run in zip(sim.TASKS, runs, strict=True) if run.correct}
        if kinds != {"document"} or not all(run.correct or run.exit_state == exits.TIMEOUT for run in runs):
            return False
    return all(
        m.solved < 12 for setup in ("single-loop", "plan-execute", "contract") for m in _pair(setup, 2)
    )


@cache
def _replan_limits() -> dict:
    """(max_replans, seed) -> the contract's runs of every task at budget 8."""
    return {(limit, seed): [contract.run_contract(task, seed, BUDGET, max_replans=limit) for task in sim.TASKS]
            for limit in (0, 1, 2) for seed in SEEDS}  # fmt: skip


def no_replan_ends_every_refused_plan() -> bool:
    """With max_replans 0, on runs A and B, 6 runs end REPLAN_EXHAUSTED without a tool call (the refused
    first plan ends them) and the other 18 are solved."""
    for seed in SEEDS:
        runs = _replan_limits()[(0, seed)]
        ended = [run for run in runs if run.exit_state == exits.REPLAN_EXHAUSTED]
        if len(ended) != 6 or any(run.calls for run in ended) or sum(run.correct for run in runs) != 18:
            return False
    return True


def each_replan_allowed_saves_more() -> bool:
    """Solved tasks rise with the replan limit on runs A and B: 18 with none, then 21 and 22 with 1, 23
    with 2."""
    solved = {key: sum(run.correct for run in runs) for key, runs in _replan_limits().items()}
    return [solved[(limit, seed)] for seed in SEEDS for limit in (0, 1, 2)] == [18, 21, 23, 18, 22, 23]


def lookalike_documented_as_it_imitates() -> bool:
    """The rule (LA1): the planner's contract of estimate_use, its requires and produces, is consumption's."""
    return world.IMITATES == {"estimate_use": "consumption"} and plan_schema.tool_contract(
        "estimate_use"
    ) == plan_schema.tool_contract("consumption")


def lookalike_costs_every_setup_tasks() -> bool:
    """Over 10,000 seeds each setup with the look-alike in its tool set solves fewer tasks than with the 5
    tools: the paired difference's interval lies below zero."""
    return all(
        _many_word(_many(setup), _many(setup, lookalike=True), "success") == "down" for setup in LOOKALIKE
    )


@cache
def _argument_table():
    from sim.measurement.argument_checks import argument_error_table
    from sim.measurement.harness import held_out_seeds

    return argument_error_table(held_out_seeds(200), 0.1, BUDGET).set_index("setup")


def argument_errors_are_off_by_default() -> bool:
    """AE1 is off unless asked for: no call of any setup at runs A and B is filled wrong, and a run with
    the option left out equals one with it None."""
    runs = [sim.run_task(s, t, seed, BUDGET) for s in sim.SETUP_NAMES for t in sim.TASKS for seed in SEEDS]
    same = all(sim.run_task(s, "G05", SEEDS[0], BUDGET) == sim.run_task(s, "G05", SEEDS[0], BUDGET,
               argument_errors=None) for s in sim.SETUP_NAMES)  # fmt: skip
    return (
        same
        and sim.RunConfig("contract").argument_errors is None
        and not any(call.wrong for run in runs for call in run.trace)
    )


def argument_errors_cost_every_setup_tasks() -> bool:
    """Over the 200 held-out seeds at share 0.1, the same-seed change in tasks solved has its interval
    below zero for every setup, and the contract adds no replan."""
    table = _argument_table()
    return bool((table["change: high"] < 0).all() and table.loc["contract", "extra replans"] == 0)


def most_argument_losses_are_silent() -> bool:
    """Over the 200 held-out seeds at share 0.1, for every setup the rise in silent failures (AE1 on
    minus off) is more than half of the tasks lost."""
    table = _argument_table()
    rise = table["silent failures, AE1 on"] - table["silent failures, AE1 off"]
    return bool((rise > -0.5 * table["change"]).all())


def request_check_stops_only_wrong_ids() -> bool:
    """The request check stops a call exactly when its subscriber is not the request's id: never a call
    whose only wrong argument is an m3 or a value."""
    from sim.measurement.argument_checks import request_check, sent_calls

    for seed in range(100, 130):
        for task in sim.TASKS:
            run = sim.run_task("single-loop", task, seed, BUDGET, argument_errors=0.3)
            for call, (sent, _) in zip(run.trace, sent_calls(run), strict=True):
                named = task.subscriber in task.request
                if request_check(sent, task.request) != ("subscriber" in call.wrong and named):
                    return False
    return True


def state_check_stops_every_wrong_call() -> bool:
    """By the rules: the state check stops exactly the calls AE1 filled wrong, in every setup."""
    table = _argument_table()
    return bool((table["stopped by state check"] == table["wrong calls"]).all())


# ---- lesson 5: how many seeds


@cache
def _study(setup: str, common_draws: bool = False):
    """Lesson 5's study: a loop setup on every task at its 10,000 seeds, on the batch path."""
    return run_batch(setup, study_seeds(10_000), BUDGET, common_draws=common_draws)


def batch_path_equals_one_seed_path() -> bool:
    """The batch path runs a setup on every task at every seed of an array, one (task, seed) cell
    each, and gives the one-seed path's outcomes; the test suite checks it over 1,000+ seeds
    (tests/test_batch.py), this check on 12 of them in both loops."""
    from test_batch import SEEDS as TESTED

    seeds = [int(seed) for seed in TESTED[:: max(1, len(TESTED) // 12)][:12]]
    for setup in LOOPS:
        batch = run_batch(setup, seeds, BUDGET)
        if batch.correct.shape != (len(sim.TASKS), len(seeds)):
            return False
        for t, task in enumerate(sim.TASKS):
            for j, seed in enumerate(seeds):
                run = sim.run_task(setup, task, seed, BUDGET)
                got = (
                    bool(batch.correct[t, j]),
                    *(int(getattr(batch, f)[t, j]) for f in ("steps", "calls", "tokens", "errors")),
                )
                if got != (sim.is_correct(run), run.steps, run.calls, run.tokens, run.errors):
                    return False
    return len(TESTED) >= 1000


def runs_repeat_exactly() -> bool:
    """The simulator is deterministic: every setup measured twice at runs A and B, and a batch of
    100 seeds run twice, give the same figures."""
    for setup in ("single-loop", "plan-execute", "contract"):
        for seed in SEEDS:
            if _counts(measure(setup, seed, BUDGET)) != _counts(measure(setup, seed, BUDGET)):
                return False
    seeds = study_seeds(100)
    first, second = (run_batch("plan-execute", seeds, BUDGET) for _ in range(2))
    return all(
        (getattr(first, f) == getattr(second, f)).all() for f in ("correct", "steps", "tokens", "errors")
    )


def loop_and_split_draw_from_unrelated_streams() -> bool:
    """The rule (AA22): at runs A and B, every task's single-loop stream and split stream have
    different keys, and their first draws differ."""
    from sim.model.draws import draw_stream, stream_key

    for seed in SEEDS:
        for task in sim.TASKS:
            loop_key, split_key = stream_key(seed, task.name), stream_key(seed, task.name, planner=True)
            if loop_key == split_key or draw_stream(loop_key)() == draw_stream(split_key)():
                return False
    return True


def common_draws_off_by_default_figures_unchanged() -> bool:
    """Common draws are off unless asked for, and the default runs A and B of both loops give the
    4 rows of lesson 2's table, as lesson 2 prints them."""
    if (
        sim.RunConfig("single-loop", BUDGET).common_draws
        or sim.RunConfig("plan-execute", BUDGET).common_draws
    ):
        return False
    table = format_table(seed_table(_pair("single-loop") + _pair("plan-execute")))
    rows = table.splitlines()[1:]
    lesson_2 = printed_text(nbformat.read(LESSONS / "02_planner_executor.ipynb", as_version=4))
    return len(rows) == 4 and all(row in lesson_2 for row in rows)


def split_plans_every_position_then_follows_it() -> bool:
    """The rule: on runs A and B the split's planner writes one tool for every position of the task's
    sequence in its one call, and the executor follows the plan before any pick of its own."""
    return executor_follows_the_plan_first() and all(
        len(run.plan) == len(task.sequence)
        for seed in SEEDS
        for run, task in zip(_runs("plan-execute", seed), sim.TASKS, strict=True)
    )


def common_draw_right_loop_pick_is_right_plan_entry() -> bool:
    """The rule (CR1): a pick is right when its draw is below the share at its position, the planner's
    flat share selection(1) is the largest, so at runs A and B, for every task and position, when the
    first draw aimed at that position gives the single loop the right tool, the plan under common draws
    has the right tool there too."""
    from sim.engine.common_draws import common_plan
    from sim.model.draws import PositionDraws

    if not all(sim.selection(1) >= sim.selection(d) for d in range(1, 13)):
        return False
    if not (sim.model.picks.picks_right(0.1, 0.2) and not sim.model.picks.picks_right(0.3, 0.2)):
        return False
    for seed in SEEDS:
        for task in sim.TASKS:
            plan = common_plan(task, PositionDraws(seed, task.name))
            for p, wanted in enumerate(task.sequence, 1):
                u = PositionDraws(seed, task.name).pick(p)()
                if sim.model.picks.picks_right(u, sim.selection(p)) and plan[p - 1] != wanted:
                    return False
    return True


def percentile_bootstrap_narrower_than_t() -> bool:
    """The formula: z x sqrt((N - 1) / N) / t(N - 1), the percentile bootstrap's width over the t
    interval's for a mean of N normal values, is below 1 at every N from 2 to 10,000."""
    from scipy import stats

    from sim.measurement import intervals

    for n in (2, 3, 5, 10, 30, 100, 1000, 10_000):
        formula = stats.norm.ppf(0.975) * (((n - 1) / n) ** 0.5) / stats.t.ppf(0.975, n - 1)
        if not (abs(intervals.percentile_width_ratio(n) - formula) < 1e-12 and formula < 1):
            return False
    return True


def a_kind_fixes_the_tool_sequence() -> bool:
    """The rule: every task of a kind has the same tool sequence, and the 4 kinds have 4 sequences."""
    by_kind = {}
    for task in sim.TASKS:
        by_kind.setdefault(task.kind, set()).add(tuple(task.sequence))
    return len(by_kind) == 4 and all(len(s) == 1 for s in by_kind.values())


def units_move_together() -> bool:
    """Over lesson 5's 10,000 seeds, the single loop's per-seed steps, tool calls and tokens correlate
    positively, each pair above 0.5."""
    import numpy as np

    m = _study("single-loop").per_seed()
    values = [m.steps, m.calls, m.tokens]
    return all(np.corrcoef(a, b)[0, 1] > 0.5 for i, a in enumerate(values) for b in values[i + 1 :])


def pass_k_at_least_p_k() -> bool:
    """Jensen's inequality, measured: over lesson 5's 10,000 seeds, in both loops, the mean over tasks of
    each task's own share p_t to the k is at least the k-th power of the mean share, strictly for k from
    2 to 8 (the tasks are not equally hard)."""
    for setup in LOOPS:
        shares = _study(setup).correct.mean(axis=1)
        for k in range(2, 9):
            if not (shares**k).mean() > shares.mean() ** k:
                return False
    return True


def _unit_pairs(common: bool = False):
    """Each unit's per-seed totals over lesson 5's 10,000 seeds, (single loop, split), own streams or CR1."""
    a, b = _study("single-loop", common).per_seed(), _study("plan-execute", common).per_seed()
    return {u.name: (getattr(a, u.count).astype(float), getattr(b, u.count).astype(float)) for u in sim.UNITS}


def same_seeds_are_unrelated() -> bool:
    """Own streams, 10,000 seeds: every unit's correlation between the setups at a seed lies in -0.013 ..
    -0.005 (to 3 places), and the per-seed difference spreads within 1 % of unpaired runs' spread."""
    for x, y in _unit_pairs().values():
        unpaired = np.sqrt(x.var(ddof=1) + y.var(ddof=1))
        if not -0.0135 <= np.corrcoef(x, y)[0, 1] < -0.0045 or abs((y - x).std(ddof=1) / unpaired - 1) > 0.01:
            return False
    return True


def common_draws_pair_the_seeds() -> bool:
    """CR1 over 10,000 seeds: every unit's setups correlate positively at a seed and the per-seed difference
    spreads less than on own streams; for success 0.97 against 1.62, so 35 seeds give 100's width."""
    own, common = _unit_pairs(), _unit_pairs(common=True)
    for unit, (x, y) in common.items():
        if np.corrcoef(x, y)[0, 1] <= 0 or (y - x).std(ddof=1) >= np.subtract(*own[unit][::-1]).std(ddof=1):
            return False
    sd_own, sd_common = (np.subtract(*pair[::-1]).std(ddof=1) for pair in (own["success"], common["success"]))
    return (round(sd_common, 2), round(sd_own, 2), round(100 * sd_common**2 / sd_own**2)) == (0.97, 1.62, 35)


def _intervals(unit: str):
    return study.interval_table(_study("single-loop"), _study("plan-execute"), units=(unit,),
                                sizes=(10, 30, 100, 300, 1000, 10_000))  # fmt: skip


def over_tasks_stops_narrowing() -> bool:
    """Tokens and tool errors: from 1,000 to 10,000 seeds the interval over seeds narrows to under half
    its width, the interval over tasks by less than 5 %."""
    for unit in ("tokens", "tool errors"):
        t = _intervals(unit).set_index(["resample", "n_seeds"])
        width = (t["high"] - t["low"]).to_dict()
        if not (width[("seeds", 10_000)] < 0.5 * width[("seeds", 1000)]
                and width[("tasks", 10_000)] > 0.95 * width[("tasks", 1000)]):  # fmt: skip
            return False
    return True


def token_saving_leaves_zero_out_everywhere() -> bool:
    """The split's token difference: both intervals, over seeds and over tasks, leave zero out (below it)
    at every size from 10 to 10,000 seeds."""
    t = _intervals("tokens")
    return len(t) == 12 and bool((t["excludes_zero"] & (t["high"] < 0)).all())


def split_loses_a_small_share() -> bool:
    """Over 10,000 seeds the split solves fewer tasks, the interval over seeds below zero, by under 0.01 of
    the tasks a run (0.19 tasks)."""
    t = _intervals("success").set_index(["resample", "n_seeds"]).loc[("seeds", 10_000)]
    return t["high"] < 0 and -0.01 < t["difference"] and round(-24 * t["difference"], 2) == 0.19


def loss_sits_on_some_kinds() -> bool:
    """By kind over 10,000 seeds the effect changes sign: charge tasks' interval lies below zero, record
    tasks' above it, and the interval over tasks is 5.5 times as wide as over seeds."""
    a, b = _study("single-loop"), _study("plan-execute")
    kinds = clusters.kind_table(a, b, "success", 10_000).set_index("kind")
    tasks = clusters.task_intervals(a, b, "success", 10_000).set_index("interval").loc["tasks"]
    seeds = _intervals("success").set_index(["resample", "n_seeds"]).loc[("seeds", 10_000)]
    return (
        kinds.loc["charge", "high"] < 0 < kinds.loc["record", "low"]
        and round((tasks["high"] - tasks["low"]) / (seeds["high"] - seeds["low"]), 1) == 5.5
    )


def record_tasks_gain() -> bool:
    """Over 10,000 seeds the split gains on record tasks (interval above zero) and loses overall, so a set
    with more record tasks would lose less."""
    kinds = clusters.kind_table(_study("single-loop"), _study("plan-execute"), "success", 10_000)
    record = kinds.set_index("kind").loc["record"]
    return record["low"] > 0 > _study("plan-execute").correct.mean() - _study("single-loop").correct.mean()


def measured_pairs_point_both_ways() -> bool:
    """Over 5,000 disjoint pairs of seeds the band rule measures success 374 times, 137 of them up (the
    split solving more), and tool calls 562 times, 213 of them down."""
    a, b = _study("single-loop").per_seed(), _study("plan-execute").per_seed()
    success, calls = (study.band_rule_over_pairs(a, b, unit) for unit in ("success", "tool calls"))
    return (success["pairs"], success["measured"], success["measured_up"]) == (5000, 374, 137) and (
        calls["measured"], calls["measured_down"]) == (562, 213)  # fmt: skip


@cache
def _pass_k():
    return study.pass_k_table(
        {"single loop": _study("single-loop"), "split": _study("plan-execute")}, ks=range(1, 9)
    )


def pass_k_falls_more_slowly() -> bool:
    """In both loops pass^k and p^k fall with k, pass^k above p^k from k = 2 and ever further above it."""
    t = _pass_k()
    for setup in ("single loop", "split"):
        passes, powers = t[f"{setup} pass^k"].tolist(), t[f"{setup} p^k"].tolist()
        ratios = [p / q for p, q in zip(passes, powers, strict=True)]
        if not (all(a > b for a, b in zip(passes, passes[1:], strict=False))
                and all(a < b for a, b in zip(ratios, ratios[1:], strict=False))):  # fmt: skip
            return False
    return True


def failures_gather_on_record_tasks() -> bool:
    """Over 10,000 seeds, in both loops, every document task is solved more than 0.99 of the time and every
    record task less than 0.8."""
    for setup in LOOPS:
        shares = _study(setup).correct.mean(axis=1)
        for task, share in zip(sim.TASKS, shares, strict=True):
            if (task.kind == "document" and share <= 0.99) or (task.kind == "record" and share >= 0.8):
                return False
    return True


@cache
def _cost_per_success() -> dict:
    """Lesson 5's 5 setups: (the first 100 seeds' tokens per solved task with intervals, the 10,000 seeds' value)."""
    setups = {"loop": ("single-loop", {}), "split": ("plan-execute", {}), "critique": ("single-loop", {"self_critique": True}),
              "loop SB1": ("single-loop", {"stop_when_done": True}), "split SB1": ("plan-execute", {"stop_when_done": True})}  # fmt: skip
    found = {}
    for name, (setup, options) in setups.items():
        run = run_batch(setup, study_seeds(10_000), BUDGET, **options)
        totals = run.per_seed()
        found[name] = (reliability.cost_per_success(run, 100), totals.tokens.sum() / totals.solved.sum())
    return found


def cost_intervals_hold_the_10000_seed_value() -> bool:
    """For each of the 5 setups, the first 100 seeds' interval of tokens per solved task holds its
    10,000-seed value."""
    return all(c["low"] <= everything <= c["high"] for c, everything in _cost_per_success().values())


def split_cheaper_per_success_at_overlapping_success() -> bool:
    """First 100 seeds: the split's tokens per solved task are below the single loop's, interval below
    interval, and the two success intervals overlap."""
    loop, split = _cost_per_success()["loop"][0], _cost_per_success()["split"][0]
    return split["high"] < loop["low"] and split["success_high"] > loop["success_low"]


def stopping_moves_both_down_and_right() -> bool:
    """First 100 seeds: SB1 (the observable goal test, its stop paid) lowers each loop's tokens per solved
    task and raises its success, interval clear of interval on both axes; 480.8 and 435.9 tokens per
    solved task."""
    c = {name: found for name, (found, _) in _cost_per_success().items()}
    return all(c[f"{n} SB1"]["high"] < c[n]["low"] and c[f"{n} SB1"]["success_low"] > c[n]["success_high"]
               for n in ("loop", "split")) and (
        [f"{c[n]['tokens_per_success']:.1f}" for n in ("loop SB1", "split SB1")] == ["480.8", "435.9"])  # fmt: skip


def critique_costs_tokens_buys_no_success() -> bool:
    """First 100 seeds: self-critique's tokens per solved task are above the plain loop's, its success the same."""
    c = {name: found for name, (found, _) in _cost_per_success().items()}
    return c["critique"]["tokens_per_success"] > c["loop"]["tokens_per_success"] and (
        c["critique"]["success"] == c["loop"]["success"])  # fmt: skip


def a_100_seed_study_shows_it_a_fifth_of_the_time() -> bool:
    """Of the 100 disjoint 100-seed studies in lesson 5's 10,000 seeds, 0.2 have a success-difference t
    interval that leaves zero out."""
    x, y = _unit_pairs()["success"]
    studies = ((y - x) / len(sim.TASKS)).reshape(100, 100)
    return np.mean([not low <= 0 <= high for _, low, high in map(t_interval, studies)]) == 0.2


# ---- lesson 6: your own agent

OBSERVATION_FIELDS = ("request", "trace", "fields", "state", "held", "step", "steps_left", "draw",
                      "model_pick", "seed", "task_name")  # fmt: skip
ASKED_BY_KIND = {"charge": "amount", "consumption": "m3", "document": "code", "record": "written"}  # scoring


def _watched_observations(decide, task, seed: int) -> list:
    """The observations a policy is given on one run, in order."""
    seen = []

    def watched(observation):
        seen.append(observation)
        return decide(observation)

    sim.engine.policy.run_policy(watched, task, seed, BUDGET)
    return seen


def observation_holds_no_sequence() -> bool:
    """The rule: an observation has the lesson's fields and no other (no kind, no plan length), and on runs
    A and B of the stop rule no field of any observation of any task, nor any value in its state, is the
    task's tool sequence or its kind."""
    import dataclasses

    from sim.engine import policy

    if tuple(f.name for f in dataclasses.fields(policy.Observation)) != OBSERVATION_FIELDS:
        return False
    for seed in SEEDS:
        for task in sim.TASKS:
            for observation in _watched_observations(policy.stop_when_goal_met, task, seed):
                shown = (*OBSERVATION_FIELDS[:7], *OBSERVATION_FIELDS[9:])  # not the two functions
                values = [getattr(observation, name) for name in shown]
                values += list(observation.state.values())
                if any(v in (tuple(task.sequence), list(task.sequence), task.kind) for v in values):
                    return False
    return True


def policy_runs_repeat_exactly() -> bool:
    """The rule: a policy that takes its randomness from draw(), and one that takes model_pick(), give the
    same run twice at runs A and B, on every task."""
    from sim.engine import policy

    def coin(observation):
        return "stop" if observation.draw() < 0.2 else observation.model_pick()

    def summary(run):
        return (sim.is_correct(run), run.steps, run.calls, run.tokens, run.errors, run.stopped)

    return all(
        summary(sim.engine.policy.run_policy(decide, task, seed, BUDGET)) == summary(sim.engine.policy.run_policy(decide, task, seed, BUDGET))
        for decide in (coin, policy.model_policy)
        for seed in SEEDS
        for task in sim.TASKS
    )  # fmt: skip


@cache
def _held_out_stop_rule_and_sb1() -> tuple:
    """Lesson 6's stop rule and lesson 3's stop when done (SB1) on the 500 held-out seeds."""
    from sim.engine import policy
    from sim.measurement import harness

    seeds = harness.held_out_seeds(harness.REPORT_SEEDS)
    rule = harness.entrant_run(policy.stop_when_goal_met, seeds, BUDGET)
    return rule, harness.entrant_run(sim.RunConfig("single-loop", BUDGET, stop_when_done=True), seeds)


def goal_rule_is_lesson_3_rule_run_for_run() -> bool:
    """On the 500 held-out seeds, task run by task run, the stop rule and lesson 3's stop when done (SB1, now
    an observable goal test with a paid stop) give the same outcome, steps, calls, tokens, tool errors and
    stops, and both stop some runs themselves."""
    rule, sb1 = _held_out_stop_rule_and_sb1()
    fields = ("correct", "steps", "calls", "tokens", "errors", "stopped")
    return all((getattr(rule, f) == getattr(sb1, f)).all() for f in fields) and bool(rule.stopped.any())


def stop_rule_saves_its_tokens_paid() -> bool:
    """On the 500 held-out seeds, both the stop rule and SB1 against the single loop (which pays its own stop
    steps too): tokens per run -552.42 [-580.20, -524.63], steps -3.21, computed."""
    from sim.measurement import harness

    rule, sb1 = _held_out_stop_rule_and_sb1()
    loop = harness.entrant_run("single-loop", harness.held_out_seeds(harness.REPORT_SEEDS), BUDGET)
    found = []
    for run in (rule, sb1):
        tokens, steps = paired_difference(loop, run, "tokens"), paired_difference(loop, run, "steps")
        found.append(
            tuple(f"{x:+.2f}" for x in (tokens["mean"], tokens["low"], tokens["high"], steps["mean"]))
        )
    return found == [("-552.42", "-580.20", "-524.63", "-3.21")] * 2


def router_is_its_setups_request_by_request() -> bool:
    """By construction: on 100 held-out seeds the lesson's router gives, on every task whose request asks for
    a goal it sends to a setup (RT1), that setup's outcomes, steps, calls, tokens and tool errors; record
    requests ("written") go to the split, the others to the single loop."""
    from sim.engine.goals import goal_of
    from sim.measurement import harness
    from sim.presentation.panel_your_agent import ROUTER

    seeds = harness.held_out_seeds(100)
    routed = harness.entrant_run(ROUTER, seeds, BUDGET)
    runs = {setup: harness.entrant_run(setup, seeds, BUDGET) for setup in LOOPS}
    if dict(ROUTER.by_goal) != {"amount": "single-loop", "m3": "single-loop", "code": "single-loop",
                                "written": "plan-execute"}:  # fmt: skip
        return False
    for t, task in enumerate(sim.TASKS):
        sent = dict(ROUTER.by_goal)[goal_of(task.request)]
        for field in ("correct", "steps", "calls", "tokens", "errors"):
            if not (getattr(routed, field)[t] == getattr(runs[sent], field)[t]).all():
                return False
    return True


def router_reads_every_request_right() -> bool:
    """By construction: RT1 reads from each of the 24 requests the goal of the task's true kind (scoring reads
    the kind), and the requests come from 4 templates once the subscriber's id is taken out."""
    import re

    from sim.engine.goals import goal_of

    right = sum(goal_of(task.request) == ASKED_BY_KIND[task.kind] for task in sim.TASKS)
    return right == len(sim.TASKS) == 24 and len({re.sub(r"A\d+", "", t.request) for t in sim.TASKS}) == 4


def a_second_pick_is_a_fresh_draw() -> bool:
    """By rule (MR1, lesson 1's pick rule): a second model_pick in a step draws again from the run's
    stream, so it can differ from the first; over seeds 0..29 and every task some second pick differs."""
    from sim.engine import policy

    differ = []

    def twice(observation):
        first, second = observation.model_pick(), observation.model_pick()
        differ.append(first != second)
        return second

    for seed in range(30):
        for task in sim.TASKS:
            policy.run_policy(twice, task, seed, BUDGET)
    return any(differ) and not all(differ)


def further_model_request_is_paid() -> bool:
    """By rule MR1: a policy that calls model_pick twice a step pays each step's request twice (AA28's request
    tokens, plus the tool's observation), and one that calls it once is the single loop, record for record
    (seeds 0..9, every task)."""
    from sim.engine import policy
    from sim.model.costs import loop_step_tokens, observation_tokens

    def twice(observation):
        observation.model_pick()
        return observation.model_pick()

    for seed in range(10):
        for task in sim.TASKS:
            run = policy.run_policy(twice, task, seed, BUDGET)
            for step in run.log:
                observed = 0 if step.tool is None else observation_tokens(step.error, False)
                if step.tokens != 2 * loop_step_tokens(step.trace_length) + observed:
                    return False
            once = policy.run_policy(policy.model_policy, task, seed, BUDGET)
            if once != sim.run_single_loop(task, seed, BUDGET):
                return False
    return True


def my_policy_differs_from_the_stop_rule_by_its_refusal() -> bool:
    """By construction: lesson 6's starting policy (written here as the lesson writes it) is the stop rule
    with one change, the refusal of a proposal whose inputs are not yet known (asking the model again,
    paid, MR1); a run where it refuses nothing is the stop rule's run, record for record, and over 20
    seeds x 24 tasks it does refuse somewhere."""
    from sim.engine import policy

    def inputs_ready(tool, observation):
        known = set(observation.fields) | {"subscriber", "query", "column"}
        if observation.held is not None:
            known.add("value")
        return set(sim.TOOLS[tool].fields) <= known

    refused = []

    def my_policy(observation):
        if policy.goal_met(observation):
            return "stop"
        proposal = observation.model_pick()
        if proposal != "stop" and not inputs_ready(proposal, observation):
            refused.append(observation.step)
            proposal = observation.model_pick()
        return proposal

    some = False
    for seed in range(20):
        for task in sim.TASKS:
            refused.clear()
            run = policy.run_policy(my_policy, task, seed, BUDGET)
            some |= bool(refused)
            if not refused and run != policy.run_policy(policy.stop_when_goal_met, task, seed, BUDGET):
                return False
    return some


def command_line_scores_as_the_harness() -> bool:
    """`python -m sim score FILE.py:FUNCTION` (sim.cli.main, in process) gives the same band verdicts, paired
    differences and intervals as harness.score, for the stop rule against the single loop on 50 held-out
    seeds (its JSON holds the numbers; printed the lessons' way they are harness.score's text)."""
    import contextlib
    import io
    import json
    import tempfile
    from pathlib import Path

    from sim import cli
    from sim.engine import policy
    from sim.measurement import harness
    from sim.measurement.many_seeds import signed

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "entrant.py"
        path.write_text("from sim.engine.policy import stop_when_goal_met\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = cli.main(["score", f"{path}:stop_when_goal_met", "--held-out", "50", "--format", "json"])
    if code != 0:
        return False
    paired = json.loads(out.getvalue())["held_out"][0]["paired"]
    expected = harness.score(policy.stop_when_goal_met, "single-loop", BUDGET, harness.held_out_seeds(50))
    shown = [{"unit": row["unit"], "two runs": row["two_runs"], "mean difference": signed(row["mean"], row["unit"]),
              "95 % interval": f"[{signed(row['low'], row['unit'])}, {signed(row['high'], row['unit'])}]",
              "many seeds": row["many_seeds"], "agrees": row["agrees"]} for row in paired]  # fmt: skip
    return shown == json.loads(expected.to_json(orient="records"))


@cache
def _score(entrant: str, baseline: str):
    """harness.score of lesson 6's stop rule or router against a baseline setup, 500 held-out seeds."""
    from sim.engine import policy
    from sim.measurement import harness
    from sim.presentation.panel_your_agent import ROUTER

    chosen = {"stop rule": policy.stop_when_goal_met, "router": ROUTER}[entrant]
    return harness.score(chosen, baseline, BUDGET, harness.held_out_seeds()).set_index("unit")


def scores(name: str, entrant: str, baseline: str, **expected: str):
    """A named check: lesson 6's entrant against the baseline gives each unit named (tool_errors for "tool
    errors") the words expected, "<two runs>; <many seeds>" (say "unmeasured; resolved up")."""

    def check() -> bool:
        table = _score(entrant, baseline)
        return all(
            f"{table.loc[unit.replace('_', ' '), 'two runs']}; {table.loc[unit.replace('_', ' '), 'many seeds']}"
            == words
            for unit, words in expected.items()
        )

    check.__name__ = name
    return check


def harness_scores_as_the_course() -> bool:
    """harness.score of a setup against the single loop is the course's own comparison: the band rule's
    verdicts at runs A and B (compare_setups) beside the paired differences over the seeds
    (beside_many_seeds, on the batch path), here for SB1 on 50 held-out seeds."""
    from sim.measurement import harness
    from sim.measurement.many_seeds import beside_many_seeds

    seeds = harness.held_out_seeds(50)
    ours = harness.headline_first(
        beside_many_seeds(
            compare_setups(_pair("single-loop"), _pair("single-loop", stop_when_done=True)),
            run_batch("single-loop", seeds, BUDGET),
            run_batch("single-loop", seeds, BUDGET, stop_when_done=True),
        )
    )
    theirs = harness.score(
        sim.RunConfig("single-loop", BUDGET, stop_when_done=True), "single-loop", BUDGET, seeds
    )
    return ours.equals(theirs)


def score_headline_is_the_lessons() -> bool:
    """harness.score's first columns (unit, mean difference, 95 % interval) are lesson 6's headline table, the
    paired comparison over the same seeds without the two-run verdict, here for the stop rule against the
    single loop on 50 held-out seeds; the columns after them are the two-run verdict's."""
    from sim.engine import policy
    from sim.measurement import harness, many_seeds

    seeds = harness.held_out_seeds(50)
    scored = harness.score(policy.stop_when_goal_met, "single-loop", BUDGET, seeds)
    runs = [harness.entrant_run(e, seeds, BUDGET) for e in ("single-loop", policy.stop_when_goal_met)]
    headline = many_seeds.comparison_text(many_seeds.paired_comparison(*runs))
    columns = ["unit", "mean difference", "95 % interval"]
    return scored[columns].equals(headline[columns]) and {"two runs", "agrees"} <= set(scored.columns)


def split_worse_on_charge_better_on_record() -> bool:
    """On lesson 6's 2,000 tuning seeds the split's success interval, goal by goal (RT1) against the single
    loop, lies below zero for charge requests ("amount") and above it for record requests ("written") and
    holds zero for the other goals, so the tuned router sends record requests alone to the split (the
    lesson's and the panel's router); the record figure is +0.0247 [+0.0095, +0.0398]."""
    from sim.measurement import harness
    from sim.presentation.panel_your_agent import ROUTER

    runs = [harness.entrant_run(setup, harness.tuning_seeds(2000), BUDGET) for setup in LOOPS]
    goals = harness.goal_differences(*runs).set_index("goal")
    written = goals.loc["written"]
    return (
        goals.loc["amount", "high"] < 0 < written["low"]
        and [f"{written[c]:+.4f}" for c in ("difference", "low", "high")] == ["+0.0247", "+0.0095", "+0.0398"]
        and not goals.loc[["code", "m3"], "shown"].any()
        and harness.best_route(*runs) == ROUTER
        and ROUTER.name.endswith("written: plan-execute)")
    )


@cache
def _router_over_10000_held_out() -> dict:
    """The router's success against each loop over the first 100 .. 10,000 held-out seeds (nested), and
    the closed form's seeds for 80 % power from the 10,000 seeds' spread and effect."""
    from sim.measurement import harness, power
    from sim.presentation.panel_your_agent import ROUTER

    sizes, seeds = (100, 300, 1000, 3000, 10000), harness.held_out_seeds(10000)
    routed = harness.entrant_run(ROUTER, seeds, BUDGET)
    found = {}
    for setup in LOOPS:
        base = harness.entrant_run(setup, seeds, BUDGET)
        d = routed.per_seed().success - base.per_seed().success
        found[setup] = (harness.interval_growth(base, routed, "success", sizes),
                        int(np.ceil(power.seeds_for_power(d.std(ddof=1), d.mean()))))  # fmt: skip
    return found


def router_beats_both_at_10000_seeds() -> bool:
    """Over 10,000 held-out seeds the router's success interval lies above zero against both loops (+0.0014
    [+0.0006, +0.0023] against the single loop), and against the split at every size of the path."""
    found = _router_over_10000_held_out()
    loop, split = found["single-loop"][0], found["plan-execute"][0]
    last = loop.iloc[-1]
    return [f"{last[c]:+.4f}" for c in ("mean", "low", "high")] == ["+0.0014", "+0.0006", "+0.0023"] and bool(
        split["zero_out"].all() and (split["low"] > 0).all()
    )


def router_power_needs_264_and_6981_seeds() -> bool:
    """The closed form's seeds for 80 % power, router against the split and the single loop, from the 10,000
    held-out seeds: 264 and 6981, so 500 held-out seeds cannot be counted on against the single loop."""
    found = _router_over_10000_held_out()
    return (found["plan-execute"][1], found["single-loop"][1]) == (264, 6981)


def endpoint_replay_is_the_single_loop() -> bool:
    """Replayed on the transcript's 10 held-out seeds, the course's model behind the endpoint gives runs that
    differ from seed to seed and, task by task at each seed, equal the built-in single loop's in every
    counted outcome, with no failed request."""
    from sim.chat import chat_policy
    from sim.measurement import harness

    seeds = harness.held_out_seeds(chat_policy.SHIPPED_HELD_OUT)
    replayed = chat_policy.replay_policy(chat_policy.SHIPPED_TRANSCRIPT)
    run, loop = (
        harness.entrant_run(replayed, seeds, BUDGET),
        harness.entrant_run("single-loop", seeds, BUDGET),
    )
    fields = ("correct", "steps", "calls", "tokens", "errors", "stopped")
    alike = all((getattr(run, f) == getattr(run, f)[:, :1]).all() for f in fields)
    equal = all(np.array_equal(getattr(run, f), getattr(loop, f)) for f in fields)
    return len(seeds) == 10 and not alike and equal and replayed.failures == []


# ---- the registry


def first_request_is_one_text_its_reply_follows_the_seed() -> bool:
    """Lesson 6: a task's first request holds the same messages at every seed (built from a run at each of
    runs A and B), and the endpoint's reply to it, addressed by seed and task, differs between the seeds
    for some task and repeats for a seed asked twice."""
    from sim.chat.messages import requests, tool_schemas
    from sim.chat.model_endpoint import completion

    def reply(task, seed):
        body = {"model": f"sim-model@seed={seed}&task={task.name}", "tools": tool_schemas(),
                "messages": requests(sim.run_single_loop(task.name, seed, 8))[0]}  # fmt: skip
        return completion(body)["choices"][0]["message"]

    first = [requests(sim.run_single_loop(task.name, seed, 8))[0] for seed in SEEDS for task in sim.TASKS]
    one_text = first[: len(sim.TASKS)] == first[len(sim.TASKS) :]
    differs = any(reply(task, SEEDS[0]) != reply(task, SEEDS[1]) for task in sim.TASKS)
    return one_text and differs and reply(sim.TASKS[4], SEEDS[0]) == reply(sim.TASKS[4], SEEDS[0])


# ---- checks made by says() and scores(), each named for the claim it backs

# fmt: off
split_over_10000_seeds = says("split_over_10000_seeds", LOOP, SPLIT,
    success="; down", tool_calls="; up", tool_errors="; up", tokens="; down")
split_calls_two_runs_and_10000_seeds = says("split_calls_two_runs_and_10000_seeds", LOOP, SPLIT,
    tool_calls="measured down; up")
contract_solves_fewer_than_stopping_loops = says("contract_solves_fewer_than_stopping_loops",
    [LOOP_SB1, SPLIT_SB1], CONTRACT, success="unmeasured; down")
contract_cheaper_over_10000_seeds = says("contract_cheaper_over_10000_seeds", [LOOP, SPLIT], CONTRACT,
    steps="; down", tool_calls="; down", tokens="; down", tool_errors="; down")
contract_solves_more_than_both_loops = says("contract_solves_more_than_both_loops", [LOOP, SPLIT], CONTRACT,
    success="; up")
contract_cheaper_than_stopping_loops = says("contract_cheaper_than_stopping_loops", [LOOP_SB1, SPLIT_SB1],
    CONTRACT, steps="; down", tool_calls="; down", tokens="; down", tool_errors="; down")
stop_rule_over_500_seeds = scores("stop_rule_over_500_seeds", "stop rule", "single-loop",
    success="unmeasured; resolved up", tokens="unmeasured; resolved down")
router_against_split = scores("router_against_split", "router", "plan-execute",
    success="unmeasured; resolved up", tokens="unmeasured; resolved up")
router_against_loop = scores("router_against_loop", "router", "single-loop",
    success="unmeasured; no effect shown", tokens="unmeasured; resolved down")
router_steps_errors_against_loop = scores("router_steps_errors_against_loop", "router", "single-loop",
    steps="unmeasured; resolved up", tool_errors="unmeasured; resolved up")
lookalike_contract_still_solves_more = says("lookalike_contract_still_solves_more",
    [LOOKALIKE["single-loop"], LOOKALIKE["plan-execute"]], LOOKALIKE["contract"], success="unmeasured; up")
LOOKALIKE_SB1 = [(setup, {"lookalike": True, "stop_when_done": True}) for setup in LOOPS]
lookalike_contract_solves_more_than_stopping_loops = says("lookalike_contract_solves_more_than_stopping_loops",
    LOOKALIKE_SB1, LOOKALIKE["contract"], success="unmeasured; up")
lookalike_contract_stays_lower = says("lookalike_contract_stays_lower",
    [LOOKALIKE["single-loop"], LOOKALIKE["plan-execute"]], LOOKALIKE["contract"], steps="measured down; down",
    tool_calls="measured down; down", tokens="measured down; down", tool_errors="measured down; down")
# fmt: on


# ---- lesson 7: real frameworks against the course's endpoint (recorded runs, and a few live ones)


@cache
def _recorded():
    from sim.chat import framework_runs

    return framework_runs.recorded_rows(), framework_runs.recorded_runs()


AT_8 = {"LangGraph, limit 16": "need more steps", "Agents SDK, 8 turns": "MaxTurnsExceeded",
        "smolagents, 8 steps": "max steps"}  # fmt: skip


def _agent_rows(name):
    rows, _ = _recorded()
    return rows[rows["agent"] == name].set_index(["seed", "task"]).sort_index()


def frameworks_replay_the_single_loop() -> bool:
    """Lesson 7: through the endpoint, each framework makes the one-seed engine's calls and gives its
    answer, on task G05 and G20 at run A (the endpoint replays the conversation on the run's draws)."""
    from sim.chat import frameworks, model_endpoint

    with model_endpoint.serve() as url:
        return all(
            run(task, SEED_A, url).tools == [c.tool for c in sim.run_single_loop(task, SEED_A, BUDGET).trace]
            for run in frameworks.RUNNERS.values() for task in ("G05", "G20")
        )  # fmt: skip


def picks_follow_the_conversation_not_the_prompt() -> bool:
    """Lesson 7: the endpoint's reply depends on the conversation's calls and results, not on the system
    prompt or the tools' descriptions; and each framework makes the engine's calls (G05, G20, run A)."""
    from sim.chat.messages import SYSTEM_LOOP, head, tool_schemas
    from sim.chat.model_endpoint import completion

    model = f"sim-model@seed={SEED_A}&task=G05"
    plain = completion(
        {"model": model, "messages": head(SYSTEM_LOOP, sim.TASKS[4].request), "tools": tool_schemas()}
    )
    other_tools = [
        {**t, "function": {**t["function"], "description": "another text"}} for t in tool_schemas()
    ]
    other = completion(
        {"model": model, "messages": head("Another prompt.", sim.TASKS[4].request), "tools": other_tools}
    )
    return plain["choices"] == other["choices"] and frameworks_replay_the_single_loop()


def graph_is_the_split_and_pays_its_answer_at_the_budget() -> bool:
    """Lesson 7, recorded: without the replanner the graph's calls, tool errors and answers are lesson 2's
    split's at the first recorded seed, and its requests the split's steps plus one where the budget ran out."""
    graph = _agent_rows("LangGraph plan-execute, no replanner")
    seed = int(graph.index.get_level_values("seed").min())
    for task in sim.TASKS:
        split, row = sim.run_plan_execute(task.name, seed, BUDGET), graph.loc[(seed, task.name)]
        if (row["calls"], row["errors"], json.loads(row["answer"])) != (
            len(split.trace),
            split.errors,
            split.answer,
        ):
            return False
        if row["requests"] != split.steps + (not split.stopped):
            return False
    return True


def usage_counts_messages_and_tools() -> bool:
    """Lesson 7: the endpoint's usage is ceil(characters of the messages / 4) plus ceil(characters of the
    tool schemas / 4), counted on every request: longer prompts or schemas cost more."""
    import json
    import math

    from sim.chat.messages import SYSTEM_LOOP, head, tool_schemas
    from sim.chat.model_endpoint import completion

    messages = head(SYSTEM_LOOP, sim.TASKS[4].request)
    body = {"model": f"sim-model@seed={SEED_A}&task=G05", "messages": messages, "tools": tool_schemas()}
    longer = {**body, "messages": head(SYSTEM_LOOP + " Be brief.", sim.TASKS[4].request)}
    usage = completion(body)["usage"]["prompt_tokens"]
    return usage == math.ceil(len(json.dumps(messages)) / 4) + math.ceil(
        len(json.dumps(tool_schemas())) / 4
    ) and (completion(longer)["usage"]["prompt_tokens"] > usage)


def frameworks_rewrite_their_requests() -> bool:
    """Lesson 7: on its first request the Agents SDK sends every schema strict (no extra fields), smolagents
    a system prompt over 10 times the course's, its own `final_answer` tool, a description on every argument and a
    tool_choice; LangGraph sends the course loop's schemas as they are."""
    from sim.chat import frameworks, model_endpoint

    bodies = {}
    for name in ("course-loop", "langgraph", "openai-agents", "smolagents"):
        bodies[name] = []
        with model_endpoint.serve(bodies=bodies[name]) as url:
            frameworks.RUNNERS[name]("G05", SEED_A, url)
    first = {name: sent[0] for name, sent in bodies.items()}
    smol = first["smolagents"]
    described = all("description" in field for tool in smol["tools"]
                    for field in tool["function"]["parameters"]["properties"].values())  # fmt: skip
    return (
        first["langgraph"]["tools"] == first["course-loop"]["tools"]
        and all(
            tool["function"].get("strict") is True
            and tool["function"]["parameters"]["additionalProperties"] is False
            for tool in first["openai-agents"]["tools"]
        )
        and len(json.dumps(smol["messages"][0])) > 10 * len(json.dumps(first["course-loop"]["messages"][0]))
        and "final_answer" in [tool["function"]["name"] for tool in smol["tools"]]
        and described
        and "tool_choice" in smol
    )


def each_bound_ends_its_own_way() -> bool:
    """Lesson 7: G05 at run A cut short: the course loop answers what it holds, LangGraph (limit 2 and 3)
    and the Agents SDK (2 turns) give no answer, smolagents (2 steps) asks once more and answers what
    it holds."""
    from sim.chat import frameworks, model_endpoint

    with model_endpoint.serve() as url:
        loop = frameworks.run_course_loop("G05", SEED_A, url, max_steps=2)
        lg2, lg3 = (frameworks.run_langgraph("G05", SEED_A, url, recursion_limit=n) for n in (2, 3))
        sdk = frameworks.run_openai_agents("G05", SEED_A, url, max_turns=2)
        smol = frameworks.run_smolagents("G05", SEED_A, url, max_steps=2)
    return (
        loop.answer == loop.held is not None and (lg2.ended, lg3.ended) == ("need more steps", "GraphRecursionError")
        and lg2.answer is lg3.answer is sdk.answer is None and sdk.ended == "MaxTurnsExceeded"
        and smol.ended == "max steps" and smol.answer == smol.held == loop.held and smol.requests == 3
    )  # fmt: skip


def frameworks_at_8_differ_only_at_the_bound() -> bool:
    """Lesson 7, recorded: at 8 model requests every framework's run that ends with an answer before
    the bound makes the course loop's calls, steps and answer; where the course loop reaches its
    budget, LangGraph (limit 16) and the Agents SDK (8 turns) end without an answer, smolagents (8
    steps) asks once more and answers what the course loop holds."""
    loop = _agent_rows("course loop, 8 steps")
    cut = loop["ended"] == "budget"
    for name, ending in AT_8.items():
        agent = _agent_rows(name)
        same = (
            (
                agent.loc[~cut, ["answer", "requests", "calls", "errors"]]
                == loop.loc[~cut, ["answer", "requests", "calls", "errors"]]
            )
            .all()
            .all()
        )
        if (
            not same
            or not (agent.loc[cut, "ended"] == ending).all()
            or not (agent.loc[~cut, "ended"] == "answer").all()
        ):
            return False
        if name == "smolagents, 8 steps":
            if not (agent.loc[cut, "answer"] == loop.loc[cut, "answer"]).all():
                return False
        elif not (agent.loc[cut, "answer"] == "null").all():
            return False
    return bool(cut.any())


def tokens_are_what_each_framework_sends() -> bool:
    """Lesson 7, recorded: at 8 model requests LangGraph's tokens are the course loop's run for run,
    the Agents SDK's and smolagents' are more on every run."""
    loop = _agent_rows("course loop, 8 steps")["tokens"]
    return ((_agent_rows("LangGraph, limit 16")["tokens"] == loop).all()
            and (_agent_rows("Agents SDK, 8 turns")["tokens"] > loop).all()
            and (_agent_rows("smolagents, 8 steps")["tokens"] > loop).all())  # fmt: skip


def defaults_allow_more_requests() -> bool:
    """Lesson 7: each framework's default bound allows more model requests than the course's budget of
    8 (LangGraph's recursion limit counts 2 graph steps a request)."""
    from sim.chat.frameworks import DEFAULT_BOUNDS

    return (DEFAULT_BOUNDS["langgraph"] // 2 > BUDGET and DEFAULT_BOUNDS["openai-agents"] > BUDGET
            and DEFAULT_BOUNDS["smolagents"] > BUDGET)  # fmt: skip


def cut_runs_lose_their_right_answers() -> bool:
    """Lesson 7, recorded: LangGraph (limit 16) and the Agents SDK (8 turns) solve, run for run, what the
    course loop solves, less exactly the right answers of the course loop's runs that reached its
    budget; smolagents (8 steps) solves what it solves."""
    loop = _agent_rows("course loop, 8 steps")
    right = loop["answer"].map(json.loads) == [correct(task) for _, task in loop.index]
    cut = loop["ended"] == "budget"
    for name in AT_8:
        agent = _agent_rows(name)
        solved = agent["answer"].map(json.loads) == [correct(task) for _, task in agent.index]
        expected = right & ~cut if name != "smolagents, 8 steps" else right
        if not (solved == expected).all():
            return False
    return bool((right & cut).any())


def defaults_solve_more_where_the_loop_stopped() -> bool:
    """Lesson 7, recorded: LangGraph at its default limit and smolagents at its default 20 steps solve
    every task the course loop solves, and more only on runs the course loop ended at its budget."""
    loop = _agent_rows("course loop, 8 steps")
    right = loop["answer"].map(json.loads) == [correct(task) for _, task in loop.index]
    for name in ("LangGraph, limit 10007 (default)", "smolagents, 20 steps (default)"):
        agent = _agent_rows(name)
        solved = agent["answer"].map(json.loads) == [correct(task) for _, task in agent.index]
        gained = solved & ~right
        if (right & ~solved).any() or not gained.any() or not (loop.loc[gained, "ended"] == "budget").all():
            return False
    return True


def correct(task: str):
    return sim.correct_answer(task)


def course_loop_record_is_the_engines_runs() -> bool:
    """Lesson 7, recorded: the course loop's recorded task runs are the engine's single loop's at the
    same seeds and budget, call count for call count and right answer for right answer (so rule AA28
    counts the same runs)."""
    from sim.chat import framework_runs
    from sim.measurement import harness

    loop = framework_runs.recorded_runs()[framework_runs.BASELINE]
    engine = harness.entrant_run("single-loop", loop.seeds, BUDGET)
    return bool((engine.calls == loop.calls).all() and (engine.correct == loop.correct).all())


def replanner_gets_the_one_plan() -> bool:
    """Lesson 7: a planner request with the steps done gets the run's one plan (AA24), on every task at
    run A."""
    import json

    from sim.chat.messages import SYSTEM_PLANNER, head
    from sim.chat.model_endpoint import completion

    for task in sim.TASKS:
        model = f"sim-model@seed={SEED_A}&task={task.name}"
        first = completion({"model": model, "messages": head(SYSTEM_PLANNER, task.request)})
        plan = first["choices"][0]["message"]["content"]
        again = completion({"model": model, "messages": head(
            SYSTEM_PLANNER, f"{task.request}\nPlan: {plan}\nDone: {json.dumps([['read_meter', {}]])}")})  # fmt: skip
        if again["choices"][0]["message"]["content"] != plan:
            return False
    return True


def replanner_changes_no_call_and_pays() -> bool:
    """Lesson 7, recorded: with the replanner the graph's answers, tool calls and tool errors are the
    same run for run as without it, and every run with a call after its first sends more requests."""
    off, on = (
        _agent_rows("LangGraph plan-execute, no replanner"),
        _agent_rows("LangGraph plan-execute, replanner"),
    )
    same = (off[["answer", "calls", "errors"]] == on[["answer", "calls", "errors"]]).all().all()
    return bool(same and (on.loc[off["calls"] > 1, "requests"] > off.loc[off["calls"] > 1, "requests"]).all())


# ---- lesson 8: the patterns (each the course's own rule), at the lesson's 100 held-out seeds


def _p8_seeds():
    from sim.measurement.harness import held_out_seeds

    return held_out_seeds(100)


@cache
def _p8_reflection(setup: str):
    """Lesson 8's reflection table of a loop, as the lesson makes it (cached runs)."""
    from sim.measurement.reflection_flips import reflection_table

    variants = {"RF1 feedback": sim.RunConfig(setup, BUDGET, reflection="feedback"),
                "RF2 intrinsic": sim.RunConfig(setup, BUDGET, reflection="intrinsic")}  # fmt: skip
    if setup == "single-loop":
        variants["self_critique"] = sim.RunConfig(setup, BUDGET, self_critique=True)
    else:
        variants.update({f"RF3 {m}": sim.RunConfig(setup, BUDGET, reflection="feedback", misleading_feedback=m)
                         for m in (0.1, 0.5)})  # fmt: skip
    return reflection_table(sim.RunConfig(setup, BUDGET), variants, _p8_seeds()).set_index("variant")


def patterns_off_change_nothing() -> bool:
    """Lesson 8: with no pattern option given, the loops' code that lessons 1 and 2 print is the code that
    runs, and both loops give the golden rows at seeds 0 and 1, budget 8 (every seed and budget: test_sim_golden)."""
    from golden_runs import golden_by_config

    from sim.presentation.showcode import code_of

    shown = {"01": code_of(loops.take_step), "02": code_of(loops.plan_execute)}
    for prefix, text in shown.items():
        notebook = next(LESSONS.glob(f"{prefix}_*.ipynb"))
        if text not in printed_text(nbformat.read(notebook, as_version=4)):
            return False
    checked = 0
    for (setup, critique, approval), rows in golden_by_config().items():
        if critique != "0" or approval != "0":
            continue
        for row in rows:
            if int(row["budget"]) == BUDGET and int(row["seed"]) < 2:
                run = sim.run_task(setup, row["task"], int(row["seed"]), BUDGET)
                checked += 1
                if (repr(run.answer), run.steps, run.tokens) != (
                    row["answer"],
                    int(row["steps"]),
                    int(row["tokens"]),
                ):
                    return False
    return checked > 0


def reflection_keeps_the_ordinary_pick_first() -> bool:
    """Lesson 8, RF1-RF3: a run under a reflection rule is the run without it, step for step, up to its first
    replaced pick (the rule draws from a stream of its own), in both loops at run A."""
    for setup in LOOPS:
        for kind in ("feedback", "intrinsic"):
            for task in sim.TASKS:
                off = sim.run_task(setup, task, SEED_A, BUDGET)
                on = sim.run_task(setup, task, SEED_A, BUDGET, reflection=kind)
                first = next((i for i, step in enumerate(on.log) if step.revised_from), len(on.log))
                if [s.tool for s in on.log[:first]] != [s.tool for s in off.log[:first]]:
                    return False
                if first < len(on.log) and on.log[first].revised_from != off.log[first].tool:
                    return False
    return True


def rf1_charges_what_self_critique_charges() -> bool:
    """Lesson 8: RF1 charges REFLECTION_TOKENS an error, the source's SELF_CRITIQUE_TOKENS; self_critique
    changes no draw (the same calls as the plain loop at runs A and B)."""
    from sim.model import reflection

    same_calls = all(
        [c.tool for c in sim.run_task("single-loop", t, seed, BUDGET).trace]
        == [c.tool for c in sim.run_task("single-loop", t, seed, BUDGET, self_critique=True).trace]
        for seed in SEEDS
        for t in sim.TASKS
    )
    return reflection.REFLECTION_TOKENS == costs.SELF_CRITIQUE_TOKENS == 40 and same_calls


def _holds_zero(row, unit="success") -> bool:
    return row[unit + " low"] <= 0 <= row[unit + " high"]


def single_loop_rf1_as_stated() -> bool:
    """Lesson 8: in the single loop RF1 flips more right picks wrong than wrong right, adds tool errors, its
    success interval holds zero and it costs more tokens than self_critique."""
    table = _p8_reflection("single-loop")
    rf1 = table.loc["RF1 feedback"]
    return (rf1["right to wrong"] > rf1["wrong to right"] and rf1["tool errors"] > 0 and _holds_zero(rf1)
            and rf1["tokens"] > table.loc["self_critique", "tokens"])  # fmt: skip


def split_rf1_as_stated() -> bool:
    """Lesson 8: in the split RF1's success interval lies above zero with fewer tool errors; at a misleading
    share of 0.1 the interval holds zero."""
    table = _p8_reflection("plan-execute")
    rf1 = table.loc["RF1 feedback"]
    return rf1["success low"] > 0 and rf1["tool errors"] < 0 and _holds_zero(table.loc["RF3 0.1"])


@cache
def split_rf3_solves_less_than_rf1() -> bool:
    """Lesson 8: in the split, RF3 at a misleading share of 0.1 minus RF1 on the same seeds has its success
    interval below zero."""
    from sim.measurement.reflection_flips import reflection_table

    rf1 = sim.RunConfig("plan-execute", BUDGET, reflection="feedback")
    rf3 = {"RF3 0.1": sim.RunConfig("plan-execute", BUDGET, reflection="feedback", misleading_feedback=0.1)}
    return reflection_table(rf1, rf3, _p8_seeds()).iloc[0]["success high"] < 0


def split_rf2_loses() -> bool:
    """Lesson 8: intrinsic critique's success interval lies below zero in the split."""
    return _p8_reflection("plan-execute").loc["RF2 intrinsic", "success high"] < 0


def right_plans_are_chains() -> bool:
    """Lesson 8: the right plan of each of the 24 tasks is a chain (each step depends on the one before it),
    so parallel steps have nothing to run side by side there."""
    from sim.engine.goals import goal_of

    for task in sim.TASKS:
        plan = plan_schema.plan_from_tools(task.sequence, goal_of(task.request), ())
        steps = plan.steps
        if any(steps[i - 1].id not in step.depends_on for i, step in enumerate(steps) if i):
            return False  # each step waits for the one before it: no two steps are ever ready at once
    return True


@cache
def _p8_fan_out():
    from sim.measurement.fan_out import fan_out_outcomes

    return fan_out_outcomes(_p8_seeds(), False), fan_out_outcomes(_p8_seeds(), True)


def fan_out_schedules_share_plans() -> bool:
    """Lesson 8: both schedules write the same plans from the same draws (every fan-out task at run A)."""
    from sim.engine.fan_out import fan_out_run
    from sim.model.fan_out_tasks import FAN_OUT_TASKS

    return all(fan_out_run(t, SEED_A).plans == fan_out_run(t, SEED_A, parallel_steps=True).plans
               for t in FAN_OUT_TASKS)  # fmt: skip


def fan_out_differs_only_where_a_bound_stops() -> bool:
    """Lesson 8: over the held-out seeds the schedules make the same calls and answers in every run no bound
    stopped; a bound stops exactly 1 run (a sequential one); parallel tokens are never higher."""
    sequential, parallel = _p8_fan_out()
    free = ~(sequential["bound"] | parallel["bound"])
    same = (sequential["calls"][free] == parallel["calls"][free]).all() and (
        sequential["correct"][free] == parallel["correct"][free]).all()  # fmt: skip
    return bool(same and sequential["bound"].sum() == 1 and parallel["bound"].sum() == 0
                and (parallel["tokens"] <= sequential["tokens"]).all())  # fmt: skip


def right_fan_out_runs_take_5_plus_4k() -> bool:
    """Lesson 8: a right sequential run of width k takes 5 + 4k simulated seconds, a parallel one 9 (the
    planner's 5 and one branch's calls), so the cap at width 4 is 21/9."""
    from sim.engine.fan_out import right_sequential_run
    from sim.model import fan_out_tasks

    branch = sum(map(plan_schema.tool_seconds, fan_out_tasks.BRANCH_SEQUENCE))
    return all(right_sequential_run(k)[2] == 5 + 4 * k for k in fan_out_tasks.WIDTHS) and 5 + branch == 9


def speedup_grows_with_width_and_falls_with_replans() -> bool:
    """Lesson 8: the mean speed-up rises with the width, and at every width above 1 it falls with each
    replan a run needed."""
    from sim.measurement.fan_out import speedup_by_replans, speedup_table

    means = [t[0] for t in speedup_table(_p8_seeds())["speedup"]]
    by_replans = speedup_by_replans(_p8_seeds())
    falling = all(list(group["speedup"]) == sorted(group["speedup"], reverse=True)
                  and group["speedup"].nunique() == len(group)
                  for width, group in by_replans.groupby("width") if width > 1)  # fmt: skip
    no_replan = by_replans[by_replans["replans"] == 0].set_index("width")["speedup"]
    capped = all(abs(no_replan[k] - (5 + 4 * k) / 9) < 0.005 for k in no_replan.index)
    return means == sorted(means) and len(set(means)) == len(means) and falling and capped


def approval_never_refuses() -> bool:
    """Lesson 1's approval switch only counts: the same calls with and without it at runs A and B."""
    return all(
        [c.tool for c in sim.run_task("single-loop", t, seed, BUDGET).trace]
        == [c.tool for c in sim.run_task("single-loop", t, seed, BUDGET, approval=True).trace]
        for seed in SEEDS
        for t in sim.TASKS
    )


def reviewer_rules_as_stated() -> bool:
    """Lesson 8, RV1-RV3 at runs A and B (AE1 at 0.1): every review costs REVIEW_TOKENS; a blocked write is
    never made; a parallel refusal ends the run at its step with no answer, the write made."""
    from sim.model import review

    for seed in SEEDS:
        for task in sim.TASKS:
            blocked = sim.run_task(
                "single-loop", task, seed, BUDGET, argument_errors=0.1, reviewer="blocking"
            )
            if any(r.refused and r.made for r in blocked.reviews):
                return False
            tripped = sim.run_task(
                "single-loop", task, seed, BUDGET, argument_errors=0.1, reviewer="parallel"
            )
            if tripped.tripped and (tripped.answer is not None or tripped.reviews[-1].step != tripped.steps
                                    or not tripped.reviews[-1].refused):  # fmt: skip
                return False
    return review.REVIEW_TOKENS == 100


@cache
def blocking_retry_aims_at_the_write_again() -> bool:
    """Lesson 8, RV2 with AA27: over the held-out seeds (single loop, AE1 at 0.1), every step after a
    blocked write aims at the same position and tool as the refused step, and after a refused write the
    job called for (target write_record) the answer held is the one held before the refused step."""
    from sim.measurement.review_counts import review_runs

    config = sim.RunConfig("single-loop", BUDGET, argument_errors=0.1, reviewer="blocking")
    checked = 0
    for row in review_runs(config, _p8_seeds()):
        for run in row:
            for review in (r for r in run.reviews if r.refused and r.step < len(run.log)):
                refused, after = run.log[review.step - 1], run.log[review.step]
                before = run.log[review.step - 2].held if review.step > 1 else None
                if (after.target, after.depth) != (refused.target, refused.depth):
                    return False
                if refused.target == "write_record" and refused.held != before:
                    return False
                checked += 1
    return checked > 0


def _p8_review():
    from sim.measurement.review_counts import review_differences, review_runs, review_units

    units = {mode: review_units(review_runs(sim.RunConfig("single-loop", BUDGET, argument_errors=0.1, reviewer=mode),
                                            _p8_seeds())) for mode in (None, "blocking", "parallel")}  # fmt: skip
    wanted = ("success", "success, no wrong write", "tokens", "seconds", "wrong writes made")
    return {mode: review_differences(units[mode], units[None], wanted) for mode in ("blocking", "parallel")}


def blocking_reviewer_as_stated() -> bool:
    """Lesson 8: a blocking reviewer's success interval holds zero while its wrong writes fall, and
    counted with no wrong write its success interval lies above zero."""
    table = _p8_review()["blocking"]
    return (
        table.loc["success", "low"] <= 0 <= table.loc["success", "high"]
        and table.loc["wrong writes made", "high"] < 0
        and table.loc["success, no wrong write", "low"] > 0
    )


def parallel_reviewer_as_stated() -> bool:
    """Lesson 8: a parallel reviewer's success interval lies below zero, and it spends fewer tokens and
    seconds than no reviewer (both intervals below zero); its success counted with no wrong write lies
    below zero too."""
    table = _p8_review()["parallel"]
    units = ("success", "success, no wrong write", "tokens", "seconds")
    return all(table.loc[unit, "high"] < 0 for unit in units)


def parallel_trip_cuts_later_writes() -> bool:
    """Lesson 8: the parallel reviewer makes fewer wrong writes and fewer right ones than no reviewer
    (both intervals below zero), and wherever a task run's writes differ from its run without a
    reviewer, the parallel run tripped and its writes are the first of those."""
    from sim.measurement.review_counts import review_differences, review_runs, review_units, writes_made

    grids = {mode: review_runs(sim.RunConfig("single-loop", BUDGET, argument_errors=0.1, reviewer=mode), _p8_seeds())
             for mode in (None, "parallel")}  # fmt: skip
    table = review_differences(review_units(grids["parallel"]), review_units(grids[None]))
    fewer = all(table.loc[unit, "high"] < 0 for unit in ("wrong writes made", "right writes made"))
    for off_row, parallel_row in zip(grids[None], grids["parallel"], strict=True):
        for off, parallel in zip(off_row, parallel_row, strict=True):
            made_off, made_parallel = writes_made(off), writes_made(parallel)
            if made_off != made_parallel and not (
                parallel.tripped and made_off[: len(made_parallel)] == made_parallel
            ):
                return False
    return fewer


def success_counts_the_answer_held() -> bool:
    """Lesson 8: success counts the answer held at the end, so a task run without a reviewer that made a
    wrong write and then held the correct answer counts as solved (the held-out runs hold such runs)."""
    from sim.measurement.review_counts import review_runs, writes_made

    grid = review_runs(sim.RunConfig("single-loop", BUDGET, argument_errors=0.1), _p8_seeds())
    runs = [run for row in grid for run in row]
    by_answer = all(sim.is_correct(run) == (run.answer == sim.correct_answer(run.task)) for run in runs)
    return by_answer and any(any(writes_made(run)) and sim.is_correct(run) for run in runs)


def reviews_sit_on_write_record_calls() -> bool:
    """Lesson 8, RV1: every review of the parallel reviewer's runs on the held-out seeds (its trips among
    them) sits at a step whose call is write_record, and some trip."""
    from sim.measurement.review_counts import review_runs
    from sim.model.review import REVIEWED_TOOL

    grid = review_runs(
        sim.RunConfig("single-loop", BUDGET, argument_errors=0.1, reviewer="parallel"), _p8_seeds()
    )
    runs = [run for row in grid for run in row]
    reviewed = [
        ({s.step: s for s in run.log}[review.step].tool, review.tripped)
        for run in runs
        for review in run.reviews
    ]
    return all(tool == REVIEWED_TOOL for tool, _ in reviewed) and any(tripped for _, tripped in reviewed)


def loop_step_costs_60_plus_22() -> bool:
    """Lesson 1's rule: a single-loop step costs 60 + 22 a call in the trace."""
    return all(costs.loop_step_tokens(n) == 60 + 22 * n for n in range(12))


def compaction_pays_only_with_several_summarized() -> bool:
    """Lesson 8, CP1: a single-loop step with 1 call summarized costs more than the whole trace and with 2
    less; an executor step needs 4 summarized calls to cost less."""
    from sim.model.compaction import compacted_step_tokens

    def saving(step_tokens, summarized, k=2):
        return step_tokens(k + summarized) - compacted_step_tokens(step_tokens, k + summarized, k)

    return (saving(costs.loop_step_tokens, 1) < 0 < saving(costs.loop_step_tokens, 2)
            and saving(costs.executor_step_tokens, 3) < 0 < saving(costs.executor_step_tokens, 4))  # fmt: skip


def summary_table_as_measured() -> bool:
    """Lesson 8's summary rows: RF1 gains in the split only, smaller and lost at misleading 0.1, RF2 loses in the
    split and is the dearest in tokens in both loops, the speed-up grows with width, blocking keeps wrong
    writes out and solves more counted with no wrong write, parallel loses answers, compaction at most 1.3 %."""
    from sim.measurement.compaction_sweep import compaction_table

    dearest = all(_p8_reflection(s)["tokens"].idxmax() == "RF2 intrinsic" for s in LOOPS)
    single = compaction_table("single-loop", range(1, 7), _p8_seeds(), BUDGET)
    saved = (single["tokens saved"] / single["tokens"].iloc[0]).max()
    k1_loses = single.set_index("keep_last").loc[1, ["success lost", "success low"]].min() > 0
    return (single_loop_rf1_as_stated() and split_rf1_as_stated() and split_rf2_loses() and dearest
            and speedup_grows_with_width_and_falls_with_replans() and blocking_reviewer_as_stated()
            and parallel_reviewer_as_stated() and round(100 * saved, 1) == 1.3 and k1_loses
            and split_rf3_solves_less_than_rf1())  # fmt: skip


REGISTRY: dict[str, list] = {
    "01": [
        ("The model knows when its job is done, so it never stops early",
         ByRule(the_single_loop_stops_only_when_done)),
        ("overwrote the answer it held; it is run A's unsolved task",
         Printed("tariff 1132 -> search_docs TR01 -> write_record TR01")),
        ("At every step the agent looks at the job and at everything it has done so far",
         NotAClaim("defines the single loop; the step's code is shown further down")),
        ("Every other arrangement in this course is measured against it",
         NotAClaim("states the course's plan: each later lesson sets its setup beside the single loop's rows")),
        ("the small fictional world every lesson runs in",
         NotAClaim("describes the course: every lesson imports the one world of sim")),
        ("Every figure in this text is printed by a cell of this notebook",
         NotAClaim("the prose-figure rule, enforced by tests/test_lessons.py, not a result")),
        ("The world is built once and never changes", ByRule(world_is_fixed_whatever_the_seed)),
        ("and every m3 above 40 at 16", ByRule(tariff_bands_as_stated)),
        ("So every request finds something", Printed("tasks whose request search_docs cannot match: 0 of 24")),
        ("Each step of the single loop does the same things, in this order",
         NotAClaim("introduces the numbered definition of a step; the code is printed after it")),
        ("that share falls by 0.09 with every position, down to a floor of 0.34",
         Printed("max(0.34, 0.8 - 0.09 x (d - 1))")),
        ("so the share of right picks is a little higher than the draw's", ByRule(right_share_above_draw_share)),
        ("Token accounting: a step costs 60 + 22 x trace length", ByRule(step_tokens_as_stated)),
        ("so step 3 aims at the same position again", Holds(g03_step_3_aims_at_the_same_position)),
        ("every step after it costs 22 tokens more than it would have",
         Holds(g03_later_steps_pay_for_the_failed_call)),
        ("These are the same two rows", Holds(loop_rows_are_lesson_2_rows)),
        ("the deeper the position, the fewer right picks", Holds(right_picks_fall_with_depth_on_both_runs)),
        ("the share of right picks is lower at the fourth position than at the first",
         Holds(right_picks_fall_with_depth_on_both_runs)),
        ("None of these ratios is near one half",
         Printed("depth 4 / depth 1: 0.6081 / 0.8446 = 0.7200", "0.624 / 0.84 = 0.7429", "0.53 / 0.80 = 0.6625")),
        ("one pick more or less right would move it by 0.1667",
         Printed("one right pick more or less at depth 4 moves its share by 1/6 = 0.1667")),
        ("the points cannot show even the direction for certain", Holds(model_shows_only_with_many_picks)),
        ("Here the fall is the pick rule itself", ByRule(pooled_shares_fall_near_the_line)),
        ("Pooled over 200 seeds, the shares fall at every depth", Holds(pooled_shares_fall_near_the_line)),
        ("treats every pick as independent",
         NotAClaim("states the assumption of the binomial standard error the cell prints; claims no result")),
        ("each share lies within 2.0 standard errors of the expected", Printed("largest gap: 2.0 standard errors")),
        ("each step that calls a tool costs 22 tokens more than the one before it",
         ByRule(each_call_costs_22_more_than_the_step_before)),
        ("which never fails: a document code sat where the answer belongs",
         Printed("read_meter -> search_docs -> search_docs -> search_docs -> consumption", "tool errors 0")),
        ("The right panel of the figure puts every task's total tokens against its sequence length",
         NotAClaim("describes the figure the next cell draws")),
        ("tokens grow faster than steps: each wasted step makes every later step dearer",
         ByRule(tokens_grow_faster_than_steps)),
        ("Each is measured on the same runs as the plain loop",
         NotAClaim("describes the method: the cells measure each switch at the plain loop's seeds and budget")),
        ("and holds on every seed, not only on these two", ByRule(switches_change_no_draw)),
        ("reflects on every tool error, which costs 40 tokens an error",
         Printed("run A: tokens +320 = 40 x 8 tool errors", "run B: tokens +280 = 40 x 7 tool errors")),
        ("so all 24 traces are the same on both runs",
         Printed("tasks whose trace is the same with and without self-critique: 24 and 24 of 24")),
        ("every call to a side-effecting tool asks a human for approval before it runs",
         ByRule(approval_asks_for_every_side_effect_call)),
        ("is the only such tool", Printed("5 tools, 1 with a side effect")),
        ("in tasks that never asked for a record; on run B, 9 and 6",
         Holds(approvals_ask_for_unwanted_writes)),
        ("shows one more kind of damage: G23, a record task, writes TR01", Holds(g23_writes_a_document_code)),
        ("Approval changes none of the counted units",
         Printed("success, steps, tool calls, tokens and tool errors with approval: as without it, on both runs")),
        ("What refusing them would save is a question",
         NotAClaim("names a question the simulator cannot answer; it claims no saving")),
        ("Right picks fall with depth on both runs", Holds(right_picks_fall_with_depth_on_both_runs)),
        ("Every step re-sends the trace: 32.9 % and 32.5 % of all tokens",
         Printed("run A: 3938 of 11978 tokens re-send the trace (32.9 %)",
                 "run B: 3894 of 11994 tokens re-send the trace (32.5 %)",
                 "G15: 1306 tokens, of which 616 re-send the trace (47.2 %)")),
        ("why do the depth-1 points move so much less?", NotAClaim("an exercise question for the student")),
        ("Is the token difference always 40 times the tool errors?", NotAClaim("an exercise question for the student")),
        ("with more exercises", NotAClaim("lists what the optional part holds; it claims no result")),
        ("### Is the fall a halving?", NotAClaim("a question the next cells answer")),
        ("Are the unwanted writes usually more or fewer than the wanted ones",
         NotAClaim("an exercise question for the student")),
        ("the checks compute the answers for that seed and say right or wrong, and what is off, never the answer",
         NotAClaim("an exercise for the student: describes what the checks of sim.exercises.* print")),
    ],
    "02": [
        ("the share of right tool picks falls with every position of the sequence",
         Holds(right_picks_fall_with_depth_on_both_runs)),
        ("Two questions: does the split solve more tasks than the single loop, and what does it cost",
         NotAClaim("the questions the lesson sets out to answer")),
        ("every figure in this text is printed by a cell of this notebook",
         NotAClaim("the prose-figure rule, enforced by tests/test_lessons.py, not a result")),
        ("It chooses every position at once, with the same information", ByRule(planner_share_is_flat)),
        ("It is paid out of the same budget as every other step", ByRule(planning_is_a_step_of_the_budget)),
        ("does the executor fall back to the single loop's rule for what remains",
         ByRule(executor_follows_the_plan_first)),
        ("Every observation costs 30.", ByRule(step_tokens_as_stated)),
        ("Every position of the plan is one draw: right with the flat share", ByRule(planner_share_is_flat)),
        ("but only after every one of the 8 steps was used", Holds(g05_split_spends_all_8_steps)),
        ("in both setups, on both runs, with the same step budget", Printed("step budget: 8 steps for both setups")),
        ("Each unit gets the same test, the band rule", ByRule(band_rule_as_stated_loop_against_split)),
        ("The same figures as a picture", NotAClaim("describes the figure the next cell draws")),
        ("on run A it only equals the band, on run B there is none",
         Printed("success 0 2 2 unmeasured", "success 23 23 21 23 -2 0")),
        ("and prints the mean difference per run, each seed's split against the same seed's single loop",
         NotAClaim("describes what the next cell prints: the same-seed mean difference and its interval")),
        ("The 10,000 seeds give the split 0.0079 fewer of the tasks a run; the cell turns that share into tasks",
         Printed("success unmeasured -0.0079 [-0.0092, -0.0066] resolved down")),
        ("So over 10,000 seeds the split does solve fewer tasks, 0.19 of a task a run, less than 1 % of them",
         Printed("over 10000 seeds: -0.0079 of the tasks a run, -0.19 tasks")),
        ("Answers spoiled after the job was done cost the single loop 0.735 a run and the split 0.715",
         Printed("spoiled after done, all plans: single loop 0.735, split 0.715")),
        ("The split loses more tasks out of budget, 0.745 a run against 0.045",
         Holds(split_out_of_budget_losses_have_wrong_plans)),
        ("It loses fewer answers spoiled before the job was done, 0.275 against 0.620",
         Printed("split plan wrong 0.745 0.200 0.275", "single loop no plan 0.045 0.735 0.620")),
        ("On these seeds it credits the split with 0.410 such tasks a run and the single loop with 0.080",
         Printed("counted solved with no record written, a run: single loop 0.080, planner + executor 0.410")),
        ("a record task counts as solved when the right amount is held, written or not",
         ByRule(record_success_needs_no_write)),
        ("In all, on these 200 seeds it loses 1.735 a run against 1.400",
         Printed("every cause, all plans: single loop 1.400, split 1.735")),
        ("a record task holds its amount before it writes the record", ByRule(record_task_holds_amount_before_write)),
        ("A real agent has none of these",
         NotAClaim("contrasts the model's rules AA24, AA27 and AA29 with real agents: a statement of the simulator's design")),
        ("The cell lists every task each setup lost at runs A and B with its cause",
         NotAClaim("describes the next cell and defines its cause 'spoiled after the job was done'")),
        ("Planning adds one step to every task, 24 steps in all", ByRule(planning_is_a_step_of_the_budget)),
        ("It takes fewer, and the difference can be accounted for to the step",
         Printed("run A: 97 + 24 = 121 expected, 118 measured: 3 fewer = 3 fewer tool calls + 0 fewer stop steps",
                 "run B: 98 + 24 = 122 expected, 116 measured: 6 fewer = 4 fewer tool calls + 2 fewer stop steps")),
        ("over 10,000 seeds the split makes about 0.86 more calls a run",
         Printed("tool calls measured down +0.86 [+0.72, +1.01] resolved up")),
        ("Its last line is the fall over 10,000 seeds", Printed("over 10000 seeds: fall 1237 of 11636 tokens a run = 10.6 %")),
        ("Tokens fall by 13.6 % on run A and 15.5 % on run B, but over 10,000 seeds the fall is 10.6 %",
         Printed("run A: 11978 -> 10345, fall 13.6 %", "run B: 11994 -> 10135, fall 15.5 %",
                 "over 10000 seeds: fall 1237 of 11636 tokens a run = 10.6 %")),
        ("how often it prints measured in the direction the 10,000 seeds resolve, and how often measured the wrong way",
         NotAClaim("describes what the next cell counts")),
        ("Steps, whose rise the planning step gives by rule, come out measured in 92.3 % of pairs",
         Printed("steps: measured the right way in 92.3 % of 5000 pairs",
                 "tokens: measured the right way in 36.0 % of 5000 pairs",
                 "single loop's token band over 5000 pairs of seeds: median 822", "tokens 16 210 210 measured")),
        ("at the loop's price the split would spend more tokens than the loop, not fewer",
         Printed("run A: at the loop's price the split would spend 2275 tokens more",
                 "run B: at the loop's price the split would spend 1889 tokens more")),
        ("It comes from the prices",
         Printed("3908 (the split's own steps at the loop's price, by the rules) - 2765 (the plans)",
                 "3748 (the split's own steps at the loop's price, by the rules) - 2765 (the plans)")),
        ("an executor step carries the plan and the state along with its trace, at a lower price per call in it",
         ByRule(step_tokens_as_stated)),
        ("for the same trace an executor step costs 40 + 10 tokens a call", ByRule(step_tokens_as_stated)),
        ("the fall is that saving by the rules, less the plans' cost, plus what the two setups' different steps add",
         Printed("run A: fall 1633 = 3908 (the split's own steps at the loop's price, by the rules) - 2765 (the plans) + 490 (different steps taken)",
                 "run B: fall 1859 = 3748 (the split's own steps at the loop's price, by the rules) - 2765 (the plans) + 876 (different steps taken)")),
        ("The split makes more tool errors: 10 and 12 against 8 and 7",
         Printed("tool errors 8 7 10 12 2 5")),
        ("The direction is the same on both runs", Printed("tool errors 8 7 10 12 2 5")),
        ("always finds its fields and makes no tool error", ByRule(read_meter_and_search_docs_find_their_fields)),
        ("With 8 tasks or fewer per length, the 2 runs' counts are small; the 10,000 seeds follow the model",
         Holds(plans_follow_the_model_by_length)),
        ("the difference never exceeds the split's own band",
         Holds(within_band("split_success_within_its_own_band", LOOP, SPLIT, "second"))),
        ("planning adds exactly one step per task, by the rules", ByRule(planning_is_a_step_of_the_budget)),
        ("On run A 121 would be expected and the split took 118: 3 fewer tool calls",
         Printed("run A: 97 + 24 = 121 expected, 118 measured: 3 fewer = 3 fewer tool calls")),
        ("On run B, 122 and 116: 4 fewer tool calls and 2 fewer stop steps",
         Printed("run B: 98 + 24 = 122 expected, 116 measured: 6 fewer = 4 fewer tool calls + 2 fewer stop steps")),
        ("but made by the token rules: at the loop's price the split would spend more",
         Printed("run A: at the loop's price the split would spend 2275 tokens more",
                 "run B: at the loop's price the split would spend 1889 tokens more")),
        ("Tokens fall by 13.6 % and 15.5 %, beyond bands of 16 and 210: measured",
         Printed("fall 13.6 %", "fall 15.5 %", "tokens 16 210 210 measured",
                 "3908 (the split's own steps at the loop's price, by the rules) - 2765 (the plans)",
                 "3748 (the split's own steps at the loop's price, by the rules) - 2765 (the plans)")),
        ("Over 10,000 seeds the fall is 10.6 %: the two runs overstate it, and their narrow band was luck",
         Printed("over 10000 seeds: fall 1237 of 11636 tokens a run = 10.6 %",
                 "single loop's token band over 5000 pairs of seeds: median 822")),
        ("the split solves fewer tasks and makes more tool calls and more tool errors; it uses fewer tokens",
         Holds(split_over_10000_seeds)),
        ("are right on 2 units (steps, tokens), wrong in sign on 1 (tool calls) and give no verdict on 2",
         Printed("the 2-run verdicts: right on 2 (steps, tokens); wrong sign on 1 (tool calls); no verdict on 2",
                 "(success, tool errors)")),
        ("Tool errors rise on both runs (10 and 12 against 8 and 7)",
         Printed("tool errors 8 7 10 12 2 5", "tool errors 1 2 2 unmeasured")),
        ("Both setups ran on the same step budget, 8 steps", Printed("step budget: 8 steps for both setups")),
        ("G05 needed 3 more steps after its plan ran out", Holds(g05_split_needs_three_calls_after_its_plan)),
        ("with a smaller budget it ends with a wrong answer",
         Printed("G05, split, budget 6: answer 55, correct 550", "G05, split, budget 7: answer 550, correct 550")),
        ("Press new seed until the split solves more tasks than the single loop on both runs",
         NotAClaim("an exercise for the student")),
        ("Why does the planning step weigh more at a small budget?", NotAClaim("an exercise question for the student")),
        ("A token saving is worth less if it comes with fewer tasks solved", NotAClaim("an exercise's motive")),
        ("Divide each run's tokens by its tasks solved",
         NotAClaim("an exercise for the student")),
        ("The lesson's table drawn again, the same figures as bars",
         NotAClaim("describes the figure the next cell draws from the lesson's table")),
        ("the checks compute the answers for that seed and say right or wrong, with a hint of the method, never the answer",
         NotAClaim("an exercise for the student: describes what the checks of sim.exercises.* print")),
        ("The check runs it on every counted unit at several seed pairs from your seed",
         NotAClaim("an exercise for the student: describes what check_band_verdict runs")),
        ("a split saves tokens only where its executor's requests are shorter than the loop's",
         NotAClaim("a condition a reader checks on a real agent, stated as such; no result of the simulator")),
    ],
    "03": [
        ("so a stop on a charge, consumption or document task holds the right answer (0 exceptions on the "
         "held-out seeds at budget 12, below)",
         Printed("runs stopped with a wrong answer, tasks not asking for a record: 0")),
        ("ran both setups with a budget of 8 steps and never said why",
         NotAClaim("about the earlier lesson's text: it fixed the budget without a reason; no measured result")),
        ("Too small, and a loop cannot finish: the split's G05 needed 3 more steps after its plan ran out",
         Holds(g05_split_needs_three_calls_after_its_plan)),
        ("look for tasks that a larger budget spoils", Holds(larger_budget_spoils_only_finished_split_tasks)),
        ("Both setups, both runs, every budget: the counted units", NotAClaim("describes what the next cell prints")),
        ("The same sweep as lines: tasks solved, tokens and tool errors against the budget.",
         NotAClaim("describes the figure the next cell draws")),
        ("A task needs at least as many steps as its sequence has tools", ByRule(a_sequence_needs_its_length_in_steps)),
        ("At budget 4 every sequence fits into the single loop's budget",
         ByRule(budget_4_fits_every_sequence_but_not_the_split_records)),
        ("What this part adds: G04's call too many, G05 at the edge of its budget",
         NotAClaim("lists what Going further holds")),
        ("shows the too-small edge for one task",
         Printed("G05, split, budget 6: answer 55, correct 550, outcome: out of budget")),
        ("Its plan wasted 3 steps, so it needs every step up to the budget of 7",
         Printed("G05, split, budget 6: answer 55, correct 550, outcome: out of budget",
                 "G05, split, budget 7: answer 550, correct 550, outcome: solved")),
        ("Too large: a finished agent spoils its answer", Holds(larger_budget_spoils_only_finished_split_tasks)),
        ("Can a larger budget lose a task that a smaller one solved?", NotAClaim("a question the next cell answers")),
        ("The cell looks at every task on runs A and B at every budget from 1 to 12",
         NotAClaim("describes what the next cell does, and defines spoiled")),
        ("The single loop has no such task on these runs; the split has 2 on run A and 1 on run B",
         Holds(larger_budget_spoils_only_finished_split_tasks)),
        ("The single loop's one fall in the sweep, G23 on run A from budget 6 to 8, is not here: at budget 6 "
         "its answer was right but its record never written", Holds(g23_is_the_one_fall_right_but_unwritten)),
        ("the executor finished the plan, did not stop, and at budget 4 had a step left for one call too many",
         Printed("budget 3: outcome solved", "budget 4: outcome spoiled", "executed : read_meter -> consumption -> tariff")),
        ("Net, over 10,000 seeds, a larger budget still solves more, at a price in tokens",
         Printed("single loop, budget 12 minus 8, 10000 seeds: success +0.0008 [+0.0006, +0.0010], tokens +197",
                 "planner + executor, budget 12 minus 8, 10000 seeds: success +0.0161 [+0.0154, +0.0167], tokens +570")),
        ("So from budget 8 to 12 the spoiling does not turn the average: both setups solve more at 12, the single loop barely",
         Printed("single loop, budget 12 minus 8, 10000 seeds: success +0.0008 [+0.0006, +0.0010]",
                 "planner + executor, budget 12 minus 8, 10000 seeds: success +0.0161")),
        ("Over 10,000 seeds a larger budget still solves more (12 against 8)",
         Printed("single loop, budget 12 minus 8, 10000 seeds: success +0.0008 [+0.0006, +0.0010]",
                 "planner + executor, budget 12 minus 8, 10000 seeds: success +0.0161 [+0.0154, +0.0167]")),
        ("G23: a count that falls", Holds(g23_at_6_right_but_unwritten)),
        ("The cell searches the sweep for every setup, run and pair of budgets",
         NotAClaim("describes what the next cell does")),
        ("Both cases are the same task, G23, a record task", Holds(both_flip_cases_are_g23)),
        ("the answer is right, the record was never written, and the original measure counts a success",
         Holds(g23_at_6_right_but_unwritten)),
        ("budget did not finish the job either: it stopped the run before the mistake",
         Printed("budget 6: outcome solved, no record written", "budget 8: outcome spoiled")),
        ("The cell sorts every run of the sweep into outcomes",
         NotAClaim("defines the outcomes the next cell counts")),
        ("First, the small budgets flatter the record tasks", Holds(small_budgets_flatter_record_tasks)),
        ("No run ends wrong: that column is 0 in every row", Holds(no_run_of_the_sweep_ends_wrong)),
        ("The grids show every task at every budget from 1 to 12 on run A",
         NotAClaim("describes the figures the next cell draws")),
        ("The cell reruns every task at budget 12 with the stopping rule SB1", NotAClaim("describes what the next cell does")),
        ("At budget 12, every answer the single loop spoiled on these runs was lost before the job was done",
         Holds(single_loop_spoils_only_before_done)),
        ("they decide only from what a loop can observe", ByRule(stop_and_budget_rules_read_no_ground_truth)),
        ("Every task stopped.", Printed("every task stopped: yes")),
        ("None needed more than 5 steps beyond its expected calls, and each needed at least 1: its stop step",
         Holds(lesson_runs_need_one_to_five_extra_steps)),
        ("None needed more than 5 steps beyond its expected calls",
         Printed("every task stopped: yes | largest extra steps: 5 -> margin = 5")),
        ("But that margin was read off the same 2 runs it would be applied to",
         NotAClaim("states how the margin above was read: from runs A and B, the runs the rule is measured on")),
        ("the tuned margins let more than 99 % of task runs finish in both setups",
         Printed("it lets 0.9961 of task runs finish", "it lets 0.9918 of task runs finish")),
        ("is at the edge for the single loop (it lets 0.9900 of the held-out task runs finish) and falls short",
         Printed("the 2-run margin 5 lets 0.9900", "the 2-run margin 5 lets 0.9659")),
        ("takes its margin per setup, from the tuning block: 6 for the single loop, 7 for the split",
         Printed("single loop: tuned margin 6", "planner + executor: tuned margin 7")),
        ("both pay for their stop step alike", ByRule(both_stops_cost_a_step)),
        ("For runs A and B the cell takes the saved steps apart", NotAClaim("describes what the next cell prints")),
        ("At the same budget, stopping when done saves little.", Holds(stop_saves_little_at_one_budget)),
        ("In the single loop it saves 1 step and 134 tokens",
         Printed("steps 98 -> 97, 1 saved", "12214 -> 12080, 134 saved", "steps 98 -> 95, 3 saved",
                 "11994 -> 11548, 446 saved")),
        ("in the split, 3 and 2 steps and 330 and 190 tokens",
         Printed("steps 119 -> 116, 3 saved", "10455 -> 10125, 330 saved", "steps 118 -> 116, 2 saved",
                 "10355 -> 10165, 190 saved")),
        ("exactly the calls made after the goal was observed, since the stop steps cancel",
         Holds(steps_saved_are_calls_after_the_goal)),
        ("Over the held-out seeds the intervals stay below zero: 3.17 and 3.14 steps a run, 553.81 and 344.42",
         Printed("-3.17 [-3.26, -3.09]", "-3.14 [-3.22, -3.06]", "-553.81 [-568.87, -538.74]",
                 "-344.42 [-353.75, -335.09]")),
        ("A rule that ended the run with no stop step would look cheaper by exactly the stop steps",
         Holds(steps_saved_are_calls_after_the_goal)),
        ("how much cheaper SB1 would look if its stop cost nothing", NotAClaim("describes what the next cell prints")),
        ("On the single loop's run A, 25 steps and 3180 tokens",
         Printed("a stop for free would look 25 steps and 3180 tokens cheaper")),
        ("Nearly all of such a saving would be the baseline's stop steps", Holds(free_stop_saving_is_mostly_stop_steps)),
        ("Like for like, it is measured against the stop alone at the same hard bound of 12 steps",
         ByRule(both_stops_cost_a_step)),
        ("On runs A and B the two give the same rows: the per-task budget cuts no run short",
         Holds(margin_never_cuts_the_lesson_runs)),
        ("On this simulator the per-task budget changes almost nothing", Holds(per_task_budget_changes_almost_nothing)),
        ("It saves the single loop 0.13 steps and 39.18 tokens a run and the split 0.04 steps and 6.00 tokens",
         Printed("-0.13 [-0.15, -0.11]", "-39.18 [-45.29, -33.07]", "-0.04 [-0.05, -0.03]", "-6.00 [-7.37, -4.64]",
                 "success: -0.02 percentage points a run", "success: -0.03 percentage points a run")),
        ("The only runs it touches are the rare long ones its margin does not cover",
         Holds(per_task_budget_changes_almost_nothing)),
        ("The stop does the saving; what the per-task budget adds is a bound on each task's cost",
         Holds(per_task_budget_changes_almost_nothing)),
        ("Here that budget only bounds rare long runs", Holds(per_task_budget_changes_almost_nothing)),
        ("adds almost nothing to the stop here: it only bounds rare long runs",
         Holds(per_task_budget_changes_almost_nothing)),
        ("That comparison mixes the stop with the budget.", NotAClaim("describes what the next cell takes apart")),
        ("At the fixed budget of 8 the stop alone gains about as much success as at 12",
         Printed("+0.0346 [+0.0330, +0.0362]", "+0.0331 [+0.0315, +0.0347]", "+0.0350 [+0.0334, +0.0366]",
                 "+0.0356 [+0.0339, +0.0373]")),
        ("Against it, the whole rule costs the single loop 0.56 steps and 142.12 tokens more a run",
         Holds(stop_at_8_cheaper_than_the_rule)),
        ("the stop at a fixed 8 is the cheaper rule", Holds(stop_at_8_cheaper_than_the_rule)),
        ("In the single loop the rule saves 2.52 steps and 387.10 tokens a run and solves more",
         Holds(loop_rule_saves_over_many_seeds)),
        ("In the single loop the rule saves 2.52 steps", Printed("-2.52", "-387.10", "+0.0356")),
        ("it solves more too (+0.0512), but takes more steps (+1.01) and more tokens (+220.50)",
         Holds(split_rule_dearer_than_budget_8)),
        ("it solves more too", Printed("+0.0512", "+1.01", "+220.50", "budgets 9 to 12 steps by task")),
        ("Whether a per-task budget pays depends on the fixed budget it replaces",
         Holds(rule_cheaper_depends_on_the_fixed_budget)),
        ("At budget 2 the split can only finish the 7 tasks of length 1, and solves 6",
         Holds(split_at_budget_2_finishes_only_length_1)),
        ("From budget 8 to 12 success does not change in either setup on either run",
         Holds(success_unchanged_from_8_to_12)),
        ("is not a better result than 0.9583 at 8: 2 of those successes never wrote their record",
         Holds(small_budgets_flatter_record_tasks)),
        ("At the same budget of 12, stopping saves little", Holds(stop_saves_little_at_one_budget)),
        ("(3.17 steps and 553.81 tokens a run in the single loop over the held-out seeds)",
         Printed("-3.17 [-3.26, -3.09]", "-553.81 [-568.87, -538.74]", "+0.0350 [+0.0334, +0.0366]")),
        ("Find a run it does not cover", NotAClaim("an exercise question for the student")),
        ("Its grid has a row per task and a column per budget", NotAClaim("describes the control panel")),
        ("the checks compute the answers for that seed and say right or wrong, and what is off, never the answer",
         NotAClaim("an exercise for the student: describes what the checks of sim.exercises.* print")),
        ("What stopping saves, counted.", NotAClaim("an exercise for the student")),
        ("it must stop each task at the first step after its goal is observed, as SB1 does, never before",
         NotAClaim("an exercise for the student: what check_stop_predicate requires")),
        ("and the outcome grid of one setup.", NotAClaim("describes the control panel")),
    ],
    "04": [
        ("the blind split on the same 24 tasks, seeds and step budget", Printed("step budget: 8 steps for every setup")),
        ("first plan for a task is the split's plan for the same task and seed, from the same draws",
         ByRule(contract_first_plan_is_split_plan)),
        ("Only what happens after the first plan differs, so every run pairs with", ByRule(contract_first_plan_is_split_plan)),
        ("Before every tool call the executor checks that the scratchpad holds every field the step requires",
         Printed("precondition: step 's2' (tariff): the scratchpad lacks m3")),
        ("including a replan whose sub-plan is refused in turn", ByRule(refused_replans_count)),
        ("each position of the sub-plan is again right with the flat share selection(1)",
         Printed("CT6 share of right positions, every replan selection(1) = 0.8", "replan: s4:read_meter -> s5:consumption -> s6:tariff")),
        ("Before every call the contract checks that the call fits each of the bounds on steps, tokens and seconds",
         ByRule(contract_bounds_hold_and_one_exit_state)),
        ("Every planner call (the first plan and every replan) is a step, and so is every tool call",
         ByRule(contract_steps_are_planner_and_tool_calls)),
        ("Every plan's requires and produces come from this table", ByRule(plans_follow_tool_contracts)),
        ("the same 3 tools from the same draws", ByRule(contract_first_plan_is_split_plan)),
        ("each on a copy of the same right plan with one thing broken",
         NotAClaim("describes the next cell's method: each case breaks one thing of the same right plan")),
        ("so the executor checks each step's required fields against the scratchpad before every call",
         Printed("precondition: step 's2' (tariff): the scratchpad lacks m3")),
        ("so a plan that passes validation never fails a precondition",
         ByRule(validated_plans_never_fail_a_precondition)),
        ("One object holds the state of a run", ByRule(scratchpad_keeps_every_raw_result)),
        ("each right with the same flat share as before, from the same draw stream",
         Printed("CT6 share of right positions, every replan selection(1) = 0.8", "replan: s4:read_meter -> s5:consumption -> s6:tariff")),
        ("so no bound is ever exceeded", ByRule(contract_bounds_hold_and_one_exit_state)),
        ("yet the record was never written",
         Printed("G15, right plan, max_steps 4 PARTIAL_SUCCESS max_steps")),
        ("The same first plan, from the same draws", ByRule(contract_first_plan_is_split_plan)),
        ("On G05 the refusal costs 1 planner call (165 tokens) and saves the 3 blind calls that failed",
         Printed("the replan cost 1 step, 165 tokens and 5 simulated seconds",
                 "the contract saves 3 steps, 3 tool calls, 265 tokens and 3 tool errors on G05")),
        ("A little more success than the loops with the model's own stop",
         Holds(contract_solves_more_than_both_loops)),
        ("Against both loops the contract takes fewer steps, tool calls and tokens and makes fewer tool errors",
         Holds(contract_cheaper_over_10000_seeds)),
        ("Cheaper on every count", Holds(contract_cheaper_over_10000_seeds)),
        ("The second applies CT12 to what each run observed, for every setup",
         NotAClaim("describes the two tables the next cell prints")),
        ("What this part adds: the rules in full with their numbers, where the default bounds come from",
         NotAClaim("lists the sections of Going further")),
        ("Its 0 tool errors on runs A and B hold by construction",
         ByRule(contract_never_calls_a_wrong_tool)),
        ("The exit state never reads the right answer: a runtime does not have it", ByRule(exit_states_read_only_observations)),
        ("which does not always come when the job is done, so they may wander after it",
         Holds(loops_wander_after_done)),
        ("the next step is a stop, paid like any step", ByRule(sb1_pays_its_stop_step)),
        ("the contract solves fewer tasks than either", Holds(contract_solves_fewer_than_stopping_loops)),
        ("The turn goes with the contract's own bounds: with its replan, token and seconds bounds lifted "
         "together (the cell above) it solves more than either, +0.0194 and +0.0291 on 2000 seeds",
         Printed("single loop +0.0194 [+0.0179, +0.0209], planner + executor +0.0291 [+0.0276, +0.0307]")),
        ("with its replan, token and seconds bounds lifted, more",
         Printed("single loop +0.0194 [+0.0179, +0.0209], planner + executor +0.0291 [+0.0276, +0.0307]")),
        ("The sign depends on the tool set and on the contract's bounds",
         Printed("single loop +0.0194 [+0.0179, +0.0209], planner + executor +0.0291 [+0.0276, +0.0307]")),
        ("else TIMEOUT (despite its name, every other end", ByRule(timeout_is_every_other_end)),
        ("Two things this world gives the contract stand behind them, not its design alone",
         ByRule(contract_never_calls_a_wrong_tool)),
        ("A real runtime has neither for free",
         NotAClaim("a remark on real runtimes: a field-based validator and a planner without the task's sequence")),
        ("and still uses fewer steps, tool calls and tokens and makes fewer tool errors",
         Holds(contract_cheaper_than_stopping_loops)),
        ("a stopping loop pays a step to stop, while the contract's runtime ends with no call (CT8)",
         ByRule(sb1_pays_its_stop_step)),
        ("With the stop steps left out, the contract takes more steps than the single loop",
         Holds(single_loop_stop_steps_left_out)),
        ("its first plan and both replans were refused, so it never made a tool call", Holds(g03_never_calls_a_tool)),
        ("see what the validator knows here: more than a real one would",
         Printed("charge: 125 candidate plans, 1 pass validation, the right plan: yes",
                 "record: 625 candidate plans, 1 pass validation, the right plan: yes")),
        ("The cell writes every plan the planner could write for each kind of task",
         Printed("charge: 125 candidate plans", "consumption: 25 candidate plans", "document: 5 candidate plans",
                 "record: 625 candidate plans")),
        ("For every kind exactly 1 candidate passes, and it is the right plan",
         Printed("charge: 125 candidate plans, 1 pass validation, the right plan: yes",
                 "consumption: 25 candidate plans, 1 pass validation, the right plan: yes",
                 "document: 5 candidate plans, 1 pass validation, the right plan: yes",
                 "record: 625 candidate plans, 1 pass validation, the right plan: yes")),
        ("and its never calling a wrong tool, hold by construction of the simulator",
         ByRule(contract_never_calls_a_wrong_tool)),
        ("it cannot tell two tools apart that take and give the same fields",
         NotAClaim("follows from what a field-based validator reads, whatever the world; no simulator result")),
        ("and TIMEOUT otherwise, and none of them is a silent failure", ByRule(spoiled_loop_runs_fall_as_stated)),
        ("a false alarm where the runtime is stricter than the answer measure", Printed("G15, right plan, max_steps 4 PARTIAL_SUCCESS max_steps yes")),
        ("At a budget of 2 steps every setup is starved", Holds(budget_2_starves_every_setup)),
        ("With no replan allowed, every refused first plan ends the run",
         Holds(no_replan_ends_every_refused_plan)),
        ("The first replan allowed saves some of them and the second more",
         Holds(each_replan_allowed_saves_more)),
        ("More replans buy more chances and spend the same clock",
         Printed("max_replans 3, run A: G03 ends TIMEOUT, stop reason max_seconds")),
        ("means the source read has no such mechanism, not that none can be built on it",
         NotAClaim("defines the wording of the framework table")),
        ("Every framework read can bound a run by steps, turns, iterations or messages (not all do by default)",
         Printed("recursion_limit (super-steps", "max_iterations (default 15",
                 "max_steps (default 20", "max_turns (DEFAULT_MAX_TURNS = 10",
                 "Team max_turns (unbounded by default; MagenticOne 20) + 11 termination",
                 "a token bound on the run: 1 of 5", "a time bound on the whole run: 2 of 5",
                 "a replan limit: 0 of 5 (none)")),
        ("Over 10,000 seeds the contract takes fewer steps, tool calls and tokens than both loops",
         Holds(contract_cheaper_over_10000_seeds)),
        ("Against loops under the same stopping rule it solves fewer tasks", Holds(contract_solves_fewer_than_stopping_loops)),
        ("against the single loop its whole lead in steps, and nearly all its lead in tokens, is the stop step",
         Printed("steps, SB1's stop steps left out: single loop +15.66", "tokens, SB1's stop steps left out: single loop -21.46")),
        ("its token lead over the single loop all but vanishes",
         Printed("tokens, SB1's stop steps left out: single loop -21.46 [-38.89, -4.04], planner + executor -408.60")),
        ("Validation is an oracle in this world, so the 0 tool errors hold by construction",
         ByRule(contract_never_calls_a_wrong_tool)),
        ("In this world a plan that passes validation never fails a precondition, so the check is",
         ByRule(validated_plans_never_fail_a_precondition)),
        ("Every run ends in one exit state with a stop reason", ByRule(contract_bounds_hold_and_one_exit_state)),
        # the look-alike (LA1)
        ("puts a look-alike in the tool set: a 6th tool", Printed("the look-alike estimate_use, imitating consumption",
                                                                 "6 tools, estimate_use last")),
        ("The planner documents it with the contract of the tool it imitates",
         ByRule(lookalike_documented_as_it_imitates)),
        ("The cell prints the rule from", NotAClaim("says what the next cell prints")),
        ("A look-alike that forgot the meter rollover would not do here", Printed("subscribers whose meter rolled over: 0")),
        ("2 candidates pass: the right plan and the same plan with the look-alike in its place",
         Printed("charge: 216 candidate plans, 2 pass validation: read_meter -> consumption -> tariff; read_meter -> estimate_use -> tariff",
                 "consumption: 36 candidate plans, 2 pass validation", "record: 1296 candidate plans, 2 pass validation")),
        ("Validation checks fields, and the two tools' fields are the same",
         ByRule(lookalike_documented_as_it_imitates)),
        ("The measurement with the look-alike in every setup's tool set", NotAClaim("says what the next cell measures")),
        ("The contract against each loop with the same tool set, over the same 10,000 seeds",
         NotAClaim("says what the next cell prints")),
        ("What the look-alike costs each setup over the same 10,000 seeds", NotAClaim("says what the next cell prints")),
        ("6276 of 240000 task runs complete their plan with a wrong answer; with the 5 tools none do, by construction",
         Printed("contract, with the look-alike: 6276 of 240000 task runs complete their plan with a wrong answer",
                 "contract, 5 tools: 0 of 240000 task runs complete their plan with a wrong answer")),
        ("so the 6276 are its silent failures over the 10,000", ByRule(contract_success_is_a_complete_plan)),
        ("The exit state is a claim, and every setup's can be wrong", Holds(every_setup_reports_some_wrong_success)),
        ("With the 5 tools the contract's SUCCESS is exactly its solved tasks", Holds(five_tool_truth_as_stated)),
        ("the loops' do, mostly on runs that a budget cut with the right answer held",
         Holds(loops_false_alarms_mostly_cut_by_budget)),
        ("Against loops that follow the model's own stop, the contract solves more over 10,000 seeds: +0.0336",
         Holds(lookalike_contract_still_solves_more)),
        ("it still solves a little more", Holds(lookalike_contract_solves_more_than_stopping_loops)),
        ("With a look-alike tool added to the 5 (Going further) the same comparison turns: the contract solves a little more",
         Holds(lookalike_contract_solves_more_than_stopping_loops)),
        ("The split's plan for the same task and seed, from the same draws (each position's draw takes the right tool with share 0.8, else a random one)",
         ByRule(contract_first_plan_is_split_plan)),
        ("A plan costs 60 + 25 tokens a position, a replan 30 more; a tool call 40 + 10 a call so far",
         Printed("CT9 first plan (tokens) 60 + 25 x plan length", "CT9 replan (tokens) 60 + 25 x sub-plan length + 30",
                 "CT9 tool call (tokens) 40 + 10 x calls so far + 30")),
        ("Writes a sub-plan for the positions that remain, right with the same flat share as before",
         Printed("CT6 share of right positions, every replan selection(1) = 0.8")),
        ("here and collected a tool error",
         Printed("lesson 2's split, its first call: tariff, a tool error")),
        ("With the 5 tools the same stopping loops solve more than the contract",
         Holds(lookalike_costs_sb1_loop_more_than_contract)),
        ("Like for like, the loops also stop when done (SB1, its stop a paid step)",
         NotAClaim("describes the next cell's setups: the same budget and tool set for all three")),
        ("where every run's exit state can be read", NotAClaim("describes the next cell's method")),
        ("The last lines compare the contract's silent failures with its runs",
         NotAClaim("describes what the next cell prints")),
        ("None of them, the contract included, checks the answer against a truth it does not have",
         ByRule(exit_states_read_only_observations)),
        ("and 2 and 1 of those hold an answer the original measure counts right: false alarms",
         Holds(sweep_false_alarms_at_budget_4)),
        ("Steps, tool calls, tokens and tool errors stay lower, as with the 5 tools",
         Holds(lookalike_contract_stays_lower)),
        ("The look-alike costs every setup tasks", Holds(lookalike_costs_every_setup_tasks)),
        ("Lower max tokens in steps of 10 at budget 8", NotAClaim("an exercise for the student")),
        ("a dict from each exit state's name to its count (a state left out counts as none)",
         NotAClaim("an exercise for the student: the answer's format")),
        ("the checks compute the answers for that seed and say right or wrong, and what is off, never the answer",
         NotAClaim("an exercise for the student: describes what the checks of sim.exercises.* print")),
        ("Find a seed at which the contract solves more tasks than the split on both runs",
         NotAClaim("an exercise for the student")),
        ("Every call so far carried the values the agent held", ByRule(argument_errors_are_off_by_default)),
        ("so every figure above stands) lets the fictional model do it", ByRule(argument_errors_are_off_by_default)),
        ("Each figure is a mean per seed of 24 tasks", NotAClaim("describes the table's columns")),
        ("Two checks a runtime could run before a call is sent are counted",
         NotAClaim("defines the two checks the table counts")),
        ("Every setup loses tasks", Holds(argument_errors_cost_every_setup_tasks)),
        ("Most of the loss is silent", Holds(most_argument_losses_are_silent)),
        ("silent failures rise from 0.085, 0.075 and 0 a run with AE1 off to 2.260, 2.000 and 2.345 with it on",
         Printed("silent failures, AE1 off 0.085 0.075 0.000", "silent failures, AE1 on 2.260 2.000 2.345",
                 "change -2.295 -2.265 -2.390")),
        ("so it misses every wrong m3 and value", ByRule(request_check_stops_only_wrong_ids)),
        ("The state check stops every wrong call, but that holds by the rules",
         ByRule(state_check_stops_every_wrong_call)),
    ],
    "05": [
        ("its size is larger than the larger of the setups' own run-to-run differences",
         ByRule(band_rule_as_stated_loop_against_split)),
        ("answers with the one thing real evaluations never have: a known ground truth",
         NotAClaim("a remark on real evaluations, which have no simulator to repeat; the lesson's own truth is "
                   "the 10,000-seed value, called an estimate where the coverage study uses it")),
        ("every method below can be checked against it", NotAClaim("states the lesson's plan, the numbered list of questions")),
        ("Everything is fictional and deterministic", Holds(runs_repeat_exactly)),
        ("so the lesson's runs A and B are always its first 2 seeds",
         Printed("seeds of an N-seed study: 20260218 + i, i = 0..N-1 | run A: seed 20260218 | run B: seed 20260219")),
        ("the settings of every interval in this lesson", NotAClaim("says what the next cell prints")),
        ("runs one setup on every task at every seed of an array at once", Holds(batch_path_equals_one_seed_path)),
        ("the test suite checks that every outcome of every (task, seed) equals the one-seed path's",
         Holds(batch_path_equals_one_seed_path)),
        ("the share of seeds with a lower value, and with the same value", NotAClaim("describes the table's last columns")),
        ("The figure draws the same spreads", NotAClaim("describes the next cell's figure")),
        ("The split solved 21 tasks on run A, and only 0.07 of the seeds do worse",
         Printed("21 (0.07 below, 0.15 same)")),
        ("looks like a paired comparison, and is often called one",
         NotAClaim("describes the setup (both loops at the same seeds) and a common usage; the cells measure it")),
        ("then the difference spreads less than it would for unpaired runs",
         Holds(common_draws_pair_the_seeds)),
        ("the two setups draw their random numbers from unrelated streams", ByRule(loop_and_split_draw_from_unrelated_streams)),
        ("The cell measures it for every unit", NotAClaim("says what the next cell measures")),
        ("every correlation lies between -0.013 and -0.005", Holds(same_seeds_are_unrelated)),
        ("Running both setups at the same seeds bought the comparison nothing",
         Holds(same_seeds_are_unrelated)),
        ("Miller makes the same point for model evaluations", NotAClaim("cites a source")),
        ("both setups take the same random number for the same decision",
         NotAClaim("defines common random numbers; rule CR1 below is the course's version")),
        ("It is off by default", ByRule(common_draws_off_by_default_figures_unchanged)),
        ("What is \"the same decision\" for two setups that decide differently?", NotAClaim("a question")),
        ("the split's planner picks a tool for every position at once", ByRule(split_plans_every_position_then_follows_it)),
        ("the same stream in both setups", NotAClaim("defines rule CR1; the next cell prints its code")),
        ("where the single loop picks right (a draw below its share at that depth) the planner does too",
         ByRule(common_draw_right_loop_pick_is_right_plan_entry)),
        ("Both setups again over the same 10,000 seeds, now under CR1", NotAClaim("says what the next cell runs")),
        ("What common draws (CR1) buy, unit by unit", NotAClaim("says what the next cell prints")),
        ("Checked on the data rather than by the formula", NotAClaim("says what the next cell prints")),
        ("every interval of the difference holds zero",
         Printed("single loop, solved: own streams 22.55, common draws 22.56 interval of the difference [-0.02, 0.04]: holds 0",
                 "single loop, tokens: own streams 11636.41, common draws 11654.15 interval of the difference [-6.08, 41.56]: holds 0",
                 "split, solved: own streams 22.36, common draws 22.37 interval of the difference [-0.02, 0.04]: holds 0",
                 "split, tokens: own streams 10398.98, common draws 10404.86 interval of the difference [-10.09, 21.85]: holds 0")),
        ("so the same draw tends to give the same outcome in both setups",
         ByRule(common_draw_right_loop_pick_is_right_plan_entry)),
        ("Real agents share far less",
         NotAClaim("points to the account of real agents' noise further on; no simulator result")),
        ("the percentile bootstrap spreads the mean of N values by their plug-in standard deviation",
         Holds(percentile_bootstrap_narrower_than_t)),
        ("The percentile bootstrap falls short at small N: 0.843 at 5 seeds",
         Printed("5 2000 0.968 0.843 0.845", "10 1000 0.956 0.912 0.901", "5 2000 0.949 0.841 0.843", "10 1000 0.949 0.897 0.892",
                 "2-seed studies whose 2 success differences are equal (a zero-width interval): 0.175")),
        ("The 10,000-seed column of the band-rule table uses the same interval",
         Printed("intervals: 95% t intervals (scipy.stats) unless a cell names another")),
        ("So from here on every interval of a mean over seeds in this lesson",
         Printed("intervals: 95% t intervals (scipy.stats) unless a cell names another",
                 "10 1000 0.956", "30 333 0.943", "10 1000 0.949", "30 333 0.952",
                 "success difference, t interval, 100 seeds: coverage 0.91 of 100 studies, its interval [0.836, 0.958]",
                 "token difference, t interval, 100 seeds: coverage 0.97 of 100 studies, its interval [0.915, 0.994]")),
        ("and each study holds a hundredth or less of\nits seeds",
         NotAClaim("states the study design: the largest study checked is 100 of the 10,000 seeds")),
        ("Both intervals, [0.836, 0.958] and [0.915, 0.994], hold 95 %",
         Printed("success difference, t interval, 100 seeds: coverage 0.91 of 100 studies, its interval [0.836, 0.958]",
                 "token difference, t interval, 100 seeds: coverage 0.97 of 100 studies, its interval [0.915, 0.994]")),
        ("would another seed of the same agents on these 24 tasks give a different difference?",
         NotAClaim("a question that defines the interval over seeds")),
        ("this interval stops narrowing once each task's own effect is known",
         Holds(over_tasks_stops_narrowing)),
        ("At budget 8 the split does solve fewer tasks, by a small amount", Holds(split_loses_a_small_share)),
        ("the loss sits on some tasks more than others", Holds(loss_sits_on_some_kinds)),
        ("both intervals leave zero out at every size", Holds(token_saving_leaves_zero_out_everywhere)),
        ("a kind fixes the tool sequence", ByRule(a_kind_fixes_the_tool_sequence)),
        ("a set with more record tasks would show a smaller loss", Holds(record_tasks_gain)),
        ("sets of tasks drawn by the same generator, kinds and all",
         Printed("tasks -0.0079 -0.0152 -0.0005 23.0")),
        ("None of them speaks for tasks unlike these",
         NotAClaim("states the scope of the 3 intervals' populations, defined just above; no measured result")),
        ("The rule and the intervals agree on 2 units, steps and tokens: both measured, in the same direction",
         Printed("the band rule and the intervals agree on 2 units (steps, tokens) and differ on 3",
                 "steps 23.38 [23.25, 23.51] 21, 18 2 measured",
                 "tokens -1237.42 [-1257.78, -1217.07] -1633, -1859 210 measured")),
        ("the split makes 0.86 more tool calls per run",
         Holds(split_calls_two_runs_and_10000_seeds)),
        ("for success, 137 of the 374 measured pairs say the split solves more tasks",
         Holds(measured_pairs_point_both_ways)),
        ("has more chances to be fooled than one read once",
         Printed("false-positive rate, read once at 100 seeds: 0.040",
                 "false-positive rate, stopped at the first look that leaves zero out: 0.196")),
        ("Power protects against both",
         Printed("t interval, 10 seeds 1000 53 0.245 6.2", "t interval, 300 seeds 33 18 0.000 1.3")),
        ("where every \"effect\" is a false positive", NotAClaim("defines an A/A study: one setup against itself")),
        ("such as the always-valid intervals", NotAClaim("names a method")),
        ("errs far more often",
         Printed("the primary comparison alone: success, 100 seeds, over seeds 1 0.040",
                 "any unit, size (10, 30, 100) or way (seeds, tasks) 30 0.414")),
        ('finds an "effect" in about 2 of 5 cases where there is none',
         Printed("any of the 5 units (100 seeds, over seeds) 5 0.136",
                 "any unit, size (10, 30, 100) or way (seeds, tasks) 30 0.414")),
        ("The 5 units err together less often than 5 independent tests would (0.226)",
         Printed("any of the 5 units (100 seeds, over seeds) 5 0.136", "1 - 0.95**5 = 0.226")),
        ("because they move together (more steps mean more calls and more tokens)", Holds(units_move_together)),
        ("Bonferroni's correction brings the 5 units back to 0.04",
         Printed("any of the 5 units, each at 1 - 0.05 / 5 (Bonferroni) 5 0.040")),
        ("A user who runs the same task again and again asks something else", NotAClaim("defines pass^k")),
        ("if every run succeeded with the overall share p", NotAClaim("defines p^k")),
        ("pass^k falls more slowly than p^k", Holds(pass_k_falls_more_slowly)),
        ("with equality only when every task is as hard as every other", Holds(pass_k_at_least_p_k)),
        ("here failures gather on some tasks", Holds(failures_gather_on_record_tasks)),
        ("Over the first 100 seeds every interval holds its 10,000-seed value",
         Holds(cost_intervals_hold_the_10000_seed_value)),
        ("The split spends fewer tokens per solved task than the single loop",
         Holds(split_cheaper_per_success_at_overlapping_success)),
        ("moves both loops down and to the right: 480.8 [472.8, 488.5]", Holds(stopping_moves_both_down_and_right)),
        ("Self-critique costs tokens and buys no success", Holds(critique_costs_tokens_buys_no_success)),
        ("it changes no draw, by construction", ByRule(switches_change_no_draw)),
        ("where the seed is the only source of noise and any run can be repeated exactly", ByRule(runs_repeat_exactly)),
        ("Real agent evaluations add sources of noise the simulator does not have",
         NotAClaim("describes real evaluations, with cited sources; no simulator result")),
        ("Expect less from pairing than CR1 gives here",
         NotAClaim("advice for real evaluations, following the paragraph before; no simulator result")),
        ("at a seed the setups correlate between -0.013 and -0.005", Holds(same_seeds_are_unrelated)),
        ("the percentile bootstrap and BCa fall short below 30 (0.843 and 0.845 at 5 seeds for success)",
         Printed("5 2000 0.968 0.843 0.845", "10 1000 0.956 0.912 0.901", "2 5000 0.825 0.485 0.485")),
        ("a 100-seed study shows it 0.2 of the time", Holds(a_100_seed_study_shows_it_a_fifth_of_the_time)),
        ("it says right or wrong, never the answer", NotAClaim("describes the exercise's check")),
        ("the per-seed token difference in 1,000 disjoint studies of 5 seeds", NotAClaim("an exercise for the student")),
        ("Then do the same with the t interval", NotAClaim("an exercise for the student")),
        ("Does the split still solve fewer tasks than the single loop?", NotAClaim("an exercise question")),
        ("Better Bootstrap Confidence Intervals", NotAClaim("a source's title")),
        ("every other statistical term is said in plain words where it first appears",
         NotAClaim("states the lesson's plan: t interval, bootstrap, percentile bootstrap, BCa, Clopper-Pearson, "
                   "z, alpha, beta and power are each defined in the sentence that first uses them")),
        ("so at small N it promises more power than the studies get, and asks too few seeds",
         Printed("success -0.19 1.62 579 0.066 0.053", "tool calls +0.86 7.31 564 0.066 0.062",
                 "tokens -1237.42 1038.45 6 0.965 0.924", "tool errors +4.75 5.32 10 0.806 0.717")),
        ("Here delta is itself an estimate from 10,000 seeds",
         Printed("success: the effect's 95 % interval over the 10,000 seeds, [-0.22, -0.16], asks 424 to 837 seeds")),
        ("A real study never knows delta",
         NotAClaim("a remark on real studies, which have no 10,000-seed value to plan with")),
        ("every interval and seed count here is over seeds",
         NotAClaim("states the population the core's figures are computed over: every core interval and power "
                   "count is over seeds of the 24 tasks; the interval over tasks is Going further's")),
        ("More exercises, a second checked one among them, close Going further",
         NotAClaim("says where the further exercises are")),
    ],
    "06": [
        ("These gains hold by construction: the re-ask is a fresh, independent draw", ByRule(a_second_pick_is_a_fresh_draw)),
        ("It is a policy like the others, so the harness scores it the same way", NotAClaim("says how the next cell scores it")),
        ("A task's first request is one text at every seed",
         ByRule(first_request_is_one_text_its_reply_follows_the_seed)),
        ("The replayed runs differ from seed to seed, and at each seed they are the single loop's",
         Printed("the replayed runs on the 10 seeds, task by task: they differ from seed to seed",
                 "equal to the single loop's runs, task by task at each seed: 6 of 6 outcomes")),
        ("the interval over them is the single loop's: success 0.9583 [0.9340, 0.9827], tokens 11456.2",
         Printed("model endpoint (replayed): 10 seeds, success 0.9583 [0.9340, 0.9827], tokens 11456.2 "
                 "[10924.0, 11988.4]", "single loop: 10 seeds, success 0.9583 [0.9340, 0.9827], tokens 11456.2 "
                 "[10924.0, 11988.4]")),
        ("which the engine charges whatever policy runs", Holds(endpoint_replay_is_the_single_loop)),
        ("A real model's run-to-run spread comes from its own sampling", NotAClaim(
            "about real models, which this simulator cannot measure; the sources of noise are named")),
        ("A real model is not", NotAClaim("about real models, which this simulator cannot measure")),
        ("scores a policy the way every setup of the course was scored", ByRule(harness_scores_as_the_course)),
        ("Everything is fictional and deterministic", Holds(policy_runs_repeat_exactly)),
        ("The observation holds what a real agent would know at that point",
         ByRule(observation_holds_no_sequence)),
        ("looking the task up with them", NotAClaim("a rule for the student: the honour code of a benchmark")),
        ("A policy can run the same test on its observation, and pays a step to say",
         ByRule(goal_rule_is_lesson_3_rule_run_for_run)),
        ("does both runs and this table in one call", ByRule(score_headline_is_the_lessons)),
        ("the table gives the same-seed difference and its interval over the first N seeds of 10,000",
         NotAClaim("says what the next cell prints")),
        ("a replay can make no more calls than the recording made",
         NotAClaim("states how replay_policy answers (each recorded reply used once); the test suite re-records it")),
        ("what does a fixed workflow buy when every request is one of 4 templates", NotAClaim("an exercise question")),
        ("so that a run stays deterministic for its seed", ByRule(policy_runs_repeat_exactly)),
        ("a policy may take it, overrule it, or never call it", NotAClaim("states what a policy is allowed to do")),
        ("The built-in single loop is the policy that always takes the proposal",
         Printed("return observation.model_pick()", "the policy form and the built-in single loop agree on all 12000 task runs")),
        ("Because it draws from the same stream in the same order, its runs are the built-in runner's runs",
         Printed("the policy form and the built-in single loop agree on all 12000 task runs")),
        ("The cell checks it on every task at every seed of the held-out block",
         Printed("the policy form and the built-in single loop agree on all 12000 task runs",
                 "held-out: 500 seeds from 20460218")),
        ("A policy that never stops is stopped by the step budget, like any loop",
         Printed("never_stops on G01: 8 steps of a budget of 8, stopped by itself: no")),
        ("the stop rule solves +0.0356 of the tasks more per run than the single loop",
         Holds(stop_rule_over_500_seeds)),
        ("takes 552.42 tokens fewer per run, [-580.20, -524.63]",
         Printed("success +0.0356 [+0.0322, +0.0390]", "steps -3.21 [-3.37, -3.05]",
                 "tokens -552.42 [-580.20, -524.63]")),
        ("against a single loop that pays for its own stop too",
         ByRule(goal_rule_is_lesson_3_rule_run_for_run)),
        ("they give the same runs on every held-out task run", Holds(goal_rule_is_lesson_3_rule_run_for_run)),
        ("so none of the stop rule's saving is a stop that one side gets free",
         ByRule(goal_rule_is_lesson_3_rule_run_for_run)),
        ("24 of 24, and by construction", ByRule(router_reads_every_request_right)),
        ("its routing is a figure to measure",
         NotAClaim("advice for real routers, which meet requests the simulator's 4 templates do not hold")),
        ("the split does worse than the single loop on charge tasks and better on record tasks",
         Holds(split_worse_on_charge_better_on_record)),
        ("The split is better where the request asks for a record to be written (+0.0247, interval",
         Holds(split_worse_on_charge_better_on_record)),
        ("it solves what the single loop solves on every request it sends there",
         ByRule(router_is_its_setups_request_by_request)),
        ("Against the split the router solves +0.0061 of the tasks more per run",
         Holds(router_against_split)),
        ("Against the single loop it spends 650.32 tokens fewer",
         Holds(router_against_loop)),
        ("Its steps and tool errors rise by +2.04 and +1.98 against the single loop",
         Holds(router_steps_errors_against_loop)),
        ("on record tasks the router is the split, by construction",
         ByRule(router_is_its_setups_request_by_request)),
        ("At 10000 seeds the router solves +0.0014 of the tasks more per run than the single loop",
         Holds(router_beats_both_at_10000_seeds)),
        ("the closed form asks for 264 seeds against the split and", Holds(router_power_needs_264_and_6981_seeds)),
        ("The router beats both setups in success", Holds(router_beats_both_at_10000_seeds)),
        ("its tokens, on the 500 held-out seeds of the plane above, lie between theirs",
         Printed("tokens -650.32 [-691.59, -609.05]", "tokens +591.87 [+512.58, +671.15]")),
        ("no sample size can be read off it", NotAClaim("says how to read the next table (nested blocks, one path), "
                                                         "as lesson 5 showed; the closed form gives the size")),
        ("every entrant on the success-cost plane", NotAClaim("says what the next cell prints")),
        ("its runs equal the built-in runner's, by construction",
         Printed("the policy form and the built-in single loop agree on all 12000 task runs")),
        ("Stopping when the goal is observed solves +0.0356 of the tasks more per run than the single loop",
         Holds(stop_rule_over_500_seeds)),
        ("costs 552.42 tokens fewer per run (interval", Holds(stop_rule_saves_its_tokens_paid)),
        ("A router by request reads the right goal on 24 of 24 requests", ByRule(router_reads_every_request_right)),
        ("it beats the split", Holds(router_beats_both_at_10000_seeds)),
        ("how many seeds the router's small edge needs; and 2 more exercises",
         NotAClaim("lists what Going further adds")),
        ("say right or wrong, never the answer", NotAClaim("describes the exercises' checks")),
        ("a policy that never calls", NotAClaim("an exercise for the student")),
        ("spends 507.02 tokens fewer per run", Printed(
            "success +0.0009 [+0.0002, +0.0017]", "tokens -507.02 [-527.82, -486.22]",
            "tool errors -5.17 [-5.36, -4.98]", "stop when goal met 0.9733", "my policy 0.9742")),
        ("A further call within the same step is a further request to the model",
         ByRule(further_model_request_is_paid)),
        ("so the differences are its own", ByRule(my_policy_differs_from_the_stop_rule_by_its_refusal)),
    ],
    "07": [
        ("At their defaults all allow more requests", ByRule(defaults_allow_more_requests)),
        ("in the other 20 the course loop held no right answer either",
         Printed("the course loop reaches its budget in 41 task runs, holding the right answer in 21",
                 "and no right answer in 20")),
        ("Real frameworks, the same model", NotAClaim("the lesson's title")),
        ("as the course reads its own: the same", NotAClaim("a learning objective")),
        ("about an hour for the core; Going further about half an", NotAClaim("the lesson's time")),
        ("gets, step for step, the picks the course's single loop gets at the same seed",
         ByRule(picks_follow_the_conversation_not_the_prompt)),
        ("so a longer system prompt or longer schemas are paid for",
         ByRule(usage_counts_messages_and_tools)),
        ("Each framework runs with its own loop and its own tool objects, built from the same schemas",
         NotAClaim("describes the runners, whose code the lesson prints")),
        ("What differs is what each one sends: the endpoint kept every request body, and the cell reads them",
         NotAClaim("describes what the cell reads")),
        ("The Agents SDK, at its", Holds(frameworks_rewrite_their_requests)),
        ("so the longer prompts and schemas are paid on every request of a run", ByRule(usage_counts_messages_and_tools)),
        ("are in the same module", NotAClaim("where the code is")),
        ("each framework ends differently when it reaches it", Holds(each_bound_ends_its_own_way)),
        ("The course loop returns the answer its state holds", Holds(each_bound_ends_its_own_way)),
        ("LangChain's config still names 25 as the default", Holds(each_bound_ends_its_own_way)),
        ("Either way that request is paid, its call is lost", Holds(each_bound_ends_its_own_way)),
        ("each point's intervals are its own agent's", NotAClaim("says how to read the figure")),
        ("The recorded runs hold every task at the first 100 seeds",
         Printed("recorded: 9 agents x 24 tasks x 100 seeds from 20460218")),
        ("then the same-seed difference from the course loop", NotAClaim("says what the cell prints")),
        ("the defaults are left out: they allow more", ByRule(defaults_allow_more_requests)),
        ("a framework's task run that ends before the bound has",
         Holds(frameworks_at_8_differ_only_at_the_bound)),
        ("end with no answer and lose those 21", Holds(cut_runs_lose_their_right_answers)),
        ("solves what the course loop solves (+0.0000)", Holds(cut_runs_lose_their_right_answers)),
        ("3.2 times the course loop's 56427 tokens per run", Printed("3.2 times")),
        ("then solve 5 task runs the course loop does not", Holds(defaults_solve_more_where_the_loop_stopped)),
        ("a longer bound on the same draws changes only task runs the course loop cut",
         Holds(defaults_solve_more_where_the_loop_stopped)),
        ("charges the same runs 11729", Holds(course_loop_record_is_the_engines_runs)),
        ("and the seeds where it solves more tasks or fewer", NotAClaim("says what the cell prints")),
        ("none has returned one yet", NotAClaim("the exercise's instruction")),
        ("the graph pays one request more to read", Holds(graph_is_the_split_and_pays_its_answer_at_the_budget)),
        ("The same calls cost what each framework sends on every request",
         Holds(tokens_are_what_each_framework_sends)),
        ("a framework allows more requests than the course's budget of 8", ByRule(defaults_allow_more_requests)),
        ("returns the same plan", ByRule(replanner_gets_the_one_plan)),
        ("What the replanner changes holds by construction", Holds(replanner_changes_no_call_and_pays)),
        ("here it is the cost of this graph's extra node", Holds(replanner_changes_no_call_and_pays)),
        ("a framework's task run has the single loop's answer, requests and calls", Holds(frameworks_at_8_differ_only_at_the_bound)),
        ("What differs is each framework's own", Holds(tokens_are_what_each_framework_sends)),
        ("the same-seed differences over every recorded seed", NotAClaim("describes the panel")),
    ],
    "08": [
        ("After this lesson you can", NotAClaim("learning objectives")),
        ("with a pattern's option off every earlier lesson's output is unchanged", ByRule(patterns_off_change_nothing)),
        ("Every pick made while the job is not done is critiqued", NotAClaim("states the course's rule RF2")),
        ("A rule draws after the ordinary pick", ByRule(reflection_keeps_the_ordinary_pick_first)),
        ("Each rule runs against the same loop without reflection", NotAClaim("says what the table compares")),
        ("By the rules: each reflection's 40 tokens (after an error with feedback, as", ByRule(rf1_charges_what_self_critique_charges)),
        ("turns right picks wrong more often than wrong picks right", Holds(single_loop_rf1_as_stated)),
        ("interval lies above zero, with fewer tool errors", Holds(split_rf1_as_stated)),
        ("on the\nsame seeds it solves less than RF1", Holds(split_rf3_solves_less_than_rf1)),
        ("in the split its success interval lies below zero", Holds(split_rf2_loses)),
        ("Every right plan for the 24 tasks is a chain", ByRule(right_plans_are_chains)),
        ("one replan writes every failed branch's remaining positions", NotAClaim("states the course's rule FO4")),
        ("A step runs every ready call at once", NotAClaim("states the course's rule PX1")),
        ("times the longest right sequential run, the same for both schedules", NotAClaim("states the course's rule FB1")),
        ("each fan-out task runs both ways at the same seed",
         ByRule(fan_out_schedules_share_plans)),
        ("so they make the same calls and reach the same success whenever no bound stops",
         Holds(fan_out_differs_only_where_a_bound_stops)),
        ("parallel tokens are never higher by construction", ByRule(right_fan_out_runs_take_5_plus_4k)),
        ("how far the mean falls below that cap", Holds(speedup_grows_with_width_and_falls_with_replans)),
        ("the speed-up grows with the graph's width and shrinks with", Holds(speedup_grows_with_width_and_falls_with_replans)),
        ("switch counts the calls that would ask for approval and never says no", ByRule(approval_never_refuses)),
        ("The course's rules put a reviewer on every write", NotAClaim("states the course's rules RV1 to RV4")),
        ("Every call is reviewed by a second model call", NotAClaim("states the course's rule RV1")),
        ('"Wrong made": writes that reached the world wrong', NotAClaim("defines the table's columns")),
        ("The headline: each reviewer minus the same loop without one", NotAClaim("says what the table holds")),
        ("its next pick aims at again with the same answer held", Holds(blocking_retry_aims_at_the_write_again)),
        ("that a blocked write is never made", ByRule(reviewer_rules_as_stated)),
        ("plain success holds zero while wrong writes fall", Holds(blocking_reviewer_as_stated)),
        ("Its success\ninterval lies below zero on both counts", Holds(parallel_reviewer_as_stated)),
        ("It makes fewer wrong writes and fewer right ones for the same reason", Holds(parallel_trip_cuts_later_writes)),
        ("the table's last column gives each pattern's success minus no pattern's", NotAClaim("says what the table holds")),
        ("Every trip falls on a write, the only call it reviews", ByRule(reviews_sit_on_write_record_calls)),
        ("and there the rules differ from a world whose writes cannot be undone", Holds(success_counts_the_answer_held)),
        ("with no wrong write it solves\nmore", Holds(blocking_reviewer_as_stated)),
        ("go on to a right one", Printed("50 of 464 runs with a refused wrong write made a right one")),
        ("a single-loop step costs 60 + 22 a call in it", ByRule(loop_step_costs_60_plus_22)),
        ("so practitioners send less of it", NotAClaim("introduces compaction")),
        ("The course's rules price the summary", NotAClaim("states the course's rules CP1 and CP2")),
        ("keeping the last k calls (k from 1 to 6), against the whole trace on the same seeds", NotAClaim("says what the table holds")),
        ("and the run takes a step fewer", Printed("8 steps", "7 steps")),
        ("a run that needed none reaches the cap of its width", Holds(speedup_grows_with_width_and_falls_with_replans)),
        ("so a summary pays only when 4 or more calls are summarized", ByRule(compaction_pays_only_with_several_summarized)),
        ("Where the curve turns is read two ways", NotAClaim("defines the turn")),
        ("so compaction pays only when 2 or more calls are summarized at once",
         ByRule(compaction_pays_only_with_several_summarized)),
        ("The loop patterns on one success-cost plane", NotAClaim("describes the figure")),
        ("Each source's headline beside the course's rule, over 100 held-out seeds", Holds(summary_table_as_measured)),
        ("had its pick replaced", NotAClaim("tells the student how to read the step log")),
        ("The check runs your function on every run of both loops", NotAClaim("describes the check")),
        ("the simulated seconds the same task takes at the same seed with parallel", NotAClaim("states the exercise")),
        ("Every planner call takes its 5 s", NotAClaim("restates PX1 for the exercise")),
        ("The check compares it with every step the single loop takes", NotAClaim("describes the check")),
        ("the panel puts the pattern beside the same loop without it", NotAClaim("describes the panel")),
    ],
}  # fmt: skip
