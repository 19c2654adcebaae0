"""The control panel every lesson uses: seed, new seed, budget, task, reset; a table and a figure
redrawn in place, a value not allowed refused with a message. Each lesson's view is in `panel_<lesson>`."""

import html
import numbers
import random
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

import ipywidgets as widgets

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED
from sim.model.checks import SEED_LIMIT, check_integer, parse_whole_number
from sim.model.errors import InputError, InputTypeError
from sim.model.tasks import TASK_NAMES, check_task
from sim.presentation.figures import PANEL_DPI, figure_svg
from sim.presentation.notebook_save import RUN_FIRST  # a panel's plain-text form
from sim.presentation.panel_worker import PanelWorker

BUDGET_RANGE = (1, 20)  # steps, what the budget slider allows
NO_TASK = ("seed", "new_seed", "budget", "reset")  # the controls of a panel that runs every task
VIEWS_KEPT = 24  # views a panel keeps, so going back (reset, a switch off again) costs nothing
BUSY_CLASS, PANEL_CLASS = "alm-panel-busy", "alm-panel"
# while it computes, the table and figure fade (at work, not stuck); once its kernel is gone (ipywidgets
# marks it "jupyter-widgets-disconnected", dead controls), the panel shows only its plain line
PANEL_STYLE = (
    f"<style>.{BUSY_CLASS} .widget-html, .{BUSY_CLASS} .widget-image {{opacity: 0.45; transition: opacity 0.15s}}"
    f".{PANEL_CLASS}.jupyter-widgets-disconnected > * {{display: none !important}}"
    f'.{PANEL_CLASS}.jupyter-widgets-disconnected::before {{content: "{RUN_FIRST}"; font: inherit; color: inherit;'
    " display: block; padding: 2px 0}</style>"
)


def seed_of_text(text: str, allowed: str) -> int:
    """The whole number a seed box holds; else InputTypeError saying `allowed` and what it got."""
    try:
        return parse_whole_number(text, "seed")
    except InputError:
        shown = repr(text) if len(text) <= 40 else repr(text[:40]) + f"... ({len(text)} characters)"
        raise InputTypeError(f"{allowed}, got {shown}: the digits 0-9 only") from None


class PanelBox(widgets.VBox):
    """The panel's outer box, whose plain-text form (where the widget cannot be drawn) is RUN_FIRST."""

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle:
            bundle["text/plain"] = RUN_FIRST
        return bundle


@dataclass(frozen=True)
class Settings:
    """What the controls say: seed (run A; run B is seed + 1), budget (steps), task, extra controls by name."""

    seed: int = DEFAULT_SEED
    budget: int = DEFAULT_BUDGET
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
    """Controls and outputs around a lesson's `render(settings) -> View`; reset restores `defaults`,
    `seed_range(extra values)` gives the largest seed and why, `background` as PanelWorker's."""

    def __init__(
        self,
        render: Callable[[Settings], View],
        defaults: Settings,
        controls: tuple[str, ...] = ("seed", "new_seed", "budget", "task", "reset"),
        two_runs: bool = True,
        extra_controls: dict | None = None,
        background: bool | None = None,
        seed_range: Callable[[dict], tuple[int, str]] | None = None,
    ):
        self._render = render
        self.defaults = defaults
        self.seed_max = SEED_LIMIT - (2 if two_runs else 1)
        self._seed_range = seed_range or (
            lambda _extra: (self.seed_max, " (run B uses seed + 1)" if self.seed_max < SEED_LIMIT - 1 else "")
        )
        self.shown_controls = tuple(controls)
        self._random = random.Random()  # this panel's own source of new seeds
        self._quiet = False
        self._worker = PanelWorker(self._compute, self._show, self._failed, background)
        self.seed = widgets.Text(
            value=str(defaults.seed), description="seed", continuous_update=False,
            layout=widgets.Layout(width="220px"),
        )  # fmt: skip
        self.new_seed = widgets.Button(description="new seed", layout=widgets.Layout(width="100px"))
        self.budget = widgets.IntSlider(
            value=defaults.budget, min=BUDGET_RANGE[0], max=BUDGET_RANGE[1], description="budget",
            continuous_update=False, readout=False, layout=widgets.Layout(width="240px"),
        )  # fmt: skip
        # typed budgets go through this box, so one outside the slider's range is refused, not clamped
        self.budget_box = widgets.Text(value=str(defaults.budget), continuous_update=False,
                                       layout=widgets.Layout(width="52px"))  # fmt: skip
        self.task = widgets.Dropdown(options=TASK_NAMES, value=defaults.task, description="task")
        self.reset = widgets.Button(description="reset", layout=widgets.Layout(width="80px"))
        # one line each, kept even when empty: a refusal or a status does not push the table down
        self.message = widgets.HTML(layout=widgets.Layout(min_height="24px"))
        self.status = widgets.HTML(layout=widgets.Layout(min_height="24px"))
        self.table = widgets.HTML()
        self.figure = widgets.Image(format="svg+xml", layout=widgets.Layout(max_width="100%", height="auto"))
        self.text = widgets.HTML()
        budget = widgets.HBox([self.budget, self.budget_box])
        chosen = {"seed": self.seed, "new_seed": self.new_seed, "budget": budget, "task": self.task,
                  "reset": self.reset}  # fmt: skip
        self.extra = dict(extra_controls or {})
        self._extra_defaults = self._extra_values()
        for control in self.extra.values():  # a long description ("max replans") is never cut short
            if getattr(control, "description", "") and hasattr(control, "style"):
                control.style.description_width = "initial"
        row = widgets.HBox([chosen[name] for name in controls] + list(self.extra.values()))
        row.layout.flex_flow = "row wrap"
        self.widget = PanelBox([row, self.message, self.status, widgets.HTML(PANEL_STYLE), self.table,
                                self.figure, self.text])  # fmt: skip
        self.widget.add_class(PANEL_CLASS)  # PANEL_STYLE: its plain line when its kernel is gone
        for control in (self.seed, self.budget, self.task, *self.extra.values()):
            control.observe(self._on_change, names="value")
        self.budget_box.observe(self._on_budget_typed, names="value")
        self.new_seed.on_click(self._on_new_seed)
        self.reset.on_click(self._on_reset)
        self._controls = {self.seed: "seed", self.budget: "budget", self.budget_box: "budget", self.task: "task",
                          **{control: name for name, control in self.extra.items()}}  # fmt: skip
        self._refusals: dict[str, str] = {}  # control -> its refusal, shown until that control changes
        self.settings: Settings | None = None
        self.view: View | None = None
        self.renders = 0
        self._done: dict = {}  # settings -> (view, SVG) this panel drew, VIEWS_KEPT at most
        self._requested = replace(defaults, extra=dict(self._extra_defaults))
        self._show(self._requested, self._compute(self._requested))  # the first view: before it is displayed

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)

    def wait(self, timeout: float | None = 60) -> None:
        """Return once every requested redraw is done (at once unless the panel computes in the background)."""
        self._worker.wait(timeout)

    def _read_seed(self, text: object, extra: dict | None = None) -> int:
        """The seed in the seed box, in the range `extra` (default: now) allows; else InputError."""
        extra = self._extra_values() if extra is None else extra
        seed_max, why = self._seed_range(extra)
        allowed = f"seed must be a whole number 0 <= seed <= {seed_max}{why}"
        if isinstance(text, str):
            seed = seed_of_text(text, allowed)
        else:
            try:
                seed = check_integer(text, "seed")
            except InputError:
                raise InputTypeError(f"{allowed}, got {text!r} ({type(text).__name__})") from None
        if not 0 <= seed <= seed_max:
            raise InputError(f"{allowed}, got {seed}")
        return seed

    def _extra_values(self) -> dict:
        return {name: control.value for name, control in self.extra.items()}

    @contextmanager
    def _quietly(self):
        """Set controls without each change asking for a redraw."""
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False

    def _read_controls(self) -> Settings:  # the slider holds only budgets it allows
        return Settings(
            self._read_seed(self.seed.value),
            self.budget.value,
            check_task(self.task.value).name,
            self._extra_values(),
        )

    def _compute(self, settings: Settings):
        """A redraw's work (any thread): the view and its SVG, from the store when shown before."""
        done = self._done.pop(settings, None)
        if done is None:
            self.renders += 1
            view = self._render(settings)
            done = (view, figure_svg(view.figure))
        self._done[settings] = done  # the most recent last
        while len(self._done) > VIEWS_KEPT:
            self._done.pop(next(iter(self._done)))
        return done

    def _show(self, settings: Settings, result) -> None:
        """Put a computed view on screen (the kernel's main thread) and say what it changed."""
        view, image = result
        width = round(view.figure.get_size_inches()[0] * PANEL_DPI)  # pixels: its own size, not stretched
        changed = [name for name, widget, value in (("table", self.table, view.table_html),
                   ("figure", self.figure, image), ("text", self.text, view.text)) if widget.value != value]  # fmt: skip
        self.table.value, self.figure.value, self.text.value = view.table_html, image, view.text
        self.figure.width = str(width)
        self.settings, self.view = settings, view
        self._show_refusals()  # a refusal stays until its control changes; "still showing" follows
        self.status.value = self._status_line(settings, changed)
        self.widget.remove_class(BUSY_CLASS)
        # only the text below the figure changed (a new task): mark it, it may be out of sight
        self.text.layout.border = "2px solid #F9A825" if changed == ["text"] else ""

    def _status_line(self, settings: Settings, changed: list[str]) -> str:
        where = {"table": "the table", "figure": "the figure", "text": "the text below the figure"}
        redrawn = ", ".join(where[name] for name in changed) or "nothing (same as before)"
        return f"<span style='color:#555'>Showing {html.escape(self._describe(settings))}. Redrawn: {redrawn}.</span>"

    def _describe(self, settings: Settings) -> str:
        parts = [f"seed {settings.seed}", f"budget {settings.budget}"]
        parts += [f"task {settings.task}"] if "task" in self.shown_controls else []
        parts += [
            f"{self._label(name)} {self._value_label(name, value)}" for name, value in settings.extra.items()
        ]
        return ", ".join(parts)

    def _failed(self, settings: Settings, error: Exception) -> None:
        """A request refused (InputError): say why, keep what is shown; any other error: its traceback."""
        self.widget.remove_class(BUSY_CLASS)
        if self._requested == settings:  # nothing newer is on its way: the controls go back
            self._requested = self.settings or self._requested
        if not isinstance(error, InputError):
            self._show_settings()
            trace = getattr(error, "panel_traceback", repr(error))
            self.message.value = f"<pre style='color:#C62828'>{html.escape(trace)}</pre>"
            self.status.value = ""
            return
        shown = self.settings or self.defaults
        changed = [
            name for name in ("seed", "budget", "task") if getattr(settings, name) != getattr(shown, name)
        ]
        changed += [name for name, value in settings.extra.items() if shown.extra.get(name) != value]
        self._refuse(error, changed)

    def _show_settings(self) -> None:
        """Put every control back to the settings last asked for, without redrawing."""
        shown = self._requested
        with self._quietly():
            self.seed.value, self.budget.value, self.task.value = str(shown.seed), shown.budget, shown.task
            self.budget_box.value = str(shown.budget)
            for name, control in self.extra.items():
                control.value = shown.extra[name]

    def _refuse(self, error: Exception, controls=()) -> None:
        """Refuse a value: the controls go back, the refusal stays until one of `controls` changes again."""
        self._show_settings()
        computing = self.settings is not None and self._requested != self.settings
        if self.settings is not None and not computing:  # not "Computing ...": what is on screen stays
            self.status.value = (
                f"<span style='color:#555'>Showing {html.escape(self._describe(self.settings))}.</span>"
            )
            self.widget.remove_class(BUSY_CLASS)
        text = f"Refused: {str(error).rstrip('.')}."
        for control in controls or ("",):
            self._refusals.pop(control, None)
            self._refusals[control] = text  # the latest last
        self._show_refusals()

    def _show_refusals(self) -> None:
        """The message line: each refusal still standing, then what the panel still shows."""
        if not self._refusals:
            self.message.value = ""
            return
        texts = list(dict.fromkeys(self._refusals.values()))
        if self.settings is not None:
            texts[-1] += f" Still showing {self._describe(self.settings)}."
        self.message.value = "<br>".join(
            f"<span style='color:#C62828'>{html.escape(t)}</span>" for t in texts
        )

    def _on_change(self, change=None, controls=None) -> None:
        if self._quiet:
            return
        if controls is None:
            controls = (
                [self._controls[change["owner"]]] if change else list(dict.fromkeys(self._controls.values()))
            )
        try:
            settings = self._read_controls()
        except InputError as error:  # bad input only: a bug in a view shows as the traceback it is
            self._refuse(error, controls)
            return
        self._requested = settings
        self._show_settings()  # the box shows the value used (" 42 " becomes "42")
        for control in (*controls, ""):  # changed again: its refusal goes (and one not tied to a control)
            self._refusals.pop(control, None)
        self._show_refusals()
        self.status.value = (f"<span style='color:#1565C0'>Computing {html.escape(self._describe(settings))}"
                             "&hellip;</span>")  # fmt: skip
        self.widget.add_class(BUSY_CLASS)
        self._worker.request(settings)

    def _on_budget_typed(self, _change=None) -> None:
        if self._quiet:
            return
        try:
            budget = parse_whole_number(self.budget_box.value, "budget")
            budget = self._check_value("budget", self.budget, budget)
        except InputError as error:
            allowed = f"budget must be an integer {self.budget.min}..{self.budget.max}"
            self._refuse(error if str(error).startswith(allowed) else InputTypeError(
                f"{allowed}, got {self.budget_box.value!r}"), ["budget"])  # fmt: skip
            return
        with self._quietly():
            self.budget.value = budget
        self._on_change(controls=["budget"])

    def _on_new_seed(self, _button=None) -> None:
        seed_max, _why = self._seed_range(self._extra_values())
        self.seed.value = str(self._random.randrange(seed_max + 1))

    def _on_reset(self, _button=None) -> None:
        self.set(seed=self.defaults.seed, budget=self.defaults.budget, task=self.defaults.task,
                 **self._extra_defaults)  # fmt: skip

    def _label(self, name: str) -> str:
        """The name a student sees on an extra control (its description), else its key."""
        return getattr(self.extra[name], "description", "") or name

    def _value_label(self, name: str, value) -> str:
        """A dropdown value as its label on screen, a switch as on/off; other values as they are."""
        if isinstance(value, bool):
            return "on" if value else "off"
        for option in getattr(self.extra[name], "options", ()):
            if isinstance(option, tuple) and option[1] == value:
                return str(option[0])
        return str(value)

    def _check_value(self, name: str, control, value):
        """`value` if `control` can hold it exactly, else InputTypeError/InputError naming the control."""
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
        """Set several controls (extra ones by name) and redraw once; a value refused changes nothing."""
        checks = {
            "seed": (self.seed, seed, lambda v: str(self._read_seed(v, {**self._requested.extra, **extra}))),
            "budget": (self.budget, budget, lambda v: self._check_value("budget", self.budget, v)),
            "task": (self.task, task, lambda v: check_task(v).name),
        }
        checks.update({n: (self.extra.get(n), v, lambda v, n=n: self._check_value(n, self.extra[n], v))
                       for n, v in extra.items()})  # fmt: skip
        named = [name for name, (_control, value, _check) in checks.items() if value is not None]
        wanted, name = [], None
        try:
            unknown = sorted(set(extra) - set(self.extra))
            if unknown:
                name = ""  # no control of this panel: the refusal goes at the next change
                raise InputError(
                    f"unknown control {unknown[0]!r}; this panel has {', '.join(self.extra) or 'none'}"
                )
            for name in named:
                control, value, check = checks[name]
                wanted.append((control, check(value)))
        except InputError as error:
            self._refuse(error, [name])  # the refusal is about the value refused
            return
        with self._quietly():
            for control, value in wanted:
                control.value = value
        self._on_change(controls=named)


def pre_html(text: str) -> str:
    """Text as a <pre> block for a panel's HTML widgets (escaped)."""
    return f"<pre style='font-size:12px;line-height:1.3'>{html.escape(text)}</pre>"
