"""What catches a wrong argument (AE1, lesson 4): per setup over a block of seeds, the answers solved
with the rule off and on, the silent failures (SUCCESS reported, answer wrong), the contract's replans,
and the calls two observable checks would stop before they are sent: the request check (the subscriber
argument is the id the request names) and the state check (every argument is the value the agent holds)."""

import re

import numpy as np
import pandas as pd

from sim.engine.config import DEFAULT_BUDGET, RunConfig
from sim.engine.exit_states import exit_state_of
from sim.engine.labels import SETUP_LABELS
from sim.engine.loops import call_and_observe, call_arguments, initial_state, is_correct
from sim.engine.runs import run_with
from sim.measurement.counts import silent_and_false
from sim.measurement.many_seeds import bounded_t_interval
from sim.model.arguments import wrong_value
from sim.model.checks import SETUP_NAMES, check_budget, check_seeds, check_share
from sim.model.tasks import BY_NAME, TASKS

NAMED_ID = re.compile(r"\bA\d{3}\b")  # a subscriber id as a request names it


def sent_calls(run) -> list[tuple[dict, dict]]:
    """(arguments as sent, the values the agent held) for each call of a run, replayed from its
    starting state (the tools are pure; a failed call adds nothing)."""
    state, out = initial_state(BY_NAME[run.task]), []
    for call in run.trace:
        held = call_arguments(call.tool, state)
        out.append(
            ({name: wrong_value(name, v) if name in call.wrong else v for name, v in held.items()}, held)
        )
        if not call.error:
            call_and_observe(call.tool, state, call.wrong)
    return out


def request_check(sent: dict, request: str) -> bool:
    """The request check: the call is stopped when its subscriber is not the id the request names."""
    named = NAMED_ID.search(request)
    return named is not None and sent.get("subscriber", named.group()) != named.group()


def state_check(sent: dict, held: dict) -> bool:
    """The state check: the call is stopped when an argument is not the value the agent holds (AE1's
    errors are exactly such departures and a tool's echo never overwrites what the request gave, so it
    stops every one: that holds by the rules)."""
    return sent != held


def argument_error_table(seeds, share: float, max_steps: int = DEFAULT_BUDGET) -> pd.DataFrame:
    """One row per setup, means per seed of 24 tasks: solved with AE1 off and on at `share` and the
    same-seed change with its 95 % t interval; calls with a wrong argument, silent failures with AE1
    off and on, replans beyond those with AE1 off, calls each check stops.
    Raises InputTypeError, InputError for bad seeds, share or budget."""
    seeds, share, max_steps = check_seeds(seeds), check_share(share, "share"), check_budget(max_steps)
    rows = []
    for setup in SETUP_NAMES:
        per_seed = []
        config_off, config_on = (
            RunConfig(setup, max_steps),
            RunConfig(setup, max_steps, argument_errors=share),
        )
        for seed in seeds.tolist():
            off = [run_with(config_off, task, seed) for task in TASKS]
            on = [run_with(config_on, task, seed) for task in TASKS]
            calls = [(sent, held, task.request) for run, task in zip(on, TASKS, strict=True)
                     for sent, held in sent_calls(run)]  # fmt: skip
            per_seed.append((sum(map(is_correct, off)), sum(map(is_correct, on)),  # scoring
                             sum(sum(map(bool, (c.wrong for c in run.trace))) for run in on),
                             silent_and_false([exit_state_of(run) for run in on], on)["silent_failures"],
                             sum(getattr(run, "replans", 0) for run in on) - sum(getattr(run, "replans", 0) for run in off),
                             sum(request_check(sent, request) for sent, _, request in calls),
                             sum(state_check(sent, held) for sent, held, _ in calls),
                             silent_and_false([exit_state_of(run) for run in off], off)["silent_failures"]))  # fmt: skip
        table = np.array(per_seed, dtype=float)
        change = bounded_t_interval(table[:, 1] - table[:, 0], -len(TASKS), len(TASKS))
        rows.append({"setup": SETUP_LABELS[setup], "solved, AE1 off": table[:, 0].mean(),
                     "solved, AE1 on": table[:, 1].mean(), "change": change[0], "change: low": change[1],
                     "change: high": change[2], "wrong calls": table[:, 2].mean(),
                     "silent failures, AE1 off": table[:, 7].mean(), "silent failures, AE1 on": table[:, 3].mean(),
                     "extra replans": table[:, 4].mean(),
                     "stopped by request check": table[:, 5].mean(),
                     "stopped by state check": table[:, 6].mean()})  # fmt: skip
    return pd.DataFrame(rows)
