"""The course as a static site: every executed lesson a page, built from the committed notebooks.

    .venv/bin/python scripts/build_site.py            # writes _site/ (open _site/index.html)
    .venv/bin/python scripts/build_site.py --out DIR  # writes DIR/

Nothing is re-executed and nothing is downloaded: the lessons' stored outputs (printed tables,
folded tables, figures) are the pages' content, Sphinx with myst-nb and the book theme turns them
into HTML (site/conf.py), and Mermaid's JavaScript is served from the site itself
(site/_static/mermaid/, vendored from the npm package, see its README). The build works on a
copy: README.md (the home page), GLOSSARY.md, INSTRUCTORS.md, lessons/*.ipynb and figures/ laid out
as in the repository, so every relative link in them resolves on the site as it does on GitHub.

In each lesson's copy two things are added, and only stored widget views (which need a kernel) are taken out:
- below its first cell, a note on what the page is: the lesson executed at its default seeds and
  budget, and the command that runs it live;
- in its control panel's cell (the cell whose stored output is the panel's plain line), a still of
  the panel at the lesson's defaults: site/stills/NN_name.png and .json, which the maintainer
  command (scripts/refresh_lessons.py) makes with `write_panel_still` after it re-executes a lesson.

Raises SiteError (exit code 1) when a lesson has no still or the build warns.
"""

import argparse
import ast
import base64
import html
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
STILLS = SITE / "stills"
OUT = ROOT / "_site"
PAGES = ("README.md", "GLOSSARY.md", "INSTRUCTORS.md")  # the course's own Markdown pages
RUN_FIRST_TEXT = "text/plain"
NOTE_CLASS, STILL_CLASS = "alm-record-note", "alm-panel-still"


class SiteError(Exception):
    """The site cannot be built as it stands: says what is missing and the command that makes it."""


def panel_cell(notebook) -> int | None:
    """The index of the lesson's panel cell: the last code cell whose stored output is the panel's plain
    line (sim.presentation.panel.RUN_FIRST); None when the lesson has no panel."""
    from sim.presentation.notebook_save import RUN_FIRST

    def plain(cell) -> bool:
        return any(o.get("data", {}).get(RUN_FIRST_TEXT) == RUN_FIRST for o in cell.get("outputs", []))

    found = [i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code" and plain(cell)]
    return found[-1] if found else None


def _build_panel(source: str, name: str):
    """Run a panel cell's own code in a fresh namespace and return its last line's value (the panel)."""
    tree = ast.parse(source)
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise SiteError(f"{name}: the panel cell must end with the panel")
    namespace: dict = {}
    exec(compile(ast.Module(tree.body[:-1], type_ignores=[]), name, "exec"), namespace)
    return eval(compile(ast.Expression(tree.body[-1].value), name, "eval"), namespace)


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()


def controls(row) -> list[str]:
    """The names of a panel's controls, as they are labelled (a widget's description), in their order."""
    import ipywidgets as widgets

    if isinstance(row, widgets.Box):
        return [name for child in row.children for name in controls(child)]
    label = getattr(row, "description", "")
    return [label] if label else []


def write_panel_still(notebook_path: Path, stills: Path = STILLS) -> Path | None:
    """Make the still of a lesson's panel at its defaults, by the panel's own code: its figure as
    `stills/STEM.png`; its status line, its controls' names, its table and its text as `stills/STEM.json`.
    Return the PNG's path (None when the lesson has no panel). SiteError when the panel cell does not end
    with a panel."""
    from sim.presentation.figures import figure_png

    notebook = nbformat.read(notebook_path, as_version=4)
    index = panel_cell(notebook)
    if index is None:
        return None
    panel = _build_panel(notebook.cells[index].source, notebook_path.name)
    view = getattr(panel, "view", None)
    if view is None:
        raise SiteError(f"{notebook_path.name}: the panel cell's last line is not a control panel")
    panel.wait()
    view = panel.view
    stills.mkdir(parents=True, exist_ok=True)
    png = stills / f"{notebook_path.stem}.png"
    png.write_bytes(figure_png(view.figure))
    record = {
        "showing": _text(panel.status.value).split(" Redrawn:")[0],  # its status line, as the panel shows it
        "controls": controls(panel.widget.children[0]),
        "table_html": view.table_html,
        "text_html": view.text,
    }
    (stills / f"{notebook_path.stem}.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    return png


def live_command(readme: str) -> str:
    """The README's command that installs the course and opens it in JupyterLab (its first bash block
    with `jupyter lab`)."""
    for block in re.findall(r"```bash\n(.*?)```", readme, flags=re.S):
        if "jupyter lab" in block:
            return block.strip()
    raise SiteError("README.md: no ```bash block holds the `jupyter lab` command")


def record_note(name: str, command: str) -> str:
    """The note below a lesson's title: what the page is (a record at the default seeds) and how to run it."""
    from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED

    return (
        f'<div class="admonition note {NOTE_CLASS}">'
        '<p class="admonition-title">A record, not the live lesson</p>'
        f"<p>This page is the notebook <code>lessons/{html.escape(name)}</code> as executed at the lesson's"
        f" default seeds (run A {DEFAULT_SEED}, run B {DEFAULT_SEED + 1}) and step budget ({DEFAULT_BUDGET}):"
        " every table and figure on it, and every figure its text quotes, holds there. Its code does not run"
        " here, and the control panel at its end is a still. To change the seed or the budget, edit the code"
        " or move the panel, run the lesson: from the repository's folder,</p>"
        f"<pre>{html.escape(command)}</pre><p>then open <code>lessons/{html.escape(name)}</code> and choose"
        " <b>Run &gt; Run All Cells</b>.</p></div>"
    )


def drop_widget_views(notebook) -> None:
    """Take out every stored widget view (a progress bar, a widget): with no kernel it can be drawn only dead,
    and its plain text, where it has one, is a widget's repr. The panel's cell is replaced by its still."""
    from sim.presentation.notebook_save import WIDGET_VIEW

    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = [o for o in cell.get("outputs", []) if WIDGET_VIEW not in o.get("data", {})]


def add_note(notebook, note: str) -> None:
    """Put `note` right below the lesson's title (the first Markdown line starting with "# "), else on top."""
    for cell in notebook.cells:
        lines = cell.source.split("\n") if cell.cell_type == "markdown" else []
        title = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
        if title is not None:
            cell.source = "\n".join([*lines[: title + 1], "", note, "", *lines[title + 1 :]])
            return
    notebook.cells.insert(0, nbformat.v4.new_markdown_cell(note))


def still_outputs(stem: str, name: str) -> list:
    """The outputs that stand for a lesson's panel on the site: one line on the still and how to run it
    live, the panel's status line and table, its figure, its text. SiteError when the still is missing."""
    png, data = STILLS / f"{stem}.png", STILLS / f"{stem}.json"
    if not (png.exists() and data.exists()):
        raise SiteError(f"{name}: no still of its panel in site/stills/; make it with"
                        f" `.venv/bin/python scripts/refresh_lessons.py {stem[:2]}`")  # fmt: skip
    record = json.loads(data.read_text())
    line = (
        f'<p class="{STILL_CLASS}"><b>The control panel, as a still</b> at the lesson\'s defaults:'
        f" {html.escape(record['showing'])} Live, its controls ({html.escape(', '.join(record['controls']))})"
        " redraw this table and figure in place: run the lesson in JupyterLab (Run &gt; Run All Cells) to use"
        " them.</p>"
    )
    outputs = [nbformat.v4.new_output("display_data", {"text/html": line + record["table_html"]})]
    image = base64.b64encode(png.read_bytes()).decode()
    outputs.append(
        nbformat.v4.new_output("display_data", {"image/png": image, "text/plain": "the panel's figure"})
    )
    if record["text_html"]:
        outputs.append(nbformat.v4.new_output("display_data", {"text/html": record["text_html"]}))
    return outputs


def stage(dest: Path) -> list[str]:
    """Lay the site's sources out in `dest` as in the repository; return the lessons' page names."""
    readme = (ROOT / "README.md").read_text()
    command = live_command(readme)
    lessons = sorted((ROOT / "lessons").glob("*.ipynb"))
    (dest / "lessons").mkdir(parents=True)
    for path in lessons:
        notebook = nbformat.read(path, as_version=4)
        drop_widget_views(notebook)
        index = panel_cell(notebook)
        if index is not None:
            notebook.cells[index].outputs = still_outputs(path.stem, path.name)
        add_note(notebook, record_note(path.name, command))
        nbformat.write(notebook, dest / "lessons" / path.name)
    for name in PAGES[1:]:
        shutil.copy2(ROOT / name, dest / name)
    pages = [f"lessons/{path.stem}" for path in lessons] + [Path(name).stem for name in PAGES[1:]]
    toctree = "\n".join(["", "```{toctree}", ":hidden:", ":maxdepth: 1", "", *pages, "```", ""])
    (dest / "index.md").write_text(readme + toctree)
    shutil.copytree(ROOT / "figures", dest / "figures")
    return pages


def build(out: Path = OUT) -> float:
    """Build the site into `out` (replaced); return the seconds it took. SiteError when Sphinx warns.
    Sphinx runs in this process (so a test's refusal of every socket but loopback covers it)."""
    from sphinx.cmd.build import build_main

    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="course-site-") as work:
        # built in the work folder (myst-nb writes jupyter_execute/ beside the output), then moved to `out`
        source, html_out, warnings = Path(work) / "src", Path(work) / "html", Path(work) / "warnings.txt"
        stage(source)
        # -W: a warning (a missing image, an unknown directive, a bad toctree) fails the build
        arguments = ["-b", "html", "-q", "-W", "--keep-going", "-w", str(warnings), "-c", str(SITE),
                     "-d", str(Path(work) / "doctrees"), str(source), str(html_out)]  # fmt: skip
        code = build_main(arguments)
        if code != 0:
            said = warnings.read_text() if warnings.exists() else ""
            raise SiteError(f"Sphinx failed (exit {code}):\n{said.replace(str(source) + '/', '')}")
        if out.exists():
            shutil.rmtree(out)
        shutil.move(html_out, out)
    (out / ".nojekyll").write_text("")  # GitHub Pages: serve _static/ and _images/ as they are
    return time.monotonic() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Build the course's static site from the executed lessons.")
    parser.add_argument("--out", type=Path, default=OUT, help="output folder (default: _site/)")
    args = parser.parse_args(argv)
    try:
        seconds = build(args.out)
    except SiteError as error:
        print(f"site not built: {error}", file=sys.stderr)
        return 1
    print(f"site built in {seconds:.1f} s: {args.out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
