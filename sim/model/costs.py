"""What a step costs in tokens (rule AA28, and the course's additions), written once for every engine.

Each function takes an int or a numpy array (the batch path's (task, seed) lanes) and returns
the same kind. Source: rule AA28 of the planner/executor lesson (lesson 2); self-critique's
cost (lesson 1); the contract's replan context (rule CT9, lesson 4).
"""

LOOP_STEP_TOKENS = 60  # a single-loop step: 60 + 22 x trace length
LOOP_TOKENS_PER_CALL = 22
PLANNER_TOKENS = 60  # a planner call: 60 + 25 x positions written
PLANNER_TOKENS_PER_POSITION = 25
EXECUTOR_STEP_TOKENS = 40  # an executor step: 40 + 10 x trace length
EXECUTOR_TOKENS_PER_CALL = 10
OBSERVATION_TOKENS = 30  # every tool observation
SELF_CRITIQUE_TOKENS = 40  # per tool error, when the single loop critiques itself
REPLAN_CONTEXT_TOKENS = 30  # a contract replan's error context (CT9)


def loop_step_tokens(trace_length):
    """Tokens of a single-loop step that re-sends a trace of `trace_length` tool calls: 60 + 22 x length."""
    return LOOP_STEP_TOKENS + LOOP_TOKENS_PER_CALL * trace_length


def executor_step_tokens(trace_length):
    """Tokens of an executor step (the split's, and the contract's tool call) after `trace_length`
    calls: 40 + 10 x length."""
    return EXECUTOR_STEP_TOKENS + EXECUTOR_TOKENS_PER_CALL * trace_length


def planner_tokens(positions, replan=False):
    """Tokens of a planner call writing `positions` positions: 60 + 25 x positions, plus 30 for the
    error context when it is a contract replan (CT9)."""
    return PLANNER_TOKENS + PLANNER_TOKENS_PER_POSITION * positions + REPLAN_CONTEXT_TOKENS * replan


def observation_tokens(error, self_critique=False):
    """Tokens of a tool call's observation: 30, plus 40 when it is a tool error and the single loop
    critiques itself (`error` a bool or a bool array)."""
    return OBSERVATION_TOKENS + SELF_CRITIQUE_TOKENS * (error & self_critique)


def cheapest_loop_tokens(length: int) -> int:
    """Tokens of the cheapest single-loop run of a sequence of `length` tools: every pick right, then a
    stop step. The sum over calls k = 0 .. length - 1 of (60 + 22 k + 30), plus the stop step
    60 + 22 x length (rule AA28), in tokens. Source: lesson 1."""
    calls = sum(loop_step_tokens(k) + observation_tokens(False) for k in range(length))
    return calls + loop_step_tokens(length)
