"""In-place scatters on Parameters (add/update are in ``indexing``): ``scatter_mul``/``div``/``max``/``min``
(rows) and ``scatter_nd_sub``/``mul``/``div``/``max``/``min`` (index tuples).

Like MindSpore's ``ScatterAdd`` family they update the Parameter ``input_x`` through the state
layer (so they also work inside compiled functions that lift it) and return it.

Example:
    >>> import numpy as np
    >>> from sporax import Parameter, Tensor, ops
    >>> p = Parameter(Tensor(np.ones((2, 2), np.float32)), name="p")
    >>> ops.scatter_mul(p, Tensor(np.array([1])), Tensor(np.array([[2.0, 3.0]], np.float32))).asnumpy().tolist()
    [[1.0, 1.0], [2.0, 3.0]]
"""
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional.indexing import _scatter_in_place


def scatter_mul(input_x, indices, updates):
    """Multiply the rows ``indices`` of Parameter ``input_x`` by ``updates``, in place; returns it."""
    return _scatter_in_place("scatter_mul", input_x, indices, updates, "multiply", False)


def scatter_div(input_x, indices, updates):
    """Divide the rows ``indices`` of Parameter ``input_x`` by ``updates``, in place; returns it."""
    return _scatter_in_place("scatter_div", input_x, indices, updates, "divide", False)


def scatter_max(input_x, indices, updates):
    """The element-wise maximum of the rows ``indices`` of Parameter ``input_x`` and ``updates``, in place."""
    return _scatter_in_place("scatter_max", input_x, indices, updates, "max", False)


def scatter_min(input_x, indices, updates):
    """The element-wise minimum of the rows ``indices`` of Parameter ``input_x`` and ``updates``, in place."""
    return _scatter_in_place("scatter_min", input_x, indices, updates, "min", False)


def scatter_sub(input_x, indices, updates):
    """Subtract ``updates`` from the rows ``indices`` of Parameter ``input_x``, in place; returns it."""
    negated = wrap(-array_of("scatter_sub", "updates", updates))
    return _scatter_in_place("scatter_sub", input_x, indices, negated, "add", False)


def scatter_nd_sub(input_x, indices, updates, use_locking=False):
    """Subtract ``updates`` at the index tuples ``indices`` of Parameter ``input_x``, in place."""
    negated = wrap(-array_of("scatter_nd_sub", "updates", updates))
    return _scatter_in_place("scatter_nd_sub", input_x, indices, negated, "add", True)


def scatter_nd_mul(input_x, indices, updates, use_locking=False):
    """Multiply Parameter ``input_x`` at the index tuples ``indices`` by ``updates``, in place."""
    return _scatter_in_place("scatter_nd_mul", input_x, indices, updates, "multiply", True)


def scatter_nd_div(input_x, indices, updates, use_locking=False):
    """Divide Parameter ``input_x`` at the index tuples ``indices`` by ``updates``, in place."""
    return _scatter_in_place("scatter_nd_div", input_x, indices, updates, "divide", True)


def scatter_nd_max(input_x, indices, updates, use_locking=False):
    """The maximum of Parameter ``input_x`` and ``updates`` at the index tuples ``indices``, in place."""
    return _scatter_in_place("scatter_nd_max", input_x, indices, updates, "max", True)


def scatter_nd_min(input_x, indices, updates, use_locking=False):
    """The minimum of Parameter ``input_x`` and ``updates`` at the index tuples ``indices``, in place."""
    return _scatter_in_place("scatter_nd_min", input_x, indices, updates, "min", True)
