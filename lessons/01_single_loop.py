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
#   token cost grows faster than its steps;
# - judge a switch ([self-critique](../GLOSSARY.md#self-critique), [approval](../GLOSSARY.md#approval)) with a two-run verdict, and check it against
#   many [seeds](../GLOSSARY.md#seed).
#
# **It assumes:** Python and pandas at the level of reading a DataFrame; no knowledge of
# agents or language models. **Time:** about an hour and a half. Terms in links are
# explained in the course [glossary](../GLOSSARY.md).
#
# Nothing here calls a model, a tool server or a network: the "model" is a rule and a
# seeded [draw](../GLOSSARY.md#draw), in the small fictional world every lesson runs in. Every figure in this text
# is printed by a cell of this notebook, and CI fails if the two ever part. We start with
# the versions of the libraries whose output the stored cells depend on, and with the
# lesson's two runs (each run is the 24 tasks at one [seed](../GLOSSARY.md#seed)) and its
# [step budget](../GLOSSARY.md#step-budget).

# %%
import ipywidgets
import matplotlib
import pandas as pd
from IPython.display import Image, display

import sim
from sim.engine import loops
from sim.measurement.bands import band_verdict, compare_setups
from sim.measurement.counts import measure
from sim.measurement.traces import depth_picks, recovery_task, side_effect_calls
from sim.model import costs, draws, picks, world
from sim.presentation import figures, figures_single_loop
from sim.presentation.screen import readable, say
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
# flowchart LR
#     job["task: the user's request"] --> pick
#     pick{"pick: which tool next,<br/>or stop?"} -- "a tool" --> act["call the tool with<br/>fields from the state"]
#     act --> observe["observe: write the result<br/>into the state and the trace"]
#     observe -- "next step: the whole trace is sent again" --> pick
#     pick -- "stop" --> answer["answer: the result the agent holds"]
#     budget["step budget spent"] -.-> answer
# ```
#
# After each tool call the loop goes back to its one decision, and each time it sends the
# whole trace so far. The pattern was named by
# [ReAct: Synergizing Reasoning and Acting in Language Models](https://arxiv.org/abs/2210.03629)
# (Yao et al., 2022), where a language model writes a thought and an action at
# each step and reads the tool's observation before the next. Our simulator keeps the
# loop's shape and replaces the language model by a seeded rule.
#
# Here is the loop at work on one task before we look at the world it runs in. The task is
# chosen by code (the rule is given with the walk-through below): [run A](../GLOSSARY.md#run), `G03`, asks for a
# subscriber's water consumption.

# %%
first_run = sim.run_single_loop(recovery_task(SEED_A, BUDGET), SEED_A, BUDGET)
say(format_trace(first_run))

# %% [markdown]
# The agent needed 2 tools, `read_meter` then `consumption`, and made 3 calls: one of them
# was the wrong tool, failed with a tool error, and still cost a step and its tokens.
# A real agent can fail this way too, by calling a tool before it holds what the tool needs; the
# rest of the lesson takes such runs apart. First, the world the tasks are about.

# %% [markdown]
# ## The world, as a student meets it
#
# ### Subscribers
#
# The world is a water network's subscriber records. Each subscriber has a region, a
# customer type (residential or commercial) and two meter readings in m3: the previous one
# and the current one. The world is built once and never changes; the seed of a run moves
# only the agent's [draws](../GLOSSARY.md#draw) (the seeded random numbers behind its
# choices), never the world.

# %%
subscribers = pd.DataFrame(
    [
        {
            "subscriber": code,
            "region": s.region,
            "type": s.customer_type,
            "previous": s.previous,
            "current": s.current,
        }
        for code, s in sim.SUBSCRIBERS.items()
    ]
)
say(f"{len(subscribers)} subscribers in {subscribers['region'].nunique()} regions")
print(subscribers["type"].value_counts().rename_axis("type").reset_index().to_string(index=False))
used = subscribers["current"] - subscribers["previous"]
say(f"m3 used this period: from {used.min()} to {used.max()}")

# %% [markdown]
# Here is one record: the subscriber of task G05, the task lesson 2 walks through. Its
# consumption is the current reading minus the previous one.

# %%
g05 = sim.TASKS[sim.TASK_NAMES.index("G05")]
record = sim.SUBSCRIBERS[g05.subscriber]
print(subscribers[subscribers["subscriber"] == g05.subscriber].to_string(index=False))
m3 = world.consumption_m3(record.previous, record.current)
say(f"consumption: {record.current} - {record.previous} = {m3} m3")

# %% [markdown]
# ### The tiered tariff
#
# Water is charged in price bands (not to be confused with the [run-to-run band](../GLOSSARY.md#band) of the
# band rule, below): the first 10 m3 at 4 a cubic metre, the next ones up to 25 m3
# at 7, up to 40 m3 at 11, and every m3 above 40 at 16. A commercial subscriber pays
# 2 times the residential charge. The table prints the bands from `sim`; the cell after it
# charges the G05 subscriber's 55 m3 band by band.

# %%
lower, bands = 0, []
for upper, price in world.TARIFF_BANDS:
    bands.append({"band (m3)": f"{lower + 1}..{upper}", "unit price": price})
    lower = upper
bands.append({"band (m3)": f"above {lower}", "unit price": world.ABOVE_LAST_BAND})
print(pd.DataFrame(bands).to_string(index=False))
say(f"{len(bands)} bands; commercial factor: {world.COMMERCIAL_FACTOR}")

# %%
remaining, lower, lines = m3, 0, []
for upper, price in (*world.TARIFF_BANDS, (None, world.ABOVE_LAST_BAND)):
    in_band = remaining if upper is None else min(remaining, upper - lower)
    if in_band > 0:
        lines.append((in_band, price))
        remaining -= in_band
    lower = upper
print(
    " + ".join(f"{n} x {p}" for n, p in lines), "=", sum(n * p for n, p in lines), f"({record.customer_type})"
)
say(f"sim.charge({m3}, {record.customer_type!r}) = {sim.charge(m3, record.customer_type)}")
say(f"the same {m3} m3 for a commercial subscriber: {sim.charge(m3, 'commercial')}")

# %% [markdown]
# ### The documents and `search_docs`
#
# There are 5 short documents (in the fictional network's own language). `search_docs`
# cuts the request and each document into word pieces of at most 5 letters and returns
# the document sharing the most pieces with the request (the first one on a tie); it
# fails only when no piece is shared.

# %%
documents = pd.DataFrame({"code": list(world.DOCUMENTS), "text": list(world.DOCUMENTS.values())})
print(documents.to_string(index=False))
say(f"{len(documents)} documents")

# %% [markdown]
# What does `search_docs` find for the requests of the tasks? One request of each kind
# below, with the overlap (shared word pieces) against each document. The document request
# finds SY01, the rollover rule, which is its right answer. But every other request finds
# *something* as well (the cell counts 0 tasks whose request matches nothing): a
# `search_docs` call made by mistake never fails, it quietly puts a document code where
# the agent keeps its answer.

# %%
rows = []
for kind in ("charge", "consumption", "document", "record"):
    request = next(task.request for task in sim.TASKS if task.kind == kind)
    wanted = set(draws.tokenize(request))
    overlaps = {code: len(wanted & set(draws.tokenize(text))) for code, text in world.DOCUMENTS.items()}
    found = world.search_docs(query=request)
    rows.append(
        {
            "kind": kind,
            "request": request,
            **overlaps,
            "found": found.get("code", found.get("error")),
        }
    )
print(pd.DataFrame(rows).to_string(index=False))
unmatched = sum("error" in world.search_docs(query=task.request) for task in sim.TASKS)
say(f"tasks whose request search_docs cannot match: {unmatched} of {len(sim.TASKS)}")

# %% [markdown]
# ### The tools
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
tools = pd.DataFrame(
    [
        {
            "tool": t.name,
            "fields": ", ".join(t.fields),
            "side effect": "yes" if t.side_effect else "no",
            "returns": returns[t.name],
        }
        for t in sim.TOOLS.values()
    ]
)
print(tools.to_string(index=False))
say(f"{len(tools)} tools, {sum(t.side_effect for t in sim.TOOLS.values())} with a side effect")

# %% [markdown]
# ### The tasks
#
# There are 24 tasks, G01 to G24, in 4 kinds. Each kind is solved by one known [tool
# sequence](../GLOSSARY.md#tool-sequence), from 1 tool (find the rollover document) to 4 tools (read, compute, charge,
# and write the charge into the record). Only the record tasks reach the fourth position
# of a sequence, and there are few of them.

# %%
kinds = pd.DataFrame(
    [
        {"kind": t.kind, "sequence": " -> ".join(t.sequence), "length": len(t.sequence), "task": t.name}
        for t in sim.TASKS
    ]
)
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
# 1. **Pick.** If the job is done, the agent should stop, and it does with a fixed chance;
#    otherwise (or if it fails to stop) it picks a tool. The pick is right with the share
#    [`selection(d)`](../GLOSSARY.md#selection), where `d` is the position of the sequence it has reached; otherwise
#    it is one of the 5 tools at random.
# 2. **Call** the tool with the fields of its schema taken from the state.
# 3. **Observe.** A tool error leaves the state alone; a good observation is written into
#    it, and a `consumption`, `tariff` or `search_docs` result becomes the answer the
#    agent holds.
# 4. **Move on.** The job advances one position only when the call was the right tool and
#    did not fail (the loop around the step counts it, and stops when the budget is spent).
#
# Here is one step as `sim` runs it (`take_step`, shared with the [split](../GLOSSARY.md#split) of lesson 2: steps 1
# to 3), and the single loop's decision inside it (`single_loop_pick`, whose `right_share` is
# `selection(d)` without the check of its input). The pick aims at the next position of the
# sequence: that is the model's given skill (below). Lesson 3 adds a stopping rule to the step.

# %%
print(code_of(loops.take_step))
print(code_of(picks.single_loop_pick))

# %% [markdown]
# ### One step on the wire
#
# `sim` calls no model. A real agent's step is a request to a chat API, and here is the
# step as that request would travel, in the OpenAI chat-completions format that hosted
# services and local servers (Ollama, vLLM, llama.cpp's server) accept: a system message,
# the user's request, then for each tool call so far an assistant turn holding the call,
# with its arguments as JSON, and a tool turn holding the tool's result. The tools travel
# with the request as function schemas; here is the schema of `tariff`:

# %%
import json

from sim.chat import messages

schemas = {schema["function"]["name"]: schema for schema in messages.tool_schemas()}
say(f"tool schemas sent with each request: {len(schemas)}")
print(json.dumps(schemas["tariff"], indent=1))

# %% [markdown]
# The task this lesson walks through below (chosen there by code), at run A: the messages
# of its last request, sent after its last tool call to ask what comes next. The reply to
# it has no tool call: the agent stops.

# %%
wire = sim.run_single_loop(recovery_task(SEED_A, BUDGET), SEED_A, BUDGET)
sent = messages.requests(wire)
say(f"task {wire.task}: {len(sent)} steps, {len(sent)} requests")
print(messages.format_messages(sent[-1]))

# %% [markdown]
# Each step sends one request, and each request carries the whole trace so far: the step
# after k tool calls sends 2 + 2 x k messages, and each request begins with the one before
# it, word for word. The table puts each request's messages and their length in characters
# beside what the simulator's token rule charges for the request and for the whole step, its
# observation included. The rule's code in the source lesson is
# [AA28](../GLOSSARY.md#rule-codes), and its words: a step costs 60 + 22 x trace length.

# %%
sizes = messages.request_sizes(wire)
print(readable(sizes).to_string(index=False))
print("a request after k tool calls: 2 + 2 x k messages")
print(
    "each request begins with the one before it:",
    "yes" if all(b[: len(a)] == a for a, b in zip(sent, sent[1:], strict=False)) else "no",
)
say(f"characters sent over the run: {sizes['characters'].sum()}; in its last request alone: "
               f"{sizes['characters'].iloc[-1]}")  # fmt: skip

# %% [markdown]
# Why does cost grow faster than the number of steps? A run of n steps sends its first
# message n times, its first tool call n - 1 times, its second n - 2 times, and so on: what
# it sends in all grows with the square of its length, while the steps grow one at a time.
# AA28 writes this as 22 tokens for each call in the re-sent trace, paid again at each step.
#
# Real services soften this. Since each request begins with the one before it, a provider
# can keep that prefix and skip reading it again. OpenAI's guide "Prompt caching"
# (https://platform.openai.com/docs/guides/prompt-caching) describes a cache applied on its
# own to a prompt's repeated prefix, with cached input tokens billed at a discount;
# Anthropic's page "Prompt caching"
# (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching) has the caller mark
# the prefix to cache with `cache_control`. A cache changes the price of the re-sent trace,
# not its length: each request still carries the whole trace, and it still counts against
# the model's context window. The simulator's rule prices no cache: the re-sent trace is
# paid in full.

# %% [markdown]
# ### The rules, in figures
#
# The loop's constants, printed from `sim` so the text and the simulator cannot drift apart.
# The [draw](../GLOSSARY.md#draw) that takes the right tool succeeds with share 0.8 at the first position, and that
# share falls by 0.09 with every position, down to a floor of 0.34. A missed draw picks one of
# the 5 tools at random and lands on the right one 1 time in 5, so the share of right picks
# is a little higher than the draw's: 0.84 at the first position. An agent whose job is done stops with chance 0.88 at
# each step. Token accounting: a step costs 60 + 22 x trace length, because the step
# re-sends the whole trace so far; every observation costs 30; with self-critique on, every
# tool error costs 40 more.

# %%
rules = pd.DataFrame(
    [
        (
            "draw that takes the right tool at position d, selection(d)",
            f"max({picks.SELECTION_FLOOR}, {picks.SELECTION_START} - {picks.SELECTION_DROP} x (d - 1))",
        ),
        (
            "a wrong draw picks one of the tools at random",
            f"{len(sim.TOOL_NAMES)} tools, right by luck with share 1/{len(sim.TOOL_NAMES)}",
        ),
        (
            "right picks at position d, lucky picks counted",
            f"selection(d) + (1 - selection(d)) / {len(sim.TOOL_NAMES)}",
        ),
        ("right picks at position 1", f"{sim.expected_right_share(1):.2f}"),
        ("chance that a finished agent stops, each step", f"{picks.STOP_SHARE}"),
        (
            "single-loop step (tokens)",
            f"{costs.LOOP_STEP_TOKENS} + {costs.LOOP_TOKENS_PER_CALL} x trace length",
        ),
        ("observation (tokens)", f"{costs.OBSERVATION_TOKENS}"),
        ("self-critique, per tool error (tokens)", f"{costs.SELF_CRITIQUE_TOKENS}"),
        ("step budget (steps)", f"{BUDGET}"),
    ],
    columns=["rule", "value"],
)
print(rules.to_string(index=False))

# %% [markdown]
# The next cell draws `selection(d)` as a line. Because a wrong draw still picks a random tool, 1 time in 5 it
# lands on the right one by luck; the share of right picks one should *expect* is
# therefore `selection(d) + (1 - selection(d)) / 5`, the dashed line. The tasks reach
# positions 1 to 4 only (shaded); further out the rule hits its floor.

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
# ### One task, step by step
#
# Which task to walk through is chosen by code, not by hand: the first task whose run A
# shows a wrong pick past the first position that drew a tool error, and that still
# recovered, stopped on its own and ended with the right answer.

# %%
chosen = recovery_task(SEED_A, BUDGET)
walk = sim.run_single_loop(chosen, SEED_A, BUDGET)
walk_steps = sim.loop_steps(walk)
say(f"chosen: {chosen}")
print(loop_step_table(walk_steps).to_string(index=False))

# %% [markdown]
# G03 asks for a subscriber's consumption: `read_meter`, then `consumption`. Step 1 picks
# `read_meter`, right. At step 2 the agent is at depth 2 and should pick `consumption`,
# but it picks `tariff`. That is a tool error: there is no m3 in the state yet. The job
# does not move on, so step 3 aims at the same position again, picks `consumption`, and the
# answer 52 is in hand. Step 4 finds the job done and stops. The wrong pick cost one step
# and 112 tokens, and every step after it costs 22 tokens more than it would have, because
# the failed call stays in the trace that every later step re-sends.
#
# ## The model and the scaffolding
#
# Before the first measurement, a line the whole course keeps. The simulator has two kinds
# of rule. The **model's rules** stand in for a language model's skill, and they are given
# by the source lesson's rules, not found by measuring: the model picks the right tool with
# share `selection(d)`, and once the job is done it stops with share 0.88. In lesson 2 the
# planner knows how long its plan must be (AA29), and when the plan runs out with the job
# not done the executor turns to the single loop's rule, which reads the job's progress
# (AA27). These rules may read the task itself: its tool sequence and how far along it is.
#
# The **scaffolding** is what the course builds around the model and studies: a stop rule,
# a budget rule, a goal test, an exit state, a router, a validator, a policy you write. A
# scaffold sees only what a real agent would see: the request, its own plan, the
# observations and the fields the tools returned, its own counts of steps, calls and
# tokens, and what a harness tells an agent of its run (the seed and the task's id). The cell
# prints the line from `sim`, with what a policy of your own is handed at each step (lesson 6).

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
# A test, `tests/test_honest_scaffolding.py`, holds the line: it reads the engine's source and
# fails if a function that is not one of the model's rules (listed there by their codes)
# reads a task's sequence, its kind or its correct answer. Scoring alone reads the answer.
#
# What carries over to real agents follows from the line. The model's figures (its pick
# shares, the 0.88, the token prices) are this simulator's, written to mimic a loop; they
# say nothing about your model. In this course only two things carry over: what a scaffold
# does to the counted units, with the reason for it, to be measured again on your own
# agent; and the methods of measuring.
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
# record task, G23 on run A and G15 on run B. It takes 97 and 98 steps, makes 74 tool calls
# on each run, spends 11978 and 11994 tokens, and makes 8 and 7 tool errors.
#
# What this means: a success share on its own hides how a loop got there. Two runs with an
# equal share can differ in steps, tokens and tool errors, and for a real agent those are
# what a user waits for and pays for. That is why the course counts all of them, and the
# next sections take them apart.
#
# ## Depth: the deeper the position, the fewer right picks
#
# Every step that aims at a position of the sequence is a pick at that depth: a pick at
# depth d is a step whose target was the d-th tool (d - 1 positions already done). It is
# right when the tool called is that target, lucky random picks included. `depth_picks`
# counts these from the traces of the 24 runs; the table sets the measured share beside
# the model line `selection(d)` and the share expected once luck is counted.

# %%
depth = {sim.run_label(seed): depth_picks(seed, BUDGET) for seed in SEEDS}
for label, table in depth.items():
    say(f"run {label}")
    print(table.round(4).to_string(index=False))
record_tasks = sum(task.kind == "record" for task in sim.TASKS)
say(f"tasks that reach depth 4: {record_tasks} (the record tasks)")

# %%
path = figures.save_figure(figures_single_loop.draw_depth_shares(depth), "01_single_loop-depth")
display(Image(filename=path))

# %% [markdown]
# How far does the share fall by the fourth position? The cell compares depth 4 with depth 1,
# per run, for the measurement and for the model.

# %%
for label, table in depth.items():
    first, fourth = table.iloc[0], table.iloc[3]
    ratio = fourth["share"] / first["share"]
    say(f"run {label}: depth 1 {first['share']:.4f} ({first['right']:.0f}/{first['picks']:.0f}) -> depth 4 "
                   f"{fourth['share']:.4f} ({fourth['right']:.0f}/{fourth['picks']:.0f}); depth 4 / depth 1 = {ratio:.4f}, "
                   f"a fall of {100 * (1 - ratio):.1f} %")  # fmt: skip
say(f"model: selection(4) / selection(1) = {sim.selection(4):.2f} / {sim.selection(1):.2f} = "
               f"{sim.selection(4) / sim.selection(1):.4f}; with luck {sim.expected_right_share(4):.3f} / "
               f"{sim.expected_right_share(1):.2f} = {sim.expected_right_share(4) / sim.expected_right_share(1):.4f}")  # fmt: skip
picks_4 = int(depth["A"].iloc[3]["picks"])
say(f"one right pick more or less at depth 4 moves its share by 1/{picks_4} = {1 / picks_4:.4f}")
for label, table in depth.items():
    gap = (table["share"] - table["expected"]).abs()
    worst = int(gap.idxmax())
    say(f"run {label}: largest gap between measured and expected share {gap[worst]:.3f} at depth "
                   f"{table['depth'][worst]} ({table['picks'][worst]} picks)")  # fmt: skip
step = sim.expected_right_share(1) - sim.expected_right_share(2)
say(f"the expected line falls {step:.3f} from one depth to the next")

# %% [markdown]
# On run A the share of right picks falls from 0.8 at the first position to 0.5 at the
# fourth; on run B from 0.7742 to 0.5. So at the fourth position half of the picks were
# right, on both runs. Measured against the first position, though, the share fell to
# 0.625 and 0.6458 of its value, a fall of 37.5 % and 35.4 %: not a halving. The source lesson
# behind lesson 2 recalls this finding as the share being "cut in half"; the measurement
# does not bear that reading, and neither does the model, whose own ratio is 0.6625.
#
# And the fourth point rests on very little: 6 picks per run, all from the 3 record
# tasks. One pick more or less right would move it by 0.1667. The points at depths 1 and
# 2 rest on 22 to 31 picks. The largest gap between a measured point and the expected line
# is 0.124, at depth 4 on both runs, more than the 0.072 the expected line falls from one
# depth to the next: with 2 runs and so few deep picks, the points say that the share
# falls, not by how much.
#
# What the model predicts becomes visible only with many more picks. The same count,
# pooled over many seeds:

# %%
POOLED = range(200)
pooled = sum(depth_picks(seed, BUDGET)[["picks", "right"]] for seed in POOLED)
pooled["depth"] = depth["A"]["depth"]
pooled["share"] = (pooled["right"] / pooled["picks"]).round(4)
pooled["expected"] = depth["A"]["expected"]
say(f"pooled over {len(POOLED)} seeds (0 .. {POOLED[-1]}), budget {BUDGET}")
pooled["share - expected"] = (pooled["share"] - pooled["expected"]).round(4)
print(pooled[["depth", "picks", "right", "share", "expected", "share - expected"]].to_string(index=False))

# %% [markdown]
# Pooled over 200 seeds, the shares fall at every depth, from 0.8446 at depth 1 to 0.6081
# at depth 4 (934 picks there), and stay within 0.0179 of the expected line, a little
# below it at depths 2 to 4. The penalty is in the model; what 2 runs of 24 tasks can
# show about its size is coarse.
#
# For real agents, take the shape, not the size: the falling share is a rule of this
# simulator, written to mimic a loop that re-decides at each step with a growing history
# to read. Where a real loop behaves like this, each extra position of a job is one extra
# chance to go wrong, and long jobs are where checks and [plans](../GLOSSARY.md#plan) earn their keep. Whether
# your model's picks degrade this way is a question only its own traces can answer.
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
say(
    f"{longest.task}: {longest.tokens} tokens, of which {resent} re-send the trace ({100 * resent / longest.tokens:.1f} %)"
)

# %% [markdown]
# The right panel puts every task's total tokens against its sequence length, with the
# cheapest possible run of each length (every pick right, then a stop step).

# %%
path = figures.save_figure(
    figures_single_loop.draw_growing_trace(long_steps, runs), "01_single_loop-growing-trace"
)
display(Image(filename=path))
rows = []
for length in sorted({len(task.sequence) for task in sim.TASKS}):
    row = {"sequence length": length, "cheapest run": costs.cheapest_loop_tokens(length)}
    for label, task_runs in runs.items():
        tokens = [
            r.tokens for r in task_runs if len(sim.TASKS[sim.TASK_NAMES.index(r.task)].sequence) == length
        ]
        row[f"mean, run {label}"] = round(sum(tokens) / len(tokens), 1)
    rows.append(row)
print(pd.DataFrame(rows).to_string(index=False))
for label, task_runs in runs.items():
    total = sum(r.tokens for r in task_runs)
    resent = sum(costs.LOOP_TOKENS_PER_CALL * s.trace_length for r in task_runs for s in sim.loop_steps(r))
    say(f"run {label}: {resent} of {total} tokens re-send the trace ({100 * resent / total:.1f} %)")

# %% [markdown]
# G15 needs 4 tools but took 8 steps, and its 8 steps cost 1306 tokens; 616 of them, 47.2 %,
# only re-send the trace. A clean run of a 4-tool task costs 640 tokens, and one of 1 tool
# costs 172. Because the step cost grows with the trace, tokens grow faster than steps: each
# wasted step makes every later step dearer. Over all tasks, 32.9 % of run A's tokens and
# 32.5 % of run B's go to re-sending the trace. That is the cost lesson 2's executor
# avoids by carrying a plan instead of the trace.
#
# For a real agent the rule behind this is not an artefact of the simulator: a chat API is
# stateless, so each request carries the conversation so far, and a long run pays for its
# early steps again and again (a prompt cache, as above, lowers the price, not the length).
#
# ## Two switches, measured
#
# The single loop has two switches. Each is measured on the same runs as the plain loop,
# and each difference is judged by the course's
# [band rule](../GLOSSARY.md#band-rule), which lesson 2 then uses throughout: a difference counts as
# **measured** only when, on every run, it exceeds the larger of the two setups' own
# run-to-run differences.
#
# ### Self-critique
#
# With [self-critique](../GLOSSARY.md#self-critique) on, the agent reflects on every tool error, which costs 40 tokens an
# error.

# %%
critique = [measure("single-loop", seed, BUDGET, self_critique=True) for seed in SEEDS]
print(format_table(seed_table(single + critique)))
print("rows 1-2: no switch; rows 3-4: self-critique")
for plain, crit in zip(single, critique, strict=True):
    say(f"run {sim.run_label(plain.seed)}: tokens +{crit.tokens - plain.tokens} = "
                   f"{costs.SELF_CRITIQUE_TOKENS} x {plain.errors} tool errors")  # fmt: skip
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
critique_verdicts = compare_setups(single, critique)
print("the band rule, unit by unit: runs A and B with no switch -> with self-critique")
for v in critique_verdicts:
    say(f"{v.unit}: {v.first} -> {v.second}, band {v.band}: {v.verdict} ({v.note})")

# %% [markdown]
# Self-critique adds 320 tokens on run A and 280 on run B, 40 tokens for each of the 8 and
# 7 tool errors; the band rule says the token difference is measured (the band is 24). It
# does nothing to success: 23 of 24 on both runs, with and without it, and the rule prints
# unmeasured for success, steps, tool calls and tool errors, with no difference at all.
# That is the model, not a finding about reflection: in this simulator self-critique is a
# token cost and changes no draw, so all 24 traces are the same on both runs. A self-critique
# that changed the next pick would need a rule of its own.
#
# ### Approval
#
# With [approval](../GLOSSARY.md#approval) on, every call to a side-effecting tool asks a human for approval before it
# runs. `write_record` is the only such tool. How many calls would ask, and were they calls
# the task wanted?

# %%
approval = [measure("single-loop", seed, BUDGET, approval=True) for seed in SEEDS]
rows = []
for seed, m in zip(SEEDS, approval, strict=True):
    calls = side_effect_calls(seed, BUDGET)
    stray = calls[~calls["asked_for_record"]]
    rows.append({
        "run": sim.run_label(seed), "approvals asked": m.approvals,
        "in record tasks": int(calls["asked_for_record"].sum()),
        "write_record where no record was asked": len(stray),
        "of which wrote a value": int((~stray["error"]).sum()),
        "of which failed (tool error)": int(stray["error"].sum()),
    })  # fmt: skip
approvals = pd.DataFrame(rows)
print(approvals.T.to_string(header=False))
print()
print(readable(side_effect_calls(SEED_A, BUDGET)).to_string(index=False))

# %% [markdown]
# On run A, 7 calls ask for approval, and 4 of them are `write_record` calls in tasks that
# never asked for a record; on run B, 9 and 6. Of those unwanted writes, 2 on run A and 5
# on run B had a value to write and went through: a document code or a consumption
# written where a charge belongs. The listing of run A shows them, and one more kind of
# damage: G23, a record task, writes TR01, a document code, into the record, because a
# stray `search_docs` overwrote the answer it held; it is run A's unsolved task. Approval
# is asked there too, but for a wanted write with a wrong value.
#
# What does the switch cost and what does it change? The band rule, on the counted units
# and on the approvals themselves:

# %%
approval_verdicts = compare_setups(single, approval)
print("the band rule, unit by unit: runs A and B with no switch -> with approval")
asked = band_verdict(
    "approvals", [m.approvals for m in single], [m.approvals for m in approval], label="approvals asked"
)
stray_counts = approvals["write_record where no record was asked"].tolist()
unwanted = band_verdict("approvals", [0, 0], stray_counts, label="approvals for unwanted writes")
for v in (*approval_verdicts, asked, unwanted):
    say(f"{v.unit}: {v.first} -> {v.second}, band {v.band}: {v.verdict} ({v.note})")

# %% [markdown]
# Approval changes none of the counted units: success, steps, tool calls, tokens and tool
# errors are the same on both runs, and the rule prints unmeasured for each. What it adds is
# a checkpoint: 7 and 9 approval requests against none, measured against a band of 2; and
# 4 and 6 of them are for writes nobody asked for, also measured. In this simulator an
# approval is only counted; nobody refuses, so the stray writes still happen. What refusing
# them would save is a question for a rule the simulator does not have.
#
# Two runs are a small sample. Beside each verdict, the cell runs the 3 loops over
# 10,000 seeds (runs A and B are the first 2) and prints the mean [paired difference](../GLOSSARY.md#paired) per run
# with its 95 % [interval](../GLOSSARY.md#interval) (lesson 5 explains such intervals). Both switches are given by the
# rules: neither changes a draw, so every difference but self-critique's tokens is exactly
# zero on every seed.

# %%
from sim.measurement.many_seeds import MANY_SEEDS, beside_many_seeds, many_seed_run

many_plain = many_seed_run(sim.RunConfig("single-loop", BUDGET))
for label, config, verdicts_two in (
    ("self-critique", sim.RunConfig("single-loop", BUDGET, self_critique=True), critique_verdicts),
    ("approval", sim.RunConfig("single-loop", BUDGET, approval=True), approval_verdicts),
):
    beside = beside_many_seeds(verdicts_two, many_plain, many_seed_run(config))
    say(f"{label} minus no switch, {MANY_SEEDS} seeds from {SEED_A}, per run of 24 tasks")
    print(beside.drop(columns="agrees").to_string(index=False))
    say(f"the 2-run verdict agrees on {sum(beside['agrees'] == 'yes')} of {len(beside)} units")

# %% [markdown]
# ## Summary
#
# - The world is fixed and fictional: 60 subscribers, a tariff in 4 bands, 5 documents,
#   5 tools (one with a side effect), 24 tasks in 4 kinds with sequences of 1 to 4 tools.
# - The single loop's draw takes the right tool with share `selection(d)`, falling from 0.8
#   by 0.09 a position; a missed draw is a random tool, right by luck 1 time in 5.
# - At budget 8 it solves 23 of 24 tasks on both runs (0.9583), with 97 and 98 steps, 74
#   tool calls, 11978 and 11994 tokens and 8 and 7 tool errors: lesson 2's single-loop rows.
# - Right picks fall with depth: from 0.8 to 0.5 on run A and from 0.7742 to 0.5 on run B,
#   a fall of 37.5 % and 35.4 %, not a halving; the fourth position rests on 6 picks a run.
# - Every step re-sends the trace: 32.9 % and 32.5 % of all tokens, 47.2 % in the longest run.
# - Self-critique adds 40 tokens a tool error (320 and 280, measured) and changes no
#   outcome in this model. Approval changes no counted unit; it asks 7 and 9 times, 4 and 6
#   of them for writes in tasks that never asked for a record.
#
# ## Exercises
#
# Use the panel below; each question can be answered with its controls.
#
# 1. Press **new seed** several times and watch the depth-4 points. How far do they move
#    from seed to seed, and why do the depth-1 points move so much less?
# 2. Set the budget to 3. Which depths lose picks, which tasks can no longer be solved,
#    and what happens to the depth-4 point?
# 3. Turn **self-critique** on and change the seed a few times. Is the token difference
#    always measured? Can the success verdict ever be anything but unmeasured, given the
#    rule?
# 4. Turn **approval** on and press **new seed** several times. Does any run come without
#    an unwanted write? Are the unwanted writes usually more or fewer than the wanted ones,
#    which come from the 3 record tasks?
# 5. Pick G15 (a record task) in the task picker and find a seed where it fails. Which step
#    spoiled the answer it wrote?
#
# The next two are code you write, checked for a seed of your own. Set `MY_SEED` once (from
# your name, say); the checks compute the answers for that seed and say right or wrong, and
# what is off, never the answer.
#
# 6. **Tokens by hand.** Write `my_tokens(steps, calls)`: the tokens of a plain single-loop
#    run from its steps and tool calls, by the token rule in the rule table. The check runs
#    the loop on the 24 tasks at your seed and compares your count with the run's.
# 7. **A clean run, from the pick rule.** The check cell prints the tasks your seed names.
#    Compute the chance that the single loop calls exactly each task's sequence, with no
#    wrong call before the job is done, on both of them at one seed, and put it in
#    `my_chance`, unrounded. Compare it with the planner's chance in lesson 2.

# %%
from sim.exercises import single_loop as exercises

MY_SEED = 12345  # your seed: any whole number 0 <= MY_SEED < 2**32


def my_tokens(steps, calls): ...  # return the run's tokens


my_chance = None  # exercise 7: the chance that both your tasks run without a wrong call
print(exercises.check_loop_tokens(MY_SEED, my_tokens))
say(f"exercise 7, your tasks: {', '.join(exercises.clean_tasks(MY_SEED))}")
print(exercises.check_clean_chance(MY_SEED, my_chance))

# %% [markdown]
# ## Appendix: two details of the world
#
# Two details the lesson does not need: a rule no task's answer depends
# on, and the tariff drawn as a line.
#
# ### A meter rollover
#
# A meter counts up to 99999 and then starts again at 0. When the current reading is *below*
# the previous one, the meter has rolled over, and the consumption is the difference
# plus 100000. The `consumption` tool applies this rule. Worked through for a meter that
# read 99990 last period and reads 25 now:

# %%
previous, current = 99990, 25
say(f"a meter counts from 0 to {world.ROLLOVER - 1}")
say(f"difference: {current} - {previous} = {current - previous}")
say(
    f"rolled over, so add {world.ROLLOVER}: {current - previous} + {world.ROLLOVER} = {current - previous + world.ROLLOVER}"
)
say(f"the consumption tool says: {world.consumption(previous=previous, current=current)}")
rolled = sum(s.current < s.previous for s in sim.SUBSCRIBERS.values())
say(f"subscribers in the world whose meter rolled over this period: {rolled}")

# %% [markdown]
# No subscriber's meter rolls over in this world (the cell counts 0): the rule is there,
# and a document describes it, but no task's answer depends on it.

# %% [markdown]
# ### The tariff as a line
#
# The charge against consumption for both customer types; the dashed lines are the price
# band edges, where the line gets steeper.

# %%
path = figures.save_figure(figures_single_loop.draw_tariff(), "01_single_loop-tariff")
display(Image(filename=path))

# %% [markdown]
# ## Explore
#
# The panel measures the single loop at a seed (run A) and the next seed (run B): the
# counted units, the two switches with their band-rule verdicts, the depth figure redrawn
# live, and the chosen task's steps. **reset** brings back the lesson's defaults. Its
# output is not part of the checked record.

# %% tags=["nbval-ignore-output"]
from sim.presentation.panel_single_loop import single_loop_panel

panel = single_loop_panel()
panel
