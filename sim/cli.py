"""Command line: `python -m sim table` and `python -m sim trace TASK`, for slides and scripts.

Bad input is reported on stderr in one line and the exit code is 2; there is never a traceback.
"""

import argparse
import json
import sys
from collections.abc import Sequence

from sim.agents import DEFAULT_BUDGET, DEFAULT_SEED
from sim.checks import SETUP_NAMES, check_budget, check_seed, check_setup, check_task
from sim.measure import (
    format_plan_accuracy,
    format_table,
    format_trace,
    measure,
    measurement_frame,
    plan_accuracy,
    run_task,
    seed_table,
)

JSON_KEYS = ("setup", "seed", "budget", "success", "steps", "calls", "tokens", "errors", "approvals", "rule",
             "stop_when_done", "budget_margin")  # fmt: skip


def _integer(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name} must be whole numbers, got {text!r}") from None


def _seed_list(text: str) -> list[int]:
    try:
        return [check_seed(_integer(part, "seeds"), "seeds") for part in text.split(",")]
    except (TypeError, ValueError) as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _budget_list(text: str) -> list[int]:
    try:
        return [check_budget(_integer(part, "budgets"), "budgets") for part in text.split(",")]
    except (TypeError, ValueError) as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _setup_list(text: str) -> list[str]:
    try:
        return [check_setup(part, "setups") for part in text.split(",")]
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m sim`."""
    parser = argparse.ArgumentParser(
        prog="python -m sim",
        description="Agent loops, measured: the course's fictional simulator from the command line.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    table = commands.add_parser("table", help="counted units per (setup, seed, budget)")
    table.add_argument(
        "--setups",
        type=_setup_list,
        default=list(SETUP_NAMES),
        help=f"comma-separated, from {', '.join(SETUP_NAMES)} (default: both)",
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
    table.add_argument("--format", choices=("text", "json", "csv"), default="text")
    trace = commands.add_parser("trace", help="one task's plan and executed trace")
    trace.add_argument("task", help="task name, G01..G24")
    trace.add_argument("--setup", default="plan-execute", help=f"one of {', '.join(SETUP_NAMES)}")
    trace.add_argument("--seed", type=lambda t: _integer(t, "seed"), default=DEFAULT_SEED)
    trace.add_argument("--budget", type=lambda t: _integer(t, "budget"), default=DEFAULT_BUDGET)
    trace.add_argument("--stop-when-done", action="store_true", help="lesson 3's stopping criterion")
    return parser  # fmt: skip


def _table(args) -> str:
    switches = args.self_critique or args.approval
    if switches and "single-loop" not in args.setups:
        raise ValueError("--self-critique and --approval are switches of setup single-loop only")
    measurements = []
    for setup in args.setups:
        on = setup == "single-loop"
        for seed in args.seeds:
            for budget in args.budgets:
                measurements.append(
                    measure(setup, seed, budget, on and args.self_critique, on and args.approval,
                            args.stop_when_done, args.budget_margin)
                )  # fmt: skip
    frame = measurement_frame(measurements).astype({"budget_margin": "object"})
    frame["budget_margin"] = frame["budget_margin"].where(frame["budget_margin"].notna(), None)
    if args.format == "json":
        return json.dumps(frame[list(JSON_KEYS)].to_dict(orient="records"), indent=2)
    if args.format == "csv":
        return frame[list(JSON_KEYS)].to_csv(index=False).rstrip("\n")
    lines = [format_table(seed_table(measurements))]
    if "plan-execute" in args.setups:
        lines += [format_plan_accuracy(plan_accuracy(seed)) for seed in args.seeds]
    return "\n".join(lines)


def _trace(args) -> str:
    task = check_task(args.task)
    setup = check_setup(args.setup)
    run = run_task(setup, task, check_seed(args.seed), check_budget(args.budget, "budget"),
                   stop_when_done=args.stop_when_done)  # fmt: skip
    return f"setup {setup}  seed {run.seed}  budget {run.budget}\n" + format_trace(run)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit code (0 on success, 2 on bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        text = _table(args) if args.command == "table" else _trace(args)
    except (TypeError, ValueError) as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    print(text)
    return 0
