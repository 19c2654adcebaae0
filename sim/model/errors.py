"""The course's errors for bad input. The CLI and the panels catch these and nothing else, so a
programming error still shows as the traceback it is."""


class InputError(ValueError):
    """A value that is not allowed (a ValueError), naming the parameter, the value and what is allowed."""


class InputTypeError(InputError, TypeError):
    """A value of the wrong kind (a string for a seed): also a TypeError."""
