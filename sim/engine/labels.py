"""How the lessons name setups and runs in tables and figures. Introduced in lesson 2."""

from sim.engine.config import DEFAULT_SEED
from sim.model.checks import check_items, check_seed

SETUP_LABELS = {"single-loop": "single loop", "plan-execute": "planner + executor", "contract": "contract"}
RUN_LABELS = {DEFAULT_SEED: "A", DEFAULT_SEED + 1: "B"}


def run_label(seed: int, seeds=None) -> str:
    """The lessons' label of a run: "A" for 20260218, "B" for 20260219, otherwise the seed's digits;
    letters only when every one of `seeds` (the seeds shown beside it) is a lesson run (lesson 2).

    Raises InputTypeError / InputError for a seed, or seeds, not integers 0 <= seed < 2**32."""
    seed = check_seed(seed)
    shown = [] if seeds is None else check_items(seeds, object, "seeds", "seeds")
    return run_labels([seed, *shown])[0]


def run_labels(seeds) -> list[str]:
    """`run_label` of each of `seeds` among themselves (the seeds of one table), checking them once:
    time linear in the seeds, for tables of thousands of rows.

    Raises InputTypeError / InputError for seeds that are not integers 0 <= seed < 2**32."""
    seeds = [check_seed(s, "seeds") for s in check_items(seeds, object, "seeds", "seeds")]
    letters = set(seeds) <= set(RUN_LABELS)
    return [RUN_LABELS[seed] if letters else str(seed) for seed in seeds]
