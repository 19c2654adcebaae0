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
# # Lesson 4 · The planner-executor contract
#
# Lesson 2's blind [executor](../GLOSSARY.md#executor) ran a wrong position of its [plan](../GLOSSARY.md#plan) anyway and
# learned only from the failure: G05 paid 3 [tool errors](../GLOSSARY.md#tool-error) for one wrong first position. This
# lesson puts a [**contract**](../GLOSSARY.md#contract) between the [planner](../GLOSSARY.md#planner) and the executor,
# builds each part in `sim/engine/contract.py`,
# and measures it against the [single loop](../GLOSSARY.md#single-loop) and the blind [split](../GLOSSARY.md#split) on the
# same 24 tasks, [seeds](../GLOSSARY.md#seed) and [step budget](../GLOSSARY.md#step-budget). As before, everything is
# **fictional**: no model, no tool server, no network.
#
# **After this lesson you can:**
#
# - write a plan as a [small graph](../GLOSSARY.md#dag) of [steps](../GLOSSARY.md#step) under a schema, and [validate](../GLOSSARY.md#validation) it before any call;
# - follow one task through the contract's parts: [preconditions](../GLOSSARY.md#precondition), the
#   [scratchpad](../GLOSSARY.md#scratchpad), [replanning](../GLOSSARY.md#replanning) with a limit, and
#   [bounds](../GLOSSARY.md#bounds);
# - read a run's [exit state](../GLOSSARY.md#exit-state) and the bound that stopped it, and tell the state a runtime
#   reports from whether the answer was right;
# - measure the contract against both loops, like for like, and say which of its gains rest on
#   what this world gives its validator and replanner for free.
#
# **It assumes:** lessons 1 to 3. **Time:** about an hour for the core; Going further about
# two hours. Terms in links are explained in the course [glossary](../GLOSSARY.md).
#
# A run under the contract, with the rules ([CT1 to CT12](../GLOSSARY.md#rule-codes), stated below) that govern each move:
#
# ```mermaid
# flowchart TD
#     plan["first plan<br/>(CT1 to CT3)"] --> validate(["plan valid?<br/>(CT4)"])
#     validate -- "yes" --> bound(["next call fits<br/>the bounds? (CT11)"])
#     validate -- "no" --> replan(["replans left?<br/>(CT6, CT7)"])
#     bound -- "yes" --> pre(["preconditions<br/>hold? (CT5)"])
#     bound -- "no" --> exit
#     pre -- "yes" --> act["call the tool,<br/>write the scratchpad"]
#     pre -- "no" --> replan
#     act -- "error or<br/>timeout" --> replan
#     act -- "ok" --> done(["plan<br/>complete?"])
#     done -- "no" --> bound
#     done -- "yes" --> exit
#     replan -- "yes: a plan<br/>for the rest" --> validate
#     replan -- "no" --> exit
#     exit["exit state<br/>(CT12)"]
# ```
#
# The plan as a graph of steps is the form LLMCompiler uses to run independent
# [tool calls](../GLOSSARY.md#tool-call) side by side ([Kim et al., 2023](https://arxiv.org/abs/2312.04511)); here the steps run one at
# a time. First the versions, runs, budget and the contract's defaults.

# %%
import ipywidgets
import matplotlib
import pandas as pd
import pydantic

import sim
from sim.engine import contract, plan_schema
from sim.measurement.counts import measure
from sim.measurement.exit_tables import exit_state_frame
from sim.measurement.many_seeds import (
    MANY_SEEDS,
    comparison_text,
    many_seed_run,
    paired_comparison,
    paired_difference,
    t_interval,
)
from sim.model import costs
from sim.presentation import tables
from sim.presentation.progress import progress
from sim.presentation.screen import say, show
from sim.presentation.showcode import code_of
from sim.presentation.tables import format_table, seed_table

pd.reset_option("display")  # tables print the same whatever your own pandas settings
print(
    f"pandas {pd.__version__} | matplotlib {matplotlib.__version__} | ipywidgets {ipywidgets.__version__}"
    f" | pydantic {pydantic.VERSION}"
)
SEED_A, SEED_B = sim.DEFAULT_SEED, sim.DEFAULT_SEED + 1
SEEDS = (SEED_A, SEED_B)
BUDGET = sim.DEFAULT_BUDGET
DEFAULTS = contract.Bounds()
SETUPS = ("single-loop", "plan-execute", "contract")
LOOPS = (("single loop", "single-loop"), ("planner + executor", "plan-execute"))
INITIAL = ("subscriber", "query", "column")  # the fields the scratchpad holds before any call
print(f"run A: seed {SEED_A} | run B: seed {SEED_B} | step budget: {BUDGET} steps for every setup")
print(f"tasks: {len(sim.TASKS)}")
print(
    f"contract defaults: max_steps {DEFAULTS.max_steps}, max_tokens {DEFAULTS.max_tokens}, "
    f"max_seconds {DEFAULTS.max_seconds}, max_replans {DEFAULTS.max_replans}"
)

# %% [markdown]
# ## The contract's model, as rules
#
# The world, the tools and the 24 tasks are the source lesson's; the split's rules
# ([AA22 to AA30](../GLOSSARY.md#rule-codes), listed in lesson 2) still hold for the split. The
# contract adds the rules CT1 to CT12, in short here:
#
# rule | in short
# --- | ---
# CT1, the plan | A goal field and a list of steps, each with a tool, the steps it depends on, and the fields it requires and produces.
# CT2, the first plan | The split's plan for the same task and seed, from the same draws (each position's draw takes the right tool with share 0.8, else a random one), so every run pairs with lesson 2's.
# CT3, around the tools | A step's requires and produces are its tool's contract (the table below).
# CT4, validation | Checks the plan's structure and data flow before any call; a refused plan is a replan event.
# CT5, preconditions | Before each tool call, checks that the scratchpad holds what the step requires.
# CT6, replanning | Writes a sub-plan for the positions that remain, right with the same flat share as before.
# CT7, the replan limit | `max_replans`: a replan event beyond it ends the run.
# CT8, steps | Planner calls and tool calls are steps; the checks are local code and free.
# CT9, CT10, costs | A plan costs 60 + 25 tokens a position, a replan 30 more; a tool call 40 + 10 a call so far, plus 30 for its observation (a loop step: 60 + 22 a call). A planner call takes 5 simulated seconds, a tool call its tool's.
# CT11, bounds | Steps (8), tokens (1000), simulated seconds (22) and replans (2), each checked before a call.
# CT12, the exit state | SUCCESS, PARTIAL_SUCCESS, REPLAN_EXHAUSTED or TIMEOUT, from what the runtime observes.
#
# Each rule in full is in Going further, with its numbers.
#
# The first plan and the replan (CT2, CT6) are the model's given skill, like the source's AA29: the
# planner knows how long a plan must be and, at a replan, how many positions remain (the progress
# count is kept from the task's sequence, which no real runtime holds). The rest is scaffolding a
# runtime could copy.

# %% [markdown]
# Each tool's contract: what it needs in the scratchpad, what it adds, how long it takes,
# and the timeout the planner writes for its step. Every plan's requires and produces come
# from this table.

# %%
tools = pd.DataFrame(
    [
        {
            "tool": name,
            "requires": ", ".join(c.requires),
            "produces": ", ".join(c.produces),
            "seconds": plan_schema.TOOL_SECONDS[name],
            "step timeout": plan_schema.TIMEOUT_FACTOR * plan_schema.TOOL_SECONDS[name],
        }
        for name, c in plan_schema.TOOL_CONTRACTS.items()
    ]
)
show(tools)
print("goal field per kind of task:", ", ".join(f"{kind} {goal}" for kind, goal in plan_schema.GOALS.items()))

# %% [markdown]
# ## The plan under a schema
#
# The schema is two pydantic models, a step and a plan. The plan model checks the structure
# when it is built, so a plan with a duplicate id, an unknown tool or a dependency on a
# missing or later step cannot even be constructed. Going further lists the refusals.

# %%
print(code_of(plan_schema.PlanStep, docstring=True))

# %% [markdown]
# Here is G05's first plan under the contract. It is the split's plan from lesson 2, the same
# 3 tools from the same draws; the planner only wrote what the schema asks around them.

# %%
g05 = contract.run_contract("G05", SEED_A, BUDGET)
g05_split = sim.run_plan_execute("G05", SEED_A, BUDGET)
first_plan = g05.plans[0]
say(f"split's plan   : {' -> '.join(g05_split.plan)}")
say(f"contract's plan: {' -> '.join(step.tool for step in first_plan.steps)}  (goal: {first_plan.goal})")
print(pd.DataFrame([step.model_dump() for step in first_plan.steps]).to_string(index=False))

# %% [markdown]
# ## Validation before execution
#
# G05's first plan is structurally sound, so the schema accepts it. The data-flow check does
# not: its first step calls `tariff`, which requires m3 and type, and at that point neither
# an upstream step nor the scratchpad provides them. In lesson 2 the blind executor called
# `tariff` here and collected a tool error. The contract refuses the plan before any call.

# %%
for problem in plan_schema.validate_plan(first_plan, INITIAL):
    say(f"{problem.kind} at {problem.step}: {problem.message}")
refusal = next(i for i, event in enumerate(g05.events) if event.kind == "refused")
say(f"tool calls made before the refusal: {sum(e.kind == 'call' for e in g05.events[:refusal])}")
first_call = g05_split.trace[0]
say(
    f"lesson 2's split, its first call: {first_call.tool}, {'a tool error' if first_call.error else 'no error'}"
)

# %% [markdown]
# ## In this world validation is an oracle
#
# Before the refusal above is taken for a finding, see what the validator knows here: more
# than a real one would. The cell writes every plan the planner could write for each kind
# of task (5 tools at each position: 5 to the power of the plan's length), wraps each as the
# planner does (CT3) and validates it (CT4). For every kind exactly 1 candidate passes, and
# it is the right plan. So the contract's 0 tool errors (the measurement below), and its
# never calling a wrong tool, hold by construction of the simulator (each tool's fields name
# exactly what the next tool needs), not as a finding about validation. A real validator
# checks types and fields; it cannot tell two tools apart that take and give the same fields.

# %%
import itertools

for kind, goal in plan_schema.GOALS.items():
    task = next(t for t in sim.TASKS if t.kind == kind)
    candidates = list(itertools.product(sim.TOOL_NAMES, repeat=len(task.sequence)))
    plans = {tools: plan_schema.plan_from_tools(tools, goal, INITIAL) for tools in candidates}
    passing = [tools for tools, plan in plans.items() if not plan_schema.validate_plan(plan, INITIAL)]
    right = "yes" if passing == [task.sequence] else "no"
    say(f"{kind}: {len(candidates)} candidate plans, {len(passing)} pass validation, the right plan: {right}")

# %% [markdown]
# ## Preconditions during execution
#
# Validation trusts what each step says it produces; a tool can return something else, so the
# executor checks each step's required fields against the scratchpad before every call. In
# this world every tool produces what its contract says, so a plan that passes validation
# never fails a precondition. To see the check work, a plan whose first step *claims*
# `read_meter` produces m3: validation accepts it, the precondition check stops the second step
# before its call, and the replan writes a sub-plan for the 2 positions that remain.

# %%
claims_m3 = plan_schema.plan_from_tools(("read_meter", "tariff"), "amount", INITIAL).model_dump()
first_step = claims_m3["steps"][0]
first_step["produces"] = [*first_step["produces"], "m3"]  # a field its tool does not produce
print("validation:", plan_schema.validate_plan(claims_m3, INITIAL) or "accepted")
lying = contract.run_contract("G05", SEED_A, BUDGET, first_plan=claims_m3)
print(tables.format_events(lying))

# %% [markdown]
# ## Replanning
#
# The refusal is a replan event. The replanner sees the scratchpad (nothing done yet) and the
# error (step s1 lacks m3 and type). It writes a new plan for the 3 positions that remain,
# each right with the same flat share as before, from the same draw stream; this time all
# 3 are right, the plan passes validation and runs. The log shows each event with the steps,
# tokens and simulated seconds spent so far.

# %%
print(tables.format_events(g05, width=100))
replan = next(e for e in g05.events if e.kind == "replan")
plan_event = g05.events[0]
say(
    f"the replan cost 1 step, {replan.tokens - plan_event.tokens} tokens and "
    f"{replan.seconds - plan_event.seconds} simulated seconds"
)

# %% [markdown]
# ## Bounds and exit states
#
# Before every call the contract checks that the call fits the bounds, so no bound is ever
# exceeded; then CT12 decides the exit state from what the runtime observed. The exit state
# never reads the right answer: a runtime does not have it. So an exit state is a claim, and
# whether the answer was right (the original success measure) is a second column beside it:
# a [**silent failure**](../GLOSSARY.md#silent-failure) is a run reported SUCCESS with a wrong
# answer, a [**false alarm**](../GLOSSARY.md#false-alarm) a run reported otherwise with the
# right one. One constructed case per state:

# %%
record_task = next(task for task in sim.TASKS if task.kind == "record")
right_plan = plan_schema.plan_from_tools(sim.check_task("G05").sequence, "amount", INITIAL)
record_plan = plan_schema.plan_from_tools(record_task.sequence, "written", INITIAL)
constructed = {
    "G05, its own first plan": dict(task="G05"),
    "G05, right plan, max_steps 3": dict(task="G05", max_steps=3, first_plan=right_plan),
    f"{record_task.name}, right plan, max_steps 4": dict(
        task=record_task.name, max_steps=4, first_plan=record_plan
    ),
    "G05, its own first plan, max_replans 0": dict(task="G05", max_replans=0),
    "G05, right plan, max_steps 2": dict(task="G05", max_steps=2, first_plan=right_plan),
    "G05, right plan, max_tokens 205": dict(task="G05", max_tokens=205, first_plan=right_plan),
    "G05, right plan, max_seconds 7": dict(task="G05", max_seconds=7, first_plan=right_plan),
}
shown = ("exit_state", "stop_reason", "correct", "steps", "tokens", "seconds", "replans")
rows = []
for case, kwargs in constructed.items():
    run = contract.run_contract(kwargs.pop("task"), SEED_A, **{"max_steps": BUDGET, **kwargs})
    rows.append({"case": case, **{name.replace("_", " "): getattr(run, name) for name in shown}})
show(pd.DataFrame(rows))

# %% [markdown]
# In the third row the record task holds the right amount, so by the original measure its
# answer is correct, yet the record was never written: PARTIAL_SUCCESS, a false alarm where the
# runtime is stricter than the answer measure. That measure is the source's, and lenient here: it
# scores a record task by the amount held, written or not (lesson 8 also counts the writes).
#
# ## G05 under the contract, beside G05 under the split
#
# The same first plan, from the same draws: the split ran it blindly, the contract refused it,
# replanned once and ran the new plan.

# %%
for name, run in (("planner + executor", g05_split), ("contract", g05)):
    say(
        f"{name:>18}: steps {run.steps}, tool calls {run.calls}, tokens {run.tokens}, "
        f"tool errors {run.errors}, replans {getattr(run, 'replans', 0)}, answer {run.answer}"
    )
say(f"correct answer: {sim.correct_answer('G05')}")
say(
    f"the contract saves {g05_split.steps - g05.steps} steps, {g05_split.calls - g05.calls} tool calls, "
    f"{g05_split.tokens - g05.tokens} tokens and {g05_split.errors - g05.errors} tool errors on G05"
)

# %% [markdown]
# On G05 the refusal costs 1 planner call (165 tokens) and saves the 3 blind calls that
# failed, with the same answer.
#
# ## The measurement
#
# All 24 tasks on both runs at the budget of 8 steps, with the contract's default bounds. The
# first table is lesson 2's, with the contract's rows added (success is a share of the 24 tasks;
# step and error are steps and tool errors summed over them). The second applies CT12 to what
# each run observed, for every setup (a loop's fields are its [trace](../GLOSSARY.md#trace)'s
# calls replayed): first what each setup reports, then the truth, in tasks.

# %%
contract_runs = [measure("contract", seed, BUDGET) for seed in SEEDS]
loop_runs = [measure(setup, seed, BUDGET) for _, setup in LOOPS for seed in SEEDS]
print(format_table(seed_table(loop_runs + contract_runs)))
print()
exits = exit_state_frame(SETUPS, SEEDS, BUDGET)
exits["replans"] = [0, 0, 0, 0] + [m.contract.replans for m in contract_runs]
show(exits, ["setup", "run"], breaks=["solved (true)"])

# %% [markdown]
# The exit states as a figure, one bar per setup and run: the bars are what each setup
# reports, the hatched part of SUCCESS its silent failures, and the truth is written beside
# each bar.

# %%
from IPython.display import Image, display

from sim.presentation import figures, figures_contract

path = figures.save_figure(figures_contract.draw_exit_states(exits), "04_contract-exit-states")
display(Image(filename=path))

# %% [markdown]
# Two runs are a small sample, so the verdict comes from 10,000 seeds (runs A and B are the
# first 2): the contract minus each other setup, seed by seed, as a mean per run of 24 tasks
# with its 95 % [interval](../GLOSSARY.md#interval) (lesson 5 explains them). The loops as
# lesson 2 ran them follow the model's own stop, which does not always come when the job is
# done, so they may wander after it. Like for like, the table also sets the contract beside the
# loops under lesson 3's stop-when-done rule (SB1): once the goal test GT1 holds, the next step
# is a stop, paid like any step.


# %%
def contract_minus(others, ours):
    """Per unit, the contract minus each other setup over the same seeds: mean [95 % interval]."""
    texts = {label: comparison_text(paired_comparison(other, ours)) for label, other in others.items()}
    table = pd.DataFrame({"unit": next(iter(texts.values()))["unit"]})
    for label, text in texts.items():
        table[label] = text["mean difference"] + " " + text["95 % interval"]
    return table


many = {setup: many_seed_run(sim.RunConfig(setup, BUDGET)) for setup in progress(SETUPS, "10,000 seeds")}
many_sb1 = {other: many_seed_run(sim.RunConfig(other, BUDGET, stop_when_done=True)) for _, other in LOOPS}
others = {label: many[other] for label, other in LOOPS}
others |= {f"{label}, SB1": many_sb1[other] for label, other in LOOPS}
say(f"the contract minus each setup, {MANY_SEEDS} seeds from {SEED_A}, per run of 24 tasks")
show(contract_minus(others, many["contract"]))

# %% [markdown]
# A contract run ends when its plan completes, with no call (CT8); a loop under SB1 pays a step
# to stop, priced as any step. The next cell leaves those stop steps, and their tokens, out of
# the SB1 loops and compares again: what is left of the contract's lead in steps and tokens.

# %%
STEP_PRICE = {"single-loop": costs.loop_step_tokens, "plan-execute": costs.executor_step_tokens}
steps_out, tokens_out = [], []
for label, other in LOOPS:
    loop = many_sb1[other]
    mean, low, high = t_interval(many["contract"].steps.sum(axis=0) - (loop.steps - loop.stopped).sum(axis=0))
    steps_out.append(f"{label} {mean:+.2f} [{low:+.2f}, {high:+.2f}]")
    stop_tokens = loop.stopped * STEP_PRICE[other](loop.calls)  # a stop step's price (AA28), per lane
    mean, low, high = t_interval(
        many["contract"].tokens.sum(axis=0) - (loop.tokens - stop_tokens).sum(axis=0)
    )
    tokens_out.append(f"{label} {mean:+.2f} [{low:+.2f}, {high:+.2f}]")
say(f"steps, SB1's stop steps left out: {', '.join(steps_out)}")
say(f"tokens, SB1's stop steps left out: {', '.join(tokens_out)}")

# %% [markdown]
# The contract also has bounds the loops lack: its replan limit and its token and seconds bounds
# (CT7, CT11). The next cell lifts them (6 replans, tokens and seconds out of reach) and compares
# success with the SB1 loops again, on the first 2000 of the seeds.

# %%
LIFTED = sim.RunConfig("contract", BUDGET, max_replans=6, max_tokens=10**6, max_seconds=10**6)
lifted = many_seed_run(LIFTED, n_seeds=2000)
gains = []
for label, other in LOOPS:
    gain = paired_difference(many_sb1[other].head(len(lifted.seeds)), lifted, "success")
    gains.append(f"{label} {gain['mean']:+.4f} [{gain['low']:+.4f}, {gain['high']:+.4f}]")
say(f"success, the contract with its bounds lifted minus each SB1 loop, 2000 seeds: {', '.join(gains)}")

# %% [markdown]
# - **Cheaper on every count.** Against both loops the contract takes fewer steps, tool calls
#   and tokens and makes fewer tool errors (every interval below zero): -11.03 steps a run
#   against the single loop, -34.41 against the split. Its 0 tool errors on runs A and B hold
#   [by construction](../GLOSSARY.md#by-rule), as the section on the oracle showed; it pays
#   for wrong plans in replans (9 and 8) instead.
# - **A little more success** than the loops with the model's own stop: +0.0172 of the tasks against
#   the single loop and +0.0251 against the split.
# - **Like for like, the lead in success turns.** Against loops under the same stopping rule
#   (SB1: stop when done, the stop a paid step), the contract solves fewer tasks than either
#   (-0.0167 and -0.0071), and still uses fewer steps, tool calls and tokens and makes fewer
#   tool errors. The turn goes with the contract's own bounds: with its replan, token and seconds
#   bounds lifted together (the cell above) it solves more than either, +0.0194 and +0.0291 on
#   2000 seeds. Much of its lead in steps is how each pays for its end: a stopping loop pays a step to stop, while the
#   contract's runtime ends with no call (CT8).
#   With the stop steps left out, the contract takes more steps than the single loop (+15.66 a
#   run), and still fewer than the split (-9.38); with their tokens left out too, its token lead
#   over the single loop all but vanishes (-21.46 a run, against -2869.48), and over the split
#   is -408.60.
# - **Where the savings come from.** Two things this world gives the contract stand behind them,
#   not its design alone: the tools' fields name exactly what the next tool needs, so the
#   validator (CT4) refuses every wrong plan before a call (the oracle section), and at a
#   replan the planner knows how many positions remain (CT6). A real runtime has neither for
#   free.

# %% [markdown]
# ## Summary
#
# - The contract's first plan is the split's; only what happens after it differs. G05's first
#   plan is refused before any call, and one replan later the run ends with the right answer.
# - In this world a plan that passes validation never fails a precondition, so the check is
#   shown on a constructed plan.
# - Every run ends in one exit state with a stop reason, from what the runtime observes;
#   whether the answer was right is a second column.
# - Over 10,000 seeds the contract takes fewer steps, tool calls and tokens than both loops,
#   paid for in replans. Against loops under the same stopping rule it solves fewer tasks (with
#   its replan, token and seconds bounds lifted, more), and
#   against the single loop its whole lead in steps, and nearly all its lead in tokens, is the
#   stop step that loop pays. With a look-alike tool added to the 5 (Going further) the same
#   comparison turns: the contract solves a little more. The sign depends on the tool set and
#   on the contract's bounds.
# - Validation is an oracle in this world, so the 0 tool errors hold by construction. Going
#   further shows what changes when it is not.
#
# ## Exercises
#
# This one is code you write, checked for a seed of your own. Set `MY_SEED` once (from your
# name, say); the checks compute the answers for that seed and say right or wrong, and what is
# off, never the answer. Exercises 2 to 6, with the panel below, open Going further.
#
# 1. **A plan validator.** Write `my_plan_ok(plan, held)`: true when the plan may run by the
#    data-flow rule, false when validation refuses it. `plan.goal` is the goal field;
#    `plan.steps` are the steps, each with `id`, `tool`, `depends_on`, `requires` and
#    `produces`; `held` names the fields the scratchpad holds before the plan runs. The rule:
#    each field a step requires is held or produced by a step upstream of it (one it depends
#    on, directly or through others), and some step produces the goal unless it is held.
#    Write it without `sim.engine.plan_schema`. The check runs it on plans drawn for your
#    seed, right ones and wrong ones.

# %%
from sim.exercises import contract as exercises

MY_SEED = 12345  # your seed: any whole number 0 <= MY_SEED < 2**32


def my_plan_ok(plan, held): ...  # return True when the plan may run


print(exercises.check_plan_validator(MY_SEED, my_plan_ok))

# %% [markdown]
# ## Explore
#
# The panel runs the 3 setups at a seed (run A) and the next (run B), with the budget, max
# replans and max tokens you set: the tables, the contract's tasks on run A that end in another
# state than SUCCESS, the exit-state figure and the chosen task's contract run, event by event.
# **reset** brings back the lesson's defaults. Its output is not part of the checked record.

# %% tags=["nbval-ignore-output"]
from sim.presentation.panel_contract import contract_panel

panel = contract_panel()
panel

# %% [markdown]
# ## Going further (optional)
#
# What this part adds: the rules in full with their numbers, where the default bounds come from,
# the refusals kind by kind, the contract's loop in code, the scratchpad at a run's end, a run
# as the chat requests it would send, the tasks the contract loses, the loops' exit states,
# validation that is no longer an oracle (a look-alike tool), wrong arguments, the step budget
# and the replan limit swept, the contract beside real frameworks, and a second code exercise. Its
# many-seed cells take a while; a bar shows their progress. It opens with 5 exercises with the
# panel.
#
# ### Exercises with the panel
#
# Answer these with the controls of the panel in the Explore section above.
#
# 2. Set **max replans** to 0 and press **new seed** a few times: which exit state takes the
#    lost tasks, and how do the contract's tokens move against the split's?
# 3. Lower **max tokens** in steps of 10 at budget 8, at the lesson's seed (type a value into the
#    box beside the slider; start well below 1000): at what value do runs first end in
#    TIMEOUT, and which kind of task goes first? (Some end in PARTIAL_SUCCESS before that.)
# 4. At budget 3, which tasks end in PARTIAL_SUCCESS, what do they hold, and is their answer
#    correct by the original measure?
# 5. Pick G03 and find a seed at which the contract solves it. How many replans did it take?
# 6. Find a seed at which the contract solves more tasks than the split on both runs. Is the
#    difference measured by the band rule?
#
# ### The contract's rules in full
#
# rule | what it says
# --- | ---
# CT1, the plan | A goal field and a list of steps; a step has an id, a tool, the steps it depends on, the fields it requires and produces, and a timeout in simulated seconds. Steps run in list order, so a step may depend only on earlier steps.
# CT2, the first plan | The contract's first plan for a task is the split's plan for the same task and seed, from the same [draws](../GLOSSARY.md#draw): each position right with the flat share selection(1), else a random tool (AA24), as long as the task's [tool sequence](../GLOSSARY.md#tool-sequence) (AA29). Only what happens after the first plan differs, so every run pairs with lesson 2's run.
# CT3, around the tools | A step's requires and produces are its tool's (`TOOL_CONTRACTS`); it depends on the latest earlier step producing each field it requires; its timeout is `TIMEOUT_FACTOR` x its tool's duration. The goal is the field the request asks for (`GOALS`).
# CT4, validation | The schema refuses duplicate ids, unknown tools and a dependency on a missing or later step; the data-flow check refuses a step whose required field neither an upstream step nor the scratchpad holds, and a plan that produces no goal field. A refused plan is not run: it is a replan event.
# CT5, preconditions | Before every tool call the executor checks that the scratchpad holds every field the step requires. A missing field, a tool error, a call cut at its timeout, or a plan ending without its goal field is a replan event.
# CT6, replanning | The planner sees the scratchpad (with the loops' progress count: how far the job has got) and the error, drops the rest of the plan and writes a sub-plan for the positions that remain: each position of the sub-plan is again right with the flat share selection(1), else a random tool, from the same draw stream.
# CT7, the replan limit | Every replan counts against `max_replans`, including a replan whose sub-plan is refused in turn; a replan event beyond the limit ends the run.
# CT8, steps | Every planner call (the first plan and every replan) is a step, and so is every tool call (AA25). Validation and precondition checks are local code: no step, no token, no simulated second.
# CT9, tokens | A plan costs 60 + 25 x its length (AA28), a replan 60 + 25 x its length, plus 30 for the error context; a tool call 40 + 10 x tool calls so far, plus 30 for its observation (AA28).
# CT10, seconds | A planner call takes `PLANNER_SECONDS`; a tool call its tool's duration, or its step's timeout when cut there.
# CT11, bounds | `max_steps` (default 8, the course's budget), `max_tokens` (1000), `max_seconds` (22), `max_replans` (2). Before every call the contract checks that the call fits each of the bounds on steps, tokens and seconds; if not, the run stops, naming the first bound that fails. No bound is ever exceeded.
# CT12, the exit state | From what the runtime observes, the first that holds: SUCCESS, the plan completed and the goal test GT1 holds (the answer held is the requested field's value, RT1; for a record, written with the tariff's amount); PARTIAL_SUCCESS, the goal field or a field on the way to it is held (m3 for a charge; m3 or the amount for a record); REPLAN_EXHAUSTED, a replan was needed beyond `max_replans`; else TIMEOUT (despite its name, every other end: a bound on steps, tokens or seconds, or a loop's own stop, with neither the goal field nor a field on the way to it held). A stop reason names what ended the run.
#
# The shares, prices, seconds and bounds of CT1 to CT12, as `sim` holds them.

# %%
plan_cost = f"{costs.PLANNER_TOKENS} + {costs.PLANNER_TOKENS_PER_POSITION} x"
call_cost = f"{costs.EXECUTOR_STEP_TOKENS} + {costs.EXECUTOR_TOKENS_PER_CALL} x calls so far + {costs.OBSERVATION_TOKENS}"
rules = [
    ("CT2", "share of right positions, first plan", f"selection(1) = {sim.selection(1)}"),
    ("CT6", "share of right positions, every replan", f"selection(1) = {sim.selection(1)}"),
    ("CT3", "a step's timeout", f"{plan_schema.TIMEOUT_FACTOR} x its tool's duration"),
    ("CT9", "first plan (tokens)", f"{plan_cost} plan length"),
    ("CT9", "replan (tokens)", f"{plan_cost} sub-plan length + {costs.REPLAN_CONTEXT_TOKENS}"),
    ("CT9", "tool call (tokens)", call_cost),
    (
        "AA28",
        "a single-loop step, to compare (tokens)",
        f"{costs.LOOP_STEP_TOKENS} + {costs.LOOP_TOKENS_PER_CALL} x calls so far",
    ),
    ("CT10", "planner call (simulated seconds)", f"{contract.PLANNER_SECONDS}"),
    ("CT10", "tool call (simulated seconds)", "its tool's duration, in the tools' table"),
    ("CT8", "validation, precondition check", "0 steps, 0 tokens, 0 seconds"),
    ("CT11", "max_steps (steps)", f"{DEFAULTS.max_steps}"),
    ("CT11", "max_tokens (tokens)", f"{DEFAULTS.max_tokens}"),
    ("CT11", "max_seconds (simulated seconds)", f"{DEFAULTS.max_seconds}"),
    ("CT11", "max_replans (replans)", f"{DEFAULTS.max_replans}"),
]
show(pd.DataFrame(rules, columns=["rule", "what", "value"]))


# %% [markdown]
# ### Where the default bounds come from
#
# The token and seconds defaults are sized to this simulator: twice the cost of the longest
# run that goes right first time, a record task (1 plan and 4 tool calls). The cell runs that
# case and prints its cost.

# %%
right_record = contract.run_contract(
    record_task, first_plan=plan_schema.plan_from_tools(record_task.sequence, "written", INITIAL)
)
say(
    f"{record_task.name}, right first plan: {right_record.steps} steps, {right_record.tokens} tokens, "
    f"{right_record.seconds} simulated seconds, exit {right_record.exit_state}"
)
say(
    f"defaults: max_tokens {DEFAULTS.max_tokens} = 2 x {right_record.tokens}, "
    f"max_seconds {DEFAULTS.max_seconds} = 2 x {right_record.seconds}"
)

# %% [markdown]
# ### The refusals, kind by kind
#
# The schema refuses a plan with a broken structure. Below, a right plan for
# G05 with its third step given the id of the second:

# %%
right_g05 = plan_schema.plan_from_tools(sim.check_task("G05").sequence, "amount", INITIAL).model_dump()
broken = {**right_g05, "steps": [*right_g05["steps"][:2], {**right_g05["steps"][2], "id": "s2"}]}
try:
    plan_schema.Plan.model_validate(broken)
except pydantic.ValidationError as error:
    say(f"{error.title}: {error.error_count()} error")
    print(error.errors()[0]["msg"])

# %% [markdown]
# Each kind of refusal beyond pydantic's own field checks (a missing field, a wrong type),
# each on a copy of the same right plan with one thing broken, and each refusal naming the
# step it refuses. The last 3 are data-flow refusals (the goal
# check is one of them): the structure is sound but a field would be missing.


# %%
def broken_copy(change):
    plan = {**right_g05, "steps": [dict(step) for step in right_g05["steps"]]}
    change(plan)
    return plan


cases = {
    "third step reuses id s2": lambda p: p["steps"][2].update(id="s2"),
    "second step calls 'calculator'": lambda p: p["steps"][1].update(tool="calculator"),
    "second step depends on s9": lambda p: p["steps"][1].update(depends_on=("s9",)),
    "second step depends on s3": lambda p: p["steps"][1].update(depends_on=("s3",)),
    "second step depends on nothing": lambda p: p["steps"][1].update(depends_on=()),
    "third step drops its dependency on s2": lambda p: p["steps"][2].update(depends_on=("s1",)),
    "goal is 'written'": lambda p: p.update(goal="written"),
}
refusals = []
for case, change in cases.items():
    first = plan_schema.validate_plan(broken_copy(change), INITIAL)[0]
    refusals.append({"broken": case, "kind": first.kind, "step": first.step, "message": first.message})
print(pd.DataFrame(refusals)[["broken", "kind", "step"]].to_string(index=False))
print()
for row in refusals:
    say(f"{row['kind']:>18}: {row['message']}")

# %% [markdown]
# ### The contract's loop in code
#
# The lesson's figures come from one function, `contract_run`: it writes the first plan, validates
# and executes each plan, and replans after each replan event until a bound, the replan limit or a
# complete plan stops the run. `run_plan` holds validation (CT4) and the preconditions (CT5);
# `call_planner` and each tool call pay through the bounds (CT11).

# %%
print(code_of(contract.contract_run))

# %% [markdown]
# ### The scratchpad
#
# One object holds the state of a run: the fields known (the initial ones, then whatever
# each completed step produced), each completed step's outputs, every raw tool result, a
# note per failure, and the counters. Here it is at the end of G05's contract run.

# %%
pad = g05.scratchpad


def fields_text(fields) -> str:
    return ", ".join(f"{name} {value}" for name, value in fields.items())


say(f"fields held   : {fields_text({k: v for k, v in pad.fields.items() if k != 'query'})}")
say(f"step outputs  : {'; '.join(f'{step}: {fields_text(out)}' for step, out in pad.outputs.items())}")
say(f"raw results   : {len(pad.raw)}", *(f"note          : {note}" for note in pad.notes))
say(
    f"counters      : steps {pad.steps}, tool calls {pad.calls}, tokens {pad.tokens}, "
    f"seconds {pad.seconds}, replans {pad.replans}, tool errors {pad.errors}"
)

# %% [markdown]
# ### The run as chat requests
#
# G05's run at seed A as the requests a real [agent](../GLOSSARY.md#agent) would send to a chat API (the format of lessons 1
# and 2, from `sim.chat.messages`). The replan is a planner request whose user message carries the
# error that stopped the plan before it (rule CT9 charges 30 tokens for that context). A tool
# call is an executor request that re-sends the plan it follows and the calls made before it,
# with the results the scratchpad recorded. Refusals and the stop are events, not requests.

# %%
from sim.chat import messages

g05_sent = messages.requests(g05)
print(messages.format_messages(g05_sent[1]))
print()
show(messages.request_sizes(g05))

# %% [markdown]
# ### The loops' exit states
#
# The loops have no exit state of their own; the core's figure applies CT12 to what they observed.
# A loop that stopped by itself with a spoiled answer reports SUCCESS only when its goal test
# still holds; the spoiled runs listed below, at the lesson's budget, all fail it, because a
# call after the job was done replaced the answer held. So they report PARTIAL_SUCCESS when
# a field on the way to the goal is held (m3 for a charge; m3 or the amount for a record)
# and TIMEOUT otherwise, and none of them is a silent failure.

# %%
from sim.engine import exit_states as exit_rules

for name, runner in (("single loop", sim.run_single_loop), ("planner + executor", sim.run_plan_execute)):
    for seed in SEEDS:
        runs = [runner(task, seed, BUDGET) for task in sim.TASKS]
        spoiled = [
            f"{r.task} {exit_rules.exit_state_of(r)}" for r in runs if r.stopped and not sim.is_correct(r)
        ]
        say(f"{name}, run {sim.run_label(seed)}: stopped with a wrong answer: {', '.join(spoiled) or 'none'}")

# %% [markdown]
# ### The tasks the contract loses
#
# The contract loses one task on each run, G03 on run A and G04 on run B, both ending
# REPLAN_EXHAUSTED. The cell lists them and prints G03's log: its first plan and both
# replans were refused, so it never made a tool call.

# %%
for seed in SEEDS:
    lost = [r for t in sim.TASKS if not (r := contract.run_contract(t, seed, BUDGET)).correct]
    say(f"run {sim.run_label(seed)}: not solved: " + ", ".join(f"{r.task} {r.exit_state}" for r in lost))
g03 = contract.run_contract("G03", SEED_A, BUDGET)
print(tables.format_events(g03, width=100))

# %% [markdown]
# ### When validation is not an oracle: a [look-alike tool](../GLOSSARY.md#look-alike)
#
# The oracle is a property of this world's 5 tools, not of validation. The course's own rule
# **LA1** (not the source's; the option `lookalike`, off everywhere else in the course) puts a
# look-alike in the tool set: a 6th tool, `estimate_use`, that takes the same fields as
# `consumption` and gives the same field, with a wrong value. The planner documents it with
# the contract of the tool it imitates: the same requires and produces. The cell prints the rule from `sim` and checks the wrong value against every subscriber. A
# look-alike that forgot the meter rollover would not do here: no meter in this world rolls
# over, so it would be right for every subscriber, as the last line shows.

# %%
from sim.model.world import IMITATES, LOOKALIKE_EXTRA_M3, SUBSCRIBERS, consumption_m3

TOOL_SET_LA = sim.RunConfig("contract", lookalike=True).tools
FAKE = TOOL_SET_LA[-1]
fake_contract = plan_schema.tool_contract(FAKE)
rule_la = pd.DataFrame(
    [
        ("LA1", "the look-alike", f"{FAKE}, imitating {IMITATES[FAKE]}"),
        ("LA1", "requires (the planner's contract)", ", ".join(fake_contract.requires)),
        ("LA1", "produces (the planner's contract)", ", ".join(fake_contract.produces)),
        ("LA1", "its m3", f"the consumption, with rollover, + {LOOKALIKE_EXTRA_M3}"),
        ("LA1", "simulated seconds", f"{plan_schema.tool_seconds(FAKE)}, as {IMITATES[FAKE]}"),
        ("LA1", "tool set with the option", f"{len(TOOL_SET_LA)} tools, {FAKE} last"),
        ("LA1", "a pick that misses (every setup)", f"index int(u x {len(TOOL_SET_LA)}) of the tool set"),
    ],
    columns=["rule", "what", "value"],
)
show(rule_la)
wrong_m3 = wrong_charge = 0
for record in SUBSCRIBERS.values():
    right = consumption_m3(record.previous, record.current)
    fake_m3 = sim.call_tool(FAKE, {"previous": record.previous, "current": record.current})["m3"]
    wrong_m3 += fake_m3 != right
    wrong_charge += sim.charge(fake_m3, record.customer_type) != sim.charge(right, record.customer_type)
say(f"{FAKE}: a wrong m3 for {wrong_m3} of {len(SUBSCRIBERS)} subscribers, a wrong charge for {wrong_charge}")
say(f"subscribers whose meter rolled over: {sum(r.current < r.previous for r in SUBSCRIBERS.values())}")

# %% [markdown]
# The enumeration again, now over the 6 tools (6 to the power of the plan's length), each
# candidate wrapped and validated as the contract does it with the look-alike in its tool
# set. For each kind of task whose plan uses `consumption`, 2 candidates pass: the right plan
# and the same plan with the look-alike in its place. Validation checks fields, and the two
# tools' fields are the same.

# %%
for kind in plan_schema.GOALS:
    task = next(t for t in sim.TASKS if t.kind == kind)
    goal, candidates = (
        plan_schema.GOALS[kind],
        list(itertools.product(TOOL_SET_LA, repeat=len(task.sequence))),
    )
    passing = [
        tools
        for tools in candidates
        if not plan_schema.validate_plan(
            plan_schema.plan_from_tools(tools, goal, INITIAL, tool_set=TOOL_SET_LA), INITIAL, TOOL_SET_LA
        )
    ]
    say(
        f"{kind}: {len(candidates)} candidate plans, {len(passing)} pass validation: "
        + "; ".join(" -> ".join(tools) for tools in passing)
    )

# %% [markdown]
# The measurement with the look-alike in every setup's tool set: the 3 setups on runs A and
# B at 8 steps, the contract with its default bounds. A pick that misses now lands on one of
# 6 tools, so these runs differ from the ones above wherever a pick missed. The last lines
# list the contract's runs that completed their plan with a wrong answer.

# %%
single_la = [measure("single-loop", seed, BUDGET, lookalike=True) for seed in SEEDS]
split_la = [measure("plan-execute", seed, BUDGET, lookalike=True) for seed in SEEDS]
contract_la = [measure("contract", seed, BUDGET, lookalike=True) for seed in SEEDS]
rows = seed_table(single_la + split_la + contract_la)
rows["rule"] = rows["rule"].str.replace("contract bounds, ", "bounds, ")
print(format_table(rows))
print()
exits_la = exit_state_frame(("single-loop", "plan-execute", "contract"), SEEDS, BUDGET, lookalike=True)
exits_la["replans"] = [0, 0, 0, 0] + [m.contract.replans for m in contract_la]
show(exits_la, ["setup", "run"], breaks=["solved (true)"])
for seed in SEEDS:
    runs = [sim.run_task("contract", task, seed, BUDGET, lookalike=True) for task in sim.TASKS]
    fooled = [
        f"{r.task} called {' -> '.join(c.tool for c in r.trace)}, answer {r.answer} (correct "
        f"{sim.correct_answer(r.task)}), {r.errors} tool errors, stop reason {r.stop_reason}, exit {r.exit_state}"
        for r in runs
        if r.stop_reason == "plan complete" and not r.correct
    ]
    say(f"run {sim.run_label(seed)}: plan complete with a wrong answer: {'; '.join(fooled) or 'none'}")

# %% [markdown]
# The contract against each loop with the same tool set, over the same 10,000 seeds.

# %%
many_la = {
    setup: many_seed_run(sim.RunConfig(setup, BUDGET, lookalike=True))
    for setup in progress(SETUPS, "10,000 seeds, look-alike")
}
say(f"the contract minus each setup, all with the look-alike, {MANY_SEEDS} seeds from {SEED_A}")
show(contract_minus({label: many_la[other] for label, other in LOOPS}, many_la["contract"]))

# %% [markdown]
# What the look-alike costs each setup over the same 10,000 seeds (with the look-alike minus
# with the 5 tools, seed by seed: here the same setup, from the same draw streams), and how
# many of the contract's task runs complete their plan with a wrong answer, with and without
# it.

# %%
from sim.engine.labels import SETUP_LABELS
from sim.measurement.many_seeds import paired_difference

cost_rows = []
for setup in ("single-loop", "plan-execute", "contract"):
    difference = paired_difference(many[setup], many_la[setup], "success")
    cost_rows.append(
        {
            "setup": SETUP_LABELS[setup],
            "solved a run, 5 tools": f"{many[setup].correct.sum(axis=0).mean():.2f}",
            "with the look-alike": f"{many_la[setup].correct.sum(axis=0).mean():.2f}",
            "success difference": f"{difference['mean']:+.4f}",
            "95 % interval": f"[{difference['low']:+.4f}, {difference['high']:+.4f}]",
        }
    )
show(pd.DataFrame(cost_rows))
for name, runs in (("5 tools", many["contract"]), ("with the look-alike", many_la["contract"])):
    fooled = runs.stopped & ~runs.correct
    say(
        f"contract, {name}: {int(fooled.sum())} of {fooled.size} task runs complete their plan with a wrong "
        f"answer; tool errors in all {fooled.size}: {int(runs.errors.sum())}"
    )

# %% [markdown]
# The comparison above sets the contract beside loops that follow the model's own stop. Like
# for like, the loops also stop when done (SB1, its stop a paid step), at the same budget of
# 8 steps, with the look-alike in every tool set. The stop rule reads only what a loop
# observes: once the answer held is the goal field's value, it stops, whether that value came
# from `consumption` or from the look-alike, just as the contract's plan ends after its last
# step.

# %%
many_la_sb1 = {
    other: many_seed_run(sim.RunConfig(other, BUDGET, lookalike=True, stop_when_done=True))
    for _, other in LOOPS
}
say(f"the contract minus each setup with stop when done, all with the look-alike, {MANY_SEEDS} seeds")
show(contract_minus({f"{label}, SB1": many_la_sb1[other] for label, other in LOOPS}, many_la["contract"]))

# %% [markdown]
# What each setup reports beside what is true, over many seeds: the first 200 of the
# 10,000 (runs A and B among them), on the one-seed path, where every run's exit state can be
# read. Each cell is the mean per run of 24 tasks with its 95 % interval; "SB1" marks a loop
# that stops when done. The last lines compare the contract's silent failures with its runs
# that complete their plan with a wrong answer on the batch path, on the same seeds.

# %%
from sim.measurement.exit_tables import exit_truth_over_seeds

TRUTH_SEEDS = range(SEED_A, SEED_A + 200)
truth_setups = (
    ("single-loop", False),
    ("plan-execute", False),
    ("contract", False),
    ("single-loop", True),
    ("plan-execute", True),
)
truth_rows, per_seed_truth = [], {}
cases = [(lookalike, setup, sb1) for lookalike in (False, True) for setup, sb1 in truth_setups]
for lookalike, setup, sb1 in progress(cases, "200 seeds, each setup"):
    config = sim.RunConfig(setup, BUDGET, lookalike=lookalike, stop_when_done=sb1)
    per_seed = per_seed_truth[(setup, sb1, lookalike)] = exit_truth_over_seeds(config, TRUTH_SEEDS)
    row = {
        "setup": SETUP_LABELS[setup] + (", SB1" if sb1 else ""),
        "tools": "look-alike" if lookalike else "5 tools",
        "SUCCESS": f"{per_seed['SUCCESS'].mean():.2f}",
        "solved": f"{per_seed['solved (true)'].mean():.2f}",
    }
    for column in ("silent failures", "false alarms"):
        mean, low, high = t_interval(per_seed[column].to_numpy(dtype=float))
        row[column] = f"{mean:.2f} [{low:.2f}, {high:.2f}]"
    truth_rows.append(row)
show(pd.DataFrame(truth_rows), ["setup", "tools"])
for lookalike, runs in ((False, many["contract"]), (True, many_la["contract"])):
    batch = runs.head(len(TRUTH_SEEDS))
    silent = int(per_seed_truth[("contract", False, lookalike)]["silent failures"].sum())
    say(
        f"contract, {'look-alike' if lookalike else '5 tools'}, {len(TRUTH_SEEDS)} seeds: silent failures {silent}; "
        f"plans complete with a wrong answer (batch path) {int((batch.stopped & ~batch.correct).sum())}"
    )

# %% [markdown]
# What validation buys when it is no longer an oracle, as far as these figures go:
#
# - **Tool errors stay at 0**, on both runs and over 10,000 seeds. That still holds by
#   construction: both plans that pass call only tools that cannot fail on what the plan
#   feeds them.
# - **A plan that passes is no longer a right plan.** On run B, G23 runs the look-alike,
#   completes its plan with a wrong answer and no tool error, and stops with "plan complete".
#   What its runtime observes is a complete plan and the record written with the amount the
#   tariff returned, so it reports SUCCESS: a silent failure. Nothing in the run marks its
#   answer as wrong. Over 10,000 seeds, 6276 of 240000 task runs complete their plan with a
#   wrong answer; with the 5 tools none do, by construction. On the 200 seeds of the truth
#   table the contract's silent failures are exactly its completed plans with a wrong answer
#   (115 and 115), so the 6276 are its silent failures over the 10,000.
# - **The exit state is a claim, and every setup's can be wrong.** With the look-alike, each
#   setup reports SUCCESS for some wrong answers: 0.57 a run for the contract, 0.81 for the
#   single loop and 1.06 for the single loop with SB1, which stops on the look-alike's
#   amount as readily as on the right one. On these seeds the contract's exit state raises
#   no false alarm at its default bounds; the loops' do, mostly on runs that a budget cut
#   with the right answer held, which a runtime cannot tell from a run cut short. With the 5
#   tools the contract's SUCCESS is exactly its solved tasks, and the loops' few silent
#   failures are record tasks written right and then spoiled by a later call: the answer
#   measure reads the last result, the runtime the record.
# - **Against loops that follow the model's own stop, the contract solves more** over 10,000
#   seeds: +0.0336 of the tasks against the single loop and +0.0275 against the split.
#   Steps, tool calls, tokens and tool errors stay lower, as with the 5 tools.
# - **Like for like, with both loops stopping when done (SB1, paid), it still solves a little
#   more**: +0.0139 of the tasks against the single loop, 95 % interval [+0.0125, +0.0153], and
#   +0.0103 against the split, [+0.0093, +0.0113], over the same 10,000 seeds. That is about
#   a third of a task and a quarter of a task in 24, on one world and one budget. With the 5 tools the same stopping loops solve more
#   than the contract; what turns it is the look-alike's cost, which is larger for a loop
#   with SB1 (on the truth table's seeds, 23.34 solved a run with the 5 tools, 22.04 with the
#   look-alike) than for the contract (22.89 and 22.41). That fits SB1 stopping on the
#   look-alike's amount, as its silent failures show, though these figures do not trace it
#   run by run.
# - **The look-alike costs every setup tasks**: -0.0400 of the tasks for the single loop, -0.0260
#   for the split and -0.0236 for the contract. Validation does not catch it, so the
#   contract's lead is not validation telling the two tools apart; these figures do not say
#   where each setup loses its tasks.

# %% [markdown]
# ### When the model writes a wrong argument
#
# Every call so far carried the values the agent held: the model could pick the wrong tool, never
# fill a right tool with a wrong value. Real agents fail that way too: the right tool,
# called with another customer's id or a number off by one, returns a clean result that is wrong.
# The course's rule **AE1** (its own, not the source's; the option `argument_errors`, off
# everywhere else, so every figure above stands) lets the fictional model do it. When it writes a
# call, each subscriber id, m3 or value it fills is, with the share the option gives, a plausible
# wrong one. The draws come from a stream of their own, so the picks, steps and tokens of a loop
# stay as they were. The cell prints the rule as `sim` codes it.

# %%
from sim.chat.messages import format_messages, requests
from sim.measurement import argument_checks, harness
from sim.model import arguments

print(code_of(arguments.wrong_value))
print(code_of(arguments.argument_writer))

# %% [markdown]
# One single-loop run of G05 with the rule on, as the last request a real agent would send: the
# tariff call carries an m3 one too high, and the tool answers it without an error. Nothing the
# loop observes is amiss, so it reports SUCCESS with a wrong answer: a
# [silent failure](../GLOSSARY.md#silent-failure).

# %%
ARGUMENT_SHARE = 0.1
for seed in range(SEED_A, SEED_A + 500):  # the first seed whose run stops after a wrong m3
    shown_run = sim.run_task("single-loop", "G05", seed, BUDGET, argument_errors=ARGUMENT_SHARE)
    if shown_run.stopped and any(call.wrong == ("m3",) for call in shown_run.trace):
        break
print(format_messages(requests(shown_run)[-1]))
say(
    f"seed {shown_run.seed}: answer {shown_run.answer}, correct {sim.correct_answer('G05')}, "
    f"exit state {exit_rules.exit_state_of(shown_run)}, tool errors {shown_run.errors}"
)

# %% [markdown]
# What catches it, over 200 held-out seeds at a share of 0.1, for the 3 setups at 8 steps.
# Each figure is a mean per seed of 24 tasks; the change is the same-seed difference in tasks
# solved, with its 95 % t interval. Silent failures count runs reported SUCCESS with a wrong answer. Two checks a runtime could run before a call is sent are
# counted, neither of which reads the answer: the *request check* (the subscriber argument is
# the id the request names) and the *state check* (every argument is the value the agent holds).

# %%
HELD_OUT = harness.held_out_seeds(200)
caught = argument_checks.argument_error_table(HELD_OUT, ARGUMENT_SHARE, BUDGET)
say(f"{len(HELD_OUT)} held-out seeds, AE1 share {ARGUMENT_SHARE}, budget {BUDGET}")
show(
    caught.set_index("setup").T.rename_axis("per seed of 24 tasks").reset_index(),
    float_format="{:.3f}".format,
)

# %% [markdown]
# What the table bears, at this share and budget:
#
# - **Every setup loses tasks** to wrong arguments, and the intervals of the change leave zero out.
#   The contract's validation and preconditions add no replan: they check that fields are held,
#   not what their values are, so its lead over the loops does not come from catching these.
# - **Most of the loss is silent**: silent failures rise from 0.085, 0.075 and 0 a run with AE1
#   off to 2.260, 2.000 and 2.345 with it on, against 2.295, 2.265 and 2.390 tasks lost. Those
#   runs end reported SUCCESS, because nothing a runtime observes, tool errors and goal test
#   included, tells a wrong m3 from a right one.
# - **A check of the calls as sent** stops some of them. The request check sees only the
#   subscriber id, so it misses every wrong m3 and value. The state check stops every wrong call,
#   but that holds by the rules: AE1's errors are exactly departures from the values the agent
#   holds, and a real model's wrong arguments need not be.

# %% [markdown]
# ### Across step budgets
#
# The budgets of lesson 3: 2, 4, 6, 8 and 12 steps, for all 3 setups on both runs; the
# contract keeps its other default bounds.

# %% tags=["full-table"]
import dataclasses

from sim.measurement.counts import ContractCounts
from sim.presentation.tables import folded_table

BUDGETS = (2, 4, 6, 8, 12)
NO_CONTRACT = ContractCounts(
    *[0] * len(dataclasses.fields(ContractCounts))
)  # the loops neither replan nor exit by CT12 here
sweep = []
for budget in BUDGETS:
    for setup in ("single-loop", "plan-execute", "contract"):
        for seed in SEEDS:
            m = measure(setup, seed, budget)
            c = m.contract or NO_CONTRACT
            sweep.append(
                {
                    "setup": SETUP_LABELS[setup],
                    "run": sim.run_label(seed),
                    "budget": budget,
                    "solved": m.solved,
                    "steps": m.steps,
                    "calls": m.calls,
                    "tokens": m.tokens,
                    "errors": m.errors,
                    "replans": c.replans,
                    "SUCCESS": c.exit_success,
                    "PARTIAL": c.exit_partial_success,
                    "EXHAUSTED": c.exit_replan_exhausted,
                    "TIMEOUT": c.exit_timeout,
                    "silent": c.silent_failures,
                    "false alarms": c.false_alarms,
                }
            )
sweep = pd.DataFrame(sweep)
folded_table(
    sweep.drop(columns=["SUCCESS", "PARTIAL", "EXHAUSTED", "TIMEOUT", "silent", "false alarms"]).to_string(
        index=False
    )
    + "\n\n"
    + sweep[sweep["setup"] == "contract"]
    .drop(columns=["steps", "calls", "tokens", "errors"])
    .to_string(index=False),
    "The two tables (click to open)",
)

# %% [markdown]
# The two tables above are long, so they are folded: click their first line to open
# them. In short, tasks solved by setup, run and budget, and what the contract's runs show at
# the two ends of the sweep:

# %%
order = list(dict.fromkeys(sweep["setup"]))
solved_by_budget = sweep.pivot(index=["setup", "run"], columns="budget", values="solved")
print("tasks solved (of 24) by budget (steps)")
print(solved_by_budget.reindex(order, level="setup").to_string())
longest = max(contract.run_contract(t, seed, 12).steps for t in sim.TASKS for seed in SEEDS)
say(f"longest contract run at budget 12: {longest} steps")
for seed in SEEDS:
    solved = [r for t in sim.TASKS if (r := contract.run_contract(t, seed, 2)).correct]
    kinds = sorted({sim.TASKS[sim.TASK_NAMES.index(r.task)].kind for r in solved})
    say(f"contract, budget 2, run {sim.run_label(seed)}: solved {len(solved)}, kinds: {', '.join(kinds)}")

# %% [markdown]
# Cost against success across the sweep: each line is a setup on one run, each point a
# budget.

# %%
path = figures.save_figure(figures_contract.draw_cost_against_success(sweep), "04_contract-cost-success")
display(Image(filename=path))

# %% [markdown]
# At a budget of 2 steps every setup is starved. The contract spends its first step on the
# plan, solves 6 tasks on both runs, all of them document tasks, and ends the other 18 in
# TIMEOUT. At 4 steps 5 and 4 of its tasks end in PARTIAL_SUCCESS, and 2 and 1 of those hold
# an answer the original measure counts right: false alarms. From 6 steps on, its
# figures no longer change: its longest run takes 6 steps. The single loop solves 9 and 10
# tasks at 2 steps against the contract's 6 and 6, and 21 and 20 at 4 steps against 19
# and 20.
#
# ### Across the replan limit
#
# The lesson's budget of 8 steps, with max_replans 0, 1, 2 and 3.

# %%
replan_rows = []
for limit in range(4):
    for seed in SEEDS:
        m = measure("contract", seed, BUDGET, max_replans=limit)
        replan_rows.append(
            {
                "max_replans": limit,
                "run": sim.run_label(seed),
                "solved": m.solved,
                "steps": m.steps,
                "tokens": m.tokens,
                "replans": m.contract.replans,
                "SUCCESS": m.contract.exit_success,
                "PARTIAL_SUCCESS": m.contract.exit_partial_success,
                "REPLAN_EXHAUSTED": m.contract.exit_replan_exhausted,
                "TIMEOUT": m.contract.exit_timeout,
                "silent failures": m.contract.silent_failures,
                "false alarms": m.contract.false_alarms,
            }
        )
replan_table = pd.DataFrame(replan_rows)
show(replan_table, ["max replans", "run"], breaks=["SUCCESS"])
timed_out = [
    r
    for t in sim.TASKS
    if (r := contract.run_contract(t, SEED_A, BUDGET, max_replans=3)).exit_state == "TIMEOUT"
]
for r in timed_out:
    say(f"max_replans 3, run A: {r.task} ends {r.exit_state}, stop reason {r.stop_reason}")
    print(tables.format_events(r, width=100))

# %% [markdown]
# With no replan allowed, every refused first plan ends the run: 6 tasks end
# REPLAN_EXHAUSTED on both runs and 18 are solved. The first replan allowed saves some of
# them and the second more: 21 and 22 solved with 1 replan, 23 with 2. A third replan
# solves no further task on either run. On run A it turns G03's REPLAN_EXHAUSTED into a
# TIMEOUT: its third replan is right, but 4 planner calls and the `read_meter` call bring the
# simulated clock to 22 seconds, the max_seconds bound, and the next call does not fit. More
# replans buy more chances and spend the same clock.
#
# ### The contract next to real frameworks
#
# Real agent frameworks bound a run too; how they report its end differs. The table below is
# data, `sim/presentation/frameworks_read.csv`: each cell read from the framework's own source
# code at a released version, and each cell's text a link to the lines read. It maps each
# framework's bounds and end signals onto the 4 exit states and says what each lacks.
# LangGraph counts its recursion limit in [super-steps](../GLOSSARY.md#super-step): a
# super-step is one round in which all the nodes of the graph that are ready run once, so the
# limit bounds rounds, not tool calls. "No" or "none" means the source read has no such
# mechanism, not that none can be built on it.
#
# The comparison is like with like on success: each framework ends a run in success on a
# signal its runtime observes (a final answer, no task left to run), and the contract's
# SUCCESS is also only what its runtime observes, a completed plan with its goal field held.
# None of them, the contract included, checks the answer against a truth it does not have,
# so each can report success for a wrong answer, as the contract's silent failures with the
# look-alike show.

# %%
import html
from importlib.resources import files

from IPython.display import HTML

read = pd.read_csv(files("sim.presentation") / "frameworks_read.csv", keep_default_na=False)
COLUMNS = ("bounds", "SUCCESS", "PARTIAL_SUCCESS", "REPLAN_EXHAUSTED", "TIMEOUT", "lacks")


def linked(text, source):
    return f'<a href="{html.escape(source)}">{html.escape(text, quote=False)}</a>'


shown = pd.DataFrame({"framework": [html.escape(f"{r.framework} ({r.version})") for r in read.itertuples()]})
for column in COLUMNS:
    shown[column] = [
        linked(text, source) for text, source in zip(read[column], read[column + "_source"], strict=True)
    ]
display(HTML(shown.to_html(index=False, escape=False)))
for flag, words in (
    ("token_bound", "a token bound on the run"),
    ("run_time_bound", "a time bound on the whole run"),
    ("replan_limit", "a replan limit"),
    ("partial_result", "a built-in partial result"),
    ("named_exit_states", "named exit states"),
):
    having = read.loc[read[flag] == "yes", "framework"].tolist()
    say(f"{words}: {len(having)} of {len(read)} ({', '.join(having) or 'none'})")

# %% [markdown]
# Every framework read can bound a run by steps, turns, iterations or messages (not all do by
# default), and the last lines count the rest from the table's data: few bound tokens or the whole
# run's time, none counts replans against a limit, and the ways to end with a partial result differ
# from one framework to the next. A run stopped by a bound is reported as an exception in some and
# as ordinary output in others, so code that calls an agent must know which. What the contract adds
# is names and bounds, not knowledge: its SUCCESS is as much a claim as a framework's final answer,
# and checking the answer is work outside the runtime.
#
# [Lesson 7](07_frameworks.ipynb) runs LangGraph, the OpenAI Agents SDK and smolagents (at the
# newer versions the course pins) against the course's model and hits each one's bound on purpose:
# LangGraph's recursion limit ends a run with its own text or with `GraphRecursionError`, the
# Agents SDK raises `MaxTurnsExceeded`, smolagents asks for a final answer, and the default
# limits are printed as the pinned versions fill them in.

# %% [markdown]
# ### A further exercise
#
# Code you write, checked for your seed (`MY_SEED`, set in the exercise above).
#
# 7. **Exit states, counted.** Run the contract on the 24 tasks at your seed and budget 8
#    (`contract.run_contract`) and count the tasks that end in each exit state. Put the
#    counts in `my_exits`, a dict from each exit state's name to its count (a state left
#    out counts as none).

# %%
my_exits = None  # exercise 7: {exit state: tasks}

print(exercises.check_exit_counts(MY_SEED, my_exits))
