"""Benchmark: typed seed + Enter to the panel's table and figure both replaced, in JupyterLab in headless Chromium.

    .venv/bin/python benchmarks/browser_latency.py [--lesson N ...] [--changes 15]

What a student waits for: for each lesson (default: every one), JupyterLab (this venv's, serving
a temporary copy of the repository) opens the notebook in Debian's Chromium (/usr/bin/chromium)
at 1,400 x 900, runs all cells, then types new seeds into the panel's seed box and presses
Enter, timing each from the key press until the page shows a new table and a new figure for
that seed (the status line names it), polled on every animation frame. Prints, per lesson, the
median and the largest time in milliseconds. The kernel's share alone: `panel_latency.py`.
Goals (issue 31): median <= 150 ms for every lesson but 5, <= 250 ms for lesson 5 at 10,000 seeds,
on a quiet 2-core machine (the load average is printed beside each lesson: compare like with like).
A benchmark prints its figures; no test times anything.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the browser test's JupyterLab and page helpers

import nbformat  # noqa: E402
from course_checks import lesson_notebooks  # noqa: E402
from jupyterlab_browser import (  # noqa: E402
    JupyterLab,
    NotebookPage,
    copy_repository,
    explore_panel,
    launch_chromium,
    widget_paths,
)

CHANGED = """
([root, tablePath, figurePath, statusPath, before, seed]) => {
  const find = (path) => {
    let el = root;
    for (const i of path) {
      el = [...el.children].filter(c => c.classList.contains('jupyter-widgets'))[i];
      if (!el) return null;
    }
    return el;
  };
  const table = find(tablePath), img = find(figurePath), status = find(statusPath);
  const html = table && table.querySelector('.widget-html-content');
  const image = img && (img.tagName === 'IMG' ? img : img.querySelector('img'));
  return !!(html && image && html.innerHTML !== before[0] && image.src !== before[1]
            && !!status && status.textContent.includes('Showing seed ' + seed + ','));
}
"""
SHOWN = """
([root, tablePath, figurePath]) => {
  const find = (path) => {
    let el = root;
    for (const i of path) { el = [...el.children].filter(c => c.classList.contains('jupyter-widgets'))[i]; }
    return el;
  };
  const img = find(figurePath);
  return [find(tablePath).querySelector('.widget-html-content').innerHTML,
          (img.tagName === 'IMG' ? img : img.querySelector('img')).src];
}
"""


def time_lesson(browser, lab, notebook: Path, changes: int) -> list[float]:
    """Milliseconds from Enter to the new table and figure, for `changes` typed seeds on one lesson."""
    lesson = explore_panel(notebook)  # the panel's layout (where its seed box, table and figure are)
    paths = {id(w): list(p) for p, w in widget_paths(lesson.root)}
    panel_object = lesson.value
    table_path, figure_path = paths[id(panel_object.table)], paths[id(panel_object.figure)]
    status_path = paths[id(panel_object.status)]
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = NotebookPage(context.new_page(), lab, f"lessons/{notebook.name}")
        page.open()
        code_cells = sum(c.cell_type == "code" for c in nbformat.read(notebook, as_version=4).cells)
        page.clear_and_run_all(code_cells)
        root = page.widget_root(lesson.cell_index)
        seed_box = page.page.evaluate_handle(
            "([root, path]) => { let el = root; for (const i of path) { el = [...el.children].filter("
            "c => c.classList.contains('jupyter-widgets'))[i]; } return el.querySelector('input'); }",
            [root, paths[id(panel_object.seed)]],
        ).as_element()
        recorded = getattr(panel_object, "recorded", None)  # lesson 7 replays recorded runs: their seeds
        times = []
        for i in range(changes + 1):  # the first change warms up; it is not counted
            seed = str(recorded[1 + i % (len(recorded) - 1)] if recorded else 1000 + 7919 * i)
            before = page.page.evaluate(SHOWN, [root, table_path, figure_path])
            seed_box.fill(seed)
            start = time.perf_counter()
            seed_box.press("Enter")
            page.page.wait_for_function(CHANGED, arg=[root, table_path, figure_path, status_path, before, seed], polling="raf",
                                        timeout=120_000)  # fmt: skip
            if i:
                times.append(1000 * (time.perf_counter() - start))
        return times
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    lessons = {int(p.name[:2]): p for p in lesson_notebooks()}
    parser.add_argument("--lesson", type=int, nargs="*", choices=sorted(lessons), default=sorted(lessons),
                        help="whose panels to time (default: every lesson)")  # fmt: skip
    parser.add_argument("--changes", type=int, default=15, help="typed seeds to time per lesson")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="browser-latency-") as folder:
        base = Path(folder)
        repo = copy_repository(ROOT, base / "repo")
        (base / "state").mkdir()
        lab = JupyterLab(repo, base / "state", figures_dir=base / "figures")
        lab.start()
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright, base / "chromium-home")
                try:
                    for number in args.lesson:
                        times = time_lesson(browser, lab, lessons[number], args.changes)
                        low, _median, high = statistics.quantiles(times, n=4)
                        print(f"lesson {number} in JupyterLab, {len(times)} typed seeds: median "
                              f"{statistics.median(times):.0f} ms, largest {max(times):.0f} ms, quartiles "
                              f"{low:.0f}-{high:.0f} ms (load average {os.getloadavg()[0]:.1f})", flush=True)  # fmt: skip
                finally:
                    browser.close()
        finally:
            lab.stop()


if __name__ == "__main__":
    main()
