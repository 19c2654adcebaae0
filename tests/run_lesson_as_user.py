"""Execute one lesson notebook the way a user's JupyterLab would, and write the executed copy.

    python tests/run_lesson_as_user.py lessons/02_planner_executor.ipynb OUT.ipynb

The kernel is the standard Python 3 kernel, started with this process's environment as it is
(the user's IPYTHONDIR, MPLCONFIGDIR, COURSE_FIGURES_DIR, ...), working directory lessons/.
tests/test_environment.py runs it with a user's unhelpful settings.
"""

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

LESSONS = Path(__file__).resolve().parents[1] / "lessons"


def main(notebook: str, out: str) -> None:
    executed = nbformat.read(notebook, as_version=4)
    NotebookClient(
        executed, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(LESSONS)}}
    ).execute()
    nbformat.write(executed, out)


if __name__ == "__main__":
    main(*sys.argv[1:])
