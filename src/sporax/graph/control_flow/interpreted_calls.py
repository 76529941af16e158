"""Calls MindSpore's graph compiler can only interpret in Python (its JIT Fallback), which it refuses below LAX.

MindSpore 2.10's graph runs ``id(x)``, ``callable(x)``, ``math.sqrt(x)`` or ``Mine(x)`` (a plain Python class) on
the Python interpreter; at the STRICT and COMPATIBLE ``jit_syntax_level`` it does so only with constant inputs and
raises ValueError ("When handling script ... the inputs should be constant") when one is a Tensor being compiled.
With constants (``hash(3)``, ``np.sqrt(4.0)``) and at LAX it runs them, as sporax always does. A string and
such a Tensor in an operator (``"a" + x``) are refused the same way.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> ms.set_context(jit_syntax_level=ms.STRICT)
    >>> @ms.jit
    ... def identity(x):
    ...     return x + (id(x) > 0)
    >>> identity(ms.Tensor(np.ones(2, np.float32)))
    Traceback (most recent call last):
    ...
    ValueError: When handling script 'id(x)' in graph mode, the inputs should be constant, ...
    >>> ms.set_context(jit_syntax_level=ms.LAX)
"""
import builtins
import functools
import math
import os
import sys

import jax

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.state.discovery import is_cell

# builtins MindSpore's graph has no compiled form of (it interprets them)
_INTERPRETED_BUILTINS = frozenset((builtins.id, builtins.callable))
_PYTHON_LIBRARY = os.path.realpath(os.path.dirname(os.__file__))


@functools.lru_cache(maxsize=None)
def python_library(module_name):
    """Whether ``module_name`` is a module of Python's standard library (a file under the interpreter's library
    folder, outside site-packages).

    MindSpore's graph compiler does not parse such functions: it runs them on the interpreter, so
    ``copy.deepcopy`` keeps its ``except KeyError`` around a dict lookup that compiled code would refuse.
    """
    path = getattr(sys.modules.get(module_name), "__file__", None)
    if not path:
        return False
    path = os.path.realpath(path)
    return path.startswith(_PYTHON_LIBRARY + os.sep) and "site-packages" not in path.split(os.sep)


def _interpreted(function):
    if function in _INTERPRETED_BUILTINS:
        return True
    if getattr(function, "__module__", None) == math.__name__:
        return True
    # a plain Python class: not a Cell, a @jit_class, an exception, a builtin or a library type
    return (isinstance(function, type) and function.__module__ not in ("builtins", "numpy")
            and not function.__module__.startswith(("sporax", "mindspore", "jax", "numpy."))
            and not is_cell(function) and not issubclass(function, BaseException)
            and not getattr(function, "__ms_class__", False))


def _compiled(value):
    return isinstance(value, Tensor) and isinstance(value._value, jax.core.Tracer)


def refuse_below_lax(function, args, kwargs):
    """Raise MindSpore's ValueError when ``function(*args, **kwargs)`` is an interpreted call with a Tensor being
    compiled among its inputs, below the LAX syntax level; otherwise return."""
    if context.jit_syntax_level() == context.LAX:
        return
    inputs = list(args) + list(kwargs.values())
    if not any(_compiled(value) for value in inputs) or not _interpreted(function):
        return
    name = getattr(function, "__name__", type(function).__name__)
    position = next(index for index, value in enumerate(inputs) if _compiled(value))
    raise ValueError(f"When handling script '{name}(x)' in graph mode, the inputs should be constant, but found "
                     f"variable input {position} (a Tensor being compiled) to be nonconstant. Try to set "
                     "jit_syntax_level to LAX, or compute it with ops on the Tensor.")


def refuse_string_operand(name, left, right):
    """MindSpore's ValueError for ``"a" + x`` (a string and a Tensor being compiled) below LAX: it interprets
    the operator in Python, with constants only (at LAX Python's TypeError follows)."""
    if context.jit_syntax_level() != context.LAX and (_compiled(left) or _compiled(right)):
        symbol = {"add": "+", "mul": "*", "mod": "%"}.get(name, name)
        raise ValueError(f"When handling script '__input_key_0__ {symbol} __input_key_1__' in graph mode, the inputs "
                         "should be constant, but found a Tensor being compiled to be nonconstant. Try to set "
                         "jit_syntax_level to LAX, or convert the string out of the compiled code.")
