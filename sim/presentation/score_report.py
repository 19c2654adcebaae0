"""`python -m sim score`'s report (lesson 6): the rows at the lesson seeds and, per budget over the
held-out seeds, the paired comparison and the cost-success table; rendered as text, JSON or CSV.
"""

import json
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.engine.units import UNITS
from sim.measurement import harness
from sim.measurement.harness import NOTHING_SOLVED
from sim.measurement.many_seeds import comparison_text, paired_comparison

HEADLINE = ("unit", "mean", "low", "high", "truncated", "many_seeds")  # first; the two-run verdict beside it
TRUNCATION_NOTE = (
    "* truncated to what the unit can take: a share 0..1, a difference of shares -1..+1, tokens >= 0"
)


@dataclass(frozen=True)
class ScoreReport:
    """What `python -m sim score` found; held_out: how many held-out seeds (0: none) from held_out_first."""

    policy: str
    baseline: str
    seeds: tuple[int, ...]
    budgets: tuple[int, ...]
    held_out: int
    held_out_first: int
    rows: pd.DataFrame
    paired: pd.DataFrame
    cost: pd.DataFrame


def score_report(policy, baseline: str, seeds, budgets, held_out: int) -> ScoreReport:
    """Score a checked entrant against a checked setup at distinct lesson seeds and budgets (steps) and
    `held_out` held-out seeds, each (entrant, task, seed, budget) run once, the lesson seeds first (so a
    recorded transcript replays in order). Raises PolicyError from a failing policy."""
    base_label, policy_label = harness.entrant_label(baseline), harness.entrant_label(policy)
    if policy_label == base_label:
        policy_label += " (policy)"
    entrants = {base_label: baseline, policy_label: policy}
    held = harness.held_out_seeds(held_out).tolist() if held_out else []
    every = list(dict.fromkeys([*seeds, *held]))  # the lesson seeds first, then the other held-out ones
    at = {seed: position for position, seed in enumerate(every)}
    rows, paired, cost = {label: [] for label in entrants}, [], []
    for budget in budgets:
        runs = {label: harness.entrant_run(entrant, every, budget) for label, entrant in entrants.items()}
        lesson = {label: run.take([at[seed] for seed in seeds]) for label, run in runs.items()}
        for label, run in lesson.items():
            counts = run.per_seed()
            for j, seed in enumerate(seeds):
                row = {"entrant": label, "seed": seed, "budget": budget}
                row.update({unit.reported: float(counts.success[j]) if unit.share else int(getattr(counts, unit.count)[j])
                            for unit in UNITS})  # fmt: skip
                rows[label].append(row)
        if not held:
            continue
        later = {label: run.take([at[seed] for seed in held]) for label, run in runs.items()}
        verdicts = harness.run_bands(lesson[base_label], lesson[policy_label]) if len(seeds) > 1 else None
        found = paired_comparison(later[base_label], later[policy_label], verdicts)
        paired.append(found[[*HEADLINE, "two_runs", "agrees"]].assign(budget=budget))
        cost.append(harness.cost_success(later).assign(budget=budget))

    def table(parts: list[pd.DataFrame]) -> pd.DataFrame:
        if not parts:
            return pd.DataFrame()
        frame = pd.concat(parts, ignore_index=True)
        return frame[["budget", *(column for column in frame.columns if column != "budget")]]

    return ScoreReport(policy_label, base_label, tuple(seeds), tuple(budgets), held_out, harness.HELD_OUT_FIRST,
                       pd.DataFrame([row for label in entrants for row in rows[label]]), table(paired),
                       table(cost))  # fmt: skip


def _figure(value: float, low: float, high: float, digits: int, mark: bool) -> str:
    """A value with its interval, e.g. "0.9375 [0.6728, 1.0000]*"; an undefined value says so."""
    if math.isnan(value):
        return NOTHING_SOLVED
    if math.isnan(low):
        return f"{value:.{digits}f}"
    bound = "unbounded" if math.isinf(high) else f"{high:.{digits}f}"
    return f"{value:.{digits}f} [{low:.{digits}f}, {bound}]" + ("*" if mark else "")


def as_text(report: ScoreReport) -> str:
    """The report as the course prints tables (shares with 4 decimals, tokens with 2), truncations noted."""
    lines = [report.rows.to_string(index=False, float_format="{:.4f}".format)]  # success: the one float
    for budget in report.budgets if report.held_out else ():
        paired = report.paired[report.paired["budget"] == budget]
        cost = report.cost[report.cost["budget"] == budget]
        held = f"{report.held_out} held-out seeds from {report.held_out_first}"
        lines += ["", f"budget {budget}: {report.policy} minus {report.baseline}, "
                  + (f"{held}, the band rule at seeds {','.join(map(str, report.seeds))} beside it"
                     if len(report.seeds) > 1
                     else f"{held} (no band rule: it needs 2 lesson seeds or more)")]  # fmt: skip
        lines.append(harness.headline_first(comparison_text(paired)).to_string(index=False))
        shown = pd.DataFrame({
            "entrant": cost["entrant"],
            "seeds": cost["seeds"],
            "success [95 % interval]": [_figure(r.success, r.success_low, r.success_high, 4, r.success_truncated)
                                        for r in cost.itertuples()],
            "tokens per run [95 % interval]": [_figure(r.tokens, r.tokens_low, r.tokens_high, 2, r.tokens_truncated)
                                               for r in cost.itertuples()],
            "tokens per solved task [95 % interval]": [
                _figure(r.tokens_per_success, r.per_success_low, r.per_success_high, 2, False)
                for r in cost.itertuples()
            ],
        })  # fmt: skip
        lines += ["", shown.to_string(index=False)]
        if paired["truncated"].any() or cost[["success_truncated", "tokens_truncated"]].any(axis=None):
            lines.append(TRUNCATION_NOTE)
    return "\n".join(lines)


def _plain(value):
    """A value for JSON: numpy scalars as Python numbers, NaN and infinities as null."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _records(frame: pd.DataFrame) -> list[dict]:
    return [{key: _plain(value) for key, value in row.items()} for row in frame.to_dict("records")]


def as_json(report: ScoreReport) -> str:
    """The report as JSON, every figure a number (null where undefined or unbounded)."""
    held = [
        {"budget": budget, "held_out_seeds": report.held_out, "first_seed": report.held_out_first,
         "paired": _records(report.paired[report.paired["budget"] == budget].drop(columns="budget")),
         "cost_success": _records(report.cost[report.cost["budget"] == budget].drop(columns="budget"))}
        for budget in (report.budgets if report.held_out else ())
    ]  # fmt: skip
    return json.dumps({"policy": report.policy, "baseline": report.baseline, "seeds": list(report.seeds),
                       "budgets": list(report.budgets), "rows": _records(report.rows), "held_out": held},
                      indent=2)  # fmt: skip


def as_csv(report: ScoreReport) -> str:
    """The report as one CSV table, column `part` run, paired or cost; undefined NaN, unbounded inf."""
    parts = []
    for part, frame in (("run", report.rows), ("paired", report.paired), ("cost", report.cost)):
        if len(frame):
            floats = [column for column in frame.columns if frame[column].dtype.kind == "f"]
            frame = frame.astype(object).assign(part=part)  # integers stay integers beside the other parts
            frame[floats] = frame[floats].where(frame[floats].notna(), "NaN")
            parts.append(frame)
    frame = pd.concat(parts, ignore_index=True)
    frame = frame[["part", *(column for column in frame.columns if column != "part")]]
    return frame.to_csv(index=False).rstrip("\n")


RENDER = {"text": as_text, "json": as_json, "csv": as_csv}
