"""Lines of `sim` per layer: all lines, docstring lines, and the docstrings' share (issue 27).

    .venv/bin/python benchmarks/sim_lines.py

A docstring line is a line of a module's, class's or function's docstring (ast); the layer is the
folder under sim/ (the package's own modules count as "sim").
"""

import ast
from collections import Counter
from pathlib import Path

SIM = Path(__file__).resolve().parents[1] / "sim"


def docstring_lines(source: str) -> int:
    """Lines taken by the docstrings of a module, its classes and its functions."""
    count = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                count += first.end_lineno - first.lineno + 1
    return count


def main() -> None:
    lines, docs, modules = Counter(), Counter(), Counter()
    for path in sorted(SIM.rglob("*.py")):
        layer = path.parent.name if path.parent != SIM else "sim"
        source = path.read_text()
        lines[layer] += len(source.splitlines())
        docs[layer] += docstring_lines(source)
        modules[layer] += 1
    print(f"{'layer':<14}{'modules':>8}{'lines':>8}{'docstring':>11}{'share':>8}")
    for layer in sorted(lines, key=lambda name: -lines[name]):
        print(
            f"{layer:<14}{modules[layer]:>8}{lines[layer]:>8}{docs[layer]:>11}{docs[layer] / lines[layer]:>8.1%}"
        )
    total, total_docs = sum(lines.values()), sum(docs.values())
    print(f"{'all':<14}{sum(modules.values()):>8}{total:>8}{total_docs:>11}{total_docs / total:>8.1%}")


if __name__ == "__main__":
    main()
