"""The band rule (rule AA30): a difference between two setups counts as measured only when, on
every run, it exceeds the larger of the two setups' own run-to-run differences.

Counts are compared exactly (tasks solved, not rounded shares). Introduced in lesson 2.
"""

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from sim.engine.labels import run_labels
from sim.engine.units import UNIT_NAMES, UNITS
from sim.measurement.counts import Measurement
from sim.model.checks import check_items, check_seed
from sim.model.errors import InputError, InputTypeError

MEASURED, UNMEASURED = "measured", "unmeasured"


@dataclass(frozen=True)
class BandVerdict:
    """The band rule applied to one unit.

    Fields: unit; first and second (the two setups' values per run, exact counts);
    differences (second minus first, per run); band_first and band_second (each setup's
    run-to-run difference, max minus min over its runs); band (the larger of the two);
    verdict ("measured" or "unmeasured"); note (a plain sentence of why).
    """

    unit: str
    first: tuple[int, ...]
    second: tuple[int, ...]
    differences: tuple[int, ...]
    band_first: int
    band_second: int
    band: int
    verdict: str
    note: str


COUNTED = (
    *UNIT_NAMES,
    "approvals",
)  # what the band rule compares: the counted units, and approvals (lesson 1)


def band_verdict(
    unit: str, first: Sequence[int], second: Sequence[int], label: str | None = None
) -> BandVerdict:
    """Apply the band rule to one unit measured on the same runs in two setups.

    Parameters
    ----------
    unit : str
        What is compared: one of COUNTED (the counted units of `sim.engine.units`, or "approvals").
    label : str | None
        The name the record shows (e.g. "approvals asked"); None shows the unit.
    first, second : Sequence[int]
        The unit's exact count in each setup, one value per run (same runs, same order, >= 2).

    Returns
    -------
    BandVerdict
        "measured" only when |second - first| > max(band_first, band_second) on every run.

    Raises
    ------
    ValueError
        When the two setups do not have the same number of runs, or fewer than two.
    """
    if unit not in COUNTED:
        kind = InputError if isinstance(unit, str) else InputTypeError
        raise kind(f"unit must be one of {', '.join(COUNTED)}, got {unit!r}")
    if label is not None and (not isinstance(label, str) or not label):
        raise InputTypeError(f"label must be a non-empty string or None, got {label!r}")
    first = check_items(first, numbers.Real, "first", "numbers (exact counts)")
    second = check_items(second, numbers.Real, "second", "numbers (exact counts)")
    first, second = tuple(first), tuple(second)
    for name, values in (("first", first), ("second", second)):
        wrong = [v for v in values if isinstance(v, bool) or not isinstance(v, numbers.Real) or v != v]
        if wrong:
            raise InputTypeError(f"{name} must hold numbers (exact counts), got {wrong[0]!r}")
    if len(first) != len(second) or len(first) < 2:
        raise InputError(
            f"first and second must hold one value per run for the same >= 2 runs, "
            f"got {len(first)} and {len(second)} values"
        )
    differences = tuple(b - a for a, b in zip(first, second, strict=True))
    band_first, band_second = max(first) - min(first), max(second) - min(second)
    band = max(band_first, band_second)
    measured = all(abs(d) > band for d in differences)
    if band == 0 and all(d == 0 for d in differences):
        note = "no difference and no band: both setups give the same figure on every run"
    elif measured:
        note = f"the difference exceeds the band of {band} on every run"
    else:
        note = f"on some run the difference does not exceed the band of {band}"
    return BandVerdict(
        label or unit, first, second, differences, band_first, band_second, band,
        MEASURED if measured else UNMEASURED, note,
    )  # fmt: skip


def compare_setups(first: Sequence[Measurement], second: Sequence[Measurement]) -> list[BandVerdict]:
    """Apply the band rule to the five counted units of two setups measured on the same seeds.

    Parameters
    ----------
    first, second : Sequence[Measurement]
        One measurement per run for each setup (or stopping rule); run i of both must share
        its seed. Budgets may differ, to compare budgets or stopping rules (lesson 3).

    Returns
    -------
    list[BandVerdict]
        One verdict per unit: success (tasks solved), steps, tool calls, tokens, tool errors.

    Raises
    ------
    ValueError
        When the runs do not pair by seed.
    """
    first = check_items(first, Measurement, "first", "Measurements (from measure)")
    second = check_items(second, Measurement, "second", "Measurements (from measure)")
    seeds = [a.seed for a in first]
    if seeds != [b.seed for b in second]:
        raise InputError("first and second must be measured on the same seeds, in order")
    if len(set(seeds)) != len(seeds):
        raise InputError(
            f"the runs must have different seeds (a band needs distinct runs), got seeds {seeds}"
        )
    return [
        band_verdict(
            unit.name, [getattr(m, unit.count) for m in first], [getattr(m, unit.count) for m in second]
        )
        for unit in UNITS
    ]


def verdict_table(
    verdicts: Sequence[BandVerdict], seeds: Sequence[int], labels: Sequence[str] | None = None
) -> pd.DataFrame:
    """A table of verdicts: unit, each setup's values, the difference per run, the bands, the verdict.

    `seeds` label the runs (A, B for the lessons' seeds); `labels`, when given, names the runs
    instead, one per seed (a panel calls its runs A and B at any seed). Raises InputError or
    InputTypeError for bad verdicts, seeds or labels.
    """
    verdicts = check_items(verdicts, BandVerdict, "verdicts", "BandVerdicts (from compare_setups)", 1)
    seeds = [check_seed(seed, "seeds") for seed in check_items(seeds, object, "seeds", "seeds")]
    if len(set(seeds)) != len(seeds):
        raise InputError(f"seeds must not repeat (each is one run), got {seeds}")
    short = [v.unit for v in verdicts if len(v.first) != len(seeds)]
    if short:
        raise InputError(
            f"seeds must name one seed per run of the verdicts ({len(verdicts[0].first)}), got {len(seeds)}"
        )
    if labels is None:
        labels = run_labels(seeds)
    elif len(labels := check_items(labels, str, "labels", "run names")) != len(seeds):
        raise InputError(f"labels must name each of the {len(seeds)} runs, got {len(labels)}")
    rows = []
    for v in verdicts:
        row = {"unit": v.unit}
        row.update({f"first {label}": value for label, value in zip(labels, v.first, strict=True)})
        row.update({f"second {label}": value for label, value in zip(labels, v.second, strict=True)})
        row.update({f"difference {label}": d for label, d in zip(labels, v.differences, strict=True)})
        row.update(
            {"band first": v.band_first, "band second": v.band_second, "band": v.band, "verdict": v.verdict}
        )
        rows.append(row)
    return pd.DataFrame(rows)
