"""Test-session setup: figures go to a temporary folder, so running the tests never rewrites figures/.

The variable is set before any notebook kernel starts, and kernels inherit it (nbval runs them
with --nbval-current-env).
"""

import os
import tempfile


def pytest_configure(config):
    if "COURSE_FIGURES_DIR" not in os.environ:
        os.environ["COURSE_FIGURES_DIR"] = tempfile.mkdtemp(prefix="course-figures-")
    os.environ.setdefault("MPLBACKEND", "Agg")
