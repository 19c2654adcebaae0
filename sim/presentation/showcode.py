"""The code a lesson shows: whole functions or classes of `sim`, printed as they run.

A lesson prints `code_of(sim.engine.loops.take_step)` rather than slicing source text, so reformatting
a module never breaks a lesson, and each piece a lesson shows is one named function: a later
lesson's option lives in a function of its own and does not appear in an earlier lesson's code.
Introduced with the restructuring of `sim` (lessons 1 to 4 show code this way).
"""

import inspect
import textwrap

from sim.model.checks import check_switch
from sim.model.errors import InputTypeError


def code_of(obj, docstring: bool = False) -> str:
    """The source of a function or class of `sim`, without its docstring unless asked for.

    Parameters
    ----------
    obj : function | type
        A function or class defined in a module of `sim`.
    docstring : bool
        Keep the docstring (default: drop it, the lesson's prose explains the rule).

    Returns
    -------
    str
        The source text, dedented, "# fmt: skip" markers removed.

    Raises
    ------
    InputTypeError
        For anything that is not a function or class of `sim`, or a docstring switch that is
        not True or False.
    """
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
