"""The control panel every lesson uses: seed, new seed, step budget, task, reset; a table and a figure redrawn in place.

Each lesson's own view (what it computes and draws for the panel's settings) is in a module of
its own: `sim.panel_single_loop`, `sim.panel_planner_executor`, `sim.panel_step_budget`,
`sim.panel_contract`, `sim.panel_how_many_seeds`, `sim.panel_your_agent`.

The panel is built from ipywidgets. What it shows lives in kernel-side widgets (`HTML` for
the table and the trace, `Image` for the figure), so plain Python can set a control and read
what the panel now shows. A value that is not allowed is refused with a message in the
panel; the previous table and figure stay and the panel keeps working. Introduced in
lesson 2, planner and executor.
"""

import html
import numbers
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import ipywidgets as widgets

from sim.checks import SEED_LIMIT, check_budget, check_integer, check_seed, parse_whole_number
from sim.errors import InputError, InputTypeError
from sim.figures import PANEL_DPI, figure_svg
from sim.tasks import TASK_NAMES, check_task

BUDGET_RANGE = (1, 20)  # steps, what the budget slider allows


@dataclass(frozen=True)
class Settings:
    """What the controls say: seed (run A; run B is seed + 1), budget (steps), task name, and
    the values of a lesson's extra controls by name (e.g. {"self_critique": True})."""

    seed: int
    budget: int
    task: str = "G05"
    extra: dict = field(default_factory=dict, compare=True, hash=False)


@dataclass
class View:
    """What a lesson's render function returns: the table as HTML, a matplotlib Figure, and text."""

    table_html: str
    figure: object
    text: str = ""
    data: dict = field(default_factory=dict)


class ControlPanel:
    """A panel of controls and outputs around one lesson's `render(settings) -> View`.

    Parameters
    ----------
    render : Callable[[Settings], View]
        Draws the lesson's table and figure for the settings.
    defaults : Settings
        The lesson's defaults, restored by the reset button.
    controls : tuple[str, ...]
        Which controls to show, from "seed", "new_seed", "budget", "task", "reset".
    two_runs : bool
        When True the panel compares seed and seed + 1, so the largest seed allowed is 2**32 - 2.
    extra_controls : dict[str, ipywidgets.ValueWidget] | None
        A lesson's own controls (a Checkbox, a bounded IntSlider, a Dropdown...), shown after
        the standard ones. Their values reach `render` as `settings.extra[name]`; their
        starting values are what reset restores. Build them with continuous_update=False.

    Attributes read by tests and instructors: `settings` (what is shown), `table` (HTML
    widget), `figure` (Image widget, PNG bytes), `text` (HTML widget), `message` (HTML widget,
    empty or the last refusal), `view` (the last View), `widget` (the whole panel).
    """

    def __init__(
        self,
        render: Callable[[Settings], View],
        defaults: Settings,
        controls: tuple[str, ...] = ("seed", "new_seed", "budget", "task", "reset"),
        two_runs: bool = True,
        extra_controls: dict | None = None,
    ):
        self._render = render
        self.defaults = defaults
        self.seed_max = SEED_LIMIT - (2 if two_runs else 1)
        self.shown_controls = tuple(controls)
        self._random = random.Random()  # this panel's own source of new seeds
        self._quiet = False
        self.seed = widgets.Text(
            value=str(defaults.seed), description="seed", continuous_update=False,
            layout=widgets.Layout(width="220px"),
        )  # fmt: skip
        self.new_seed = widgets.Button(description="new seed", layout=widgets.Layout(width="100px"))
        self.budget = widgets.IntSlider(
            value=defaults.budget, min=BUDGET_RANGE[0], max=BUDGET_RANGE[1], description="budget",
            continuous_update=False,
        )  # fmt: skip
        self.task = widgets.Dropdown(options=TASK_NAMES, value=defaults.task, description="task")
        self.reset = widgets.Button(description="reset", layout=widgets.Layout(width="80px"))
        self.message = widgets.HTML()
        self.table = widgets.HTML()
        self.figure = widgets.Image(format="svg+xml", layout=widgets.Layout(max_width="100%", height="auto"))
        self.text = widgets.HTML()
        chosen = {"seed": self.seed, "new_seed": self.new_seed, "budget": self.budget, "task": self.task,
                  "reset": self.reset}  # fmt: skip
        self.extra = dict(extra_controls or {})
        self._extra_defaults = {name: control.value for name, control in self.extra.items()}
        row = widgets.HBox([chosen[name] for name in controls] + list(self.extra.values()))
        row.layout.flex_flow = "row wrap"
        self.widget = widgets.VBox([row, self.message, self.table, self.figure, self.text])
        for control in (self.seed, self.budget, self.task, *self.extra.values()):
            control.observe(self._on_change, names="value")
        self.new_seed.on_click(self._on_new_seed)
        self.reset.on_click(self._on_reset)
        self.settings: Settings | None = None
        self.view: View | None = None
        self._redraw(replace(defaults, extra=dict(self._extra_defaults)))

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)

    def _read_seed(self, text: object) -> int:
        """The seed typed in the seed box (an int, or text in the course's grammar for numbers,
        `sim.checks.parse_whole_number`), or InputTypeError/InputError saying what is allowed."""
        allowed = f"seed must be a whole number 0 <= seed <= {self.seed_max}"
        if self.seed_max < SEED_LIMIT - 1:
            allowed += " (run B uses seed + 1)"
        if isinstance(text, str):
            try:
                seed = parse_whole_number(text, "seed")
            except InputError:
                shown = repr(text) if len(text) <= 40 else repr(text[:40]) + f"... ({len(text)} characters)"
                raise InputTypeError(f"{allowed}, got {shown}: the digits 0-9 only") from None
        else:
            try:
                seed = check_integer(text, "seed")
            except InputError:
                raise InputTypeError(f"{allowed}, got {text!r} ({type(text).__name__})") from None
        if not 0 <= seed <= self.seed_max:
            raise InputError(f"{allowed}, got {seed}")
        return check_seed(seed)

    def _read_controls(self) -> Settings:
        return Settings(
            self._read_seed(self.seed.value),
            check_budget(self.budget.value, "budget"),
            check_task(self.task.value).name,
            {name: control.value for name, control in self.extra.items()},
        )

    def _redraw(self, settings: Settings) -> None:
        view = self._render(settings)
        image = figure_svg(view.figure)
        width = round(
            view.figure.get_size_inches()[0] * PANEL_DPI
        )  # pixels: shown at its own size, not stretched
        self.table.value, self.figure.value, self.text.value = view.table_html, image, view.text
        self.figure.width = str(width)
        self.settings, self.view = settings, view
        self.message.value = ""

    def _show_settings(self) -> None:
        """Put every control back to what the panel shows, without redrawing."""
        shown = self.settings
        self._quiet = True
        try:
            self.seed.value, self.budget.value, self.task.value = str(shown.seed), shown.budget, shown.task
            for name, control in self.extra.items():
                control.value = shown.extra[name]
        finally:
            self._quiet = False

    def _refuse(self, error: Exception) -> None:
        shown = self.settings
        kept = ""
        if shown is not None:
            parts = [f"seed {shown.seed}", f"budget {shown.budget}"]
            parts += [f"task {shown.task}"] if "task" in self.shown_controls else []
            parts += [
                f"{self._label(name)} {self._value_label(name, value)}" for name, value in shown.extra.items()
            ]
            kept = f" Still showing {', '.join(parts)}."
            self._show_settings()
        text = str(error).rstrip(".")
        self.message.value = (
            f"<span style='color:#C62828'>Refused: {html.escape(text)}.{html.escape(kept)}</span>"
        )

    def _on_change(self, _change=None) -> None:
        if self._quiet:
            return
        try:
            self._redraw(self._read_controls())
        except InputError as error:  # bad input only: a bug in a view shows as the traceback it is
            self._refuse(error)
            return
        self._show_settings()  # the box shows the value used (" 42 " becomes "42")

    def _on_new_seed(self, _button=None) -> None:
        self.seed.value = str(self._random.randrange(self.seed_max + 1))

    def _on_reset(self, _button=None) -> None:
        self.set(seed=self.defaults.seed, budget=self.defaults.budget, task=self.defaults.task,
                 **self._extra_defaults)  # fmt: skip

    def _label(self, name: str) -> str:
        """The name a student sees on an extra control (its description), else its key."""
        return getattr(self.extra[name], "description", "") or name

    def _value_label(self, name: str, value) -> str:
        """A dropdown value as its label on screen; other values as they are."""
        for option in getattr(self.extra[name], "options", ()):
            if isinstance(option, tuple) and option[1] == value:
                return str(option[0])
        return str(value)

    def _check_value(self, name: str, control, value):
        """`value` if `control` can hold it exactly, else TypeError/ValueError naming the control."""
        name = getattr(control, "description", "") or name
        if isinstance(control, widgets.Checkbox):
            if not isinstance(value, bool):
                raise InputTypeError(f"{name} must be True or False, got {value!r}")
        elif isinstance(control, widgets.Dropdown):
            offered = [option[1] if isinstance(option, tuple) else option for option in control.options]
            if value not in offered:
                raise InputError(f"{name} must be one of {', '.join(map(str, offered))}, got {value!r}")
        elif hasattr(control, "min") and hasattr(control, "max"):
            step = getattr(control, "step", 1) or 1
            allowed = f"{name} must be an integer {control.min}..{control.max}"
            allowed += f" in steps of {step}" if step != 1 else ""
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise InputTypeError(f"{allowed}, got {value!r}")
            if not control.min <= value <= control.max or (value - control.min) % step:
                raise InputError(f"{allowed}, got {value!r}")
        return value

    def set(self, seed=None, budget=None, task=None, **extra) -> None:
        """Set several controls at once and redraw once (what the reset button does).

        Every value is checked first: a value a control cannot hold exactly (a seed outside
        the panel's range, a budget outside 1..20, an unknown task, a slider value off its
        range or step, a dropdown value it does not offer, a switch that is not True/False,
        an unknown control) is refused with a message naming the control, and nothing changes.
        Extra controls are set by name: `panel.set(self_critique=True)`.
        """
        try:
            unknown = sorted(set(extra) - set(self.extra))
            if unknown:
                raise InputError(
                    f"unknown control {unknown[0]!r}; this panel has {', '.join(self.extra) or 'none'}"
                )
            wanted = [
                (self.seed, None if seed is None else str(self._read_seed(seed))),
                (self.budget, None if budget is None else self._check_value("budget", self.budget, budget)),
                (self.task, None if task is None else check_task(task).name),
            ]
            wanted += [(self.extra[n], self._check_value(n, self.extra[n], v)) for n, v in extra.items()]
        except InputError as error:
            self._refuse(error)
            return
        self._quiet = True
        try:
            for control, value in wanted:
                if value is not None:
                    control.value = value
        finally:
            self._quiet = False
        self._on_change()


def pre_html(text: str) -> str:
    """Text as a <pre> block for a panel's HTML widgets (escaped)."""
    return f"<pre style='font-size:12px;line-height:1.3'>{html.escape(text)}</pre>"


RUN_LETTERS = ("A", "B")  # a panel's two runs, whatever their seeds; the caption gives the seeds


def runs_caption(seeds) -> str:
    """The line above a two-run panel's tables: which seed is run A and which run B (HTML)."""
    named = ", ".join(f"run {letter} = seed {seed}" for letter, seed in zip(RUN_LETTERS, seeds, strict=False))
    return f"<p style='margin:2px 0'><b>{html.escape(named)}</b></p>"


def lettered(table, seeds):
    """A copy of a table with a `run` column (`sim.seed_table`, `sim.exit_state_frame`) whose runs
    are called A and B in the order of `seeds`, not by their seeds' digits, so the labels and the
    column widths stay put as the seed changes."""
    from sim.labels import run_label

    names = {run_label(seed, seeds): letter for seed, letter in zip(seeds, RUN_LETTERS, strict=False)}
    table = table.copy()
    table["run"] = table["run"].map(lambda run: names.get(run, run))
    return table


def verdicts_html(verdicts, seeds, first: str, second: str) -> str:
    """A band-rule verdict table (`sim.verdict_table`) as HTML under a line naming its first and
    second setup, its runs called A and B (`runs_caption` gives their seeds) and its headers
    kept on one line, so the table neither wraps nor shifts as the seed changes."""
    from sim.bands import verdict_table
    from sim.config import DEFAULT_SEED

    # verdict_table names its columns by run label only; the lesson seeds' labels are A and B
    letters = tuple(DEFAULT_SEED + k for k in range(len(seeds)))
    table = (
        verdict_table(verdicts, letters)
        .to_html(index=False)
        .replace("<th>", "<th style='white-space:nowrap'>")
    )
    heading = f"first = {first}, second = {second}; difference = second minus first, per run"
    return f"<p style='margin:2px 0'>{html.escape(heading)}</p>{table}"
