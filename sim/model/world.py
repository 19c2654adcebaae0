"""The fictional world (lesson 1): the subscribers of a water network, the tiered tariff, the documents
and the five tools. Built once from WORLD_SEED; a run's seed drives only the agent's draws (AA22).
The course's own look-alike `estimate_use` (LA1, lesson 4) is a sixth tool, offered only under the
option `lookalike`.
"""

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from sim.model.checks import check_integer
from sim.model.draws import draw_stream, tokenize
from sim.model.errors import InputError, InputTypeError

WORLD_SEED = 20260218
REGIONS = ("east", "west", "north", "south", "central")
CUSTOMER_TYPES = ("residential", "commercial")
N_SUBSCRIBERS = 60
ROLLOVER = 100000  # a meter counts to 99999 and starts again at 0

# (upper edge in m3, unit price) for each band; above the last edge every m3 costs ABOVE_LAST_BAND
TARIFF_BANDS = ((10, 4), (25, 7), (40, 11))
ABOVE_LAST_BAND = 16
COMMERCIAL_FACTOR = 2

DOCUMENTS = MappingProxyType(
    {
        "TR01": "tarife basamaklari 10 25 40 metrekup ve ustu",
        "TR02": "isyeri abonesinde birim ucret iki katidir",
        "SY01": "endeks farki tuketimi verir sayac donusu 100000 eklenir",
        "AR01": "ariza kaydi acildiginda saha ekibi iki gun icinde gider",
        "KS01": "planli kesinti duyurusu bir hafta once yayimlanir",
    }
)


@dataclass(frozen=True)
class Subscriber:
    """One meter record: region, customer type and the previous and current readings (m3)."""

    region: str
    customer_type: str
    previous: int
    current: int


def _build_subscribers() -> MappingProxyType:
    records = {}
    for i in range(N_SUBSCRIBERS):
        draw = draw_stream(WORLD_SEED + 31 * i)
        previous = 10000 + int(draw() * 80000)
        region = REGIONS[int(draw() * 5)]
        customer_type = CUSTOMER_TYPES[int(draw() * 2)]
        current = previous + int(draw() * 70)
        records[f"A{i + 1:03d}"] = Subscriber(region, customer_type, previous, current)
    return MappingProxyType(records)


SUBSCRIBERS = _build_subscribers()


def consumption_m3(previous: int, current: int) -> int:
    """Consumption (m3) between two meter readings, with the meter's rollover (document SY01)."""
    used = current - previous
    return used + ROLLOVER if used < 0 else used


def tariff_amount(m3: int, customer_type: str) -> int:
    """The charge for `m3` cubic metres: each band at its unit price, commercial customers pay double."""
    remaining, lower, total = m3, 0, 0
    for upper, unit_price in TARIFF_BANDS:
        in_band = min(remaining, upper - lower)
        if in_band <= 0:
            break
        total += in_band * unit_price
        remaining -= in_band
        lower = upper
    total += remaining * ABOVE_LAST_BAND
    return total * (COMMERCIAL_FACTOR if customer_type == "commercial" else 1)


def charge(m3: int, customer_type: str) -> int:
    """`tariff_amount` for checked input (lesson 1). Raises InputTypeError, InputError for m3 that is not
    an integer >= 0, or a customer type other than residential and commercial."""
    check_integer(m3, "m3", 0)
    if customer_type not in CUSTOMER_TYPES:
        kind = InputError if isinstance(customer_type, str) else InputTypeError
        raise kind(f"customer_type must be one of {', '.join(CUSTOMER_TYPES)}, got {customer_type!r}")
    return tariff_amount(m3, customer_type)


# ---- the five tools. Each takes only the fields of its schema; a missing field is its own error.


def read_meter(subscriber=None, **_):
    """Tool: the subscriber's readings, type and region."""
    record = SUBSCRIBERS.get(subscriber)
    if record is None:
        return {"error": "no such subscriber"}
    return {
        "previous": record.previous,
        "current": record.current,
        "type": record.customer_type,
        "region": record.region,
    }


def consumption(previous=None, current=None, **_):
    """Tool: the m3 used between the readings, with rollover."""
    if previous is None or current is None:
        return {"error": "missing field"}
    return {"m3": consumption_m3(previous, current)}


def tariff(m3=None, type="residential", **_):  # noqa: A002 - the tool's field is called "type"
    """Tool: the charge for m3 at the customer type (residential when no type is known)."""
    if m3 is None:
        return {"error": "missing field"}
    return {"amount": tariff_amount(m3, type)}


# each document's word pieces, in DOCUMENTS' order: the documents never change, so they are cut once
DOCUMENT_PIECES = tuple((code, frozenset(tokenize(text))) for code, text in DOCUMENTS.items())


def search_docs(query=None, **_):
    """Tool: the document sharing the most word pieces with the query (the first on a tie)."""
    if not query:
        return {"error": "missing field"}
    best_code = _best_document(str(query))
    if best_code is None:
        return {"error": "not found"}
    return {"code": best_code, "text": DOCUMENTS[best_code]}


@functools.lru_cache(maxsize=1024)  # the documents never change, and a run sends the same queries again
def _best_document(query: str) -> str | None:
    """The code of the document sharing the most word pieces with `query` (the first on a tie); None: none."""
    wanted = set(tokenize(query))
    best_overlap, best_code = -1, None
    for code, pieces in DOCUMENT_PIECES:
        overlap = len(wanted & pieces)
        if overlap > best_overlap:
            best_overlap, best_code = overlap, code
    return best_code if best_overlap > 0 else None


def write_record(subscriber=None, column=None, value=None, **_):
    """Tool (side effect): write `value` into the subscriber's `column`."""
    if not (subscriber and column and value is not None):
        return {"error": "missing field"}
    return {"written": True, "subscriber": subscriber, "column": column, "value": value}


@dataclass(frozen=True)
class Tool:
    """A tool: its function, the fields of its schema, and whether it changes the world."""

    name: str
    function: object
    fields: tuple[str, ...]
    side_effect: bool


TOOLS = MappingProxyType(
    {
        "read_meter": Tool("read_meter", read_meter, ("subscriber",), False),
        "consumption": Tool("consumption", consumption, ("previous", "current"), False),
        "tariff": Tool("tariff", tariff, ("m3", "type"), False),
        "search_docs": Tool("search_docs", search_docs, ("query",), False),
        "write_record": Tool("write_record", write_record, ("subscriber", "column", "value"), True),
    }
)
TOOL_NAMES = tuple(TOOLS)


# ---- the course's own look-alike (LA1, lesson 4): never one of the five TOOLS; only a run whose tool
# set offers it (RunConfig.tools) picks it.

LOOKALIKE_EXTRA_M3 = 1  # LA1: the look-alike's m3 is this much too high, for every pair of readings


def estimate_use(previous=None, current=None, **_):
    """Tool (LA1): `consumption`'s fields in and out, and an m3 one too high (both readings counted)."""
    if previous is None or current is None:
        return {"error": "missing field"}
    return {"m3": consumption_m3(previous, current) + LOOKALIKE_EXTRA_M3}


LOOKALIKE_TOOLS = MappingProxyType(
    {"estimate_use": Tool("estimate_use", estimate_use, ("previous", "current"), False)}
)
IMITATES = MappingProxyType({"estimate_use": "consumption"})  # LA1: look-alike -> the tool it imitates
WORLD_TOOLS = MappingProxyType({**TOOLS, **LOOKALIKE_TOOLS})  # every tool a call can name


def run_tool(name: str, state: dict) -> dict:
    """Tool `name`'s observation with the fields of its schema taken from `state` (read, never changed);
    {"error": ...} for a tool error or a name that is no tool."""
    tool = WORLD_TOOLS.get(name)
    if tool is None:
        return {"error": "no such tool"}
    return tool.function(**{field: state[field] for field in tool.fields if field in state})


def call_tool(name: str, state: dict) -> dict:
    """`run_tool` for checked input (lesson 1). Raises InputTypeError for a name that is not a string or
    a state that is not a mapping, and as `charge` for the tariff's fields."""
    if not isinstance(name, str):
        raise InputTypeError(f"name must be a tool name ({', '.join(TOOL_NAMES)}), got {name!r}")
    if not isinstance(state, Mapping):
        raise InputTypeError(f"state must be a mapping of field names to values, got {type(state).__name__}")
    if (
        name == "tariff" and state.get("m3") is not None
    ):  # the fields the tariff reads, checked as `charge` does
        charge(state["m3"], state.get("type", "residential"))
    return run_tool(name, state)
