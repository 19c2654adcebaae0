"""The control panel every lesson uses: seed, new seed, step budget, task, reset; a table and a figure redrawn in place.

The panel is built from ipywidgets. What it shows lives in kernel-side widgets (`HTML` for
the table and the trace, `Image` for the figure), so plain Python can set a control and read
what the panel now shows. A value that is not allowed is refused with a message in the
panel; the previous table and figure stay and the panel keeps working. Introduced in
lesson 2, planner and executor.
"""

import html
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import ipywidgets as widgets

from sim.agents import DEFAULT_BUDGET, DEFAULT_SEED, run_plan_execute
from sim.bands import compare_setups, verdict_table
from sim.checks import SEED_LIMIT, check_budget, check_seed, check_task
from sim.figures import draw_band_chart, draw_outcome_grid, figure_png
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
        self.figure = widgets.Image(format="png")
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

    def _read_controls(self) -> Settings:
        text = self.seed.value.strip().replace("_", "")
        allowed = f"seed must be a whole number 0 <= seed <= {self.seed_max}"
        if self.seed_max < SEED_LIMIT - 1:
            allowed += " (run B uses seed + 1)"
        try:
            seed = int(text)
        except ValueError:
            raise TypeError(f"{allowed}, got {text!r}") from None
        if not 0 <= seed <= self.seed_max:
            raise ValueError(f"{allowed}, got {seed}")
        return Settings(
            check_seed(seed),
            check_budget(self.budget.value, "budget"),
            check_task(self.task.value).name,
            {name: control.value for name, control in self.extra.items()},
        )

    def _redraw(self, settings: Settings) -> None:
        view = self._render(settings)
        png = figure_png(view.figure)
        self.table.value, self.figure.value, self.text.value = view.table_html, png, view.text
        self.settings, self.view = settings, view
        self.message.value = ""

    def _refuse(self, error: Exception) -> None:
        shown = self.settings
        kept = f" Still showing seed {shown.seed}, budget {shown.budget}, task {shown.task}." if shown else ""
        self.message.value = f"<span style='color:#C62828'>Refused: {html.escape(str(error))}.{kept}</span>"

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

    def set(self, seed=None, budget=None, task=None, **extra) -> None:
        """Set several controls at once and redraw once (what the reset button does).

        A value the controls cannot hold (a budget outside 1..20, an unknown task, an unknown
        extra control) is refused with a message in the panel, and nothing changes. Extra
        controls are set by name: `panel.set(self_critique=True)`.
        """
        try:
            unknown = sorted(set(extra) - set(self.extra))
            if unknown:
                raise ValueError(
                    f"unknown control {unknown[0]!r}; this panel has {', '.join(self.extra) or 'none'}"
                )
            if budget is not None:
                budget = check_budget(budget, "budget")
                if not BUDGET_RANGE[0] <= budget <= BUDGET_RANGE[1]:
                    raise ValueError(
                        f"budget must be an integer {BUDGET_RANGE[0]}..{BUDGET_RANGE[1]}, got {budget}"
                    )
            if task is not None:
                task = check_task(task).name
        except (TypeError, ValueError) as error:
            self._refuse(error)
            return
        self._quiet = True
        try:
            if seed is not None:
                self.seed.value = str(seed)
            if budget is not None:
                self.budget.value = budget
            if task is not None:
                self.task.value = task
            for name, value in extra.items():
                self.extra[name].value = value
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
    accuracy = "\n".join(format_plan_accuracy(plan_accuracy(seed)) for seed in seeds)
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
            parts.append(f"run {run_label(seed)}: {m.approvals} approvals asked, {len(stray)} of them "
                         f"write_record calls in tasks that never asked for a record")  # fmt: skip
    table_html = _pre("\n\n".join(parts))
    if verdicts is not None:
        table_html += "<p>first = no switch, second = with the switches</p>"
        table_html += verdict_table(verdicts, seeds).to_html(index=False)
    depth = {run_label(seed): depth_picks(seed, settings.budget) for seed in seeds}
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
