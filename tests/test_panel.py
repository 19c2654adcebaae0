"""The control panel in plain pytest: set a control, read what the panel shows, compare with sim."""

import html

import pytest

import sim
from sim import run_plan_execute
from sim.measurement.bands import compare_setups
from sim.measurement.counts import measure
from sim.presentation.figures import figure_png
from sim.presentation.panel import ControlPanel, Settings, View
from sim.presentation.panel_planner_executor import planner_executor_panel
from sim.presentation.panel_runs import lettered
from sim.presentation.tables import format_table, seed_table


def _expected_table(seed, budget):
    seeds = (seed, seed + 1)
    table = seed_table([measure(s, x, budget) for s in ("single-loop", "plan-execute") for x in seeds])
    return format_table(lettered(table, seeds))


def _shown_table(panel):
    return html.unescape(panel.table.value)


@pytest.fixture
def panel():
    return planner_executor_panel()


def test_panel_starts_at_the_lessons_defaults(panel):
    assert panel.settings == Settings(20260218, 8, "G05")
    assert _expected_table(20260218, 8) in _shown_table(panel)
    assert b"<svg" in bytes(panel.figure.value)[:400]
    assert "steps 8  tokens 805  tool errors 3  answer 550" in html.unescape(panel.text.value)


def test_changing_seed_and_budget_redraws_table_figure_and_trace(panel):
    before_png = panel.figure.value
    panel.seed.value = "777"
    panel.budget.value = 4
    assert panel.settings == Settings(777, 4, "G05")
    assert _expected_table(777, 4) in _shown_table(panel)
    assert panel.figure.value != before_png
    single = [measure("single-loop", s, 4) for s in (777, 778)]
    split = [measure("plan-execute", s, 4) for s in (777, 778)]
    shown_verdicts = panel.view.data["verdicts"]
    assert [v.verdict for v in shown_verdicts] == [v.verdict for v in compare_setups(single, split)]
    panel.task.value = "G24"
    run = run_plan_execute("G24", 777, 4)
    assert f"steps {run.steps}  tokens {run.tokens}" in html.unescape(panel.text.value)
    assert panel.message.value == ""


@pytest.mark.parametrize("typed", ["abc", "-1", "4294967295", "1.5", ""])
def test_a_refused_seed_keeps_the_table_and_says_why(panel, typed):
    table = panel.table.value
    panel.seed.value = typed
    assert "Refused: seed must be a whole number" in panel.message.value
    assert panel.table.value == table and panel.settings.seed == 20260218
    panel.seed.value = "5"  # and the panel keeps working
    assert panel.settings.seed == 5 and panel.message.value == ""
    assert _expected_table(5, 8) in _shown_table(panel)


def test_set_refuses_out_of_range_budget_and_unknown_task(panel):
    panel.set(budget=0)
    assert "Refused: budget must be an integer 1..20, got 0" in panel.message.value
    panel.set(budget=21)
    assert "budget must be an integer 1..20, got 21" in panel.message.value
    panel.set(budget=2.0)
    assert "budget must be an integer 1..20, got 2.0" in panel.message.value
    panel.set(task="G99")
    assert "task must be one of G01..G24" in panel.message.value
    panel.set(seed="x")
    assert "seed must be a whole number" in panel.message.value
    assert panel.settings == Settings(20260218, 8, "G05")


def test_slider_cannot_leave_its_range(panel):
    panel.budget.value = 50
    assert panel.budget.value == 20 and panel.settings.budget == 20


def test_reset_and_new_seed(panel):
    panel.set(seed=99, budget=3, task="G01")
    assert panel.settings == Settings(99, 3, "G01")
    panel.reset.click()
    assert panel.settings == Settings(20260218, 8, "G05")
    assert _expected_table(20260218, 8) in _shown_table(panel)
    panel.new_seed.click()
    seed = panel.settings.seed
    assert 0 <= seed <= 2**32 - 2 and _expected_table(seed, 8) in _shown_table(panel)


def test_a_render_error_is_shown_not_raised():
    def render(settings):
        if settings.budget > 5:
            raise sim.InputError("budget above 5 is not drawn here")
        from matplotlib.figure import Figure

        return View(f"<p>{settings.budget}</p>", Figure(figsize=(1, 1)))

    panel = ControlPanel(render, Settings(1, 2, "G01"), two_runs=False)
    panel.budget.value = 9
    assert "budget above 5" in panel.message.value and panel.table.value == "<p>2</p>"
    panel.budget.value = 3
    assert panel.table.value == "<p>3</p>" and panel.message.value == ""


def test_figure_png_and_svg_are_deterministic():
    from sim.presentation.figures import figure_svg
    from sim.presentation.figures_planner_executor import draw_band_chart

    single = [measure("single-loop", s) for s in (1, 2)]
    split = [measure("plan-execute", s) for s in (1, 2)]
    verdicts = compare_setups(single, split)
    assert figure_png(draw_band_chart(verdicts)) == figure_png(draw_band_chart(verdicts))
    svg = figure_svg(draw_band_chart(verdicts))
    assert svg == figure_svg(draw_band_chart(verdicts)) and b"<text" in svg  # text kept as text


def test_extra_controls_reach_render_and_reset():
    import ipywidgets as widgets
    from matplotlib.figure import Figure

    seen = []

    def render(settings):
        seen.append(settings)
        return View(f"<p>{settings.extra['switch']}</p>", Figure(figsize=(1, 1)))

    switch = widgets.Checkbox(value=False, description="switch")
    panel = ControlPanel(render, Settings(1, 2, "G01"), two_runs=False, extra_controls={"switch": switch})
    assert panel.settings.extra == {"switch": False}
    switch.value = True
    assert panel.table.value == "<p>True</p>" and seen[-1].extra == {"switch": True}
    panel.set(nope=1)
    assert "unknown control 'nope'" in html.unescape(panel.message.value)
    panel.reset.click()
    assert panel.settings == Settings(1, 2, "G01", {"switch": False})


def test_set_refuses_a_value_a_dropdown_does_not_offer():
    from sim.presentation.panel_step_budget import step_budget_panel

    panel = step_budget_panel()
    panel.set(seed=5, setup="no-such-setup")
    assert "Refused" in panel.message.value
    assert panel.settings == Settings(20260218, 8, "G05", {"setup": "plan-execute", "stop_when_done": False})
    assert panel.seed.value == "20260218" and panel.extra["setup"].value == "plan-execute"
    panel.set(setup="single-loop")
    assert panel.settings.extra["setup"] == "single-loop" and panel.message.value == ""


def test_the_runs_are_a_and_b_at_every_seed_and_the_caption_gives_their_seeds():
    panel = planner_executor_panel()
    panel.seed.value = "3141592653"
    table = html.unescape(panel.table.value)
    assert "run A = seed 3141592653, run B = seed 3141592654" in table
    assert "single loop                A" in table and "planner + executor         B" in table
    assert "3141592653   " not in table  # no run is labelled by its seed's digits
    assert "<th style='white-space:nowrap'>first A</th>" in table and "difference B" in table
    assert table.index("first = single loop, second = planner + executor") < table.index("<table")
    assert "plan A : right positions" in html.unescape(panel.text.value)
    panel.seed.value = "20260217"  # run B is the lesson's run A; the panel still calls it B
    table = html.unescape(panel.table.value)
    assert "run A = seed 20260217, run B = seed 20260218" in table
    panel.reset.click()
    assert "single loop                A   0.9583" in html.unescape(panel.table.value)


@pytest.mark.parametrize("make", ["single_loop", "step_budget", "contract"])
def test_every_two_run_panel_letters_its_runs_and_names_its_setups_above_its_verdicts(make):
    import importlib

    panel = getattr(importlib.import_module(f"sim.presentation.panel_{make}"), f"{make}_panel")()
    if make == "single_loop":
        panel.set(self_critique=True)
    panel.seed.value = "3141592653"
    table = html.unescape(panel.table.value)
    assert "run A = seed 3141592653, run B = seed 3141592654" in table
    assert "3141592654 " not in table.split("</b>", 1)[1]
    if "<table" in table:
        assert "first = " in table[: table.index("<table")]


def test_a_bug_in_a_view_is_raised_not_shown_as_a_refusal():
    """Only bad input (sim.InputError) becomes a refusal; a programming error stays the traceback it is."""

    def render(settings):
        if settings.budget > 5:
            raise ZeroDivisionError("a bug")
        from matplotlib.figure import Figure

        return View(f"<p>{settings.budget}</p>", Figure(figsize=(1, 1)))

    panel = ControlPanel(render, Settings(1, 2, "G01"), two_runs=False)
    with pytest.raises(ZeroDivisionError):
        panel.budget.value = 9
    assert "Refused" not in panel.message.value


@pytest.mark.parametrize("text", ["+5", "1_000", "١٢", "1.0", "0x10"])
def test_the_panel_follows_the_one_grammar_for_numbers(text):
    panel = planner_executor_panel()
    panel.seed.value = text
    assert "Refused: seed must be a whole number" in panel.message.value
    assert panel.seed.value == "20260218" and panel.settings.seed == 20260218  # the box shows what is used


def test_the_panel_box_shows_the_value_it_used():
    panel = planner_executor_panel()
    panel.seed.value = "  42 "
    assert panel.settings.seed == 42 and panel.seed.value == "42" and panel.message.value == ""


@pytest.mark.parametrize("typed", ["50", "0", "-3", "abc", "2.5", ""])
def test_a_typed_budget_outside_the_slider_is_refused_not_clamped(panel, typed):
    table = panel.table.value
    panel.budget_box.value = typed
    assert "Refused: budget must be an integer 1..20, got" in html.unescape(panel.message.value)
    assert "Still showing seed 20260218, budget 8" in panel.message.value
    assert panel.settings.budget == 8 and panel.budget.value == 8 and panel.budget_box.value == "8"
    assert panel.table.value == table
    panel.budget_box.value = "4"  # and the panel keeps working
    assert panel.settings.budget == 4 and panel.budget.value == 4 and panel.message.value == ""


def test_the_budget_box_follows_the_slider(panel):
    panel.budget.value = 5
    assert panel.budget_box.value == "5" and panel.settings.budget == 5
    assert panel.budget.readout is False  # the slider's own readout would clamp a typed value silently


def test_the_status_line_says_what_a_change_redrew_and_marks_text_out_of_sight(panel):
    assert panel.message.layout.min_height and panel.status.layout.min_height  # lines kept: no jump
    panel.task.value = "G24"
    assert "Showing seed 20260218, budget 8, task G24" in panel.status.value
    assert "Redrawn: the text below the figure." in panel.status.value
    assert panel.text.layout.border  # the only change is below the figure: it is marked
    panel.seed.value = "777"
    assert "Redrawn: the table, the figure, the text below the figure." in panel.status.value
    assert not panel.text.layout.border


def test_a_panel_shows_one_plain_line_where_it_cannot_draw_its_widgets(panel):
    from sim.presentation.panel import RUN_FIRST

    bundle = panel.widget._repr_mimebundle_()
    assert bundle["text/plain"] == RUN_FIRST and "Run All Cells" in RUN_FIRST
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == panel.widget.model_id


def test_long_control_labels_are_not_cut_short():
    from sim.presentation.panel_contract import contract_panel

    panel = contract_panel()
    assert panel.extra["max_replans"].style.description_width == "initial"


def _blocking_render():
    import threading

    from matplotlib.figure import Figure

    gate, started, seen = threading.Event(), threading.Event(), []

    def render(settings):
        seen.append(settings.seed)
        if settings.seed == 2:  # the first request after the panel's start waits for the gate
            started.set()
            gate.wait(30)
        return View(f"<p>{settings.seed}</p>", Figure(figsize=(1, 1)))

    return render, gate, started, seen


def test_in_the_background_the_latest_request_wins_and_stale_ones_are_dropped():
    render, gate, started, seen = _blocking_render()
    panel = ControlPanel(render, Settings(1, 2, "G01"), two_runs=False, background=True)
    panel.wait()
    assert panel.settings.seed == 1 and seen == [1]
    panel.seed.value = "2"
    assert started.wait(30)  # seed 2 is being computed ...
    assert "Computing seed 2" in panel.status.value and "alm-panel-busy" in panel.widget._dom_classes
    for seed in (3, 4, 5, 6, 7):  # ... while five more requests arrive, as quick clicks do
        panel.seed.value = str(seed)
    assert panel.seed.value == "7" and "Computing seed 7" in panel.status.value
    gate.set()
    panel.wait()
    assert seen == [1, 2, 7]  # 3 to 6 never computed
    assert panel.settings.seed == 7 and panel.table.value == "<p>7</p>"
    assert panel._worker.dropped == 1  # seed 2's result came too late and was never shown
    assert "alm-panel-busy" not in panel.widget._dom_classes and "Showing seed 7" in panel.status.value


def test_in_the_background_a_refusal_and_a_bug_are_shown_and_the_panel_keeps_working():
    from matplotlib.figure import Figure

    def render(settings):
        if settings.budget == 9:
            raise sim.InputError("budget 9 is not drawn here")
        if settings.budget == 10:
            raise ZeroDivisionError("a bug")
        return View(f"<p>{settings.budget}</p>", Figure(figsize=(1, 1)))

    panel = ControlPanel(render, Settings(1, 2, "G01"), two_runs=False, background=True)
    panel.budget.value = 9
    panel.wait()
    assert "Refused: budget 9 is not drawn here" in panel.message.value
    assert panel.budget.value == 2 and panel.table.value == "<p>2</p>"
    panel.budget.value = 10
    panel.wait()
    assert "ZeroDivisionError: a bug" in panel.message.value and "Traceback" in panel.message.value
    panel.budget.value = 3
    panel.wait()
    assert panel.table.value == "<p>3</p>" and panel.message.value == ""


def test_settings_shown_before_are_redrawn_from_the_panels_store(panel):
    first = (panel.table.value, panel.figure.value)
    renders = panel.renders
    panel.seed.value = "777"
    assert panel.renders == renders + 1
    panel.reset.click()  # back to the defaults: drawn before, not computed again
    assert panel.renders == renders + 1 and (panel.table.value, panel.figure.value) == first
    assert "Redrawn: the table, the figure" in panel.status.value


def test_a_refusal_ends_the_busy_state_and_the_status_names_what_is_still_shown(panel):
    panel.seed.value = "x"
    assert "Showing seed 20260218, budget 8, task G05." in panel.status.value
    assert "alm-panel-busy" not in panel.widget._dom_classes


def _kernel_like_loop(monkeypatch):
    """What a running kernel gives a panel: results posted to the main thread run only when that
    thread is free (here: when the test runs them), not while a cell waits in `panel.wait()`."""
    import sim.presentation.panel_worker

    posted = []
    monkeypatch.setattr(sim.presentation.panel_worker, "main_thread_poster", lambda: lambda function, *args: posted.append(
        (function, args)))  # fmt: skip
    return posted


def test_in_a_kernel_wait_returns_once_the_redraw_is_shown(monkeypatch):
    from matplotlib.figure import Figure

    posted = _kernel_like_loop(monkeypatch)
    panel = ControlPanel(lambda s: View(f"<p>{s.seed}</p>", Figure(figsize=(1, 1))), Settings(1, 2, "G01"),
                         two_runs=False)  # fmt: skip
    assert panel._worker.background  # in a kernel, by default
    panel.seed.value = "5"
    panel.wait()  # a cell that waits holds the main thread: the posted result has not run
    assert panel.settings.seed == 5 and panel.table.value == "<p>5</p>"
    assert "Showing seed 5" in panel.status.value and "Computing" not in panel.status.value
    assert "alm-panel-busy" not in panel.widget._dom_classes
    for function, args in posted:  # the event loop runs the callback later: nothing is shown twice
        function(*args)
    assert panel.settings.seed == 5 and panel._worker.dropped == 0


def test_a_refusal_stays_until_its_control_changes_again():
    render, gate, started, seen = _blocking_render()
    panel = ControlPanel(render, Settings(1, 2, "G01"), two_runs=False, background=True)
    panel.wait()
    panel.seed.value = "2"  # a redraw that takes a while ...
    assert started.wait(30)
    panel.budget_box.value = "25"  # ... and a budget typed meanwhile, refused
    refusal = "Refused: budget must be an integer 1..20, got 25."
    assert refusal in panel.message.value
    assert "Computing seed 2" in panel.status.value  # the seed's redraw is still on its way
    gate.set()
    panel.wait()
    assert panel.settings.seed == 2  # the seed's redraw landed ...
    assert refusal in panel.message.value and "Still showing seed 2, budget 2" in panel.message.value
    panel.seed.value = "3"  # another control changes: the budget's refusal stays
    panel.wait()
    assert panel.settings.seed == 3 and refusal in panel.message.value
    panel.budget_box.value = "4"  # the budget changes again: its refusal goes
    panel.wait()
    assert panel.settings.budget == 4 and panel.message.value == ""
