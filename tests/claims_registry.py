"""The registry of the lessons' claims (see claims.py for the rule): per lesson, (fragment of the
sentence as written, evidence). A lesson joins the claim rule when it has an entry list here.

Checks are named functions, evaluated at the lesson's defaults (seeds 20260218 and 20260219,
budget 8), so a failing check names what no longer holds.
"""

from claims import ByRule, Holds, NotAClaim, Printed  # noqa: F401 - the kinds of evidence entries use

import sim


def draw_share_falls_with_depth() -> bool:
    """The rule: the draw's share of taking the right tool falls with the position, to a floor."""
    shares = [sim.selection(d) for d in range(1, 10)]
    return (
        all(a >= b for a, b in zip(shares, shares[1:], strict=False))
        and shares[-1] == sim.picks.SELECTION_FLOOR
    )


REGISTRY: dict[str, list] = {}
