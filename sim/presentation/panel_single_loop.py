"""The control panel of lesson 1, the single loop, with its self-critique and approval switches."""

import ipywidgets as widgets

from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED
from sim.engine.loops import loop_steps
from sim.engine.runs import run_single_loop
from sim.measurement.bands import compare_setups
from sim.measurement.counts import measure
from sim.measurement.traces import depth_picks, recovery_task, side_effect_calls
from sim.presentation.figures_single_loop import draw_depth_shares
from sim.presentation.panel import ControlPanel, Settings, View, pre_html
from sim.presentation.panel_runs import RUN_LETTERS, lettered_table, runs_caption, verdicts_html
from sim.presentation.tables import loop_step_table


def single_loop_view(settings: Settings) -> View:
    """Lesson 1's view at (seed, seed + 1): counted units (against the plain loop), picks by depth, steps."""
    critique = bool(settings.extra.get("self_critique", False))
    approval = bool(settings.extra.get("approval", False))
    seeds = (settings.seed, settings.seed + 1)
    plain = [measure("single-loop", seed, settings.budget) for seed in seeds]
    parts = ["single loop, no switch\n" + lettered_table(plain, seeds)]
    verdicts, switched = None, None
    if critique or approval:
        switched = [
            measure("single-loop", seed, settings.budget, self_critique=critique, approval=approval)
            for seed in seeds
        ]
        names = " and ".join(name for name, on in (("self-critique", critique), ("approval", approval)) if on)
        parts.append(f"single loop with {names}\n" + lettered_table(switched, seeds))
        verdicts = compare_setups(plain, switched)
    if approval:
        for seed, letter, m in zip(seeds, RUN_LETTERS, switched, strict=True):
            calls = side_effect_calls(seed, settings.budget)
            stray = calls[~calls["asked_for_record"]]
            parts.append(f"run {letter}: {m.approvals} approvals asked, {len(stray)} of them "
                         f"write_record calls in tasks that never asked for a record")  # fmt: skip
    table_html = runs_caption(seeds) + pre_html("\n\n".join(parts))
    if verdicts is not None:
        table_html += verdicts_html(verdicts, seeds, "no switch", "with the switches")
    depth = {
        letter: depth_picks(seed, settings.budget) for seed, letter in zip(seeds, RUN_LETTERS, strict=True)
    }
    run = run_single_loop(
        settings.task, settings.seed, settings.budget, self_critique=critique, approval=approval
    )
    walk = loop_step_table(loop_steps(run, critique)).to_string(index=False)
    depth_text = "\n\n".join(
        f"run {label}\n{table.to_string(index=False, float_format='{:.4f}'.format)}"
        for label, table in depth.items()
    )  # shares with 4 decimals, as every lesson prints them
    return View(
        table_html=table_html,
        figure=draw_depth_shares(depth),
        text=pre_html(
            f"{settings.task}, seed {settings.seed}, budget {settings.budget}\n{walk}\n\n{depth_text}"
        ),
        data={"plain": plain, "switched": switched, "verdicts": verdicts, "depth": depth},
    )


def single_loop_panel() -> ControlPanel:
    """Lesson 1's control panel, with the self-critique and approval switches; its task: `recovery_task`."""
    switches = {
        "self_critique": widgets.Checkbox(value=False, description="self-critique", indent=False),
        "approval": widgets.Checkbox(value=False, description="approval", indent=False),
    }
    defaults = Settings(DEFAULT_SEED, DEFAULT_BUDGET, recovery_task(DEFAULT_SEED, DEFAULT_BUDGET))
    return ControlPanel(single_loop_view, defaults, extra_controls=switches)
