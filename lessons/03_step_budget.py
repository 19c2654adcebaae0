# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: tags,-all
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 3 · The step budget
#
# Lesson 2 ran both setups with a budget of 8 [steps](../GLOSSARY.md#step) and never said why. The budget is a
# decision, and this lesson measures what it decides. Too small, and a loop cannot finish:
# the [split](../GLOSSARY.md#split)'s G05 needed 3 more steps after its [plan](../GLOSSARY.md#plan) ran out. Too large, and a loop that has
# finished but does not stop keeps calling [tools](../GLOSSARY.md#tool), and can spoil the right answer it held.
#
# **After this lesson you can:**
#
# - say what a [step budget](../GLOSSARY.md#step-budget) decides, and read a budget sweep;
# - tell a run that ran out of budget from one that finished and then spoiled its answer;
# - sort runs into outcomes that count effects on the world, not only final answers;
# - derive a [stopping criterion](../GLOSSARY.md#stopping-criterion) from a sweep, tune its
#   margin on some [seeds](../GLOSSARY.md#seed) and test it on [held-out seeds](../GLOSSARY.md#held-out).
#
# **It assumes:** lessons 1 and 2 (both setups, the [counted units](../GLOSSARY.md#counted-units), the [band rule](../GLOSSARY.md#band-rule)).
# **Time:** about an hour. Terms in links are explained in the course
# [glossary](../GLOSSARY.md).
#
# Where the budget and the stopping rule sit in the loop of lesson 1:
#
# ```mermaid
# flowchart LR
#     start(["step k"]) --> spent{"k > budget?"}
#     spent -- "yes" --> out["end: the answer held now"]
#     spent -- "no" --> done{"job done?"}
#     done -- "no" --> pick["pick and call a tool"]
#     done -- "yes" --> stop{"stop? the original agent:<br/>only with a fixed chance"}
#     stop -- "stops" --> out
#     stop -- "goes on" --> stray["a random tool call:<br/>it may spoil the answer"]
#     pick --> next(["step k + 1"])
#     stray --> next
# ```
#
# We sweep the budget over 2, 4, 6, 8 and 12 steps for both setups on both runs, look at the
# cases where a smaller budget scores higher than a larger one, and end with a stopping
# criterion, tuned on some seeds and tested on others. As before, everything is fictional
# and every figure in the text is printed by a cell.

# %%
import ipywidgets
import matplotlib
import pandas as pd
from IPython.display import Image, display

import sim
from sim.engine import config
from sim.measurement.bands import compare_setups, verdict_table
from sim.measurement.batch import study_seeds
from sim.measurement.counts import measure
from sim.measurement.outcomes import OUTCOMES, outcome, outcome_grid
from sim.model import picks
from sim.presentation import figures, figures_step_budget
from sim.presentation.screen import fitted, say
from sim.presentation.showcode import code_of
from sim.presentation.tables import folded_table, format_table, format_trace, seed_table

pd.reset_option("display")  # tables print the same whatever your own pandas settings
print(f"pandas {pd.__version__} | matplotlib {matplotlib.__version__} | ipywidgets {ipywidgets.__version__}")
SEED_A, SEED_B = sim.DEFAULT_SEED, sim.DEFAULT_SEED + 1
SEEDS = (SEED_A, SEED_B)
SETUPS = ("single-loop", "plan-execute")
BUDGETS = (2, 4, 6, 8, 12)
print(f"run A: seed {SEED_A} | run B: seed {SEED_B} | budgets swept: {', '.join(map(str, BUDGETS))} steps")

# %% [markdown]
# ## What a budget does
#
# The budget counts steps. A [single-loop](../GLOSSARY.md#single-loop) step picks a tool (or stops) and calls it; the
# split spends its first step on planning. When the job is done, the original [agent](../GLOSSARY.md#agent) stops at
# its next step only with a fixed chance; otherwise it calls a random tool and may replace
# the answer it holds. The rules that decide how a budget is spent, printed from `sim`:

# %%
rules = pd.DataFrame(
    [
        ("chance that a finished agent stops, each step", f"{picks.STOP_SHARE}"),
        ("steps the split spends on planning, per task", "1"),
        ("share of right picks, position d", "max(0.34, 0.8 - 0.09 x (d - 1))"),
        ("success", "final answer = correct answer (the original measure)"),
    ],
    columns=["rule", "value"],
)
print(rules.to_string(index=False))

# %% [markdown]
# ## The sweep
#
# Both setups, both runs, every budget: the counted units. The rows at budget 8 are
# lesson 2's table. The whole table is folded in the cell below: click its
# first line to open it. The cell after it prints success alone, one row per setup and run.

# %% tags=["full-table"]
sweep = [measure(setup, seed, budget) for setup in SETUPS for seed in SEEDS for budget in BUDGETS]
folded_table(format_table(seed_table(sweep)))

# %%
success_by_budget = pd.DataFrame(
    [
        {
            "setup": sim.SETUP_LABELS[m.setup],
            "run": sim.run_label(m.seed),
            "budget": m.budget,
            "success": m.success,
        }
        for m in sweep
    ]
).pivot(index=["setup", "run"], columns="budget", values="success")
print("success by budget (steps)")
print(success_by_budget.round(4).to_string())

# %% [markdown]
# The same sweep as lines. Each setup has one colour; [run A](../GLOSSARY.md#run) is solid, run B dashed, and the
# shaded area between them is the setup's run-to-run band at each budget.

# %%
path = figures.save_figure(figures_step_budget.draw_budget_sweep(sweep), "03_step_budget-sweep")
display(Image(filename=path))

# %% [markdown]
# ## Too small: the loop cannot finish
#
# A task needs at least as many steps as its sequence has tools, and the split needs one
# more for planning. The 24 tasks have sequences of length 1 to 4:

# %%
lengths = pd.Series([len(task.sequence) for task in sim.TASKS]).value_counts().sort_index()
print("tasks by sequence length:", ", ".join(f"length {n}: {count}" for n, count in lengths.items()))
rows = []
for budget in BUDGETS:
    row = {"budget": budget}
    for setup in SETUPS:
        planning = config.PLANNING_STEPS[setup]
        row[f"{sim.SETUP_LABELS[setup]}: could finish"] = sum(
            len(task.sequence) + planning <= budget for task in sim.TASKS
        )
    rows.append(row)
print(pd.DataFrame(rows).to_string(index=False))

# %% [markdown]
# At budget 2 the split has one step left after planning, so only the 7 tasks of length 1
# can be finished at all, and it solves 6 on both runs. The single loop can reach the 15
# tasks of length 1 and 2, and solves 9 and 10. At budget 4 every sequence fits into the
# single loop's budget, but the split still cannot finish the 3 record tasks: planning
# takes the step they would need.
#
# G05 from lesson 2 shows the same edge for one task. Its plan wasted 3 steps, so it needs
# every step up to the budget of 7:

# %%
for budget in (6, 7, 8):
    run = sim.run_plan_execute("G05", SEED_A, budget)
    say(f"G05, split, budget {budget}: answer {run.answer}, correct {sim.correct_answer(sim.TASKS[4])}, "
                   f"outcome: {outcome(run)}")  # fmt: skip

# %% [markdown]
# ## Too large: fewer steps that score higher
#
# Can a larger budget score lower? The cell searches the sweep for every setup, run and pair
# of budgets where the smaller budget solved more tasks.

# %%
by_key = {(m.setup, m.seed, m.budget): m for m in sweep}
cases = []
for setup in SETUPS:
    for seed in SEEDS:
        for small in BUDGETS:
            for large in BUDGETS:
                if small < large and by_key[setup, seed, small].solved > by_key[setup, seed, large].solved:
                    cases.append((setup, seed, small, large))
                    say(f"{sim.SETUP_LABELS[setup]}, run {sim.run_label(seed)}: budget {small} solves "
                                   f"{by_key[setup, seed, small].solved}, budget {large} solves {by_key[setup, seed, large].solved}")  # fmt: skip
say(f"cases found: {len(cases)}")

# %% [markdown]
# Which tasks flip, and why? The cell prints, for each case, the tasks solved at the smaller
# budget and not at the larger, with their [traces](../GLOSSARY.md#trace) at both budgets.

# %%
for setup, seed, small, large in cases:
    for task in sim.TASKS:
        short, long_ = (sim.run_task(setup, task, seed, b) for b in (small, large))
        if sim.is_correct(short) and not sim.is_correct(long_):
            for run in (short, long_):
                say(f"budget {run.budget}: outcome {outcome(run)}")
                say(format_trace(run))

# %% [markdown]
# Both cases are the same task, G23, a record task. At budget 6 the loop ran out of steps
# while it held the right charge (1132) and before it could write the record: the answer
# is right, the record was never written, and the original measure counts a success. At
# budget 8 the loop went on: at the fourth position it picked `search_docs` instead of
# `write_record`, which replaced the charge with a document code, and `write_record` then
# wrote that code into the record. The smaller budget did not do better; it stopped the run
# before its mistake and was credited for a job it never finished.
#
# ## Answers against effects
#
# The original success measure compares the final answer only. The cell sorts every run of
# the sweep into outcomes: **solved** (right answer, and for a record task the right record
# written), **solved, no record written** (right answer, the record never written: the
# measure counts it, the world never saw it), **spoiled** (the right answer was held at some
# step and lost by the end), **out of budget** and **wrong**.

# %% tags=["full-table"]
rows = []
for setup in SETUPS:
    for seed in SEEDS:
        for budget in BUDGETS:
            counts = pd.Series(
                [outcome(sim.run_task(setup, t, seed, budget)) for t in sim.TASKS]
            ).value_counts()
            row = {"setup": sim.SETUP_LABELS[setup], "run": sim.run_label(seed), "budget": budget}
            row.update({name: int(counts.get(name, 0)) for name in OUTCOMES})
            row["success (answers)"] = by_key[setup, seed, budget].solved
            rows.append(row)
outcomes = pd.DataFrame(rows)
folded_table(outcomes.to_string(index=False))

# %% [markdown]
# That table (folded in the cell above) in short: the two outcomes the answer-only
# measure misses, by budget.

# %%
for name in ("solved, no record written", "spoiled"):
    say(f"{name}, tasks by budget (steps)")
    print(outcomes.pivot(index=["setup", "run"], columns="budget", values=name).to_string())

# %% [markdown]
# Two things stand out. First, the small budgets flatter the record tasks: at budget 6 the
# single loop's 24 successes on run A include 2 record tasks that never wrote their record,
# and at budget 4 the split counts 2 such tasks on run A. Second, spoiled answers appear
# from budget 4 on and do not go away with a larger budget: the split spoils 3 tasks on run
# A at budgets 8 and 12.
#
# The grids show every task at every budget from 1 to 12 on run A, one per setup.

# %%
for setup in SETUPS:
    grid = outcome_grid(setup, SEED_A, range(1, 13))
    fig = figures_step_budget.draw_outcome_grid(grid, f"{sim.SETUP_LABELS[setup]}, run A (seed {SEED_A})")
    path = figures.save_figure(fig, f"03_step_budget-outcomes-{setup}")
    display(Image(filename=path))

# %% [markdown]
# ## Spoiled before or after the job was done?
#
# An answer can be lost in two ways. Before the job is done, a wrong pick can replace a
# held result, as in G23. After the job is done, the agent may fail to stop (the chance is
# 1 - 0.88 at each step) and call a tool it did not need. Only the second is the budget's
# fault. The cell reruns every task at budget 12 with one change, the stopping rule SB1 of
# the next section: once the answer the request asks for is observed, the next step stops.
# A spoiled task that becomes solved was spoiled after the job was done.

# %%
for setup in SETUPS:
    for seed in SEEDS:
        before, after = [], []
        for task in sim.TASKS:
            plain = outcome(sim.run_task(setup, task, seed, 12))
            stopped = outcome(sim.run_task(setup, task, seed, 12, stop_when_done=True))
            if plain == "spoiled":
                (after if stopped == "solved" else before).append(task.name)
        say(f"{sim.SETUP_LABELS[setup]}, run {sim.run_label(seed)}: spoiled after the job was done "
                       f"{len(after)} {after}, before {len(before)} {before}")  # fmt: skip

# %% [markdown]
# In the single loop every spoiled answer on these runs was lost before the job was done.
# In the split, 2 tasks on run A and 1 on run B were lost after it: the [executor](../GLOSSARY.md#executor) finished
# the plan, did not stop, and called one tool too many. Here is G04 on run A:

# %%
say(format_trace(sim.run_plan_execute("G04", SEED_A, 8)))

# %% [markdown]
# ## A stopping criterion
#
# The sweep suggests two rules, and `sim` implements both as explicit options that leave the
# original defaults and figures untouched. Both are scaffolding in lesson 1's sense: they
# decide from what a loop can observe (the request, the fields its tools returned, its own
# counts), never from the task's hidden sequence.
#
# - **[SB1](../GLOSSARY.md#rule-codes), stop once the goal is observed.** A [router](../GLOSSARY.md#router) (rule RT1) reads the request's
#   words for the field it asks for: "bedeli" the charge (`amount`), "tuketimi" the
#   consumption (`m3`), "hesaplanir" a document's `code`, "kayda yaz" a record (`written`).
#   The [goal test](../GLOSSARY.md#goal-test) (GT1) holds when the answer held is that field's value; for a record,
#   when the record was written with the amount the tariff returned. Once it holds, the
#   next step stops. Deciding to stop is a step like any other: it counts against the budget
#   and costs a step's tokens, with no call (`stop_when_done=True`).
# - **SB2, a budget from what the loop expects.** Each task gets the calls it expects, plus
#   1 step of planning in the split, plus a margin for wrong picks and the stop step
#   (`budget_margin=m`). The split expects its own plan's length. The single loop has no
#   plan: it takes the router's count of calls for the goal (RT2, what the tools'
#   documentation says each goal takes).
#
# One figure here is the model's, not the rule's: the split's plan is as long as the task's
# sequence because the planner knows that length (AA29, lesson 2), a given skill no real
# runtime can copy. SB1's test comes before the model's pick at each step; the pick itself
# still aims at the sequence's next position, which is the model's skill too. The cell
# prints the router's two tables and the budget under SB2: the calls each setup expects,
# and the task's budget from them.

# %%
from sim.engine import goals, runs

say("RT1, the router: " + "; ".join(f'"{phrase}" -> {goal}' for phrase, goal in goals.ROUTES))
say("RT2, the calls each goal takes: " + ", ".join(f"{goal} {n}" for goal, n in goals.CALLS_FOR.items()))
print(code_of(runs.expected_calls))
print(code_of(goals.budgeted_calls))
print(code_of(config.RunConfig.task_budget))

# %% [markdown]
# How often does the router read a request right? The cell sets RT1's goal and RT2's count
# beside each task's kind (the field it asks for) and its sequence's length, neither of
# which the router sees.

# %%
from sim.model.tasks import GOALS

templates = {task.request.replace(task.subscriber, "<code>") for task in sim.TASKS}
goal_right = sum(goals.goal_of(task.request) == GOALS[task.kind] for task in sim.TASKS)
calls_right = sum(goals.CALLS_FOR[goals.goal_of(task.request)] == len(task.sequence) for task in sim.TASKS)
say(f"requests: {len(sim.TASKS)}, from {len(templates)} templates (the subscriber's code left out)")
say(f"the router's goal is right on {goal_right} of {len(sim.TASKS)} tasks, its count of calls on "
    f"{calls_right} of {len(sim.TASKS)}")  # fmt: skip

# %% [markdown]
# The router is right on 24 of 24 tasks, and that holds by construction, not by skill: the
# 24 requests come from 4 templates, one a kind, and the router was written for those 4.
# So here SB2 gives the single loop the budgets it would get from the sequences' lengths. A
# real router meets requests nobody wrote it for, and how often it routes right is a figure
# to measure on them.
#
# The margin is measured: with SB1 and a budget too large to bind (20 steps), how many steps
# beyond planning and its expected calls did each task need, its stop step included?

# %%
extra = []
for setup in SETUPS:
    planning = config.PLANNING_STEPS[setup]
    for seed in SEEDS:
        for task in sim.TASKS:
            run = sim.run_task(setup, task, seed, 20, stop_when_done=True)
            extra.append({"setup": sim.SETUP_LABELS[setup], "run": sim.run_label(seed), "stopped": run.stopped,
                          "extra steps": run.steps - planning - runs.expected_calls(setup, task)})  # fmt: skip
extra = pd.DataFrame(extra)
print(
    extra.pivot_table(
        index="extra steps", columns=["setup", "run"], values="stopped", aggfunc="size", fill_value=0
    )
)
MARGIN = int(extra["extra steps"].max())
say(
    f"every task stopped: {'yes' if extra['stopped'].all() else 'no'} | largest extra steps: {MARGIN} -> margin = {MARGIN}"
)
by_length = {
    length: {
        sim.SETUP_LABELS[setup]: sim.plan_length_budget(setup, task, MARGIN, 20)
        for setup in SETUPS
        for task in [next(t for t in sim.TASKS if len(t.sequence) == length)]
    }
    for length in sorted(lengths.index)
}
print("budget under SB2, by sequence length:")
print(pd.DataFrame(by_length).T.rename_axis("length").to_string())

# %% [markdown]
# Every task stopped. None needed more than 5 steps beyond its expected calls, and each
# needed at least 1: its stop step. So these 2 runs suggest a margin of 5. The rule then
# gives a record task 9 steps in the single loop and 10 in the split; a document task gets
# 6 and 7.
#
# But that margin was read off the same 2 runs it would be applied to. A margin is a
# setting tuned on data, and like any tuned setting it must be tested on data it has not
# seen. The next cell tunes it on one block of 200 seeds (20260220 to 20260419: the
# smallest margin with which 99 % of the task runs finish) and tests it on another block of
# 2000 seeds that follow (from 20260420), for each setup.

# %%
from sim.measurement.many_seeds import (
    MANY_SEEDS,
    beside_many_seeds,
    extra_steps,
    many_seed_run,
    smallest_margin,
)

TUNING, HELD_OUT, COVERAGE = study_seeds(200, SEED_A + 2), study_seeds(2000, SEED_A + 202), 0.99
say(f"tuning block: {len(TUNING)} seeds, {TUNING[0]} to {TUNING[-1]}; held-out block: {len(HELD_OUT)} seeds, "
               f"{HELD_OUT[0]} to {HELD_OUT[-1]}")  # fmt: skip
MARGINS = {}
for setup in SETUPS:
    tune, test = extra_steps(setup, TUNING), extra_steps(setup, HELD_OUT)
    MARGINS[setup] = smallest_margin(tune, COVERAGE)
    say(f"{sim.SETUP_LABELS[setup]}: tuned margin {MARGINS[setup]} ({COVERAGE:.0%} of task runs on seeds "
                   f"{TUNING[0]}..{TUNING[-1]}); on held-out seeds {HELD_OUT[0]}..{HELD_OUT[-1]} it lets "
                   f"{(test <= MARGINS[setup]).mean():.4f} of task runs finish; the 2-run margin {MARGIN} lets "
                   f"{(test <= MARGIN).mean():.4f}")  # fmt: skip

# %% [markdown]
# On the held-out seeds the tuned margins let more than 99 % of task runs finish in both
# setups. The margin of 5 read off runs A and B is at the edge for the single loop (it lets
# 0.9900 of the held-out task runs finish) and falls short for the split (0.9659), whose
# wrong plans need longer to correct. So the course's rule takes its margin per setup, from
# the tuning block: 6 for the single loop, 7 for the split.
#
# ### What stopping saves, at one budget
#
# First SB1 on its own, against the loop without it at the same budget of 12 steps. Both
# pay for their stop: the original agent's stop step (taken with the chance 0.88 once its
# job is done) and SB1's cost the same. The cell prints the band rule's verdicts on runs A
# and B beside the same-seed differences over 10,000 seeds, then takes each run's saved steps
# apart: the calls the loop without the rule made after its goal was observed, and the
# stop steps of both.

# %%
from sim.measurement.outcomes import calls_after_goal

for setup in SETUPS:
    plain = [measure(setup, seed, 12) for seed in SEEDS]
    stopping = [measure(setup, seed, 12, stop_when_done=True) for seed in SEEDS]
    verdicts = compare_setups(plain, stopping)
    say(f"{sim.SETUP_LABELS[setup]}, budget 12: first = no stopping rule, second = stop when done")
    print(fitted(verdict_table(verdicts, SEEDS), "unit", breaks=["band first"]))
    many = (many_seed_run(sim.RunConfig(setup, 12, **options)) for options in ({}, {"stop_when_done": True}))
    beside = beside_many_seeds(verdicts, *many)
    say(f"beside {MANY_SEEDS} seeds from {SEED_A} (second minus first, per run of 24 tasks):")
    print(beside.drop(columns="agrees").to_string(index=False))
    for seed, first, second in zip(SEEDS, plain, stopping, strict=True):
        base = [sim.run_task(setup, task, seed, 12) for task in sim.TASKS]
        ruled_runs = [sim.run_task(setup, task, seed, 12, stop_when_done=True) for task in sim.TASKS]
        after = sum(calls_after_goal(run) or 0 for run in base)
        stops = [sum(run.stopped for run in group) for group in (base, ruled_runs)]
        stop_tokens = sum(step.tokens for run in ruled_runs for step in run.log if step.tool is None)
        saved, saved_tokens = first.steps - second.steps, first.tokens - second.tokens
        say(f"run {sim.run_label(seed)}: steps {first.steps} -> {second.steps}, {saved} saved = calls after the "
            f"goal was observed {after} + stop steps ({stops[0]} - {stops[1]}); tokens {first.tokens} -> "
            f"{second.tokens}, {saved_tokens} saved; a stop for free would look {saved + stops[1]} steps and "
            f"{saved_tokens + stop_tokens} tokens cheaper")  # fmt: skip

# %% [markdown]
# At the same budget, SB1 saves little. In the single loop it saves 1 step and 134 tokens on
# run A and 3 steps and 446 tokens on run B, within the bands: unmeasured. In the split it
# saves 3 and 2 steps and 330 and 190 tokens, measured. Over 10,000 seeds both savings
# resolve and stay small: 3.18 and 3.16 steps a run of 24 tasks, 556.08 and 345.99 tokens.
# What the rule buys is success: +0.0344 and +0.0352 of the tasks a run, the answers a
# finished agent would have spoiled.
#
# The steps saved are exactly the calls the loop without the rule made after its goal was
# observed: both loops stop in all 24 tasks on each run, so the stop steps cancel. A rule
# that ended the run with no stop step would look cheaper by exactly the stop steps it does
# not pay for, as the end of each line prints: on the single loop's run A, 25 steps and 3180
# tokens, where the rule saves 1 step and 134 tokens. Nearly all of such a saving would be
# the baseline's stop steps, set against a rule that takes none.
#
# ### The whole rule against the fixed budgets
#
# Now SB1 with SB2 against the fixed budgets, on the lesson's tasks and runs. The last rows
# of each setup are SB1 alone at budget 12 and SB1 with SB2 at the setup's tuned margin.

# %% tags=["full-table"]
ruled = []
for setup in SETUPS:
    for seed in SEEDS:
        ruled += [measure(setup, seed, budget) for budget in BUDGETS]
        ruled.append(measure(setup, seed, 12, stop_when_done=True))
        ruled.append(measure(setup, seed, 12, stop_when_done=True, budget_margin=MARGINS[setup]))
folded_table(format_table(seed_table(ruled)))

# %% [markdown]
# The whole table is folded in the cell above. Here are the rows that matter,
# per setup and run: the original budget of 8, SB1 alone, and SB1 with SB2 (its rule column
# says "stop, plan length + margin" for "stop when done, budget plan length + margin").

# %%
rows = seed_table([m for m in ruled if m.budget == 8 or m.config.stop_when_done])
rows["rule"] = rows["rule"].str.replace("stop when done, budget plan length", "stop, plan length")
print(format_table(rows))

# %% [markdown]
# The band rule compares the course's rule with the original fixed budget of 8 steps, per
# setup:

# %%
for setup in SETUPS:
    fixed = [measure(setup, seed, 8) for seed in SEEDS]
    rule = [measure(setup, seed, 12, stop_when_done=True, budget_margin=MARGINS[setup]) for seed in SEEDS]
    say(
        f"{sim.SETUP_LABELS[setup]}: first = fixed budget 8, second = stop when done + margin {MARGINS[setup]}"
    )
    verdicts = compare_setups(fixed, rule)
    print(fitted(verdict_table(verdicts, SEEDS), "unit", breaks=["band first"]))
    ruled_config = sim.RunConfig(setup, 12, stop_when_done=True, budget_margin=MARGINS[setup])
    beside = beside_many_seeds(verdicts, many_seed_run(sim.RunConfig(setup, 8)), many_seed_run(ruled_config))
    say(f"beside {MANY_SEEDS} seeds from {SEED_A} (second minus first, per run of 24 tasks):")
    print(beside.drop(columns="agrees").to_string(index=False))
    say(f"the 2-run verdict agrees on {sum(beside['agrees'] == 'yes')} of {len(beside)} units")
    budgets = sorted({sim.plan_length_budget(setup, task, MARGINS[setup], 12) for task in sim.TASKS})
    stop_only = beside_many_seeds(
        verdicts[:1],
        many_seed_run(sim.RunConfig(setup, 8)),
        many_seed_run(sim.RunConfig(setup, 8, stop_when_done=True)),
    ).iloc[0]
    say(f"the rule's budgets: {budgets[0]} to {budgets[-1]} steps by task, against 8; stop when done alone at "
                   f"budget 8, success {stop_only['mean difference']} {stop_only['95 % interval']}: {stop_only['many seeds']}")  # fmt: skip

# %% [markdown]
# The rule gives each task its own budget, so this is not a comparison at one budget: the
# last line of each setup prints the rule's budgets, 7 to 10 steps in the single loop and 9
# to 12 in the split, and the effect of stopping when done alone at the same budget of 8
# steps. On runs A and B, against the fixed budget of 8 steps, the band rule measures no
# unit in the single loop. In the split success rises by 2 tasks on run A and 1 on run B,
# which is no more than the band of 2 tasks: unmeasured. The split also makes 3 and 2 fewer
# [tool calls](../GLOSSARY.md#tool-call), against a band of 1: measured.
#
# Over 10,000 seeds the two setups part. In the single loop the rule saves 2.54 steps and
# 394.48 tokens a run and solves more (+0.0349). In the split, whose budgets are all above
# 8, it solves more too (+0.0509), but takes more steps (+0.99) and more tokens (+218.16):
# the larger budgets let runs go on that budget 8 would have cut. Whether the rule is
# cheaper than a fixed budget depends on that fixed budget, not only on the rule.
#
# On these runs the margin never cuts a run short: SB1 alone and SB1 with SB2 give the same
# rows above. The margin is there for the runs that wander; on the held-out seeds it lets
# more than 99 % of them finish.
#
# **The course's stopping rule:** stop at the step after the goal the request asks for is
# observed (for a record, the record written with the amount observed), and pay for that
# step; give each task the calls it expects (the split its plan's length, the single loop
# the router's count for its request), plus 1 step for planning where there is a
# [planner](../GLOSSARY.md#planner), plus a margin tuned on seeds the rule is not measured on: 6 steps for the
# single loop and 7 for the split. Lessons 4 and 5 keep the fixed budget of 8 steps, so
# that their figures stay comparable with lesson 2's; the [contract](../GLOSSARY.md#contract) of lesson 4 has a stop
# of its own (it ends when its plan completes).
#
# For a real agent the part that carries over is the shape of the rule, not its numbers: a
# loop needs a test for "done" that it can observe (here the field the request asks for
# held, the record written with it), a stop that is paid for like any step, and a budget set
# from what the loop expects (its plan, or a router's reading of the request) plus a margin
# read off runs it was not tuned on. The router here is right by construction; a real one
# must be measured. A real model has no fixed stop chance; whether it stops once the job is
# done is a property of its own traces, to be measured as lesson 6 measures a stop rule.

# %% [markdown]
# ## Summary
#
# - At budget 2 the split can only finish the 7 tasks of length 1, and solves 6; planning
#   is a step, and small budgets make it expensive.
# - From budget 8 to 12 success does not change in either setup on either run; the larger
#   budget adds steps and tokens, or, on the single loop's run B, nothing at all.
# - The single loop's 24 of 24 at budget 6 on run A is not a better result than 23 at 8:
#   2 of those successes never wrote their record. The success measure compares answers,
#   not effects.
# - Spoiled answers come from wrong picks before the job is done and from agents that do
#   not stop after it. Only the second is fixed by a stopping criterion.
# - The course's rule: stop once the request's goal is observed, paying for the stop step;
#   budget = expected calls (the split's plan, the single loop's router) (+1 planning) + a
#   margin tuned on one block of seeds and tested on another: 6 for the single loop, 7 for
#   the split.
# - At the same budget of 12, with both paying for their stop, stopping saves little: 1 and
#   3 steps and 134 and 446 tokens in the single loop on runs A and B, unmeasured; 3.18
#   steps and 556.08 tokens a run over 10,000 seeds. What it buys is success, +0.0344 a run.
#   A stop that cost nothing would look 25 steps cheaper on run A, 24 of them stop steps.
#
# ## Exercises
#
# 1. In the panel, set the setup to the split and tick **stop when done**. Which tasks
#    change colour in the grid at budget 12, and why those?
# 2. Find a seed where the single loop spoils a task after the job was done (the grid shows
#    it turning from spoiled to solved when you tick the box).
# 3. The margin of 5 was measured on runs A and B. Press **new seed** a few times with the
#    box ticked and a budget of 20: does any task need more than its expected calls plus 5,
#    its stop step included?
# 4. At which budget does the split first solve all 3 record tasks with their record
#    written, on run A? Read it off the grid.
#
# The next two are code you write, checked for a seed of your own. Set `MY_SEED` once (from
# your name, say); the checks compute the answers for that seed and say right or wrong, and
# what is off, never the answer.
#
# 5. **What stopping saves, counted.** At your seed and budget 12, in both setups, count the
#    task runs whose answer is wrong without stop when done and right with it
#    (`sim.run_task(..., stop_when_done=True)`, `sim.is_correct`). Put it in `my_count`.
# 6. **A stop predicate.** Write `my_done(observation)`: true when the request's goal is
#    observed, judged only from what the agent sees: `observation.request` (its words say
#    what it asks for), `observation.state` (the values the tools have returned so far, by
#    field name) and `observation.held` (the answer it holds now). The check runs the single
#    loop with it as the stop rule on the 24 tasks at your seed, budget 12: it must stop each
#    task at the first step after its goal is observed, as SB1 does, never before.

# %%
from sim.exercises import step_budget as exercises

MY_SEED = 12345  # your seed: any whole number 0 <= MY_SEED < 2**32

my_count = None  # exercise 5: task runs that stop when done turns from wrong to right


def my_done(observation): ...  # return True when the request's goal is observed


print(exercises.check_saved_by_stopping(MY_SEED, my_count))
print(exercises.check_stop_predicate(MY_SEED, my_done))

# %% [markdown]
# ## Explore
#
# The panel shows both setups at the seed and the next seed under the chosen stopping rule,
# and the outcome grid of one setup for every budget up to the chosen one.

# %% tags=["nbval-ignore-output"]
from sim.presentation.panel_step_budget import step_budget_panel

panel = step_budget_panel()
panel
