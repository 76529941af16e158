"""Eigen-decompositions of symmetric (Hermitian) matrices and tridiagonal solves: MindSpore's ``Eigh``
(``linalg_ops``), ``SelfAdjointEig`` and ``TridiagonalSolve`` (``math_ops``).

Each op takes (..., M, M) batches and computes with ``jax.numpy.linalg``, so results compile and differentiate.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.symmetric_solvers import eigh
    >>> values, _ = eigh(Tensor(np.array([[2.0, 0.0], [0.0, 1.0]], np.float32)))
    >>> values.asnumpy().tolist()
    [1.0, 2.0]
"""
import jax.numpy as jnp
import numpy as np

from sporax.ops.functional.matrix_functions import in_single_precision, lapack_samples, uniform
from sporax.ops.op_table import INEXACT, Sample, op
from sporax.ops.samples import with_settings


def _symmetric_samples(*shapes):
    def build(generator, shape, dtype):
        random = uniform(generator, shape, np.float64)
        return Sample(((random + np.swapaxes(random, -1, -2)).astype(dtype),))

    return lapack_samples(build, *shapes)


def _square(op_name, array):
    if array.ndim < 2 or array.shape[-1] != array.shape[-2]:
        raise ValueError(f"For '{op_name}', the input must be a batch of (..., M, M) square matrices, but got shape "
                         f"{tuple(array.shape)}.")
    return array


def _numpy_eigh(input, compute_eigenvectors=True, lower=True):
    values, vectors = np.linalg.eigh(input, UPLO="L" if lower else "U")
    return (values, vectors) if compute_eigenvectors else values


@op(inputs="input", dtypes=INEXACT, primitive="Eigh", primitive_attrs=("compute_eigenvectors", "lower"),
    samples=with_settings(_symmetric_samples((3, 3), (2, 2, 2)), {"lower": False}, {"compute_eigenvectors": False}),
    reference=_numpy_eigh, grad_check=False)  # the gradient is of the symmetric input: one triangle is read
@in_single_precision
def eigh(input, compute_eigenvectors=True, lower=True):
    """Ascending eigenvalues and (with ``compute_eigenvectors``) the eigenvectors, as columns, of symmetric
    (Hermitian) matrices, reading their lower (``lower``) or upper triangle."""
    # only the named triangle is read (jax's default would average the two triangles first)
    values, vectors = jnp.linalg.eigh(_square("Eigh", input), UPLO="L" if lower else "U", symmetrize_input=False)
    return (values, vectors) if compute_eigenvectors else values


@op(inputs="input", dtypes=INEXACT, primitive="SelfAdjointEig", primitive_attrs=("compute_v",),
    samples=with_settings(_symmetric_samples((3, 3), (2, 2, 2)), {"compute_v": False}),
    reference=lambda input, compute_v=True: np.linalg.eigh(input), grad_check=False)
@in_single_precision
def self_adjoint_eig(input, compute_v=True):
    """Ascending eigenvalues and the eigenvectors (columns) of symmetric matrices, from their lower triangle.

    MindSpore 2.10's CPU kernel returns the eigenvectors whatever ``compute_v`` says; so does sporax.
    """
    return tuple(jnp.linalg.eigh(_square("SelfAdjointEig", input), UPLO="L", symmetrize_input=False))


def _tridiagonal_samples(*shapes):
    def build(generator, shape, dtype):
        diagonals = uniform(generator, shape[:-2] + (3, shape[-2]), np.float64)
        diagonals[..., 1, :] += 4.0  # diagonally dominant: well conditioned
        return Sample((diagonals.astype(dtype), uniform(generator, shape, dtype)))

    return lapack_samples(build, *shapes)


def _tridiagonal_matrix(diagonals):
    """The dense (..., M, M) matrix of ``diagonals`` (..., 3, M): superdiagonal, main diagonal, subdiagonal rows
    (the superdiagonal's last and the subdiagonal's first items are unused)."""
    size = diagonals.shape[-1]
    rows = jnp.arange(size)
    matrix = jnp.zeros(diagonals.shape[:-2] + (size, size), diagonals.dtype)
    matrix = matrix.at[..., rows, rows].set(diagonals[..., 1, :])
    matrix = matrix.at[..., rows[:-1], rows[1:]].set(diagonals[..., 0, :-1])
    return matrix.at[..., rows[1:], rows[:-1]].set(diagonals[..., 2, 1:])


def _numpy_tridiagonal_solve(diagonals, rhs, partial_pivoting=True):
    diagonals = np.asarray(diagonals, np.float64)
    size = diagonals.shape[-1]
    matrix = np.zeros(diagonals.shape[:-2] + (size, size))
    rows = np.arange(size)
    matrix[..., rows, rows] = diagonals[..., 1, :]
    matrix[..., rows[:-1], rows[1:]] = diagonals[..., 0, :-1]
    matrix[..., rows[1:], rows[:-1]] = diagonals[..., 2, 1:]
    return np.linalg.solve(matrix, rhs)


@op(inputs=("diagonals", "rhs"), dtypes=INEXACT, primitive="TridiagonalSolve", primitive_attrs=("partial_pivoting",),
    samples=with_settings(_tridiagonal_samples((4, 2), (2, 3, 1)), {"partial_pivoting": False}),
    reference=_numpy_tridiagonal_solve)
@in_single_precision
def tridiagonal_solve(diagonals, rhs, partial_pivoting=True):
    """Solve ``T X = rhs`` for the tridiagonal ``T`` given by its (..., 3, M) ``diagonals`` (superdiagonal, main,
    subdiagonal rows). The solve always pivots (LU with partial pivoting), so ``partial_pivoting=False`` gives the
    same values wherever the unpivoted elimination succeeds."""
    if diagonals.ndim < 2 or diagonals.shape[-2] != 3:
        raise ValueError(f"For 'TridiagonalSolve', 'diagonals' must have shape (..., 3, M), but got "
                         f"{tuple(diagonals.shape)}.")
    if rhs.ndim < 2 or rhs.shape[-2] != diagonals.shape[-1] or rhs.shape[:-2] != diagonals.shape[:-2]:
        raise ValueError(f"For 'TridiagonalSolve', 'rhs' must have shape {tuple(diagonals.shape[:-2])} + "
                         f"({diagonals.shape[-1]}, K), but got {tuple(rhs.shape)}.")
    return jnp.linalg.solve(_tridiagonal_matrix(diagonals), rhs)
