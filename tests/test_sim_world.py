"""The world's rules on their own: tariff bands, rollover, each tool's error cases, the task set."""

from collections import Counter

import pytest

from sim import SUBSCRIBERS, TASKS, TOOLS, call_tool, charge, correct_answer
from sim.model.world import consumption_m3, search_docs

# charge by hand: 4/m3 up to 10, 7/m3 up to 25, 11/m3 up to 40, 16/m3 above; commercial x2
EDGES = {0: 0, 10: 40, 11: 47, 25: 145, 26: 156, 40: 310, 41: 326}


@pytest.mark.parametrize("m3", sorted(EDGES))
def test_tariff_at_band_edges(m3):
    assert charge(m3, "residential") == EDGES[m3]
    assert charge(m3, "commercial") == 2 * EDGES[m3]


def test_rollover_adds_100000_when_the_meter_wrapped():
    assert consumption_m3(99990, 5) == 15
    assert consumption_m3(100, 130) == 30
    assert call_tool("consumption", {"previous": 99990, "current": 5}) == {"m3": 15}


def test_world_has_60_subscribers_with_small_consumption():
    assert len(SUBSCRIBERS) == 60 and list(SUBSCRIBERS)[0] == "A001" and list(SUBSCRIBERS)[-1] == "A060"
    assert all(0 <= r.current - r.previous < 70 for r in SUBSCRIBERS.values())
    assert {r.customer_type for r in SUBSCRIBERS.values()} == {"residential", "commercial"}


def test_tool_errors_for_missing_fields():
    assert call_tool("read_meter", {}) == {"error": "no such subscriber"}
    assert call_tool("read_meter", {"subscriber": "A999"}) == {"error": "no such subscriber"}
    assert call_tool("consumption", {"previous": 5}) == {"error": "missing field"}
    assert call_tool("tariff", {"type": "commercial"}) == {"error": "missing field"}
    assert call_tool("search_docs", {"query": ""}) == {"error": "missing field"}
    assert call_tool("search_docs", {"query": "xyz qqq"}) == {"error": "not found"}
    assert call_tool("write_record", {"subscriber": "A001", "column": "charge"}) == {"error": "missing field"}
    assert call_tool("no_such_tool", {}) == {"error": "no such tool"}


def test_fields_outside_the_schema_are_filtered():
    state = {"m3": 12, "subscriber": "A001", "previous": 1, "current": 2, "query": "x"}
    assert call_tool("tariff", state) == {"amount": charge(12, "residential")}
    assert call_tool("write_record", {"subscriber": "A001", "column": "charge", "value": 0, "m3": 3}) == {
        "written": True, "subscriber": "A001", "column": "charge", "value": 0,
    }  # fmt: skip


def test_search_docs_finds_the_rollover_document():
    assert search_docs("sayac donusunde endeks farki nasil hesaplanir")["code"] == "SY01"


def test_tools_and_side_effects():
    assert list(TOOLS) == ["read_meter", "consumption", "tariff", "search_docs", "write_record"]
    assert [name for name, tool in TOOLS.items() if tool.side_effect] == ["write_record"]


def test_task_kinds_and_sequences():
    sequences = {
        "charge": ("read_meter", "consumption", "tariff"),
        "consumption": ("read_meter", "consumption"),
        "document": ("search_docs",),
        "record": ("read_meter", "consumption", "tariff", "write_record"),
    }
    assert [t.name for t in TASKS] == [f"G{i:02d}" for i in range(1, 25)]
    assert all(t.sequence == sequences[t.kind] for t in TASKS)
    assert sum(len(t.sequence) for t in TASKS) == 53
    kinds = Counter(t.kind for t in TASKS)
    assert sum(kinds.values()) == 24 and set(kinds) == set(sequences)
    g05 = TASKS[4]
    assert (g05.kind, correct_answer(g05)) == ("charge", 550)
    assert all(correct_answer(t) == "SY01" for t in TASKS if t.kind == "document")
