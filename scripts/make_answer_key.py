"""Write INSTRUCTORS.md, the answer key to every lesson's exercises, from sim itself.

    .venv/bin/python scripts/make_answer_key.py          # rewrites INSTRUCTORS.md
    .venv/bin/python scripts/make_answer_key.py --check  # exits 1 if INSTRUCTORS.md is stale

Every figure in the key is computed here, so the key cannot drift from the simulator;
tests/test_answer_key.py runs the check.
"""

import re
import sys
from pathlib import Path

import sim
from sim.measurement.bands import compare_setups
from sim.measurement.batch import measure_batch, run_batch, study_seeds
from sim.measurement.counts import measure
from sim.measurement.outcomes import outcome, outcome_grid
from sim.measurement.traces import depth_picks, side_effect_calls

ROOT = Path(__file__).resolve().parents[1]
KEY = ROOT / "INSTRUCTORS.md"
A, B = sim.DEFAULT_SEED, sim.DEFAULT_SEED + 1
SETUPS = ("single-loop", "plan-execute")


def _pair(setup, seed, budget=8, **options):
    return [measure(setup, s, budget, **options) for s in (seed, seed + 1)]


def lesson_01() -> list[str]:
    lines = ["## Lesson 1 · The single loop", ""]
    from sim.exercises import single_loop as ex01

    lines.append(
        "1. `my_tokens(steps, calls)`: `sum(60 + 22 * n for n in range(calls)) + (steps - calls) * (60 + 22 * calls) "
        "+ 30 * calls`: each step re-sends the calls made before it, the stop step (if any) re-sends them all, "
        f"and each call's observation costs 30 ({ex01.check_loop_tokens(A, ex01.loop_tokens)}). "
        "`sim.exercises.single_loop.loop_tokens` is the reference."
    )
    seeds = range(A, A + 100)
    shares = {d: [] for d in (1, 4)}
    picks = {d: [] for d in (1, 4)}
    for seed in seeds:
        table = depth_picks(seed).set_index("depth")
        for d in shares:
            shares[d].append(table.loc[d, "share"])
            picks[d].append(int(table.loc[d, "picks"]))
    spread = {d: (min(v), max(v)) for d, v in shares.items()}
    lines.append(
        f"2. Over seeds {A} to {A + 99}: the depth-4 share ranges from {spread[4][0]:.4f} to {spread[4][1]:.4f}, "
        f"the depth-1 share from {spread[1][0]:.4f} to {spread[1][1]:.4f}. Depth 4 rests on "
        f"{min(picks[4])} to {max(picks[4])} picks (only the 3 record tasks reach it), depth 1 on "
        f"{min(picks[1])} to {max(picks[1])}: one pick moves the depth-4 share far more."
    )
    at3 = depth_picks(A, 3).set_index("depth")
    at8 = depth_picks(A, 8).set_index("depth")
    lost = [int(at8.loc[d, "picks"] - at3.loc[d, "picks"]) for d in at8.index]
    unsolved = [
        t.name for t in sim.TASKS if sim.is_correct(sim.run_single_loop(t, A, 8)) and not sim.is_correct(
            sim.run_single_loop(t, A, 3))
    ]  # fmt: skip
    lines.append(
        f"3. At seed {A}, budget 3 against 8: picks lost at depths 1 to 4: {', '.join(map(str, lost))}; "
        f"depth 4 keeps {int(at3.loc[4, 'picks'])} picks, so its point disappears. Tasks solved at 8 and not "
        f"at 3: {', '.join(unsolved)}."
    )
    g15 = next(seed for seed in range(A, A + 1000) if not sim.is_correct(sim.run_single_loop("G15", seed, 8)))
    run = sim.run_single_loop("G15", g15, 8)
    right = sim.correct_answer(sim.TASKS[14])
    lost_at = next(
        (
            i + 1
            for i, call in enumerate(run.trace)
            if i and run.trace[i - 1].held == right and call.held != right
        ),
        None,
    )
    lines.append(
        f"4. G15 first fails at seed {g15} (budget 8): executed {' -> '.join(c.tool for c in run.trace)}; "
        + (f"the call at step {lost_at} ({run.trace[lost_at - 1].tool}) replaced the right charge {right}."
           if lost_at else f"it never held the right charge {right} (answer {run.answer}).")
    )  # fmt: skip
    from sim.model import costs

    exact, success_changed = 0, 0
    for seed in seeds:
        plain, critique = measure("single-loop", seed), measure("single-loop", seed, self_critique=True)
        exact += critique.tokens - plain.tokens == costs.SELF_CRITIQUE_TOKENS * plain.errors
        success_changed += critique.solved != plain.solved
    lines.append(
        f"5. Over seeds {A} to {A + 99}: the token difference is {costs.SELF_CRITIQUE_TOKENS} x the tool errors "
        f"on {exact} of {len(seeds)} runs, and success changes on {success_changed}. Self-critique changes no "
        "draw and no trace; it only adds its tokens for each tool error, so success cannot change."
    )
    clean, unwanted_more = 0, 0
    for seed in seeds:
        calls = side_effect_calls(seed)
        unwanted = int((~calls["asked_for_record"]).sum())
        wanted = int(calls["asked_for_record"].sum())
        clean += unwanted == 0
        unwanted_more += unwanted > wanted
    lines.append(
        f"6. Over seeds {A} to {A + 99}: {clean} runs make no unwanted write call; in {unwanted_more} of "
        f"{len(seeds)} the unwanted calls outnumber the calls from record tasks."
    )
    for seed in (A, 12345):
        tasks = ex01.clean_tasks(seed)
        lengths = [len(sim.check_task(name).sequence) for name in tasks]
        lines.append(
            ("7. " if seed == A else "   ")
            + f"Seed {seed}: tasks {', '.join(tasks)} (lengths {', '.join(map(str, lengths))}); the chance is the "
            "product over both tasks of expected_right_share(d) for d = 1 .. length, "
            f"selection(d) + (1 - selection(d)) / {len(sim.TOOL_NAMES)}: {ex01.clean_chance(seed):.4f}. For a "
            "student's seed: `sim.exercises.single_loop.clean_chance(seed)`. The planner's chance in lesson 2 is "
            "the same for a task of length 1 and higher for a longer one: its share does not fall with the position."
        )
    return lines + [""]


def lesson_02() -> list[str]:
    lines = ["## Lesson 2 · Planner and executor", ""]
    from sim.exercises import planner_executor as ex02

    lines.append(
        "1. `my_band_verdict(first, second)`: `band = max(abs(first[1] - first[0]), abs(second[1] - second[0]))`; "
        '`"measured" if all(abs(b - a) > band for a, b in zip(first, second)) else "unmeasured"` '
        f"({ex02.check_band_verdict(A, _band_rule)}). The strict > matters: a difference equal to the band "
        "is unmeasured. For a student's seed: `sim.exercises.planner_executor.band_verdicts(seed)` lists the "
        "verdicts the check expects, `band_cases(seed)` the cases."
    )
    seed = A
    while True:
        single, split = _pair("single-loop", seed), _pair("plan-execute", seed)
        if all(b.solved > a.solved for a, b in zip(single, split, strict=True)):
            break
        seed += 1
    verdict = compare_setups(single, split)[0]
    lines += [
        f"2. Counting up from {A}, the first seed where the split solves more tasks on both runs is "
        f"{seed} (runs {seed} and {seed + 1}): {split[0].solved} and {split[1].solved} against "
        f"{single[0].solved} and {single[1].solved}. Differences {verdict.differences}, band {verdict.band}: "
        f"**{verdict.verdict}**. To be measured, the difference must exceed the larger run-to-run "
        "difference on both runs; with 24 tasks and two runs that takes a gap of several tasks on each run.",
    ]
    at4 = {v.unit: v.verdict for v in compare_setups(_pair("single-loop", A, 4), _pair("plan-execute", A, 4))}
    at8 = {v.unit: v.verdict for v in compare_setups(_pair("single-loop", A), _pair("plan-execute", A))}
    changed = [f"{unit} ({at8[unit]} at 8, {at4[unit]} at 4)" for unit in at8 if at8[unit] != at4[unit]]
    lines.append(
        "3. At budget 4, verdicts that change from budget 8: "
        + (", ".join(changed) if changed else "none")
        + ". Planning takes 1 of only 4 steps, so the split has 3 steps left for sequences of up to 4 tools: "
        "the record tasks cannot finish at all."
    )
    records = [t for t in sim.TASKS if t.kind == "record"]
    found = None
    for seed in range(A, A + 1000):
        for task in records:
            run = sim.run_plan_execute(task, seed, 8)
            if run.plan[0] != task.sequence[0]:
                found = (task, seed, run)
                break
        if found:
            break
    task, seed, run = found
    lines.append(
        f"4. For example {task.name} at seed {seed}: plan {' -> '.join(run.plan)}; the blind executor pays "
        f"{sum(c.error for c in run.trace[: len(run.plan)])} tool errors on the plan's positions "
        f"({run.errors} in the whole run). Any record task with a wrong first position will do."
    )

    def per_solved(run) -> float:
        return run.tokens / run.solved if run.solved else float("inf")

    fewer = [
        budget
        for budget in range(1, 21)
        if all(per_solved(b) < per_solved(a)
               for a, b in zip(_pair("single-loop", A, budget), _pair("plan-execute", A, budget), strict=True))
    ]  # fmt: skip
    lines.append(
        f"5. At the lesson's seeds the split uses fewer tokens per solved task than the single loop on both "
        f"runs at {len(fewer)} of the budgets 1 to 20; the smallest is {fewer[0]}"
        + ("." if fewer == list(range(fewer[0], 21)) else f" (all: {', '.join(map(str, fewer))}).")
        + " (Tokens per solved task = the run's tokens / the tasks it solved; a run that solves none has "
        "no such figure.)"
    )
    share = sim.expected_right_share(1)
    for seed in (A, 12345):
        tasks = ex02.plan_tasks(seed)
        positions = sum(len(sim.check_task(name).sequence) for name in tasks)
        lines.append(
            ("6. " if seed == A else "   ")
            + f"Seed {seed}: tasks {', '.join(tasks)}, {positions} plan positions in all; the chance is "
            f"{share:.2f} ** {positions} = {ex02.plan_chance(seed):.4f} (each position right with "
            f"selection(1) + (1 - selection(1)) / {len(sim.TOOL_NAMES)}, independent). For a student's seed: "
            "`sim.exercises.planner_executor.plan_chance(seed)`."
        )
    return lines + [""]


def _band_rule(first, second):
    """Exercise 1 of lesson 2: the band rule on one unit's counts, two runs."""
    band = max(abs(first[1] - first[0]), abs(second[1] - second[0]))
    return "measured" if all(abs(b - a) > band for a, b in zip(first, second, strict=True)) else "unmeasured"


def lesson_03() -> list[str]:
    lines = ["## Lesson 3 · The step budget", ""]
    from sim.engine.policy import goal_met
    from sim.exercises import step_budget as ex03

    counts = ", ".join(f"{ex03.saved_by_stopping(seed)} at seed {seed}" for seed in (A, B, 12345))
    lines.append(
        "1. `sum(not sim.is_correct(sim.run_task(s, t, seed, 12)) and sim.is_correct(sim.run_task(s, t, seed, 12, "
        'stop_when_done=True)) for s in ("single-loop", "plan-execute") for t in sim.TASKS)`; it depends on the '
        f"seed: {counts}. For a student's seed: `sim.exercises.step_budget.saved_by_stopping(seed)`."
    )
    after_b = B + 1  # the seed after run B's
    plain = outcome_grid("plan-execute", after_b, [12])[12]
    ruled = outcome_grid("plan-execute", after_b, [12], stop_when_done=True)[12]
    changed = [name for name in plain.index if plain[name] != ruled[name]]
    lines.append(
        f"2. At seed {after_b}, budget 12, the split's tasks that change colour with stop when done: "
        f"{', '.join(changed)} (spoiled -> solved). They finished their job, did not stop (the 12 % chance) "
        "and called a tool that replaced the right answer; the rule stops at the step after the goal is observed, "
        "before that call."
    )
    found = None
    for seed in range(A, A + 2000):
        for task in sim.TASKS:
            a = outcome(sim.run_single_loop(task, seed, 12))
            b = outcome(sim.run_single_loop(task, seed, 12, stop_when_done=True))
            if a == "spoiled" and b == "solved":
                found = (seed, task.name)
                break
        if found:
            break
    lines.append(
        f"3. Counting up from {A}: seed {found[0]}, task {found[1]} (single loop, budget 12) is spoiled after "
        "its job was done and solved with stop when done."
    )
    from sim.engine.runs import expected_calls

    uncovered = None  # the first split task run, counting up from A, that a margin of 5 does not cover
    for seed in range(A, A + 200):
        for task in sim.TASKS:
            run = sim.run_task("plan-execute", task, seed, 20, stop_when_done=True)
            allowed = 1 + expected_calls("plan-execute", task) + 5  # planning + expected calls + margin 5
            # the budget that cuts the stop step holds the same answer, so a row turns solved at steps - 1
            if not (run.stopped and outcome(run) == "solved" and run.steps - 1 > allowed):
                continue
            runs = (sim.run_task("plan-execute", task, seed, b, stop_when_done=True) for b in range(1, 21))
            first = next(b for b, at_b in enumerate(runs, 1) if outcome(at_b) == "solved")
            if first > allowed:
                uncovered = (seed, task, first)
                break
        if uncovered:
            break
    seed3, task3, steps3 = uncovered
    lines.append(
        f"4. It depends on the seed (the panel's new seed is random). Counting up from {A}, the first is seed "
        f"{seed3}: {task3.name}, a {task3.kind} task, expects {expected_calls('plan-execute', task3)} calls, so "
        f"a margin of 5 allows {1 + expected_calls('plan-execute', task3) + 5} steps; its row turns solved only "
        f"at budget {steps3}."
    )
    grid = outcome_grid("plan-execute", A, range(1, 13))
    records = [t.name for t in sim.TASKS if t.kind == "record"]
    complete = [b for b in grid.columns if (grid.loc[records, b] == "solved").all()]
    at_12 = ", ".join(f"{name} {grid.loc[name, 12]}" for name in records)
    lines.append(
        f"5. {'Yes' if complete else 'No'}: on run A the split solves all 3 record tasks ({', '.join(records)}) "
        + f"with their record written {f'first at budget {complete[0]}' if complete else 'at no budget from 1 to 12'}. "
        + f"At budget 12 their outcomes are: {at_12}."
    )
    lines.append(
        '6. `my_done`: read the goal from the request\'s words ("kayda yaz" a record, "bedeli" the charge `amount`, '
        '"tuketimi" the consumption `m3`, else a document `code`); for a record, `state.get("written") is True` and '
        'the value written equals the amount observed (`state["value"] == state["amount"]`); otherwise the goal '
        "field is in `observation.state` and `observation.held` equals it. This is the goal test GT1 on the router "
        f"RT1's goal, `sim.engine.policy.goal_met` ({ex03.check_stop_predicate(A, goal_met)}). A predicate that stops "
        "once any answer is held stops too early; one that accepts any written record can stop on a wrong write."
    )
    return lines + [""]


def lesson_04() -> list[str]:
    from collections import Counter

    from sim.engine.contract import run_contract
    from sim.engine.plan_schema import data_flow_problems
    from sim.exercises import contract as ex04

    lines = ["## Lesson 4 · The planner-executor contract", ""]
    cases = ex04.plan_cases(A)
    valid = sum(not data_flow_problems(plan, held) for _, plan, held in cases)
    lines.append(
        "1. `my_plan_ok(plan, held)`: walk the steps in order; a step's upstream fields are the `produces` of the "
        "steps it depends on and, transitively, their upstream fields; refuse when a required field is neither "
        "upstream nor held; at the end, refuse when no step produces the goal and it is not held. This is "
        f"`sim.engine.plan_schema.data_flow_problems(plan, held) == []`. At seed {A}, {valid} of the {len(cases)} "
        "plans are valid. A validator that counts the fields of every earlier step, ignoring depends_on, lets "
        "through plans whose dependency was left out; the cases with an emptied depends_on are there to catch it."
    )
    seeds = range(A, A + 20)
    lost, cheaper = Counter(), 0
    for seed in seeds:
        runs = [run_contract(task, seed, 8, max_replans=0) for task in sim.TASKS]
        lost.update(run.exit_state for run in runs if not run.correct)
        cheaper += sum(r.tokens for r in runs) < measure("plan-execute", seed).tokens
    lines.append(
        f"2. With max_replans 0, over seeds {A} to {A + 19}, the tasks the contract loses end in: "
        + ", ".join(f"{state} {count}" for state, count in lost.most_common())
        + f". The contract still spends fewer tokens than the split on {cheaper} of those {len(seeds)} seeds."
    )
    first = None
    for max_tokens in range(1000, 0, -10):
        runs = [run_contract(task, A, 8, max_tokens=max_tokens) for task in sim.TASKS]
        timeouts = [run for run in runs if run.exit_state == "TIMEOUT"]
        if timeouts:
            first = (
                max_tokens,
                sorted({sim.check_task(r.task).kind for r in timeouts}),
                [r.task for r in timeouts],
            )
            break
    lines.append(
        f"3. At seed {A}, budget 8, lowering max_tokens in steps of 10 from 1000: the first TIMEOUT comes at "
        f"max_tokens {first[0]}, for {', '.join(first[2])} (kind: {', '.join(first[1])})."
    )
    partial = [run_contract(task, A, 3) for task in sim.TASKS]
    partial = [run for run in partial if run.exit_state == "PARTIAL_SUCCESS"]
    lines.append(
        f"4. At seed {A}, budget 3: PARTIAL_SUCCESS for "
        + ", ".join(
            f"{r.task} (holds {r.answer}, correct by the original measure: {r.correct})" for r in partial
        )
        + "."
    )
    g03 = next(seed for seed in range(A, A + 1000) if run_contract("G03", seed, 8).correct)
    lines.append(
        f"5. G03: counting up from {A}, the contract first solves it at seed {g03}, with "
        f"{run_contract('G03', g03, 8).replans} replans."
    )
    seed = A
    while True:
        contract, split = _pair("contract", seed), _pair("plan-execute", seed)
        if all(c.solved > s.solved for c, s in zip(contract, split, strict=True)):
            break
        seed += 1
    verdict = compare_setups(split, contract)[0]
    lines.append(
        f"6. Counting up from {A}: seed {seed}, the contract solves {contract[0].solved} and {contract[1].solved} "
        f"against the split's {split[0].solved} and {split[1].solved}; differences {verdict.differences}, band "
        f"{verdict.band}: **{verdict.verdict}**."
    )
    for seed in (A, 12345):
        counts = ", ".join(f"{state} {n}" for state, n in ex04.exit_counts(seed).items())
        lines.append(
            ("7. " if seed == A else "   ")
            + f"Seed {seed}: {counts}. The code: `Counter(contract.run_contract(t, seed, 8).exit_state for t in "
            "sim.TASKS)`; for a student's seed: `sim.exercises.contract.exit_counts(seed)`."
        )
    return lines + [""]


def lesson_05() -> list[str]:
    from sim.exercises import how_many_seeds as exercises
    from sim.measurement import intervals, power
    from sim.measurement.study import paired_interval

    lines = ["## Lesson 5 · How many seeds?", ""]
    many = study_seeds(10000)
    shares, at_100 = {}, None
    for label, common in (("own streams", False), ("common draws", True)):
        single = run_batch("single-loop", many, common_draws=common).per_seed()
        split = run_batch("plan-execute", many, common_draws=common).per_seed()
        d = (split.solved - single.solved).astype(float)
        row = power.power_table(d, (500,)).iloc[0]
        closed = power.closed_form_power(d.std(ddof=1), d.mean(), 500)
        shares[label] = (int(row.excluding), int(row.studies), closed)
        at_100 = at_100 if common else power.power_table(d, (100,)).iloc[0].power
    seeds = study_seeds(exercises.EXERCISE_SEEDS, A)
    tokens = (
        measure_batch("plan-execute", seeds).tokens - measure_batch("single-loop", seeds).tokens
    ).astype(float)
    low, high = intervals.t_interval(intervals.disjoint_studies(tokens, exercises.COVERAGE_STUDY_SEEDS))
    t_coverage = float(((low <= tokens.mean()) & (tokens.mean() <= high)).mean())
    lines.append(
        f"1. For first seed {A}: {exercises.power_answer(A):.2f} of the 50 studies of 100 seeds leave zero out (the "
        f"lesson's power table, on the first 10,000 seeds, says {at_100:.2f} at 100 seeds). For a student's own "
        "seed: `sim.exercises.how_many_seeds.power_answer(seed)`; `check_power(seed, share)` is what the notebook runs."
    )
    lines.append(
        f"2. For first seed {A}: the percentile bootstrap covers in {exercises.coverage_answer(A):.3f} of the 1,000 "
        f"5-seed studies, the t interval in {t_coverage:.3f}. For a student's seed: "
        "`sim.exercises.how_many_seeds.coverage_answer(seed)` (the check accepts answers within 0.01)."
    )
    lines.append(
        "3. At 500 seeds, over the disjoint 500-seed studies of the lesson's 10,000 seeds, the success interval "
        "leaves zero out in "
        + "; ".join(
            f"{n} of {k} studies with {label} (closed form {c:.2f})" for label, (n, k, c) in shares.items()
        )
        + ". A few presses of **new seed** give a rough share of the same."
    )
    seeds = study_seeds(10000)
    plain, critique = (
        run_batch("single-loop", seeds),
        run_batch("single-loop", seeds, self_critique=True),
    )
    differ = []
    for unit in ("success", "steps", "tool calls", "tokens", "tool errors"):
        interval = paired_interval(plain, critique, unit, 10000)
        if (interval.low, interval.high) != (0.0, 0.0):
            differ.append(f"{unit} [{interval.low:.2f}, {interval.high:.2f}]")
    lines.append(
        f"4. Over 10,000 seeds only these units differ: {', '.join(differ)}. Self-critique changes no draw, so "
        "every run is the same but for the 40 tokens per tool error; a difference that is 0 on every seed has "
        "a spread of 0 and an interval of width 0."
    )
    single4, split4 = run_batch("single-loop", seeds, 4), run_batch("plan-execute", seeds, 4)
    ways = {way: paired_interval(single4, split4, "success", 10000, way) for way in ("seeds", "tasks")}
    lines.append(
        f"5. At budget 4 over 10,000 seeds the split's success difference is {ways['seeds'].difference:+.4f} "
        f"(share of tasks per run); over seeds [{ways['seeds'].low:+.4f}, {ways['seeds'].high:+.4f}], "
        f"over tasks [{ways['tasks'].low:+.4f}, {ways['tasks'].high:+.4f}]: "
        + ("both leave zero out." if all(w.excludes_zero for w in ways.values()) else
           "they do not agree on leaving zero out." if len({w.excludes_zero for w in ways.values()}) > 1 else
           "neither leaves zero out.")
    )  # fmt: skip
    return lines + [""]


SEQUENCES = {"amount": ("read_meter", "consumption", "tariff"), "m3": ("read_meter", "consumption"),
             "code": ("search_docs",), "written": ("read_meter", "consumption", "tariff", "write_record")}  # fmt: skip


def _scripted(observation):
    """Exercise 2 of lesson 6: the tools of the goal the request's words ask for (RT1), in order; stop
    when the goal is observed."""
    from sim.engine.goals import goal_of
    from sim.engine.policy import STOP, goal_met

    return STOP if goal_met(observation) else SEQUENCES[goal_of(observation.request)][len(observation.trace)]


def lesson_06() -> list[str]:
    from sim.engine.policy import stop_when_goal_met
    from sim.exercises.your_agent import check_exercise_2, spoiled_but_kept
    from sim.measurement import harness

    lines = ["## Lesson 6 · Your own agent", ""]
    counts = {seed: spoiled_but_kept(seed) for seed in (A, B, 12345)}
    lines.append(
        "1. The count is `sum(not sim.is_correct(sim.run_single_loop(t, seed, 8)) and "
        "sim.is_correct(sim.engine.policy.run_policy(sim.engine.policy.stop_when_goal_met, t, seed, 8)) for t in sim.TASKS)`; "
        "it depends on the seed: " + ", ".join(f"{n} at seed {seed}" for seed, n in counts.items()) + "."
    )
    held = harness.held_out_seeds()
    plane = harness.cost_success({"scripted": harness.entrant_run(_scripted, held),
                                  "single loop": harness.entrant_run("single-loop", held)}).set_index("entrant")  # fmt: skip
    s, loop = plane.loc["scripted"], plane.loc["single loop"]
    templates = len({re.sub(r"A\d+", "", task.request) for task in sim.TASKS})
    lines.append(
        '2. `scripted` returns "stop" when `sim.engine.policy.goal_met(observation)`, else '
        "`SEQUENCES[goal_of(observation.request)][len(observation.trace)]`, where `sim.engine.goals.goal_of` "
        "reads from the request's words what it asks for (amount, m3, code or written) and each goal's sequence "
        f"is the kind's from lesson 1 ({check_exercise_2(_scripted, A)}). On the {len(held)} held-out seeds it "
        f"solves {s.success:.4f} of the tasks per run at {s.tokens:.0f} tokens (single loop: {loop.success:.4f} at "
        f"{loop.tokens:.0f}): every task, in the fewest steps. That holds by construction, not by skill: the 24 "
        f"requests come from {templates} templates, one per kind, and each template maps one-to-one onto a "
        "sequence. A request worded otherwise would find no route (`goal_of` returns None) and stop it with a "
        "KeyError, which the harness reports as a PolicyError."
    )
    mine = harness.cost_success({"stop rule": harness.entrant_run(stop_when_goal_met, held)}).iloc[0]
    lines.append(
        f"3. Open. For comparison, on the held-out block the stop rule solves {mine.success:.4f} of the tasks per "
        f"run at {mine.tokens_per_success:.2f} tokens per solved task; the lesson prints the starting policy's "
        "figures. A fair answer tunes on `harness.tuning_seeds` and reports on the held-out block once."
    )
    router = harness.route({"amount": "single-loop", "m3": "single-loop", "code": "single-loop",
                            "written": "plan-execute"})  # fmt: skip
    pairs = [(A + 2 * k, A + 2 * k + 1) for k in range(20)]
    measured = sum(
        harness.band_scores(router, "single-loop", 8, pair)[0].verdict == "measured" for pair in pairs
    )
    lines.append(
        f"4. Over 20 disjoint seed pairs from {A} ({A}, {A + 1}; {A + 2}, {A + 3}; ...), the band rule calls the "
        f"router's success difference against the single loop measured in {measured}: an effect of about 0.0014 "
        "of the tasks per run is far below what 2 runs can show."
    )
    return lines + [""]


def _keep_the_answer_held(data):
    """Exercise 2 of lesson 7: the Agents SDK's max_turns handler that answers with the last m3, amount
    or code the run's tool results hold."""
    import json

    from sim.engine.loops import RESULT_FIELDS  # the answer fields: m3, amount, code

    held = None
    for item in data.run_data.new_items:
        if item.type == "tool_call_output_item":
            result = json.loads(item.output)
            held = next((result[key] for key in RESULT_FIELDS.values() if key in result), held)
    return f"The answer is {json.dumps(held)}."


def lesson_07() -> list[str]:
    from sim.exercises.frameworks import HANDLER_TURNS, TURNS, answers_lost, check_exercise_2

    lines = ["## Lesson 7 · Real frameworks, the same model", ""]
    counts = {seed: answers_lost(seed) for seed in (A, 12345)}
    lines.append(
        f"1. Inside `with model_endpoint.serve() as url:` the count is `sum(frameworks.run_course_loop(t, seed, url, "
        f"{TURNS}).answer == sim.correct_answer(t) and frameworks.run_openai_agents(t, seed, url, {TURNS}).ended == "
        '"MaxTurnsExceeded" for t in sim.TASKS)`; it depends on the seed: '
        + ", ".join(f"{n} at seed {seed}" for seed, n in counts.items())
        + ". The two make the same calls (same draws); the SDK loses the answer of every run that reaches its bound."
    )
    lines.append(
        "2. The handler reads the tool results in order and keeps the last `m3`, `amount` or `code` (None while no "
        "result holds one, so the text reads `The answer is null.`): "
        '`for item in data.run_data.new_items: if item.type == "tool_call_output_item": result = '
        'json.loads(item.output); held = next((result[k] for k in ("m3", "amount", "code") if k in result), held)`, '
        f'then `return f"The answer is {{json.dumps(held)}}."` (the check at {HANDLER_TURNS} turns, by seed: '
        + "; ".join(f"seed {seed}, {check_exercise_2(_keep_the_answer_held, seed)}" for seed in (A, 12345))
        + "). At 8 turns the handler gives back what the course loop reports at its budget, so "
        "against the SDK without it (the agent named `Agents SDK, 8 turns`) it can only win the runs that reach the bound with the "
        "right answer held, and against the course loop it makes the same calls and answers run for run (the tokens "
        "stay the SDK's)."
    )
    return lines + [""]


def _count_flips(run):
    """Lesson 8's exercise 1 as the key words it: the flips of one run, read from its step log."""
    revised = [step for step in run.log if step.revised_from is not None]
    wrong_to_right = sum(bool(step.right) and step.revised_from != step.target for step in revised)
    right_to_wrong = sum(step.revised_from == step.target and not step.right for step in revised)
    return wrong_to_right, right_to_wrong


def lesson_08() -> list[str]:
    from sim.engine.contract import PLANNER_SECONDS
    from sim.exercises import patterns
    from sim.model import compaction, costs

    lines = ["## Lesson 8 · Patterns, measured", ""]
    lines.append(
        "1. Count over `run.log` the steps with `revised_from` set: wrong to right when `step.right` is true (the "
        "pick replaced was not the target), right to wrong when `revised_from == step.target` and the pick made "
        "is not: "
        f"({patterns.check_reflection_flips(A, _count_flips)}; the reference is "
        "`sim.measurement.reflection_flips.reflection_flips`)."
    )
    lines.append(
        "2. `sum(r.wrong and r.refused and not r.made and not r.empty for r in run.reviews)` "
        f"({patterns.check_review_prevented(A, patterns.review_prevented)}); a refused call with no value "
        "writes nothing, so it prevents nothing."
    )
    lines.append(
        f"3. Walk the events: a `plan` or `replan` event adds its {PLANNER_SECONDS} s and starts a new stretch; within a stretch the "
        "k-th call of each branch (`detail` starts `bN tool`) runs in wave k, and each wave costs its longest "
        "call's `tool_seconds`; the sum is the parallel run's seconds "
        f"(`patterns.parallel_seconds_from_log`; {patterns.check_parallel_seconds(A, patterns.parallel_seconds_from_log)})."
    )
    lines.append(
        f"4. `{costs.LOOP_STEP_TOKENS} + {costs.LOOP_TOKENS_PER_CALL} * min(trace_length, keep_last)`, plus "
        f"`{compaction.SUMMARY_TOKENS} + {compaction.SUMMARY_TOKENS_PER_CALL} * (trace_length - keep_last)` when "
        "`trace_length > keep_last` (`patterns.compaction_step_tokens`; "
        f"{patterns.check_compaction_step_tokens(A, patterns.compaction_step_tokens)})."
    )
    return lines + [""]


def answer_key() -> str:
    lines = [
        "# Answer key to the exercises (for instructors)",
        "",
        "Made by `scripts/make_answer_key.py` from `sim` itself; do not edit by hand. Figures are at the",
        "lessons' default seeds unless an answer names another seed. Students can reach every answer",
        "with the lesson's panel; the CLI (`.venv/bin/python -m sim table|trace`) reproduces them for slides.",
        "",
    ]
    for part in (lesson_01, lesson_02, lesson_03, lesson_04, lesson_05, lesson_06, lesson_07, lesson_08):
        lines += part()
    return "\n".join(lines)


if __name__ == "__main__":
    text = answer_key()
    if "--check" in sys.argv[1:]:
        current = KEY.read_text(encoding="utf-8") if KEY.exists() else ""
        sys.exit(0 if current == text else "INSTRUCTORS.md is stale: run scripts/make_answer_key.py")
    KEY.write_text(text, encoding="utf-8")
    print(f"wrote {KEY.name}")
