"""The scoring harness (lesson 6): an entrant (setup name, RunConfig, `Route` by request or policy
function) scored as the course scores its setups; design on the tuning block, report on the held-out block."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED, RunConfig
from sim.engine.goals import CALLS_FOR, goal_of
from sim.engine.labels import SETUP_LABELS
from sim.engine.policy import policy_name, policy_run
from sim.engine.units import UNITS
from sim.measurement.bands import BandVerdict, band_verdict
from sim.measurement.batch import TASK_FIELDS, BatchRun, batch_run, check_paired_runs, study_seeds
from sim.measurement.batch_contract import contract_batch
from sim.measurement.intervals import CONFIDENCE as CONFIDENCE  # the lessons print harness.CONFIDENCE
from sim.measurement.many_seeds import beside_many_seeds, bounded_t_interval, paired_difference
from sim.model.checks import (
    SETUP_NAMES,
    check_budget,
    check_instance,
    check_items,
    check_seeds,
    check_setup,
)
from sim.model.errors import InputError, InputTypeError
from sim.model.tasks import TASKS, correct_answer

TUNING_FIRST = DEFAULT_SEED + 100_000  # the tuning block: seeds TUNING_FIRST + i
HELD_OUT_FIRST = DEFAULT_SEED + 200_000  # the held-out block: seeds HELD_OUT_FIRST + i
REPORT_SEEDS = 500  # seeds of a report on the held-out block when none are given
LESSON_SEEDS = (DEFAULT_SEED, DEFAULT_SEED + 1)  # runs A and B
RESAMPLES, RESAMPLING_SEED = 2000, 2026  # the bootstrap of tokens per solved task
GOALS = tuple(CALLS_FOR)  # what a request can ask for (RT1), the keys of a router

NOTHING_SOLVED = "n/a (nothing solved)"  # tokens per solved task of an entrant that solved nothing


def tuning_seeds(n_seeds: int) -> np.ndarray:
    """The first n_seeds seeds of the tuning block (design a policy on these)."""
    return study_seeds(n_seeds, TUNING_FIRST)


def held_out_seeds(n_seeds: int = REPORT_SEEDS) -> np.ndarray:
    """The first n_seeds seeds of the held-out block (report on these, once)."""
    return study_seeds(n_seeds, HELD_OUT_FIRST)


@dataclass(frozen=True)
class Route:
    """A router by request: the field each request asks for (RT1, GOALS order) sent to a built-in
    setup; build it with `route`."""

    by_goal: tuple[tuple[str, str], ...]

    @property
    def name(self) -> str:
        """E.g. "router (amount: single-loop, ...)"."""
        return "router (" + ", ".join(f"{goal}: {setup}" for goal, setup in self.by_goal) + ")"


def route(by_goal: Mapping[str, str]) -> Route:
    """A Route from a mapping goal field (what a request asks for, RT1) -> setup name, every goal once
    (lesson 6)."""
    if not isinstance(by_goal, Mapping):
        raise InputTypeError(f"by_goal must be a mapping goal field -> setup, got {type(by_goal).__name__}")
    if set(by_goal) != set(GOALS):
        raise InputError(
            f"by_goal must name every goal field ({', '.join(GOALS)}) once, got {sorted(by_goal)}"
        )
    return Route(tuple((goal, check_setup(by_goal[goal], f"by_goal[{goal!r}]")) for goal in GOALS))


def entrant_label(entrant: object) -> str:
    """How tables name an entrant: a setup's label, a route's name, a policy's name."""
    if isinstance(entrant, RunConfig):
        return SETUP_LABELS[entrant.setup]
    if isinstance(entrant, str) and entrant in SETUP_NAMES:
        return SETUP_LABELS[entrant]
    return (
        entrant.name if isinstance(entrant, Route) or hasattr(entrant, "batch_run") else policy_name(entrant)
    )


def policy_batch(policy: Callable, seeds, max_steps: int = DEFAULT_BUDGET) -> BatchRun:
    """A checked policy on every task at checked seeds, on the one-seed engine."""
    config = RunConfig("single-loop", max_steps)
    answers = [correct_answer(task) for task in TASKS]  # scoring
    rows = []  # per seed, per task: the TASK_FIELDS of the run, in that order
    for seed in seeds.tolist():
        for task, answer in zip(TASKS, answers, strict=True):
            run = policy_run(policy, task, seed, config)
            rows.append((run.answer == answer, run.steps, run.calls, run.tokens, run.errors, 0, run.stopped))
    table = np.array(rows, dtype=np.int64).reshape(len(seeds), len(TASKS), len(TASK_FIELDS))
    out = {name: np.ascontiguousarray(table[:, :, k].T, dtype=bool if name in ("correct", "stopped") else np.int64)
           for k, name in enumerate(TASK_FIELDS)}  # fmt: skip
    return BatchRun(config, seeds, **out)


def check_entrant(entrant: object, name: str = "entrant") -> object:
    """`entrant` if a setup name, RunConfig, Route, policy function or an agent with a name and batch_run
    (lesson 7), else InputTypeError."""
    if isinstance(entrant, RunConfig | Route) or (isinstance(entrant, str) and entrant in SETUP_NAMES):
        return entrant
    if callable(getattr(entrant, "batch_run", None)) and isinstance(getattr(entrant, "name", None), str):
        return entrant  # an agent that runs itself (lesson 7: a framework agent)
    if callable(entrant) and not isinstance(entrant, type):
        return entrant
    raise InputTypeError(f"{name} must be a setup name ({', '.join(SETUP_NAMES)}), a RunConfig, a Route, "
                         f"a policy function or an agent with name and batch_run, got {entrant!r} ({type(entrant).__name__})")  # fmt: skip


def entrant_run(entrant: object, seeds, max_steps: int = DEFAULT_BUDGET) -> BatchRun:
    """Any entrant on every task at every seed, a BatchRun; raises InputError, PolicyError."""
    return _entrant_run(check_entrant(entrant), check_seeds(seeds), check_budget(max_steps))


def _entrant_run(entrant: object, seeds: np.ndarray, max_steps: int) -> BatchRun:
    """`entrant_run` on a checked entrant, seeds and budget."""
    if isinstance(entrant, str):
        entrant = RunConfig(entrant, max_steps)
    if isinstance(entrant, RunConfig):
        return contract_batch(entrant, seeds) if entrant.setup == "contract" else batch_run(entrant, seeds)
    if hasattr(entrant, "batch_run") and not isinstance(entrant, Route):
        run = entrant.batch_run(seeds, max_steps)
        check_instance(run, BatchRun, f"{entrant.name}.batch_run(...)", "a BatchRun")
        if not np.array_equal(run.seeds, seeds):
            raise InputError(f"{entrant.name}.batch_run must run at the seeds it is given")
        return run
    if isinstance(entrant, Route):
        runs = {setup: _entrant_run(setup, seeds, max_steps) for setup in dict(entrant.by_goal).values()}
        chosen = [dict(entrant.by_goal).get(goal_of(task.request), "single-loop") for task in TASKS]
        out = {name: np.stack([getattr(runs[setup], name)[i] for i, setup in enumerate(chosen)])
               for name in TASK_FIELDS}  # fmt: skip
        return BatchRun(RunConfig("single-loop", max_steps), seeds, **out)
    return policy_batch(entrant, seeds, max_steps)


def band_scores(entrant: object, baseline: object, max_steps: int = DEFAULT_BUDGET,
                seeds=LESSON_SEEDS) -> list[BandVerdict]:  # fmt: skip
    """The band rule (AA30), entrant (second) against baseline at the lesson's runs, a verdict a unit."""
    entrant, baseline = check_entrant(entrant), check_entrant(baseline, "baseline")
    seeds, max_steps = check_seeds(seeds), check_budget(max_steps)
    return run_bands(*(_entrant_run(e, seeds, max_steps) for e in (baseline, entrant)))


def run_bands(first: BatchRun, second: BatchRun) -> list[BandVerdict]:
    """The band rule (AA30) between two BatchRuns on the same seeds, one BandVerdict per counted unit."""
    check_paired_runs(first, second, "a BatchRun (from entrant_run)")
    first, second = first.per_seed(), second.per_seed()
    return [band_verdict(unit.name, getattr(first, unit.count).tolist(), getattr(second, unit.count).tolist())
            for unit in UNITS]  # fmt: skip


def score(entrant: object, baseline: object, max_steps: int = DEFAULT_BUDGET, seeds=None,
          lesson_seeds=LESSON_SEEDS) -> pd.DataFrame:  # fmt: skip
    """Score an entrant against a baseline (lesson 6): per counted unit the mean same-seed difference
    (entrant minus baseline) and its 95 % t interval over `seeds` (None: the held-out block), the
    headline, with the band verdict at lesson_seeds in a column beside it (`headline_first`)."""
    entrant, baseline = check_entrant(entrant), check_entrant(baseline, "baseline")
    lesson_seeds, max_steps = check_seeds(lesson_seeds, "lesson_seeds"), check_budget(max_steps)
    seeds = held_out_seeds() if seeds is None else check_seeds(seeds)
    verdicts = run_bands(*(_entrant_run(e, lesson_seeds, max_steps) for e in (baseline, entrant)))
    return headline_first(beside_many_seeds(
        verdicts, _entrant_run(baseline, seeds, max_steps), _entrant_run(entrant, seeds, max_steps)
    ))  # fmt: skip


def headline_first(table: pd.DataFrame) -> pd.DataFrame:
    """A `comparison_text` table with the interval over many seeds first and the two-run verdict
    ("two runs", "agrees", where present) in the columns after it (lessons 5 and 6)."""
    first = ["unit", "mean difference", "95 % interval", "many seeds"]
    return table[first + [column for column in table.columns if column not in first]]


def tokens_per_success(run: BatchRun, interval: bool = True) -> tuple[float, float, float]:
    """Tokens per solved task and its 95 % percentile bootstrap interval over seeds, (value, low, high);
    NaN when nothing is solved (NaN bounds with interval=False)."""
    per_seed = check_instance(run, BatchRun, "run", "a BatchRun (from entrant_run)").per_seed()
    tokens, solved = per_seed.tokens.astype(float), per_seed.solved.astype(float)
    if solved.sum() == 0:  # undefined: nothing was solved
        return float("nan"), float("nan"), float("nan")
    value = float(tokens.sum() / solved.sum())
    if not interval:
        return value, float("nan"), float("nan")
    if len(tokens) < 2:
        return value, value, value
    with np.errstate(divide="ignore", invalid="ignore"):  # a resample that solves nothing: inf
        result = stats.bootstrap((tokens, solved), lambda t, s, axis: t.sum(axis=axis) / s.sum(axis=axis),
                                 paired=True, vectorized=True, n_resamples=RESAMPLES, method="percentile",
                                 rng=np.random.default_rng(RESAMPLING_SEED))  # fmt: skip
    return value, float(result.confidence_interval.low), float(result.confidence_interval.high)


def cost_success(runs: Mapping[str, BatchRun], per_success_interval: bool = True) -> pd.DataFrame:
    """Success against tokens per run, truncated t intervals on both, for label -> BatchRun (same seeds)."""
    if not isinstance(runs, Mapping) or not runs:
        raise InputTypeError(f"runs must be a non-empty mapping label -> BatchRun, got {type(runs).__name__}")
    rows, seeds = [], None
    for label, run in runs.items():
        check_instance(run, BatchRun, f"runs[{label!r}]", "a BatchRun")
        if seeds is not None and not np.array_equal(seeds, run.seeds):
            raise InputError("runs must all be on the same seeds")
        seeds, per_seed = run.seeds, run.per_seed()
        success = bounded_t_interval(per_seed.success, 0.0, 1.0)
        tokens = bounded_t_interval(per_seed.tokens.astype(float), 0.0, np.inf)
        per = tokens_per_success(run, interval=per_success_interval)
        rows.append({"entrant": label, "seeds": len(run.seeds),
                     "success": success[0], "success_low": success[1], "success_high": success[2],
                     "tokens": tokens[0], "tokens_low": tokens[1], "tokens_high": tokens[2],
                     "success_truncated": success[3], "tokens_truncated": tokens[3],
                     "tokens_per_success": per[0], "per_success_low": per[1], "per_success_high": per[2]})  # fmt: skip
    return pd.DataFrame(rows)


def goal_differences(first: BatchRun, second: BatchRun) -> pd.DataFrame:
    """Per goal a request asks for (RT1), the same-seed difference in success with its truncated t
    interval; `shown`: zero out."""
    check_paired_runs(first, second, "a BatchRun (from entrant_run)")
    goals, rows = np.array([goal_of(task.request) for task in TASKS]), []
    for goal in GOALS:
        a, b = first.correct[goals == goal].mean(axis=0), second.correct[goals == goal].mean(axis=0)
        mean, low, high, _ = bounded_t_interval(b - a, -1.0, 1.0)
        rows.append({"goal": goal, "tasks": int((goals == goal).sum()), "first": float(a.mean()),
                     "second": float(b.mean()), "difference": mean, "low": low, "high": high,
                     "shown": bool(low > 0 or high < 0)})  # fmt: skip
    return pd.DataFrame(rows)


def best_route(default: BatchRun, other: BatchRun) -> Route:
    """The router tuned on a block of seeds: a goal goes to `other`'s setup only where
    `goal_differences` shows it better, else to `default`'s (lesson 6)."""
    check_instance(default, BatchRun, "default", "a BatchRun (from entrant_run)")
    check_instance(other, BatchRun, "other", "a BatchRun (from entrant_run)")
    shown = goal_differences(default, other).set_index("goal")
    better = shown["shown"] & (shown["difference"] > 0)
    return route({goal: other.setup if better[goal] else default.setup for goal in GOALS})


def interval_growth(first: BatchRun, second: BatchRun, unit: str, sizes) -> pd.DataFrame:
    """A unit's paired difference and t interval over the first n seeds, n in `sizes`; zero_out."""
    check_instance(first, BatchRun, "first", "a BatchRun (from entrant_run)")
    check_instance(second, BatchRun, "second", "a BatchRun (from entrant_run)")
    sizes = check_items(sizes, int, "sizes", "numbers of seeds (integers)", 1)
    if sizes != sorted(set(sizes)) or sizes[0] < 2 or sizes[-1] > len(first.seeds):
        raise InputError(f"sizes must be increasing integers 2 .. {len(first.seeds)}, got {sizes}")
    rows = [paired_difference(first.head(n), second.head(n), unit) for n in sizes]
    frame = pd.DataFrame(rows).rename(columns={"n_seeds": "seeds"})[["seeds", "mean", "low", "high"]]
    frame["zero_out"] = (frame["low"] > 0) | (frame["high"] < 0)
    frame["from_here_on"] = frame["zero_out"][::-1].cummin()[::-1]
    return frame
