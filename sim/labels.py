"""How the lessons name setups and runs in tables and figures. Introduced in lesson 2."""

from sim.checks import check_items, check_seed
from sim.config import DEFAULT_SEED

SETUP_LABELS = {"single-loop": "single loop", "plan-execute": "planner + executor", "contract": "contract"}
RUN_LABELS = {DEFAULT_SEED: "A", DEFAULT_SEED + 1: "B"}


def run_label(seed: int, seeds=None) -> str:
    """The lessons' label of a run.

    Parameters
    ----------
    seed : int
        A run seed.
    seeds : Iterable[int] | None
        The seeds shown beside it. Letters are used only when every one of them is a lesson
        run, so a table of seeds 20260217 and 20260218 never calls its second run "A".

    Returns
    -------
    str
        "A" for 20260218, "B" for 20260219, otherwise the seed's digits (lesson 2).

    Raises
    ------
    TypeError, ValueError
        (InputTypeError, InputError) for a seed that is not an integer 0 <= seed < 2**32, or
        seeds that are not None or such integers.
    """
    seed = check_seed(seed)
    if seeds is not None:
        seeds = [check_seed(s, "seeds") for s in check_items(seeds, object, "seeds", "seeds")]
    if seeds is not None and not set(seeds) <= set(RUN_LABELS):
        return str(seed)
    return RUN_LABELS.get(seed, str(seed))


def run_labels(seeds) -> list[str]:
    """`run_label` of each of `seeds` among themselves (the seeds of one table), checking them once:
    time linear in the seeds, for tables of thousands of rows.

    Raises InputTypeError / InputError for seeds that are not integers 0 <= seed < 2**32."""
    seeds = [check_seed(s, "seeds") for s in check_items(seeds, object, "seeds", "seeds")]
    letters = set(seeds) <= set(RUN_LABELS)
    return [RUN_LABELS[seed] if letters else str(seed) for seed in seeds]
