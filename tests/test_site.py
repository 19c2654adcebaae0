"""The course's static site: built by the README's command from the committed lessons, read in Chromium.

The site is built once (scripts/build_site.py, called with the README's own arguments plus an output
folder) with every connection but loopback refused in this process, where Sphinx runs. It is served on
127.0.0.1 and every page is opened in Debian's Chromium, which is told to resolve no host name but
127.0.0.1 and whose every request to another host is refused and counted. Each page must load with no
console error, no failed request and no error status; every internal link must reach a file of the site
and its anchor an id on that page; every image must load; every Mermaid diagram must be drawn as an SVG
picture with no syntax error; no page may show a traceback or a widget's raw repr. Each lesson's page
must carry the note on what it is (a record at the default seeds, and how to run it live), its folded
tables still folded, as many diagrams and figures as its notebook stores, and, where the lesson has a
panel, the panel's still with its image loaded. Chromium reads every page once (one fixture); each page is
then one test. Where Chromium is missing those tests are skipped, except under CI=true, where they fail
(as tests/test_browser.py). Last, one lesson's still is drawn again by the maintainer command's step and
must be the committed one.
"""

import functools
import http.server
import importlib.util
import os
import re
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest
from course_checks import ROOT, lesson_notebooks
from jupyterlab_browser import CHROMIUM, CHROMIUM_FLAGS, chromium_missing_reason
from offline_sockets import guard_sockets
from playwright.sync_api import TimeoutError as PlaywrightTimeout

SPEC = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build_site.py")
build_site = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(build_site)

IN_CI = os.environ.get("CI", "").strip().lower() == "true"
# myst-parser and the book theme still read `.app` of Sphinx's transforms (deprecated in Sphinx 9; works)
pytestmark = pytest.mark.filterwarnings("ignore:.*is deprecated. Check CHANGES for Sphinx API modifications")
PAGE_MS = 60_000  # milliseconds for a page to load and its diagrams to be drawn
# every request but to loopback (which Chromium never proxies) goes to a proxy on a closed loopback port, and
# no host name resolves: a page that asks another host fails at once, and is counted below
OFFLINE_FLAGS = [
    "--proxy-server=http://127.0.0.1:9",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
SCRIPT = ".venv/bin/python scripts/build_site.py"
WIDGET_REPR = re.compile(
    r"\b\w*(?:Box|Slider|Progress|Button|Dropdown|Checkbox|Output|Widget|Text|HTML|Image)\("
    r"(?:children|value|layout|description|min|max|options|outputs)="
    r"|<[\w.]+ object at 0x[0-9a-fA-F]+>|application/vnd\.jupyter\.widget|Loading widgets"
)
# a Python or an IPython traceback (a lesson may print an error's one-line message on purpose: no traceback)
TRACEBACK = re.compile(
    r"Traceback \(most recent call last\)|^Cell In\[\d+\], line \d+|^-{10,} *\n\w+Error", re.M
)
DRAWN = "[...document.querySelectorAll('pre.mermaid')].every(pre => pre.querySelector('svg'))"
READ_PAGE = """async () => {
  const images = [...document.images];
  await Promise.all(images.map(img => { img.loading = "eager"; return img.decode().catch(() => null); }));
  const still = [...document.querySelectorAll(".alm-panel-still")].map(line => {
    const cell = line.closest(".cell");
    return cell ? [...cell.querySelectorAll("img")].some(img => img.complete && img.naturalWidth > 0) : false;
  });
  return {
    ids: [...document.querySelectorAll("[id]")].map(e => e.id)
      .concat([...document.querySelectorAll("a[name]")].map(a => a.name)),
    links: [...document.querySelectorAll("a[href]")].map(a => a.href),
    images: images.map(img => ({src: img.currentSrc || img.src, ok: img.complete && img.naturalWidth > 0})),
    diagrams: [...document.querySelectorAll("pre.mermaid")].map(pre => ({
      svg: !!pre.querySelector("svg"),
      error: !!pre.querySelector('[aria-roledescription="error"]')
        || /Syntax error|Parse error/.test(pre.textContent),
    })),
    folded: [...document.querySelectorAll(".cell_output details")].filter(d => !d.open).length,
    tracebacks: document.querySelectorAll(".traceback, .output.error").length,
    note: document.querySelectorAll(".alm-record-note").length,
    still: still,
    text: document.body.innerText,
  };
}"""


def readme_build_arguments() -> list[str]:
    """The arguments the README gives scripts/build_site.py (its one line that calls it, in a bash block)."""
    readme = (ROOT / "README.md").read_text()
    lines = [line.strip() for block in re.findall(r"```bash\n(.*?)```", readme, flags=re.S)
             for line in block.splitlines() if "scripts/build_site.py" in line]  # fmt: skip
    assert len(lines) == 1, f"README.md: one bash line must build the site, found {lines}"
    assert lines[0].startswith(SCRIPT), f"README.md: the site's command must start with {SCRIPT}: {lines[0]}"
    return lines[0][len(SCRIPT) :].split("#")[0].split()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site as the README's command builds it, into a temporary folder, offline: (folder, seconds)."""
    out = tmp_path_factory.mktemp("site") / "html"
    with pytest.MonkeyPatch.context() as monkeypatch:
        guard_sockets(monkeypatch)
        start = time.monotonic()
        assert build_site.main([*readme_build_arguments(), "--out", str(out)]) == 0
        seconds = time.monotonic() - start
    return out, seconds


@pytest.fixture(scope="module")
def served(site):
    """The site served on 127.0.0.1 (a port of its own): its base address."""
    root, _ = site

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def lesson_expectations(notebook_path: Path) -> dict:
    """What a lesson's page must show, counted from its committed notebook: Mermaid diagrams, folded tables,
    stored figures, and whether it has a panel (and so a still)."""
    notebook = nbformat.read(notebook_path, as_version=4)
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    return {
        "diagrams": sum(c.source.count("```mermaid") for c in notebook.cells if c.cell_type == "markdown"),
        "folded": sum(o.get("data", {}).get("text/html", "").count("<details") for o in outputs),
        "figures": sum("image/png" in o.get("data", {}) for o in outputs),
        "panel": build_site.panel_cell(notebook) is not None,
    }


def site_pages(root: Path) -> list[str]:
    """The site's HTML pages, as paths from its root (the theme's template fragments in _static/ are none)."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html") if "_static" not in p.parts)


def _file_of(root: Path, url: str) -> Path:
    path = unquote(urlsplit(url).path).lstrip("/")
    target = root / path
    return target / "index.html" if path == "" or target.is_dir() else target


# the site's pages: the home page (README.md), the course's other Markdown pages, the lessons, Sphinx's own
LESSON_PAGES = [f"lessons/{notebook.stem}.html" for notebook in lesson_notebooks()]
PAGES = (
    ["index.html"]
    + [f"{Path(name).stem}.html" for name in build_site.PAGES[1:]]
    + LESSON_PAGES
    + ["genindex.html", "search.html"]
)


def test_the_site_builds_from_the_committed_lessons_offline(site):
    root, seconds = site
    assert site_pages(root) == sorted(PAGES), "the pages built are not the pages this test opens"
    assert (root / "_static" / "mermaid" / "mermaid.min.js").is_file()
    print(f"site built in {seconds:.1f} s")


def read_site(root: Path, served: str, pages: list[str]) -> tuple[dict[str, dict], dict[str, list[str]]]:
    """Open each of `pages` in headless Chromium, offline: ({page: what READ_PAGE read there}, {page: the
    problems seen while it loaded: console errors, script errors, failed requests, error statuses, and each
    request to another host, refused by OFFLINE_FLAGS})."""
    from playwright.sync_api import sync_playwright

    seen: dict[str, dict] = {}
    loading: dict[str, list[str]] = {name: [] for name in pages}
    current = {"name": pages[0]}

    def note(problem: str) -> None:
        loading[current["name"]].append(f"{current['name']}: {problem}")

    def failed(request):
        outside = urlsplit(request.url).hostname != "127.0.0.1"
        note(f"asked another host (refused): {request.url}" if outside else f"failed: {request.url}")

    def said(message):
        if message.type == "error":
            note(f"console error: {message.text}")

    def answered(response):
        if response.status >= 400:
            note(f"{response.status} {response.url}")

    with sync_playwright() as playwright:
        home = (
            root.parent / "chromium-home"
        )  # as launch_chromium (tests/jupyterlab_browser.py), plus OFFLINE_FLAGS
        env = {**os.environ, "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache")}
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS + OFFLINE_FLAGS, env=env
        )
        try:
            context = browser.new_context(viewport={"width": 1300, "height": 900})
            context.set_default_timeout(PAGE_MS)
            page = context.new_page()
            page.on("console", said)
            page.on("pageerror", lambda error: note(f"script error: {error}"))
            page.on("requestfailed", failed)
            page.on("response", answered)
            for name in pages:
                current["name"] = name
                # "networkidle": the page's late requests (its favicon) end before the next page, which
                # would otherwise abort them and report them failed
                page.goto(served + name, wait_until="networkidle")
                if page.locator("pre.mermaid").count():
                    try:
                        page.wait_for_function(DRAWN, timeout=PAGE_MS)
                    except PlaywrightTimeout:  # the checks name the diagrams not drawn
                        pass
                seen[name] = page.evaluate(READ_PAGE)
        finally:
            browser.close()
    return seen, loading


def page_problems(name: str, shown: dict, root: Path, served: str, seen: dict[str, dict]) -> list[str]:
    """What is wrong with a page as shown: an image not loaded, a diagram not drawn or drawn as an error, a
    traceback, a widget's raw repr, an internal link to a missing file or to an anchor its page lacks."""
    problems = [f"{name}: image not loaded: {image['src']}" for image in shown["images"] if not image["ok"]]
    for k, diagram in enumerate(shown["diagrams"], start=1):
        if not diagram["svg"] or diagram["error"]:
            problems.append(f"{name}: diagram {k} {'drawn as an error' if diagram['svg'] else 'not drawn'}")
    if shown["tracebacks"] or TRACEBACK.search(shown["text"]):
        problems.append(f"{name}: shows a traceback")
    problems += [
        f"{name}: shows a widget's raw repr: {m.group(0)!r}" for m in WIDGET_REPR.finditer(shown["text"])
    ]
    for link in (link for link in shown["links"] if link.startswith(served)):
        target = _file_of(root, link)
        fragment, key = unquote(urlsplit(link).fragment), target.relative_to(root).as_posix()
        if not target.is_file():
            problems.append(f"{name}: link to a missing file: {link}")
        elif fragment and key in seen and fragment not in seen[key]["ids"]:
            problems.append(f"{name}: link to a missing anchor: {link}")
        elif fragment and key not in seen:
            problems.append(f"{name}: link with an anchor to a file that is no page: {link}")
    return problems


def lesson_problems(name: str, want: dict, shown: dict | None) -> list[str]:
    """What a lesson's page lacks against its notebook (`want`, from lesson_expectations)."""
    if shown is None:
        return [f"{name}: no page for the lesson"]
    problems = []
    if shown["note"] != 1:
        problems.append(
            f"{name}: the note on what the page is (a record; how to run it) shows {shown['note']} times"
        )
    if len(shown["diagrams"]) != want["diagrams"]:
        problems.append(f"{name}: {len(shown['diagrams'])} diagrams, the notebook has {want['diagrams']}")
    if shown["folded"] != want["folded"]:
        problems.append(f"{name}: {shown['folded']} folded tables, the notebook stores {want['folded']}")
    if len(shown["images"]) < want["figures"] + want["panel"]:
        problems.append(f"{name}: {len(shown['images'])} images; the notebook: {want['figures']} figures"
                        f"{' and its panel has a still' if want['panel'] else ''}")  # fmt: skip
    if want["panel"] and shown["still"] != [True]:
        problems.append(f"{name}: the panel's still is missing or its image did not load ({shown['still']})")
    return problems


@pytest.fixture(scope="module")
def read(site, served):
    """Every page of the site as Chromium showed it, offline: (root, address, {page: shown}, {page: problems
    while it loaded}). Skipped when Chromium is missing, except under CI=true, where it fails."""
    reason = chromium_missing_reason()
    if reason is not None:
        if IN_CI:
            pytest.fail(f"{reason}. CI=true, so the site's browser test may not be skipped.", pytrace=False)
        pytest.skip(reason)
    root, _ = site
    start = time.monotonic()
    seen, loading = read_site(root, served, site_pages(root))
    print(f"{len(seen)} pages read in Chromium in {time.monotonic() - start:.1f} s")
    return root, served, seen, loading


@pytest.mark.parametrize("name", PAGES)
def test_each_page_of_the_site_in_chromium(read, name):
    root, served, seen, loading = read
    assert name in seen, f"{name}: not built"
    problems = loading[name] + page_problems(name, seen[name], root, served, seen)
    if name in LESSON_PAGES:
        notebook = ROOT / "lessons" / Path(name).with_suffix(".ipynb").name
        problems += lesson_problems(name, lesson_expectations(notebook), seen[name])
    assert not problems, "\n".join(problems)


def test_the_pages_workflow_builds_with_the_readme_command():
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    command = " ".join([SCRIPT, *readme_build_arguments()])
    assert command in workflow, (
        f".github/workflows/pages.yml must build the site with the README's `{command}`"
    )
    assert "path: _site" in workflow, "the workflow must publish _site/, where the command writes the site"


# one lesson stands for all (each still is made by the same function, from its own panel cell), as
# tests/test_browser.py's REOPENED: making every still again would cost about 30 s
STILL_CHECKED = "02_planner_executor"


def test_a_committed_still_is_what_the_maintainer_command_draws(tmp_path):
    """The maintainer command's step (build_site.write_panel_still, called by scripts/refresh_lessons.py)
    draws the committed still of a lesson's panel again: the same status line, controls, table and text,
    the same figure (matplotlib's compare_images, tol=1, as the lessons' figures)."""
    from matplotlib.testing.compare import compare_images

    lesson = next(n for n in lesson_notebooks() if n.stem == STILL_CHECKED)
    drawn = build_site.write_panel_still(lesson, stills=tmp_path)
    committed = build_site.STILLS / drawn.name
    assert committed.is_file(), (
        f"no committed still {committed}: run scripts/refresh_lessons.py {lesson.stem[:2]}"
    )
    assert drawn.with_suffix(".json").read_text() == committed.with_suffix(".json").read_text(), (
        f"site/stills/{lesson.stem}.json is stale: run scripts/refresh_lessons.py {lesson.stem[:2]}"
    )
    assert compare_images(str(committed), str(drawn), tol=1) is None, f"site/stills/{drawn.name} is stale"
