"""Saving a lesson: each course panel is stored as its plain line RUN_FIRST, never as a widget view
(refresh_lessons.py, and a Jupyter server extension's pre-save hook)."""

import os
import re
from collections.abc import MutableMapping
from pathlib import Path

RUN_FIRST = "Control panel: run the notebook (Run > Run All Cells) to use it."  # a panel's plain-text form
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
LESSON_FILE = re.compile(r"\d\d_\w+\.ipynb")  # lessons/NN_name.ipynb


def plain_panel_outputs(notebook: MutableMapping) -> MutableMapping:
    """Keep only the plain line of each course panel's output, no widget state and no progress bar (a
    widget view with no plain text, `progress`), in place; the notebook."""
    metadata = notebook.get("metadata")
    if isinstance(metadata, MutableMapping):
        metadata.pop("widgets", None)
    for cell in notebook.get("cells") or []:
        if cell.get("cell_type") != "code" or not cell.get("outputs"):
            continue
        cell["outputs"] = [
            output for output in cell["outputs"] if set(output.get("data") or {}) != {WIDGET_VIEW}
        ]
        for output in cell["outputs"]:
            data = output.get("data") or {}
            if WIDGET_VIEW in data and _text(data.get("text/plain")) == RUN_FIRST:
                output["data"] = {"text/plain": data["text/plain"]}
    return notebook


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def is_lesson(path: str, root_dir: str | os.PathLike | None = None) -> bool:
    """True for lessons/NN_name.ipynb, `path` taken under the server's `root_dir`, whatever that root is."""
    full = Path(root_dir, path).resolve() if root_dir is not None else Path(str(path))
    return full.parent.name == "lessons" and LESSON_FILE.fullmatch(full.name) is not None


def keep_panels_plain(model: MutableMapping, path: str = "", contents_manager=None, **kwargs) -> None:
    """The Jupyter server's pre-save hook: a lesson is saved with its panels as plain lines (in place)."""
    if (
        model.get("type") == "notebook"
        and isinstance(model.get("content"), MutableMapping)
        and is_lesson(path, getattr(contents_manager, "root_dir", None))
    ):
        plain_panel_outputs(model["content"])


def _jupyter_server_extension_points() -> list[dict]:
    """This module as a Jupyter server extension (enabled by jupyter-config/)."""
    return [{"module": "sim.presentation.notebook_save"}]


def _load_jupyter_server_extension(serverapp) -> None:
    """Register `keep_panels_plain` as a pre-save hook (beside any of the user's own)."""
    serverapp.contents_manager.register_pre_save_hook(keep_panels_plain)
