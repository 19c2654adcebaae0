"""The control panel of lesson 6, your own agent: a policy scored against the built-in single loop at
the seed and the next seed (band rule), and success against cost over a block of seeds from the seed.
"""

from collections.abc import Callable, Mapping
from functools import lru_cache

import ipywidgets as widgets

from sim.engine.policy import check_policy, model_policy, stop_when_goal_met
from sim.measurement.harness import NOTHING_SOLVED, cost_success, entrant_label, entrant_run, route, run_bands
from sim.measurement.many_seeds import paired_difference, signed
from sim.model.checks import SEED_LIMIT
from sim.model.errors import InputError, InputTypeError
from sim.presentation.figures_your_agent import draw_panel_cost_success
from sim.presentation.panel import NO_TASK, ControlPanel, Settings, View, pre_html

PANEL_SEEDS = 40  # seeds of the cost-success figure: a redraw within benchmarks/browser_latency.py's 150 ms
BASELINE = "single-loop"
ROUTER = route({"amount": "single-loop", "m3": "single-loop", "code": "single-loop",
                "written": "plan-execute"})  # fmt: skip


def panel_policies(extra: Mapping[str, Callable] | None = None) -> dict:
    """The policies the panel offers by label: the built-in three and `extra` (label -> policy function).

    Raises InputTypeError for `extra` that is not a mapping of labels to functions."""
    policies = {"model's proposal (single loop)": model_policy, "stop when goal met": stop_when_goal_met,
                "router (record: split)": ROUTER}  # fmt: skip
    if extra is not None:
        if not isinstance(extra, Mapping):
            raise InputTypeError(
                f"extra must be a mapping label -> policy function, got {type(extra).__name__}"
            )
        policies.update({str(label): check_policy(policy, "extra") for label, policy in extra.items()})
    return policies


def _per_success(value: float) -> str:
    """Tokens per solved task as the panel prints it; NaN: nothing solved."""
    return NOTHING_SOLVED if value != value else f"{value:.4f}"


def your_agent_view(settings: Settings, policies: Mapping | None = None, run=entrant_run) -> View:
    """Lesson 6's view: the policy against the single loop over PANEL_SEEDS seeds (same-seed differences
    with 95 % t intervals, the headline), the band rule at (seed, seed + 1) beside them, and the
    success-cost plane over those seeds; `run`: as `entrant_run` (a panel passes a cached one).

    Raises InputError for a policy label the panel does not offer, or a seed block reaching 2**32."""
    policies = panel_policies() if policies is None else policies
    label = settings.extra.get("policy", "stop when goal met")
    if label not in policies:
        raise InputError(f"policy must be one of {', '.join(policies)}, got {label!r}")
    if settings.seed + PANEL_SEEDS > SEED_LIMIT:
        raise InputError(
            f"seed must be at most {SEED_LIMIT - PANEL_SEEDS} for the panel's {PANEL_SEEDS} seeds"
        )
    block = range(settings.seed, settings.seed + PANEL_SEEDS)
    built_in = {e: run(e, block, settings.budget) for e in ("single-loop", "plan-execute")}
    policy_runs = run(policies[label], block, settings.budget)
    # the band rule at seed, seed + 1: the block's first two seeds (each seed's run is its own)
    verdicts = run_bands(built_in[BASELINE].head(2), policy_runs.head(2))
    lines = [f"{label} minus the single loop, budget {settings.budget}, {PANEL_SEEDS} seeds from {settings.seed}: "
             "mean [95 % interval]"]  # fmt: skip
    for v in verdicts:
        many = paired_difference(built_in[BASELINE], policy_runs, v.unit)
        lines.append(f"{v.unit:12} {signed(many['mean'], v.unit)} [{signed(many['low'], v.unit)}, "
                     f"{signed(many['high'], v.unit)}]")  # fmt: skip
    lines += ["", f"beside it, the band rule at seeds {settings.seed}, {settings.seed + 1} (2 runs):"]
    lines += [
        f"{v.unit:12} single loop {v.first}  policy {v.second}  band {v.band}  {v.verdict}" for v in verdicts
    ]
    runs = {entrant_label(e): built_in[e] for e in ("single-loop", "plan-execute")}
    runs[label] = policy_runs
    frame = cost_success(runs, per_success_interval=False)  # the panel shows no interval for it
    shown = frame[["entrant", "success", "tokens"]].assign(
        **{"tokens per success": frame["tokens_per_success"].map(_per_success)}
    )
    text = shown.to_string(index=False, float_format="{:.4f}".format)
    return View(
        table_html=pre_html("\n".join(lines)),
        figure=draw_panel_cost_success(frame, f"from seed {settings.seed}, budget {settings.budget}"),
        text=pre_html(text),
        data={"verdicts": verdicts, "cost": frame},
    )


def your_agent_panel(policies: Mapping[str, Callable] | None = None) -> ControlPanel:
    """Lesson 6's control panel; `policies`: more to offer, label -> function. Raises InputTypeError."""
    offered = panel_policies(policies)
    choice = widgets.Dropdown(options=list(offered), value="stop when goal met", description="policy")
    run = lru_cache(maxsize=12)(entrant_run)  # this panel's runs over seed blocks, reused across policies
    return ControlPanel(
        lambda settings: your_agent_view(settings, offered, run),
        Settings(),
        controls=NO_TASK,
        extra_controls={"policy": choice},
    )
