"""Python floats that compiled code returns, as MindSpore's static graph gives them back.

The graph holds a Python float as a float32 scalar that remembers the float it was made from, so a
returned float comes back exact when it is within 1e-6 of its float32 value and as that float32 value
otherwise (recorded on MindSpore 2.10). ``state.program`` applies the rule to a compiled function's
outputs, ``graph.jit`` to a function that fell back to running eagerly.

Example:
    >>> from sporax.state.python_floats import returned_float
    >>> returned_float(2.2), returned_float(100.12)
    (2.2, 100.12000274658203)
"""
import struct

from sporax.state.fallback import replaced

_FLOAT32 = struct.Struct("f")


def returned_float(value):
    """A Python float as MindSpore's graph returns it: the graph holds it as a float32 scalar that keeps
    the float it was made from, and gives that float back unless the two differ by 1e-6 or more
    (``return 2.2`` -> 2.2, ``return 100.12`` -> 100.12000274658203: recorded on MindSpore 2.10).
    A float computed in the graph is float32 already and comes back unchanged. NumPy floats are left alone."""
    if type(value) is not float or value != value or value in (_INF, -_INF):
        return value
    try:
        single = _FLOAT32.unpack(_FLOAT32.pack(value))[0]
    except OverflowError:  # beyond float32's range: the float32 scalar is infinite
        return _INF if value > 0 else -_INF
    return value if abs(single - value) < 1e-6 else single


_INF = float("inf")


def returned_floats(outputs):
    """``outputs`` with each Python float in it as ``returned_float`` gives it; the same object when none
    changes (a returned list stays the caller's list: ``output is global_list``)."""
    changed = []

    def rounded(value):
        result = returned_float(value)
        if result is not value:
            changed.append(value)
        return result

    result = replaced(outputs, float, rounded)
    return result if changed else outputs
