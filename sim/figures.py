"""Saving and encoding the lessons' figures, and the colours they share. Each lesson's figures are
drawn by named functions in a module of their own: `sim.figures_single_loop`,
`sim.figures_planner_executor`, `sim.figures_step_budget`, `sim.figures_contract`,
`sim.figures_how_many_seeds`, `sim.figures_your_agent`.

Figures are matplotlib `Figure` objects made without pyplot, so drawing one never shows it
twice and leaves no global figure state. `save_figure` writes into the repository's
`figures/` folder whatever the working directory, or into the folder named by the
environment variable COURSE_FIGURES_DIR (the tests set it, so running them never rewrites a
committed figure). Introduced in lesson 2, planner and executor.
"""

import io
import os
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

FIGURES_ENV = "COURSE_FIGURES_DIR"
REPO_FIGURES = Path(__file__).resolve().parents[1] / "figures"
RUN_COLOURS = ("#4C72B0", "#DD8452")  # run A, run B
OK_COLOUR, ERROR_COLOUR = "#2E7D32", "#C62828"


def figures_dir() -> Path:
    """The folder figures are saved in: $COURSE_FIGURES_DIR if set, else the repository's figures/."""
    return Path(os.environ.get(FIGURES_ENV) or REPO_FIGURES)


def save_figure(fig: Figure, name: str) -> Path:
    """Save `fig` as `<figures_dir()>/<name>.png` (100 dpi) and return the path."""
    folder = figures_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    fig.savefig(path, dpi=100, metadata={"Software": None})
    return path


PANEL_DPI = 90  # resolution of a panel's figure; the panel shows it at its own pixel width


def figure_svg(fig: Figure) -> bytes:
    """The figure as SVG bytes with text kept as text, for a panel's Image widget: faster to
    make than a PNG here and sharp at any size. The same figure always gives the same bytes."""
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "agent-loops-measured"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def figure_png(fig: Figure, dpi: int = PANEL_DPI) -> bytes:
    """The figure as PNG bytes, for an Image widget (PANEL_DPI by default)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()
