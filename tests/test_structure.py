"""The shape of `sim` after the restructuring (issue 11): one source per rule, one run configuration,
immutable records, the course's own input errors, code shown whole, a quick start.

Each test here reads the package as a maintainer would, or drives it as a user does.
"""

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run_cli

import sim
from sim.engine.config import RunConfig, configs_for
from sim.measurement.counts import measure
from sim.presentation.showcode import code_of

SIM = Path(sim.__file__).resolve().parent
LESSONS = SIM.parent / "lessons"

# each rule's constants, and the one module allowed to use them by name
RULE_HOMES = {
    "costs.py": ("LOOP_STEP_TOKENS", "LOOP_TOKENS_PER_CALL", "PLANNER_TOKENS", "PLANNER_TOKENS_PER_POSITION",
                 "EXECUTOR_STEP_TOKENS", "EXECUTOR_TOKENS_PER_CALL", "OBSERVATION_TOKENS", "SELF_CRITIQUE_TOKENS",
                 "REPLAN_CONTEXT_TOKENS"),
    "picks.py": ("STOP_SHARE", "SELECTION_START", "SELECTION_DROP"),
    "draws.py": ("LCG_MULTIPLIER", "LCG_INCREMENT"),
    "config.py": ("SETUP_OPTIONS", "OPTIONS", "OPTION_HELP"),  # which option fits which setup
}  # fmt: skip


def _names_used(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} | {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names
    }


@pytest.mark.parametrize("home", RULE_HOMES)
def test_each_rule_is_written_in_one_module(home):
    """A rule's constants are used by name only in its own module; every engine calls its functions."""
    for path in sorted(SIM.rglob("*.py")):
        if path.name == home:
            continue
        used = _names_used(path) & set(RULE_HOMES[home])
        # figures may show a floor in a plot's label; nothing else re-derives a rule
        # a figure may label the rule's floor; the CLI builds its flags by reading the option table
        allowed = {
            "figures_single_loop.py": {"SELECTION_FLOOR"},
            "cli.py": {"OPTIONS", "SETUP_OPTIONS", "OPTION_HELP"},
        }.get(path.name, set())
        assert not used - allowed, f"{path.name} uses {sorted(used - allowed)}, which belong to {home}"


def test_the_rules_literals_appear_once():
    """The numbers of the token rule and the generator are written in one place each."""
    for literal, home in (("1664525", "draws.py"), ("0.88", "picks.py"), ('"plan" if planner', "draws.py")):
        holders = [p.name for p in SIM.rglob("*.py") if literal in p.read_text()]
        assert holders == [home], f"{literal!r} is written in {holders}"


def test_every_exported_name_resolves_and_every_module_imports():
    for name in sim.__all__:
        assert getattr(sim, name) is not None, name
    for path in sorted(set(SIM.rglob("*.py")) - {SIM / "__main__.py"}):  # __main__ runs the CLI
        parts = path.relative_to(SIM.parent).with_suffix("").parts
        importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))


def test_import_sim_and_the_cli_table_load_only_what_they_need():
    """`import sim` loads no third-party library; `python -m sim table` loads no plotting, widgets,
    statistics or schema library (measured by what is imported, not by a timer)."""
    probe = ("import sys, sim; print(sorted(m for m in ('numpy', 'pandas', 'pydantic', 'scipy', 'matplotlib', "
             "'ipywidgets') if m in sys.modules))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.replace("'", '"')) == []
    probe = ("import sys, io, contextlib, sim.cli as c\nwith contextlib.redirect_stdout(io.StringIO()): c.main(['table'])\n"
             "print(sorted(m for m in ('pydantic', 'scipy', 'matplotlib', 'ipywidgets') if m in sys.modules))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.replace("'", '"')) == []


# ---- one run configuration


def test_which_option_fits_which_setup_is_decided_once():
    assert RunConfig("single-loop", 8, stop_when_done=True).rule == "stop when done"
    assert RunConfig("contract").max_replans == 2 and RunConfig("contract").rule == "contract bounds"
    with pytest.raises(
        sim.InputError, match="stop_when_done is an option of setup 'single-loop' or 'plan-execute'"
    ):
        RunConfig("contract", stop_when_done=True)
    with pytest.raises(sim.InputError, match="max_tokens is an option of setup 'contract' only"):
        measure("single-loop", 1, 8, max_tokens=5)
    mixed = configs_for(["contract", "single-loop"], 8, {"stop_when_done": True, "max_tokens": 900})
    assert [(c.setup, c.stop_when_done, c.max_tokens) for c in mixed] == [("contract", False, 900),
                                                                          ("single-loop", True, None)]  # fmt: skip
    with pytest.raises(sim.InputError, match="none of the chosen setups"):
        configs_for(["contract"], 8, {"stop_when_done": True})
    assert RunConfig("single-loop", budget_margin=0).budget_margin == 0  # 0 is a margin, not "not given"


def _cli(*args):
    return run_cli(*args)


def test_the_cli_rule_for_mixed_setups():
    """Each option applies to the chosen setups that have it; the rule column says what ran."""
    text = _cli("table", "--setups", "contract,single-loop", "--stop-when-done").stdout
    assert "contract                   A contract bounds   0.9583     84" in text
    assert "single loop                A  stop when done   0.9583     96" in text
    refused = _cli("table", "--setups", "contract", "--stop-when-done")
    assert refused.returncode == 2 and "none of the chosen setups (contract) has it" in refused.stderr


def test_the_contract_says_which_bound_stopped_it():
    by_tokens = _cli("table", "--setups", "contract", "--max-tokens", "1").stdout
    by_seconds = _cli("table", "--setups", "contract", "--max-seconds", "1").stdout
    assert by_tokens != by_seconds
    m = measure("contract", 20260218, 8, max_tokens=1)
    assert m.contract.stop_max_tokens == 24 and m.contract.stop_max_seconds == 0
    trace = _cli("trace", "G05", "--setup", "contract", "--max-tokens", "300")
    assert trace.returncode == 0 and "stop reason max_tokens" in trace.stdout
    assert "solved no" in trace.stdout and "correct False" not in trace.stdout


# ---- records, errors, code shown


def test_records_are_immutable_and_typed():
    run = sim.engine.contract.run_contract("G05")
    with pytest.raises(TypeError):
        run.scratchpad.fields["m3"] = 1
    with pytest.raises(AttributeError):
        run.scratchpad.notes.append("x")
    raw = sim.engine.plan_schema.plan_from_tools(
        sim.TASKS[4].sequence, "amount", ("subscriber", "query", "column")
    )
    given = sim.engine.contract.run_contract("G05", first_plan=raw.model_dump())
    assert all(isinstance(plan, sim.engine.plan_schema.Plan) for plan in given.plans)


def test_only_bad_input_is_refused_by_the_cli(monkeypatch):
    import sim.cli

    def bug(*_):
        raise ValueError("a bug, not bad input")

    monkeypatch.setattr(sim.cli, "measure_seeds", bug)
    with pytest.raises(ValueError, match="a bug"):
        sim.cli.main(["table"])


def test_bad_input_raises_the_courses_own_errors():
    with pytest.raises(sim.InputTypeError):
        measure("single-loop", "1")
    with pytest.raises(sim.InputError):
        sim.run_task("react", "G01", 1, 8)
    assert issubclass(sim.InputTypeError, TypeError) and issubclass(sim.InputError, ValueError)


def test_lessons_show_whole_functions_and_earlier_lessons_do_not_show_later_options():
    for name in ("01_single_loop", "02_planner_executor"):
        source = (LESSONS / f"{name}.py").read_text()
        assert "inspect.getsource" not in source and "code_of(" in source
        printed = [
            "".join(output.get("text", ""))
            for cell in json.loads((LESSONS / f"{name}.ipynb").read_text())["cells"]
            if cell["cell_type"] == "code" and "code_of(" in "".join(cell["source"])
            for output in cell.get("outputs", [])
        ]
        assert printed and not any("stop_when_done" in text or "budget_margin" in text for text in printed)


def test_code_of_refuses_what_is_not_sims():
    with pytest.raises(TypeError):
        code_of(print)
    assert code_of(sim.model.picks.single_loop_pick).startswith("def single_loop_pick(")
    assert '"""' not in code_of(sim.model.picks.single_loop_pick)


@pytest.mark.parametrize(
    "options",
    [{}, {"budget_margin": 0}, {"common_draws": True}, {"stop_when_done": True}, {"lookalike": True}],
)
def test_the_lessons_run_functions_take_the_one_path_with_every_option(options):
    """run_single_loop and run_plan_execute are run_task for their setup: an option is never accepted
    and then left out (one path per run, issue 27)."""
    for task in sim.TASKS:
        assert sim.run_single_loop(task, 7, 8, **options) == sim.run_task(
            "single-loop", task, 7, 8, **options
        )
        assert sim.run_plan_execute(task, 7, 8, **options) == sim.run_task(
            "plan-execute", task, 7, 8, **options
        )
