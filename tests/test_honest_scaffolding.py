"""The line between the model and the scaffolding (issue 28): in the engine, the chat bridge and the
scaffolds of the measurement layer, only the model's own rules and the scoring read the task's ground
truth (its sequence, its kind, its correct answer, the model's progress through the sequence); a stop
rule, budget rule, goal test, exit state, router, check or policy reads what an agent observes.

Read from the source: every such read must sit on a statement whose comment names the model rule or
the scoring that makes it (a code of MODEL_RULES). A read with no code fails the test.
"""

import ast
import re
from dataclasses import fields
from pathlib import Path

SIM = Path(__file__).resolve().parents[1] / "sim"
SCANNED = [*SIM.glob("engine/*.py"), *SIM.glob("chat/*.py"),
           *(SIM / "measurement" / name for name in ("argument_checks.py", "harness.py", "exit_tables.py"))]  # fmt: skip
TRUTH_NAMES = {"ANSWERS", "correct_answer", "GOALS", "KINDS", "is_correct", "expected_calls", "tool_machine"}
TRUTH_FIELDS = {"sequence", "done", "progress", "target", "right"}  # the task's, or the model's progress
TASK_NAMES = {"task", "t", "TASKS", "BY_NAME"}  # `.kind` of these is the task's kind
# the codes a read may name: the source's rules the golden rows hold, the course's model rules
# and the scoring (the truth beside a claim)
MODEL_RULES = re.compile(r"#.*\b(AA2[2-9]|AA30|CT2|CT6|CR1|scoring)\b")


def truth_reads(source: str) -> list[tuple[int, str, bool]]:
    """(line, what, named) for every read of the ground truth in `source`; named: its statement's
    lines carry a code of MODEL_RULES."""
    lines, found, aliases = source.splitlines(), [], set()
    tree = ast.parse(source)
    for node in ast.walk(tree):  # the truth's names as this module imports them (a local GOALS is its own)
        if isinstance(node, ast.ImportFrom):
            aliases |= {alias.asname or alias.name for alias in node.names if alias.name in TRUTH_NAMES}
        elif isinstance(node, ast.FunctionDef) and node.name in TRUTH_NAMES:
            aliases.add(node.name)  # a module's own is_correct, expected_calls: its callers read the truth

    class Reads(ast.NodeVisitor):
        statement = None

        def generic_visit(self, node):
            outer = self.statement
            if isinstance(node, ast.stmt):
                self.statement = node
            super().generic_visit(node)
            self.statement = outer

        def note(self, node, what):
            first, last = self.statement.lineno, self.statement.end_lineno
            if isinstance(
                self.statement, ast.FunctionDef | ast.ClassDef | ast.For | ast.While | ast.If | ast.With
            ):
                first = last = node.lineno  # a compound statement: its own line only
            named = any(MODEL_RULES.search(lines[k - 1]) for k in range(first, last + 1))
            found.append((node.lineno, what, named))

        def visit_Attribute(self, node):
            base = node.value
            named = base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")
            if isinstance(node.ctx, ast.Load) and (
                node.attr in TRUTH_FIELDS or node.attr in TRUTH_NAMES
                or (node.attr == "kind" and (named in TASK_NAMES or isinstance(base, ast.Subscript)))
            ):  # fmt: skip
                self.note(node, f"{named}.{node.attr}")
            self.generic_visit(node)

        def visit_Name(self, node):
            if node.id in aliases and isinstance(node.ctx, ast.Load):
                self.note(node, node.id)

        def visit_Call(self, node):
            literal = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant)]
            if isinstance(node.func, ast.Name) and (node.func.id == "vars" or (
                node.func.id == "getattr" and set(literal) & (TRUTH_FIELDS | {"kind"})
            )):  # fmt: skip
                self.note(node, node.func.id)
            self.generic_visit(node)

    Reads().visit(tree)
    return found


def test_only_the_models_rules_and_the_scoring_read_the_ground_truth():
    unnamed = {}
    for path in SCANNED:
        for line, what, named in truth_reads(path.read_text()):
            if not named:
                unnamed.setdefault(path.relative_to(SIM.parent).as_posix(), []).append(f"{line}: {what}")
    assert not unnamed, f"scaffolding reads the ground truth with no model rule named: {unnamed}"


def test_the_check_fails_on_a_scaffold_that_reads_ground_truth():
    peeking = """
from sim.model.tasks import ANSWERS as KEY
def stop_rule(loop):
    return loop.done == len(loop.task.sequence)
def budget(task):
    return {'record': 4}[task.kind] + len(getattr(task, 'sequence'))
def exit_state(run):
    return run.answer == KEY[run.task]
def after_a_model_rule(loop):
    target = loop.task.sequence[loop.done]  # AA27: the model's pick aims at the next position
    return target is None or loop.done == 3
"""
    unnamed = [(line, what) for line, what, named in truth_reads(peeking) if not named]
    assert [line for line, _ in unnamed] == [4, 4, 6, 6, 8, 11]
    honest = "def stop_rule(observation):\n    return 'amount' in observation.fields\n"
    assert truth_reads(honest) == []


def test_the_observation_carries_no_hint():
    from sim.engine.policy import Observation

    names = {f.name for f in fields(Observation)}
    assert not names & {"kind", "plan_length", "sequence", "task", "correct_answer"}
    assert {"request", "trace", "fields", "state", "held", "step", "steps_left"} <= names


def test_the_runs_name_is_read_only_to_address_the_endpoint():
    """An Observation's `task_name` (the task's id, which leads to its whole record in `sim`) is read by
    no scaffold: only the chat policy reads it, to name the run to the course's endpoint."""
    readers = sorted(
        path.relative_to(SIM).as_posix()
        for path in SCANNED
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr == "task_name" and isinstance(node.ctx, ast.Load)
    )
    assert set(readers) == {"chat/chat_policy.py"}, readers
