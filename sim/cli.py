"""Command line: `python -m sim table` and `python -m sim trace TASK`, for slides and scripts.

Bad input is reported on stderr in one line and the exit code is 2; there is never a traceback.
"""

import argparse
import json
import os
import sys
from collections.abc import Sequence

import pandas as pd

from sim.agents import DEFAULT_BUDGET, DEFAULT_SEED
from sim.checks import SETUP_NAMES, check_budget, check_seed, check_setup, check_task
from sim.contract import (
    DEFAULT_MAX_REPLANS,
    DEFAULT_MAX_SECONDS,
    DEFAULT_MAX_TOKENS,
    EXIT_STATES,
    format_events,
)
from sim.measure import (
    format_plan_accuracy,
    format_table,
    format_trace,
    measure,
    plan_accuracy,
    run_label,
    run_task,
    seed_table,
)

JSON_KEYS = ("setup", "seed", "budget", "success", "steps", "calls", "tokens", "errors", "approvals", "rule",
             "stop_when_done", "budget_margin", "self_critique", "approval")  # fmt: skip
# added to the rows of setup "contract" (and to every CSV row when the contract is among the setups)
CONTRACT_KEYS = ("replans", "success_exit", *(f"exit_{state.lower()}" for state in EXIT_STATES),
                 "max_replans", "max_tokens", "max_seconds")  # fmt: skip
DEFAULT_SETUPS = ("single-loop", "plan-execute")


def _shown(text: str, limit: int = 40) -> str:
    """A value as it is echoed in a message: quoted, and cut when it is long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def _integer(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name} must be a whole number, got {_shown(text)}") from None


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line on stderr (exit code 2), without the usage block."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _distinct(values: list, name: str) -> list:
    repeated = next((value for index, value in enumerate(values) if value in values[:index]), None)
    if repeated is not None:
        raise argparse.ArgumentTypeError(f"{name} must not repeat, got {repeated} twice")
    return values


def _each(text: str, name: str, check) -> list:
    """Split a comma-separated option and check each part; one message naming the option on error."""
    try:
        return _distinct([check(part.strip()) for part in text.split(",")], name)
    except (TypeError, ValueError) as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _seed_list(text: str) -> list[int]:
    return _each(text, "seeds", lambda part: check_seed(_integer(part, "each of seeds"), "seeds"))


def _budget_list(text: str) -> list[int]:
    return _each(text, "budgets", lambda part: check_budget(_integer(part, "each of budgets"), "budgets"))


def _setup_list(text: str) -> list[str]:
    return _each(text, "setups", lambda part: check_setup(part, "setups"))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m sim`."""
    parser = OneLineParser(
        prog="python -m sim",
        description="Agent loops, measured: the course's fictional simulator from the command line.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    table = commands.add_parser("table", help="counted units per (setup, seed, budget)")
    table.add_argument(
        "--setups",
        type=_setup_list,
        default=list(DEFAULT_SETUPS),
        help=f"comma-separated, from {', '.join(SETUP_NAMES)} (default: {','.join(DEFAULT_SETUPS)})",
    )
    table.add_argument(
        "--seeds",
        type=_seed_list,
        default=[DEFAULT_SEED, DEFAULT_SEED + 1],
        help="comma-separated integers 0 <= seed < 2**32 (default: 20260218,20260219)",
    )
    table.add_argument(
        "--budgets",
        type=_budget_list,
        default=[DEFAULT_BUDGET],
        help="comma-separated step budgets >= 1 (default: 8)",
    )
    table.add_argument(
        "--self-critique", action="store_true", help="single loop: 40 more tokens per tool error"
    )
    table.add_argument(
        "--approval",
        action="store_true",
        help="single loop: count side-effecting calls that ask for approval",
    )
    table.add_argument(
        "--stop-when-done",
        action="store_true",
        help="lesson 3's stopping criterion: end a run right after the call that completes the job",
    )
    table.add_argument(
        "--budget-margin",
        type=lambda t: _integer(t, "budget-margin"),
        default=None,
        help="lesson 3's budget rule: each task gets planning + sequence length + this margin "
        "(steps), capped at the budget",
    )
    for option, default, minimum, unit in (
        ("max-replans", DEFAULT_MAX_REPLANS, 0, "replans"),
        ("max-tokens", DEFAULT_MAX_TOKENS, 1, "tokens"),
        ("max-seconds", DEFAULT_MAX_SECONDS, 1, "simulated seconds"),
    ):
        table.add_argument(
            f"--{option}",
            type=lambda t, o=option: _integer(t, o),
            default=None,
            help=f"contract: at most this many {unit}, >= {minimum} (default: {default})",
        )
    table.add_argument("--format", choices=("text", "json", "csv"), default="text")
    trace = commands.add_parser("trace", help="one task's plan and executed trace")
    trace.add_argument("task", help="task name, G01..G24")
    trace.add_argument("--setup", default="plan-execute", help=f"one of {', '.join(SETUP_NAMES)}")
    trace.add_argument("--seed", type=lambda t: _integer(t, "seed"), default=DEFAULT_SEED)
    trace.add_argument("--budget", type=lambda t: _integer(t, "budget"), default=DEFAULT_BUDGET)
    trace.add_argument("--stop-when-done", action="store_true", help="lesson 3's stopping criterion")
    trace.add_argument(
        "--max-replans",
        type=lambda t: _integer(t, "max-replans"),
        default=None,
        help="contract only: replans allowed",
    )
    return parser  # fmt: skip


def _contract_options(args) -> dict:
    """The contract options given on the command line, by run_contract's parameter names."""
    names = ("max_replans", "max_tokens", "max_seconds")
    return {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}


def _exit_table(measurements) -> str:
    rows = [{"setup": "contract", "run": run_label(m.seed, [x.seed for x in measurements]), "budget": m.budget, "max_replans": m.max_replans,
             "replans": m.replans, **{state: getattr(m, f"exit_{state.lower()}") for state in EXIT_STATES},
             "success_exit": f"{m.success_exit:.4f}"} for m in measurements]  # fmt: skip
    return pd.DataFrame(rows).to_string(index=False)


def _table(args) -> str:
    switches = args.self_critique or args.approval
    if switches and "single-loop" not in args.setups:
        raise ValueError("--self-critique and --approval are switches of setup single-loop only")
    options = _contract_options(args)
    if options and "contract" not in args.setups:
        raise ValueError("--max-replans, --max-tokens and --max-seconds are options of setup contract only")
    stop_rule = args.stop_when_done or args.budget_margin is not None
    if stop_rule and args.setups == ["contract"]:
        raise ValueError(
            "--stop-when-done and --budget-margin are rules of setups single-loop and plan-execute"
        )
    measurements = []
    for setup in args.setups:
        on = setup == "single-loop"
        for seed in args.seeds:
            for budget in args.budgets:
                if setup == "contract":  # the contract stops at its goal; its bounds are its own options
                    measurements.append(measure(setup, seed, budget, **options))
                    continue
                measurements.append(
                    measure(setup, seed, budget, on and args.self_critique, on and args.approval,
                            args.stop_when_done, args.budget_margin)
                )  # fmt: skip
    contract = "contract" in args.setups
    rows = [
        {key: getattr(m, key) for key in JSON_KEYS + (CONTRACT_KEYS if m.setup == "contract" else ())}
        for m in measurements
    ]
    if args.format == "json":
        return json.dumps(rows, indent=2)
    if args.format == "csv":  # the contract's columns stay empty on the other setups' rows
        columns = list(JSON_KEYS + (CONTRACT_KEYS if contract else ()))
        return pd.DataFrame(rows, columns=columns, dtype=object).to_csv(index=False).rstrip("\n")
    lines = [format_table(seed_table(measurements))]
    if "plan-execute" in args.setups:
        lines += [format_plan_accuracy(plan_accuracy(seed), args.seeds) for seed in args.seeds]
    if contract:
        lines += ["", _exit_table([m for m in measurements if m.setup == "contract"])]
    return "\n".join(lines)


def _trace(args) -> str:
    task = check_task(args.task)
    setup = check_setup(args.setup)
    options = {} if args.max_replans is None else {"max_replans": args.max_replans}
    if options and setup != "contract":
        raise ValueError("--max-replans is an option of setup contract only")
    run = run_task(setup, task, check_seed(args.seed), check_budget(args.budget, "budget"),
                   stop_when_done=args.stop_when_done, **options)  # fmt: skip
    text = f"setup {setup}  seed {run.seed}  budget {run.budget}\n" + format_trace(run)
    if setup == "contract":
        text += (f"\n  exit state {run.exit_state}  stop reason {run.stop_reason}  replans {run.replans}"
                 f"  seconds {run.seconds}  correct {run.correct}\n" + format_events(run))  # fmt: skip
    return text


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit code (0 on success, 2 on bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        text = _table(args) if args.command == "table" else _trace(args)
    except (TypeError, ValueError) as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (e.g. `| head`) closed the pipe: stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps Python from failing again at exit
        return 0
    except OSError as error:  # e.g. a full disk
        print(f"{parser.prog}: error: cannot write the output: {error.strerror}", file=sys.stderr)
        return 1
    return 0
