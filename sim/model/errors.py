"""The course's own error types for bad input: what a student, an instructor or a script passed in.

`InputError` is a `ValueError` (a value of the right kind that is not allowed); `InputTypeError`
is also a `TypeError` (a value of the wrong kind). Both name the parameter and what is
allowed. The CLI and the panels catch these and nothing else, so a programming error still
shows as the traceback it is. Introduced with the restructuring of `sim` (all lessons).
"""


class InputError(ValueError):
    """A value that is not allowed: the message names the parameter, the value and what is allowed."""


class InputTypeError(InputError, TypeError):
    """A value of the wrong kind (a string for a seed, a float for a budget): also a TypeError."""
