"""Primitive classes of the in-place scatters on Parameters: ``ScatterMul``, ``ScatterDiv``, ``ScatterMax``,
``ScatterMin``, ``ScatterSub``, ``ScatterNdSub``/``Mul``/``Div``/``Max``/``Min``, ``ScatterNonAliasingAdd``.

Example:
    >>> import numpy as np
    >>> from sporax import Parameter, Tensor
    >>> from sporax.ops.operations import ScatterMax
    >>> p = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="p")
    >>> ScatterMax()(p, Tensor(np.array([0])), Tensor(np.array([[1.0, -1.0]], np.float32))).asnumpy().tolist()
    [[1.0, 0.0], [0.0, 0.0]]
"""
from sporax.ops.functional import indexing, parameter_scatter
from sporax.ops.operations.scatter_ops import _adapter

_INPUTS = "\n\nInputs:\n    - **input_x** (Parameter), **indices** (Tensor[int]), **updates** (Tensor)."


def _make(name, function, doc, use_locking=False):
    def call(input_x, indices, updates, use_locking):
        return function(input_x, indices, updates)
    return _adapter(name, call, doc + _INPUTS, (("use_locking", use_locking),), module=__name__)


ScatterMul = _make("ScatterMul", parameter_scatter.scatter_mul, "Multiply rows of a Parameter, in place.")
ScatterDiv = _make("ScatterDiv", parameter_scatter.scatter_div, "Divide rows of a Parameter, in place.")
ScatterMax = _make("ScatterMax", parameter_scatter.scatter_max, "The maximum with rows of a Parameter, in place.")
ScatterMin = _make("ScatterMin", parameter_scatter.scatter_min, "The minimum with rows of a Parameter, in place.")
ScatterSub = _make("ScatterSub", parameter_scatter.scatter_sub, "Subtract from rows of a Parameter, in place.")
ScatterNdSub = _make("ScatterNdSub", parameter_scatter.scatter_nd_sub, "Subtract at index tuples of a Parameter, in place.")
ScatterNdMul = _make("ScatterNdMul", parameter_scatter.scatter_nd_mul, "Multiply at index tuples of a Parameter, in place.")
ScatterNdDiv = _make("ScatterNdDiv", parameter_scatter.scatter_nd_div, "Divide at index tuples of a Parameter, in place.")
ScatterNdMax = _make("ScatterNdMax", parameter_scatter.scatter_nd_max, "The maximum at index tuples of a Parameter, in place.")
ScatterNdMin = _make("ScatterNdMin", parameter_scatter.scatter_nd_min, "The minimum at index tuples of a Parameter, in place.")
ScatterNonAliasingAdd = _adapter(
    "ScatterNonAliasingAdd", lambda input_x, indices, updates: indexing.scatter_nd_add(input_x, indices, updates),
    "Add at index tuples of a Parameter, in place." + _INPUTS, module=__name__)
