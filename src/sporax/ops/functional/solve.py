"""Linear solvers: ``matrix_solve`` (square systems, batched), ``lstsq`` (least squares) and
``triangular_solve`` (``mint.triangular_solve``, MindSpore's ``TriangularSolve``).

All are op-table entries (``sporax.ops.op_table``) of float or complex operands; ``MatrixSolve(adjoint)`` is
generated from ``matrix_solve``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> a = Tensor(np.array([[2.0, 0.0], [0.0, 4.0]], np.float32))
    >>> ops.matrix_solve(a, Tensor(np.array([[2.0], [8.0]], np.float32))).asnumpy().tolist()
    [[1.0], [2.0]]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.functional.matrix_functions import in_single_precision, lapack_samples, uniform
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
@in_single_precision
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
    reference=lambda input, A: np.linalg.lstsq(input, np.reshape(A, (len(A), -1)), rcond=None)[0])
@in_single_precision
def lstsq(input, A):
    """The least-squares solution ``X`` of ``input @ X = A`` (minimum norm when under-determined).

    Args:
        input (Tensor): (M, N) float. A (Tensor): (M,) or (M, K), same dtype.

    Returns:
        Tensor (N, K); (N, 1) for an ``A`` of shape (M,), as MindSpore 2.10's Lstsq.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.lstsq(Tensor(np.eye(2, dtype=np.float32)), Tensor(np.ones(2, np.float32))).asnumpy().tolist()
        [[1.0], [1.0]]
    """
    if input.ndim != 2 or A.ndim not in (1, 2) or A.shape[0] != input.shape[0]:
        raise ValueError(f"For 'lstsq', 'input' must be (M, N) and 'A' (M,) or (M, K), but got {tuple(input.shape)} "
                         f"and {tuple(A.shape)}.")
    return jnp.linalg.lstsq(input, A.reshape(A.shape[0], -1).astype(input.dtype))[0]


def _triangular_system(generator, shapes, dtype):
    """A sample: right-hand sides ``b`` of ``shapes[0]`` and a well-conditioned square ``A`` of ``shapes[1]``
    (both triangles filled: the op reads only the one ``upper`` names)."""
    b_shape, a_shape = shapes
    coefficients = uniform(generator, a_shape, np.float64) + 3 * np.eye(a_shape[-1])
    return Sample((uniform(generator, b_shape, dtype), coefficients.astype(dtype)))


def _numpy_triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    triangle = np.triu(A) if upper else np.tril(A)
    if unitriangular:
        triangle = triangle - np.diagonal(triangle, axis1=-2, axis2=-1)[..., None] * np.eye(A.shape[-1]) \
            + np.eye(A.shape[-1])
    if transpose:
        triangle = np.swapaxes(triangle, -1, -2)
    return np.linalg.solve(triangle, b), A


@op(inputs=("b", "A"), dtypes=INEXACT, primitive="TriangularSolve", mint="triangular_solve", grad_check=False,
    samples=with_settings(lapack_samples(_triangular_system, ((3, 2), (3, 3)), ((2, 2, 1), (2, 2, 2))),
                          {"upper": False, "transpose": True}, {"unitriangular": True}),
    reference=_numpy_triangular_solve)
def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """Return ``(X, A)``: the solution of ``A X = b`` (``A^T X = b`` with ``transpose``) for the upper (or
    lower) triangle of ``A``, its diagonal taken as ones with ``unitriangular`` (MindSpore's ``TriangularSolve``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, mint
        >>> solution, _ = mint.triangular_solve(Tensor(np.ones((2, 1), np.float32)),
        ...                                     Tensor(np.array([[2.0, 1.0], [0.0, 4.0]], np.float32)))
        >>> solution.asnumpy().ravel().tolist()
        [0.375, 0.25]
    """
    if A.ndim < 2 or A.shape[-1] != A.shape[-2] or b.ndim < 2 or b.shape[-2] != A.shape[-1]:
        raise ValueError(f"For 'triangular_solve', 'A' must be (..., n, n) and 'b' (..., n, k), but got shapes "
                         f"{tuple(A.shape)} and {tuple(b.shape)}.")
    batch = jnp.broadcast_shapes(b.shape[:-2], A.shape[:-2])
    dtype = jnp.promote_types(b.dtype, A.dtype)
    solution = jax.scipy.linalg.solve_triangular(
        jnp.broadcast_to(A.astype(dtype), batch + A.shape[-2:]),
        jnp.broadcast_to(b.astype(dtype), batch + b.shape[-2:]),
        trans=1 if transpose else 0, lower=not upper, unit_diagonal=unitriangular)
    return solution, A
