"""The measurement of one setup at one seed (lesson 2): the counted units (AA30, `sim.engine.units`)
summed over the 24 tasks, and the planner's plan accuracy.
"""

from collections.abc import Sequence
from dataclasses import dataclass, fields

from sim.engine.common_draws import common_plan
from sim.engine.config import DEFAULT_BUDGET, DEFAULT_SEED, RunConfig, run_config
from sim.engine.exit_states import EXIT_STATES, STOP_REASONS, SUCCESS, exit_field, stop_field
from sim.engine.loops import is_correct
from sim.engine.runs import run_with
from sim.engine.units import UNITS, Unit
from sim.measurement.batch import BATCH_SETUPS, batch_run
from sim.model.checks import check_seed, check_seeds, check_switch
from sim.model.draws import PositionDraws, draw_stream, stream_key
from sim.model.picks import write_plan
from sim.model.tasks import TASKS

LOOP_SWITCHES = ("stop_when_done", "budget_margin", "self_critique", "approval")  # in every table row
CONTRACT_BOUNDS = ("max_replans", "max_tokens", "max_seconds")


def silent_and_false(states, runs) -> dict[str, int]:
    """Runs reported SUCCESS with a wrong answer (silent failures) and reported otherwise with the right
    one (false alarms), by the seed's success measure (AA30), from exit states and runs in one order."""
    done = [is_correct(run) for run in runs]  # scoring
    pairs = list(zip(states, done, strict=True))
    return {"silent_failures": sum(s == SUCCESS and not d for s, d in pairs),
            "false_alarms": sum(s != SUCCESS and d for s, d in pairs)}  # fmt: skip


@dataclass(frozen=True)
class ContractCounts:
    """What a contract measurement adds (lesson 4): replans and simulated seconds summed over the tasks,
    tasks per exit state (CT12) and per stop reason (CT7, CT11), silent failures and false alarms
    (`silent_and_false`)."""

    replans: int
    seconds: int
    exit_success: int
    exit_partial_success: int
    exit_replan_exhausted: int
    exit_timeout: int
    silent_failures: int
    false_alarms: int
    stop_plan_complete: int
    stop_max_steps: int
    stop_max_tokens: int
    stop_max_seconds: int
    stop_max_replans: int

    @classmethod
    def of(cls, runs) -> "ContractCounts":
        """Count a list of ContractRuns."""
        exits = [run.exit_state for run in runs]
        stops = [run.stop_reason for run in runs]
        return cls(
            replans=sum(run.replans for run in runs),
            seconds=sum(run.seconds for run in runs),
            **{exit_field(state): exits.count(state) for state in EXIT_STATES},
            **silent_and_false(exits, runs),
            **{stop_field(reason): stops.count(reason) for reason in STOP_REASONS},
        )


@dataclass(frozen=True)
class Measurement:
    """The counted units of one setup at one seed and budget (steps) over the 24 tasks, summed; config
    is the RunConfig it ran with, contract its ContractCounts (setup "contract" only)."""

    setup: str
    seed: int
    budget: int
    solved: int
    n_tasks: int
    steps: int
    calls: int
    tokens: int
    errors: int
    approvals: int
    config: RunConfig
    contract: ContractCounts | None = None

    @property
    def success(self) -> float:
        """Share of tasks solved, in [0, 1]."""
        return self.solved / self.n_tasks

    @property
    def success_exit(self) -> float | None:
        """Share of tasks ending in exit state SUCCESS (setup "contract"; None for the others)."""
        return None if self.contract is None else self.contract.exit_success / self.n_tasks

    @property
    def rule(self) -> str:
        """The stopping rule that ran (RunConfig.rule)."""
        return self.config.rule

    def reported(self, unit: Unit) -> float | int:
        """A counted unit as a table reports it: success as a share, the others as counts."""
        return self.success if unit.share else getattr(self, unit.count)

    def row(self) -> dict:
        """The measurement as one flat row (the CLI's JSON and CSV rows): the units, the rule, the loops'
        switches, and for the contract its counts and bounds."""
        row = {"setup": self.setup, "seed": self.seed, "budget": self.budget}
        row.update({unit.reported: self.reported(unit) for unit in UNITS})
        row.update({"approvals": self.approvals, "rule": self.rule})
        row.update({name: getattr(self.config, name) for name in LOOP_SWITCHES})
        if self.contract is not None:
            counts = {f.name: getattr(self.contract, f.name) for f in fields(ContractCounts)}
            row["replans"] = counts.pop("replans")
            row["success_exit"] = self.success_exit
            exits = {name: value for name, value in counts.items() if name.startswith("exit_")}
            row.update(exits)
            row.update({name: counts[name] for name in ("silent_failures", "false_alarms")})
            row.update({name: getattr(self.config, name) for name in CONTRACT_BOUNDS})
            row["seconds"] = counts.pop("seconds")
            row.update({name: value for name, value in counts.items() if name.startswith("stop_")})
        return row


def measure_config(config: RunConfig, seed: int) -> Measurement:
    """Run all 24 tasks under a checked RunConfig at a checked seed and count the units."""
    runs = [run_with(config, task, seed) for task in TASKS]
    return Measurement(
        config.setup, seed, config.budget, sum(is_correct(run) for run in runs), len(runs),
        sum(run.steps for run in runs), sum(run.calls for run in runs), sum(run.tokens for run in runs),
        sum(run.errors for run in runs), sum(run.approvals for run in runs), config,
        ContractCounts.of(runs) if config.setup == "contract" else None,
    )  # fmt: skip


def measure(setup: str, seed: int = DEFAULT_SEED, max_steps: int = DEFAULT_BUDGET, **options) -> Measurement:
    """Run all 24 tasks in one setup and count the units (lesson 2); options as `run_config`.
    Raises InputError / InputTypeError."""
    return measure_config(run_config(setup, max_steps, **options), check_seed(seed))


def measure_seeds(config: RunConfig, seeds: Sequence[int]) -> list[Measurement]:
    """`measure_config` at each seed, the loops on the batch path (all seeds at once; AE1 has none)."""
    if config.setup not in BATCH_SETUPS or config.argument_errors is not None:
        return [measure_config(config, int(seed)) for seed in check_seeds(seeds)]
    totals = batch_run(config, seeds).per_seed()
    fields_per_seed = ("seeds", "solved", "steps", "calls", "tokens", "errors", "approvals")
    rows = zip(*(getattr(totals, name).tolist() for name in fields_per_seed), strict=True)
    return [
        Measurement(config.setup, seed, config.budget, solved, totals.n_tasks, *counts, config)
        for seed, solved, *counts in rows
    ]


@dataclass(frozen=True)
class PlanAccuracy:
    """How right the planner's first plans are at one seed: right positions of all, fully right plans of all."""

    seed: int
    right_positions: int
    positions: int
    right_plans: int
    plans: int

    @property
    def position_share(self) -> float:
        """Share of plan positions that name the right tool."""
        return self.right_positions / self.positions


def plan_accuracy(seed: int = DEFAULT_SEED, common_draws: bool = False) -> PlanAccuracy:
    """How right the planner's plans are at one seed (AA24, AA29), written under CR1 with
    common_draws (lesson 5)."""
    seed = check_seed(seed)
    common_draws = check_switch(common_draws, "common_draws")
    right_positions = positions = right_plans = 0
    for task in TASKS:
        if common_draws:
            plan = common_plan(task, PositionDraws(seed, task.name))
        else:
            plan = write_plan(task.sequence, draw_stream(stream_key(seed, task.name, planner=True)))
        matches = [planned == wanted for planned, wanted in zip(plan, task.sequence, strict=True)]
        right_positions += sum(matches)
        positions += len(task.sequence)
        right_plans += all(matches)
    return PlanAccuracy(seed, right_positions, positions, right_plans, len(TASKS))
