"""Record the transcript lesson 6 replays: the chat policy against the course's fictional model behind
a chat endpoint (sim.chat.model_endpoint, on 127.0.0.1; NOT a model), each run addressed by its model
name SHIPPED_MODEL, scored as the lesson scores it.

    .venv/bin/python scripts/record_chat_transcript.py

It makes, in this order, the calls the lesson replays: `harness.score` against the single loop
(runs A and B, then SHIPPED_HELD_OUT held-out seeds), then `harness.entrant_run` on those seeds.
"""

from sim import DEFAULT_BUDGET
from sim.chat.chat_policy import (
    SHIPPED_HELD_OUT,
    SHIPPED_LABEL,
    SHIPPED_MODEL,
    SHIPPED_TRANSCRIPT,
    chat_policy,
)
from sim.chat.model_endpoint import serve
from sim.measurement import harness

if __name__ == "__main__":
    SHIPPED_TRANSCRIPT.unlink(missing_ok=True)
    SHIPPED_TRANSCRIPT.parent.mkdir(exist_ok=True)
    seeds = harness.held_out_seeds(SHIPPED_HELD_OUT)
    with serve() as base_url:
        live = chat_policy(SHIPPED_MODEL, base_url, "none", timeout=10, max_retries=0, record=SHIPPED_TRANSCRIPT,
                           label=SHIPPED_LABEL)  # fmt: skip
        harness.score(live, "single-loop", DEFAULT_BUDGET, seeds, harness.LESSON_SEEDS)
        harness.entrant_run(live, seeds, DEFAULT_BUDGET)
    print(f"wrote {SHIPPED_TRANSCRIPT}, failures: {len(live.failures)}")
