"""The line between the model and the scaffolding (issue 28): in the engine and the chat bridge, only
the model's own rules read the task's ground truth (its sequence, its kind, its correct answer); a
stop rule, budget rule, goal test, exit state, router or policy reads what an agent observes.

Read from the source: every `.sequence`, every `task.kind`, every use of ANSWERS, correct_answer,
GOALS or KINDS in a function of sim/engine or sim/chat must be a model rule allow-listed here by code.
"""

import ast
from dataclasses import fields
from pathlib import Path

SIM = Path(__file__).resolve().parents[1] / "sim"
TRUTH_NAMES = {"ANSWERS", "correct_answer", "GOALS", "KINDS"}  # sim.model.tasks' answer key and kinds

# (module, function) -> the model rule or the scoring that may read the ground truth there
ALLOWED = {
    ("sim/engine/loops.py", "take_step"): "AA27: the model's pick aims at the next position of the sequence",
    (
        "sim/engine/loops.py",
        "plan_execute",
    ): "AA24, AA29: the planner writes as many positions as the sequence",
    ("sim/engine/loops.py", "is_correct"): "AA30: scoring, the answer against the correct one",
    ("sim/engine/common_draws.py", "common_plan"): "CR1 with AA24, AA29: the planner's positions",
    ("sim/engine/runs.py", "expected_calls"): "AA29: the split's plan is as long as the sequence",
    ("sim/engine/contract.py", "contract_run"): "CT2: the first plan is the split's (AA29)",
    ("sim/engine/contract.py", "Contract.remaining"): "CT6: the replanner knows how many positions remain",
    ("sim/engine/contract.py", "Contract.execute"): "CT6: the progress count the replanner reads",
    ("sim/engine/contract.py", "Contract.record"): "scoring: the answer's truth, beside the exit state",
    ("sim/chat/standin_server.py", "standin_message"): "the stand-in answers as the fictional model (AA27)",
}


def truth_reads(source: str) -> list[tuple[str, str, int]]:
    """(function, what, line) for every read of the ground truth in `source`."""
    found = []

    class Reads(ast.NodeVisitor):
        def __init__(self):
            self.scope = []

        def visit_FunctionDef(self, node):
            self.scope.append(node.name)
            self.generic_visit(node)
            self.scope.pop()

        visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

        def visit_Attribute(self, node):
            base = node.value
            named = base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")
            if node.attr == "sequence" or (
                node.attr == "kind" and (named == "task" or isinstance(base, ast.Subscript))
            ):
                found.append((".".join(self.scope), f"{named}.{node.attr}", node.lineno))
            self.generic_visit(node)

        def visit_Name(self, node):
            if node.id in TRUTH_NAMES and isinstance(node.ctx, ast.Load):
                found.append((".".join(self.scope), node.id, node.lineno))

    Reads().visit(ast.parse(source))
    return found


def scaffold_reads() -> dict[tuple[str, str], list]:
    reads = {}
    for path in sorted([*SIM.glob("engine/*.py"), *SIM.glob("chat/*.py")]):
        name = path.relative_to(SIM.parent).as_posix()
        for function, what, line in truth_reads(path.read_text()):
            reads.setdefault((name, function), []).append(f"{what} (line {line})")
    return reads


def test_only_the_models_rules_read_the_ground_truth():
    reads = scaffold_reads()
    unlisted = {where: what for where, what in reads.items() if where not in ALLOWED}
    assert not unlisted, f"scaffolding reads the task's ground truth: {unlisted}"
    assert set(ALLOWED) == set(reads), f"allow-listed but reading nothing: {set(ALLOWED) - set(reads)}"


def test_the_check_fails_on_a_scaffold_that_reads_ground_truth():
    peeking = (
        "def stop_rule(loop):\n    return loop.done == len(loop.task.sequence)\n"
        "def budget(task):\n    return {'record': 4}[task.kind]\n"
        "def exit_state(run):\n    return run.answer == ANSWERS[run.task]\n"
    )
    assert [where for where, _, _ in truth_reads(peeking)] == ["stop_rule", "budget", "exit_state"]
    honest = "def stop_rule(observation):\n    return 'amount' in observation.fields\n"
    assert truth_reads(honest) == []


def test_the_observation_carries_no_hint():
    from sim.engine.policy import Observation

    names = {f.name for f in fields(Observation)}
    assert not names & {"kind", "plan_length", "sequence", "task", "correct_answer"}
    assert {"request", "trace", "fields", "state", "held", "step", "steps_left"} <= names
