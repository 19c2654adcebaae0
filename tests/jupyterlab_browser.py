"""JupyterLab in headless Chromium, for tests/test_browser.py: a server, a browser, and what a student does.

- `copy_repository`: the temporary copy of the repository the server serves (lessons and
  figures in the working tree are never touched).
- `JupyterLab`: a JupyterLab server started by the README's own first command from the copy's
  folder, on a free port of localhost and a token, with its own empty
  config, data, runtime, settings and workspace folders (no user state), no announcements or
  update checks, the kernel the venv's Python; `stop()` ends it, its kernels and every process
  it started, and says which processes it had to kill.
- `launch_chromium`: Debian's Chromium (/usr/bin/chromium) through Playwright, headless, with
  the flags this machine needs; Playwright never downloads a browser here.
- `NotebookPage`: open a notebook in a JupyterLab page or in a new tab of one, clear and run
  all cells from the menus, wait for the kernel to be idle, read problems, find a widget in an
  output and move a control; each notebook's queries stay inside its own panel.
- `explore_panel`: the lesson's panel built in this process by the lesson's own Explore cell,
  and `expected_shown` / `move_in_python`: what the browser must show after a move.

Every wait polls a real condition (an HTTP answer, a DOM state) with a generous timeout,
so a slow 2-core machine is slower but not flaky.
"""

import ast
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import ipywidgets as widgets
import nbformat
import psutil
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from readme_commands import readme_as_root, readme_start

CHROMIUM = Path("/usr/bin/chromium")
# --no-sandbox: the tests may run as root; the rest keep Chromium off the (closed) network.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
INSTALL_HINT = "install it with `apt-get update && apt-get install -y chromium` (Debian/Ubuntu, as root)"

SERVER_START_S = 180  # seconds for JupyterLab to answer /api/status
SERVER_STOP_S = 30  # seconds for a clean shutdown before signals
PAGE_S = 180  # seconds for the page, the notebook and its kernel
RUN_ALL_S = 600  # seconds for one lesson's Run All
RUN_STARTS_S, RUN_ALL_TRIES = 30, 3  # seconds for Run All's first cell to start (queued or running), tries
REDRAW_S = 180  # seconds for a panel to redraw after a control moves
POLL_MS = 50  # milliseconds between two looks at the page while a test waits for it to show something


def chromium_missing_reason() -> str | None:
    """None when Debian's Chromium is installed, else why the browser test cannot run and how to fix it."""
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return None
    return f"Chromium is not installed at {CHROMIUM}: {INSTALL_HINT}"


def copy_repository(root: Path, dest: Path) -> Path:
    """Copy the repository to `dest` without .git, the venv and caches; return `dest`.

    Each lesson's pair (.py and .ipynb) gets one modification time, the later of the two: a
    fresh clone writes both at nearly the same moment, and the test must not depend on the
    order in which the copy wrote them (jupytext refuses an .ipynb newer than its .py). The copy
    is writable by its owner even when the checkout is read-only (a shared or root-owned folder):
    the lessons save figures and JupyterLab saves checkpoints in it.
    """
    ignore = shutil.ignore_patterns(".git", ".venv", "venv", "*.egg-info", "__pycache__", ".ipynb_checkpoints",
                                    ".pytest_cache", ".ruff_cache")  # fmt: skip
    shutil.copytree(root, dest, ignore=ignore)
    for path in (dest, *dest.rglob("*")):
        writable = stat.S_IWUSR | (stat.S_IXUSR if path.is_dir() else 0)
        path.chmod(path.stat().st_mode | stat.S_IRUSR | writable)
    for notebook in (dest / "lessons").glob("*.ipynb"):
        source = notebook.with_suffix(".py")
        if source.exists():
            latest = max(notebook.stat().st_mtime, source.stat().st_mtime)
            for path in (notebook, source):
                os.utime(path, (latest, latest))
    return dest


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class JupyterLab:
    """A JupyterLab server for one test session. Use `start()`, then `stop()` in a finally.

    Parameters
    ----------
    root_dir : Path
        The course folder the README's command is run from (the temporary copy of the repository);
        what the server serves is what that command makes of it.
    state_dir : Path
        An empty folder for the server's config, data, runtime, settings and workspaces and
        its log (`state_dir / "jupyterlab.log"`).
    figures_dir : Path
        Where the lessons' `sim.presentation.figures.save_figure` writes (COURSE_FIGURES_DIR of the kernels).
    """

    def __init__(self, root_dir: Path, state_dir: Path, figures_dir: Path):
        self.root_dir, self.state_dir = root_dir, state_dir
        self.port, self.token = _free_port(), secrets.token_hex(24)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = state_dir / "jupyterlab.log"
        self.env = {
            key: value for key, value in os.environ.items() if not key.startswith(("JUPYTER", "IPYTHON"))
        }
        self.env.pop("MPLBACKEND", None)  # a student's kernel picks its own backend
        for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTERLAB_SETTINGS_DIR",
                     "JUPYTERLAB_WORKSPACES_DIR", "IPYTHONDIR"):  # fmt: skip
            folder = state_dir / name.lower()
            folder.mkdir()
            self.env[name] = str(folder)
        # no "notified about official Jupyter news?" prompt over the page
        notification = state_dir / "jupyterlab_settings_dir" / "@jupyterlab" / "apputils-extension"
        notification.mkdir(parents=True)
        (notification / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}), encoding="utf-8"
        )
        self.env["JUPYTER_PLATFORM_DIRS"] = "1"
        self.figures_dir = figures_dir
        self.env["COURSE_FIGURES_DIR"] = str(figures_dir)
        self.process: subprocess.Popen | None = None

    def command(self) -> list[str]:
        """The server's command line: the README's first command (`.venv/bin/jupyter lab` and its
        arguments, read from the README, run from the course folder: `cwd` is `root_dir`), with this
        venv's `jupyter` (so its kernel is this venv's Python), then only what a test needs: its port
        and token, no browser, the README's root option when it runs as root (CI does), and nothing
        fetched from the network (no news, update check or PyPI listing)."""
        program, *arguments = readme_start()
        jupyter = Path(sys.executable).with_name("jupyter")  # the README's .venv/bin/jupyter
        return [
            str(jupyter) if jupyter.is_file() else program, *arguments,
            "--no-browser", f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            *(readme_as_root() if os.geteuid() == 0 else []),
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
        ]  # fmt: skip

    def api(self, path: str, method: str = "GET", timeout: float = 10) -> bytes:
        """Call the server's REST API with the token; returns the body."""
        request = urllib.request.Request(self.url + path, method=method,
                                         headers={"Authorization": f"token {self.token}"})  # fmt: skip
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.read()

    def log_tail(self, lines: int = 40) -> str:
        text = self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def start(self) -> None:
        """Start the server in its own process group and wait until its API answers."""
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(self.command(), cwd=self.root_dir, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        deadline = time.monotonic() + SERVER_START_S
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"JupyterLab exited with code {self.process.returncode}:\n{self.log_tail()}"
                )
            try:
                self.api("/api/status", timeout=5)
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(
                        f"JupyterLab did not answer within {SERVER_START_S} s:\n{self.log_tail()}"
                    ) from None
                time.sleep(0.25)

    def notebook_url(self, path: str) -> str:
        """The page that opens `path` alone: a new, empty workspace, so no earlier tab is restored."""
        return f"{self.url}/lab/workspaces/{secrets.token_hex(8)}/tree/{path}?reset&token={self.token}"

    def kernel_commands(self) -> list[list[str]]:
        """The command lines of the kernels the server runs now."""
        children = psutil.Process(self.process.pid).children(recursive=True)
        commands = []
        for child in children:
            try:
                commands.append(child.cmdline())
            except psutil.NoSuchProcess:
                continue
        return [command for command in commands if "ipykernel_launcher" in command]

    def stop(self) -> list[str]:
        """Shut the server and its kernels down; kill whatever is left. Returns what had to be killed."""
        if self.process is None:
            return []
        try:
            started = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            started = []
        killed = []
        if self.process.poll() is None:
            try:
                self.api("/api/shutdown", method="POST")  # stops the kernels, then the server
            except OSError:
                pass
            try:
                self.process.wait(SERVER_STOP_S)
            except subprocess.TimeoutExpired:
                killed.append(f"JupyterLab server {self.process.pid}")
                for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
                    try:
                        os.killpg(self.process.pid, sig)
                        self.process.wait(wait)
                        break
                    except ProcessLookupError:
                        break
                    except subprocess.TimeoutExpired:
                        continue
        # kernels run in their own sessions: end any the server left behind
        _, alive = psutil.wait_procs(started, timeout=SERVER_STOP_S)
        for process in alive:
            killed.append(f"{process.pid} {' '.join(process.cmdline()[:3])}")
            process.kill()
        _, still = psutil.wait_procs(alive, timeout=10)
        if still or self.process.poll() is None:
            raise RuntimeError(f"processes left running after JupyterLab: {[p.pid for p in still]}")
        return killed


def launch_chromium(playwright, home: Path):
    """Debian's Chromium, headless, through Playwright (never Playwright's own browser download).

    `home` (an empty folder) stands in for the user's config and cache folders, where
    Chromium would otherwise keep its crash-report database.
    """
    env = {**os.environ, "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache")}
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS, env=env
    )


# ---- the lesson's panel, built in this process the way the lesson builds it


@dataclass
class LessonPanel:
    """Where the lesson's panel is and what it is.

    cell_index: the index (among all cells) of the lesson's Explore cell, the last cell whose
    stored output is the panel's plain line (`sim.presentation.panel.RUN_FIRST`); source: that cell's code; value: what its last line
    evaluates to in this process (a ControlPanel, or any widget); root: the widget shown.
    """

    cell_index: int
    source: str
    value: object
    root: widgets.Widget


def explore_panel(notebook_path: Path) -> LessonPanel:
    """Build the lesson's panel in this process by running its Explore cell's own code.

    The lesson's Explore cell builds the panel from its factory (`sim.presentation.panel_<lesson>`) and ends with it;
    running that same code here gives a twin with the same settings, whose controls the test
    moves in step with the browser's. Raises AssertionError when the lesson has no widget
    output or its Explore cell does not build the panel by itself.
    """
    notebook = nbformat.read(notebook_path, as_version=4)
    index = panel_cell_index(notebook_path)
    source = notebook.cells[index].source
    value, root = run_cell(source, notebook_path.name)
    return LessonPanel(index, source, value, root)


def panel_cell_index(notebook_path: Path) -> int:
    """The index (among all cells) of the lesson's Explore cell: the last cell whose stored output is
    the panel's plain line (`sim.presentation.panel.RUN_FIRST`). AssertionError when no cell stores it."""
    from sim.presentation.panel import RUN_FIRST

    notebook = nbformat.read(notebook_path, as_version=4)
    with_panel = [i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"
                  and any(output.get("data", {}).get("text/plain") == RUN_FIRST for output in cell.get("outputs", []))]  # fmt: skip
    assert with_panel, (
        f"{notebook_path.name}: no cell stores the panel's plain line (the Explore cell's panel)"
    )
    return with_panel[-1]


def run_cell(source: str, name: str) -> tuple[object, widgets.Widget]:
    """Run a cell's code in a fresh namespace; return its last line's value and the widget it shows.

    Raises AssertionError when the cell does not end with a widget or with an object that has
    a `widget` attribute (a ControlPanel).
    """
    tree = ast.parse(source)
    assert tree.body and isinstance(tree.body[-1], ast.Expr), f"{name}: the cell must end with the panel"
    namespace: dict = {}
    exec(compile(ast.Module(tree.body[:-1], type_ignores=[]), name, "exec"), namespace)
    value = eval(compile(ast.Expression(tree.body[-1].value), name, "eval"), namespace)
    root = value if isinstance(value, widgets.Widget) else getattr(value, "widget", None)
    assert isinstance(root, widgets.Widget), f"{name}: the cell's last line is not a panel or a widget"
    return value, root


def widget_paths(root: widgets.Widget, path: tuple = ()) -> list[tuple[tuple, widgets.Widget]]:
    """Every widget of a box tree with its path of child indices, depth first, the root first."""
    found = [(path, root)]
    if isinstance(root, widgets.Box):
        for i, child in enumerate(root.children):
            found += widget_paths(child, path + (i,))
    return found


MOVABLE = (widgets.Text, widgets.Dropdown, widgets.Checkbox, widgets.IntSlider)


def main_control(root: widgets.Widget) -> tuple[tuple, widgets.Widget]:
    """The control the test moves: the Text described "seed", else the first movable control."""
    controls = [(path, w) for path, w in widget_paths(root) if isinstance(w, MOVABLE)]
    assert controls, (
        "the panel has no control the browser test knows how to move (Text, Dropdown, Checkbox, IntSlider)"
    )
    seeds = [(path, w) for path, w in controls if isinstance(w, widgets.Text) and w.description == "seed"]
    return (seeds or controls)[0]


def new_value(control: widgets.Widget):
    """The value the test moves the control to: another seed, the next option, the other state, one step."""
    if isinstance(control, widgets.Text):
        return "777" if control.value.strip() != "777" else "778"
    if isinstance(control, widgets.Dropdown):
        return control.options[(control.index + 1) % len(control.options)]
    if isinstance(control, widgets.Checkbox):
        return not control.value
    step = control.step if control.value + control.step <= control.max else -control.step
    return control.value + step


def expected_shown(root: widgets.Widget) -> list[dict]:
    """What each output widget of the panel shows: HTML widgets their HTML, Image widgets the
    SHA-256 of their bytes, Text controls their value. One dict per widget, with its path."""
    shown = []
    for path, w in widget_paths(root):
        if isinstance(w, widgets.HTML | widgets.HTMLMath):
            shown.append({"path": list(path), "kind": "html", "value": w.value})
        elif isinstance(w, widgets.Image):
            shown.append(
                {"path": list(path), "kind": "image", "value": hashlib.sha256(bytes(w.value)).hexdigest()}
            )
        elif isinstance(w, widgets.Text):
            shown.append({"path": list(path), "kind": "text", "value": w.value})
    return shown


# ---- the page

_FIND = """
(root, path) => {
  let el = root;
  for (const i of path) {
    // a box's view holds its children's views as its element's children, in order
    el = [...el.children].filter(c => c.classList.contains('jupyter-widgets'))[i];
    if (!el) return null;
  }
  return el;
}
"""

READ_SHOWN = (
    """
async ([root, expected]) => {
  const find = """
    + _FIND
    + """;
  const out = [];
  for (const item of expected) {
    const el = find(root, item.path);
    let value = null;
    if (el && item.kind === 'html') {
      const content = el.querySelector('.widget-html-content');
      const twin = document.createElement('div');
      twin.innerHTML = item.value;  // the expected HTML, serialised by the same parser
      value = content && content.innerHTML === twin.innerHTML ? item.value : (content ? content.innerHTML : null);
    } else if (el && item.kind === 'image') {
      const img = el.tagName === 'IMG' ? el : el.querySelector('img');
      if (img && img.src) {
        const bytes = await (await fetch(img.src)).arrayBuffer();
        const digest = await crypto.subtle.digest('SHA-256', bytes);
        value = [...new Uint8Array(digest)].map(b => b.toString(16).padStart(2, '0')).join('');
      }
    } else if (el && item.kind === 'text') {
      const input = el.querySelector('input');
      value = input ? input.value : null;
    }
    out.push({path: item.path, kind: item.kind, value});
  }
  return out;
}
"""
)


# Mermaid draws node text at the font size its SVG's style gives; JupyterLab shows the SVG as an image
# scaled to the cell's width, so the text a reader sees is that size times shown width / viewBox width.
DIAGRAM_TEXT_JS = """box => {
  const img = box.querySelector("img");
  const svg = decodeURIComponent(img.src.slice(img.src.indexOf(",") + 1));
  const font = parseFloat((svg.match(/font-size:\\s*([\\d.]+)px/) || [0, 16])[1]);
  const box4 = svg.match(/viewBox="\\s*([-\\d.e]+)[\\s,]+([-\\d.e]+)[\\s,]+([\\d.e]+)/);
  return font * img.getBoundingClientRect().width / parseFloat(box4[3]);
}"""


def diagram_text_px(diagram) -> float:
    """The size in CSS pixels at which a drawn Mermaid diagram (a `.jp-RenderedMermaid` element) shows
    its node text."""
    return diagram.evaluate(DIAGRAM_TEXT_JS)


def choose(page, menu: str, item: str) -> None:
    """Click a menu bar entry of the JupyterLab page, then one of its items (what a student does)."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{re.escape(menu)}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).click()


class NotebookPage:
    """One notebook open in a tab of JupyterLab, in a Playwright page that may hold other notebooks'
    tabs, as a student opens several lessons. Every query is scoped to this notebook's panel (the
    element whose id is its tab's `data-id`). Its menus (which act on the current notebook), the
    wait for its Run All and the wait for a widget in it first bring its tab to the front, as a
    student clicks it; moves and reads then use the elements found there."""

    def __init__(self, page, lab: JupyterLab, path: str):
        self.page, self.lab, self.path = page, lab, path
        self.panel_id: str | None = None  # the id of its panel and the data-id of its tab, once open

    @property
    def panel(self) -> str:
        """A CSS selector of this notebook's panel."""
        assert self.panel_id is not None, f"{self.path} is not open"
        return f"#{self.panel_id}"

    @property
    def tab(self) -> str:
        """A CSS selector of this notebook's tab (its data-id is the panel's id)."""
        assert self.panel_id is not None, f"{self.path} is not open"
        return f'.lm-DockPanel .lm-TabBar-tab[data-id="{self.panel_id}"]'

    def open(self) -> None:
        """Open the notebook in a new JupyterLab page (a fresh workspace, so no earlier tab is
        restored) and wait until its kernel (the venv's Python 3) is idle."""
        self.page.goto(self.lab.notebook_url(self.path), timeout=PAGE_S * 1000, wait_until="commit")
        self.wait_open()

    def open_in_new_tab(self) -> None:
        """Open the notebook in a new tab of the JupyterLab page that is already open (File > Open
        from Path...) and wait until its kernel (the venv's Python 3) is idle."""
        choose(self.page, "File", "Open from Path\u2026")
        field = self.page.locator(".jp-Dialog input")
        field.fill(self.path)
        field.press("Enter")
        self.wait_open()

    def wait_open(self) -> None:
        """Wait until the notebook is the page's current tab, in one tab only, and its kernel (the
        venv's Python 3) is idle; then remember its panel."""
        self.panel_id = self.page.wait_for_function(
            """(path) => {
              const tabs = [...document.querySelectorAll('.lm-DockPanel .lm-TabBar-tab')]
                .filter(t => (t.title || '').split('\\n').includes('Path: ' + path));
              if (tabs.length !== 1 || !tabs[0].classList.contains('lm-mod-current')) return false;
              const panel = document.getElementById(tabs[0].dataset.id);
              const kernel = panel && panel.querySelector('.jp-KernelName');
              const state = panel && panel.querySelector('.jp-Notebook-ExecutionIndicator');
              const ready = kernel && kernel.textContent.includes('Python 3') && state && state.dataset.status === 'idle';
              return ready ? tabs[0].dataset.id : false;
            }""",
            arg=self.path,
            timeout=PAGE_S * 1000,
        ).json_value()

    def activate(self) -> None:
        """Bring the notebook's tab to the front (a click on it, as a student does) unless it is there."""
        tab = self.page.locator(self.tab)
        if "lm-mod-current" not in (tab.get_attribute("class") or "").split():
            tab.click()
        self.page.wait_for_function(
            """([id, tabSelector]) => {
              const tab = document.querySelector(tabSelector);
              const panel = document.getElementById(id);
              return !!(tab && tab.classList.contains('lm-mod-current') && panel
                        && !panel.classList.contains('lm-mod-hidden') && panel.getClientRects().length > 0
                        && panel.querySelector('.jp-Notebook-ExecutionIndicator'));
            }""",
            arg=[self.panel_id, self.tab],
            timeout=PAGE_S * 1000,
        )

    def close(self) -> None:
        """Close the notebook's tab (its close mark, as a student does; a question about unsaved
        changes is answered "Discard": what counts is the file as saved). Its kernel goes on."""
        self.activate()
        self.page.locator(f"{self.tab} .lm-TabBar-tabCloseIcon").click()
        discard = self.page.locator(".jp-Dialog .jp-Dialog-button", has_text="Discard")
        tab = self.page.locator(self.tab)
        deadline = time.monotonic() + PAGE_S
        while tab.count():
            if discard.count():
                discard.first.click()
            assert time.monotonic() < deadline, f"{self.path}: its tab did not close"
            self.page.wait_for_timeout(100)
        self.panel_id = None

    def reopen(self) -> None:
        """Close the notebook's tab and open the file again (File > Open from Path...), as a student
        reopens a saved lesson."""
        self.close()
        self.open_in_new_tab()

    def folded(self, cell_indexes: list[int]) -> list[str]:
        """How the outputs of the cells at `cell_indexes` (among all cells) show a folded table:
        "closed" (a <details> block, not open), "open", or "none" (no <details> in its output)."""
        return self.page.evaluate(
            """([id, indexes]) => indexes.map(i => {
              const cell = document.querySelectorAll('#' + id + ' .jp-Cell')[i];
              const block = cell && cell.querySelector('.jp-OutputArea details');
              return block ? (block.open ? 'open' : 'closed') : 'none';
            })""",
            [self.panel_id, cell_indexes],
        )

    def follow_glossary_link(self) -> str:
        """Click the notebook's first link to the course glossary, as a student does; return the
        title of the tab that is then current (JupyterLab opens the file in a tab of its own),
        once it is not the notebook's. The glossary's tab is closed again (a later click opens it
        anew). AssertionError when no tab opens."""
        self.activate()
        link = self.page.locator(f'{self.panel} .jp-MarkdownOutput a[href*="GLOSSARY.md"]').first
        link.scroll_into_view_if_needed()
        link.click()
        try:
            tab_id = self.page.wait_for_function(
                """(id) => {
                  const tab = document.querySelector('.lm-DockPanel .lm-TabBar-tab.lm-mod-current');
                  return tab && tab.dataset.id !== id && (tab.title || '').includes('GLOSSARY.md')
                    ? tab.dataset.id : false;
                }""",
                arg=self.panel_id,
                timeout=30_000,
            ).json_value()
        except PlaywrightTimeout:
            raise AssertionError(f"{self.path}: a click on its glossary link opened nothing") from None
        glossary = self.page.locator(f'.lm-DockPanel .lm-TabBar-tab[data-id="{tab_id}"]')
        title = glossary.get_attribute("title")
        glossary.locator(".lm-TabBar-tabCloseIcon").click()
        glossary.wait_for(state="detached", timeout=PAGE_S * 1000)
        return title

    def menu(self, menu: str, item: str) -> None:
        """Bring the notebook to the front, then click a menu bar entry and one of its items."""
        self.activate()
        choose(self.page, menu, item)

    def prompts(self) -> list[str]:
        return self.page.eval_on_selector_all(
            f"{self.panel} .jp-CodeCell .jp-InputArea-prompt",
            "els => els.map(e => e.textContent.trim())",
        )

    def clear_and_run_all(self, code_cells: int) -> None:
        """Clear every output, Run All, and wait until every code cell has run and the kernel is idle
        (benchmarks/browser_latency.py)."""
        self.start_run_all(code_cells)
        self.wait_run_all(code_cells)

    def start_run_all(self, code_cells: int) -> None:
        """Clear every output and choose Run All; the kernel and the page go on by themselves."""
        self.menu("Edit", "Clear Outputs of All Cells")
        self.page.wait_for_function(
            """([id, n]) => {
              const prompts = [...document.querySelectorAll(
                '#' + id + ' .jp-CodeCell .jp-InputArea-prompt')];
              return prompts.length === n && prompts.every(p => !/\\d/.test(p.textContent));
            }""",
            arg=[self.panel_id, code_cells],
            timeout=PAGE_S * 1000,
        )
        # A choice made while the page is still settling (a fresh page, a loaded machine) can be
        # lost: nothing starts. As a student would, click the notebook's tab and choose it again.
        for _ in range(RUN_ALL_TRIES):
            self.menu("Run", "Run All Cells")
            try:
                self.page.wait_for_function(
                    """(id) => [...document.querySelectorAll('#' + id + ' .jp-CodeCell .jp-InputArea-prompt')]
                        .some(p => /[*\\d]/.test(p.textContent))""",
                    arg=self.panel_id,
                    timeout=RUN_STARTS_S * 1000,
                    polling=POLL_MS,
                )
                return
            except PlaywrightTimeout:
                self.page.keyboard.press("Escape")  # a menu left open
                self.page.locator(self.tab).click()
        raise AssertionError(
            f"{self.path}: Run All started no cell in {RUN_ALL_TRIES} tries of {RUN_STARTS_S} s"
        )

    def wait_run_all(self, code_cells: int) -> None:
        """Bring the notebook to the front and wait until every code cell has run, the kernel is
        idle and every widget is displayed."""
        self.activate()
        # Done when every code cell has run, or as soon as an error has stopped the run (no cell
        # still queued or running, "[*]:", and an error or stderr output shown): a lesson's first
        # error ends the wait at once instead of at the timeout.
        self._wait_or_explain(
            """([id, n]) => {
              const panel = document.getElementById(id);
              const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
              const state = panel.querySelector('.jp-Notebook-ExecutionIndicator');
              if (!state || state.dataset.status !== 'idle' || prompts.length !== n) return false;
              if (prompts.some(p => p.textContent.includes('*'))) return false;
              const failed = panel.querySelector('[data-mime-type="application/vnd.jupyter.stderr"]');
              return failed !== null || prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim()));
            }""",
            arg=[self.panel_id, code_cells],
            timeout=RUN_ALL_S * 1000,
            what=f"Run All: {code_cells} code cells run and the kernel idle within {RUN_ALL_S} s",
        )
        self._wait_or_explain(
            """(id) => ![...document.querySelectorAll('#' + id + ' .jp-OutputArea')]
                .some(area => area.textContent.includes('Loading widget...'))""",
            arg=self.panel_id,
            timeout=PAGE_S * 1000,
            what=f"every widget displayed (none left 'Loading widget...') within {PAGE_S} s",
        )

    def _wait_or_explain(
        self, condition: str, arg=None, timeout: float = PAGE_S * 1000, what: str = ""
    ) -> None:
        try:
            self.page.wait_for_function(condition, arg=arg, timeout=timeout, polling=POLL_MS)
        except PlaywrightTimeout:
            raise AssertionError(
                f"{self.path}: no {what}; cell prompts {self.prompts()}, problems {self.problems()}"
            ) from None

    def problems(self) -> list[str]:
        """Error and stderr outputs (their text), and widgets that failed to display (the notebook
        brought to the front first)."""
        self.activate()
        return self.page.evaluate(
            """(id) => {
              const panel = document.getElementById(id);
              const found = [...panel.querySelectorAll('[data-mime-type="application/vnd.jupyter.stderr"]')]
                .map(e => 'error or stderr output: ' + e.textContent.slice(0, 2000));
              for (const e of panel.querySelectorAll('.jupyter-widgets-error-widget')) {
                found.push('widget: Error displaying widget (' + e.textContent.trim() + ')');
              }
              // the outputs' text, not the cells' code (textContent: offscreen cells count too)
              const outputs = [...panel.querySelectorAll('.jp-OutputArea')].map(a => a.textContent).join(' ');
              for (const phrase of ['Error displaying widget', 'Failed to load model class', 'Loading widget...']) {
                if (outputs.includes(phrase)) found.push('widget: ' + phrase);
              }
              return found;
            }""",
            self.panel_id,
        )

    def cell_output(self, cell_index: int):
        """The output area of the notebook's cell `cell_index` (counted among all cells)."""
        return self.page.locator(f"{self.panel} .jp-Cell").nth(cell_index).locator(".jp-OutputArea-output")

    def restart_kernel(self) -> None:
        """Kernel > Restart Kernel..., confirmed, as a student would. Returns once the notebook's kernel
        status reads idle, which the old kernel may still show before the restart begins: callers
        wait for what the restart changes (`panel_seen` waits for the panel to be disconnected)."""
        self.menu("Kernel", "Restart Kernel\u2026")
        self.page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept").click()
        self.page.wait_for_function(
            """(id) => {
              const state = document.querySelector('#' + id + ' .jp-Notebook-ExecutionIndicator');
              return !!(state && state.dataset.status === 'idle');
            }""",
            arg=self.panel_id,
            timeout=PAGE_S * 1000,
        )

    def panel_seen(self, cell_index: int) -> dict:
        """What the cell's panel output shows once ipywidgets has marked its panel disconnected (its
        kernel gone): {"text": the visible text of that output (hidden parts left out),
        "before": the CSS content drawn before the panel, "icons": broken-link marks visible}."""
        self.activate()  # shown, so that what is visible can be told
        self.page.wait_for_function(
            """([id, i]) => {
              const cell = document.querySelectorAll('#' + id + ' .jp-Cell')[i];
              const panel = cell && cell.querySelector('.alm-panel');
              return !!(panel && panel.classList.contains('jupyter-widgets-disconnected'));
            }""",
            arg=[self.panel_id, cell_index],
            timeout=PAGE_S * 1000,
        )
        return self.page.evaluate(
            """([id, i]) => {
              const panel = document.querySelectorAll('#' + id + ' .jp-Cell')[i].querySelector('.alm-panel');
              panel.scrollIntoView();  // laid out, as a student scrolled to it sees it
              const icons = [...panel.querySelectorAll('.jupyter-widgets-disconnected')]
                .filter(e => e.getClientRects().length > 0).length;
              return {text: panel.closest('.jp-OutputArea-output').innerText.trim(),
                      before: getComputedStyle(panel, '::before').content, icons: icons};
            }""",
            [self.panel_id, cell_index],
        )

    def widget_root(self, cell_index: int):
        """The element of the top widget view in the cell's output, once it is drawn."""
        self.activate()
        root = self.cell_output(cell_index).locator(".jupyter-widgets").first
        root.wait_for(state="visible", timeout=PAGE_S * 1000)
        return root.element_handle()

    def read_shown(self, root, expected: list[dict]) -> list[dict]:
        """What the browser shows at the paths of `expected` (same shape; an HTML item holds the
        expected HTML when the browser's DOM equals it once both are parsed, else what it shows)."""
        return self.page.evaluate(READ_SHOWN, [root, expected])

    def wait_shown(self, root, expected: list[dict]) -> list[dict]:
        """Wait until the browser shows `expected`; return what it shows at the end (equal, or not at timeout)."""
        deadline = time.monotonic() + REDRAW_S
        while True:
            shown = self.read_shown(root, expected)
            if shown == expected or time.monotonic() > deadline:
                return shown
            self.page.wait_for_timeout(POLL_MS)

    def output_text(self, cell_index: int) -> str:
        """The text the cell's output area shows, once it shows any (textContent: the cell may be offscreen)."""
        self.page.wait_for_function(
            """([id, i]) => {
              const cell = document.querySelectorAll('#' + id + ' .jp-Cell')[i];
              const area = cell && cell.querySelector('.jp-OutputArea');
              return !!(area && area.textContent.trim());
            }""",
            arg=[self.panel_id, cell_index],
            timeout=PAGE_S * 1000,
        )
        return self.page.evaluate(
            "([id, i]) => document.querySelectorAll('#' + id + ' .jp-Cell')[i].querySelector('.jp-OutputArea')"
            ".textContent.trim()",
            [self.panel_id, cell_index],
        )

    def press(self, root, path: tuple, times: int, changes: tuple) -> None:
        """Press the button at `path` `times` times, as fast as a student can, where each press
        changes the text box at `changes` (the seed box, for "new seed"). Each press is followed
        only until the box holds a new value: that is the kernel's answer to the press, so after
        the last one every press has been handled, while their redraws (which take longer) still
        overlap. Without this, a settled panel seen between two presses could pass for the last."""
        element = self.page.evaluate_handle(f"([root, path]) => ({_FIND})(root, path)", [root, list(path)])
        element = element.as_element()
        assert element is not None, f"no widget at {path} in the browser"
        query = [{"path": list(changes), "kind": "text", "value": ""}]
        for press in range(times):
            before = self.read_shown(root, query)[0]["value"]
            element.click()
            deadline = time.monotonic() + REDRAW_S
            while self.read_shown(root, query)[0]["value"] == before:
                assert time.monotonic() < deadline, (
                    f"press {press + 1} of {times} changed nothing at {changes}"
                )
                self.page.wait_for_timeout(20)

    def wait_settled(self, root, seed_path: tuple, status_path: tuple) -> str:
        """Wait until the panel shows the seed its seed box holds ("Showing seed S" in its status line,
        nothing being computed); return that seed as typed."""
        query = [{"path": list(seed_path), "kind": "text", "value": ""},
                 {"path": list(status_path), "kind": "html", "value": ""}]  # fmt: skip
        deadline = time.monotonic() + REDRAW_S
        while True:
            seed, status = (item["value"] or "" for item in self.read_shown(root, query))
            if seed and f"Showing seed {seed}," in status:
                return seed
            assert time.monotonic() < deadline, (
                f"the panel did not settle: seed box {seed!r}, status {status!r}"
            )
            self.page.wait_for_timeout(POLL_MS)

    def move(self, root, path: tuple, control: widgets.Widget, value) -> None:
        """Move the control at `path` to `value` as a student would."""
        element = self.page.evaluate_handle(f"([root, path]) => ({_FIND})(root, path)", [root, list(path)])
        element = element.as_element()
        assert element is not None, f"no widget at {path} in the browser"
        if isinstance(control, widgets.Text):
            field = element.query_selector("input")
            field.fill(str(value))
            field.press("Enter")
        elif isinstance(control, widgets.Dropdown):
            element.query_selector("select").select_option(label=str(value))
        elif isinstance(control, widgets.Checkbox):
            element.query_selector("input").click()
        else:  # a slider: type the value into its readout
            readout = element.query_selector(".widget-readout")
            readout.click()
            self.page.keyboard.press("Control+A")
            self.page.keyboard.type(str(value))
            self.page.keyboard.press("Enter")
