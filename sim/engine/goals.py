"""What a loop can see of its goal (the course's rules, lesson 3): the router RT1 reads the request's
words for the field it asks for, RT2 is the router's call count per goal, the goal test GT1 reads the
fields held. Scaffolding: these read the request and the observations, never the task's sequence,
kind or answer."""

from collections.abc import Mapping
from types import MappingProxyType

# RT1: the first phrase found in the request names the field it asks for (the order matters: a record
# request also asks for the charge)
ROUTES = (("kayda yaz", "written"), ("bedeli", "amount"), ("tuketimi", "m3"), ("hesaplanir", "code"))
# RT2: the calls each goal takes by the tools' documentation (read_meter -> consumption -> tariff ->
# write_record; search_docs), what a router's author writes down
CALLS_FOR = MappingProxyType({"amount": 3, "m3": 2, "code": 1, "written": 4})
INTERMEDIATES = MappingProxyType({"amount": ("m3",), "written": ("m3", "amount")})  # CT12's partial


def goal_of(request: str) -> str | None:
    """RT1: the field a request asks for, from its words; None for a request no route matches."""
    return next((goal for phrase, goal in ROUTES if phrase in request), None)


def budgeted_calls(goal: str | None, plan_length: int | None) -> int | None:
    """What SB2 budgets: a plan's own length, else the router's count for the goal (RT2); None: unknown."""
    return CALLS_FOR.get(goal) if plan_length is None else plan_length


def goal_reached(goal: str | None, fields: Mapping) -> bool:
    """GT1: the answer held is the goal field's value; for a record, written with the amount observed
    (what was written is what the tariff returned). False for no goal."""
    if goal == "written":
        written = fields.get("written") is True
        return written and "amount" in fields and fields.get("value") == fields["amount"]
    return goal is not None and goal in fields and fields.get("result") == fields[goal]


def holds_intermediate(goal: str | None, fields: Mapping) -> bool:
    """CT12's partial result: a field on the way to the goal held (m3 for a charge; m3 or the amount
    for a record)."""
    return any(name in fields for name in INTERMEDIATES.get(goal, ()))
