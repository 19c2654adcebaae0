"""The band rule (AA30, lesson 2): a difference is measured when on every run it exceeds the larger band."""

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
    """The band rule on one unit: values, differences (second minus first), bands, verdict and why."""

    unit: str
    first: tuple[int, ...]
    second: tuple[int, ...]
    differences: tuple[int, ...]
    band_first: int
    band_second: int
    band: int
    verdict: str
    note: str


COUNTED = (*UNIT_NAMES, "approvals")  # what the band rule compares: the counted units, approvals (lesson 1)


def band_verdict(
    unit: str, first: Sequence[int], second: Sequence[int], label: str | None = None
) -> BandVerdict:
    """The band rule (AA30) on one unit measured on the same >= 2 runs of two setups (`label`: its name)."""
    if unit not in COUNTED:
        kind = InputError if isinstance(unit, str) else InputTypeError
        raise kind(f"unit must be one of {', '.join(COUNTED)}, got {unit!r}")
    if label is not None and (not isinstance(label, str) or not label):
        raise InputTypeError(f"label must be a non-empty string or None, got {label!r}")
    first = check_items(first, numbers.Real, "first", "numbers (exact counts)")
    second = check_items(second, numbers.Real, "second", "numbers (exact counts)")
    first, second = tuple(first), tuple(second)
    for name, values in (("first", first), ("second", second)):
        wrong = [v for v in values if isinstance(v, bool) or v != v]  # check_items took the numbers
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
    """The band rule for the five counted units of two setups on the same distinct seeds."""
    first = check_items(first, Measurement, "first", "Measurements (from sim.measurement.counts.measure)")
    second = check_items(second, Measurement, "second", "Measurements (from sim.measurement.counts.measure)")
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
    """A table of verdicts, runs named by run_labels(seeds) or by `labels`."""
    verdicts = check_items(
        verdicts, BandVerdict, "verdicts", "BandVerdicts (from sim.measurement.bands.compare_setups)", 1
    )
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
