"""Text a lesson prints, fitted to the screen: no line longer than JupyterLab shows whole (issue 26).

JupyterLab would wrap a longer line mid-word; `say` breaks it between words and indents what follows.
"""

import functools
import re
import textwrap

import numpy as np

LINE_WIDTH = 100  # characters: what JupyterLab shows of a printed line at its default width


def wrap(text: str, width: int = LINE_WIDTH) -> str:
    """`text` with each line longer than `width` broken between words, continuations indented 4 more."""
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
    """A copy of a DataFrame as a reader reads it: "asked for record" for asked_for_record, yes/no for
    a switch, `missing` for None, NaN or <NA>; numbers untouched."""
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
    """A DataFrame as text no wider than `width`: else its columns cut into groups (also at `breaks`),
    each printed after the `keys` columns, one under the other; `to_string` goes to DataFrame.to_string."""
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
    """Print a DataFrame `readable` and `fitted` (keys: its first column unless given)."""
    shown = readable(frame)
    keys = [shown.columns[0]] if keys is None else keys
    print(fitted(shown, keys, breaks=breaks, **to_string))


def type_label(annotation) -> str:
    """A type as code writes it (`tuple[ToolCall, ...]`, not its repr); "or nothing yet" for `| None`."""
    text = annotation.__name__ if isinstance(annotation, type) else str(annotation)
    text = re.sub(r"\b(?:[a-z_]\w*\.)+(?=[A-Za-z_])", "", text)  # module paths: collections.abc., sim.engine.
    return text.replace(" | None", ", or nothing yet")
