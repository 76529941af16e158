"""Linear solvers: ``matrix_solve`` (square systems, batched) and ``lstsq`` (least squares).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> a = Tensor(np.array([[2.0, 0.0], [0.0, 4.0]], np.float32))
    >>> ops.matrix_solve(a, Tensor(np.array([[2.0], [8.0]], np.float32))).asnumpy().tolist()
    [[1.0], [2.0]]
"""
import jax.numpy as jnp

from sporax.ops._dispatch import array_of, wrap


def _inexact(op_name, arg_name, value):
    array = array_of(op_name, arg_name, value)
    if not jnp.issubdtype(array.dtype, jnp.inexact):
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a float or complex Tensor, but got {array.dtype}.")
    return array


def matrix_solve(matrix, rhs, adjoint=False):
    """Solve ``matrix @ X = rhs`` (``adjoint``: the conjugate transpose of ``matrix``) for (..., M, M) systems.

    Args:
        matrix (Tensor): (..., M, M). rhs (Tensor): (..., M, K), same batch shape and dtype.
        adjoint (bool): solve with the adjoint of ``matrix``. Default: False.

    Returns:
        Tensor (..., M, K).
    """
    a = _inexact("matrix_solve", "matrix", matrix)
    b = _inexact("matrix_solve", "rhs", rhs)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or b.ndim != a.ndim or b.shape[:-1] != a.shape[:-1]:
        raise ValueError(f"For 'matrix_solve', 'matrix' must be (..., M, M) and 'rhs' (..., M, K) with the same "
                         f"batch shape, but got {tuple(a.shape)} and {tuple(b.shape)}.")
    if a.dtype != b.dtype:
        raise TypeError(f"For 'matrix_solve', 'matrix' and 'rhs' must have the same dtype, but got {a.dtype} "
                        f"and {b.dtype}.")
    if adjoint:
        a = jnp.conj(jnp.swapaxes(a, -1, -2))
    return wrap(jnp.linalg.solve(a, b))


def lstsq(input, A):
    """The least-squares solution ``X`` of ``input @ X = A`` (minimum norm when under-determined).

    Args:
        input (Tensor): (M, N) float. A (Tensor): (M,) or (M, K), same dtype.

    Returns:
        Tensor (N,) or (N, K).
    """
    a = _inexact("lstsq", "input", input)
    b = _inexact("lstsq", "A", A)
    if a.ndim != 2 or b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise ValueError(f"For 'lstsq', 'input' must be (M, N) and 'A' (M,) or (M, K), but got {tuple(a.shape)} "
                         f"and {tuple(b.shape)}.")
    return wrap(jnp.linalg.lstsq(a, b.astype(a.dtype))[0])
