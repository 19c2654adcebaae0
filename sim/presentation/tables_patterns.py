"""Lesson 8's tables as printed: each difference a mean and its 95 % interval, "+0.0029 [-0.0015, +0.0074]"."""

import pandas as pd

from sim.model.checks import check_instance


def interval_text(mean: float, low: float, high: float, form: str) -> str:
    """`mean [low, high]`, each in the format `form` (as "+.4f"); a value that rounds to 0 prints as 0."""
    check_instance(form, str, "form", "a format string such as '+.4f'")
    texts = []
    for value in (mean, low, high):
        text = format(value, form)
        texts.append(format(0.0, form) if float(text) == 0 else text)  # no "-0.0000"
    return f"{texts[0]} [{texts[1]}, {texts[2]}]"


def _intervals(rows, mean: str, low: str, high: str, form: str) -> list[str]:
    """`interval_text` for each row (a dict) of a table's records."""
    return [interval_text(r[mean], r[low], r[high], form) for r in rows]


def reflection_frame(table: pd.DataFrame) -> pd.DataFrame:
    """A `reflection_table` as printed: the differences with their intervals, the flips a task run."""
    check_instance(table, pd.DataFrame, "table", "a reflection_table")
    rows = table.to_dict("records")
    frame = {"rule": table["variant"]}
    frame["success"] = _intervals(rows, "success", "success low", "success high", "+.4f")
    frame["tokens"] = _intervals(rows, "tokens", "tokens low", "tokens high", "+.0f")
    frame["tool errors"] = table["tool errors"].map("{:+.2f}".format)
    frame["wrong→right"] = table["wrong to right"].map("{:.3f}".format)
    frame["right→wrong"] = table["right to wrong"].map("{:.3f}".format)
    return pd.DataFrame(frame)


def speedup_frame(table: pd.DataFrame) -> pd.DataFrame:
    """A `speedup_table` as printed: speed-up, seconds and tokens, each a mean [95 % interval]."""
    check_instance(table, pd.DataFrame, "table", "a speedup_table")
    frame = {"width": table["width"]}
    for name, label, form in (
        ("speedup", "speed-up", ".2f"),
        ("seconds", "seconds", "+.1f"),
        ("tokens", "tokens", "+.0f"),
    ):
        frame[label] = [interval_text(*values, form) for values in table[name]]
    return pd.DataFrame(frame)


REVIEW_DIGITS = {"success": 3, "success, no wrong write": 3, "tokens": 0, "seconds": 1,
                 "wrong writes made": 2, "right writes made": 2}  # fmt: skip


def review_frame(differences: dict, digits: dict | None = None) -> pd.DataFrame:
    """`review_differences` tables (column label -> table) as one table, a row a unit of `digits`
    (unit -> decimals; default REVIEW_DIGITS, every unit of lesson 8's reviewer table)."""
    check_instance(differences, dict, "differences", "a dict label -> review_differences table")
    digits = REVIEW_DIGITS if digits is None else digits
    frame = {"unit": list(digits)}
    for label, table in differences.items():
        frame[label] = [
            interval_text(*table.loc[unit, ["mean difference", "low", "high"]], f"+.{d}f")
            for unit, d in digits.items()
        ]
    return pd.DataFrame(frame)


def compaction_frame(table: pd.DataFrame, full: bool = False) -> pd.DataFrame:
    """A `compaction_table` as printed: the success lost and tokens saved against the whole trace for
    each k; `full` adds the whole trace's row and each row's success, tokens and tokens per solved."""
    check_instance(table, pd.DataFrame, "table", "a compaction_table")
    shown = table if full else table[table["keep_last"].notna()]
    rows = shown.to_dict("records")
    frame = {"k": ["whole" if pd.isna(r["keep_last"]) else f"{int(r['keep_last'])}" for r in rows]}
    if full:
        frame["success"] = shown["success"].map("{:.4f}".format)
        frame["tokens"] = shown["tokens"].map("{:.0f}".format)
        frame["tokens per solved"] = shown["tokens per solved"].map("{:.1f}".format)
    lost = _intervals(rows, "success lost", "success low", "success high", "+.4f")
    saved = _intervals(rows, "tokens saved", "saved low", "saved high", "+.1f")
    whole = [pd.isna(r["keep_last"]) for r in rows]
    frame["success lost"] = ["" if w else text for w, text in zip(whole, lost, strict=True)]
    frame["tokens saved"] = ["" if w else text for w, text in zip(whole, saved, strict=True)]
    return pd.DataFrame(frame)
