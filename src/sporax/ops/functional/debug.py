"""``ops.print_``: print strings and Tensors as MindSpore's Print operator does.

Each argument goes on its own line; a Tensor prints as its ``repr`` (``Tensor(shape=[2],
dtype=Int32, value= [1, 2])``). Inside a function the user compiles (``ms.jit``, GRAPH mode) it
prints as the graph's Print operator does (``Tensor(shape=[2], dtype=Int32, value=[1 2])``, a 0-d
tensor as its bare value), when the compiled program runs (an ordered ``jax.debug.callback``),
not while it is traced.
"""
import jax

from sporax.core.tensor import Tensor
from sporax.state.fallback import graph_print, graph_print_active


def _line(value):
    return repr(value) if isinstance(value, Tensor) else str(value)


def print_(*input_x):
    """Print each argument on its own line; returns None."""
    if graph_print_active():
        return graph_print(input_x)
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
