"""The code a lesson shows: whole functions or classes of `sim`, printed as they run (lessons 1 to 4)."""

import inspect
import textwrap

from sim.model.checks import check_switch
from sim.model.errors import InputTypeError


def code_of(obj, docstring: bool = False) -> str:
    """The source of a function or class of `sim`, dedented, without "# fmt: skip" or (unless asked) its
    docstring. Raises InputTypeError."""
    if not (inspect.isfunction(obj) or inspect.isclass(obj)) or not obj.__module__.startswith("sim."):
        raise InputTypeError(f"obj must be a function or class of sim, got {obj!r}")
    check_switch(docstring, "docstring")
    source = textwrap.dedent(inspect.getsource(obj))
    if not docstring and obj.__doc__:
        body = inspect.getdoc(obj)
        start = source.find('"""')
        end = source.find('"""', start + 3) + 3
        if start >= 0 and body.splitlines()[0] in source[start:end]:
            tail = source[end:]
            source = source[:start].rstrip(" ") + tail.lstrip("\n") if tail.startswith("\n") else source
            source = "\n".join(line for line in source.splitlines() if line.strip() or line == "")
    return source.replace("  # fmt: skip", "").rstrip() + "\n"
