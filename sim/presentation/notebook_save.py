"""Saving a lesson: each course panel is stored as its plain line, never as a widget view (lesson
panels, issue 16).

A stored widget view needs the widget's model, which only the kernel that drew it holds. Opened
later (a fresh clone, after a restart, the next day), JupyterLab shows "Error displaying widget:
model not found" in its place, or a panel whose controls do nothing. Stored as the plain line
(`sim.presentation.panel.RUN_FIRST`), the panel area says to run the notebook, trusted or not.

Two users: the maintainer command (`scripts/refresh_lessons.py`) when it writes a lesson, and the
Jupyter server when a student saves one (Ctrl+S or autosave), through `keep_panels_plain`, a
pre-save hook. This module is also a Jupyter server extension that registers that hook; the file
in `jupyter-config/`, which requirements.txt installs into the venv, enables it.
"""

import os
import re
from collections.abc import MutableMapping
from pathlib import Path

RUN_FIRST = "Control panel: run the notebook (Run > Run All Cells) to use it."  # a panel's plain-text form
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
LESSON_FILE = re.compile(r"\d\d_\w+\.ipynb")  # lessons/NN_name.ipynb


def plain_panel_outputs(notebook: MutableMapping) -> MutableMapping:
    """Store each course panel's output as its plain line alone, in place; return the notebook.

    Parameters
    ----------
    notebook : MutableMapping
        A notebook (nbformat 4) as a NotebookNode or as the plain dict a Jupyter server saves.

    Returns
    -------
    MutableMapping
        The same notebook: every output holding a widget view whose plain text is a panel's line
        keeps that line only; no widget state is kept in its metadata. Other widgets' outputs (a
        student's own) are left as they are.
    """
    metadata = notebook.get("metadata")
    if isinstance(metadata, MutableMapping):
        metadata.pop("widgets", None)
    for cell in notebook.get("cells") or []:
        for output in cell.get("outputs") or [] if cell.get("cell_type") == "code" else []:
            data = output.get("data") or {}
            if WIDGET_VIEW in data and _text(data.get("text/plain")) == RUN_FIRST:
                output["data"] = {"text/plain": data["text/plain"]}
    return notebook


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def is_lesson(path: str, root_dir: str | os.PathLike | None = None) -> bool:
    """True for a notebook that is one of the course's lessons: lessons/NN_name.ipynb in the course.

    `path` is the path the server saves, relative to its root folder `root_dir` (the contents
    manager's), whatever that root is: the course folder ("lessons/01_single_loop.ipynb"), its
    lessons/ folder ("01_single_loop.ipynb"), or a folder above the course. Without `root_dir` the
    path is taken as it is."""
    full = Path(root_dir, path).resolve() if root_dir is not None else Path(str(path))
    return full.parent.name == "lessons" and LESSON_FILE.fullmatch(full.name) is not None


def keep_panels_plain(model: MutableMapping, path: str = "", contents_manager=None, **kwargs) -> None:
    """The Jupyter server's pre-save hook: a lesson notebook is saved with its panels as plain lines
    (`plain_panel_outputs`); any other file is saved as it is. Called by the server as
    hook(model=..., path=..., contents_manager=...) before it writes; the lesson is told by its real
    path (`path` under the contents manager's `root_dir`, whatever folder the server serves);
    changes `model` in place."""
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
    """Register `keep_panels_plain` as a pre-save hook of the server's contents manager (beside any
    hook of the user's own)."""
    serverapp.contents_manager.register_pre_save_hook(keep_panels_plain)
