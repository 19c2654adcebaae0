"""The layers of `sim` (issue 27): a module imports only from its own layer or below, no import
cycle, and the model and the engine load neither pandas nor matplotlib.

Imports are read from the source (every `import`, at module level or inside a function), so a
late import cannot hide an upward edge or a cycle.
"""

import ast
import json
import subprocess
import sys
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

SIM = Path(__file__).resolve().parents[1] / "sim"

# what each layer may import besides itself; the order of the course design: model, engine,
# then measurement on the engine, the chat bridge on measurement, presentation on both, exercises on top
BELOW = {
    "model": set(),
    "engine": {"model"},
    "measurement": {"model", "engine"},
    "chat": {"model", "engine", "measurement"},
    "presentation": {"model", "engine", "measurement", "chat"},  # chat: lesson 7's recorded runs
    "exercises": {"model", "engine", "measurement", "presentation", "chat"},
    "sim": {"model", "engine"},  # sim/__init__.py: the model's and the engine's names
    "cli": {"model", "engine", "measurement", "chat", "presentation", "exercises"},
}
LAYERS = [name for name in BELOW if name not in ("sim", "cli")]


def module_name(path: Path) -> str:
    """sim.engine.loops for sim/engine/loops.py; a package's __init__ is the package."""
    parts = path.relative_to(SIM.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str:
    """The layer a sim module belongs to: its folder, "cli" for sim.cli and sim.__main__, "sim" for sim."""
    parts = module.split(".")
    if len(parts) == 1:
        return "sim"
    return parts[1] if parts[1] in LAYERS else "cli"


def imports_of(module: str, source: str) -> set[str]:
    """The sim modules a source imports, anywhere in it (relative imports resolved)."""
    found = set()
    package = module if module in PACKAGES else module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "sim"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            if base.split(".")[0] == "sim":
                found.add(base)
                # `from sim.engine import loops` imports the module sim.engine.loops
                found |= {f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES}
    return found - {module}


SOURCES = {module_name(path): path.read_text() for path in sorted(SIM.rglob("*.py"))}
MODULES = set(SOURCES)
PACKAGES = {module_name(path) for path in SIM.rglob("__init__.py")}


@cache
def imports_in_sim(module: str) -> frozenset[str]:
    """imports_of for a module of the package as it is."""
    return frozenset(imports_of(module, SOURCES[module]))


def upward_imports(sources: dict[str, str]) -> list[str]:
    """Each import of a module from a layer above its own, as "importer -> imported"."""
    wrong = []
    for module, source in sources.items():
        allowed = BELOW[layer_of(module)] | {layer_of(module)}
        found = imports_in_sim(module) if SOURCES.get(module) == source else imports_of(module, source)
        for target in sorted(found):
            if layer_of(target) not in allowed and target != "sim":
                wrong.append(f"{module} -> {target}")
    return wrong


def test_every_module_lives_in_a_layer_folder():
    loose = sorted(m for m in MODULES if layer_of(m) == "cli" and m not in ("sim.cli", "sim.__main__"))
    assert loose == []
    assert {layer_of(m) for m in MODULES} == set(BELOW)


def test_a_module_imports_only_from_its_own_layer_or_below():
    assert upward_imports(SOURCES) == []


def test_the_layer_check_sees_an_upward_import_even_inside_a_function():
    source = "def f():\n    from sim.presentation.tables import seed_table\n    return seed_table\n"
    assert upward_imports({"sim.engine.loops": source}) == ["sim.engine.loops -> sim.presentation.tables"]
    assert upward_imports({"sim.presentation.tables": "from sim.engine import loops\n"}) == []


def test_no_import_cycle():
    graph = {module: imports_in_sim(module) & MODULES for module in SOURCES}
    for module in graph:  # a package's modules import their package's __init__ first: not an edge here
        graph[module] = {target for target in graph[module] if not module.startswith(target + ".")}
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        pytest.fail(f"import cycle: {' -> '.join(error.args[1])}")


def test_the_cycle_check_sees_a_cycle():
    with pytest.raises(CycleError):
        TopologicalSorter({"a": {"b"}, "b": {"c"}, "c": {"a"}}).prepare()


@pytest.mark.parametrize("layer", ["model", "engine"])
def test_the_model_and_the_engine_load_neither_pandas_nor_matplotlib(layer):
    names = sorted(m for m in MODULES if layer_of(m) == layer)
    probe = "import sys, importlib\n" + "".join(f"importlib.import_module({name!r})\n" for name in names)
    probe += "print(sorted(m for m in ('pandas', 'matplotlib', 'ipywidgets', 'scipy') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.replace("'", '"')) == []
