"""``mindspore.scipy.linalg``: SciPy's dense linear algebra on Tensors, each function onto ``jax.scipy.linalg``.

Contract: Tensors (or array-likes) in, Tensors out, in the input's floating dtype (integer and bool inputs
compute in Float32, MindSpore's default). SciPy's ``overwrite_*`` and ``check_finite`` flags are accepted and
have no effect (Tensors are never written in place here; non-finite input gives non-finite output, except in
``cholesky``, which refuses it as MindSpore does).
Algorithm: one ``jax.scipy.linalg`` call per function; batched (..., M, M) inputs work where JAX's do.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.scipy.linalg import cholesky
    >>> cholesky(Tensor(np.array([[4.0, 2.0], [2.0, 5.0]], np.float32)), lower=True).asnumpy().tolist()
    [[2.0, 0.0], [1.0, 2.0]]
"""
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import wrap
from sporax.ops.functional.runtime_checks import check_positive_definite


def _matrix(name, arg_name, value, square=True):
    array = value._value if isinstance(value, Tensor) else jnp.asarray(value)
    if array.dtype.kind not in "fc":
        array = array.astype(np.float32)
    if array.ndim < 2 or (square and array.shape[-1] != array.shape[-2]):
        raise ValueError(f"For '{name}', '{arg_name}' must be a {'square ' if square else ''}matrix (..., M, "
                         f"{'M' if square else 'N'}), but got shape {tuple(array.shape)}.")
    return array


def _rhs(name, value, dtype):
    array = value._value if isinstance(value, Tensor) else jnp.asarray(value)
    if array.ndim < 1:
        raise ValueError(f"For '{name}', 'b' must be at least 1-D, but got a scalar.")
    return array.astype(dtype)


_CHOLESKY_DTYPES = (np.int32, np.int64, np.float32, np.float64)


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """The Cholesky factor of a symmetric positive-definite matrix ``a`` (N, N): lower when ``lower`` else upper.

    As MindSpore 2.10's: ``a`` is one Int32/Int64/Float32/Float64 Tensor (integers factor in Float64), and a
    matrix not symmetric or not positive definite is refused with a RuntimeError.
    """
    if not isinstance(a, Tensor):
        raise TypeError(f"For 'cholesky', the type of 'a' should be Tensor, but got {type(a).__name__}.")
    array = a._value
    if array.dtype not in _CHOLESKY_DTYPES:
        raise TypeError(f"For 'cholesky', the data type of 'a' should be one of [mindspore.int32, mindspore.int64, "
                        f"mindspore.float32, mindspore.float64], but got {a.dtype}.")
    if array.ndim != 2:
        raise ValueError(f"For 'cholesky', the dimension of 'a' should be 2, but got {array.ndim}.")
    if array.shape[0] != array.shape[1]:
        raise ValueError(f"For 'cholesky', the matrix 'a' should be a square matrix like (N, N), but got "
                         f"{tuple(array.shape)}.")
    if array.dtype.kind != "f":
        array = array.astype(np.float64)
    check_positive_definite(array)
    return wrap(jsl.cholesky(array, lower=bool(lower)))


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """``(c, lower)``: the Cholesky factor in the ``lower``/upper triangle, for ``cho_solve``."""
    factor, is_lower = jsl.cho_factor(_matrix("cho_factor", "a", a), lower=bool(lower))
    return wrap(factor), is_lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """Solve ``a x = b`` given ``cho_factor(a)``."""
    factor, lower = c_and_lower
    array = _matrix("cho_solve", "c", factor)
    return wrap(jsl.cho_solve((array, bool(lower)), _rhs("cho_solve", b, array.dtype)))


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, debug=None,
                     check_finite=True):
    """Solve ``a x = b`` for triangular ``a``; ``trans`` 0/'N', 1/'T' or 2/'C' solves with ``a``,
    its transpose or its conjugate transpose."""
    if trans not in (0, 1, 2, "N", "T", "C"):
        raise ValueError(f"For 'solve_triangular', 'trans' must be 0, 1, 2, 'N', 'T' or 'C', but got {trans!r}.")
    array = _matrix("solve_triangular", "a", a)
    return wrap(jsl.solve_triangular(array, _rhs("solve_triangular", b, array.dtype), trans=trans,
                                     lower=bool(lower), unit_diagonal=bool(unit_diagonal)))


def inv(a, overwrite_a=False, check_finite=True):
    """The inverse of the square matrix ``a``."""
    return wrap(jnp.linalg.inv(_matrix("inv", "a", a)))


def det(a, overwrite_a=False, check_finite=True):
    """The determinant of the square matrix ``a``."""
    return wrap(jnp.linalg.det(_matrix("det", "a", a)))


def eigh(a, b=None, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False, turbo=True,
         eigvals=None, type=1, check_finite=True):
    """Eigenvalues (ascending) and eigenvectors ``(w, v)`` of a Hermitian ``a``; ``w`` alone with
    ``eigvals_only``. As in MindSpore 2.10, the generalized problem (``b``) and ``eigvals`` subsets raise
    ValueError, and ``type`` (which only selects the generalized problem's form) is ignored without ``b``."""
    # MindSpore 2.10 refuses these with ValueError on every target; sporax gives the same error type.
    if b is not None:
        raise ValueError("For 'eigh', currently only case b=None of 'eigh' is implemented (as in MindSpore 2.10): "
                         "for the generalized problem a v = w b v with b positive definite, factor b = L L^H with "
                         "cholesky and solve the standard problem of inv(L) a inv(L)^H.")
    if eigvals is not None:
        raise ValueError("For 'eigh', currently only case eigvals=None of 'eigh' is implemented (as in MindSpore "
                         "2.10): compute all eigenvalues and slice the ascending result, e.g. w[lo:hi + 1].")
    values, vectors = jnp.linalg.eigh(_matrix("eigh", "a", a), UPLO="L" if lower else "U")
    return wrap(values) if eigvals_only else (wrap(values), wrap(vectors))


def lu(a, permute_l=False, overwrite_a=False, check_finite=True):
    """``(p, l, u)`` with ``a = p @ l @ u`` (``p`` an Int32 permutation matrix, as MindSpore gives);
    ``(p @ l, u)`` with ``permute_l``."""
    permutation, lower, upper = jsl.lu(_matrix("lu", "a", a, square=False))
    if permute_l:
        return wrap(permutation @ lower), wrap(upper)
    return wrap(permutation.astype(np.int32)), wrap(lower), wrap(upper)


def lu_factor(a, overwrite_a=False, check_finite=True):
    """``(lu, piv)``: L and U packed in one matrix and the Int32 row pivots, for ``lu_solve``."""
    packed, pivots = jsl.lu_factor(_matrix("lu_factor", "a", a))
    return wrap(packed), wrap(pivots.astype(np.int32))


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """Solve ``a x = b`` (``trans`` 1: ``a.T x = b``; 2: ``a^H x = b``) given ``lu_factor(a)``."""
    packed, pivots = lu_and_piv
    array = _matrix("lu_solve", "lu", packed)
    pivot_array = pivots._value if isinstance(pivots, Tensor) else jnp.asarray(pivots)
    return wrap(jsl.lu_solve((array, pivot_array), _rhs("lu_solve", b, array.dtype), trans=trans))


def lu_pivots_to_permutation(pivots, permutation_size):
    """The Int32 permutation (of length ``permutation_size``) that LAPACK-style row ``pivots`` (the last axis;
    row ``i`` swapped with row ``pivots[i]`` in turn) apply."""
    array = pivots._value if isinstance(pivots, Tensor) else jnp.asarray(pivots)
    return wrap(jax.lax.linalg.lu_pivots_to_permutation(array.astype(np.int32), int(permutation_size)))


def block_diag(*arrs):
    """The block-diagonal matrix with the given 2-D (or lower-rank) arrays on its diagonal."""
    arrays = [value._value if isinstance(value, Tensor) else jnp.asarray(value) for value in arrs]
    if any(array.ndim > 2 for array in arrays):
        raise ValueError("For 'block_diag', every input must have at most 2 dimensions.")
    return wrap(jsl.block_diag(*arrays))


_LSTSQ_DRIVERS = (None, "gels", "gelsy", "gelsd", "gelss")


def lstsq(A, B, rcond=None, driver=None):
    """The least-squares solution of ``A x = B``: ``(solution, residuals, rank, singular_values)``.

    What besides the solution is reported depends on the LAPACK ``driver`` MindSpore names (default
    'gelsy'): 'gelsy' gives the rank only, 'gelsd'/'gelss' the rank, the singular values of ``A`` and,
    for a full-rank tall ``A``, the residual sum of squares per column of ``B``; 'gels' the residuals
    only. What is not reported is an empty Tensor. The solution itself is the minimum-norm one.
    """
    if driver not in _LSTSQ_DRIVERS:
        raise ValueError(f"For 'lstsq', driver must be one of {_LSTSQ_DRIVERS}, but got {driver!r}.")
    a = _matrix("lstsq", "A", A, square=False)
    if a.ndim != 2:
        raise ValueError(f"For 'lstsq', 'A' must be a matrix (M, N), but got shape {tuple(a.shape)}.")
    b = _rhs("lstsq", B, a.dtype)
    if b.shape[0] != a.shape[0]:
        raise ValueError(f"For 'lstsq', 'B' must have as many rows as 'A' ({a.shape[0]}), but got shape "
                         f"{tuple(b.shape)}.")
    driver = driver or "gelsy"
    solution, _, rank, singular_values = jnp.linalg.lstsq(a, b, rcond=rcond)
    real = np.float64 if a.dtype in (np.float64, np.complex128) else np.float32
    empty = Tensor(np.zeros((0,), real))
    rows, columns = a.shape
    residuals = empty
    if driver in ("gels", "gelsd", "gelss") and rows > columns and int(rank) == columns:
        residuals = wrap(jnp.sum(jnp.abs(b - a @ solution) ** 2, axis=0).reshape(b.shape[1:] or (1,)).astype(real))
    rank_out = Tensor(np.zeros((0,), np.int64)) if driver == "gels" else Tensor(np.asarray(int(rank), np.int64))
    singular_out = wrap(singular_values.astype(real)) if driver in ("gelsd", "gelss") else empty
    return wrap(solution), residuals, rank_out, singular_out
