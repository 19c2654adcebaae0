"""A lesson is saved with its panels as plain lines (issue 16, fault 1): by the maintainer command,
and by the Jupyter server when a student saves (the pre-save hook that jupyter-config/ installs).
The browser test saves a run lesson through the running server and reads the file back."""

import copy
import json
import os
import shutil
import sys
import time
import types
from pathlib import Path

import nbformat
import pytest

from sim.presentation.notebook_save import (
    RUN_FIRST,
    WIDGET_VIEW,
    is_lesson,
    keep_panels_plain,
    plain_panel_outputs,
)

ROOT = Path(__file__).resolve().parents[1]


def _notebook(text: str) -> dict:
    """A notebook (as the plain dict a server saves) with one widget output whose plain text is `text`,
    one stream output and saved widget state."""
    view = {WIDGET_VIEW: {"model_id": "ab" * 16, "version_major": 2, "version_minor": 0}, "text/plain": text}
    cell = nbformat.v4.new_code_cell("panel", outputs=[nbformat.v4.new_output("execute_result", view, execution_count=1),
                                                        nbformat.v4.new_output("stream", text="kept\n")])  # fmt: skip
    notebook = nbformat.v4.new_notebook(cells=[cell], metadata={"widgets": {"state": {}}})
    return json.loads(nbformat.writes(notebook))


def test_a_panel_output_keeps_only_its_plain_line_and_no_widget_state_is_kept():
    notebook = plain_panel_outputs(_notebook(RUN_FIRST))
    outputs = notebook["cells"][0]["outputs"]
    assert "widgets" not in notebook["metadata"]
    assert (
        set(outputs[0]["data"]) == {"text/plain"} and "".join(outputs[0]["data"]["text/plain"]) == RUN_FIRST
    )
    assert "".join(outputs[1]["text"]) == "kept\n"


def test_a_students_own_widget_is_left_as_it_is():
    notebook = _notebook("IntSlider(value=3)")
    assert plain_panel_outputs(copy.deepcopy(notebook))["cells"] == notebook["cells"]


def test_the_server_hook_changes_lessons_only():
    for path, changed in (("lessons/01_single_loop.ipynb", True), ("course/lessons/05_how_many_seeds.ipynb", True),
                          ("lessons/my_notes.ipynb", False), ("01_single_loop.ipynb", False),
                          ("work/lessons.ipynb", False)):  # fmt: skip
        assert is_lesson(path) == changed, path
        model = {"type": "notebook", "content": _notebook(RUN_FIRST)}
        keep_panels_plain(model, path=path, contents_manager=None)
        assert (WIDGET_VIEW not in model["content"]["cells"][0]["outputs"][0]["data"]) == changed, path
    text = {"type": "file", "content": "not a notebook"}
    keep_panels_plain(text, path="lessons/01_single_loop.ipynb", contents_manager=None)
    assert text["content"] == "not a notebook"


def test_a_jupyter_contents_manager_saves_a_lesson_with_its_panel_plain(tmp_path):
    """The server extension registers the hook on jupyter_server's own contents manager: a lesson
    saved through it is written with the plain line; a student's other notebook is written as sent."""
    from jupyter_server.services.contents.filemanager import FileContentsManager

    from sim.presentation import notebook_save

    manager = FileContentsManager(root_dir=str(tmp_path))
    notebook_save._load_jupyter_server_extension(types.SimpleNamespace(contents_manager=manager))
    (tmp_path / "lessons").mkdir()
    for path, plain in (("lessons/01_single_loop.ipynb", True), ("mine.ipynb", False)):
        manager.save({"type": "notebook", "format": "json", "content": _notebook(RUN_FIRST)}, path)
        saved = json.loads((tmp_path / path).read_text())
        assert (WIDGET_VIEW not in saved["cells"][0]["outputs"][0]["data"]) == plain, path
        assert ("widgets" not in saved["metadata"]) == plain, path


def test_the_venv_enables_the_extension_for_the_jupyter_server():
    """requirements.txt installs jupyter-config/ (non-editable) into the venv's etc/jupyter, where the
    server looks for the extensions to load. Fix when it fails: .venv/bin/pip install -r requirements.txt"""
    from sim.presentation import notebook_save

    shipped = ROOT / "jupyter-config" / "jupyter_server_config.d" / "agent-loops-measured.json"
    installed = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / shipped.name
    assert json.loads(shipped.read_text())["ServerApp"]["jpserver_extensions"] == {
        notebook_save.__name__: True
    }
    assert notebook_save._jupyter_server_extension_points() == [{"module": notebook_save.__name__}]
    assert installed.is_file(), f"{installed} missing: run .venv/bin/pip install -r requirements.txt"
    assert installed.read_text() == shipped.read_text()


def test_a_lesson_is_told_by_its_real_path_whatever_folder_the_server_serves(tmp_path):
    """`jupyter lab lessons/` serves lessons/ itself: the server then saves "01_single_loop.ipynb", and
    that is still a lesson (issue 26, item 1); a notebook beside the course is not."""
    course = tmp_path / "course"
    (course / "lessons").mkdir(parents=True)
    for root, path, changed in ((course / "lessons", "01_single_loop.ipynb", True),
                                (course, "lessons/01_single_loop.ipynb", True),
                                (tmp_path, "course/lessons/05_how_many_seeds.ipynb", True),
                                (course / "lessons", "my_notes.ipynb", False),
                                (course, "01_single_loop.ipynb", False),
                                (course / "lessons", "../01_single_loop.ipynb", False)):  # fmt: skip
        assert is_lesson(path, root) == changed, (root, path)
        model = {"type": "notebook", "content": _notebook(RUN_FIRST)}
        keep_panels_plain(model, path=path, contents_manager=types.SimpleNamespace(root_dir=str(root)))
        plain = WIDGET_VIEW not in model["content"]["cells"][0]["outputs"][0]["data"]
        assert plain == changed, (root, path)


def test_a_server_serving_the_lessons_folder_saves_a_lesson_with_its_panel_plain(tmp_path):
    """The contents manager the course's JupyterLab runs (jupytext's, over jupyter_server's), rooted
    at lessons/ as `jupyter lab lessons/` roots it: a lesson saved there keeps its panel plain."""
    from jupyter_server.services.contents.largefilemanager import LargeFileManager
    from jupytext.sync_contentsmanager import build_sync_jupytext_contents_manager_class

    from sim.presentation import notebook_save

    lessons = tmp_path / "lessons"
    lessons.mkdir()
    manager = build_sync_jupytext_contents_manager_class(LargeFileManager)(root_dir=str(lessons))
    notebook_save._load_jupyter_server_extension(types.SimpleNamespace(contents_manager=manager))
    model = {"type": "notebook", "format": "json", "content": _notebook(RUN_FIRST)}
    manager.save(model, "01_single_loop.ipynb")
    saved = json.loads((lessons / "01_single_loop.ipynb").read_text())
    assert WIDGET_VIEW not in saved["cells"][0]["outputs"][0]["data"]
    assert "widgets" not in saved["metadata"]


# ---- running and saving a lesson changes only that lesson's .ipynb (issue 26, item 1)

LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))


def _course_copy(tmp_path: Path) -> Path:
    """The lessons and jupytext.toml in `tmp_path / "course"`, each pair with one modification time
    (as a fresh clone writes them)."""
    course = tmp_path / "course"
    shutil.copytree(ROOT / "lessons", course / "lessons", ignore=shutil.ignore_patterns(".*", "__pycache__"))
    shutil.copy(ROOT / "jupytext.toml", course)
    stamp = time.time() - 60
    for path in (course / "lessons").iterdir():
        os.utime(path, (stamp, stamp))
    return course


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` but JupyterLab's checkpoints (.ipynb_checkpoints/, which git ignores)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".ipynb_checkpoints" not in p.parts}  # fmt: skip


def _as_run_in_jupyterlab(content: dict) -> dict:
    """The notebook as JupyterLab sends it after Run All: a cell that runs shows its outputs, so
    JupyterLab drops a collapsed cell's `jupyter.outputs_hidden` (and an empty `jupyter`)."""
    for cell in content["cells"]:
        jupyter = cell["metadata"].get("jupyter")
        if jupyter is not None:
            jupyter.pop("outputs_hidden", None)
            if not jupyter:
                del cell["metadata"]["jupyter"]
    return content


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_a_lesson_saved_by_the_server_after_run_all_changes_only_its_ipynb(lesson, tmp_path):
    """Saved through the contents manager the course's JupyterLab runs (jupytext's, pairing the
    .py, with the save hook), after what Run All does to its cells: the lesson's .py stays byte for
    byte the committed one, and no other file changes."""
    from jupyter_server.services.contents.largefilemanager import LargeFileManager
    from jupytext.sync_contentsmanager import build_sync_jupytext_contents_manager_class

    from sim.presentation import notebook_save

    course = _course_copy(tmp_path)
    manager = build_sync_jupytext_contents_manager_class(LargeFileManager)(root_dir=str(course))
    notebook_save._load_jupyter_server_extension(types.SimpleNamespace(contents_manager=manager))
    path = f"lessons/{lesson.name}"
    before = _files(course)
    content = _as_run_in_jupyterlab(json.loads(json.dumps(manager.get(path)["content"])))
    manager.save({"type": "notebook", "format": "json", "content": content}, path)
    after = _files(course)
    assert after[path.replace(".ipynb", ".py")] == before[path.replace(".ipynb", ".py")], (
        f"saving {lesson.name} rewrote its .py"
    )
    assert sorted(name for name in after if after[name] != before.get(name)) in ([], [path])


def _as_touched_in_jupyterlab(content: dict) -> dict:
    """The notebook as JupyterLab sends it after a student collapsed, scrolled and hid cells (the
    View menu, a click on an output's bar): metadata the interface writes into each code cell."""
    for cell in content["cells"]:
        if cell["cell_type"] == "code":
            cell["metadata"].update(collapsed=True, scrolled=True)
            cell["metadata"].setdefault("jupyter", {}).update(outputs_hidden=True, source_hidden=True)
    return content


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_a_lesson_whose_cells_a_student_folded_saves_without_rewriting_its_py(lesson, tmp_path):
    """Any cell metadata the interface writes (not only what Run All drops) stays out of the .py:
    saved through the course's contents manager, the lesson's .py is byte for byte the committed one."""
    from jupyter_server.services.contents.largefilemanager import LargeFileManager
    from jupytext.sync_contentsmanager import build_sync_jupytext_contents_manager_class

    course = _course_copy(tmp_path)
    manager = build_sync_jupytext_contents_manager_class(LargeFileManager)(root_dir=str(course))
    path = f"lessons/{lesson.name}"
    before = _files(course)
    content = _as_touched_in_jupyterlab(json.loads(json.dumps(manager.get(path)["content"])))
    manager.save({"type": "notebook", "format": "json", "content": content}, path)
    assert _files(course)[path.replace(".ipynb", ".py")] == before[path.replace(".ipynb", ".py")], (
        f"saving {lesson.name} with its cells folded rewrote its .py"
    )


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_jupytext_sync_with_the_ipynb_newer_leaves_the_py_as_committed(lesson, tmp_path):
    """`jupytext --sync` when the .ipynb is the newer twin (a lesson run and saved) writes the .py from
    it: the .py must come out byte for byte as committed (no reordered cell headers)."""
    from jupytext.cli import jupytext

    course = _course_copy(tmp_path)
    notebook = course / "lessons" / lesson.name
    later = time.time()
    os.utime(notebook, (later, later))
    jupytext(["--sync", "--quiet", str(notebook)])
    assert notebook.with_suffix(".py").read_bytes() == lesson.with_suffix(".py").read_bytes()
