"""A progress bar for a lesson cell that runs longer than about 2 s (issue 31): drawn while the cell
runs, closed when it ends, and never part of the stored record. Shown as a widget view alone (no
plain-text form), which nbval does not compare and `plain_panel_outputs` drops on save."""

from collections.abc import Iterable, Iterator
from typing import TypeVar

from sim.model.errors import InputTypeError
from sim.presentation.notebook_save import WIDGET_VIEW

T = TypeVar("T")


def progress(items: Iterable[T], label: str) -> Iterator[T]:
    """Each of `items` in turn, with a bar under the cell that fills as they are taken (in a kernel;
    elsewhere just the items). Raises InputTypeError for a label that is not a string."""
    if not isinstance(label, str):
        raise InputTypeError(f"label must be a string, not {type(label).__name__}")
    items = list(items)
    bar = _bar(len(items), label)
    if bar is None:
        yield from items
        return
    try:
        for done, item in enumerate(items, 1):
            yield item
            bar.value = done
    finally:
        bar.close()  # the view goes; the saved output keeps no widget (notebook_save)


def _bar(total: int, label: str):
    """An ipywidgets bar shown in the running cell, or None outside a kernel."""
    from IPython import get_ipython

    if getattr(get_ipython(), "kernel", None) is None:
        return None
    import ipywidgets as widgets
    from IPython.display import display

    bar = widgets.IntProgress(value=0, min=0, max=max(total, 1), description=label)
    bar.style.description_width = "initial"
    display({WIDGET_VIEW: bar._repr_mimebundle_()[WIDGET_VIEW]}, raw=True)
    return bar
