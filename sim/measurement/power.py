"""How many seeds a study needs (power, Miller 2024), type S and M errors (Gelman and Carlin 2014),
A/A studies, peeking and many comparisons (lesson 5); intervals are t intervals."""

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


def _sd_and_effect(sd: object, effect: object, why_not_zero: str) -> tuple[float, float]:
    sd, effect = check_real(sd, "sd"), check_real(effect, "effect")
    if sd <= 0:
        raise InputError(f"sd must be > 0, got {sd!r}")
    if effect == 0:
        raise InputError(f"effect must not be 0: {why_not_zero}")
    return sd, effect


def seeds_for_power(
    sd: float, effect: float, power: float = TARGET_POWER, confidence: float = CONFIDENCE
) -> float:
    """Seeds for a power, (z_{(1+c)/2} + z_power)^2 sd^2 / effect^2, not rounded up; raises InputError for
    sd <= 0, effect 0 or a share outside (0, 1)."""
    sd, effect = _sd_and_effect(sd, effect, "no number of seeds gives power against no effect")
    confidence, power = check_share(confidence, "confidence"), check_share(power, "power")
    z = stats.norm.ppf((1 + confidence) / 2) + stats.norm.ppf(power)
    return float(z**2 * sd**2 / effect**2)


def closed_form_power(sd: float, effect: float, n_seeds: int, confidence: float = CONFIDENCE) -> float:
    """Power of an n-seed study, Phi(s - z) + Phi(-s - z), s = |effect| sqrt(n) / sd; raises as above."""
    sd, effect = _sd_and_effect(sd, effect, "a power against no effect is the false-positive rate")
    n_seeds = check_integer(n_seeds, "n_seeds", 1)
    z = stats.norm.ppf((1 + check_share(confidence, "confidence")) / 2)
    shift = abs(effect) * np.sqrt(n_seeds) / sd
    return float(stats.norm.cdf(shift - z) + stats.norm.cdf(-shift - z))


def power_table(differences, sizes=POWER_SIZES, truth: float | None = None) -> pd.DataFrame:
    """Per size N, over disjoint N-seed studies: power, type S and type M errors (truth None: the mean).
    Raises InputError for a size outside 2..n or a truth of 0."""
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
    """Unit name -> int32 array (24, n_seeds) of one loop setup at seeds first.., `chunk` seeds at a time."""
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
    """A/A studies: study j's arm B (seeds (2j + 1) N ..) minus arm A (seeds 2j N ..); raises InputError
    for fewer than 2 x n_studies x n_seeds values."""
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
    """The false-positive share of A/A studies read once at the last look ("fixed") and stopped at the
    first of `looks` that leaves zero out ("peeking")."""
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
    """(unit, n_seeds, "seeds" or "tasks") -> whether each A/A study's interval leaves zero out
    (Bonferroni: confidence 1 - 0.05 / k)."""
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
    """The family-wise false-positive rate: any of `keys` (None: all) of `aa_exclusions` leaves zero out."""
    check_instance(exclusions, dict, "exclusions", "a dict from aa_exclusions")
    keys = (
        list(exclusions) if keys is None else check_items(keys, tuple, "keys", "(unit, n_seeds, way) keys", 1)
    )
    missing = [key for key in keys if key not in exclusions]
    if missing:
        raise InputError(f"keys must be comparisons in exclusions, got {missing[0]!r}")
    return float(np.any([exclusions[key] for key in keys], axis=0).mean())
