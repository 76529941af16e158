"""Primitive classes for solvers and norms: ``MatrixSolve``, ``Lstsq``, ``LpNorm``, ``SquareSumAll``.

``LpNorm`` and ``SquareSumAll`` run their op-table entries (``functional/norms.py``); the classes are written
out for their recorded signatures and ``LpNorm``'s checks at construction.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.linalg_ops import LpNorm
    >>> LpNorm(axis=0, p=1)(Tensor(np.array([1.0, -2.0], np.float32))).asnumpy().tolist()
    3.0
"""
from sporax.ops.faces import primitive_class
from sporax.ops.functional import solve
from sporax.ops.op_table import TABLE
from sporax.ops.primitive import Primitive, prim_attr_register


MatrixSolve = primitive_class(solve.matrix_solve.entry, __name__)


class LpNorm(Primitive):
    """``(sum |x|^p)^(1/p)`` over ``axis`` (``p=0``: the count of non-zeros; at least ``epsilon``).

    Args:
        axis (Union[int, list[int], tuple[int]]): the reduced axes.
        p (int): the order, >= 0. Default: 2.
        keep_dims (bool): keep reduced axes with size 1. Default: False.
        epsilon (float): lower bound of the norm. Default: 1e-12.

    Inputs:
        - **input** (Tensor) - float.

    Outputs:
        Tensor, the norm.
    """

    @prim_attr_register
    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise ValueError(f"For 'LpNorm', 'p' must be a non-negative int, but got {p!r}.")
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        self.axis, self.p, self.keep_dims, self.epsilon = axes, p, keep_dims, epsilon

    def __call__(self, input):
        return TABLE["lp_norm"].function(input, self.axis, self.p, self.keep_dims, self.epsilon)


class SquareSumAll(Primitive):
    """The sums of squares of two tensors: ``(sum(x**2), sum(y**2))``.

    Inputs:
        - **x**, **y** (Tensor) - Float16 or Float32, same shape and dtype.

    Outputs:
        Tuple of two scalar Tensors.
    """

    def __call__(self, x, y):
        return TABLE["square_sum_all"].function(x, y)
