"""Every panel figure, drawn over a spread of seeds, budgets and options, keeps its text readable:
no text outside the figure, none on other text or under a legend, none smaller than a projector
shows (tests/figure_text.py measures each text's extent with the figure's own renderer)."""

import itertools
from dataclasses import replace

import pytest
from figure_text import MIN_POINTS, text_problems

from sim.chat.framework_runs import RECORDED
from sim.model.errors import InputError
from sim.presentation.panel import Settings
from sim.presentation.panel_contract import contract_view
from sim.presentation.panel_frameworks import frameworks_view, recorded, recorded_seeds
from sim.presentation.panel_how_many_seeds import how_many_seeds_view, study_run
from sim.presentation.panel_patterns import patterns_view
from sim.presentation.panel_planner_executor import planner_executor_view
from sim.presentation.panel_single_loop import single_loop_view
from sim.presentation.panel_step_budget import step_budget_view
from sim.presentation.panel_your_agent import your_agent_view

SMALL_STUDY = 120  # seeds: lesson 5's figure is drawn from fewer runs here, the same code draws it


def _small_study(first_seed, budget, label, size, common_draws=False):
    return study_run(first_seed, budget, label, min(size, SMALL_STUDY), common_draws)


def _study(n_seeds, common):
    return {
        "n_seeds": n_seeds,
        "first": "single loop",
        "second": "planner + executor",
        "common_draws": common,
    }


def _frameworks(settings):
    """Lesson 7's view at a recorded seed: it replays recorded runs only, so the spread's seed is taken
    onto one of them (seed modulo their number); it has no budget (each agent's bound is recorded)."""
    seeds = recorded_seeds(recorded(RECORDED)[1])
    return frameworks_view(replace(settings, seed=int(seeds[settings.seed % len(seeds)])))


VIEWS = {
    "01_single_loop": (single_loop_view, [{"self_critique": a, "approval": b} for a, b in [(0, 0), (1, 1)]]),
    "02_planner_executor": (planner_executor_view, [{}]),
    "03_step_budget": (step_budget_view, [{"setup": "single-loop", "stop_when_done": True},
                                          {"setup": "plan-execute", "stop_when_done": False}]),
    "04_contract": (contract_view, [{"max_replans": 0, "max_tokens": 100}, {"max_replans": 5, "max_tokens": 2000}]),
    "05_how_many_seeds": (lambda s: how_many_seeds_view(s, _small_study), [_study(10, False), _study(120, True)]),
    "06_your_agent": (your_agent_view, [{"policy": "stop when goal met"}, {"policy": "router (record: split)"}]),
    "07_frameworks": (_frameworks, [{"agent": "LangGraph, limit 16"}, {"agent": "Agents SDK, 10 turns (default)"}]),
    "08_patterns": (patterns_view, [{"pattern": "parallel reviewer (RV3)", "setup": "plan-execute"},
                                    {"pattern": "parallel steps, fan-out tasks (PX1)"}]),
}  # fmt: skip
SEEDS = (20260218, 7, 3141592653)  # the lesson's, a short one, a 10-digit one
BUDGETS = (1, 2, 3, 8, 20)


AWAY = (3141592653, 2)  # the quick run's settings away from the defaults: a 10-digit seed, budget 2


def _problems(lesson: str, seeds, budgets, left_out=()) -> list[str]:
    """The text problems of the lesson's panel figure at every seed, budget and option set, except
    the (seed, budget) pairs `left_out` (checked by another test)."""
    view, options = VIEWS[lesson]
    found, drawn = [], 0
    for seed, budget, extra in itertools.product(seeds, budgets, options):
        if (seed, budget) in left_out:
            continue
        try:
            figure = view(Settings(seed, budget, "G05", dict(extra))).figure
        except InputError:  # the panel refuses these settings (e.g. lesson 6 at budget 1) and draws nothing
            continue
        drawn += 1
        found += [f"seed {seed}, budget {budget}, {extra}: {p}" for p in text_problems(figure)]
    assert drawn, f"{lesson}: no settings drawn"
    return found


@pytest.mark.parametrize("lesson", sorted(VIEWS))
def test_a_panel_figure_away_from_the_defaults_keeps_its_text_readable(lesson):
    assert _problems(lesson, (AWAY[0],), (AWAY[1],)) == []


@pytest.mark.slow
@pytest.mark.parametrize("lesson", sorted(VIEWS))
def test_every_panel_figure_keeps_its_text_inside_apart_and_readable(lesson):
    """Every seed and budget of the spread; the quick test above checks the one left out here."""
    assert AWAY[0] in SEEDS and AWAY[1] in BUDGETS
    assert _problems(lesson, SEEDS, BUDGETS, left_out={AWAY}) == []


def test_the_text_check_catches_clipped_overlapping_and_small_text():
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4, 3))
    ax = fig.subplots()
    ax.set_title("a title far too long to fit in a figure four inches wide, so it is clipped", fontsize=12)
    ax.text(0.5, 0.5, "here", fontsize=12)
    ax.text(0.5, 0.5, "also here", fontsize=12)
    ax.text(0.1, 0.1, "tiny", fontsize=MIN_POINTS - 2)
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend(loc="lower left")
    problems = text_problems(fig)
    assert any(p.startswith("outside the figure: 'a title far") for p in problems), problems
    assert "overlapping: 'here' and 'also here'" in problems, problems
    assert any(p.startswith(f"smaller than {MIN_POINTS:g} pt") and "'tiny'" in p for p in problems), problems
    assert "under the legend: 'tiny'" in problems, problems
    assert not any("'a line'" in p for p in problems), problems  # a legend's own text is not under it


@pytest.mark.parametrize(
    "name", ["my_memory_window_summary_policy_with_more", "GoalCheckWithMaximumWaiting", "m" * 80, "W" * 40]
)
def test_lesson_6s_panel_legend_keeps_a_students_long_policy_name_inside(name):
    """A student's own policy name, long or of wide letters, is wrapped and shortened until the legend
    fits the panel's figure."""
    from sim.engine.policy import stop_when_goal_met
    from sim.presentation.panel_your_agent import panel_policies

    policies = panel_policies({name: stop_when_goal_met})
    figure = your_agent_view(Settings(20260218, 8, "G05", {"policy": name}), policies).figure
    assert text_problems(figure) == []
    assert any(name[:8] in text.get_text() for text in figure.axes[0].get_legend().get_texts())


@pytest.mark.parametrize("horizontal", [False, True])
def test_panel_bars_are_the_bars_of_ax_bar_as_one_artist(horizontal):
    """The panels' lighter bars (one PolyCollection) have ax.bar's (ax.barh's) rectangles and limits."""
    import numpy as np
    from matplotlib.figure import Figure

    from sim.presentation.figures import panel_bars

    centres, lengths, bases = [0, 1, 2, 3], [3, 0, 2.5, 1], [1, 4, 0, 2]
    patches, collection = Figure().subplots(1, 2)
    (patches.barh if horizontal else patches.bar)(centres, lengths, 0.8, bases)
    panel_bars(collection, centres, lengths, 0.8, bases, horizontal=horizontal)
    rectangles = [patch.get_bbox().get_points() for patch in patches.patches]
    polygons = [path.get_extents().get_points() for path in collection.collections[0].get_paths()]
    assert np.allclose(rectangles, polygons)
    assert np.allclose(
        [patches.get_xlim(), patches.get_ylim()], [collection.get_xlim(), collection.get_ylim()]
    )
