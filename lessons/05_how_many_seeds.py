# ---
# jupyter:
#   jupytext:
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
# # Lesson 5 · How many seeds?
#
# Lesson 2 judged the planner/executor split with 2 runs. Its rule was strict and simple: a
# difference between the setups counts as measured only when, on every run, it is larger
# than the larger of the setups' own run-to-run differences. By that rule the split's effect
# on success was unmeasured, its token saving was measured, and its extra tool errors were a
# direction without a measured size.
#
# "Unmeasured" is a statement about 2 runs, not about the agents. This lesson asks what more
# seeds would tell, and answers with figures:
#
# 1. How widely does each counted unit spread over many seeds, and where inside that spread
#    do the lesson's 2 runs sit?
# 2. How does the paired difference between the setups, and its confidence interval, change
#    as the number of seeds grows? From how many seeds on does the interval leave zero out?
# 3. Where do the 2-run band rule and the intervals agree, and where not?
# 4. How reliable is each setup when the same task is run k times (pass^k)?
#
# Everything is **fictional** and deterministic, as in every lesson. The seeds of a study of
# N seeds are 20260218 + i for i = 0..N-1, so the lesson's runs A and B are always its first
# 2 seeds. First, the versions of the libraries the printed figures depend on, the seeds,
# the budget and the settings of every interval in this lesson.

# %%
import ipywidgets
import matplotlib
import numpy as np
import pandas as pd
import scipy
from IPython.display import Image, display

import sim
from sim import figures, figures_how_many_seeds, study

pd.reset_option("display")  # tables print the same whatever your own pandas settings
print(
    f"numpy {np.__version__} | scipy {scipy.__version__} | pandas {pd.__version__} | "
    f"matplotlib {matplotlib.__version__} | ipywidgets {ipywidgets.__version__}"
)
BUDGET = sim.DEFAULT_BUDGET
SIZES = study.STUDY_SIZES
N_MAX = max(SIZES)
SEEDS = sim.study_seeds(N_MAX, study.STUDY_FIRST_SEED)
print(
    f"seeds of an N-seed study: {SEEDS[0]} + i, i = 0..N-1 | run A: seed {SEEDS[0]} | run B: seed {SEEDS[1]}"
)
print(f"step budget: {BUDGET} steps for both setups | numbers of seeds studied: {', '.join(map(str, SIZES))}")
print(
    f"intervals: {study.CONFIDENCE:.0%} percentile bootstrap (scipy.stats.bootstrap, method='percentile'), "
    f"{study.RESAMPLES} resamples, numpy Generator seeded with {study.RESAMPLING_SEED}"
)

# %% [markdown]
# ## Many seeds at once
#
# Running the one-seed path of lesson 2 seed after seed is fine for 2 runs and slow for
# thousands. `sim.run_batch` runs one setup on every task at every seed of an array at once,
# with numpy, one draw stream per (task, seed). It is not a new model: the test suite checks
# that every outcome of every (task, seed) equals the one-seed path's, over more than 1,000
# seeds and several budgets, and `benchmarks/batch_speed.py` times the two paths.
#
# Here the batch path reproduces lesson 2's table at the lesson's seeds, and the cell stops
# if it ever does not.

# %%
single_ab = [sim.measure("single-loop", seed, BUDGET) for seed in SEEDS[:2]]
split_ab = [sim.measure("plan-execute", seed, BUDGET) for seed in SEEDS[:2]]
print(sim.format_table(sim.seed_table(single_ab + split_ab)))
for one_seed, setup in ((single_ab, "single-loop"), (split_ab, "plan-execute")):
    batch = sim.measure_batch(setup, SEEDS[:2], BUDGET)
    for unit in ("solved", "steps", "calls", "tokens", "errors"):
        assert getattr(batch, unit).tolist() == [getattr(m, unit) for m in one_seed], (setup, unit)
print("the batch path gives the same figures at seeds A and B")

# %% [markdown]
# Now the whole study at once: both setups, all 24 tasks, 10,000 seeds.

# %%
single = sim.run_batch("single-loop", SEEDS, BUDGET)
split = sim.run_batch("plan-execute", SEEDS, BUDGET)
per_seed = {"single loop": single.per_seed(), "planner + executor": split.per_seed()}
runs = single.correct.size + split.correct.size
print(f"{len(SEEDS)} seeds x {len(sim.TASKS)} tasks x 2 setups = {runs} task runs")

# %% [markdown]
# ## The spread over 10,000 seeds
#
# Each seed gives one run of 24 tasks per setup, and one value of each counted unit. The
# table shows how those values spread over the 10,000 seeds: mean, standard deviation, and
# the 5th, 50th and 95th percentiles. The last columns place runs A and B in that spread: the
# share of seeds with a lower value, and with the same value.

# %%
UNIT_FIELDS = {"tasks solved": "solved", "tokens": "tokens", "tool errors": "errors"}
rows = []
for label, m in per_seed.items():
    for unit, field in UNIT_FIELDS.items():
        values = getattr(m, field)
        row = {
            "setup": label,
            "unit": unit,
            "mean": f"{values.mean():.2f}",
            "sd": f"{values.std(ddof=1):.2f}",
        }
        for q in (5, 50, 95):
            row[f"p{q}"] = f"{np.percentile(values, q):g}"
        for name, index in (("A", 0), ("B", 1)):
            below = (values < values[index]).mean()
            same = (values == values[index]).mean()
            row[name] = f"{values[index]} ({below:.2f} below, {same:.2f} same)"
        rows.append(row)
print(pd.DataFrame(rows).to_string(index=False))

# %% [markdown]
# The figure draws the same spreads; the dashed lines are runs A and B in each setup's
# colour.

# %%
path = figures.save_figure(
    figures_how_many_seeds.draw_seed_distributions(per_seed, marked=(0, 1)), "05_how_many_seeds-spread"
)
display(Image(filename=path))

# %% [markdown]
# Lesson 2's 2 runs were not far out in the spread, but they were few. The single loop
# solved 23 of 24 tasks on both runs, as 0.3585 of all seeds do; its mean is 22.55. The
# split solved 21 tasks on run A, and only 0.07 of the seeds do worse. Its tokens on runs A
# and B (10345 and 10135) both lie below its median of 10375. A spread this wide is what the
# band rule guards against: with 2 runs, each setup's run-to-run difference is one draw
# from it.

# %%
for label, m in per_seed.items():
    share_23 = (m.solved == 23).mean()
    print(f"{label}: mean tasks solved {m.solved.mean():.2f}; share of seeds with 23 solved {share_23:.4f}")
print(f"planner + executor tokens: median {np.median(per_seed['planner + executor'].tokens):g}")

# %% [markdown]
# ## The paired difference, and how sure we can be of it
#
# Both setups ran on the same seeds and the same tasks, so the comparison is **paired**: for
# each seed, the split's figure minus the single loop's. Its mean over N seeds estimates the
# split's effect. How far that estimate could move is told by a bootstrap interval: draw N
# seeds with replacement from the N we have, take the mean difference again, repeat 10,000
# times, and keep the middle 95 % of those means.
#
# What we resample decides which question the interval answers:
#
# - **Resampling seeds** (each seed with its 24 tasks): would another seed of the same agents
#   on *these* 24 tasks give a different difference? Seeds are the only source of chance, so
#   this interval narrows without end as N grows.
# - **Resampling tasks** (each task with all N of its seeds): would *other tasks like these*
#   give a different difference? With only 24 tasks, this interval stops narrowing once each
#   task's own effect is known: more seeds cannot stand in for more tasks.
#
# Differences are per run of 24 tasks: success as a share of the tasks, tokens and tool
# errors as counts. The table shows every number of seeds studied.

# %%
intervals = study.interval_table(single, split, units=("success", "tokens", "tool errors"), sizes=SIZES)


def show_intervals(table, unit, digits):
    rows = []
    for n_seeds in SIZES:
        row = {"seeds": n_seeds}
        for way in study.RESAMPLE_WAYS:
            r = table[
                (table["unit"] == unit) & (table["n_seeds"] == n_seeds) & (table["resample"] == way)
            ].iloc[0]
            row["difference"] = f"{r.difference:.{digits}f}"
            row[f"interval, resampling {way}"] = f"[{r.low:.{digits}f}, {r.high:.{digits}f}]"
            row[f"zero out ({way})"] = "yes" if r.excludes_zero else "no"
        rows.append(row)
    print(f"{unit}: planner + executor minus single loop, per run of {len(sim.TASKS)} tasks")
    print(pd.DataFrame(rows).to_string(index=False))


show_intervals(intervals, "success", 4)

# %%
show_intervals(intervals, "tokens", 1)

# %%
show_intervals(intervals, "tool errors", 2)

# %% [markdown]
# The figure puts the tables above side by side: a dot for the difference, a bar for the
# interval, resampling seeds on the left of each pair and resampling tasks on the right.

# %%
path = figures.save_figure(
    figures_how_many_seeds.draw_interval_growth(intervals), "05_how_many_seeds-intervals"
)
display(Image(filename=path))

# %% [markdown]
# ### From how many seeds on is the effect shown?
#
# For each unit and each way of resampling, the smallest number of seeds studied from which
# on the interval leaves zero out at every larger number too. (An interval can leave zero
# out once by chance and take it back at the next size: tool errors resampled by task leave
# zero out at 10 seeds and take it back at 30.)

# %%
for unit in ("success", "tokens", "tool errors"):
    for way in study.RESAMPLE_WAYS:
        n = study.smallest_study(intervals, unit, way)
        last = intervals[(intervals["unit"] == unit) & (intervals["resample"] == way)].iloc[-1]
        if n is None:
            print(f"{unit}, resampling {way}: the interval holds zero up to {N_MAX} seeds "
                  f"([{last.low:.4f}, {last.high:.4f}])")  # fmt: skip
        else:
            print(f"{unit}, resampling {way}: zero is out from {n} seeds on "
                  f"(at {N_MAX} seeds: {last.difference:.4f} in [{last.low:.4f}, {last.high:.4f}])")  # fmt: skip
at_max = intervals[(intervals["unit"] == "success") & (intervals["n_seeds"] == N_MAX)].set_index("resample")
lost = -at_max.loc["seeds", "difference"] * len(sim.TASKS)
widths = at_max["high"] - at_max["low"]
print(f"success at {N_MAX} seeds: {lost:.2f} tasks fewer per run, 1 task lost every {1 / lost:.1f} runs; "
      f"interval resampling tasks {widths['tasks'] / widths['seeds']:.1f} times as wide as resampling seeds")  # fmt: skip

# %% [markdown]
# What the figures show:
#
# - **Success.** The split *does* solve fewer tasks, by a small amount: -0.0079 of the tasks
#   per run at 10,000 seeds, 0.19 tasks: 1 task lost every 5.3 runs. At 10 and 30 seeds
#   the difference even has the other sign, and the interval holds zero at 100 seeds too.
#   From 300 seeds on, both intervals leave zero out. Resampled by task, the interval at
#   10,000 seeds is still [-0.0150, -0.0012], 5.2 times as wide as resampled by seed: the
#   loss sits on some tasks more than others, and 24 tasks say little about tasks in general.
# - **Tokens.** The saving is large against every spread: both intervals leave zero out from
#   10 seeds on. By seed the interval is tight at 10,000 seeds; by task it stays wide: the
#   saving differs from task to task, and another set of tasks could save more or less.
# - **Tool errors.** The split's extra errors are shown from 30 seeds by seed and from 100
#   seeds by task.
#
# ## The band rule against the intervals
#
# Lesson 2's rule decides with 2 runs. Set its verdicts at runs A and B beside the interval
# over 10,000 seeds (resampling seeds), for all 5 counted units. The rule's verdicts are
# printed by `sim.compare_setups`, as in lesson 2.

# %%
verdicts = sim.compare_setups(single_ab, split_ab)
long_run = {unit: study.paired_interval(single, split, unit, N_MAX, "seeds") for unit in sim.UNIT_NAMES}
rows = []
for v in verdicts:
    interval = long_run[v.unit]
    digits = 4 if v.unit == "success" else 2
    rows.append({
        "unit": v.unit,
        "differences A, B": ", ".join(map(str, v.differences)) + (" tasks" if v.unit == "success" else ""),
        "band": v.band,
        "band rule": v.verdict,
        f"{N_MAX} seeds": f"{interval.difference:.{digits}f} [{interval.low:.{digits}f}, {interval.high:.{digits}f}]",
        "agreement": study.agreement(v.verdict, v.differences, interval),
    })  # fmt: skip
print(pd.DataFrame(rows).to_string(index=False))
print("success over 10000 seeds as a share of tasks; the other units per run of 24 tasks")
agree = sum(row["agreement"].startswith("agree") for row in rows)
print(f"the band rule and the intervals agree on {agree} units and differ on {len(rows) - agree}")

# %% [markdown]
# The rule and the intervals agree on 2 units, steps and tokens: both measured, in the same
# direction. They differ on 3 units, in 2 ways:
#
# - On **success** and **tool errors** the rule says unmeasured and the intervals show an
#   effect. The rule is not wrong there, it is cautious: 2 runs cannot show an effect of
#   -0.0079 of the tasks, and the size of the extra tool errors was out of its reach.
# - On **tool calls** the rule says measured (3 and 4 fewer calls, above a band of 1), and
#   10,000 seeds show the opposite: the split makes 0.86 *more* tool calls per run. Runs A
#   and B happened to be kind to the split, and a band of 1 call, itself one draw, was too
#   small to warn.
#
# How often does the rule go wrong? Apply it to the 5,000 disjoint pairs of seeds of the
# study, (0, 1), (2, 3) and so on, and count the verdicts, and the direction of each
# "measured".

# %%
rows = []
for unit in sim.UNIT_NAMES:
    counts = study.band_rule_over_pairs(per_seed["single loop"], per_seed["planner + executor"], unit)
    right = counts["measured_up"] if long_run[unit].difference > 0 else counts["measured_down"]
    rows.append({
        "unit": unit, "pairs": counts["pairs"], "measured": counts["measured"],
        "share measured": f"{counts['measured'] / counts['pairs']:.4f}",
        "measured, right direction": right, "measured, wrong direction": counts["measured"] - right,
    })  # fmt: skip
pairs = pd.DataFrame(rows)
print(pairs.to_string(index=False))
print(f"right direction = the sign of the difference over {N_MAX} seeds")

# %% [markdown]
# The rule is cautious and still not safe. Even the token saving, measured from 10 seeds on
# by the intervals, passes the rule in only 1812 of the 5,000 pairs: each setup's tokens
# spread widely from seed to seed (standard deviations 854.69 and 579.58 above, against a
# saving of 1237.42), so the band of 2 runs is often larger than the saving. When the effect
# is small, a "measured" can point the wrong way: for success, 137 of the 374 measured pairs
# say the split solves *more* tasks; for tool calls, 213 of 562 say it makes fewer calls.
# Two runs can tell a large effect from nothing; only many runs give its size and, for a small
# effect, its sign.
#
# ## pass^k: the same task, k times
#
# Success is a share of tasks. A user who runs the same task again and again asks something
# else: how likely is it that **all k runs** succeed? tau-bench calls that pass^k and
# estimates it without bias from n runs per task, c of them successful, as the mean over
# tasks of C(c, k) / C(n, k). Here n is 10,000 seeds. Beside it stands p^k, what k
# independent runs would give if every run succeeded with the overall share p.

# %%
pass_k = study.pass_k_table({"single loop": single, "planner + executor": split}, ks=range(1, 9))
print(pass_k.to_string(index=False, float_format=lambda x: f"{x:.4f}"))

# %%
path = figures.save_figure(figures_how_many_seeds.draw_pass_k(pass_k), "05_how_many_seeds-pass-k")
display(Image(filename=path))

# %% [markdown]
# pass^k falls more slowly than p^k: at k = 8 the single loop keeps 0.6851 against 0.6071,
# the split 0.6398 against 0.5676. p^k pictures a flaky agent that fails any task with the
# same chance. The gap says failures are not spread like that: they gather on some tasks.
# The table by task kind shows where. Document tasks (1 tool call long) are solved 0.9981 and
# 0.9980 of the time; record tasks (4 tool calls long) only 0.7581 and 0.7730, so their
# pass^8 is 0.1091 and 0.1275. The split's losses sit on the charge tasks (0.9468 against
# 0.9116), while on record tasks it does slightly better. A hard task fails again and again,
# an easy one almost never, and pass^k counts that; p^k spreads the same failures evenly.

# %%
kinds = [task.kind for task in sim.TASKS]
rows = []
for kind in dict.fromkeys(kinds):
    mask = np.array([k == kind for k in kinds])
    row = {
        "kind": kind,
        "tasks": int(mask.sum()),
        "tool calls long": len(sim.TASKS[kinds.index(kind)].sequence),
    }
    for label, run in (("single loop", single), ("planner + executor", split)):
        share = run.correct[mask].mean(axis=1)
        row[f"{label}: success"] = f"{share.mean():.4f}"
        row[f"{label}: pass^8"] = f"{study.pass_hat_k(run.correct[mask], 8):.4f}"
    rows.append(row)
print(pd.DataFrame(rows).to_string(index=False))

# %% [markdown]
# ## Summary
#
# - The batch path runs 10,000 seeds of both setups at once and gives, outcome for outcome,
#   the one-seed path's figures.
# - Over 10,000 seeds each unit spreads widely; lesson 2's runs A and B sit inside that
#   spread, and 2 runs are one draw of it.
# - The split's effect on success is real and small: -0.0079 of the tasks per run. Its
#   interval leaves zero out from 300 seeds on, resampling seeds or tasks.
# - The token saving shows from 10 seeds, the extra tool errors from 30 seeds (resampling
#   seeds) or 100 (resampling tasks).
# - Resampling tasks answers a wider question and stays wide: more seeds cannot replace more
#   tasks.
# - The band rule agrees with the intervals on steps and tokens, calls success and tool
#   errors unmeasured where the intervals show an effect, and measures tool calls in the wrong
#   direction at runs A and B.
# - pass^8 is 0.6851 for the single loop and 0.6398 for the split, above p^8: failures gather
#   on hard tasks.
#
# ## Exercises
#
# Use the panel below; each question can be answered with its controls.
#
# 1. Set the number of seeds to 100 and press **new seed** a few times. How often does the
#    success interval, resampling seeds, leave zero out? What does that say about a study
#    of 100 seeds?
# 2. Compare **single loop** with **single loop + self-critique**. Which units differ? Why
#    are the intervals of the others a single point, [0, 0]?
# 3. Set the budget to 4 and the seeds to 10,000. Does the split still solve fewer tasks
#    than the single loop? Do the two ways of resampling agree?
# 4. With the lesson's setups, find the smallest number of seeds at which the tool-error
#    interval, resampling seeds, leaves zero out for your own first seed. Is it near 30?
#
# ## Explore
#
# The panel runs two setups over N seeds from a first seed, at a budget, and redraws the
# spreads and the table of differences and intervals. For speed its intervals use fewer
# resamples than the lesson's cells, as the note under the figure says. **reset** brings
# back the lesson's defaults. Its output is not part of the checked record.

# %%
# NBVAL_IGNORE_OUTPUT
from sim.panel_how_many_seeds import how_many_seeds_panel

panel = how_many_seeds_panel()
panel
