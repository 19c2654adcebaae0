"""Lesson 8's reviewer (RV1-RV4), counted over many runs: the writes it prevented and the right ones it
lost, the runtime's trips beside the truth, and same-seed differences against a run without it."""

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from sim.engine.config import RunConfig
from sim.engine.loops import Run, check_run, is_correct
from sim.engine.reviews import run_seconds, writes_made
from sim.measurement.batch import BATCH_SETUPS, run_grid
from sim.measurement.many_seeds import t_interval
from sim.model.checks import check_instance, check_seeds
from sim.model.errors import InputError
from sim.model.tasks import TASKS

COUNTS = (  # review_counts' names, in order
    "runs", "reviews", "wrong writes made", "wrong writes prevented", "right writes refused",
    "right writes lost", "empty writes refused", "trips", "trips on a wrong write", "trips on a right write",
    "tokens before trips", "seconds before trips",
)  # fmt: skip
# "success, no wrong write": the answer held and no wrong record written (the course's unit for a
# reviewer, whose work shows in the records: plain success counts the answer held, written or not)
PER_SEED_UNITS = (
    "success",
    "success, no wrong write",
    "tokens",
    "seconds",
    "wrong writes made",
    "right writes made",
)


def prevented(review) -> bool:
    """A review that kept a wrong write out of the world (RV2): wrong, refused, not made, and with a value
    to write (a call with no value writes nothing whatever the verdict)."""
    return review.wrong and review.refused and not review.made and not review.empty


def review_runs(config: RunConfig, seeds) -> tuple[tuple[Run, ...], ...]:
    """A loop configuration on all 24 tasks at every seed, one-seed path: runs[task][seed position].
    Raises InputTypeError, InputError for a config that is not a loop RunConfig, or bad seeds."""
    check_instance(config, RunConfig, "config", "a RunConfig")
    if config.setup not in BATCH_SETUPS:
        raise InputError(f"config must be of setup {' or '.join(BATCH_SETUPS)}, got {config.setup!r}")
    return run_grid(config, check_seeds(seeds))


def _flat(runs) -> list[Run]:
    if isinstance(runs, Run):
        return [runs]
    flat = [run for row in runs for run in ([row] if isinstance(row, Run) else row)]
    return [check_run(run, "runs", BATCH_SETUPS) for run in flat]


def review_counts(runs) -> dict:
    """RV1-RV3 counted over loop runs (one Run, a sequence, or review_runs' grid): reviews; wrong writes
    made (reached the world); wrong writes prevented (refused and not made, and with a value to write);
    right writes refused; right writes lost (runs where a right write was refused and none was made);
    empty writes refused (calls with no value: the tool would have written nothing);
    trips (RV3) split by the truth of the tripping write; tokens and simulated seconds (RV4) spent
    before the trips (a tripped run ends at its trip). A run without the reviewer counts no reviews."""
    flat = _flat(runs)
    reviews = [review for run in flat for review in run.reviews]
    tripped = [run for run in flat if run.tripped]
    trip_reviews = [run.reviews[-1] for run in tripped]
    lost = sum(
        any(r.refused and not r.wrong for r in run.reviews) and not any(not r.wrong and r.made for r in run.reviews)
        for run in flat
    )  # fmt: skip
    values = (
        len(flat), len(reviews), sum(sum(writes_made(run)) for run in flat),
        sum(map(prevented, reviews)),
        sum(r.refused and not r.wrong for r in reviews), lost, sum(r.refused and r.empty for r in reviews),
        len(tripped),
        sum(r.wrong for r in trip_reviews), sum(not r.wrong for r in trip_reviews),
        sum(run.tokens for run in tripped), sum(run_seconds(run) for run in tripped),
    )  # fmt: skip
    return dict(zip(COUNTS, (int(v) for v in values), strict=True))


def review_table(named_runs: Mapping[str, object]) -> pd.DataFrame:
    """`review_counts` for each name -> runs, one row a name, with the mean tokens and seconds a trip."""
    rows = {name: review_counts(runs) for name, runs in named_runs.items()}
    table = pd.DataFrame.from_dict(rows, orient="index")
    trips = table["trips"].where(table["trips"] > 0)
    table["tokens a trip"] = (table["tokens before trips"] / trips).round(1)
    table["seconds a trip"] = (table["seconds before trips"] / trips).round(1)
    return table


def review_units(grid: tuple[tuple[Run, ...], ...]) -> pd.DataFrame:
    """PER_SEED_UNITS at each seed of `review_runs`' grid, over its 24 tasks, one row a seed: success as
    a share of the tasks, the others summed (seconds by RV4); each run read once."""
    rows = np.zeros((len(grid[0]), len(PER_SEED_UNITS)))
    for row in grid:
        for position, run in enumerate(row):
            made = writes_made(run)
            wrong = sum(made)
            rows[position] += (
                is_correct(run) / len(TASKS),
                (is_correct(run) and not wrong) / len(TASKS),
                run.tokens,
                run_seconds(run),
                wrong,
                len(made) - wrong,
            )
    return pd.DataFrame(rows, columns=list(PER_SEED_UNITS), index=[row.seed for row in grid[0]])


def review_differences(on, off, units: Iterable[str] = PER_SEED_UNITS) -> pd.DataFrame:
    """Same-seed differences (on minus off) of each unit, from two `review_runs` grids at the same seeds
    or their `review_units`: the mean and its 95 % t interval, one row a unit.

    Raises InputError for grids at other seeds or an unknown unit."""
    on, off = (table if isinstance(table, pd.DataFrame) else review_units(table) for table in (on, off))
    if list(on.index) != list(off.index):
        raise InputError("on and off must be review_runs grids at the same seeds")
    rows = []
    for unit in units:
        if unit not in PER_SEED_UNITS:
            raise InputError(f"unit must be one of {', '.join(PER_SEED_UNITS)}, got {unit!r}")
        mean, low, high = t_interval((on[unit] - off[unit]).to_numpy())
        rows.append({"unit": unit, "mean difference": mean, "low": low, "high": high})
    return pd.DataFrame(rows).set_index("unit")
