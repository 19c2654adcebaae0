"""What a step costs in tokens, for every engine (AA28, lesson 2; self-critique, lesson 1; a replan's
context, CT9, lesson 4). Each takes an int or a numpy array and returns the same kind."""

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
    """A single-loop step that re-sends `trace_length` tool calls."""
    return LOOP_STEP_TOKENS + LOOP_TOKENS_PER_CALL * trace_length


def executor_step_tokens(trace_length):
    """An executor step (the split's, the contract's tool call) after `trace_length` calls."""
    return EXECUTOR_STEP_TOKENS + EXECUTOR_TOKENS_PER_CALL * trace_length


def planner_tokens(positions, replan=False):
    """A planner call writing `positions` positions, a contract replan with its error context (CT9)."""
    return PLANNER_TOKENS + PLANNER_TOKENS_PER_POSITION * positions + REPLAN_CONTEXT_TOKENS * replan


def observation_tokens(error, self_critique=False):
    """A tool call's observation, and the self-critique of a tool error (`error` a bool or bool array)."""
    return OBSERVATION_TOKENS + SELF_CRITIQUE_TOKENS * (error & self_critique)


def cheapest_loop_tokens(length: int) -> int:
    """The cheapest single-loop run of a sequence of `length` tools: each pick right, then a stop step."""
    calls = sum(loop_step_tokens(k) + observation_tokens(False) for k in range(length))
    return calls + loop_step_tokens(length)
