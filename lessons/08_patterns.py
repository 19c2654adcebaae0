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
# # Lesson 8 · Patterns, measured
#
# Guides for building agents teach patterns: let the model reflect on an error, run
# independent tool calls at once, put a guardrail in front of a risky call, compact a long
# context. Each arrives with a headline figure from its authors' own benchmark. This lesson
# gives 4 of them a rule in the course's fictional world, says what each rule puts in,
# and measures what comes out on [held-out seeds](../GLOSSARY.md#held-out), with
# [intervals](../GLOSSARY.md#interval) as the verdict.
#
# **After this lesson you can:**
#
# - state a pattern as a rule with its costs, and say which part of a measured result the rule
#   puts there ([by construction](../GLOSSARY.md#by-rule)) and which part emerges;
# - measure reflection with feedback against self-critique without it, counting the picks it
#   turns from wrong to right and from right to wrong, and what misleading feedback costs;
# - run a plan's independent branches at once and say what the speed-up depends on;
# - put a reviewer in front of a side-effect call, blocking or in parallel, and count what it
#   prevents and what it refuses;
# - compact a loop's trace and find where the tokens saved stop paying for the tasks lost.
#
# **It assumes:** lessons 1, 2 and 4 (the loops, the split, the contract), lesson 5's
# intervals over seeds and lesson 6's harness. **Time:** about an hour and a quarter for the
# core; the exercises about 40 minutes more; Going further 10 minutes.
#
# Every rule here is the **course's own** and off unless asked for: with a pattern's option
# off every earlier lesson's output is unchanged. A model's rule (a pick, a verdict) may know
# the truth; a scaffold (a schedule, what is re-sent) sees only what an agent sees. 3 of
# the patterns sit in the loop:
#
# ```mermaid
# flowchart TD
#     request["request"] --> pick["the model picks a tool<br/>(reflection: after a tool error)"]
#     pick --> review{"a side-effect call?<br/>(reviewer)"}
#     review -- "no" --> runs["the tool runs"]
#     review -- "yes: a verdict first,<br/>or beside it" --> runs
#     runs --> trace["the trace re-sent next step<br/>(compaction)"]
#     trace --> pick
# ```
#
# The fourth, parallel execution, runs a plan's independent steps at once. Each section: the
# source's claim, the course's rule, one task at one seed, then 100 held-out seeds at the
# budget of 8, the rule against the same loop without it on the same seeds. First, the seeds:

# %%
import pandas as pd
from IPython.display import Image, display

import sim
from sim import RunConfig, run_task
from sim.engine.contract import PLANNER_SECONDS
from sim.engine.fan_out import FAN_OUT_BOUNDS, fan_out_run, right_sequential_run
from sim.engine.plan_schema import tool_seconds
from sim.engine.reviews import run_seconds
from sim.engine.runs import run_with
from sim.exercises.patterns import (
    check_compaction_step_tokens,
    check_parallel_seconds,
    check_reflection_flips,
    check_review_prevented,
)
from sim.measurement import harness
from sim.measurement.compaction_sweep import compacted_steps, compaction_table, turn
from sim.measurement.fan_out import fan_out_outcomes, schedule_table, speedup_by_replans, speedup_table
from sim.measurement.reflection_flips import reflection_batch, reflection_table
from sim.measurement.review_counts import review_differences, review_runs, review_table, review_units
from sim.model import compaction, costs
from sim.model import fan_out_tasks as fo
from sim.model import reflection as rf
from sim.model import review as rv
from sim.presentation import figures, figures_your_agent
from sim.presentation.screen import say, show

pd.reset_option("display")  # tables print the same whatever your own pandas settings
BUDGET, SEED = sim.DEFAULT_BUDGET, sim.DEFAULT_SEED
SEEDS = harness.held_out_seeds(100)
print(f"budget {BUDGET} steps | one-run looks at seed {SEED} | {len(SEEDS)} held-out seeds from "
      f"{SEEDS[0]}, {len(sim.TASKS)} tasks each")  # fmt: skip

# %% [markdown]
# ## 1 · Reflection after a tool error
#
# Reflection is the pattern most tutorials show first: when a step goes wrong, let the model
# think about what went wrong before it acts again. Its best-known source is Reflexion
# ([Shinn et al., 2023](https://arxiv.org/abs/2303.11366)), whose feedback is external: a
# failed test, an error message. [Huang et al. (2023)](https://arxiv.org/abs/2310.01798) asked
# what happens when the model has only itself to go on. Their abstracts, as published:

# %%
say('Reflexion (arXiv 2303.11366): "Reflexion achieves a 91% pass@1 accuracy on the HumanEval coding '
    'benchmark, surpassing the previous state-of-the-art GPT-4 that achieves 80%."',
    'Huang et al. (arXiv 2310.01798): "our research indicates that LLMs struggle to self-correct their '
    'responses without external feedback, and at times, their performance even degrades after '
    'self-correction."')  # fmt: skip

# %% [markdown]
# Lesson 1's `self_critique` switch is the source's: it charges 40 tokens a tool error and
# changes no draw, so it can only cost. The course's 3 rules below let a reflection change
# the next pick (option `reflection`, `feedback` or `intrinsic`; `misleading_feedback` a
# share). The course's own rules, not the papers':
#
# rule | what it says
# --- | ---
# RF1, feedback | After a tool error the model reflects (`REFLECTION_TOKENS`). With share `FEEDBACK_SHARE` its next pick, while the job is not done, is the tool that supplies the first field the failed tool lacks (`SUPPLIERS`); else, and when no field is missing, its ordinary pick.
# RF2, intrinsic | Every pick made while the job is not done is critiqued before its call, with no feedback (`INTRINSIC_TOKENS` a critique): a right pick turns into a wrong one with share `RIGHT_TO_WRONG`, a wrong one into the right one with share `WRONG_TO_RIGHT` (the model may know the right tool: it is the model's skill).
# RF3, misleading feedback | Under RF1, with the share `misleading_feedback` the feedback names a tool other than the supplier, drawn uniformly among the others (it may be the right one).
#
# The values, from `sim.model.reflection`:

# %%
say(f"RF1: FEEDBACK_SHARE {rf.FEEDBACK_SHARE}, REFLECTION_TOKENS {rf.REFLECTION_TOKENS}",
    f"RF2: RIGHT_TO_WRONG {rf.RIGHT_TO_WRONG}, WRONG_TO_RIGHT {rf.WRONG_TO_RIGHT}, "
    f"INTRINSIC_TOKENS {rf.INTRINSIC_TOKENS}",
    "SUPPLIERS: " + ", ".join(f"{name} <- {tool}" for name, tool in rf.SUPPLIERS.items()))  # fmt: skip

# %% [markdown]
# A rule's draws come from a stream of its own, after the ordinary pick is made, so each pick
# a rule replaces is logged (`revised_from`) and counted as a **flip**: wrong to right or
# right to wrong. In the split a replaced executor pick uses up its plan position (the blind
# executor counts calls). G05 in the split at seed 20260218, without and with RF1:

# %%
for kind in ("off", "feedback"):
    run = run_task("plan-execute", "G05", SEED, BUDGET, reflection=None if kind == "off" else kind)
    steps = [f"{s.tool or 'stop'}{' (error)' if s.error else ''}"
             + (f" [replaced {s.revised_from}]" if s.revised_from else "") for s in run.log]  # fmt: skip
    say(f"reflection {kind}: plan {' '.join(run.plan)}; {run.steps} steps, answer {run.answer}, tokens {run.tokens}, "
        f"errors {run.errors}", "  " + ", ".join(steps))  # fmt: skip

# %% [markdown]
# The plan's first position is wrong (`tariff` before any reading). Without the rule the
# blind executor's first 3 calls fail. With it, the first error's feedback names
# `consumption`, already the plan's next position, so nothing is replaced; after
# `consumption` fails for want of the readings, RF1 sends the executor to `read_meter` in
# place of the plan's last position, and the run takes a step fewer. RF1 is nearer to
# passing a tool's error back within one run than to Reflexion's memory across trials.
#
# Over the held-out seeds, each rule against the same loop without reflection, same seeds.
# In the single loop the source's `self_critique` is a row as well: it charges the same 40
# tokens an error as RF1 and changes no draw, the fair baseline for RF1's cost. Misleading
# feedback (RF3) is swept in the split at shares 0.1 and 0.5.

# %%
variants = {
    "single-loop": {"RF1 feedback": RunConfig("single-loop", BUDGET, reflection="feedback"),
                    "RF2 intrinsic": RunConfig("single-loop", BUDGET, reflection="intrinsic"),
                    "self_critique": RunConfig("single-loop", BUDGET, self_critique=True)},
    "plan-execute": {"RF1 feedback": RunConfig("plan-execute", BUDGET, reflection="feedback"),
                     "RF2 intrinsic": RunConfig("plan-execute", BUDGET, reflection="intrinsic"),
                     **{f"RF3 {m}": RunConfig("plan-execute", BUDGET, reflection="feedback", misleading_feedback=m)
                        for m in (0.1, 0.5)}},
}  # fmt: skip
reflection = {
    setup: reflection_table(RunConfig(setup, BUDGET), named, SEEDS) for setup, named in variants.items()
}
for setup, table in reflection.items():
    say(f"{sim.SETUP_LABELS[setup]}: rule minus no reflection, a run of 24 tasks, mean [95 % interval]")
    show(pd.DataFrame({
        "rule": table["variant"],
        "success": [f"{r['success']:+.4f} [{r['success low']:+.4f}, {r['success high']:+.4f}]" for r in table.to_dict("records")],
        "tokens": [f"{r['tokens']:+.0f} [{r['tokens low']:+.0f}, {r['tokens high']:+.0f}]" for r in table.to_dict("records")],
        "tool errors": table["tool errors"].map("{:+.2f}".format),
        "w>r a task run": table["wrong to right"].map("{:.3f}".format),
        "r>w a task run": table["right to wrong"].map("{:.3f}".format),
    }))  # fmt: skip

# %% [markdown]
# The last 2 columns are flips, wrong to right (w>r) and right to wrong (r>w).
#
# **What the rules put there and what emerges.**
#
# - By the rules: RF1 costs 40 tokens an error, what `self_critique` costs on the same calls;
#   RF2 costs 40 a pick and flips right picks with share 0.1, wrong ones with 0.05.
# - Set by no share: the feedback names the supplier of the missing field, one link back
#   along the task's chain (after `tariff` fails before any reading, `consumption`, while the
#   job needs `read_meter`). That follows from `SUPPLIERS` and the tasks' chains, and it is
#   where the 2 loops part.
# - Single loop: the ordinary pick after a failed call is a fresh draw at the same position,
#   often right already, so RF1 turns right picks wrong more often than wrong picks right,
#   adds tool errors, and its success interval holds zero, at a cost in tokens well above
#   `self_critique`'s.
# - Split: the blind executor would otherwise walk on through a wrong plan. RF1's flips
#   nearly balance (0.108 against 0.093); its success interval lies above zero, with fewer
#   tool errors; once a tenth of the feedback misleads (RF3 0.1) the interval holds zero,
#   and the gain is no longer measured.
# - Intrinsic critique sees no error at all: in the split its success interval lies below
#   zero, the direction Huang et al. report, which here RF2's shares put there; its size
#   emerges from how many picks are right to begin with.
#
# ## 2 · Parallel plan execution
#
# LLMCompiler ([Kim et al., 2023](https://arxiv.org/abs/2312.04511)) has a planner write the
# whole graph of calls first, then runs every call whose inputs are ready at the same time.
# Its abstract:

# %%
say('LLMCompiler (arXiv 2312.04511): "We observe consistent latency speedup of up to 3.7x, cost savings '
    'of up to 6.7x, and accuracy improvement of up to ~9% compared to ReAct."')  # fmt: skip

# %% [markdown]
# "Up to" is the question. Calls run at once only if they do not wait for each other, so the
# speed-up depends on how wide the plan's graph is. Lesson 4's contract has a graph
# (`depends_on`), but every right plan for the 24 tasks is a chain, with nothing to run side
# by side. So the course adds tasks of its own that fan out: F01 to F12 ask for the total
# charge of k subscribers, 3 tasks at each width k from 1 to 4; each subscriber is a
# branch, lesson 1's charge sequence in a state of its own. The world and the 24 tasks stay
# as they are. The course's rules (option `parallel_steps` of the contract; the command
# `python -m sim fan-out`):
#
# rule | what it says
# --- | ---
# FO1, fan-out tasks | F01 to F12: the total charge of k subscribers (k in `WIDTHS`, `TASKS_PER_WIDTH` tasks a width). Each subscriber is a branch (read_meter, consumption, tariff) with a state of its own; the answer is the sum.
# FO2, the plan | One planner call writes all 3k positions, each right with selection(1), else a random tool (as the split's planner: depth does not enter).
# FO3, FO4, preconditions and replans | A branch's step runs when its tool's fields are held in its state; a wrong tool is called and paid; a failed precondition, a tool error, or positions that end without the amount stop the branch. When no branch can go on, one replan writes every failed branch's remaining positions (a model call that, as in lesson 4, may know the positions done), at most `max_replans` times; costs and seconds as the contract's.
# PX1, parallel steps | One step runs every ready call at once: its seconds are the longest call's, its tokens one executor step (after the calls before it) plus an observation a call. Off: one call a step, branch after branch. Executor turns take no seconds of their own; the tools and the planner do.
# FB1, bounds | The fan-out runs' bounds are `BOUND_FACTOR` times the longest right sequential run, the same for both schedules, fixed in advance.
#
# The values:

# %%
b = FAN_OUT_BOUNDS
say(f"FO1: widths {', '.join(map(str, fo.WIDTHS))}, {fo.TASKS_PER_WIDTH} tasks a width; FO2: selection(1) "
    f"= {sim.selection(1)}", f"FB1: BOUND_FACTOR {fo.BOUND_FACTOR}: {b.max_steps} steps, {b.max_tokens} tokens, "
    f"{b.max_seconds} s, {b.max_replans} replans")  # fmt: skip

# %% [markdown]
# One run: F04 (2 subscribers) at seed 0, a seed whose plan has a wrong position, to show a
# replan, with parallel steps. The planner writes branch
# 2's first position wrong (`search_docs` for `read_meter`). That call runs in the first
# wave beside branch 1's and is paid; then the branch's next step finds no readings and the
# branch stops, while branch 1 goes on. When no branch can go on, one replan writes branch
# 2's positions again. Below it, what a right run takes by width:

# %%
run = fan_out_run("F04", 0, parallel_steps=True)
say(f"each planner call takes {PLANNER_SECONDS} simulated seconds")
for event in run.events:
    say(f"step {event.step:2}  {event.seconds:3} s  {event.kind:12} {event.detail.replace(' -> ', ' > ')}")
branch_seconds = sum(map(tool_seconds, fo.BRANCH_SEQUENCE))
for width in fo.WIDTHS:
    seconds = right_sequential_run(width)[2]
    say(f"width {width}: a right run takes {seconds} s in sequence, "
        f"{PLANNER_SECONDS + branch_seconds} s with parallel steps")  # fmt: skip

# %% [markdown]
# Over 100 held-out seeds, each fan-out task run both ways at the same seed (the same plans
# from the same draws). The speed-up is each seed's sequential simulated seconds over its
# parallel ones (a width's 3 tasks together); seconds and tokens are parallel minus
# sequential, per run; each a mean with its 95 % interval over the seeds.

# %%
speedups = speedup_table(SEEDS)
cell = {"speedup": 2, "seconds": 1, "tokens": 0}
show(pd.DataFrame({"width": speedups["width"], **{
    name: ["{:.{d}f} [{:.{d}f}, {:.{d}f}]".format(*(round(v, d) + 0 for v in t), d=d)  # no "-0.00"
           for t in speedups[name]] for name, d in cell.items()}})
    .rename(columns={"speedup": "speed-up"}))  # fmt: skip
sequential, parallel = fan_out_outcomes(SEEDS, False), fan_out_outcomes(SEEDS, True)
differ = (sequential["calls"] != parallel["calls"]) | (sequential["correct"] != parallel["correct"])
bound = sequential["bound"] | parallel["bound"]
say(f"runs whose calls or answer differ between the schedules: {int(differ.sum())} of {differ.size}, "
    f"{int((differ & bound).sum())} of them stopped by an FB1 bound; runs a bound stopped: {int(bound.sum())}",
    f"success by width, parallel steps: {', '.join(f'{s:.2f}' for s in schedule_table(SEEDS, True)['success'])}")  # fmt: skip

# %% [markdown]
# **What the rules put there and what emerges.** Both schedules get the same plans from the
# same draws, so they make the same calls and reach the same success whenever no bound stops
# a run (the line under the table). Width 1 gains nothing. A right run of width k takes
# 5 + 4k seconds in sequence (the planner's 5, then each branch's 2 + 1 + 1) and 9 in
# parallel: the speed-up is at most 21/9 = 2.33 at width 4, and parallel tokens are never
# higher by construction, since one step carries the context once for all its calls. What
# emerges from the planner's errors is how far the mean falls below that cap: each replan is
# a planner call of 5 seconds that no schedule shortens (Going further splits the speed-up
# by replans). Under these rules the speed-up grows with the graph's width and shrinks with
# each replan. The paper's "up to 3.7x" is its best case, against ReAct, a model call for
# each tool call; here executor turns take no seconds of their own.
#
# ## 3 · A reviewer that can refuse
#
# Lesson 1's `approval` switch counts the calls that would ask for approval and never says
# no. Anthropic's [Building effective agents](https://www.anthropic.com/engineering/building-effective-agents)
# (under "Workflow: Parallelization") and the OpenAI Agents SDK's
# [guardrails page](https://openai.github.io/openai-agents-python/guardrails/) describe a judge
# beside the work:

# %%
say('Anthropic: "Implementing guardrails where one model instance processes user queries while another '
    'screens them for inappropriate content or requests. This tends to perform better than having the '
    'same LLM call handle both guardrails and the core response."',
    'Agents SDK docs: "Guardrails run _in parallel_ to your agents"; on a tripwire "we immediately raise a '
    '`{Input,Output}GuardrailTripwireTriggered` exception and halt the Agent execution".')  # fmt: skip

# %% [markdown]
# The first claim has no figure. The second says when a parallel judge's verdict lands: it
# may trip after the work it guards has begun. The SDK installed here (lesson 7's) has that
# default, in its own source:

# %%
import re
from importlib.metadata import files, version

guardrail = next(f for f in files("openai-agents") if f.as_posix() == "agents/guardrail.py")
default = re.search(r"run_in_parallel: bool = (\w+)", guardrail.read_text()).group(1)
say(
    f"openai-agents {version('openai-agents')}: InputGuardrail.run_in_parallel defaults to "
    f"{'on' if default == 'True' else 'off'} (its source: run_in_parallel = {default.lower()})"
)

# %% [markdown]
# (In the SDK that parallel guardrail screens the user's input on the first turn; a check of
# one tool call runs before the tool.) The course's rules put a reviewer on every write (option `reviewer`, `blocking` or `parallel`), and give the
# loops a clock. The reviewer is a model call, so under the model's rules it may know the
# truth (the task's correct answer); the loop that obeys it is scaffolding and sees only the
# verdict. The course's rules:
#
# rule | what it says
# --- | ---
# RV1, the reviewer | Every `write_record` call is reviewed by a second model call (`REVIEW_TOKENS`, `REVIEW_SECONDS`). A write is right only when a record task writes its correct answer for its own subscriber; the reviewer refuses a wrong write with share `CATCH_SHARE` and a right one with share `FALSE_REFUSAL_SHARE`, with draws of its own.
# RV2, blocking | The write waits for the verdict. A refused write is not made: the step counts as a tool error (`REFUSAL` names it), the step is paid, the loop goes on.
# RV3, parallel | The write runs beside the review. A refusal trips the run at once, after the write, and the run returns no answer (the SDK raises).
# RV4, a clock | A loop step takes a model call (`MODEL_STEP_SECONDS`) plus its tool's seconds (CT10); blocking adds the review before the write, parallel only the review's overhang past the write.
#
# The values, from `sim.model.review`:

# %%
say(f"RV1: REVIEW_TOKENS {rv.REVIEW_TOKENS}, REVIEW_SECONDS {rv.REVIEW_SECONDS}, CATCH_SHARE {rv.CATCH_SHARE}, "
    f"FALSE_REFUSAL_SHARE {rv.FALSE_REFUSAL_SHARE}", f"RV2: REFUSAL {rv.REFUSAL!r}",
    f"RV4: MODEL_STEP_SECONDS {rv.MODEL_STEP_SECONDS}")  # fmt: skip

# %% [markdown]
# G15 asks for a charge to be written. At seed 20260219 (argument errors, AE1, at a share of
# 0.1, as in the measurement below) a stray `consumption` pick after the tariff replaces the
# charge with the m3, so the loop holds the m3 when it writes. Off, the wrong value is
# written; blocking, the reviewer refuses it and the model picks `write_record` again until
# the budget runs out; parallel, the first refusal trips the run.

# %%
for mode in (None, "blocking", "parallel"):
    run = run_with(
        RunConfig("single-loop", BUDGET, argument_errors=0.1, reviewer=mode), sim.check_task("G15"), SEED + 1
    )
    verdicts = " ".join("refused" if r.refused else "passed" for r in run.reviews) or "-"
    writes = [s.step for s in run.log if s.tool == "write_record"]
    ending = "tripped, no answer" if run.tripped else f"answer {run.answer}"
    say(f"{mode or 'off':8}  writes at steps {writes}, verdicts {verdicts}; {ending}, "
        f"tokens {run.tokens}, seconds {run_seconds(run)}")  # fmt: skip
say(f"correct answer of G15: {sim.correct_answer('G15')}")

# %% [markdown]
# Over 100 held-out seeds, the single loop with AE1 at 0.1 (more wrong writes to catch; the
# panel shows the split at any seed), counted over all task runs. "Wrong made": writes
# that reached the world wrong (a wrong value or subscriber, or a write the task never asked
# for); "prevented": wrong writes with a value that a refusal kept out (a wrong write picked
# again and refused again counts again); "right lost": task runs whose right write was
# refused and never made.

# %%
grids = {("single-loop", mode): review_runs(RunConfig("single-loop", BUDGET, argument_errors=0.1, reviewer=mode), SEEDS)
         for mode in (None, "blocking", "parallel")}  # fmt: skip
names = {key: f"{sim.SETUP_LABELS[key[0]]}, {key[1] or 'off'}" for key in grids}
counts = review_table({names[key]: grid for key, grid in grids.items()})
show(counts[["reviews", "wrong writes made", "wrong writes prevented", "right writes refused",
             "right writes lost"]]
     .rename(columns=lambda c: c.replace(" writes", "").replace("wrong prevented", "prevented"))
     .rename_axis("reviewer").reset_index())  # fmt: skip
for key in grids:
    if key[1] == "parallel":
        row = counts.loc[names[key]]
        say(f"{names[key]}: {int(row['trips'])} trips, {int(row['trips on a wrong write'])} of them on a "
            f"wrong write (an empty call counts as one); spent before a trip: {row['tokens a trip']} tokens, "
            f"{row['seconds a trip']} s")  # fmt: skip

# %% [markdown]
# The headline: the same-seed differences against the same loop without a reviewer, a run of
# 24 tasks, each a mean over the seeds with its 95 % interval:

# %%
UNITS = ("success", "tokens", "seconds", "wrong writes made", "right writes made")
units = {key: review_units(grid) for key, grid in grids.items()}
pairs = {f"{names[key]} - off": (units[key], units[key[0], None]) for key in grids if key[1]}
digits = dict(zip(UNITS, (3, 0, 1, 2, 2), strict=True))
show(pd.DataFrame([{"comparison": name, **{
    unit: f"{t.loc[unit, 'mean difference']:+.{d}f} [{t.loc[unit, 'low']:+.{d}f}, {t.loc[unit, 'high']:+.{d}f}]"
    for unit, d in digits.items()}} for name, (on, off) in pairs.items() for t in [review_differences(on, off, UNITS)]]))  # fmt: skip
for key in grids:
    if key[1] == "blocking":
        runs = [run for row in grids[key] for run in row]
        refused = [run for run in runs if any(r.wrong and r.refused for r in run.reviews)]
        mended = sum(any(not r.wrong and r.made for r in run.reviews) for run in refused)
        say(f"{names[key]}: {mended} of {len(refused)} runs with a refused wrong write made a right one")

# %% [markdown]
# **What the rules put there and what emerges.**
#
# - By the rules: a review's 100 tokens and 3 seconds; that a blocked write is never made;
#   that a trip ends the run with no answer after the write; and the retry after a refusal:
#   the model's progress (AA27) does not advance on an error, so its next pick aims at
#   `write_record` again with the same answer held, and only a fresh draw of the arguments
#   (AE1) or a stray pick changes what it writes, so few runs with a refused wrong write go
#   on to a right one.
# - Blocking: success is the answer held, not the record written, so the reviewer shows in
#   the write counts: its success interval holds zero while its wrong writes fall.
# - Parallel: it catches as often but too late, and each trip costs the run its answer, so
#   its success interval lies below zero; its runs are shorter, so it spends fewer tokens and
#   seconds than no reviewer at all, an economy bought with lost answers.
# - What emerges: how many wrong writes there are to catch, and the size of the success lost
#   to trips.

# %% [markdown]
# ## 4 · A compacted trace
#
# Lesson 1's central cost is the trace every step sends again: a single-loop step costs
# 60 + 22 a call in the trace, so a run pays for its history at each step. The
# practitioner's answer is to send less of it. Anthropic's announcement
# [Managing context on the Claude Developer Platform](https://www.anthropic.com/news/context-management)
# describes context editing, and its engineering note
# [Effective context engineering for AI agents](https://www.anthropic.com/engineering/effective-context-engineering-for-ai-agents)
# names the price of doing it by summary:

# %%
say('Anthropic, context management: "Context editing automatically clears stale tool calls and results '
    'from within the context window when approaching token limits." (its headline, as reported: in a '
    '100-turn web search evaluation, token consumption fell by 84%)',
    'Anthropic, context engineering: "The art of compaction lies in the selection of what to keep versus '
    'what to discard, as overly aggressive compaction can result in the loss of subtle but critical context '
    'whose importance only becomes apparent later."')  # fmt: skip

# %% [markdown]
# The course's rules put a price on the summary and on what the model loses by
# reading it in place of the calls (option `keep_last`, a count of calls, both loops):
#
# rule | what it says
# --- | ---
# CP1, the cost | A step re-sends only the last k calls of its trace in full (the source's tokens a call: 22 in the single loop, 10 in the executor) and, when the trace holds more than k, a summary of the earlier ones: `SUMMARY_TOKENS` once plus `SUMMARY_TOKENS_PER_CALL` a summarized call.
# CP2, the loss | When the pick's target needs a field (its schema's fields the request does not give; for `write_record` the answer held) that only a summarized call produced, a right pick stays right only with share `SUMMARY_RECALL` (draws of its own), else the model takes another tool at random. The split's executor follows its plan blindly (AA26), so CP2 touches only its picks after the plan.
#
# The tools still get the whole state, which the harness holds: compaction changes what the
# model re-reads, not what the agent holds. The values, from `sim.model.compaction`:

# %%
say(f"CP1: SUMMARY_TOKENS {compaction.SUMMARY_TOKENS}, SUMMARY_TOKENS_PER_CALL {compaction.SUMMARY_TOKENS_PER_CALL}; "
    f"a call kept costs {costs.LOOP_TOKENS_PER_CALL} (single loop), {costs.EXECUTOR_TOKENS_PER_CALL} (executor), "
    f"a single-loop step {costs.LOOP_STEP_TOKENS} + that", f"CP2: SUMMARY_RECALL {compaction.SUMMARY_RECALL}")  # fmt: skip

# %% [markdown]
# G05 at seed 20260218 in the single loop, keeping the last call only, against the whole
# trace: each step's tokens, what it re-sends and summarizes, and the fields by then only in
# the summary.

# %%
compacted = run_task("single-loop", "G05", SEED, BUDGET, keep_last=1)
full = run_task("single-loop", "G05", SEED, BUDGET)
show(compacted_steps(compacted))
say(f"keep_last 1: {compacted.steps} steps, {compacted.tokens} tokens, answer {compacted.answer}; "
    f"the whole trace: {full.steps} steps, {full.tokens} tokens, answer {full.answer}")  # fmt: skip

# %% [markdown]
# Over 100 held-out seeds, k from 1 to 6 in the single loop against the same loop with the whole
# trace, same seeds: the success and tokens a run, tokens per solved task, and the
# differences (whole trace minus compacted: a positive "success lost" is a loss, a positive
# "tokens saved" a saving) with their 95 % intervals. Where the curve turns is read two
# ways: the k with the least tokens per solved task, and the smallest k from which the
# success lost holds zero in its interval at that k and every larger one.

# %%
KEEP = range(1, 7)


def show_compaction(table):
    """A compaction table as the lesson prints it, and where its curve turns."""
    show(pd.DataFrame({
        "k": table["keep_last"].map(lambda k: "whole" if pd.isna(k) else f"{int(k)}"),
        "success": table["success"].map("{:.4f}".format), "tokens": table["tokens"].map("{:.0f}".format),
        "tokens per solved": table["tokens per solved"].map("{:.1f}".format),
        "success lost": [f"{r['success lost']:+.4f} [{r['success low']:+.4f}, {r['success high']:+.4f}]"
                         if pd.notna(r["keep_last"]) else "" for r in table.to_dict("records")],
        "tokens saved": [f"{r['tokens saved']:+.1f} [{r['saved low']:+.1f}, {r['saved high']:+.1f}]"
                         if pd.notna(r["keep_last"]) else "" for r in table.to_dict("records")],
    }))  # fmt: skip
    where = turn(table)
    say(f"  turn: least tokens per solved task at k = {where['cheapest'] or 'none (the whole trace)'}; "
        f"success indistinguishable from the whole trace's from k = {where['indistinguishable']}")  # fmt: skip


single = compaction_table("single-loop", KEEP, SEEDS, BUDGET)
say("single loop:")
show_compaction(single)
CHEAPEST = turn(single)["cheapest"]
best = single[single["keep_last"] == CHEAPEST].iloc[0]
saved = single.set_index("keep_last")["tokens saved"] / single["tokens"].iloc[0]
say(f"single loop: the largest saving at k = {saved.idxmax()}, {100 * saved.max():.1f} % of the whole trace's "
    f"tokens; at k = {CHEAPEST} (least tokens per solved task) {100 * best['tokens saved'] / single['tokens'].iloc[0]:.1f} %")  # fmt: skip

# %% [markdown]
# **What the rules put there and what emerges.** The summary's price, the share a right pick
# keeps, the executor's plan picks left alone: the rules put those there, and with them the
# arithmetic of a saving. A summarized call saves 22 - 4 tokens in the single loop against
# the summary's 20 once, and 10 - 4 in the executor, so compaction pays only when several
# calls are summarized at once. How often a pick needs a field that has moved into the
# summary, how many extra steps those misses cost, and so the net, emerge: in the single
# loop the saving peaks at 1.3 % of the tokens (k = 2), keeping 1 call loses tokens and
# tasks alike (the split, in Going further, gains at no k). Tokens per solved task are
# least at k = 3, a hair below k = 2 (518.1 against 518.2), and that k is picked on these same seeds: read the
# plane's point for it as a best case. The source's figure comes from 100-turn runs whose old
# results pile up, by context editing, which clears old tool results and writes no summary;
# this world's runs are at most 8 steps with small observations, and CP1 pays for its
# summary. What a real summary loses the simulator cannot say.

# %% [markdown]
# ## The patterns side by side
#
# The loop patterns on one success-cost plane: the single loop at the budget of 8 over the
# same held-out seeds, with no pattern, with the source's `self_critique`, with each rule of
# this lesson (the reviewers here without argument errors, so every point runs the same
# tasks under the same model), and the compacted trace at its cheapest k. Each point's
# intervals are its own; the sections' same-seed tables give the differences (the reviewers'
# there with argument errors, so not these points').

# %%
PLANE = {
    "no pattern": RunConfig("single-loop", BUDGET),
    "self_critique (source)": RunConfig("single-loop", BUDGET, self_critique=True),
    "RF1 feedback": RunConfig("single-loop", BUDGET, reflection="feedback"),
    "RF2 intrinsic": RunConfig("single-loop", BUDGET, reflection="intrinsic"),
    "RV2 blocking reviewer": RunConfig("single-loop", BUDGET, reviewer="blocking"),
    "RV3 parallel reviewer": RunConfig("single-loop", BUDGET, reviewer="parallel"),
    f"CP1-CP2 keep last {CHEAPEST}": RunConfig("single-loop", BUDGET, keep_last=CHEAPEST),
}
runs = {
    name: reflection_batch(config, SEEDS)[0] if config.reflection else harness.entrant_run(config, SEEDS)
    for name, config in PLANE.items()
}  # the reflection runs as the section above ran them
plane = harness.cost_success(runs)
path = figures.save_figure(figures_your_agent.draw_cost_success(plane, "(held-out, single loop, budget 8)"),
                           "08_patterns-cost-success")  # fmt: skip
display(Image(filename=path))
show(pd.DataFrame({"pattern": plane["entrant"],
                   "success [95 % interval]": [f"{r.success:.4f} [{r.success_low:.4f}, {r.success_high:.4f}]"
                                               for r in plane.itertuples()],
                   "tokens per run [95 % interval]": [f"{r.tokens:.0f} [{r.tokens_low:.0f}, {r.tokens_high:.0f}]"
                                                      for r in plane.itertuples()]}))  # fmt: skip

# %% [markdown]
# ## Summary
#
# Each source's headline beside what the course's rule gives here, over 100 held-out seeds:
#
# pattern | the source says | the course's rule gives
# --- | --- | ---
# reflection with feedback | Reflexion: 91 % pass@1 on HumanEval against GPT-4's 80 % | a success gain measured in the split only, no longer measured once a tenth of the feedback misleads; none measured in the single loop
# intrinsic critique (RF2) | Huang et al.: struggles, may degrade | a success loss in the split (its direction set by RF2's shares), the dearest tokens in both loops
# parallel plan execution | LLMCompiler: up to 3.7x lower latency | a speed-up that grows with the graph's width and shrinks with each replan, at most 21/9 = 2.33 at width 4 (the widest task) by the clock rules
# a guardrail beside the work | Anthropic: "tends to perform better" (against one call doing both, not tested here); the Agents SDK runs input guardrails in parallel and halts the run (RV3 puts that timing on a write) | blocking keeps most wrong writes out with no success difference measured; parallel catches them after the write and loses answers
# a compacted trace | Anthropic, as reported: 84 % fewer tokens in a 100-turn evaluation, by context editing | at most 1.3 % saved in these short runs, with tasks lost when too little is kept

# %% [markdown]
# - A pattern is a rule with costs. Stated as a rule, each one here splits into what the rule
#   puts there (the tokens of a reflection or a review, the cap on a speed-up, a blocked
#   write never made) and what emerges from the rest of the model (whether feedback names the
#   tool needed now, how many replans a wide plan needs, how often the loop writes again).
# - Reflection pays where the loop would otherwise go on blindly (the split's executor), and
#   its measured gain goes once a tenth of the feedback misleads; critique without feedback
#   costs the most.
# - Running independent calls at once saves simulated seconds that grow with the graph's
#   width, less with every replan; the 24 tasks' right plans are chains, with nothing to run
#   side by side.
# - A reviewer that blocks keeps wrong writes out; one that runs beside the write can only
#   halt the run after it, and halting costs answers.
# - Compacting a short trace saves little here, and keeping too little loses tasks.
#
# ## Exercises
#
# Set your own seed in each cell; each check computes the answer for your seed and says
# right or wrong, never the answer.
#
# 1. **Flips.** Write `count_flips(run)`: `(wrong_to_right, right_to_wrong)` read from a run's
#    step log. A step whose `revised_from` is not None had its pick replaced; the pick
#    replaced was right when it was the step's `target`, the pick made is right when
#    `step.right` is true. The check runs your function on every run of both loops under RF1
#    and RF2 at your seed.

# %%
MY_SEED = 12345  # your seed: any whole number 0 <= seed < 2**32


def count_flips(run):
    return None  # replace with (wrong_to_right, right_to_wrong)


print(check_reflection_flips(MY_SEED, count_flips))

# %% [markdown]
# 2. **Parallel seconds.** Write `parallel_seconds(events)`: from a *sequential* fan-out run's
#    events (`fan_out_run(task, seed).events`), the simulated seconds the same task takes at
#    the same seed with parallel steps. Every planner call takes its 5 s; between two planner
#    calls, each branch's first call runs in the first wave, its second in the second, and so
#    on, and a wave lasts as long as its longest call; a `"tool error"` event is a call too. A call event's `detail` starts with its
#    branch, as in `"b2 read_meter"`; `tool_seconds(tool)` gives a call's seconds.


# %%
def parallel_seconds(events):
    return None  # replace with the parallel run's simulated seconds


print(check_parallel_seconds(MY_SEED, parallel_seconds))

# %% [markdown]
# 3. **Prevented writes.** Write `prevented(run)`: the wrong writes a blocking reviewer kept
#    out of the world in one run, read from `run.reviews` (each review has `wrong`, `refused`,
#    `made` and `value`). A call with no value writes nothing, refused or not. The check runs
#    your function on the single loop with a blocking reviewer and argument errors at 0.1,
#    all 24 tasks at 5 seeds from yours.


# %%
def prevented(run):
    return None  # replace with the count


print(check_review_prevented(MY_SEED, prevented))

# %% [markdown]
# 4. **A compacted step.** Write `step_tokens(trace_length, keep_last)`: a single-loop step's
#    tokens under CP1, before its observation (lesson 1's 60 + 22 x the calls re-sent, plus
#    the summary's cost when calls are summarized). The check compares it with every step the
#    single loop takes at your seed with keep_last 1, 2 and 3.


# %%
def step_tokens(trace_length, keep_last):
    return None  # replace with the step's tokens


print(check_compaction_step_tokens(MY_SEED, step_tokens))

# %% [markdown]
# ## Explore
#
# Choose a pattern, a loop and, for the compacted trace, how many calls are kept; change the
# seed (**new seed** draws one) and the budget. At the seed the panel puts the pattern beside
# the same loop without it: the sums over the 24 tasks (one run each, a single trial: the
# intervals above are the verdict), tokens task by task as the figure, and the task's steps
# under the pattern. For parallel steps it shows the 12 fan-out tasks instead, at their own
# bounds, seconds task by task, and the steps of F10, a task of width 4. **reset** brings
# back the lesson's defaults. The panel's output is not part of the checked record.

# %% tags=["nbval-ignore-output"]
from sim.presentation.panel_patterns import patterns_panel

panel = patterns_panel()
panel

# %% [markdown]
# ## Going further (optional)
#
# **The speed-up by replans.** The fan-out runs of the section on parallel steps, split by how
# many replans a run needed: a run that needed none reaches the cap of its width, and each
# replan pulls it down.

# %%
show(speedup_by_replans(SEEDS).round(2))

# %% [markdown]
# **The compacted trace in the split.** The executor's kept call costs 10 tokens, not 22, so a
# summary pays only when 4 or more calls are summarized (CP1); and CP2 still touches its
# picks after the plan.

# %%
say("planner + executor:")
show_compaction(compaction_table("plan-execute", KEEP, SEEDS, BUDGET))
