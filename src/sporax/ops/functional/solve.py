"""Linear solvers: ``matrix_solve`` (square systems, batched) and ``lstsq`` (least squares).

Both are op-table entries (``sporax.ops.op_table``) of float or complex operands; ``MatrixSolve(adjoint)`` is
generated from ``matrix_solve``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> a = Tensor(np.array([[2.0, 0.0], [0.0, 4.0]], np.float32))
    >>> ops.matrix_solve(a, Tensor(np.array([[2.0], [8.0]], np.float32))).asnumpy().tolist()
    [[1.0], [2.0]]
"""
import jax.numpy as jnp
import numpy as np

from sporax.ops.functional.matrix_functions import lapack_samples, uniform
from sporax.ops.op_table import INEXACT, Sample, op
from sporax.ops.samples import with_settings


def _systems(*shapes):
    """A sample maker: well-conditioned matrices (random plus 3 I on the leading square) beside right-hand
    sides, float32/float64 only. ``shapes`` are ``(matrix shape, right-hand side shape)``."""

    def build(generator, shapes, dtype):
        matrix_shape, rhs_shape = shapes
        matrix = uniform(generator, matrix_shape, np.float64)
        size = min(matrix_shape[-2:])
        matrix[..., :size, :size] += 3 * np.eye(size)
        return Sample((matrix.astype(dtype), uniform(generator, rhs_shape, dtype)))

    return lapack_samples(build, *shapes)


def _numpy_matrix_solve(matrix, rhs, adjoint=False):
    matrix = np.asarray(matrix)
    return np.linalg.solve(np.conj(np.swapaxes(matrix, -1, -2)) if adjoint else matrix, rhs)


@op(inputs=("matrix", "rhs"), dtypes=INEXACT, primitive="MatrixSolve", primitive_attrs=("adjoint",),
    samples=with_settings(_systems(((3, 3), (3, 2)), ((2, 2, 2), (2, 2, 1))), {"adjoint": True}),
    reference=_numpy_matrix_solve)
def matrix_solve(matrix, rhs, adjoint=False):
    """Solve ``matrix @ X = rhs`` (``adjoint``: the conjugate transpose of ``matrix``) for (..., M, M) systems.

    Args:
        matrix (Tensor): (..., M, M). rhs (Tensor): (..., M, K), same batch shape and dtype.
        adjoint (bool): solve with the adjoint of ``matrix``. Default: False.

    Returns:
        Tensor (..., M, K).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.matrix_solve(Tensor(np.eye(2, dtype=np.float32) * 2), Tensor(np.ones((2, 1), np.float32))).asnumpy().tolist()
        [[0.5], [0.5]]
    """
    a, b = matrix, rhs
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or b.ndim != a.ndim or b.shape[:-1] != a.shape[:-1]:
        raise ValueError(f"For 'matrix_solve', 'matrix' must be (..., M, M) and 'rhs' (..., M, K) with the same "
                         f"batch shape, but got {tuple(a.shape)} and {tuple(b.shape)}.")
    if a.dtype != b.dtype:
        raise TypeError(f"For 'matrix_solve', 'matrix' and 'rhs' must have the same dtype, but got {a.dtype} "
                        f"and {b.dtype}.")
    if adjoint:
        a = jnp.conj(jnp.swapaxes(a, -1, -2))
    return jnp.linalg.solve(a, b)


@op(inputs=("input", "A"), dtypes=INEXACT, method="lstsq",
    samples=_systems(((4, 3), (4, 2)), ((3, 2), (3,)), ((3, 3), (3, 1))),
    reference=lambda input, A: np.linalg.lstsq(input, A, rcond=None)[0])
def lstsq(input, A):
    """The least-squares solution ``X`` of ``input @ X = A`` (minimum norm when under-determined).

    Args:
        input (Tensor): (M, N) float. A (Tensor): (M,) or (M, K), same dtype.

    Returns:
        Tensor (N,) or (N, K).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.lstsq(Tensor(np.eye(2, dtype=np.float32)), Tensor(np.ones(2, np.float32))).asnumpy().tolist()
        [1.0, 1.0]
    """
    if input.ndim != 2 or A.ndim not in (1, 2) or A.shape[0] != input.shape[0]:
        raise ValueError(f"For 'lstsq', 'input' must be (M, N) and 'A' (M,) or (M, K), but got {tuple(input.shape)} "
                         f"and {tuple(A.shape)}.")
    return jnp.linalg.lstsq(input, A.astype(input.dtype))[0]
