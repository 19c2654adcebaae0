"""The maintainer command: re-execute every lesson in place and re-pair it.

    .venv/bin/python scripts/refresh_lessons.py            # every lessons/*.py
    .venv/bin/python scripts/refresh_lessons.py 02         # the lessons whose name starts with 02

For each lessons/NN_name.py (the source you edit): read it with jupytext, execute it top to
bottom with nbclient in a fresh kernel (working directory lessons/, figures written to the
repository's figures/), keep the widget state, and write lessons/NN_name.ipynb. The .py is
then rewritten by jupytext from the executed notebook, so the pair is in sync. The .py is
formatted with ruff first, as the lint test expects.
"""

import subprocess
import sys
from pathlib import Path

import jupytext
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"


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
    if old is not None and len(old.cells) == len(notebook.cells):  # keep cell ids: a quieter diff
        for new_cell, old_cell in zip(notebook.cells, old.cells, strict=True):
            if new_cell.cell_type == old_cell.cell_type and "id" in old_cell:
                new_cell["id"] = old_cell["id"]
    client = NotebookClient(
        notebook,
        timeout=900,
        kernel_name="python3",
        resources={"metadata": {"path": str(LESSONS)}},
        record_timing=False,  # no timestamps in stored cells
        store_widget_state=True,  # a trusted notebook shows its panel before it is run
    )
    client.execute()
    jupytext.write(notebook, target, fmt="ipynb")
    jupytext.write(notebook, source, fmt="py:percent")
    changed = []
    if old is not None:
        old_code = [c for c in old.cells if c.cell_type == "code"]
        new_code = [c for c in notebook.cells if c.cell_type == "code"]
        changed = [
            i + 1
            for i, (a, b) in enumerate(zip(old_code, new_code, strict=False))
            if printed(a) != printed(b)
        ]
        changed += list(range(len(old_code) + 1, len(new_code) + 1))
    summary = f"printed output changed in code cells {changed}" if changed else "printed outputs unchanged"
    print(f"refreshed {source.relative_to(ROOT)} and its .ipynb: {summary} (widget ids always change)")


def main(prefixes: list[str]) -> None:
    sources = sorted(LESSONS.glob("*.py"))
    chosen = [s for s in sources if not prefixes or any(s.name.startswith(p) for p in prefixes)]
    if not chosen:
        sys.exit(f"no lesson in lessons/ starts with {', '.join(prefixes)}")
    for source in chosen:
        refresh(source)


if __name__ == "__main__":
    main(sys.argv[1:])
