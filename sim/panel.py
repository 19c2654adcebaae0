"""The control panel every lesson uses: seed, new seed, step budget, task, reset; a table and a figure redrawn in place.

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
import pandas as pd

from sim.agents import DEFAULT_BUDGET, DEFAULT_SEED, run_plan_execute
from sim.bands import compare_setups, verdict_table
from sim.checks import SEED_LIMIT, check_budget, check_seed, check_task
from sim.figures import PANEL_DPI, draw_band_chart, draw_outcome_grid, figure_svg
from sim.measure import (
    OUTCOMES,
    SETUP_LABELS,
    format_plan_accuracy,
    format_table,
    format_trace,
    measure,
    outcome_grid,
    plan_accuracy,
    seed_table,
)
from sim.tasks import TASK_NAMES

BUDGET_RANGE = (1, 20)  # steps, what the budget slider allows
LOOP_SETUPS = ("single-loop", "plan-execute")  # the setups lesson 3's stopping rule applies to


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
        """The seed typed in the seed box, or TypeError/ValueError saying what is allowed."""
        allowed = f"seed must be a whole number 0 <= seed <= {self.seed_max}"
        if self.seed_max < SEED_LIMIT - 1:
            allowed += " (run B uses seed + 1)"
        text = str(text).strip().replace("_", "")
        shown = repr(text) if len(text) <= 40 else repr(text[:40]) + f"... ({len(text)} characters)"
        try:
            seed = int(text)
        except ValueError:
            raise TypeError(f"{allowed}, got {shown}") from None
        if not 0 <= seed <= self.seed_max:
            raise ValueError(f"{allowed}, got {shown}")
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
        except (TypeError, ValueError) as error:  # bad input, or a view that cannot be drawn
            self._refuse(error)

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
                raise TypeError(f"{name} must be True or False, got {value!r}")
        elif isinstance(control, widgets.Dropdown):
            offered = [option[1] if isinstance(option, tuple) else option for option in control.options]
            if value not in offered:
                raise ValueError(f"{name} must be one of {', '.join(map(str, offered))}, got {value!r}")
        elif hasattr(control, "min") and hasattr(control, "max"):
            step = getattr(control, "step", 1) or 1
            allowed = f"{name} must be an integer {control.min}..{control.max}"
            allowed += f" in steps of {step}" if step != 1 else ""
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{allowed}, got {value!r}")
            if not control.min <= value <= control.max or (value - control.min) % step:
                raise ValueError(f"{allowed}, got {value!r}")
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
                raise ValueError(
                    f"unknown control {unknown[0]!r}; this panel has {', '.join(self.extra) or 'none'}"
                )
            wanted = [
                (self.seed, None if seed is None else str(self._read_seed(seed))),
                (self.budget, None if budget is None else self._check_value("budget", self.budget, budget)),
                (self.task, None if task is None else check_task(task).name),
            ]
            wanted += [(self.extra[n], self._check_value(n, self.extra[n], v)) for n, v in extra.items()]
        except (TypeError, ValueError) as error:
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


def _pre(text: str) -> str:
    return f"<pre style='font-size:12px;line-height:1.3'>{html.escape(text)}</pre>"


def planner_executor_view(settings: Settings) -> View:
    """Lesson 2's view: the four-row table and band verdicts for seeds (seed, seed + 1) at the
    budget, the band chart, and the chosen task's walk-through under the split."""
    seeds = (settings.seed, settings.seed + 1)
    single = [measure("single-loop", seed, settings.budget) for seed in seeds]
    split = [measure("plan-execute", seed, settings.budget) for seed in seeds]
    verdicts = compare_setups(single, split)
    table_text = format_table(seed_table(single + split))
    accuracy = "\n".join(format_plan_accuracy(plan_accuracy(seed), seeds) for seed in seeds)
    walk = format_trace(run_plan_execute(settings.task, settings.seed, settings.budget))
    return View(
        table_html=_pre(table_text) + verdict_table(verdicts, seeds).to_html(index=False),
        figure=draw_band_chart(verdicts),
        text=_pre(accuracy + "\n\n" + walk),
        data={"measurements": single + split, "verdicts": verdicts},
    )


def planner_executor_panel() -> ControlPanel:
    """The control panel of lesson 2 (planner and executor): defaults seed 20260218, budget 8, task G05."""
    return ControlPanel(planner_executor_view, Settings(DEFAULT_SEED, DEFAULT_BUDGET, "G05"))


def step_budget_view(settings: Settings) -> View:
    """Lesson 3's view: both setups at (seed, seed + 1) and the budget under the chosen stopping
    rule, and the outcome grid (task x budgets 1..budget) of the chosen setup at the seed."""
    setup, stop = settings.extra.get("setup", "plan-execute"), settings.extra.get("stop_when_done", False)
    seeds = (settings.seed, settings.seed + 1)
    measurements = [
        measure(name, seed, settings.budget, stop_when_done=stop) for name in LOOP_SETUPS for seed in seeds
    ]
    grid = outcome_grid(setup, settings.seed, range(1, settings.budget + 1), stop_when_done=stop)
    counts = grid[settings.budget].value_counts().reindex(OUTCOMES, fill_value=0).rename_axis(None)
    rule = "stop when done" if stop else "fixed budget"
    title = f"{SETUP_LABELS[setup]}, seed {settings.seed}, {rule}"
    return View(
        table_html=_pre(format_table(seed_table(measurements))),
        figure=draw_outcome_grid(grid, title),
        text=_pre(f"outcomes at budget {settings.budget} ({title}):\n{counts.to_string()}"),
        data={"measurements": measurements, "grid": grid},
    )


def step_budget_panel() -> ControlPanel:
    """The control panel of lesson 3 (the step budget): seed, budget, setup and stopping rule."""
    setup = widgets.Dropdown(options=[(SETUP_LABELS[name], name) for name in LOOP_SETUPS], value="plan-execute",
                             description="setup")  # fmt: skip
    stop = widgets.Checkbox(value=False, description="stop when done")
    return ControlPanel(
        step_budget_view,
        Settings(DEFAULT_SEED, DEFAULT_BUDGET, "G05"),
        controls=("seed", "new_seed", "budget", "reset"),
        extra_controls={"setup": setup, "stop_when_done": stop},
    )


def single_loop_view(settings: Settings) -> View:
    """Lesson 1's view for seeds (seed, seed + 1) at the budget.

    Table: the single loop's counted units; with a switch on (settings.extra "self_critique",
    "approval"), also the units with the switches and the band-rule verdicts against the plain
    loop, and the approvals asked (all, and those in tasks that never asked for a record).
    Figure: right picks by depth, measured per run, beside selection(d) and the expected share.
    Text: the chosen task's steps.
    """
    from sim.agents import loop_steps, run_single_loop
    from sim.figures import draw_depth_shares
    from sim.measure import depth_picks, loop_step_table, run_label, side_effect_calls

    critique = bool(settings.extra.get("self_critique", False))
    approval = bool(settings.extra.get("approval", False))
    seeds = (settings.seed, settings.seed + 1)
    plain = [measure("single-loop", seed, settings.budget) for seed in seeds]
    parts = ["single loop, no switch\n" + format_table(seed_table(plain))]
    verdicts, switched = None, None
    if critique or approval:
        switched = [measure("single-loop", seed, settings.budget, critique, approval) for seed in seeds]
        names = " and ".join(name for name, on in (("self-critique", critique), ("approval", approval)) if on)
        parts.append(f"single loop with {names}\n" + format_table(seed_table(switched)))
        verdicts = compare_setups(plain, switched)
    if approval:
        for seed, m in zip(seeds, switched, strict=True):
            calls = side_effect_calls(seed, settings.budget)
            stray = calls[~calls["asked_for_record"]]
            parts.append(f"run {run_label(seed, seeds)}: {m.approvals} approvals asked, {len(stray)} of them "
                         f"write_record calls in tasks that never asked for a record")  # fmt: skip
    table_html = _pre("\n\n".join(parts))
    if verdicts is not None:
        table_html += "<p>first = no switch, second = with the switches</p>"
        table_html += verdict_table(verdicts, seeds).to_html(index=False)
    depth = {run_label(seed, seeds): depth_picks(seed, settings.budget) for seed in seeds}
    run = run_single_loop(settings.task, settings.seed, settings.budget, critique, approval)
    walk = loop_step_table(loop_steps(run, critique)).to_string(index=False)
    depth_text = "\n\n".join(f"run {label}\n{table.to_string(index=False)}" for label, table in depth.items())
    return View(
        table_html=table_html,
        figure=draw_depth_shares(depth),
        text=_pre(f"{settings.task}, seed {settings.seed}, budget {settings.budget}\n{walk}\n\n{depth_text}"),
        data={"plain": plain, "switched": switched, "verdicts": verdicts, "depth": depth},
    )


def single_loop_panel() -> ControlPanel:
    """The control panel of lesson 1 (the single loop): seed, new seed, budget, task, reset, and the
    two switches self-critique and approval; defaults seed 20260218, budget 8, both switches off,
    and the task the lesson walks through (`sim.recovery_task` at the defaults)."""
    from sim.measure import recovery_task

    switches = {
        "self_critique": widgets.Checkbox(value=False, description="self-critique", indent=False),
        "approval": widgets.Checkbox(value=False, description="approval", indent=False),
    }
    defaults = Settings(DEFAULT_SEED, DEFAULT_BUDGET, recovery_task(DEFAULT_SEED, DEFAULT_BUDGET))
    return ControlPanel(single_loop_view, defaults, extra_controls=switches)


CONTRACT_SETUPS = ("single-loop", "plan-execute", "contract")
MAX_REPLANS_RANGE = (0, 5)  # replans, what the max_replans slider allows
MAX_TOKENS_RANGE = (100, 2000, 50)  # tokens: min, max, step of the max_tokens slider


def contract_view(settings: Settings) -> View:
    """Lesson 4's view: the three setups at seeds (seed, seed + 1) and the budget, the contract
    with the panel's max_replans and max_tokens (rule CT11); the seed's table, the exit-state
    counts (CT12) and the contract-against-split verdicts; the exit-state figure; the chosen
    task's contract run, event by event."""
    from sim.contract import format_events, run_contract
    from sim.figures import draw_exit_states
    from sim.measure import exit_state_frame

    seeds = (settings.seed, settings.seed + 1)
    options = {"max_replans": settings.extra["max_replans"], "max_tokens": settings.extra["max_tokens"]}
    by_setup = {
        setup: [
            measure(setup, seed, settings.budget, **(options if setup == "contract" else {}))
            for seed in seeds
        ]
        for setup in CONTRACT_SETUPS
    }
    table_text = format_table(seed_table([m for runs in by_setup.values() for m in runs]))
    exits = exit_state_frame(CONTRACT_SETUPS, seeds, settings.budget, **options)
    verdicts = compare_setups(by_setup["plan-execute"], by_setup["contract"])
    run = run_contract(settings.task, settings.seed, settings.budget, **options)
    walk = (format_trace(run) + f"\n  exit state {run.exit_state}  stop reason {run.stop_reason}"
            f"  replans {run.replans}\n" + format_events(run))  # fmt: skip
    return View(
        table_html=_pre(table_text + "\n\n" + exits.to_string(index=False))
        + "<p>first = planner + executor, second = contract</p>"
        + verdict_table(verdicts, seeds).to_html(index=False),
        figure=draw_exit_states(exits),
        text=_pre(walk),
        data={"measurements": by_setup, "exits": exits, "verdicts": verdicts, "run": run},
    )


def contract_panel() -> ControlPanel:
    """The control panel of lesson 4 (the contract): seed, new seed, budget, task, reset, and the
    contract's own max_replans and max_tokens sliders; defaults seed 20260218, budget 8, task G05,
    max_replans 2, max_tokens 1000 (rule CT11)."""
    from sim.contract import DEFAULT_MAX_REPLANS, DEFAULT_MAX_TOKENS

    extra = {
        "max_replans": widgets.IntSlider(
            value=DEFAULT_MAX_REPLANS, min=MAX_REPLANS_RANGE[0], max=MAX_REPLANS_RANGE[1],
            description="max_replans", continuous_update=False,
        ),
        "max_tokens": widgets.IntSlider(
            value=DEFAULT_MAX_TOKENS, min=MAX_TOKENS_RANGE[0], max=MAX_TOKENS_RANGE[1], step=MAX_TOKENS_RANGE[2],
            description="max_tokens", continuous_update=False,
        ),
    }  # fmt: skip
    return ControlPanel(contract_view, Settings(DEFAULT_SEED, DEFAULT_BUDGET, "G05"), extra_controls=extra)


# ---- lesson 5, how many seeds

PANEL_RESAMPLES = 1000  # bootstrap resamples in the panel (the lesson's cells use 10,000), for speed
MAX_STUDY_SEEDS = 10000
PANEL_UNITS = ("success", "tokens", "tool errors")


def _study_labels(first: str, second: str) -> tuple[str, str]:
    return (first, second) if first != second else (f"{first} (first)", f"{second} (second)")


def how_many_seeds_view(settings: Settings, runs: dict | None = None) -> View:
    """Lesson 5's view: two setups over the seeds seed, seed + 1, ..., seed + N - 1 at the budget.

    Settings: seed (the study's first seed), budget (steps), and the extra controls n_seeds (N),
    first and second (labels of sim.study.SETUP_CHOICES). The table gives each unit's means, the
    paired difference (second minus first) and its 95 % percentile bootstrap intervals, resampling
    seeds and resampling tasks (PANEL_RESAMPLES resamples, resampling seed 2026); the figure is
    the distributions over the N seeds with the first two seeds marked A and B.

    `runs`, when given, is a dict the view keeps batch runs in, keyed by (first seed, budget,
    setup label), each over MAX_STUDY_SEEDS seeds where they fit below 2**32: moving the
    number-of-seeds slider then only cuts them (`BatchRun.head`). The panel owns that dict.

    Raises
    ------
    ValueError
        When the last seed, seed + N - 1, would reach 2**32, or for an unknown setup label.
    """
    from sim.batch import run_batch, study_seeds
    from sim.figures import draw_seed_distributions
    from sim.study import SETUP_CHOICES, UNITS, paired_interval

    n_seeds = settings.extra.get("n_seeds", MAX_STUDY_SEEDS)
    chosen = (settings.extra.get("first", "single loop"), settings.extra.get("second", "planner + executor"))
    for name, label in zip(("first", "second"), chosen, strict=True):
        if label not in SETUP_CHOICES:
            raise ValueError(f"{name} must be one of {', '.join(SETUP_CHOICES)}, got {label!r}")
    last = settings.seed + n_seeds - 1
    if last >= SEED_LIMIT:
        raise ValueError(f"seed + n_seeds - 1 must stay below 2**32 (the study's last seed), got {last}")
    runs = {} if runs is None else runs
    size = MAX_STUDY_SEEDS if settings.seed + MAX_STUDY_SEEDS <= SEED_LIMIT else n_seeds
    pair = []
    for label in chosen:
        key = (settings.seed, settings.budget, label, size)
        if key not in runs:
            if len(runs) >= 8:
                runs.clear()
            setup, critique, approval = SETUP_CHOICES[label]
            runs[key] = run_batch(
                setup, study_seeds(size, settings.seed), settings.budget, critique, approval
            )
        pair.append(runs[key].head(n_seeds))
    first, second = pair
    columns = _study_labels(*chosen)
    rows = []
    for unit in PANEL_UNITS:
        by_way = {
            way: paired_interval(first, second, unit, n_seeds, way, PANEL_RESAMPLES)
            for way in ("seeds", "tasks")
        }
        field, how = UNITS[unit]
        scale = 1 / first.correct.shape[0] if how == "share" else 1
        rows.append({
            "unit": unit,
            columns[0]: f"{getattr(first, field).sum(axis=0).mean() * scale:.4f}",
            columns[1]: f"{getattr(second, field).sum(axis=0).mean() * scale:.4f}",
            "difference": f"{by_way['seeds'].difference:.4f}",
            "95 % interval, resampling seeds": f"[{by_way['seeds'].low:.4f}, {by_way['seeds'].high:.4f}]",
            "95 % interval, resampling tasks": f"[{by_way['tasks'].low:.4f}, {by_way['tasks'].high:.4f}]",
        })  # fmt: skip
    table = pd.DataFrame(rows)
    figure = draw_seed_distributions(
        {columns[0]: first.per_seed(), columns[1]: second.per_seed()}, marked=(0, 1),
        title=f"{n_seeds} seeds from {settings.seed}, budget {settings.budget}; dashed: seeds {settings.seed} (A) "
              f"and {settings.seed + 1} (B)",
    )  # fmt: skip
    note = (
        f"seeds {settings.seed}..{last}; difference = {chosen[1]} minus {chosen[0]}, per run of 24 tasks "
        f"(success as a share of tasks); intervals: 95 % percentile bootstrap, {PANEL_RESAMPLES} resamples "
        f"in this panel (10000 in the lesson's cells), resampling seed 2026."
    )
    return View(
        table.to_html(index=False), figure, _pre(note), {"first": first, "second": second, "table": table}
    )


def how_many_seeds_panel() -> ControlPanel:
    """The control panel of lesson 5 (how many seeds): first seed 20260218, budget 8, 10000 seeds,
    single loop against planner + executor; a number-of-seeds slider and the two setups to compare."""
    from sim.study import SETUP_CHOICES

    extra = {
        "n_seeds": widgets.IntSlider(value=MAX_STUDY_SEEDS, min=10, max=MAX_STUDY_SEEDS, step=10,
                                     description="seeds", continuous_update=False),
        "first": widgets.Dropdown(options=list(SETUP_CHOICES), value="single loop", description="first"),
        "second": widgets.Dropdown(options=list(SETUP_CHOICES), value="planner + executor", description="second"),
    }  # fmt: skip
    runs = {}  # this panel's batch runs, reused while only the number of seeds moves

    def render(settings: Settings) -> View:
        return how_many_seeds_view(settings, runs)

    return ControlPanel(
        render, Settings(DEFAULT_SEED, DEFAULT_BUDGET, "G05"),
        controls=("seed", "new_seed", "budget", "reset"), two_runs=False, extra_controls=extra,
    )  # fmt: skip
