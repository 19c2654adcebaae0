"""Text a lesson prints, fitted to the screen: no line longer than JupyterLab shows whole.

JupyterLab wraps a printed (monospace) line longer than its default width wherever the width runs
out, mid-word ("every ru / n"). A lesson prints its sentences through `say`, which breaks a long line
between words and indents what follows, so a reader sees where a line goes on. Tables are made
narrow enough where they are built. Introduced with issue 26 (every lesson).
"""

import functools
import re
import textwrap

import numpy as np

LINE_WIDTH = 100  # characters: what JupyterLab shows of a printed line at its default width


def wrap(text: str, width: int = LINE_WIDTH) -> str:
    """`text` with every line longer than `width` broken between words; a line's continuation is
    indented 4 spaces past the line's own indent. A single word longer than `width` stays whole."""
    lines = []
    for line in str(text).splitlines():
        if len(line) <= width:
            lines.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        lines += textwrap.wrap(line.strip(), width, initial_indent=indent, subsequent_indent=indent + "    ",
                               break_long_words=False, break_on_hyphens=False)  # fmt: skip
    return "\n".join(lines)


def fits_the_screen(check):
    """An exercise check whose verdict comes back wrapped to the screen (`wrap`)."""

    @functools.wraps(check)
    def fitted_check(*args, **kwargs):
        return wrap(check(*args, **kwargs))

    return fitted_check


def say(*texts: object) -> None:
    """Print each text as `wrap` fits it to the screen (what `print` does, one text a line)."""
    for text in texts:
        print(wrap(str(text)))


def readable(frame, missing: str = "—"):
    """A copy of a DataFrame for printing as a reader reads it: a column named by a Python
    identifier in words (`asked_for_record` -> "asked for record"), a switch as yes/no, a missing
    value (None, NaN, pandas' <NA>) as `missing`. The numbers are untouched."""
    import pandas as pd

    def word(value):
        if isinstance(value, bool | np.bool_):
            return "yes" if value else "no"
        if value is None or (not isinstance(value, str | tuple | list) and pd.isna(value)):
            return missing
        return value

    shown = frame.copy()
    for column in shown.columns:
        values = shown[column]
        if values.dtype == bool or values.dtype == object or values.isna().any():
            shown[column] = values.astype(object).map(word)
    return shown.rename(columns=lambda name: name.replace("_", " ") if isinstance(name, str) else name)


def fitted(frame, keys=(), width: int = LINE_WIDTH, breaks=(), **to_string) -> str:
    """A DataFrame printed with no line wider than `width`: when its text is wider, its columns are
    cut into consecutive groups (a new one where the next column would not fit, and at each column
    named in `breaks`), each printed with the `keys` columns first (the ones that name a row, e.g.
    "unit"), the groups one under the other, an empty line between them. `to_string` goes to
    DataFrame.to_string (index=False unless given)."""
    to_string.setdefault("index", False)
    keys = [keys] if isinstance(keys, str) else list(keys)
    whole = frame.to_string(**to_string)
    if max(map(len, whole.splitlines()), default=0) <= width:
        return whole
    rest = [column for column in frame.columns if column not in keys]
    groups, group = [], []
    for column in rest:
        trial = frame[keys + group + [column]].to_string(**to_string)
        if group and (column in breaks or max(map(len, trial.splitlines())) > width):
            groups.append(group)
            group = []
        group.append(column)
    groups.append(group)
    return "\n\n".join(frame[keys + group].to_string(**to_string) for group in groups)


def show(frame, keys=None, breaks=(), **to_string) -> None:
    """Print a DataFrame as a reader reads it (`readable`) and fitted to the screen (`fitted`,
    cut after its first column, or `keys`, when too wide)."""
    shown = readable(frame)
    keys = [shown.columns[0]] if keys is None else keys
    print(fitted(shown, keys, breaks=breaks, **to_string))


def type_label(annotation) -> str:
    """A type as a reader writes it in code: `str`, `tuple[ToolCall, ...]`, `Callable[[], float]`, not
    its repr (`<class 'str'>`, `collections.abc.Callable[[], float]`); "or nothing yet" for `| None`."""
    text = annotation.__name__ if isinstance(annotation, type) else str(annotation)
    text = re.sub(
        r"\b(?:[a-z_]\w*\.)+(?=[A-Za-z_])", "", text
    )  # module paths: collections.abc., sim.engine.loops.
    return text.replace(" | None", ", or nothing yet")
