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
# # Lesson 1 · The single loop
#
# The simplest [agent](../GLOSSARY.md#agent) there is: one loop. At every [step](../GLOSSARY.md#step) the agent looks at the job and at
# everything it has done so far, picks a [tool](../GLOSSARY.md#tool) (or decides it is finished), calls the tool,
# reads the [observation](../GLOSSARY.md#observation), and goes round again. This is the [**single loop**](../GLOSSARY.md#single-loop), often called a
# ReAct-style loop. Every other arrangement in this course is measured against it.
#
# **After this lesson you can:**
#
# - read an agent's run as a [trace](../GLOSSARY.md#trace) of [tool calls](../GLOSSARY.md#tool-call)
#   and say what each step cost in [tokens](../GLOSSARY.md#token);
# - state the single loop's rules and follow one task through them step by step;
# - measure an agent on a set of tasks in the course's [counted units](../GLOSSARY.md#counted-units): success, steps, tool
#   calls, tokens and [tool errors](../GLOSSARY.md#tool-error);
# - explain why, in this model, right picks get rarer deeper into a job, and why the loop's
#   token cost grows faster than its steps.
#
# **It assumes:** Python and pandas at the level of reading a DataFrame; no knowledge of
# agents or language models. **Time:** about an hour for the core; Going further about an
# hour and a half. Terms in links are explained in the course [glossary](../GLOSSARY.md).
#
# Nothing here calls a model, a tool server or a network: the "model" is a rule and a
# seeded [draw](../GLOSSARY.md#draw), in the small fictional world every lesson runs in. Every figure in this text
# is printed by a cell of this notebook, and CI fails if the two ever part. The first cell
# prints the library versions the stored outputs depend on, the lesson's two runs (a
# [run](../GLOSSARY.md#run) is the 24 tasks at one [seed](../GLOSSARY.md#seed)) and its
# [step budget](../GLOSSARY.md#step-budget).

# %%
import ipywidgets
import matplotlib
import pandas as pd
from IPython.display import Image, display

import sim
from sim.engine import loops
from sim.measurement.counts import measure
from sim.measurement.traces import depth_picks, recovery_task
from sim.model import costs, picks, world
from sim.presentation import figures, figures_single_loop
from sim.presentation.screen import say
from sim.presentation.showcode import code_of
from sim.presentation.tables import format_table, format_trace, loop_step_table, seed_table

pd.reset_option("display")  # tables print the same whatever your own pandas settings
print(f"pandas {pd.__version__} | matplotlib {matplotlib.__version__} | ipywidgets {ipywidgets.__version__}")
SEED_A, SEED_B = sim.DEFAULT_SEED, sim.DEFAULT_SEED + 1
SEEDS = (SEED_A, SEED_B)
BUDGET = sim.DEFAULT_BUDGET
print(f"run A: seed {SEED_A} | run B: seed {SEED_B} | step budget: {BUDGET} steps")
print(f"the world is built once, from seed {sim.WORLD_SEED}, whatever the run's seed")

# %% [markdown]
# ## The loop in one picture
#
# ```mermaid
# flowchart TD
#     job["task: the request"] --> pick{"pick a tool,<br/>or stop?"}
#     pick -- "a tool" --> act["call the tool"]
#     act --> observe["observe: write the<br/>state and the trace"]
#     observe -- "next step:<br/>trace sent again" --> pick
#     pick -- "stop" --> answer["answer held"]
#     budget["budget spent"] -.-> answer
# ```
#
# After each tool call the loop goes back to its one decision, and each time it sends the
# whole trace so far. The pattern was named by
# [ReAct: Synergizing Reasoning and Acting in Language Models](https://arxiv.org/abs/2210.03629)
# (Yao et al., 2022), where a language model writes a thought and an action at each step
# and reads the tool's observation before the next. Our simulator keeps the loop's shape and
# replaces the language model by a seeded rule.
#
# Here is the loop at work on one task, chosen by code (the rule that chose it is stated
# in "One task, step by step"): at run A, `G03` asks for a subscriber's water consumption.

# %%
walk = sim.run_single_loop(recovery_task(SEED_A, BUDGET), SEED_A, BUDGET)
say(format_trace(walk))

# %% [markdown]
# The agent needed 2 tools, `read_meter` then `consumption`, and made 3 calls: one was the
# wrong tool, failed with a tool error, and still cost a step and its tokens. First, the
# world the tasks are about.
#
# ## The world
#
# The world is a water network's subscriber records. Each subscriber has a region, a
# customer type (residential or commercial) and two meter readings in m3, the previous one
# and the current one; the consumption is the current reading minus the previous one. The
# world is built once and never changes: the seed of a run moves only the agent's
# [draws](../GLOSSARY.md#draw) (the seeded random numbers behind its choices).

# %%
subscribers = pd.DataFrame(
    [
        {"region": s.region, "type": s.customer_type, "used": s.current - s.previous}
        for s in sim.SUBSCRIBERS.values()
    ]
)
say(f"{len(subscribers)} subscribers in {subscribers['region'].nunique()} regions")
print(subscribers["type"].value_counts().rename_axis("type").reset_index().to_string(index=False))
say(f"m3 used this period: from {subscribers['used'].min()} to {subscribers['used'].max()}")

# %% [markdown]
# Water is charged in price bands: the first 10 m3 at 4 a cubic metre, the next ones up to 25 m3 at 7, up to 40 m3 at 11, and every m3 above 40
# at 16. A commercial subscriber pays 2 times the residential charge.

# %%
lower, bands = 0, []
for upper, price in world.TARIFF_BANDS:
    bands.append({"band (m3)": f"{lower + 1}..{upper}", "unit price": price})
    lower = upper
bands.append({"band (m3)": f"above {lower}", "unit price": world.ABOVE_LAST_BAND})
print(pd.DataFrame(bands).to_string(index=False))
say(f"{len(bands)} bands; commercial factor: {world.COMMERCIAL_FACTOR}")

# %% [markdown]
# There are also 5 short documents, in the fictional network's own language. `search_docs`
# returns the one sharing the most word pieces with the request, and fails only when no
# piece is shared. The cell counts the tasks whose request it cannot match: 0. So every request
# finds *something*, and a `search_docs` call made by mistake never fails: it quietly
# puts a document code where the agent keeps its answer.

# %%
say(f"{len(world.DOCUMENTS)} documents: {', '.join(world.DOCUMENTS)}")
unmatched = sum("error" in world.search_docs(query=task.request) for task in sim.TASKS)
say(f"tasks whose request search_docs cannot match: {unmatched} of {len(sim.TASKS)}")

# %% [markdown]
# ### The tools and the tasks
#
# The agent has 5 tools. Each takes only the fields of its schema from the agent's state;
# a field the state does not hold yet is a **tool error** ("missing field"). Only
# `write_record` changes the world: it is the one tool with a [side effect](../GLOSSARY.md#side-effect).

# %%
returns = {
    "read_meter": "previous, current, type, region",
    "consumption": "m3 (with rollover)",
    "tariff": "amount (the charge)",
    "search_docs": "code and text of the best document",
    "write_record": "written: the value into the column",
}
rows = [
    (t.name, ", ".join(t.fields), "yes" if t.side_effect else "no", returns[t.name])
    for t in sim.TOOLS.values()
]
tools = pd.DataFrame(rows, columns=["tool", "fields", "side effect", "returns"])
print(tools.to_string(index=False))
say(f"{len(tools)} tools, {sum(t.side_effect for t in sim.TOOLS.values())} with a side effect")

# %% [markdown]
# There are 24 tasks, G01 to G24, in 4 kinds. Each kind is solved by one known [tool
# sequence](../GLOSSARY.md#tool-sequence), from 1 tool (find the meter-rollover document) to 4 tools (read, compute,
# charge, and write the charge into the record). Only the few record tasks reach the
# fourth position of a sequence.

# %%
rows = [(t.kind, " -> ".join(t.sequence), len(t.sequence), t.name) for t in sim.TASKS]
kinds = pd.DataFrame(rows, columns=["kind", "sequence", "length", "task"])
by_kind = (
    kinds.groupby(["kind", "sequence", "length"], sort=False)["task"]
    .agg(tasks="count", names=lambda names: " ".join(names))
    .reset_index()
    .sort_values("length")
)
print(by_kind.drop(columns="names").to_string(index=False))
print()
for row in by_kind.itertuples():
    say(f"{row.kind} tasks: {row.names}")
say(f"{len(sim.TASKS)} tasks in {len(by_kind)} kinds, {kinds['length'].sum()} sequence positions in all")

# %% [markdown]
# ## The loop
#
# ### One step
#
# Each step of the single loop does the same things, in this order:
#
# 1. **Pick.** If the job is done, the agent should stop, and it does with a fixed chance; if it
#    fails to stop, it calls one of the 5 tools at random. If the job is not done, it picks the
#    right tool with the share [`selection(d)`](../GLOSSARY.md#selection), where `d` is the
#    position of the sequence it has reached, else one of the 5 tools at random. The model knows
#    when its job is done, so it never stops early.
# 2. **Call** the tool with the fields of its schema taken from the state.
# 3. **Observe.** A tool error leaves the state alone; a good observation is written into
#    it, and a `consumption`, `tariff` or `search_docs` result becomes the answer the
#    agent holds.
# 4. **Move on.** The job advances one position only when the call was the right tool and
#    did not fail. The loop ends when the agent stops or the budget is spent.
#
# Here is the pick as `sim` runs it (`single_loop_pick`, whose `right_share` is
# `selection(d)`). It aims at the next position of the sequence: the model's given skill.
# The rest of the step (`take_step`, listed in Going further) calls the picked tool on the
# state and prices the step; the loop around it moves the job on and ends the run.

# %%
print(code_of(picks.single_loop_pick))

# %% [markdown]
# ### The rules, in figures
#
# The model's constants, printed from `sim` so that text and simulator cannot drift apart.
# The draw that takes the right tool succeeds with share 0.8 at the first position, and
# that share falls by 0.09 with every position, down to a floor of 0.34. A missed draw
# lands on the right tool by luck 1 time in 5, so the share of right picks is a little
# higher than the draw's (0.84 at the first position, the line to read the measured shares
# against). Token accounting: a step costs 60 + 22 x trace length (the calls already in the
# trace), because it re-sends the whole trace so far, and every observation costs 30.

# %%
n_tools = len(sim.TOOL_NAMES)
selection_rule = f"max({picks.SELECTION_FLOOR}, {picks.SELECTION_START} - {picks.SELECTION_DROP} x (d - 1))"
step_rule = f"{costs.LOOP_STEP_TOKENS} + {costs.LOOP_TOKENS_PER_CALL} x trace length"
rules = [
    ("draw that takes the right tool at position d, selection(d)", selection_rule),
    (
        "a wrong draw picks one of the tools at random",
        f"{n_tools} tools, right by luck with share 1/{n_tools}",
    ),
    ("right picks at position d, lucky picks counted", f"selection(d) + (1 - selection(d)) / {n_tools}"),
    ("chance that a finished agent stops, each step", f"{picks.STOP_SHARE}"),
    ("single-loop step (tokens)", step_rule),
    ("observation (tokens)", f"{costs.OBSERVATION_TOKENS}"),
    ("step budget (steps)", f"{BUDGET}"),
]
print(pd.DataFrame(rules, columns=["rule", "value"]).to_string(index=False))

# %% [markdown]
# ### One task, step by step
#
# The task to walk through is chosen by code, not by hand: the first task whose run A shows
# a wrong pick past the first position that drew a tool error, and that still recovered,
# stopped on its own and ended with the right answer.

# %%
walk_steps = sim.loop_steps(walk)
say(f"chosen: {walk.task}")
print(loop_step_table(walk_steps).to_string(index=False))

# %% [markdown]
# Step 1 picks `read_meter`, right. At step 2 (depth 2) the agent picks `tariff` instead of
# `consumption`: a tool error, as the state holds no m3 yet. The job does not move on, so
# step 3 aims at the same position again, picks `consumption`, and holds the answer 52.
# Step 4 finds the job done and stops. The wrong pick cost one step and 112 tokens, and
# every step after it costs 22 tokens more than it would have, because the failed call
# stays in the trace that every later step re-sends.
#
# The pick rule and the stop chance are the **model**: they stand in for a language model's skill, are given
# rather than measured, and may read the task itself (its sequence, how far along it is). That is
# not the agent cheating: the model is handed the right tool and takes it with the share its rule
# gives, the way a real model is right some of the time.
# The [**scaffolding**](../GLOSSARY.md#scaffolding), the code that later lessons wrap around a model (stop rules, budgets,
# checks, a policy you write), may read only what a real agent sees: the request, the
# observations and its own counts.
#
# ## The measurement
#
# Now all 24 tasks, on both runs, at the budget of 8 steps. Success is the share of tasks
# whose final answer is right. These are the same two rows lesson 2 compares the [planner](../GLOSSARY.md#planner)
# and [executor](../GLOSSARY.md#executor) against.

# %%
single = [measure("single-loop", seed, BUDGET) for seed in SEEDS]
print(format_table(seed_table(single)))
for seed, m in zip(SEEDS, single, strict=True):
    unsolved = [t.name for t in sim.TASKS if not sim.is_correct(sim.run_single_loop(t, seed, BUDGET))]
    say(f"run {sim.run_label(seed)}: {m.solved}/{m.n_tasks} solved; unsolved: {', '.join(unsolved)}")

# %% [markdown]
# The single loop solves 23 of 24 tasks on both runs (0.9583); the one it misses is a
# record task, G23 on run A and G15 on run B. The other totals differ little between the runs
# (97 and 98 steps, 11978 and 11994 tokens, 8 and 7 tool errors): how much a unit differs
# between a setup's own runs is its [run-to-run band](../GLOSSARY.md#band), the yardstick
# lesson 2 sets comparisons against. The runs still part task by task: the 4-tool tasks took
# 1234.7 tokens on average on run A and 914.0 on run B (the table of means by sequence
# length, in the growing-trace section below).
#
# ## Depth: the deeper the position, the fewer right picks
#
# A pick at depth d is a step whose target was the d-th tool of the sequence (d - 1
# positions already done). It is right when the tool called is that target, lucky random
# picks included. `depth_picks` counts these from the traces of the 24 tasks; the table
# sets the measured share beside `expected`, the share the rule gives once lucky picks are
# counted. The figure adds the draw's own share, `selection(d)`, which leaves them out.

# %%
depth = {sim.run_label(seed): depth_picks(seed, BUDGET) for seed in SEEDS}
for label, table in depth.items():
    say(f"run {label}")
    print(table.drop(columns="model").round(4).to_string(index=False))
record_tasks = sum(task.kind == "record" for task in sim.TASKS)
picks_4 = int(depth["A"].iloc[3]["picks"])
say(f"tasks that reach depth 4: {record_tasks} (the record tasks)")
say(f"one right pick more or less at depth 4 moves its share by 1/{picks_4} = {1 / picks_4:.4f}")

# %%
path = figures.save_figure(figures_single_loop.draw_depth_shares(depth), "01_single_loop-depth")
display(Image(filename=path))

# %% [markdown]
# On both runs the share of right picks is lower at the fourth position than at the first:
# 0.5 against 0.8 on run A and 0.7742 on run B. But the fourth point rests on 6 picks a
# run, all from the 3 record tasks, and one pick more or less right would move it by
# 0.1667. With 2 runs and so few deep picks, the points cannot show even the direction
# for certain. Here the fall is the pick rule itself (`selection(d)`), so the pooled count
# below checks the simulator against its own rule rather than finding something new:

# %%
POOLED = range(200)
pooled = sum(depth_picks(seed, BUDGET)[["picks", "right"]] for seed in POOLED)
pooled["depth"] = depth["A"]["depth"]
pooled["share"] = (pooled["right"] / pooled["picks"]).round(4)
pooled["expected"] = depth["A"]["expected"]
say(f"pooled over {len(POOLED)} seeds (0 .. {POOLED[-1]}), budget {BUDGET}")
pooled["share - expected"] = (pooled["share"] - pooled["expected"]).round(4)
pooled["std. error"] = ((pooled["share"] * (1 - pooled["share"]) / pooled["picks"]) ** 0.5).round(4)
shown = ["depth", "picks", "right", "share", "expected", "share - expected", "std. error"]
print(pooled[shown].to_string(index=False))
in_errors = (pooled["share - expected"] / pooled["std. error"]).abs()
say(f"largest gap: {in_errors.max():.1f} standard errors, at depth {pooled['depth'][in_errors.idxmax()]}")

# %% [markdown]
# Pooled over 200 seeds, the shares fall at every depth, from 0.8446 at depth 1 to 0.6081
# at depth 4 (934 picks there). Each lies within 0.0179 of the expected line, and within 2.0
# standard errors of it (the largest, at depth 3). The standard error, `sqrt(share x (1 - share) / picks)`,
# treats every pick as independent; the picks of one task come in clusters (a missed
# position is picked again), so take it as a rough yardstick, not an exact one.
#
# For real agents, take the shape, not the size: the falling share is a rule of this
# simulator, written to mimic a loop that re-decides at each step with a growing history
# to read. Where a real loop behaves like this, each extra position of a job is one more
# chance to go wrong, and long jobs are where checks and [plans](../GLOSSARY.md#plan) earn their keep; only
# your model's own traces can say whether it does.
#
# ## The growing trace: the single loop pays for its own history
#
# Every step re-sends the whole trace, so each step that calls a tool costs 22 tokens more
# than the one before it; the stop step at the end re-sends the trace too, but has no
# observation to pay for. The longest run on run A (first among the longest) shows it step
# by step:

# %%
runs = {
    sim.run_label(seed): [sim.run_single_loop(task, seed, BUDGET) for task in sim.TASKS] for seed in SEEDS
}
longest = max(runs["A"], key=lambda run: run.steps)  # max keeps the first among equals
long_steps = sim.loop_steps(longest)
say(format_trace(longest))
print(loop_step_table(long_steps).to_string(index=False))
resent = sum(costs.LOOP_TOKENS_PER_CALL * s.trace_length for s in long_steps)
share = 100 * resent / longest.tokens
say(f"{longest.task}: {longest.tokens} tokens, of which {resent} re-send the trace ({share:.1f} %)")

# %% [markdown]
# Its wrong picks were `search_docs`, which never fails: a document code sat where the
# answer belongs until `consumption` replaced it. The figure's left panel splits each of its
# steps into the step's base, the re-sent trace and the observation. The right panel of the
# figure puts every task's total tokens against its sequence length, beside the cheapest
# possible run of each length (every pick right, then a stop step).

# %%
path = figures.save_figure(
    figures_single_loop.draw_growing_trace(long_steps, runs), "01_single_loop-growing-trace"
)
display(Image(filename=path))
rows = []
for length in sorted({len(task.sequence) for task in sim.TASKS}):
    row = {"sequence length": length, "cheapest run": costs.cheapest_loop_tokens(length)}
    for label, task_runs in runs.items():
        tokens = [r.tokens for r in task_runs if len(sim.check_task(r.task).sequence) == length]
        row[f"mean, run {label}"] = round(sum(tokens) / len(tokens), 1)
    rows.append(row)
print(pd.DataFrame(rows).to_string(index=False))
for label, task_runs in runs.items():
    total = sum(r.tokens for r in task_runs)
    resent = sum(costs.LOOP_TOKENS_PER_CALL * s.trace_length for r in task_runs for s in sim.loop_steps(r))
    say(f"run {label}: {resent} of {total} tokens re-send the trace ({100 * resent / total:.1f} %)")

# %% [markdown]
# G15 needs 4 tools but took 8 steps, which cost 1306 tokens, 616 of them (47.2 %) only
# re-sending the trace; a clean run of a 4-tool task costs 640. Because the step cost grows
# with the trace, tokens grow faster than steps: each wasted step makes every later step
# dearer. Over all tasks, 32.9 % of run A's tokens and 32.5 % of run B's re-send the trace: a
# share the token prices give [by construction](../GLOSSARY.md#by-rule) (AA28), not a finding.
# Whether an executor that carries a plan instead avoids this cost is what lesson 2 tests.
#
# This is no artefact of the simulator: a chat-completions API is stateless, so each request
# carries the conversation so far (Going further shows the requests, and what a prompt cache
# changes).
#
# ## Summary
#
# - The world is fixed and fictional: 5 tools (one with a side effect), 24 tasks in 4 kinds
#   with sequences of 1 to 4 tools.
# - The single loop picks the right tool with share `selection(d)`, falling from 0.8 by
#   0.09 a position; a missed draw is a random tool, right by luck 1 time in 5.
# - At budget 8 it solves 23 of 24 tasks on both runs: lesson 2's single-loop rows.
# - Right picks fall with depth on both runs, but the fourth position rests on 6 picks a
#   run; pooled over 200 seeds, each share lies within 2.0 standard errors of the expected
#   line.
# - Every step re-sends the trace: 32.9 % and 32.5 % of all tokens, 47.2 % in the longest run.
#
# ## Exercises
#
# This one is code you write, checked for a seed of your own (set `MY_SEED` once, from your
# name, say): the checks compute the answers for that seed and say right or wrong, and what
# is off, never the answer. Exercises 2 to 4, with the panel below, open Going further.
#
# 1. **Tokens by hand.** Write `my_tokens(steps, calls)`: the tokens of one task's plain
#    single-loop run from its steps and tool calls, by the token rule in the rule table
#    (steps minus calls is 1 when the agent stopped, 0 when the budget ended the run). The
#    check runs the loop on the 24 tasks at your seed and compares your count with the run's.

# %%
from sim.exercises import single_loop as exercises

MY_SEED = 12345  # your seed: any whole number 0 <= MY_SEED < 2**32


def my_tokens(steps, calls): ...  # return the run's tokens


print(exercises.check_loop_tokens(MY_SEED, my_tokens))

# %% [markdown]
# ## Explore
#
# The panel measures the single loop at a seed (run A) and the next seed (run B): the
# counted units, the depth figure redrawn live, the chosen task's steps, and the two
# switches of Going further. **reset** brings back the lesson's defaults. Its output is not
# part of the checked record.

# %% tags=["nbval-ignore-output"]
from sim.presentation.panel_single_loop import single_loop_panel

panel = single_loop_panel()
panel

# %% [markdown]
# ## Going further (optional)
#
# The core is complete without this part. It adds: 3 exercises with the panel, the whole
# step's code, a step as the chat request a real agent sends, the pick rule drawn out, a closer
# look at the fall with depth, the loop's two switches (self-critique and approval), the model
# and scaffolding line in full, and the rest of the world's details, with more exercises.
#
# ### Exercises with the panel
#
# These use the panel above (Explore).
#
# 2. Press **new seed** several times and watch the depth-4 points. How far do they move
#    from seed to seed, and why do the depth-1 points move so much less?
# 3. Set the budget to 3. Which depths lose picks, which tasks can no longer be solved,
#    and what happens to the depth-4 point?
# 4. Pick G15 (a record task) in the task picker and find a seed where it fails. Which step
#    spoiled the answer it wrote?
#
# ### The whole step
#
# The core showed the pick; here is the whole step as `sim` runs it (`take_step`, which
# lesson 2's [split](../GLOSSARY.md#split) shares). It also holds hooks that later lessons
# switch on, all off in this lesson: `goal_stops()` is lesson 3's stop rule (the step
# stops once the request's goal is met), `writer` and `wrong` are lesson 4's wrong
# arguments, and `observation_tokens` adds the self-critique's tokens when that switch is on
# (below). Its first line reads the task's sequence and the job's progress, which only the
# model's pick may do; the comment names the model rule that allows it, for the test at
# the end of "The model and the scaffolding, in full".

# %%
print(code_of(loops.take_step))

# %% [markdown]
# ### One step on the wire
#
# A real agent's step is a request to a chat API. Here is the step as that request would
# travel, in the OpenAI chat-completions format that hosted services and local servers
# (Ollama, vLLM, llama.cpp's server) accept: a system message, the user's request, then for
# each tool call so far an assistant turn holding the call, with its arguments as JSON, and
# a tool turn holding the tool's result. The tools travel with the request as function
# schemas; here is the schema of `tariff`:

# %%
import json

from sim.chat import messages

schemas = {schema["function"]["name"]: schema for schema in messages.tool_schemas()}
say(f"tool schemas sent with each request: {len(schemas)}")
print(json.dumps(schemas["tariff"], indent=1))

# %% [markdown]
# The walk-through's task, G03 at run A: the messages of its last request, sent after its
# last tool call to ask what comes next. The reply to it has no tool call: the agent stops.

# %%
sent = messages.requests(walk)
say(f"task {walk.task}: {len(sent)} steps, {len(sent)} requests")
print(messages.format_messages(sent[-1]))

# %% [markdown]
# Each step sends one request, and each request carries the whole trace so far: the step
# after k tool calls sends 2 + 2 x k messages, and each request begins with the one before
# it, word for word. The table puts each request's messages and length in characters beside
# what the simulator's token rule charges for the request and for the whole step, its
# observation included (the rule's code in the source lesson is [AA28](../GLOSSARY.md#rule-codes)).

# %%
from sim.presentation.screen import readable

sizes = messages.request_sizes(walk)
print(readable(sizes).to_string(index=False))
print("a request after k tool calls: 2 + 2 x k messages")
prefixed = all(b[: len(a)] == a for a, b in zip(sent, sent[1:], strict=False))
print("each request begins with the one before it:", "yes" if prefixed else "no")
total_chars, last_chars = sizes["characters"].sum(), sizes["characters"].iloc[-1]
say(f"characters sent over the run: {total_chars}; in its last request alone: {last_chars}")

# %% [markdown]
# A run of n steps sends its first message n times, its first tool call n - 1 times, and so
# on: what it sends in all grows with the square of its length, while the steps grow one at
# a time. The token rule writes this as 22 tokens for each call in the re-sent trace, paid
# again at each step.
#
# Real services soften this. Since each request begins with the one before it, a provider
# can keep that prefix and skip reading it again. OpenAI's guide "Prompt caching"
# (https://platform.openai.com/docs/guides/prompt-caching) describes a cache applied on its
# own to a prompt's repeated prefix, with cached input tokens billed at a discount;
# Anthropic's page "Prompt caching"
# (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching) has the caller mark
# the prefix to cache with `cache_control`. A cache changes the price of the re-sent trace,
# not its length: each request still carries the whole trace, and it still counts against
# the model's context window. The simulator prices no cache: the re-sent trace is paid in
# full.
#
# ### The pick rule as a line
#
# The next cell draws `selection(d)` as a line, and, dashed, the share of right picks one
# should *expect* once lucky random picks are counted: `selection(d) + (1 - selection(d)) / 5`.
# The tasks reach positions 1 to 4 only (shaded); further out the rule hits its floor.

# %%
shares = pd.DataFrame(
    {
        "depth": range(1, 9),
        "selection(d)": [round(sim.selection(d), 4) for d in range(1, 9)],
        "expected with luck": [round(sim.expected_right_share(d), 4) for d in range(1, 9)],
    }
)
print(shares.to_string(index=False))
path = figures.save_figure(figures_single_loop.draw_selection_rule(), "01_single_loop-selection")
display(Image(filename=path))

# %% [markdown]
# ### Is the fall a halving?
#
# This course is built on a written lesson about the planner and executor, the source of
# lesson 2's rules. It opens by recalling that at the fourth step the share of right picks
# was "cut in half". Runs A and B cannot test that: their depth-4 points rest on 6 picks
# each. The pooled table can. The cell divides its depth-4 share by its depth-1 share, and
# sets beside it that ratio by the rule (lucky picks counted, as in the measurement) and the
# ratio of the draw alone.

# %%
first, fourth = pooled.iloc[0], pooled.iloc[3]
shown = f"{fourth['share']:.4f} / {first['share']:.4f} = {fourth['share'] / first['share']:.4f}"
say(f"pooled over {len(POOLED)} seeds, depth 4 / depth 1: {shown} ({int(fourth['picks'])} picks at depth 4)")
lucky = (sim.expected_right_share(4), sim.expected_right_share(1))
say(f"expected, lucky picks counted: {lucky[0]:.3f} / {lucky[1]:.2f} = {lucky[0] / lucky[1]:.4f}")
draw_only = f"{sim.selection(4):.2f} / {sim.selection(1):.2f} = {sim.selection(4) / sim.selection(1):.4f}"
say(f"the draw alone, lucky picks not counted, selection(4) / selection(1): {draw_only}")

# %% [markdown]
# Pooled, the depth-4 share is 0.7200 of the depth-1 share, against 0.7429 by the rule with
# lucky picks counted; even the draw alone keeps 0.6625 of its first share. None of these
# ratios is near one half: in this model the fourth position costs right picks far less
# than a halving.
#
# ### Two switches, measured
#
# The single loop has two switches. Each is measured on the same runs as the plain loop.
# Both are given by the model's rules, and neither changes a draw, so what they change
# follows from the rules, and holds on every seed, not only on these two.
#
# With [self-critique](../GLOSSARY.md#self-critique) on, the agent reflects on every tool error, which costs 40 tokens an
# error.

# %%
critique = [measure("single-loop", seed, BUDGET, self_critique=True) for seed in SEEDS]
say("with self-critique (the plain loop's rows are the measurement's table above):")
print(format_table(seed_table(critique)))
for plain, crit in zip(single, critique, strict=True):
    added = f"+{crit.tokens - plain.tokens} = {costs.SELF_CRITIQUE_TOKENS} x {plain.errors} tool errors"
    say(f"run {sim.run_label(plain.seed)}: tokens {added}")
same = [
    sum(
        sim.run_single_loop(t, seed, BUDGET).trace
        == sim.run_single_loop(t, seed, BUDGET, self_critique=True).trace
        for t in sim.TASKS
    )
    for seed in SEEDS
]
say(
    f"tasks whose trace is the same with and without self-critique: {same[0]} and {same[1]} of {len(sim.TASKS)}"
)

# %% [markdown]
# Self-critique adds 320 tokens on run A and 280 on run B, 40 tokens for each of the 8 and
# 7 tool errors, and changes nothing else: success, steps, tool calls and tool errors are
# those of the plain loop. That is the model, not a finding about reflection: in this
# simulator self-critique is a token cost and changes no draw, so all 24 traces are the
# same on both runs. A self-critique that changed the next pick would need a rule of its
# own (lesson 8 has one).
#
# With [approval](../GLOSSARY.md#approval) on, every call to a side-effecting tool asks a human for approval before it
# runs. `write_record` is the only such tool. How many calls would ask, and were they calls
# the task wanted?

# %%
from sim.measurement.traces import side_effect_calls

approval = [measure("single-loop", seed, BUDGET, approval=True) for seed in SEEDS]
units = ("solved", "steps", "calls", "tokens", "errors")
unchanged = all(
    [getattr(a, u) for u in units] == [getattr(p, u) for u in units]
    for a, p in zip(approval, single, strict=True)
)
rows = []
for seed, m in zip(SEEDS, approval, strict=True):
    calls = side_effect_calls(seed, BUDGET)
    stray = calls[~calls["asked_for_record"]]
    rows.append(
        {
            "run": sim.run_label(seed),
            "approvals asked": m.approvals,
            "in record tasks": int(calls["asked_for_record"].sum()),
            "write_record where no record was asked": len(stray),
            "of which wrote a value": int((~stray["error"]).sum()),
            "of which failed (tool error)": int(stray["error"].sum()),
        }
    )
print(pd.DataFrame(rows).T.to_string(header=False))
print()
print(readable(side_effect_calls(SEED_A, BUDGET)).to_string(index=False))
g23 = sim.run_single_loop("G23", SEED_A, BUDGET)
say(
    "G23, run A, each call and what it leaves held: "
    + " -> ".join(f"{c.tool} {'nothing' if c.held is None else c.held}" for c in g23.trace)
)
print()
say(
    "success, steps, tool calls, tokens and tool errors with approval: "
    + ("as without it, on both runs" if unchanged else "not as without it")
)

# %% [markdown]
# Approval changes none of the counted units: success, steps, tool calls, tokens and tool
# errors are as without it, on both runs. What it adds is a checkpoint. On run A, 7 calls
# ask for approval, and 4 of them are `write_record` calls in tasks that never asked for a
# record; on run B, 9 and 6. Of those unwanted writes, 2 on run A and 5 on run B had a
# value to write and went through: a document code or a consumption, written into a
# subscriber's record by a task that asked for no write. The listing of run A shows one more kind of damage: G23, a record task, writes
# TR01, a document code, into the record, because a stray `search_docs` overwrote the
# answer it held; it is run A's unsolved task. In this simulator an approval is only
# counted; nobody refuses, so the stray writes still happen. What refusing them would save
# is a question for a rule the simulator does not have (lesson 8's reviewer is one).
#
# ### The model and the scaffolding, in full
#
# The core drew the line in a few words; here it is as `sim` holds it, with the rules
# lesson 2 adds on the model's side (the planner knows how long its plan must be, AA29; when
# the plan runs out with the job not done, the executor turns to the single loop's rule, which
# reads the job's progress, AA27). A scaffold also sees what a harness tells
# an agent of its run (the seed and the task's id). The cell prints the line, with what a
# policy of your own is handed at each step (lesson 6). The model's figures say nothing
# about your model; what carries over is what a scaffold does to the counted units, and
# the way of measuring.

# %%
from dataclasses import fields

from sim.engine.policy import Observation

line = pd.DataFrame(
    [
        ("model (given)", "right pick with share selection(d)", "sequence, progress"),
        ("model (given)", f"once the job is done, stop with share {picks.STOP_SHARE}", "progress"),
        ("model, lesson 2", "AA29: the plan is as long as the sequence", "sequence length"),
        ("model, lesson 2", "AA27: the executor turns to the loop's rule", "progress"),
        ("scaffolding, lesson 3", "stop rule, budget rule, goal test, router", "observations"),
        ("scaffolding, lesson 4", "validator, exit state", "observations"),
        ("scaffolding, lesson 6", "a policy you write", "observations"),
    ],
    columns=["part", "rule", "reads"],
)
print(line.to_string(index=False))
say("a policy is handed, at each step: " + ", ".join(field.name for field in fields(Observation)))

# %% [markdown]
# With the task's name, `task_name`, a policy could look its answer up in `sim`'s tables.
# The harness, like a benchmark's, trusts the entrant not to; the course's own scaffolds
# and policies do not, and a test, `tests/test_honest_scaffolding.py`, holds those in `sim`'s
# engine, chat bridge and harness to it. It reads their source and fails if a function that is not one of the model's rules (listed there
# by their codes) reads a task's sequence, its kind or its correct answer, or if anything
# but the chat policy reads `task_name` (which that policy only sends, to name the run to
# the course's endpoint). Scoring alone reads the answer.
#
# ### The rest of the world
#
# One record: the subscriber of task G05, the task lesson 2 walks through, and its charge
# worked band by band.

# %%
g05 = sim.TASKS[sim.TASK_NAMES.index("G05")]
record = sim.SUBSCRIBERS[g05.subscriber]
m3 = world.consumption_m3(record.previous, record.current)
say(
    f"{g05.subscriber}: {record.region}, {record.customer_type}, readings {record.previous} -> {record.current}"
)
say(f"consumption: {record.current} - {record.previous} = {m3} m3")
remaining, lower, lines = m3, 0, []
for upper, price in (*world.TARIFF_BANDS, (None, world.ABOVE_LAST_BAND)):
    in_band = remaining if upper is None else min(remaining, upper - lower)
    if in_band > 0:
        lines.append((in_band, price))
        remaining -= in_band
    lower = upper
worked = " + ".join(f"{n} x {p}" for n, p in lines)
print(worked, "=", sum(n * p for n, p in lines), f"({record.customer_type})")
say(f"sim.charge({m3}, {record.customer_type!r}) = {sim.charge(m3, record.customer_type)}")
say(f"the same {m3} m3 for a commercial subscriber: {sim.charge(m3, 'commercial')}")

# %% [markdown]
# The documents, and what `search_docs` finds for one request of each kind, with the
# overlap (shared word pieces of at most 5 letters) against each document. The document
# request finds SY01, the rollover rule, which is its right answer; the others find TR02,
# TR01 and TR01.

# %%
from sim.model import draws

print(
    pd.DataFrame({"code": list(world.DOCUMENTS), "text": list(world.DOCUMENTS.values())}).to_string(
        index=False
    )
)
print()
rows = []
for kind in ("charge", "consumption", "document", "record"):
    request = next(task.request for task in sim.TASKS if task.kind == kind)
    wanted = set(draws.tokenize(request))
    overlaps = {code: len(wanted & set(draws.tokenize(text))) for code, text in world.DOCUMENTS.items()}
    found = world.search_docs(query=request)
    rows.append(
        {"kind": kind, "request": request, **overlaps, "found": found.get("code", found.get("error"))}
    )
print(pd.DataFrame(rows).to_string(index=False))

# %% [markdown]
# A meter counts up to 99999 and then starts again at 0. When the current reading is *below*
# the previous one, the meter has rolled over, and the consumption is the difference plus
# 100000; the `consumption` tool applies this rule. Worked through for a meter that read
# 99990 last period and reads 25 now:

# %%
previous, current = 99990, 25
say(f"a meter counts from 0 to {world.ROLLOVER - 1}")
say(f"difference: {current} - {previous} = {current - previous}")
rolled_up = current - previous + world.ROLLOVER
say(f"rolled over, so add {world.ROLLOVER}: {current - previous} + {world.ROLLOVER} = {rolled_up}")
say(f"the consumption tool says: {world.consumption(previous=previous, current=current)}")
rolled = sum(s.current < s.previous for s in sim.SUBSCRIBERS.values())
say(f"subscribers in the world whose meter rolled over this period: {rolled}")

# %% [markdown]
# No subscriber's meter rolls over in this world (the cell counts 0): the rule is there,
# and a document describes it, but no task's answer depends on it. Last, the tariff as a
# line: the charge against consumption for both customer types; the dashed lines are the
# price band edges, where the line gets steeper.

# %%
path = figures.save_figure(figures_single_loop.draw_tariff(), "01_single_loop-tariff")
display(Image(filename=path))

# %% [markdown]
# ### Further exercises
#
# 5. Turn **self-critique** on in the panel and change the seed a few times. Is the token
#    difference always 40 times the tool errors? Can success ever change, given the rule?
# 6. Turn **approval** on and press **new seed** several times. Does any run come without
#    an unwanted write? Are the unwanted writes usually more or fewer than the wanted ones,
#    which come from the 3 record tasks?
# 7. **A clean run, from the pick rule.** The check cell prints the tasks your seed names.
#    Compute the chance that the single loop calls exactly each task's sequence, with no
#    wrong call before the job is done, on both of them at one seed, and put it in
#    `my_chance`, unrounded. Stopping is not required: what the agent does once the job is
#    done does not count. Compare it with the planner's chance in lesson 2.

# %%
my_chance = None  # the chance that both your tasks run without a wrong call
say(f"exercise 7, your tasks: {', '.join(exercises.clean_tasks(MY_SEED))}")
print(exercises.check_clean_chance(MY_SEED, my_chance))
