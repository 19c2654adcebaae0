"""How many seeds a study needs, measured and by formula; and the traps of small studies (lesson 5).

- Power: the share of independent N-seed studies (disjoint blocks of seeds) whose 95 % interval
  leaves zero out, beside the closed form n = (z_{1-alpha/2} + z_{power})^2 sigma^2 / delta^2
  (the normal-approximation sample size, as in Miller, "Adding Error Bars to Evals", 2024).
- Sign and magnitude errors among the studies that leave zero out (Gelman and Carlin, "Beyond
  Power Calculations: Assessing Type S (Sign) and Type M (Magnitude) Errors", 2014).
- A/A studies: one setup against itself on disjoint seeds, where every "effect" is a false
  positive; used to measure peeking (stopping at the first look whose interval leaves zero out)
  and many comparisons (any of several units, sizes or ways of counting).

Intervals are `sim.measurement.intervals.t_interval`, whose coverage lesson 5 measures.
"""

import numpy as np
import pandas as pd
from scipy import stats

from sim.engine.config import RunConfig
from sim.engine.units import UNITS
from sim.measurement.batch import batch_run, study_seeds
from sim.measurement.intervals import CONFIDENCE, _disjoint_studies, _t_interval, excludes_zero
from sim.model.checks import (
    check_count,
    check_instance,
    check_integer,
    check_items,
    check_real,
    check_share,
    check_values,
)
from sim.model.errors import InputError

POWER_SIZES = (10, 20, 50, 100, 200, 500, 1000)  # seeds per study
TARGET_POWER = 0.8


def seeds_for_power(
    sd: float, effect: float, power: float = TARGET_POWER, confidence: float = CONFIDENCE
) -> float:
    """The closed-form number of seeds for a given power: (z_{(1+c)/2} + z_{power})^2 sd^2 / effect^2.

    Parameters
    ----------
    sd : float
        Standard deviation of the per-seed difference (> 0), in the unit of the difference.
    effect : float
        The true mean difference (not 0), in the same unit.
    power : float
        The share of studies that should leave zero out, between 0 and 1 (0.8 in the lesson).
    confidence : float
        The interval's confidence level c, between 0 and 1.

    Returns
    -------
    float
        Seeds (not rounded up). A normal approximation: it ignores the t quantile's excess at small N.

    Raises
    ------
    InputTypeError, InputError
        For values that are not numbers, sd <= 0, effect 0, or a share outside (0, 1).
    """
    sd, effect = check_real(sd, "sd"), check_real(effect, "effect")
    if sd <= 0:
        raise InputError(f"sd must be > 0, got {sd!r}")
    if effect == 0:
        raise InputError("effect must not be 0: no number of seeds gives power against no effect")
    z = stats.norm.ppf((1 + check_share(confidence, "confidence")) / 2) + stats.norm.ppf(
        check_share(power, "power")
    )
    return float(z**2 * sd**2 / effect**2)


def closed_form_power(sd: float, effect: float, n_seeds: int, confidence: float = CONFIDENCE) -> float:
    """The normal-approximation power of an n-seed study: the chance its interval leaves zero out,
    Phi(|effect| sqrt(n) / sd - z) + Phi(-|effect| sqrt(n) / sd - z), z = z_{(1+c)/2}. Parameters
    as `seeds_for_power`, n_seeds an integer >= 1; raises as it (effect 0 included)."""
    sd, effect = check_real(sd, "sd"), check_real(effect, "effect")
    if sd <= 0:
        raise InputError(f"sd must be > 0, got {sd!r}")
    if effect == 0:
        raise InputError("effect must not be 0: a power against no effect is the false-positive rate")
    n_seeds = check_integer(n_seeds, "n_seeds", 1)
    z = stats.norm.ppf((1 + check_share(confidence, "confidence")) / 2)
    shift = abs(effect) * np.sqrt(n_seeds) / sd
    return float(stats.norm.cdf(shift - z) + stats.norm.cdf(-shift - z))


def power_table(differences, sizes=POWER_SIZES, truth: float | None = None) -> pd.DataFrame:
    """Independent studies of N seeds (disjoint blocks of `differences`): how often their t interval
    leaves zero out, and, among those, how often the sign is wrong and by how much the size is
    exaggerated.

    Parameters
    ----------
    differences : numpy.ndarray
        One difference per seed, shape (n,), in seed order.
    sizes : Sequence[int]
        Seeds per study, each 2..n.
    truth : float | None
        The true difference; None for the mean of all of `differences` (the 10,000-seed value).

    Returns
    -------
    pandas.DataFrame
        One row per size: n_seeds, studies, excluding (studies whose interval leaves zero out),
        power (excluding / studies), wrong_sign (of those excluding, how many have the sign
        opposite to truth: type S errors), type_s (wrong_sign / excluding, NaN when none
        excludes), type_m (mean of |estimate| / |truth| over the studies excluding: the
        exaggeration ratio, NaN when none excludes).

    Raises
    ------
    InputTypeError, InputError
        For differences that are not a 1-D array of numbers, a size outside 2..n, or a truth of 0.
    """
    differences = check_values(differences, "differences", 1)
    truth = float(differences.mean()) if truth is None else check_real(truth, "truth")
    if truth == 0:
        raise InputError("truth must not be 0: a power against no effect is the false-positive rate")
    rows = []
    for n_seeds in check_items(sizes, object, "sizes", "sizes", 1):
        n_seeds = check_integer(n_seeds, "sizes", 2, len(differences))
        studies = _disjoint_studies(differences, n_seeds)
        excluding = excludes_zero(*_t_interval(studies))
        estimates = studies.mean(axis=1)[excluding]
        wrong = int((np.sign(estimates) != np.sign(truth)).sum())
        some = bool(excluding.any())
        rows.append({"n_seeds": n_seeds, "studies": len(studies), "excluding": int(excluding.sum()),
                     "power": float(excluding.mean()), "wrong_sign": wrong,
                     "type_s": wrong / excluding.sum() if some else float("nan"),
                     "type_m": float(np.mean(np.abs(estimates)) / abs(truth)) if some else float("nan")})  # fmt: skip
    return pd.DataFrame(rows)


def per_task_outcomes(config: RunConfig, n_seeds: int, first: int, chunk: int = 10000) -> dict:
    """Every counted unit per (task, seed) for one setup over many seeds, run in chunks of the batch
    path so that memory stays small (an A/A study needs many seeds of one setup).

    Parameters
    ----------
    config : RunConfig
        A loop setup's configuration (the batch path).
    n_seeds : int
        Seeds first, first + 1, ..., first + n_seeds - 1; >= 2.
    first : int
        The first seed.
    chunk : int
        Seeds per batch run, >= 1.

    Returns
    -------
    dict[str, numpy.ndarray]
        Unit name (sim.engine.units.UNIT_NAMES) -> int32 array of shape (24, n_seeds): success as 0/1
        per task, the other units as counts.

    Raises
    ------
    InputTypeError, InputError
        For a config that is not a RunConfig of a loop setup, or bad sizes or seeds.
    """
    config = check_instance(config, RunConfig, "config", "a RunConfig (from sim.run_config)")
    seeds = study_seeds(check_count(n_seeds, "n_seeds", 2), first)
    chunk = check_count(chunk, "chunk", 1)
    parts = {unit.name: [] for unit in UNITS}
    for start in range(0, len(seeds), chunk):
        run = batch_run(config, seeds[start : start + chunk])
        for unit in UNITS:
            parts[unit.name].append(getattr(run, unit.per_task).astype(np.int32))
    return {name: np.concatenate(arrays, axis=-1) for name, arrays in parts.items()}


def aa_differences(values, n_studies: int, n_seeds: int) -> np.ndarray:
    """A/A studies of one setup against itself on disjoint seeds: study j compares seeds
    2 j N .. 2 j N + N - 1 (arm A) with the next N seeds (arm B), position by position.

    Parameters
    ----------
    values : numpy.ndarray
        One setup's values per seed, shape (..., n) (leading axes: tasks), n >= 2 x n_studies x n_seeds.
    n_studies : int
        How many A/A studies, >= 1.
    n_seeds : int
        Seeds per arm, >= 2.

    Returns
    -------
    numpy.ndarray
        B minus A, shape (..., n_studies, n_seeds). Every true difference is 0 by construction:
        both arms are the same setup.

    Raises
    ------
    InputTypeError, InputError
        For bad values or sizes, or too few seeds.
    """
    values = check_values(values, "values", None)
    n_studies, n_seeds = check_count(n_studies, "n_studies", 1), check_count(n_seeds, "n_seeds", 2)
    if values.shape[-1] < 2 * n_studies * n_seeds:
        raise InputError(
            f"values must hold at least 2 x n_studies x n_seeds = {2 * n_studies * n_seeds} seeds, "
            f"got {values.shape[-1]}"
        )
    arms = values[..., : 2 * n_studies * n_seeds].reshape(*values.shape[:-1], n_studies, 2, n_seeds)
    return arms[..., 1, :] - arms[..., 0, :]


def peeking(differences, looks) -> dict:
    """An A/A study stopped at the first look whose t interval leaves zero out, against the same
    study read once at its full size.

    Parameters
    ----------
    differences : numpy.ndarray
        A/A differences, shape (n_studies, n_max) (from `aa_differences`).
    looks : Sequence[int]
        Increasing numbers of seeds at which the study is read, each 2..n_max; the last is the
        fixed size.

    Returns
    -------
    dict
        studies; fixed (share of studies whose interval at the last look leaves zero out: the
        false-positive rate of a fixed size); peeking (share whose interval leaves zero out at
        any look: the false-positive rate of stopping there); looks (the looks).

    Raises
    ------
    InputTypeError, InputError
        For bad differences, or looks that are not increasing integers in 2..n_max.
    """
    differences = check_values(differences, "differences", 2)
    looks = [check_integer(n, "looks", 2, differences.shape[1]) for n in check_items(looks, object, "looks",
                                                                                      "numbers of seeds", 1)]  # fmt: skip
    if looks != sorted(set(looks)):
        raise InputError(f"looks must be increasing numbers of seeds, got {looks}")
    stopped = np.zeros(len(differences), dtype=bool)
    for n in looks:
        stopped |= excludes_zero(*_t_interval(differences[:, :n]))
    fixed = excludes_zero(*_t_interval(differences[:, : looks[-1]]))
    return {"studies": len(differences), "fixed": float(fixed.mean()), "peeking": float(stopped.mean()),
            "looks": looks}  # fmt: skip


def aa_exclusions(per_task: dict, n_studies: int, sizes, confidence: float = CONFIDENCE) -> dict:
    """Every comparison an A/A study could report: for each unit, number of seeds and way of counting,
    whether its interval leaves zero out.

    Parameters
    ----------
    per_task : dict[str, numpy.ndarray]
        Unit name -> values per (task, seed), shape (24, n) (from `per_task_outcomes`).
    n_studies : int
        A/A studies, >= 1; each uses 2 x max(sizes) seeds.
    sizes : Sequence[int]
        Numbers of seeds per arm at which the study is read (the first N of each arm), each >= 2.
    confidence : float
        Each interval's confidence level (0.95; 1 - 0.05 / k for a Bonferroni correction over k).

    Returns
    -------
    dict[tuple[str, int, str], numpy.ndarray]
        (unit, n_seeds, way) -> bool array (n_studies,), way "seeds" (one value per seed: the run's
        difference) or "tasks" (one value per task: its mean difference over the seeds).

    Raises
    ------
    InputTypeError, InputError
        For a per_task that is not a dict of arrays, bad sizes, or too few seeds.
    """
    check_instance(per_task, dict, "per_task", "a dict of unit name -> array (from per_task_outcomes)")
    sizes = [check_count(n, "sizes", 2) for n in check_items(sizes, object, "sizes", "sizes", 1)]
    confidence = check_share(confidence, "confidence")
    found = {}
    for unit, values in per_task.items():
        differences = aa_differences(values, n_studies, max(sizes))  # (24, studies, seeds)
        for n in sizes:
            cut = differences[..., :n]
            by_seed = _t_interval(cut.sum(axis=0), confidence)
            by_task = _t_interval(np.moveaxis(cut.mean(axis=-1), 0, -1), confidence)
            found[unit, n, "seeds"] = excludes_zero(*by_seed)
            found[unit, n, "tasks"] = excludes_zero(*by_task)
    return found


def family_error(exclusions: dict, keys=None) -> float:
    """The share of A/A studies in which at least one of the chosen comparisons leaves zero out (the
    family-wise false-positive rate).

    Parameters
    ----------
    exclusions : dict
        From `aa_exclusions`.
    keys : Iterable | None
        The comparisons reported; None for all of them.

    Returns
    -------
    float
        A share in [0, 1].

    Raises
    ------
    InputTypeError, InputError
        For exclusions that are not such a dict, or a key it does not hold.
    """
    check_instance(exclusions, dict, "exclusions", "a dict from aa_exclusions")
    keys = (
        list(exclusions) if keys is None else check_items(keys, tuple, "keys", "(unit, n_seeds, way) keys", 1)
    )
    missing = [key for key in keys if key not in exclusions]
    if missing:
        raise InputError(f"keys must be comparisons in exclusions, got {missing[0]!r}")
    return float(np.any([exclusions[key] for key in keys], axis=0).mean())
