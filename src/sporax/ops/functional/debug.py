"""``ops.print_``: print strings and Tensors as MindSpore's Print operator does.

Each argument goes on its own line; a Tensor prints as its ``repr`` (``Tensor(shape=[2],
dtype=Int32, value= [1, 2])``). Inside a compiled function the values print when the compiled
program runs (an ordered ``jax.debug.callback``), not while it is traced.
"""
import jax

from sporax.core.tensor import Tensor


def _line(value):
    return repr(value) if isinstance(value, Tensor) else str(value)


def print_(*input_x):
    """Print each argument on its own line; returns None."""
    arrays = [item._value for item in input_x if isinstance(item, Tensor)]
    if not any(isinstance(array, jax.core.Tracer) for array in arrays):
        for item in input_x:
            print(_line(item), flush=True)
        return None

    def emit(*values):
        values = iter(values)
        for item in input_x:
            print(_line(Tensor._wrap(next(values)) if isinstance(item, Tensor) else item), flush=True)

    jax.debug.callback(emit, *arrays, ordered=True)
    return None
