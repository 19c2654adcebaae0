"""The command line at its edges (issue 18): one grammar for numbers, no abbreviated options, one form
of error line, a closed standard output, Ctrl-C, and the batch path giving the same rows as the
one-seed path, byte for byte."""

import contextlib
import io
import json
import signal
import subprocess
import sys
import time

import pytest

import sim
from sim import cli
from sim.engine.config import configs_for
from sim.measurement.counts import measure_config, plan_accuracy
from sim.presentation.tables import format_table, seed_table


def _main(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(args))
        except SystemExit as stop:  # argparse's own refusals
            code = stop.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("text", ["+5", "1_000", "١٢", "1.0", "1e3", "0x10", "", " "])
def test_numbers_follow_one_grammar(text):
    for args in (("table", "--seeds", text), ("table", "--budgets", text), ("trace", "G05", "--seed", text)):
        code, out, err = _main(*args)
        assert code == 2 and out == "" and "must be a whole number" in err, (args, err)
        assert err.endswith("(see --help)\n") and err.count("\n") == 1


def test_spaces_around_numbers_are_trimmed_and_nothing_else_is_forgiven():
    code, out, _ = _main("table", "--seeds", " 1, 2 ", "--format", "json")
    assert code == 0 and [row["seed"] for row in json.loads(out)][:2] == [1, 2]
    assert sim.model.checks.parse_whole_number(" 42 ", "seed") == 42
    with pytest.raises(sim.InputTypeError, match="seed must be a whole number"):
        sim.model.checks.parse_whole_number("４２", "seed")  # full-width digits


def test_no_option_is_taken_by_its_prefix():
    code, _, err = _main("table", "--seed", "5")
    assert code == 2 and "unrecognized arguments: --seed 5" in err
    code, _, err = _main("table", "--budget", "5")
    assert code == 2 and "unrecognized arguments" in err


def test_every_error_line_has_one_form():
    for args in (
        ("table", "--seeds", "x"),
        ("table", "--seeds", "-1"),
        ("trace", "G99"),
        ("table", "--nope"),
    ):
        code, _, err = _main(*args)
        assert (
            code == 2
            and err.startswith("python -m sim")
            and ": error: " in err
            and err.endswith("(see --help)\n")
        )


def test_a_closed_standard_output_ends_in_one_line_and_exit_1():
    done = subprocess.run(f"{sys.executable} -m sim table >&-", shell=True, capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == "python -m sim: error: cannot write the output: standard output is closed\n"


# `python -m sim` with Ctrl+C raising KeyboardInterrupt, as in a terminal: a test run started in the
# background by a shell ignores SIGINT, a child inherits that, and Python then installs no handler.
INTERRUPTIBLE_CLI = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('sim', run_name='__main__', alter_sys=True)"
)


@pytest.mark.slow
def test_ctrl_c_ends_quietly_with_130():
    process = subprocess.Popen([sys.executable, "-c", INTERRUPTIBLE_CLI, "table", "--setups", "contract",
                                "--seeds", ",".join(map(str, range(4000)))],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    time.sleep(1.5)  # past the imports, inside the contract's seed-by-seed runs (4000 seeds take about 10 s)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err and "KeyboardInterrupt" not in err


@pytest.mark.parametrize(
    "options",
    [{}, {"self_critique": True, "approval": True}, {"stop_when_done": True}, {"budget_margin": 2},
     {"stop_when_done": True, "budget_margin": 0}],
)  # fmt: skip
def test_the_batch_path_gives_the_one_seed_paths_rows_byte_for_byte(options):
    flags = [f"--{name.replace('_', '-')}" if value is True else f"--{name.replace('_', '-')}={value}"
             for name, value in options.items()]  # fmt: skip
    seeds = [0, 7, 20260218, 2**32 - 1]
    for fmt in ("json", "csv", "text"):
        code, out, _ = _main(
            "table", "--seeds", ",".join(map(str, seeds)), "--budgets", "3,8", *flags, "--format", fmt
        )
        assert code == 0
        measurements = [
            measure_config(config, seed)
            for index in range(2)
            for seed in seeds
            for config in [
                configs_for(["single-loop", "plan-execute"], budget, options)[index] for budget in (3, 8)
            ]
        ]
        if fmt == "json":
            # the split's rows carry the planner's accuracy, as text shows it
            plans = {seed: plan_accuracy(seed) for seed in seeds}
            rows = [{**m.row(), **({"plan_right_positions": plans[m.seed].right_positions,
                                    "plan_positions": plans[m.seed].positions,
                                    "plan_right_plans": plans[m.seed].right_plans, "plans": plans[m.seed].plans}
                                   if m.setup == "plan-execute" else {})} for m in measurements]  # fmt: skip
            assert out == json.dumps(rows, indent=2) + "\n"
        elif fmt == "text":
            assert out.startswith(format_table(seed_table(measurements)) + "\n")


@pytest.mark.slow
def test_many_seeds_from_the_cli_use_the_batch_path(monkeypatch):
    """10,000 seeds: the loops go through sim.measurement.batch (one batch per setup and budget), not 10,000 one-seed runs."""
    calls = []
    real = cli.measure_seeds

    def counting(config, seeds):
        calls.append(len(seeds))
        return real(config, seeds)

    monkeypatch.setattr(cli, "measure_seeds", counting)
    code, out, _ = _main("table", "--seeds", ",".join(map(str, range(10000))), "--format", "csv")
    assert code == 0 and calls == [10000, 10000] and len(out.splitlines()) == 20001
