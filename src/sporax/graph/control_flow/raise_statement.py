"""``raise`` and ``assert`` in converted code: the exception MindSpore's graph compiler raises for it.

MindSpore raises a ``raise`` its compiler evaluates (a constant condition) while compiling, and
words a single text argument within single quotes: ``raise ValueError("x too long")`` reaches the
caller as ``ValueError: 'x too long'``. Several arguments read as Python's tuple already, a number
as itself, and a raise that waits for a tensor's value (the eager fallback) as plain Python. A failed
``assert`` on a constant condition words its text message the same way (``AssertionError: 'n too small'``).
"""
from sporax.state.scope import in_compiled_trace


def raised(exception):
    """The exception ``raise exception`` raises in converted code (its one text argument quoted while compiling)."""
    if (in_compiled_trace() and isinstance(exception, BaseException) and len(exception.args) == 1
            and isinstance(exception.args[0], str)):
        exception.args = (f"'{exception.args[0]}'",)
    return exception


def assert_message(message):
    """The message of a failed ``assert test, message`` in converted code (a text one quoted while compiling)."""
    if in_compiled_trace() and isinstance(message, str):
        return f"'{message}'"
    return message
