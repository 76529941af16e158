"""Primitive classes for solvers and norms: ``MatrixSolve``, ``Lstsq``, ``LpNorm``, ``SquareSumAll``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.linalg_ops import LpNorm
    >>> LpNorm(axis=0, p=1)(Tensor(np.array([1.0, -2.0], np.float32))).asnumpy().tolist()
    3.0
"""
import jax.numpy as jnp

from sporax.ops._dispatch import array_of, float_array_of, wrap
from sporax.ops.functional import solve
from sporax.ops.primitive import Primitive, prim_attr_register


class MatrixSolve(Primitive):
    """Solve ``matrix @ X = rhs`` (``ops.matrix_solve``).

    Args:
        adjoint (bool): use the adjoint of ``matrix``. Default: False.

    Inputs:
        - **matrix** (Tensor) - (..., M, M). **rhs** (Tensor) - (..., M, K).

    Outputs:
        Tensor (..., M, K).
    """

    @prim_attr_register
    def __init__(self, adjoint=False):
        self.adjoint = adjoint

    def __call__(self, matrix, rhs):
        return solve.matrix_solve(matrix, rhs, self.adjoint)


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
        x = float_array_of("LpNorm", "input", input)
        axes = tuple(a % x.ndim for a in self.axis) if x.ndim else ()
        if self.p == 0:
            norm = jnp.sum((x != 0).astype(x.dtype), axes, keepdims=self.keep_dims)
        elif self.p == 1:
            norm = jnp.sum(jnp.abs(x), axes, keepdims=self.keep_dims)
        else:
            # Scaled by the largest magnitude so that high orders neither underflow nor overflow.
            magnitude = jnp.abs(x)
            largest = jnp.max(magnitude, axes, keepdims=True)
            safe = jnp.where(largest > 0, largest, 1)
            norm = jnp.sum((magnitude / safe) ** self.p, axes, keepdims=True) ** (1.0 / self.p) * largest
            if not self.keep_dims:
                norm = jnp.squeeze(norm, axes)
        return wrap(jnp.maximum(norm, jnp.asarray(self.epsilon, x.dtype)).astype(x.dtype))


class SquareSumAll(Primitive):
    """The sums of squares of two tensors: ``(sum(x**2), sum(y**2))``.

    Inputs:
        - **x**, **y** (Tensor) - Float16 or Float32, same shape and dtype.

    Outputs:
        Tuple of two scalar Tensors.
    """

    def __call__(self, x, y):
        a = array_of("SquareSumAll", "x", x)
        b = array_of("SquareSumAll", "y", y)
        for arg_name, array in (("x", a), ("y", b)):
            if array.dtype not in (jnp.float16, jnp.float32):
                raise TypeError(f"For 'SquareSumAll', '{arg_name}' must be a Float16 or Float32 Tensor, but got "
                                f"{array.dtype}.")
        if a.dtype != b.dtype:
            raise TypeError(f"For 'SquareSumAll', 'x' and 'y' must have the same dtype, but got {a.dtype} and "
                            f"{b.dtype}.")
        if a.shape != b.shape:
            raise ValueError(f"For 'SquareSumAll', 'x' and 'y' must have the same shape, but got {tuple(a.shape)} "
                             f"and {tuple(b.shape)}.")
        return wrap(jnp.sum(a * a)), wrap(jnp.sum(b * b))
