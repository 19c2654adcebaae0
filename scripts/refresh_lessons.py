"""The maintainer command: re-execute every lesson in place and re-pair it.

    .venv/bin/python scripts/refresh_lessons.py            # every lessons/*.py
    .venv/bin/python scripts/refresh_lessons.py 02         # the lessons whose name starts with 02

For each lessons/NN_name.py (the source you edit): read it with jupytext, execute it top to
bottom with nbclient in a fresh kernel (working directory lessons/, figures written to the
repository's figures/), store each panel as its one plain line (no widget state), and write
lessons/NN_name.ipynb; then draw the still of its panel at the lesson's defaults for the static site
(site/stills/NN_name.png and .json, by scripts/build_site.py's write_panel_still). The .py is
then rewritten by jupytext from the executed notebook, so the pair is in sync. The .py is
formatted with ruff first, as the lint test expects.

The record does not depend on the maintainer's machine: kernels start from an empty IPython
profile and matplotlib folder, the notebook's kernelspec is the standard Python 3 one
whatever an editor wrote, and each lesson's line says which printed outputs and which of its
figures changed.
"""

import hashlib
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import jupytext
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from sim.presentation.figures import figures_dir
from sim.presentation.notebook_save import WIDGET_VIEW, plain_panel_outputs  # noqa: F401 (WIDGET_VIEW: for the tests)

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
_SITE = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build_site.py")
build_site = importlib.util.module_from_spec(_SITE)  # the static site's panel stills (write_panel_still)
_SITE.loader.exec_module(build_site)
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def normalise_metadata(notebook) -> None:
    """The standard Python 3 kernelspec (an editor may write its own, e.g. conda-env-x-py)."""
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)


def figure_hashes(stem: str) -> dict[str, str]:
    """The SHA-256 of each of a lesson's saved figures, by file name."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in figures_dir().glob(f"{stem}-*.png")}


def figure_changes(before: dict[str, str], after: dict[str, str]) -> str:
    """Which figures the run changed, added or no longer wrote, in one phrase."""
    changed = sorted(name for name in after if before.get(name) not in (None, after[name]))
    added, gone = sorted(set(after) - set(before)), sorted(set(before) - set(after))
    parts = [f"{label} {', '.join(names)}" for label, names in
             (("figures changed:", changed), ("figures new:", added), ("figures not written:", gone)) if names]  # fmt: skip
    return "; ".join(parts) or "figures unchanged"


def printed(cell) -> str:
    """What a code cell printed: its streams, plain text and HTML, joined (widget views left out)."""
    parts = []
    for output in cell.get("outputs", []):
        parts.append(output.get("text", ""))
        data = output.get("data", {})
        parts += (
            [data.get("text/plain", ""), data.get("text/html", "")]
            if "application/vnd.jupyter.widget-view+json" not in data
            else []
        )
    return "".join(parts)


def refresh(source: Path) -> None:
    # the source is formatted first, so the lint test and the pairing check agree with it
    subprocess.run([sys.executable, "-m", "ruff", "format", "--quiet", str(source)], check=True)
    target = source.with_suffix(".ipynb")
    old = jupytext.read(target) if target.exists() else None
    notebook = jupytext.read(source)
    notebook.metadata.pop("widgets", None)
    normalise_metadata(notebook)
    figures_before = figure_hashes(source.stem)
    if old is not None:  # keep cell ids (a quieter diff): a cell keeps the id of the old cell it matches
        for new_cell, old_cell in matched_cells(old.cells, notebook.cells):
            if "id" in old_cell:
                new_cell["id"] = old_cell["id"]
    client = NotebookClient(
        notebook,
        timeout=900,
        kernel_name="python3",
        resources={"metadata": {"path": str(LESSONS)}},
        record_timing=False,  # no timestamps in stored cells
        store_widget_state=False,  # a saved panel could only be drawn dead (see plain_panel_outputs)
        coalesce_streams=True,  # one stream output per cell, however the kernel chunked its writes
    )
    try:
        client.execute()
    except CellExecutionError as error:
        raise RefreshError(source, notebook, error) from None
    plain_panel_outputs(notebook)
    jupytext.write(notebook, target, fmt="ipynb")
    jupytext.write(notebook, source, fmt="py:percent")
    still = build_site.write_panel_still(target)  # the site's still of the panel, at the lesson's defaults
    changed, added, removed = [], [], 0
    if old is not None:
        old_code = [c for c in old.cells if c.cell_type == "code"]
        new_code = [c for c in notebook.cells if c.cell_type == "code"]
        before = {id(new): old for new, old in matched_cells(old_code, new_code)}
        removed = len(old_code) - len(before)
        for k, cell in enumerate(new_code, start=1):
            if id(cell) not in before:
                added.append(k)
            elif printed(before[id(cell)]) != printed(cell):
                changed.append(k)
    summary = (
        f"printed output changed in unedited code cells {changed}"
        if changed
        else "unedited code cells print as before"
    )
    if added:
        summary += f"; new or edited code cells {added} (their output is new)"
    if removed:
        summary += f"; {removed} code cells of the old version gone"
    print(f"refreshed {source.relative_to(ROOT)} and its .ipynb: {summary}")
    print(f"  {figure_changes(figures_before, figure_hashes(source.stem))}")
    if still is not None:
        print(f"  the site's still of its panel: {still.relative_to(ROOT)}")


def matched_cells(old_cells, new_cells):
    """(new cell, old cell) pairs: each new cell with the first unmatched old cell of the same type
    and source, so inserting or editing a cell does not shift the others' comparison. Code cells are
    numbered from 1 in the report, as JupyterLab shows them after Run All."""
    unused = list(old_cells)
    pairs = []
    for cell in new_cells:
        match = next((o for o in unused if o.cell_type == cell.cell_type and o.source == cell.source), None)
        if match is not None:
            unused.remove(match)
            pairs.append((cell, match))
    return pairs


class RefreshError(Exception):
    """A lesson's cell raised while it was re-executed: names the lesson, the cell and the error."""

    def __init__(self, source: Path, notebook, error: CellExecutionError):
        code = [cell for cell in notebook.cells if cell.cell_type == "code"]
        failed = next((k for k, cell in enumerate(code) if any(o.get("output_type") == "error"
                                                                for o in cell.get("outputs", []))), None)  # fmt: skip
        where = (
            "a cell"
            if failed is None
            else f"code cell {failed + 1} (nbval Cell {failed}, JupyterLab [{failed + 1}])"
        )
        last = (getattr(error, "ename", "") + ": " + getattr(error, "evalue", "")).strip(": ") or str(
            error
        ).strip().splitlines()[-1]
        super().__init__(f"{source.relative_to(ROOT)}: {where} raised {last}")


def main(prefixes: list[str]) -> int:
    """Refresh the lessons whose names start with one of `prefixes` (every lesson when none);
    return the exit code: 0, 1 when a lesson's cell raised, 130 when interrupted (Ctrl-C)."""
    sources = sorted(LESSONS.glob("*.py"))
    chosen = [s for s in sources if not prefixes or any(s.name.startswith(p) for p in prefixes)]
    if not chosen:
        print(f"no lesson in lessons/ starts with {', '.join(prefixes)}", file=sys.stderr)
        return 2
    done = []
    with tempfile.TemporaryDirectory(prefix="refresh-lessons-") as clean:
        # kernels inherit this environment: no user startup files, display options or matplotlibrc
        for name in ("IPYTHONDIR", "MPLCONFIGDIR"):
            os.environ[name] = os.path.join(clean, name.lower())
        for name in ("MATPLOTLIBRC", "PYTHONSTARTUP"):
            os.environ.pop(name, None)
        try:
            for source in chosen:
                refresh(source)
                done.append(source.stem)
        except RefreshError as error:
            print(f"refresh stopped: {error}", file=sys.stderr)
            return _left(chosen, done, 1)
        except KeyboardInterrupt:
            print("refresh interrupted", file=sys.stderr)
            return _left(chosen, done, 130)
    return 0


def _left(chosen: list[Path], done: list[str], code: int) -> int:
    """Say which lessons were refreshed and which were not (their files as they were), and return `code`."""
    rest = [source.stem for source in chosen if source.stem not in done]
    print(f"refreshed: {', '.join(done) or 'none'}; not refreshed: {', '.join(rest)} "
          f"(run again: {sys.argv[0]} {' '.join(stem[:2] for stem in rest)})", file=sys.stderr)  # fmt: skip
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
