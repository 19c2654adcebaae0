"""How the lessons name setups and runs in tables and figures. Introduced in lesson 2."""

from sim.engine.config import DEFAULT_SEED
from sim.model.checks import check_items, check_seed

SETUP_LABELS = {"single-loop": "single loop", "plan-execute": "planner + executor", "contract": "contract"}
RUN_LABELS = {DEFAULT_SEED: "A", DEFAULT_SEED + 1: "B"}


def run_label(seed: int, seeds=None) -> str:
    """A run's label (lesson 2): "A" and "B" for the lessons' runs when all `seeds` shown beside it are
    theirs, else the seed's digits. Raises InputTypeError, InputError for a bad seed."""
    seed = check_seed(seed)
    shown = [] if seeds is None else check_items(seeds, object, "seeds", "seeds")
    return run_labels([seed, *shown])[0]


def run_labels(seeds) -> list[str]:
    """`run_label` of each of `seeds` among themselves (one table's), in linear time. Raises as `run_label`."""
    seeds = [check_seed(s, "seeds") for s in check_items(seeds, object, "seeds", "seeds")]
    letters = set(seeds) <= set(RUN_LABELS)
    return [RUN_LABELS[seed] if letters else str(seed) for seed in seeds]
