"""Command line: `python -m sim table`, `trace TASK`, `score FILE.py:FUNCTION` (lesson 6), `fan-out`
(lesson 8); an error is one line on stderr, exit codes (EXIT_CODES): 0 done, 1 output not written, 2 bad input, 130 Ctrl-C."""

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import Sequence

import pandas as pd

from sim.engine.config import (
    DEFAULT_BUDGET,
    DEFAULT_SEED,
    OPTION_HELP,
    OPTIONS,
    SETUP_OPTIONS,
    RunConfig,
    configs_for,
)
from sim.engine.exit_states import exit_state_of, stop_reason_of
from sim.engine.labels import run_labels
from sim.engine.loops import is_correct
from sim.engine.policy import describe
from sim.engine.runs import run_with
from sim.measurement.counts import measure_seeds, plan_accuracy
from sim.measurement.exit_tables import contract_table
from sim.model.checks import (
    SETUP_NAMES,
    check_budget,
    check_count,
    check_integer,
    check_seed,
    check_setup,
    parse_whole_number,
)
from sim.model.errors import InputError
from sim.model.tasks import check_task
from sim.presentation.tables import (
    format_events,
    format_plan_accuracy,
    format_table,
    format_trace,
    seed_table,
)

DEFAULT_SETUPS = ("single-loop", "plan-execute")
FAN_OUT_BOUND_FLAGS = (("max_steps", 1), ("max_tokens", 1), ("max_seconds", 1), ("max_replans", 0))
EXIT_CODES = {  # the CLI's exit codes, for the docstring, --help and the README
    0: "done (also when the reader of stdout, e.g. `| head`, closes it early)",
    1: "the output cannot be written (stdout closed, disk full)",
    2: "bad input: an option, a seed, a budget, a task or setup name; a policy file that cannot be "
    "loaded; a policy that raises (any exception, SystemExit of sys.exit included) or returns "
    "something that is not a tool or 'stop'",
    130: "Ctrl-C, quietly (also a policy that raises KeyboardInterrupt)",
}


def _integer(text: str, name: str) -> int:
    try:
        return parse_whole_number(text, name)
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _real(text: str, name: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{name} must be a number strictly between 0 and 1, got {text!r}"
        ) from None


def _port(text: str) -> int:
    try:
        return check_integer(parse_whole_number(text, "--port"), "--port", 0, 65535)
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def error_line(prog: str, message: str) -> str:
    """Every error line: `<prog>: error: <message> (see --help)`."""
    return f"{prog}: error: {message} (see --help)\n"


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line (exit code 2), with no abbreviated options."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, allow_abbrev=False, **kwargs)

    def error(self, message: str):
        self.exit(2, error_line(self.prog, message))


def _each(text: str, name: str, check) -> list:
    """A comma-separated option's parts, each checked, none repeated."""
    try:
        values = [check(part.strip()) for part in text.split(",")]
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    repeated = next((value for index, value in enumerate(values) if value in values[:index]), None)
    if repeated is not None:
        raise argparse.ArgumentTypeError(f"{name} must not repeat, got {repeated} twice")
    return values


def flag(option: str) -> str:
    """An option's flag: "--stop-when-done" for stop_when_done."""
    return "--" + option.replace("_", "-")


def _add_seeds_and_budgets(parser: argparse.ArgumentParser) -> None:
    for name, check, default, allowed in (
        ("seeds", check_seed, [DEFAULT_SEED, DEFAULT_SEED + 1], "integers 0 <= seed < 2**32"),
        ("budgets", check_budget, [DEFAULT_BUDGET], "step budgets >= 1"),
    ):
        parser.add_argument(
            f"--{name}",
            type=lambda text, n=name, c=check: _each(text, n, lambda t: c(_integer(t, f"each of {n}"), n)),
            default=default,
            help=f"comma-separated {allowed} (default: {','.join(map(str, default))})",
        )


def _add_options(parser: argparse.ArgumentParser) -> None:
    """One flag per option of sim.engine.config.OPTIONS, as `table` and `trace` take them."""
    for option, (default, minimum) in OPTIONS.items():
        having = ", ".join(setup for setup, names in SETUP_OPTIONS.items() if option in names)
        if minimum is None:  # a switch
            parser.add_argument(flag(option), action="store_true", help=f"{having}: {OPTION_HELP[option]}")
            continue
        if minimum == "share":  # a number between 0 and 1, checked by RunConfig like every value
            parser.add_argument(flag(option), type=lambda t, o=option: _real(t, flag(o)), default=None,
                                help=f"{having}: {OPTION_HELP[option]}")  # fmt: skip
            continue
        if isinstance(minimum, tuple):  # a choice: one of the named variants
            parser.add_argument(flag(option), choices=minimum, default=None,
                                help=f"{having}: {OPTION_HELP[option]}")  # fmt: skip
            continue
        shown = "" if default is None else f", default {default}"
        parser.add_argument(flag(option), type=lambda t, o=option: _integer(t, flag(o)), default=None,
                            help=f"{having}: {OPTION_HELP[option]} (>= {minimum}{shown})")  # fmt: skip


def _in_flags(message: str) -> str:
    """A refusal from sim.engine.config, each option named by its flag."""
    for option in OPTIONS:
        message = re.sub(rf"\b{option}\b", flag(option), message)
    return message


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m sim",
        description="Agent loops, measured: the course's fictional simulator from the command line.",
        epilog="Each option applies to the chosen setups that have it; an option that none of them has is refused. "
        "A policy's own prints go to stderr. Exit codes: "
        + "; ".join(f"{code}: {meaning}" for code, meaning in EXIT_CODES.items())
        + ".",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    table = commands.add_parser("table", help="counted units per (setup, seed, budget)")
    table.add_argument(
        "--setups",
        type=lambda text: _each(text, "setups", lambda t: check_setup(t, "setups")),
        default=list(DEFAULT_SETUPS),
        help=f"comma-separated, from {', '.join(SETUP_NAMES)} (default: {','.join(DEFAULT_SETUPS)})",
    )
    _add_seeds_and_budgets(table)
    _add_options(table)
    table.add_argument("--format", choices=("text", "json", "csv"), default="text")
    trace = commands.add_parser("trace", help="one task's plan and executed trace")
    trace.add_argument("task", help="task name, G01..G24")
    trace.add_argument("--setup", default="plan-execute", help=f"one of {', '.join(SETUP_NAMES)}")
    trace.add_argument("--seed", type=lambda t: _integer(t, "seed"), default=DEFAULT_SEED)
    trace.add_argument("--budget", type=lambda t: _integer(t, "budget"), default=DEFAULT_BUDGET)
    _add_options(trace)
    score = commands.add_parser(
        "score", help="score a policy FILE.py:FUNCTION like the course's setups (lesson 6)"
    )
    score.add_argument("policy", help="FILE.py:FUNCTION, a function observation -> tool name or 'stop'")
    _add_seeds_and_budgets(score)
    score.add_argument("--baseline", default="single-loop", help=f"one of {', '.join(SETUP_NAMES)}")
    score.add_argument(
        "--held-out",
        type=lambda t: _integer(t, "--held-out"),
        default=200,
        help="seeds of the held-out block for the many-seed comparison, 0 for none (default: 200)",
    )
    score.add_argument("--format", choices=("text", "json", "csv"), default="text")
    fan_out = commands.add_parser(
        "fan-out", help="the fan-out tasks F01..F12 by width, sequential or with parallel steps (lesson 8)"
    )
    fan_out.add_argument(
        "--seeds",
        type=lambda text: _each(text, "seeds", lambda t: check_seed(_integer(t, "each of seeds"), "seeds")),
        default=[DEFAULT_SEED, DEFAULT_SEED + 1],
        help=f"comma-separated integers 0 <= seed < 2**32 (default: {DEFAULT_SEED},{DEFAULT_SEED + 1})",
    )
    fan_out.add_argument("--parallel-steps", action="store_true", help=OPTION_HELP["parallel_steps"])
    for name, minimum in FAN_OUT_BOUND_FLAGS:
        fan_out.add_argument(flag(name), type=lambda t, n=name: _integer(t, flag(n)), default=None,
                             help=f"at most this many (>= {minimum}; default: the fan-out bounds FB1)")  # fmt: skip
    serve = commands.add_parser(
        "serve", help="the fictional model as a chat endpoint on 127.0.0.1 (issue 29)"
    )
    serve.add_argument(
        "--port", type=_port, default=8000, help="port on 127.0.0.1, 0 for a free one (default: 8000)"
    )
    return parser  # fmt: skip


def _options(args) -> dict:
    return {name: getattr(args, name) for name in OPTIONS}


def _table(args) -> str:
    """A measurement per (setup, seed, budget), and the split's plan accuracy: text, JSON or CSV."""
    configs = configs_for(args.setups, args.budgets[0], _options(args))
    measurements = [
        measurement
        for config in configs
        for by_budget in zip(
            *(measure_seeds(config.with_budget(b), args.seeds) for b in args.budgets), strict=True
        )
        for measurement in by_budget
    ]
    split = next((c for c in configs if c.setup == "plan-execute" and not c.lookalike), None)
    plans = {seed: plan_accuracy(seed, split.common_draws) for seed in args.seeds} if split else {}
    if args.format != "text":
        rows = [m.row() for m in measurements]
        for row in rows:
            if row["setup"] == "plan-execute" and plans:
                plan = plans[row["seed"]]
                row.update({"plan_right_positions": plan.right_positions, "plan_positions": plan.positions,
                            "plan_right_plans": plan.right_plans, "plans": plan.plans})  # fmt: skip
        if args.format == "json":
            return json.dumps(rows, indent=2)
        # CSV: a column a setup does not have stays empty on its rows
        return pd.DataFrame(rows, dtype=object).to_csv(index=False).rstrip("\n")
    lines = [format_table(seed_table(measurements))]
    lines += [format_plan_accuracy(plans[seed], label=label)
              for seed, label in zip(args.seeds, run_labels(args.seeds), strict=True) if plans]  # fmt: skip
    if "contract" in args.setups:
        lines += ["", contract_table(measurements).to_string(index=False)]
    return "\n".join(lines)


def _trace(args) -> str:
    task = check_task(args.task)
    config = RunConfig(args.setup, check_budget(args.budget, "budget"), **_options(args))
    run = run_with(config, task, check_seed(args.seed))
    text = f"setup {config.setup}  seed {run.seed}  budget {run.budget}  rule {config.rule}\n"
    text += format_trace(run)
    text += f"\n  solved {'yes' if is_correct(run) else 'no'}"
    text += f"  stop reason {stop_reason_of(run)}  exit state {exit_state_of(run)}"
    if config.setup == "contract":
        text += f"  replans {run.replans}  seconds {run.seconds}\n" + format_events(run)
    return text


def _fan_out(args) -> str:
    """The fan-out tasks by width under one schedule (lesson 8): success, steps, calls, tokens, seconds."""
    from sim.engine.fan_out import FAN_OUT_BOUNDS, Bounds
    from sim.measurement.fan_out import schedule_table

    given = {name: getattr(args, name) for name, _ in FAN_OUT_BOUND_FLAGS}
    bounds = Bounds(*(getattr(FAN_OUT_BOUNDS, name) if given[name] is None
                      else check_count(given[name], flag(name), minimum) for name, minimum in FAN_OUT_BOUND_FLAGS))  # fmt: skip
    table = schedule_table(args.seeds, args.parallel_steps, bounds)
    schedule = "parallel steps (PX1)" if args.parallel_steps else "sequential"
    head = (f"fan-out tasks F01..F12, {schedule}, {len(args.seeds)} seeds, bounds {bounds.max_steps} steps, "
            f"{bounds.max_tokens} tokens, {bounds.max_seconds} s, {bounds.max_replans} replans")  # fmt: skip
    return head + "\n" + table.to_string(index=False, float_format=lambda v: f"{v:.2f}")


def load_policy(spec: str):
    """The function "FILE.py:FUNCTION", its file loaded as `import` would; raises InputError if it cannot."""
    import importlib.util
    from pathlib import Path

    path, _, name = spec.rpartition(":")
    if not path.endswith(".py") or not name.isidentifier():
        raise InputError(f"policy must be FILE.py:FUNCTION, got {spec!r}")
    if not Path(path).is_file():
        raise InputError(f"policy file {path!r} not found")
    module_name = f"policy_{Path(path).stem}"
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(module_spec)
    folder = str(Path(path).resolve().parent)
    if folder not in sys.path:  # as `python FILE.py` would: a module beside the policy imports
        sys.path.insert(0, folder)
    sys.modules[module_name] = module  # as import does: dataclasses, pickle, typing look it up there
    try:
        module_spec.loader.exec_module(module)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # the student's file: report it, in one line
        del sys.modules[module_name]
        raise InputError(f"policy file {path!r} failed to load: {describe(error)}") from error
    if not callable(getattr(module, name, None)):
        raise InputError(f"policy file {path!r} has no function {name!r}")
    return getattr(module, name)


def _score(args) -> str:
    from sim.presentation.score_report import RENDER, score_report  # numpy, scipy only when scoring

    policy, baseline = load_policy(args.policy), check_setup(args.baseline, "baseline")
    held_out = check_count(args.held_out, "--held-out", 0)
    return RENDER[args.format](score_report(policy, baseline, args.seeds, args.budgets, held_out))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return its exit code (EXIT_CODES)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the conventional code
        return 130


def _say(line: str) -> None:
    """One line to stderr; a stderr that is closed or gone is no second error."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(line)
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "serve":  # runs until Ctrl-C; its port is checked where it is parsed
        from sim.chat.model_endpoint import main as serve_model

        return serve_model(["--port", str(args.port)])
    try:  # a policy's prints go to stderr: stdout is the table's, and its reader may close it
        with contextlib.redirect_stdout(sys.stderr) if args.command == "score" else contextlib.nullcontext():
            text = {"table": _table, "trace": _trace, "score": _score, "fan-out": _fan_out}[args.command](
                args
            )
    except InputError as error:  # bad input only: a bug shows as the traceback it is
        _say(error_line(parser.prog, _in_flags(" ".join(str(error).splitlines()))))
        return 2
    if sys.stdout is None:  # started with standard output closed (`>&-`)
        _say(f"{parser.prog}: error: cannot write the output: standard output is closed\n")
        return 1
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (e.g. `| head`) closed the pipe: stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps Python from failing again at exit
        return 0
    except OSError as error:  # e.g. a full disk
        _say(f"{parser.prog}: error: cannot write the output: {error.strerror}\n")
        return 1
    return 0
