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
# # Lesson 5 · How many seeds?
#
# Lesson 2 judged the [planner](../GLOSSARY.md#planner)/[executor](../GLOSSARY.md#executor)
# [split](../GLOSSARY.md#split) with 2 runs, by the [band rule](../GLOSSARY.md#band-rule): a
# difference counts as measured only when, on every run, its size is larger than the larger of the
# setups' own run-to-run differences. By that rule the split's effect on success was unmeasured,
# its [token](../GLOSSARY.md#token) saving measured, and its extra [tool errors](../GLOSSARY.md#tool-error)
# unmeasured too. "Unmeasured" is a statement about 2 runs, not about the
# [agents](../GLOSSARY.md#agent). This lesson asks how many runs a comparison needs, and answers
# with the one thing real evaluations never have: a known ground truth. 10,000 seeds give each
# setup's long-run value, and every method below can be checked against it.
#
# **After this lesson you can:**
#
# - say how widely each [counted unit](../GLOSSARY.md#counted-units) spreads over
#   [seeds](../GLOSSARY.md#seed), and what lesson 2's two-run verdicts are worth beside 10,000 seeds;
# - tell by measuring whether a [same-seed comparison](../GLOSSARY.md#paired) is paired;
# - choose a [confidence interval](../GLOSSARY.md#interval) that holds its coverage at the sizes
#   you use, and report a comparison as its interval over many seeds;
# - size a study by [power](../GLOSSARY.md#power): how many seeds a comparison needs, and say
#   what population that number speaks for.
#
# **It assumes:** lessons 1 to 3 (both setups, the counted units, the band rule), and a mean, a
# standard deviation and a percentile; every other statistical term is said in plain words where
# it first appears. **Time:** about an hour for the core; Going further about two hours.
# Terms in links are explained in the course [glossary](../GLOSSARY.md); the sources are listed,
# with links, at the end.
#
# The design of every study in this lesson:
#
# ```mermaid
# flowchart TD
#     seeds["seeds 20260218 + i"] --> loop["single loop<br/>24 tasks"]
#     seeds --> split["planner + executor<br/>24 tasks"]
#     loop --> diff["same-seed difference<br/>per unit"]
#     split --> diff
#     diff --> interval["mean and 95 % interval<br/>over the seeds"]
#     interval --> verdict{"zero left out?"}
#     verdict -- "yes" --> found["an effect:<br/>its sign and size"]
#     verdict -- "no" --> more["not shown:<br/>power says<br/>how many seeds"]
# ```
#
# Everything is **fictional** and deterministic, as in every lesson. The seeds of a study of
# N seeds are 20260218 + i for i = 0..N-1, so the lesson's runs A and B are always its first
# 2 seeds. First, the versions of the libraries the printed figures depend on, the seeds,
# the [budget](../GLOSSARY.md#step-budget) and the settings of every interval in this lesson.

# %%
import ipywidgets
import matplotlib
import numpy as np
import pandas as pd
import scipy
from IPython.display import Image, display

import sim
from sim.exercises import how_many_seeds as exercises
from sim.measurement import intervals, power, study
from sim.measurement.bands import compare_setups
from sim.measurement.batch import measure_batch, run_batch, study_seeds
from sim.measurement.counts import measure
from sim.presentation import figures, figures_how_many_seeds
from sim.presentation.progress import progress
from sim.presentation.screen import say, show

pd.reset_option("display")  # tables print the same whatever your own pandas settings
print(
    f"numpy {np.__version__} | scipy {scipy.__version__} | pandas {pd.__version__} | "
    f"matplotlib {matplotlib.__version__} | ipywidgets {ipywidgets.__version__}"
)
BUDGET = sim.DEFAULT_BUDGET
SIZES = study.STUDY_SIZES
N_MAX = max(SIZES)
SEEDS = study_seeds(N_MAX, study.STUDY_FIRST_SEED)
print(
    f"seeds of an N-seed study: {SEEDS[0]} + i, i = 0..N-1 | run A: seed {SEEDS[0]} | run B: seed {SEEDS[1]}"
)
print(f"step budget: {BUDGET} steps for both setups | numbers of seeds studied: {', '.join(map(str, SIZES))}")
say(
    f"intervals: {intervals.CONFIDENCE:.0%} t intervals (scipy.stats) unless a cell names another; bootstrap "
    f"intervals: scipy.stats.bootstrap, numpy Generator seeded with {intervals.RESAMPLING_SEED}, "
    f"{intervals.RESAMPLES} resamples for one interval, {intervals.COVERAGE_RESAMPLES} per study in a coverage study"
)

# %% [markdown]
# ## Many seeds at once
#
# `run_batch` runs one setup on every task at every seed of an array at once, with numpy. It is
# not a new model: the test suite checks that every outcome of every (task, seed) equals the
# one-seed path's, over more than 1,000 seeds and several budgets. The cell checks it again on
# lesson 2's table (runs A and B of both setups).

# %%
single_ab = [measure("single-loop", seed, BUDGET) for seed in SEEDS[:2]]
split_ab = [measure("plan-execute", seed, BUDGET) for seed in SEEDS[:2]]
for one_seed, setup in ((single_ab, "single-loop"), (split_ab, "plan-execute")):
    batch = measure_batch(setup, SEEDS[:2], BUDGET)
    for unit in ("solved", "steps", "calls", "tokens", "errors"):
        assert getattr(batch, unit).tolist() == [getattr(m, unit) for m in one_seed], (setup, unit)
print("the batch path gives every figure of lesson 2's table at seeds A and B")

# %% [markdown]
# Now the whole study at once: both setups, all 24 tasks, 10,000 seeds.

# %%
single = run_batch("single-loop", SEEDS, BUDGET)
split = run_batch("plan-execute", SEEDS, BUDGET)
per_seed = {"single loop": single.per_seed(), "planner + executor": split.per_seed()}
single_ps, split_ps = per_seed.values()
runs = single.correct.size + split.correct.size
say(f"{len(SEEDS)} seeds x {len(sim.TASKS)} tasks x 2 setups = {runs} task runs")

# %% [markdown]
# ## The spread over 10,000 seeds
#
# How each unit's value per run of 24 tasks spreads over the 10,000 seeds: mean, standard
# deviation, and the 5th, 50th and 95th percentiles. The second table places runs A and B in
# that spread: the share of seeds with a lower value, and with the same value.

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
spread = pd.DataFrame(rows)
show(spread.drop(columns=["A", "B"]))
print()
print("where runs A and B sit among the seeds: the run's value (share of seeds below it, share equal to it)")
print(spread[["setup", "unit", "A", "B"]].to_string(index=False))

# %% [markdown]
# The figure draws the same spreads; the dashed lines are runs A and B in each setup's
# colour.

# %%
path = figures.save_figure(
    figures_how_many_seeds.draw_seed_distributions(per_seed, marked=(0, 1)), "05_how_many_seeds-spread"
)
display(Image(filename=path))

# %% [markdown]
# Lesson 2's 2 runs were few, and one of them sat low in the spread. The
# [single loop](../GLOSSARY.md#single-loop) solved 23 of 24 tasks on both runs, as 0.36 of all
# seeds do. The split solved 21 tasks on [run A](../GLOSSARY.md#run), and only 0.07 of the seeds
# do worse. With 2 runs, each setup's band is one draw from a spread this wide.
#
# ## Two runs beside 10,000 seeds
#
# Lesson 2's verdicts, printed by `compare_setups` as there, beside each unit's mean difference
# over all 10,000 seeds (split minus single loop) with its 95 % t interval. A 95 % interval is a
# range computed from the study's values by a method meant to hold the true value in 95 % of
# studies; the t interval is the mean plus or minus a multiple of sd / sqrt(N), the multiple
# taken from Student's t distribution, which is wider than the normal one at small N.

# %%
verdicts = compare_setups(single_ab, split_ab)
long_run = {unit: study.paired_interval(single, split, unit, N_MAX) for unit in sim.UNIT_NAMES}
rows = []
for v in verdicts:
    interval = long_run[v.unit]
    per_run = len(sim.TASKS) if v.unit == "success" else 1  # success: tasks solved, not a share
    low, mean, high = (per_run * x for x in (interval.low, interval.difference, interval.high))
    row = {
        "unit": v.unit,
        f"{N_MAX} seeds": f"{mean:.2f} [{low:.2f}, {high:.2f}]",
        "differences A, B": ", ".join(map(str, v.differences)),
        "band": v.band,
        "band rule": v.verdict,
        "agreement": study.agreement(v.verdict, v.differences, interval),
    }
    rows.append(row)
show(pd.DataFrame(rows).drop(columns="agreement"))
loss = -long_run["success"].difference
say(
    f"every unit per run of {len(sim.TASKS)} tasks; success: the split solves {loss * len(sim.TASKS):.2f} "
    f"fewer tasks per run ({loss:.2%} of them)"
)
agree = [row["unit"] for row in rows if row["agreement"].startswith("agree")]
differ = [row["unit"] for row in rows if not row["agreement"].startswith("agree")]
say(
    f"the band rule and the intervals agree on {len(agree)} units ({', '.join(agree)}) "
    f"and differ on {len(differ)} ({', '.join(differ)})"
)

# %% [markdown]
# The rule and the intervals agree on 2 units, steps and tokens: both measured, in the same
# direction. They differ on 3 units, in 2 ways:
#
# - On **success** and **tool errors** the rule says unmeasured and the intervals show an effect.
#   The rule is cautious there, not wrong: 2 runs call a loss of 0.19 tasks a run measured in few
#   pairs of seeds (237 of 5,000, counted below), and the size of the extra tool errors was out of
#   its reach.
# - On **tool calls** the rule says measured (3 and 4 fewer calls, above a band of 1), and
#   10,000 seeds show the opposite: the split makes 0.86 *more* tool calls per run. A band of 1
#   call, itself one draw, was too small to warn.
#
# How often does the rule go wrong? Apply it to the 5,000 disjoint pairs of seeds, (0, 1),
# (2, 3) and so on, and count the verdicts and the direction of each "measured".

# %%
rows = []
for unit in sim.UNIT_NAMES:
    counts = study.band_rule_over_pairs(single_ps, split_ps, unit)
    right = counts["measured_up"] if long_run[unit].difference > 0 else counts["measured_down"]
    row = {
        "unit": unit,
        "pairs": counts["pairs"],
        "measured": counts["measured"],
        "share measured": f"{counts['measured'] / counts['pairs']:.4f}",
        "measured, right direction": right,
        "measured, wrong direction": counts["measured"] - right,
    }
    rows.append(row)
show(pd.DataFrame(rows))
say(f"right direction = the sign of the difference over {N_MAX} seeds")

# %% [markdown]
# The rule is cautious and still not safe. Even the token saving passes it in only 1812 of the
# 5,000 pairs: each setup's tokens spread widely (standard deviations 854.69 and 579.58, against
# a saving of 1237.42), so the band of 2 runs is often larger than the saving. When the effect is
# small, a "measured" can point the wrong way: for success, 137 of the 374 measured pairs say the
# split solves *more* tasks; for tool calls, 213 of 562 say it makes fewer calls. So the lesson
# reports a comparison from now on as its difference with its interval over many seeds, as in
# the 10,000-seed column. (Those seeds include runs A and B; a rule designed on some seeds is
# judged on others, lesson 3's [held-out seeds](../GLOSSARY.md#held-out).)
#
# ## Paired by seed? Not here
#
# Running both setups at the same seeds looks like a **paired** comparison, and is often called
# one. Pairing helps when the two measurements at a seed share their chance, so that the per-seed
# difference cancels it: then the difference spreads less than it would for unpaired runs. Here
# they share nothing: at the same seed, the two setups draw their random numbers from unrelated
# streams ([AA22](../GLOSSARY.md#rule-codes)). The cell measures it for every unit: the correlation
# between the setups' values at the same seed, the spread (standard deviation) of the per-seed
# difference, and the spread unpaired runs would give, `sqrt(sd1**2 + sd2**2)`.

# %%
rows = []
for unit in sim.UNITS:
    a, b = getattr(single_ps, unit.count), getattr(split_ps, unit.count)
    row = {
        "unit": unit.name,
        "correlation at the same seed": f"{np.corrcoef(a, b)[0, 1]:+.3f}",
        "sd of the per-seed difference": f"{np.std(b - a, ddof=1):.2f}",
        "sd if unpaired": f"{np.sqrt(a.var(ddof=1) + b.var(ddof=1)):.2f}",
    }
    rows.append(row)
show(pd.DataFrame(rows))
say(f"over {N_MAX} seeds; per run of 24 tasks (success in tasks solved)")

# %% [markdown]
# At the same seed the setups' values are unrelated: every correlation lies between -0.013 and
# -0.005, and the per-seed difference spreads as much as unpaired runs would (1.62 tasks either
# way for success, 1038.45 against 1032.67 tokens). Running both setups at the same seeds bought
# the comparison nothing. Its intervals are still valid, since they use the measured spread of
# the differences; the word "paired" is what would be wrong.
#
# What does pair here is the **task**: a task that is hard for one setup is hard for the other.

# %%
by_task = {label: run.correct.mean(axis=1) for label, run in (("single loop", single), ("split", split))}
a, b = by_task.values()
r = np.corrcoef(a, b)[0, 1]
say(f"per-task success over {N_MAX} seeds: correlation between the setups across the 24 tasks {r:.3f}")
say(
    f"sd over the tasks of the per-task difference {np.std(b - a, ddof=1):.4f}; "
    f"of an unpaired difference {np.sqrt(a.var(ddof=1) + b.var(ddof=1)):.4f}"
)

# %% [markdown]
# Across the 24 tasks the 2 setups' per-task success correlates 0.972, and the per-task
# difference spreads 0.0174 where an unpaired one would spread 0.1011. Miller makes the same point
# for model evaluations: the question, here the task, is the unit to pair on and to cluster by.
#
# ## Intervals that cover
#
# Whether a 95 % interval holds the true value in 95 % of studies at small N depends on the
# method. Here the truth is known, so it can be checked: cut the 10,000 seeds into disjoint
# studies of N seeds (5,000 studies of 2 seeds, 2,000 of 5, and so on), compute each study's
# interval, and count how often it holds the 10,000-seed value.
# That value stands in for the truth: it is an estimate too, but from 100
# times the seeds of the largest study checked, and each study holds a hundredth or less of
# its seeds. The methods: the t interval, and 2 kinds of
# **bootstrap**, which draws the study's N values again with replacement, 1,000 times, and reads
# the interval from the spread of the redrawn means: the percentile bootstrap, a common default,
# takes the middle 95 % of them; BCa (Efron's bias-corrected and accelerated bootstrap) shifts
# and stretches those for bias and skew. The units: the success difference and the token
# difference.

# %%
coverage_data = {
    "success difference": (split_ps.solved - single_ps.solved) / len(sim.TASKS),
    "token difference": (split_ps.tokens - single_ps.tokens).astype(float),
}
coverage = {}
for label, d in progress(coverage_data.items(), "coverage studies: 3 methods at 5 sizes"):
    coverage[label] = intervals.coverage_table(d, float(d.mean()))
for label, table in coverage.items():
    shown = table.pivot(index="n_seeds", columns="method", values="coverage")[
        list(intervals.INTERVAL_METHODS)
    ]
    shown.insert(0, "studies", table.groupby("n_seeds")["studies"].first())
    say(f"{label}: share of studies whose {intervals.CONFIDENCE:.0%} interval holds the {N_MAX}-seed value")
    print(shown.rename_axis("seeds per study").to_string(float_format=lambda x: f"{x:.3f}"))

# %%
path = figures.save_figure(figures_how_many_seeds.draw_coverage(coverage), "05_how_many_seeds-coverage")
display(Image(filename=path))

# %% [markdown]
# The 2-seed studies whose two success differences are equal, counted:

# %%
ties = (np.ptp(intervals.disjoint_studies(coverage_data["success difference"], 2), axis=1) == 0).mean()
say(f"2-seed studies whose 2 success differences are equal (a zero-width interval): {ties:.3f}")

# %% [markdown]
# What the coverage study shows:
#
# - **No method covers success at 2 seeds**, lesson 2's size. The bootstraps hold the
#   10,000-seed value in 0.485 of the studies (0.489 for tokens): a bootstrap of 2 values cannot
#   see beyond them. The t interval holds it in 0.825, as 0.175 of the studies see the same
#   success difference twice and get an interval of width zero (0.944 for tokens).
# - **The percentile bootstrap falls short at small N**: 0.843 at 5 seeds and 0.912 at 10 for
#   success, 0.841 and 0.897 for tokens; BCa falls short as well (0.845, 0.901; 0.843, 0.892).
# - **The t interval holds** from 5 seeds on: 0.968, 0.956 and 0.943 for success at 5, 10 and
#   30 seeds, 0.949 to 0.952 for tokens. At 100 seeds the shares, 0.91 and 0.97, rest on 100
#   studies only; how sure they are is in Going further.
#
# So from here on every interval of a mean over seeds in this lesson, and in its panel, is a t
# interval: its coverage holds at every size measured from 5 to 100 seeds. The 10,000-seed
# column of the band-rule table uses the same interval with more seeds behind it, where no
# truth is left to check its coverage against. Bowyer et al. (2025) warn that
# intervals built on the central limit theorem fail on small benchmarks; that the t interval
# holds here from 5 seeds is a finding about this simulator, not a licence.
#
# ## Sample size by power
#
# A sample size is a property of *all* N-seed studies, not of one: its **power** is the share of them whose interval
# leaves zero out on the true side (here: with the sign of the 10,000-seed difference). With
# 10,000 seeds the share can be counted: cut them into disjoint studies of N seeds and count.
# The last column counts what many tools report as power: zero left out on either side.

# %%
power_tables = {}
for unit in sim.UNITS:
    d = (getattr(split_ps, unit.count) - getattr(single_ps, unit.count)).astype(float)
    power_tables[unit.name] = power.power_table(d, power.POWER_SIZES)
shown = pd.DataFrame(
    {"studies": power_tables["success"]["studies"].to_numpy()}, index=list(power.POWER_SIZES)
)
for name, t in power_tables.items():
    shown[name] = ((t["excluding"] - t["wrong_sign"]) / t["studies"]).to_numpy()
shown["success, either side"] = power_tables["success"]["power"].to_numpy()
say(
    "share of disjoint N-seed studies whose t interval leaves zero out on the true side (split minus single loop)"
)
print(shown.rename_axis("seeds").to_string(float_format=lambda x: f"{x:.3f}"))

# %% [markdown]
# A 100-seed study shows the split's loss in success 0.2 of the time, a 200-seed study 0.32 of
# the time. Each share rests on the studies the seeds allow: 100 at 100 seeds, 50 at 200, only
# 20 at 500. At 10 seeds, 0.053 of the studies leave zero out for success on either side, close
# to the 5 % a 95 % interval allows when there is no effect at all; on the true side, 0.04.
#
# To plan a study before running it, Miller gives a closed form:
# `n = (z(1 - alpha/2) + z(1 - beta))**2 * sigma**2 / delta**2`. Here z(q) is the normal
# distribution's q-quantile (the value a share q of it lies below), alpha the false-positive
# rate allowed (1 minus the interval's confidence), 1 - beta the power wanted, sigma the spread
# of the per-seed difference and delta the effect.
# The cell takes sigma and delta from the 10,000 seeds, and beside the seeds each unit
# needs for 80 % power it sets the formula's power at 10 seeds against the measured one (both
# count either side):

# %%
rows = []
for unit in sim.UNITS:
    d = (getattr(split_ps, unit.count) - getattr(single_ps, unit.count)).astype(float)
    needed = int(np.ceil(power.seeds_for_power(d.std(ddof=1), d.mean())))
    row = {
        "unit": unit.name,
        "effect": f"{d.mean():+.2f}",
        "sd": f"{d.std(ddof=1):.2f}",
        f"seeds for {power.TARGET_POWER:.0%} power": max(2, needed),
        "at 10 seeds: formula": f"{power.closed_form_power(d.std(ddof=1), d.mean(), 10):.3f}",
        "measured": f"{power_tables[unit.name].set_index('n_seeds').loc[10, 'power']:.3f}",
    }
    rows.append(row)
show(pd.DataFrame(rows))
print("per run of 24 tasks; success in tasks solved; a t interval needs at least 2 seeds")
d = (split_ps.solved - single_ps.solved).astype(float)
at_500 = power_tables["success"].set_index("n_seeds").loc[500]
ci = scipy.stats.binomtest(int(at_500.excluding), int(at_500.studies)).proportion_ci()
say(
    f"success at 500 seeds: formula {power.closed_form_power(d.std(ddof=1), d.mean(), 500):.3f}; measured "
    f"{int(at_500.excluding)} of {int(at_500.studies)} studies, interval [{ci.low:.3f}, {ci.high:.3f}]"
)
low, high = intervals.t_interval(d)
few, many = (int(np.ceil(power.seeds_for_power(d.std(ddof=1), end))) for end in (low, high))
say(
    f"success: the effect's 95 % interval over the 10,000 seeds, [{low:+.2f}, {high:+.2f}], asks {few} to {many} seeds"
)

# %% [markdown]
# The formula is a normal approximation: it uses z where the study's interval uses the wider t
# quantiles, so at small N it promises more power than the studies get, and asks too few seeds:
# 80 % for tool errors at 10 seeds (0.806), where the studies get 0.717. At hundreds of seeds the
# quantiles agree: success needs 579 seeds, and the formula's 0.740 at 500 lies inside the
# interval of the measured 0.8, [0.563, 0.943], wide because it rests on 20 studies.
# What decides is the effect against the
# spread: [tool calls](../GLOSSARY.md#tool-call), +0.86 against 7.31, need 564.
#
# Here delta is itself an estimate from 10,000 seeds: over its interval, [-0.22, -0.16], success
# asks 424 to 837 seeds, so 579 is an estimate too. A real study never knows delta. Plan with
# the smallest effect worth finding and sigma from a pilot, as Bjarnason et al. (2026) recommend.
# And say what the count speaks for: every interval and seed count here is over seeds, so it
# answers for these 24 tasks run at other seeds, not for other tasks (Going further shows how
# much wider an interval over tasks stays).
#
# ## Summary
#
# - Lesson 2's runs A and B are 2 draws from a wide spread. Beside 10,000 seeds the band rule
#   agrees on steps and tokens, misses the effect on success and the size of the tool-error
#   effect, and has tool calls backwards; over 5,000 pairs of seeds, 137 of its 374 verdicts of
#   "measured" for success point the wrong way.
# - Same seeds are not paired draws here, by construction (separate streams, AA22): at a seed
#   the setups correlate between -0.013 and -0.005. Tasks do pair (0.972 across tasks).
# - In this simulator the t interval covers from 5 seeds on; the percentile bootstrap and BCa fall short below 30
#   (0.843 and 0.845 at 5 seeds for success), and at 2 seeds no method covers success.
# - The split's loss, 0.19 fewer tasks per 24-task run (0.79 %), needs about 579 seeds (424 to
#   837 over the effect's own interval) for 80 % power by the normal closed form, which asks too
#   few at small N; a 100-seed study shows it 0.2 of the time.
# - These seed counts and intervals are over seeds: they answer for these 24 tasks, not for
#   tasks in general.
#
# ## Exercises
#
# 1. **Power, computed and checked.** Choose your own first seed `MY_SEED`. Run both setups at
#    the lesson's budget over the 5,000 seeds from it (`study_seeds(5000, MY_SEED)`, then
#    `run_batch` for each setup), take the per-seed difference in tasks solved (split minus
#    single loop, each `.per_seed().solved`), cut it into 50 disjoint studies of 100 seeds
#    (`intervals.disjoint_studies`), and compute the share of studies whose 95 % t interval
#    leaves zero out, on either side (`intervals.t_interval` on all the studies at once, or
#    `scipy.stats.ttest_1samp(...).confidence_interval()` per study). Put the share into
#    `my_power` and run the check: it says right or wrong, never the answer. Is it near the
#    lesson's figure for 100 seeds?
#
# More exercises, a second checked one among them, close Going further.

# %%
say(
    f"exercise 1: {exercises.EXERCISE_SEEDS} seeds from your first seed; power: studies of "
    f"{exercises.POWER_STUDY_SEEDS} seeds"
)
MY_SEED = 31337  # your own first seed: an integer 0 <= MY_SEED < 2**32 - 5000
my_power = None  # exercise 1: your share of 100-seed studies whose interval leaves zero out
print(exercises.check_power(MY_SEED, my_power))

# %% [markdown]
# ## Explore
#
# The panel runs two setups over N seeds from a first seed, at a budget, on their own streams or
# on common draws (shared random numbers, in Going further), and redraws the spreads and the table of differences and t
# intervals. **reset** brings back the lesson's defaults. Its output is not part of the checked
# record.

# %% tags=["nbval-ignore-output"]
from sim.presentation.panel_how_many_seeds import how_many_seeds_panel

panel = how_many_seeds_panel()
panel

# %% [markdown]
# ## Going further (optional)
#
# What this part adds to the core: why the percentile bootstrap is too narrow, how sure a
# coverage share is, common random numbers, the closed form against the measured power, the
# difference as the seeds grow over seeds and over tasks, tasks as clusters, the traps of small
# studies, pass^k, cost per success, what carries over to real agents, further exercises and the
# sources. The tools it uses beyond the core's:

# %%
from scipy import stats

from sim.engine import common_draws
from sim.measurement import clusters, reliability
from sim.model import draws, tasks
from sim.presentation.showcode import code_of

# %% [markdown]
# ### Why the percentile bootstrap is too narrow
#
# At small N the percentile bootstrap spreads the mean of N values by their plug-in standard
# deviation, which divides by N rather than N - 1, and reads normal quantiles where the t interval
# reads the wider t quantiles. For a mean of normal values its interval is
# `z * sqrt((N - 1) / N) / t(N - 1)` times as wide as the t interval. The measured ratio of the
# mean widths beside it:

# %%
rows = []
for n in sorted(set(coverage["token difference"]["n_seeds"])):
    row = {"seeds per study": n, "formula": f"{intervals.percentile_width_ratio(n):.3f}"}
    for label, table in coverage.items():
        widths = table[table["n_seeds"] == n].set_index("method")["width"]
        row[f"measured, {label}"] = f"{widths['percentile'] / widths['t']:.3f}"
    rows.append(row)
show(pd.DataFrame(rows))

# %% [markdown]
# The formula's width ratio, 0.109 at 2 seeds, 0.631 at 5 and 0.822 at 10, is what the measured
# widths show (0.079, 0.613, 0.814 for success).
#
# ### How sure a coverage share is
#
# A coverage share is itself measured on a finite number of studies, so it has its own
# interval: Clopper-Pearson's, an exact interval for a share counted as k of n
# (`scipy.stats.binomtest`). At 100 seeds per study the core's table rests on only 100 studies:

# %%
for label, table in coverage.items():
    row = table[(table["n_seeds"] == 100) & (table["method"] == "t")].iloc[0]
    say(
        f"{label}, t interval, 100 seeds: coverage {row.coverage:.2f} of {row.studies} studies, "
        f"its interval [{row.coverage_low:.3f}, {row.coverage_high:.3f}]"
    )

# %% [markdown]
# Both intervals, [0.836, 0.958] and [0.915, 0.994], hold 95 %: at 100 seeds the t interval's
# shares of 0.91 and 0.97 are within what 100 studies can tell apart from 95 %.
#
# ### Common random numbers
#
# Simulation has long had a fix for two setups that share no chance: make them share it.
# Under **common random numbers** (Law's textbook) both setups take the same random number for
# the same decision, so the difference between them comes from the setups, not from their luck.
# The course adds it as its own option, `common_draws` (`--common-draws` on the command line),
# for both loop setups. It is off by default: the seed's streams, lessons 1 to 4 and every
# golden figure stay as they were.
#
# What is "the same decision" for two setups that decide differently? The single loop picks a
# tool at every [step](../GLOSSARY.md#step) for the position of the task's sequence it has
# reached; the split's planner picks a tool for every position at once, and its executor picks by
# the single loop's rule only once the plan is used up. What both have is a **pick aimed at a
# position**. The course's rule:
#
# **CR1.** Under common draws, every pick aimed at position p of a task's sequence (p = 1 to
# its length, and length + 1 for a finished agent's decision to stop) draws from a stream of
# its own, keyed by the seed, the task and p, the same stream in both setups. The a-th pick
# aimed at p in a run takes that stream's draws `2a - 1` and `2a`, whether it needs one or
# both: the first decides (right pick, or stop), the second names the random tool. The
# planner writes the first pick aimed at each position; the executor's own picks are the
# later ones.
#
# So the single loop's first pick at a position and the plan's entry there take the same draw:
# where the single loop picks right (a draw below its share at that depth) the planner does
# too, since its flat share is the largest. Taking 2 draws per pick even when 1 is needed keeps
# the streams aligned after the setups part ways. The code, from `sim.model.draws` and
# `sim.engine.common_draws`:

# %%
print(code_of(draws.PositionDraws.pick))
print(code_of(common_draws.plan_execute_common))

# %% [markdown]
# Both setups again over the same 10,000 seeds, now under CR1. Common draws change which draw a
# decision gets, not how draws are distributed, so each setup on its own should behave as on
# its own streams. The cell compares each setup's means with a Welch t interval of the
# difference (the two runs share no seed's draws).

# %%
single_cr = run_batch("single-loop", SEEDS, BUDGET, common_draws=True)
split_cr = run_batch("plan-execute", SEEDS, BUDGET, common_draws=True)
single_cr_ps, split_cr_ps = single_cr.per_seed(), split_cr.per_seed()
for label, own, common in (("single loop", single_ps, single_cr_ps), ("split", split_ps, split_cr_ps)):
    for field in ("solved", "tokens"):
        x, y = getattr(common, field), getattr(own, field)
        ci = stats.ttest_ind(x, y, equal_var=False).confidence_interval(intervals.CONFIDENCE)
        holds = "holds 0" if ci.low <= 0 <= ci.high else "leaves 0 out"
        print(f"{label}, {field}: own streams {y.mean():.2f}, common draws {x.mean():.2f}")
        print(f"  interval of the difference [{ci.low:.2f}, {ci.high:.2f}]: {holds}")

# %% [markdown]
# What common draws (CR1) buy, unit by unit: the correlation at the same seed, the spread of the
# per-seed difference with and without them, how many seeds they need for an interval as narrow as 100
# seeds give on the setups' own streams (the width of an interval goes with sd / sqrt(N), so
# the ratio of the variances), and the seeds for 80 % power by the core's closed form.

# %%
rows = []
for unit in sim.UNITS:
    first, second = getattr(single_cr_ps, unit.count), getattr(split_cr_ps, unit.count)
    own = getattr(split_ps, unit.count) - getattr(single_ps, unit.count)
    common = (second - first).astype(float)
    row = {
        "unit": unit.name,
        "correlation, common draws": f"{np.corrcoef(first, second)[0, 1]:.3f}",
        "sd, own streams": f"{own.std(ddof=1):.2f}",
        "sd, common draws": f"{common.std(ddof=1):.2f}",
        "seeds for the width of 100": f"{100 * common.var(ddof=1) / own.var(ddof=1):.0f}",
        f"seeds for {power.TARGET_POWER:.0%} power": int(
            np.ceil(power.seeds_for_power(common.std(ddof=1), common.mean()))
        ),
    }
    rows.append(row)
show(pd.DataFrame(rows))
print("per run of 24 tasks; success in tasks solved")

# %% [markdown]
# Checked on the data rather than by the formula: the success interval from 1,000 seeds on
# the setups' own streams, and from the number of seeds CR1 should need for the same width.

# %%
own_diff = (split_ps.solved - single_ps.solved) / len(sim.TASKS)
common_diff = (split_cr_ps.solved - single_cr_ps.solved) / len(sim.TASKS)
n_common = int(np.ceil(1000 * common_diff.var(ddof=1) / own_diff.var(ddof=1)))
for label, values, n in (("own streams", own_diff, 1000), ("common draws", common_diff, n_common)):
    low, high = intervals.t_interval(values[:n])
    say(
        f"{label}, {n} seeds: success difference {values[:n].mean():+.4f}, "
        f"interval [{low:+.4f}, {high:+.4f}], width {high - low:.4f}"
    )
for label, values in (("own streams", own_diff), ("common draws", common_diff)):
    low, high = intervals.t_interval(values)
    say(f"{label}, {N_MAX} seeds: {values.mean():+.4f} [{low:+.4f}, {high:+.4f}]")

# %%
own_solved = split_ps.solved - single_ps.solved
common_solved = split_cr_ps.solved - single_cr_ps.solved
path = figures.save_figure(
    figures_how_many_seeds.draw_paired_spread(own_solved, common_solved), "05_how_many_seeds-common-draws"
)
display(Image(filename=path))

# %% [markdown]
# Each setup's mean tasks solved and tokens stay put under CR1: every interval of the
# difference holds zero. What changes is the pairing. The setups' values at a seed now
# correlate 0.656 for success and 0.72 to 0.788 for the other units; the per-seed difference
# in tasks solved spreads 0.97 instead of 1.62, in tokens 601.32 instead of 1038.45. An
# interval as narrow as 100 seeds give on the setups' own streams takes 35 seeds under CR1 for
# success, and 24 to 34 for the other units; 80 % power for success takes 215 seeds instead of
# 579, for tool calls 160 instead of 564. On the data: 1,000 seeds on own streams give a
# success interval 0.0081 wide, 354 seeds under CR1 one 0.0083 wide; over all 10,000 seeds the
# 2 estimates agree (-0.0079 and -0.0077) and the CR1 interval is the narrower one.
#
# The gain holds [**by construction**](../GLOSSARY.md#by-rule) of the simulator: a pick's
# outcome is its draw compared with a share that depends only on the position, so the same draw
# tends to give the same outcome in both setups. Real agents share far less (see what carries
# over to real agents, below).
#
# ### The closed form against the measured power
#
# The closed form against the measured power (zero left out on either side, as the formula
# counts), for success, with and without common draws:

# %%
curves, measured = {}, {}
rows = []
for tag, (a, b) in (("own streams", (single_ps, split_ps)), ("common draws", (single_cr_ps, split_cr_ps))):
    d = (b.solved - a.solved).astype(float)
    measured[f"success, {tag}"] = power.power_table(d, power.POWER_SIZES)
    grid = np.unique(np.geomspace(power.POWER_SIZES[0], power.POWER_SIZES[-1], 60).astype(int))
    curves[f"success, {tag}"] = (grid, [power.closed_form_power(d.std(ddof=1), d.mean(), n) for n in grid])
    for n, p in zip(power.POWER_SIZES, measured[f"success, {tag}"]["power"], strict=True):
        closed = power.closed_form_power(d.std(ddof=1), d.mean(), n)
        rows.append({"seeds": n, "draws": tag, "measured": f"{p:.3f}", "closed form": f"{closed:.3f}"})
print(
    pd.DataFrame(rows).pivot(index="seeds", columns="draws", values=["measured", "closed form"]).to_string()
)
for name in ("tool calls", "tool errors"):
    measured[name] = power_tables[name]
path = figures.save_figure(figures_how_many_seeds.draw_power(measured, curves), "05_how_many_seeds-power")
display(Image(filename=path))

# %% [markdown]
# The closed form follows the measured power within the noise of the counts (at 500 and 1,000
# seeds, 20 and 10 studies are few): at 100 seeds 0.214 against 0.2 measured, under common
# draws 0.481 against 0.49. It is a normal approximation, and the measured shares use the t
# interval, so at 10 seeds the formula runs a little high (0.066 against 0.053).
#
# ### The difference as the seeds grow
#
# The difference between the setups over the first N seeds, with its t interval, for N from
# 10 to 10,000, counted two ways:
#
# - **Over seeds** (one value a seed: the run's difference over its 24 tasks): would another
#   seed of the same agents on *these* 24 tasks give a different difference? Seeds are the only
#   source of chance, so this interval narrows without end as N grows.
# - **Over tasks** (one value a task: its mean difference over the N seeds): would *other tasks
#   like these* give a different difference? With only 24 tasks, this interval stops narrowing
#   once each task's own effect is known: more seeds cannot stand in for more tasks.
#
# Differences are per run of 24 tasks: success as a share of the tasks, tokens and tool errors
# as counts.

# %%
table = study.interval_table(single, split, units=("success", "tokens", "tool errors"), sizes=SIZES)


def show_intervals(table, unit, digits):
    rows = []
    for n_seeds in SIZES:
        row = {"seeds": n_seeds}
        for way in study.RESAMPLE_WAYS:
            r = table[
                (table["unit"] == unit) & (table["n_seeds"] == n_seeds) & (table["resample"] == way)
            ].iloc[0]
            row["difference"] = f"{r.difference:.{digits}f}"
            row[f"interval over {way}"] = f"[{r.low:.{digits}f}, {r.high:.{digits}f}]"
            row[f"zero out ({way})"] = "yes" if r.excludes_zero else "no"
        rows.append(row)
    say(f"{unit}: planner + executor minus single loop, per run of {len(sim.TASKS)} tasks")
    show(pd.DataFrame(rows))


show_intervals(table, "success", 4)
at_max = table[(table["unit"] == "success") & (table["n_seeds"] == N_MAX)].set_index("resample")
lost = -at_max.loc["seeds", "difference"] * len(sim.TASKS)
widths = at_max["high"] - at_max["low"]
say(
    f"success at {N_MAX} seeds: {lost:.2f} tasks fewer per run, 1 task lost every {1 / lost:.1f} runs; "
    f"interval over tasks {widths['tasks'] / widths['seeds']:.1f} times as wide as over seeds"
)

# %%
show_intervals(table, "tokens", 1)

# %%
show_intervals(table, "tool errors", 2)

# %% [markdown]
# The figure puts the tables side by side: a dot for the difference, a bar for the interval,
# over seeds on the left of each pair and over tasks on the right.

# %%
path = figures.save_figure(figures_how_many_seeds.draw_interval_growth(table), "05_how_many_seeds-intervals")
display(Image(filename=path))

# %% [markdown]
# What the figures show:
#
# - **Success.** At budget 8 the split *does* solve fewer tasks, by a small amount: -0.0079 of the
#   tasks per run at 10,000 seeds, 0.19 tasks: 1 task lost every 5.3 runs. At 10 and 30 seeds the
#   difference even has the other sign, with intervals that hold zero. The sizes are nested (each
#   study holds the smaller ones), so the table is one path through the seeds, and the size where
#   zero first stays out on it is no sample size (the core's power counts those). On this path the
#   interval over seeds leaves zero out at 300 seeds and at each larger size, the one over tasks at
#   1,000 and above (at 300 seeds it is [-0.0250, 0.0003]). Over tasks the interval at 10,000 seeds
#   is still [-0.0152, -0.0005], 5.5 times as wide as over seeds: the loss sits on some tasks more
#   than others, and 24 tasks say little about tasks in general.
# - **Tokens.** The saving is large against every spread: both intervals leave zero out at
#   every size. Over seeds the interval is tight at 10,000 seeds; over tasks it stays wide.
# - **Tool errors.** On this path the split's extra errors leave zero out at 30 seeds and
#   above over seeds, and at 100 and above over tasks.
#
# ### Tasks as clusters
#
# The 24 tasks are not 24 unrelated draws: they come in 4 kinds (document, consumption,
# charge and record tasks), and a kind fixes the [tool sequence](../GLOSSARY.md#tool-sequence).
# The split's effect on success, kind by kind, with its t interval over the 10,000 seeds, per
# task of the kind:

# %%
kinds = clusters.kind_table(single, split, "success", N_MAX)
show(kinds, float_format=lambda x: f"{x:+.4f}")

# %% [markdown]
# The effect over all 24 tasks with its interval counted 3 ways, per run as a share of the
# tasks: over seeds (these 24 tasks, other seeds), over tasks (other tasks drawn like these,
# each task one draw), and over tasks stratified by kind (other tasks drawn within each kind,
# the kinds in these numbers, as in Cochran's textbook).

# %%
over_seeds = study.paired_interval(single, split, "success", N_MAX)
rows = [
    {
        "interval": "seeds",
        "difference": over_seeds.difference,
        "low": over_seeds.low,
        "high": over_seeds.high,
        "df": float(N_MAX - 1),
    }
]
shown = pd.concat([pd.DataFrame(rows), clusters.task_intervals(single, split, "success", N_MAX)])
shown["df"] = shown["df"].map(lambda x: f"{x:.1f}")
show(shown, float_format=lambda x: f"{x:+.4f}")
here = dict(zip(kinds["kind"], kinds["tasks"], strict=True))
say(
    f"kinds drawn by the task generator with weights {', '.join(map(str, tasks.KIND_WEIGHTS))} "
    f"(charge, consumption, document, record); here {here}"
)

# %% [markdown]
# The split's effect changes sign between kinds: it loses 0.0352 of a task per charge task
# ([-0.0381, -0.0323]) and gains 0.0149 per record task ([+0.0082, +0.0216]); it loses a little
# on consumption tasks (-0.0028) and shows nothing on document tasks (-0.0001, an interval that
# holds zero). One number for "the split's effect" averages these by how many tasks of each
# kind the set holds: 3 record tasks here, where the generator draws a record task with weight
# 0.28. By these figures, a set with more record tasks would show a smaller loss.
#
# Which population each interval speaks for:
#
# - **Over seeds**, [-0.0092, -0.0066]: these 24 tasks, run again at other seeds. Nothing more.
# - **Over tasks**, [-0.0152, -0.0005] with 23 degrees of freedom: sets of tasks drawn by the
#   same generator, kinds and all. It is wide because kinds differ.
# - **Over tasks, stratified by kind**, [-0.0100, -0.0058] with 5.9 degrees of freedom (the
#   Welch-Satterthwaite count): sets with these kinds in these numbers, each kind's tasks drawn
#   anew. It is narrower because within a kind the tasks differ little, and that holds by
#   construction: a kind fixes the tool sequence, and tasks of a kind differ only in their
#   subscriber.
#
# None of them speaks for tasks unlike these: other kinds, other tools, other worlds. The
# coverage of an interval over *tasks* cannot be checked here at all: the simulator has one set
# of 24 tasks.

# %% [markdown]
# ### The traps of small studies
#
# #### Wrong signs and inflated sizes
#
# A small study that does leave zero out is not thereby right. Gelman and Carlin name two
# errors: a **type S** error, a shown effect with the wrong sign, and a **type M** error, its
# exaggeration (|estimate| / |true effect|). Among the disjoint studies of each size whose
# interval leaves zero out, for the success difference, beside lesson 2's band rule on its
# 5,000 pairs:

# %%
truth = float((split_ps.solved - single_ps.solved).mean())
errors = power.power_table((split_ps.solved - single_ps.solved).astype(float), (10, 30, 100, 300))
band = study.band_rule_over_pairs(single_ps, split_ps, "success")
rows = [
    {
        "study": "band rule, 2 seeds",
        "studies": band["pairs"],
        "shown": band["measured"],
        "wrong sign": f"{band['measured_up'] / band['measured']:.3f}",
        "exaggeration": f"{band['measured_size'] / abs(truth):.1f}",
    }
]
for r in errors.itertuples(index=False):
    row = {
        "study": f"t interval, {r.n_seeds} seeds",
        "studies": r.studies,
        "shown": r.excluding,
        "wrong sign": f"{r.type_s:.3f}",
        "exaggeration": f"{r.type_m:.1f}",
    }
    rows.append(row)
show(pd.DataFrame(rows))
say(
    f"true effect: {truth:+.4f} tasks per run ({N_MAX} seeds); wrong sign and exaggeration among the studies shown"
)

# %% [markdown]
# Of the 374 pairs the band rule measures for success, 0.366 have the wrong sign, and the size
# they show is 9.9 times the true one. Of the 1000 studies of 10 seeds, 53 leave zero out;
# 0.245 of those have the wrong sign, and they exaggerate the effect 6.2 times. At 30 seeds the
# figures are 0.067 and 3.9; at 100 and 300 seeds no study shown has the wrong sign, but the
# ones shown still overstate the effect 2.3 and 1.3 times. Leaving zero out selects the studies
# whose noise happened to be large: a small study that "finds" a small effect reports it too
# big, and sometimes backwards. Power protects against both: the more studies leave zero out,
# the fewer of those shown are lucky ones (at 300 seeds, 18 of the 33).
#
# #### Peeking
#
# A study that looks at its interval as the seeds come in and stops at the first look that
# leaves zero out has more chances to be fooled than one read once (Johari et al., 2017). To
# measure it without any true effect to find, run an **A/A study**: one setup against itself on
# disjoint seeds, where every "effect" is a false positive. The single loop over 100,000 seeds
# gives 500 A/A studies of 100 seeds an arm; each is read at 10, 20, ..., 100 seeds.

# %%
AA_SEEDS, AA_STUDIES, AA_ARM = 100_000, 500, 100
aa = power.per_task_outcomes(sim.RunConfig("single-loop", BUDGET), AA_SEEDS, study.STUDY_FIRST_SEED)
aa_success = power.aa_differences(aa["success"].sum(axis=0), AA_STUDIES, AA_ARM)
peek = power.peeking(aa_success, list(range(10, AA_ARM + 1, 10)))
say(
    f"single loop over {AA_SEEDS} seeds: {peek['studies']} A/A studies of {AA_ARM} seeds an arm, "
    f"looks at {', '.join(map(str, peek['looks']))} seeds"
)
say(f"false-positive rate, read once at {peek['looks'][-1]} seeds: {peek['fixed']:.3f}")
say(f"false-positive rate, stopped at the first look that leaves zero out: {peek['peeking']:.3f}")

# %% [markdown]
# Read once at 100 seeds, 0.04 of the A/A studies leave zero out, close to the 5 % a 95 %
# interval allows. Stopped at the first of 10 looks that leaves zero out, 0.196 do. The remedy
# is to fix the number of seeds before the study (from a power calculation, as in the core), or
# to use a method built for looking, such as the always-valid intervals of Johari et al. (2017).
#
# #### Many comparisons
#
# A study can read 5 units, several sizes and 2 ways of counting, and report whatever leaves
# zero out. Each comparison alone is built to err in 5 % of A/A studies (the primary one read
# once above: 0.040); a study that
# reports whichever of many comparisons leaves zero out errs far more often. The remedy is to
# name **one primary comparison before looking** (here: success, 100 seeds, over seeds), and
# to treat the rest as exploration, or to correct for their number (Bonferroni: each interval
# at 1 - 0.05 / k).

# %%
flags = power.aa_exclusions(aa, AA_STUDIES, (10, 30, AA_ARM))
every_unit = [(unit, AA_ARM, "seeds") for unit in sim.UNIT_NAMES]
corrected = power.aa_exclusions(aa, AA_STUDIES, (AA_ARM,), confidence=1 - 0.05 / len(every_unit))
rows = [
    ("the primary comparison alone: success, 100 seeds, over seeds", 1, [every_unit[0]], flags),
    ("any of the 5 units (100 seeds, over seeds)", len(every_unit), every_unit, flags),
    ("any unit, size (10, 30, 100) or way (seeds, tasks)", len(flags), None, flags),
    ("any of the 5 units, each at 1 - 0.05 / 5 (Bonferroni)", len(every_unit), every_unit, corrected),
]
rates = [(label, k, power.family_error(found, which)) for label, k, which, found in rows]
family = pd.DataFrame(rates, columns=["reported", "comparisons", "false-positive rate"])
print(family.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
say(
    f"over {AA_STUDIES} A/A studies of the single loop; if the 5 units were independent, "
    f"1 - 0.95**5 = {1 - 0.95**5:.3f}"
)

# %% [markdown]
# The primary comparison alone errs in 0.04 of the A/A studies. Reporting whichever of the 5
# units leaves zero out errs in 0.136, whichever of all 30 comparisons in 0.414: a study free to
# choose among them finds an "effect" in about 2 of 5 cases where there is none. The 5 units err
# together less often than 5 independent tests would (0.226), because they move together (more
# steps mean more calls and more tokens). Bonferroni's correction brings the 5 units back to
# 0.04.
#
# ### pass^k: the same task, k times
#
# Success is a share of tasks. A user who runs the same task again and again asks something
# else: how likely is it that **all k runs** succeed?
# [τ-bench: A Benchmark for Tool-Agent-User Interaction in Real-World Domains](https://arxiv.org/abs/2406.12045)
# (tau-bench; Yao et al., 2024) calls that [pass^k](../GLOSSARY.md#pass-k) and estimates it
# without bias from n runs per task, c of them successful, as the mean over tasks of
# C(c, k) / C(n, k). Here n is 10,000 seeds. Beside it stands p^k, what k independent runs would
# give if every run succeeded with the overall share p.

# %%
pass_k = study.pass_k_table({"single loop": single, "planner + executor": split}, ks=range(1, 9))
show(pass_k, float_format=lambda x: f"{x:.4f}")

# %%
path = figures.save_figure(figures_how_many_seeds.draw_pass_k(pass_k), "05_how_many_seeds-pass-k")
display(Image(filename=path))

# %% [markdown]
# pass^k falls more slowly than p^k: at k = 8 the single loop keeps 0.6851 against 0.6071,
# the split 0.6398 against 0.5676. The mean of each task's own p_t**k is at least the k-th
# power of their mean (Jensen's inequality), with equality only when every task is as hard as
# every other. p^k pictures an agent that fails any task with the same chance; here failures
# gather on some tasks. The table by task kind shows where. Document tasks (1 tool call long)
# are solved 0.9981 and 0.9980 of the time; record tasks (4 tool calls long) only 0.7581 and
# 0.7730, so their pass^8 is 0.1091 and 0.1275.

# %%
kind_of = [task.kind for task in sim.TASKS]
rows = []
for kind in dict.fromkeys(kind_of):
    mask = np.array([k == kind for k in kind_of])
    row = {
        "kind": kind,
        "tasks": int(mask.sum()),
        "tool calls long": len(sim.TASKS[kind_of.index(kind)].sequence),
    }
    for label, run in (("loop", single), ("split", split)):
        share = run.correct[mask].mean(axis=1)
        row[f"{label}: success"] = f"{share.mean():.4f}"
        row[f"{label}: pass^8"] = f"{study.pass_hat_k(run.correct[mask], 8):.4f}"
    rows.append(row)
show(pd.DataFrame(rows))
print("loop = single loop, split = planner + executor")

# %% [markdown]
# #### pass^k at the trial counts benchmarks use
#
# Real benchmarks cannot run 10,000 trials a task: tau-bench reports pass^k from a handful of
# trials, and Inspect runs a few epochs a sample and reduces them per sample. With n = 4 and
# n = 8 trials per task, the disjoint studies of the 10,000 seeds show how far one benchmark's
# pass^k can land from the 10,000-seed value, how often a t interval over the 24 tasks holds
# that value, and pass@k (Chen et al., 2021: at least 1 of k trials succeeds) beside it.

# %%
rows = []
for label, run in (("single loop", single), ("planner + executor", split)):
    for n in reliability.TRIAL_COUNTS:
        for r in reliability.trial_table(run, n, (1, n // 2, n)).itertuples(index=False):
            row = {
                "setup": label,
                "trials": n,
                "k": r.k,
                f"{N_MAX} seeds": f"{r.all_seeds:.4f}",
                "sd over studies": f"{r.sd:.4f}",
                "5 % to 95 %": f"{r.p5:.3f} to {r.p95:.3f}",
                "interval holds it": f"{r.covered:.3f}",
                "pass@k": f"{r.pass_at_k:.4f}",
            }
            rows.append(row)
show(pd.DataFrame(rows))
for n in reliability.TRIAL_COUNTS:
    by_setup = []
    for run in (single, split):
        trials = np.moveaxis(intervals.disjoint_studies(run.correct, n), 1, 0)
        by_setup.append(reliability.per_task_pass(trials, n).mean(axis=1))
    ahead = (by_setup[1] >= by_setup[0]).mean()
    say(
        f"{n} trials a task, the same seeds for both setups: the split's pass^{n} at least the single loop's "
        f"in {ahead:.3f} of the studies"
    )

# %% [markdown]
# One benchmark's estimate is far from precise. With 4 trials a task, its pass^4 for the
# single loop lands anywhere from 0.667 to 0.917 (its 5th to 95th percentile over the studies)
# around 0.8041; with 8 trials, pass^8 from 0.542 to 0.792 around 0.6851 (standard deviation
# 0.0797). The 2 setups' pass^8 over 10,000 seeds, 0.6851 and 0.6398, lie well inside each
# other's spread, and in 0.406 of the 8-trial studies the split's pass^8 comes out at least
# the single loop's: the wrong order. A t interval over the 24 tasks holds the 10,000-seed value
# in 0.919 to 0.987 of the studies; it is built for other tasks like these, not for these very
# tasks. pass@k climbs to 0.9996 by k = 4 and 1.0000 by k = 8: at least one success in k trials
# is nearly certain, and says little about the reliability a user meets, which pass^k measures.
#
# ### Cost per success
#
# Kapoor et al. (2024) ask that agents be compared on cost as well as accuracy. The cost a
# user meets is tokens per solved task: all tokens spent over all tasks solved. For 5 setups,
# over a study of 100 seeds (a size a real evaluation might afford), each with its BCa interval
# over seeds (a seed's tokens and tasks solved resampled together) and the success share with
# its t interval; beside each, the value over all 10,000 seeds. The first 2 setups are the
# study's runs from the core; the other 3 run here.

# %%
COST_SEEDS = 100
COST_SETUPS = {
    "single loop": ("single-loop", {}),
    "planner + executor": ("plan-execute", {}),
    "single loop + self-critique": ("single-loop", {"self_critique": True}),
    "single loop, stop when done": ("single-loop", {"stop_when_done": True}),
    "planner + executor, stop when done": ("plan-execute", {"stop_when_done": True}),
}
ran = {"single loop": single, "planner + executor": split}
rows = []
for label, (setup, options) in COST_SETUPS.items():
    run = ran[label] if label in ran else run_batch(setup, SEEDS, BUDGET, **options)
    found = reliability.cost_per_success(run, COST_SEEDS)
    totals = run.per_seed()
    everything = totals.tokens.sum() / totals.solved.sum()
    holds = "yes" if found["low"] <= everything <= found["high"] else "no"
    rows.append({"setup": label, **found, f"{N_MAX} seeds": everything, "holds it": holds})
cost = pd.DataFrame(rows)
shown = pd.DataFrame(
    {
        "setup": cost["setup"],
        "success [interval]": [
            f"{r.success:.4f} [{r.success_low:.4f}, {r.success_high:.4f}]" for r in cost.itertuples()
        ],
        "tokens per solved task [interval]": [
            f"{r.tokens_per_success:.1f} [{r.low:.1f}, {r.high:.1f}]" for r in cost.itertuples()
        ],
        f"{N_MAX} seeds": cost[f"{N_MAX} seeds"].map(lambda x: f"{x:.1f}"),
        "holds it": cost["holds it"],
    }
)
say(f"first {COST_SEEDS} seeds, budget {BUDGET}")
show(shown)

# %%
path = figures.save_figure(figures_how_many_seeds.draw_cost_success(cost), "05_how_many_seeds-cost-success")
display(Image(filename=path))

# %% [markdown]
# Over the first 100 seeds every interval holds its 10,000-seed value (one study, so this is no
# coverage claim). The split spends fewer tokens per solved task than the single loop, 461.3
# [453.5, 469.0] against 523.4 [512.8, 534.4], at a success share whose interval overlaps the
# single loop's. Lesson 3's stopping rule, which tests the goal on what the loop observed and
# pays a step for its stop, moves both loops down and to the right: 480.8 [472.8, 488.5] and
# 435.9 [429.3, 442.6] tokens per solved task at success 0.9704 and 0.96.
# [Self-critique](../GLOSSARY.md#self-critique) costs tokens and buys no success (534.4 against
# 523.4 at the same 0.9354): it changes no draw, by construction (lesson 1).
#
# ### What carries over to real agents
#
# **The method transfers.** Name the unit and the population (seeds, tasks, kinds). Pair what
# truly pairs, and measure the correlation before counting on it. Plan the number of runs by
# power, from a pilot's spread and the smallest effect worth finding, and fix it and the primary
# comparison before looking. Use intervals whose coverage holds at your N. Report pass^k with
# its spread, and cost beside success.
#
# **The numbers do not.** Every spread, correlation, effect and sample size above is this
# simulator's, where the seed is the only source of noise and any run can be repeated exactly.
# Real agent evaluations add sources of noise the simulator does not have:
#
# - **The model's own sampling, and non-determinism even at temperature 0**: the same request
#   can return different tokens because of batching and the order of floating-point sums on the
#   server (He and Thinking Machines Lab); agent trajectories part early and the differences
#   cascade (Bjarnason et al., 2026).
# - **Judge noise**: an LLM or a human grading the answer adds its own variance, and its own bias.
# - **Drift**: the model behind an API name is updated; tools, web pages, environments and user
#   simulators change between runs and between the 2 setups' runs.
# - **The tasks**: a real benchmark is one draw of tasks, usually larger and more varied than
#   24, with its own clusters (Miller).
#
# Common random numbers are at best partial there: one can share task instances, environment and
# user-simulator seeds and cached tool responses, rarely the model's own sampling between 2
# different prompts or architectures. Expect less from pairing than CR1 gives here.
#
# ### More exercises
#
# 2. **Coverage, computed and checked.** From the seeds of exercise 1, the per-seed token
#    difference in 1,000 disjoint studies of 5 seeds: the share of studies whose 95 % percentile
#    bootstrap interval (`scipy.stats.bootstrap`, 1,000 resamples) holds the 5,000-seed mean. Put
#    it into `my_coverage` and check it (a resampling seed of your own moves it a little; the
#    check allows for that). Then do the same with the t interval.
# 3. In the panel, set the seeds to 500 and press **new seed** a few times, with **common
#    draws** off and then on. How often does the success interval over seeds leave zero out
#    in each case? Compare with the measured power at 500 seeds in the table of the closed form
#    against the measured power.
# 4. Compare **single loop** with **single loop + self-critique**. Which units differ? Why
#    are the intervals of the others a single point, [0, 0]?
# 5. Set the budget to 4 and the seeds to 10,000. Does the split still solve fewer tasks
#    than the single loop? Do the intervals over seeds and over tasks agree?

# %%
say(
    f"exercise 2: the {exercises.EXERCISE_SEEDS} seeds of exercise 1; studies of "
    f"{exercises.COVERAGE_STUDY_SEEDS} seeds, {exercises.COVERAGE_RESAMPLES} resamples each"
)
my_coverage = None  # exercise 2: your coverage of 5-seed percentile bootstrap intervals
print(exercises.check_coverage(MY_SEED, my_coverage))

# %% [markdown]
# ### Sources
#
# The lesson's sources, and what each contributes here:
#
# - Evan Miller, [Adding Error Bars to Evals: A Statistical Approach to Language Model
#   Evaluations](https://arxiv.org/abs/2411.00640) (arXiv). Here: paired differences, clustered
#   errors, power.
# - Yao et al. (2024), [τ-bench: A Benchmark for Tool-Agent-User Interaction in Real-World
#   Domains](https://arxiv.org/abs/2406.12045). Here: pass^k.
# - UK AI Security Institute, [Inspect, scoring metrics: epochs and
#   reducers](https://inspect.aisi.org.uk/metrics.html) (documentation). Here: several trials per
#   task, reduced per task.
# - Kapoor et al. (2024), [AI Agents That Matter](https://arxiv.org/abs/2407.01502). Here: cost
#   beside accuracy.
# - Bjarnason et al. (2026), [On Randomness in Agentic Evals](https://arxiv.org/abs/2602.07150).
#   Here: run-to-run variance, power.
# - Bowyer et al. (2025), [Position: Don't Use the CLT in LLM Evals …](https://arxiv.org/abs/2503.01747)
#   (title shortened). Here: small-sample intervals.
# - Bradley Efron, [Better Bootstrap Confidence Intervals](https://www.jstor.org/stable/2289144)
#   (Journal of the American Statistical Association). Here: BCa.
# - Andrew Gelman and John Carlin, [Beyond Power Calculations: Assessing Type S (Sign) and Type M
#   (Magnitude) Errors](https://doi.org/10.1177/1745691614551642) (Perspectives on Psychological
#   Science). Here: sign and magnitude errors.
# - Johari et al. (2017), [Peeking at A/B Tests: Why It Matters, and What to Do About
#   It](https://doi.org/10.1145/3097983.3097992) (KDD). Here: peeking.
# - Averill M. Law, [Simulation Modeling and Analysis](https://openlibrary.org/isbn/9780073401324)
#   (McGraw-Hill, 5th edition). Here: common random numbers.
# - Chen et al. (2021), [Evaluating Large Language Models Trained on
#   Code](https://arxiv.org/abs/2107.03374). Here: pass@k.
# - William G. Cochran, [Sampling Techniques](https://openlibrary.org/isbn/9780471162407) (Wiley,
#   3rd edition). Here: stratified intervals.
# - Horace He and Thinking Machines Lab, [Defeating Nondeterminism in LLM
#   Inference](https://thinkingmachines.ai/blog/defeating-nondeterminism-in-llm-inference/)
#   (blog). Here: non-determinism at temperature 0.
