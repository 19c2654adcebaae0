"""Saving and encoding the lessons' figures (matplotlib, no pyplot) in the course's style and colours."""

import functools
import io
import os
import tempfile
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import matplotlib
import matplotlib.style
import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure

FIGURES_ENV = "COURSE_FIGURES_DIR"  # the tests set it, so running them never rewrites a committed figure
REPO_FIGURES = Path(__file__).resolve().parents[2] / "figures"
RUN_COLOURS = ("#4C72B0", "#DD8452")  # run A, run B
OK_COLOUR, ERROR_COLOUR = "#2E7D32", "#C62828"
# matplotlib's own defaults (not a user's matplotlibrc), and SVG text kept as text with fixed ids
COURSE_STYLE = ("default", {"svg.fonttype": "none", "svg.hashsalt": "agent-loops-measured"})


def course_style() -> AbstractContextManager:
    """A context in which figures are drawn and saved in the course's style, whatever the user's rc."""
    return matplotlib.style.context(COURSE_STYLE)


def in_course_style(draw: Callable[..., Figure]) -> Callable[..., Figure]:
    """Decorate a figure function so that it draws in `course_style()`."""

    @functools.wraps(draw)
    def drawn(*args, **kwargs) -> Figure:
        with course_style():
            return draw(*args, **kwargs)

    return drawn


def figures_dir() -> Path:
    """The folder figures are saved in: $COURSE_FIGURES_DIR if set, else the repository's figures/."""
    return Path(os.environ.get(FIGURES_ENV) or REPO_FIGURES)


@functools.cache
def fallback_dir(unwritable: Path) -> Path:
    """A folder of the user's own for the figures that cannot go into `unwritable`; says where, once."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = cache / "agent-loops-measured" / "figures"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise PermissionError(folder)
    except OSError:
        folder = Path(tempfile.mkdtemp(prefix="agent-loops-measured-figures-"))
    print(f"{unwritable} cannot be written here, so this session's figures are saved in {folder}")
    return folder


def save_figure(fig: Figure, name: str) -> Path:
    """Save `fig` as `<figures_dir()>/<name>.png` (100 dpi), else into `fallback_dir`; the path."""
    png = figure_png(fig, dpi=100)  # drawn once either way: a second draw can move a layout by a pixel
    try:
        return _write(figures_dir(), f"{name}.png", png)
    except OSError:
        return _write(fallback_dir(figures_dir()), f"{name}.png", png)


def _write(folder: Path, name: str, content: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(content)
    return folder / name


PANEL_DPI = 90  # resolution of a panel's figure; the panel shows it at its own pixel width
# an Axes title's height, given: matplotlib then skips measuring the ticks to lift it (there are
# none above the axes here, so it would not move) at every draw, a sixth of a simple figure's time
TITLE_Y = 1.0


def panel_bars(ax, x, lengths, width: float, base=0, horizontal: bool = False, **style) -> PolyCollection:
    """Bars of `width` centred on `x`, from `base` to `base + lengths` (`horizontal`: along x), as one
    artist (a panel's figure: `ax.bar` makes a patch a bar, several times slower to draw and save); the
    value axis stops at the bars' bases as `ax.bar`'s does."""
    x, start = np.asarray(x, dtype=float), np.broadcast_to(np.asarray(base, dtype=float), np.shape(lengths))
    end, low, high = start + np.asarray(lengths, dtype=float), x - width / 2, x + width / 2
    corners = np.stack(
        [np.column_stack(c) for c in ((low, start), (low, end), (high, end), (high, start))], 1
    )
    bars = PolyCollection(corners[..., ::-1] if horizontal else corners, **style)
    (bars.sticky_edges.x if horizontal else bars.sticky_edges.y).extend(np.unique(start))  # as ax.bar's
    return ax.add_collection(bars)


def _encoded(fig: Figure, **savefig) -> bytes:
    buffer = io.BytesIO()
    with course_style():
        fig.savefig(buffer, **savefig)
    return buffer.getvalue()


def figure_svg(fig: Figure) -> bytes:
    """The figure as SVG bytes, text kept as text (a panel's Image widget); the same figure, the same bytes."""
    return _encoded(fig, format="svg", metadata={"Date": None})


def figure_png(fig: Figure, dpi: int = PANEL_DPI) -> bytes:
    """The figure as PNG bytes (dpi: dots per inch)."""
    return _encoded(fig, format="png", dpi=dpi, metadata={"Software": None})
