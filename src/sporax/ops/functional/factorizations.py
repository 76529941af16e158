"""Matrix factorizations: ``qr``, ``svd``, LU (``LU``, ``lu_solve``, ``lu_unpack``) and the Householder
products (``orgqr``, ``ormqr``).

Every op takes (..., M, N) batches of float or complex matrices and computes with
``jax.numpy.linalg``/``jax.scipy.linalg``, so results differentiate and compile. LU pivots follow
MindSpore (and LAPACK): 1-based Int32 row swaps applied in order.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.svd(Tensor(np.diag(np.array([2.0, 5.0], np.float32))), compute_uv=False).asnumpy().tolist()
    [5.0, 2.0]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.functional.matrix_functions import (
    _adjoint, _matrix_shape, _wide_and_tall, in_single_precision, lapack_samples, square_matrices, uniform)
from sporax.ops.op_table import ANY, FLOAT, INEXACT, Sample, op
from sporax.ops.op_table import spelling
from sporax.ops.samples import with_settings


def _numpy_qr(input, mode="reduced"):
    return tuple(np.linalg.qr(input, mode=mode))


@op(dtypes=INEXACT, mint=spelling("qr", "A, mode='reduced'", namespaces="mint.linalg", input="A"),
    samples=with_settings(_wide_and_tall, {"mode": "complete"}), reference=_numpy_qr,
    grad_check=False)  # Q and R are defined up to signs: the value check compares LAPACK with LAPACK
@in_single_precision
def qr(input, mode="reduced"):
    """``(Q, R)`` with ``input = Q @ R``; ``mode`` 'reduced', 'complete' or 'r' (Q then empty).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> q, r = ops.qr(Tensor(np.eye(2, dtype=np.float32)))
        >>> np.abs(q.asnumpy() @ r.asnumpy()).round(4).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"For 'qr', 'mode' must be 'reduced', 'complete' or 'r', but got {mode!r}.")
    array = _matrix_shape("qr", input)
    if mode == "r":
        return jnp.zeros((0,), array.dtype), jnp.linalg.qr(array, mode="r")
    return tuple(jnp.linalg.qr(array, mode=mode))


_QR_KERNEL_MODES = {"full": "complete", "economic": "reduced", "r": "complete"}


def _numpy_qr_kernel(x, mode="full"):
    return tuple(np.linalg.qr(x, mode=_QR_KERNEL_MODES[mode]))


@op(primitive="QR", inputs="x", primitive_attrs=("mode",), samples=with_settings(_wide_and_tall, {"mode": "economic"}),
    reference=_numpy_qr_kernel, grad_check=False)  # signs as LAPACK's, like ``qr``
def qr_kernel(x, mode="full"):
    """MindSpore's CPU kernel ``QR`` (a Primitive named 'QR', as scipy's ``linalg.qr``): ``(q, r)`` of an (M, N)
    matrix; ``mode`` 'full' ((M, M), (M, N)), 'economic' ((M, K), (K, N)) or 'r' (the full ones, r the result)."""
    if mode not in _QR_KERNEL_MODES:
        raise ValueError(f"For 'QR', 'mode' must be 'full', 'r' or 'economic', but got {mode!r}.")
    return tuple(jnp.linalg.qr(_matrix_shape("QR", x), mode=_QR_KERNEL_MODES[mode]))


def _numpy_svd(input, full_matrices=False, compute_uv=True):
    dtype = np.result_type(input)
    if not compute_uv:
        return np.linalg.svd(input, compute_uv=False).astype(dtype)
    u, s, vh = np.linalg.svd(input, full_matrices=full_matrices)
    return s.astype(dtype), u, np.conj(np.swapaxes(vh, -1, -2))


@op(dtypes=INEXACT, method="svd",
    samples=with_settings(_wide_and_tall, {"full_matrices": True}, {"compute_uv": False}), reference=_numpy_svd,
    grad_check=False)  # u and v are defined up to signs: the value check compares LAPACK with LAPACK
def svd(input, full_matrices=False, compute_uv=True):
    """``(s, u, v)`` with ``input = u @ diag(s) @ v^H`` (``s`` descending, of the input's dtype: complex for complex
    matrices, as MindSpore's); only ``s`` without ``compute_uv``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.svd(Tensor(np.diag(np.array([1.0, 3.0], np.float32))), compute_uv=False).asnumpy().tolist()
        [3.0, 1.0]
    """
    array = _matrix_shape("svd", input)
    if not compute_uv:
        return jnp.linalg.svd(array, compute_uv=False).astype(array.dtype)
    u, s, vh = jnp.linalg.svd(array, full_matrices=bool(full_matrices))
    return s.astype(array.dtype), u, _adjoint(vh)  # complex input: MindSpore's s is complex too


def _permutation(pivots, size):
    """The row order that LAPACK's 1-based sequential swaps ``pivots`` produce, for (..., K) pivots."""
    def one(swaps):
        def body(i, order):
            j = swaps[i] - 1
            row_i, row_j = order[i], order[j]
            return order.at[i].set(row_j).at[j].set(row_i)
        return jax.lax.fori_loop(0, swaps.shape[0], body, jnp.arange(size))
    flat = pivots.reshape((-1, pivots.shape[-1]))
    return jax.vmap(one)(flat).reshape(pivots.shape[:-1] + (size,))


def _pivots(op_name, array):
    if array.dtype.kind not in "iu":
        raise TypeError(f"For '{op_name}', 'LU_pivots' must be an integer Tensor, but got {array.dtype}.")
    return array.astype(jnp.int32)


# --- samples and NumPy references of the LU and Householder ops ---
def _numpy_swaps(pivots, size):
    """The row order of LAPACK's 1-based sequential row swaps ``pivots`` (one matrix)."""
    order = list(range(size))
    for i, j in enumerate(np.asarray(pivots) - 1):
        order[i], order[j] = order[j], order[i]
    return order


def _numpy_lu_parts(lu, pivots):
    lu = np.asarray(lu)
    m, n = lu.shape
    k = min(m, n)
    lower = np.tril(lu[:, :k], -1) + np.eye(m, k)
    permutation = np.eye(m)[_numpy_swaps(pivots, m)].T
    return permutation, lower, np.triu(lu[:k, :])


def _numpy_lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    return _numpy_lu_parts(LU_data, LU_pivots)


def _lu_sample(generator, shape, dtype):
    """LAPACK's packed LU factorisation of a random matrix, with 1-based Int32 pivots."""
    import scipy.linalg  # sample inputs of the test only (scipy comes with jax)

    lu, pivots = scipy.linalg.lu_factor(uniform(generator, shape, np.float64))
    return Sample((lu.astype(dtype), (pivots + 1).astype(np.int32)))


def _numpy_householder(reflectors, tau, columns):
    """``H_1 ... H_k`` (``H_i = I - tau_i v_i v_i^H``) times the first ``columns`` columns of the identity."""
    reflectors, tau = np.asarray(reflectors), np.asarray(tau)
    m = reflectors.shape[0]
    q = np.eye(m)
    for i in range(tau.shape[0]):
        v = np.concatenate([np.zeros(i), [1.0], reflectors[i + 1:, i]])[:, None]
        q = q @ (np.eye(m) - tau[i] * (v @ v.T))
    return q[:, :columns]


def _reflector_samples(*extra_shapes, **settings):
    """A sample maker: LAPACK's compact QR (reflectors, tau) of a random (4, 3) matrix, then operands of
    ``extra_shapes``, once plain and once with each dict of ``settings``; float32/float64 only."""

    def build(generator, _, dtype):
        h, tau = np.linalg.qr(uniform(generator, (4, 3), np.float64), mode="raw")
        extra = tuple(uniform(generator, shape, dtype) for shape in extra_shapes)
        return Sample((h.T.astype(dtype), tau.astype(dtype)) + extra)

    return with_settings(lapack_samples(build, None), *settings.values())


@op(inputs=("LU_data", "LU_pivots"), dtypes=ANY, primitive="LuUnpack",
    primitive_attrs=("unpack_data", "unpack_pivots"), method="lu_unpack",
    samples=lapack_samples(_lu_sample, (3, 3), (4, 3)), reference=_numpy_lu_unpack,
    grad_check=False)  # three outputs: the table's finite differences take one
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """``(P, L, U)`` from a packed LU factorisation: ``A = P @ L @ U`` (``L`` unit lower triangular); integer
    factors give integer parts, as in MindSpore.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> p, l, u = ops.lu_unpack(Tensor(np.array([[2.0, 1.0], [0.5, 1.0]], np.float32)), Tensor(np.array([1, 2], np.int32)))
        >>> (p.asnumpy() @ l.asnumpy() @ u.asnumpy()).tolist()
        [[2.0, 1.0], [1.0, 1.5]]
    """
    lu = LU_data
    if lu.ndim < 2:
        raise ValueError(f"For 'lu_unpack', 'LU_data' must be a batch of (..., M, N) matrices, but got shape "
                         f"{tuple(lu.shape)}.")
    pivots = _pivots("lu_unpack", LU_pivots)
    m, n = lu.shape[-2:]
    k = min(m, n)
    if pivots.shape[-1] != k or pivots.shape[:-1] != lu.shape[:-2]:
        raise ValueError(f"For 'lu_unpack', 'LU_pivots' must have shape {tuple(lu.shape[:-2]) + (k,)}, but got "
                         f"{tuple(pivots.shape)}.")
    empty = jnp.zeros((0,), lu.dtype)
    lower = upper = permutation = empty
    if unpack_data:
        lower = jnp.tril(lu[..., :, :k], -1) + jnp.eye(m, k, dtype=lu.dtype)
        upper = jnp.triu(lu[..., :k, :])
    if unpack_pivots:
        order = _permutation(pivots, m)
        # P is the transpose of the row-selection matrix: A = P L U means (P^T A)[i] = A[order[i]].
        permutation = jnp.swapaxes(jax.nn.one_hot(order, m, dtype=lu.dtype), -1, -2)
    return permutation, lower, upper


def _numpy_lu(input):
    import scipy.linalg  # the reference of the test only (scipy comes with jax)

    lu, swaps = scipy.linalg.lu_factor(np.asarray(input, np.float64))
    size = lu.shape[-1]
    permutation = np.eye(size)[_numpy_swaps(swaps + 1, size)].T
    return lu.astype(input.dtype), swaps.astype(np.int32), permutation.astype(np.int32)


@op(dtypes=FLOAT, primitive="LU", samples=square_matrices((3, 3), (4, 4)), reference=_numpy_lu,
    grad_check=False)  # three outputs, two of them integer
@in_single_precision
def lu_factorization(input):
    """``(lu, pivots, permutation)``: the LU factorisation with partial pivoting of (..., M, M) float matrices,
    as MindSpore's ``LU`` kernel (``mindspore.scipy.ops.LU``) gives it: L (unit diagonal, not stored) and U
    packed in ``lu``, the 0-based Int32 row swaps in ``pivots``, and the Int32 permutation matrix with
    ``input = permutation @ L @ U``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.ops.functional.factorizations import lu_factorization
        >>> lu, pivots, permutation = lu_factorization(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)))
        >>> pivots.asnumpy().tolist(), permutation.asnumpy().tolist()
        ([1, 1], [[0, 1], [1, 0]])
    """
    if input.ndim < 2 or input.shape[-1] != input.shape[-2]:
        raise ValueError(f"For 'LU', 'input' must be a batch of (..., M, M) square matrices, but got shape "
                         f"{tuple(input.shape)}.")
    lu, pivots, order = jax.lax.linalg.lu(input)
    # A = P L U with P the transpose of the row selection: column j of P picks row order[j].
    permutation = jnp.swapaxes(jax.nn.one_hot(order, input.shape[-1], dtype=jnp.int32), -1, -2)
    return lu, pivots.astype(jnp.int32), permutation


def _numpy_lu_solve(b, LU_data, LU_pivots):
    permutation, lower, upper = _numpy_lu_parts(LU_data, LU_pivots)
    return np.linalg.solve(permutation @ lower @ upper, b)


def _lu_solve_sample(generator, shape, dtype):
    """A packed LU factorisation (``_lu_sample``) and right-hand sides ``b`` of ``shape``."""
    factors = _lu_sample(generator, (shape[0], shape[0]), dtype)
    return Sample((uniform(generator, shape, dtype),) + factors.arrays)


@op(inputs=("b", "LU_data", "LU_pivots"), dtypes=INEXACT, indices="LU_pivots", primitive="LuSolve", method="lu_solve",
    samples=lapack_samples(_lu_solve_sample, (3, 2), (4, 1)), reference=_numpy_lu_solve, grad_check=False)
def lu_solve(b, LU_data, LU_pivots):
    """Solve ``A X = b`` from the packed LU factorisation of ``A`` (``LU_data``, 1-based ``LU_pivots``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.lu_solve(Tensor(np.ones((2, 1), np.float32)), Tensor(np.eye(2, dtype=np.float32) * 2),
        ...              Tensor(np.array([1, 2], np.int32))).asnumpy().tolist()
        [[0.5], [0.5]]
    """
    if LU_data.ndim < 2 or LU_data.shape[-1] != LU_data.shape[-2]:
        raise ValueError(f"For 'lu_solve', 'LU_data' must be a batch of (..., M, M) square matrices, but got shape "
                         f"{tuple(LU_data.shape)}.")
    if b.ndim < 2 or b.shape[-2] != LU_data.shape[-1]:
        raise ValueError(f"For 'lu_solve', 'b' must have {LU_data.shape[-1]} rows, but got shape {tuple(b.shape)}.")
    order = _permutation(LU_pivots.astype(jnp.int32), LU_data.shape[-1])
    batch = jnp.broadcast_shapes(LU_data.shape[:-2], b.shape[:-2], order.shape[:-1])
    lu = jnp.broadcast_to(LU_data, batch + LU_data.shape[-2:])
    rhs = jnp.broadcast_to(b, batch + b.shape[-2:]).astype(lu.dtype)
    order = jnp.broadcast_to(order, batch + order.shape[-1:])
    permuted = jnp.take_along_axis(rhs, order[..., None], axis=-2)
    lower = jax.scipy.linalg.solve_triangular(lu, permuted, lower=True, unit_diagonal=True)
    return jax.scipy.linalg.solve_triangular(lu, lower, lower=False)


def _householder_product(reflectors, tau, rows, columns):
    """``H_1 ... H_k`` applied to the first ``columns`` columns of the identity (``H_i = I - tau_i v_i v_i^H``)."""
    m = reflectors.shape[-2]
    k = tau.shape[-1]
    result = jnp.broadcast_to(jnp.eye(m, columns, dtype=reflectors.dtype), reflectors.shape[:-2] + (m, columns))
    below = jnp.tril(jnp.ones((m, k), bool), -1)
    vectors = jnp.where(below, reflectors[..., :, :k], 0) + jnp.eye(m, k, dtype=reflectors.dtype)
    for i in reversed(range(k)):
        v = vectors[..., :, i:i + 1]
        result = result - tau[..., i, None, None] * (v @ (_adjoint(v) @ result))
    return result[..., :rows, :]


@op(inputs=("input", "input2"), dtypes=INEXACT, primitive="Orgqr", method="orgqr", samples=_reflector_samples(),
    reference=lambda input, input2: _numpy_householder(input, input2, np.shape(input)[1]))
def orgqr(input, input2):
    """The (..., M, N) matrix ``Q`` of the Householder reflectors of a QR factorisation (``input2``: tau).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.orgqr(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.zeros(2, np.float32))).asnumpy().tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    reflectors, tau = _matrix_shape("orgqr", input), input2
    m, n = reflectors.shape[-2:]
    if m < n or tau.shape[-1] > n or tau.shape[:-1] != reflectors.shape[:-2]:
        raise ValueError(f"For 'orgqr', 'input' must be (..., M, N) with M >= N and 'input2' (..., K) with K <= N, "
                         f"but got {tuple(reflectors.shape)} and {tuple(tau.shape)}.")
    return _householder_product(reflectors, tau.astype(reflectors.dtype), m, n)


def _numpy_ormqr(input, tau, other, left=True, transpose=False):
    q = _numpy_householder(input, tau, np.shape(input)[0])
    q = q.T if transpose else q
    return q @ other if left else other @ q


@op(inputs=("input", "tau", "other"), dtypes=INEXACT, primitive="Ormqr", primitive_attrs=("left", "transpose"),
    samples=_reflector_samples((4, 2), transposed={"transpose": True}), reference=_numpy_ormqr)
def ormqr(input, tau, other, left=True, transpose=False):
    """``op(Q) @ other`` (``left``) or ``other @ op(Q)``: ``Q`` the Householder product, ``op`` the adjoint if
    ``transpose``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.ormqr(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.zeros(2, np.float32)),
        ...           Tensor(np.ones((2, 1), np.float32))).asnumpy().tolist()
        [[1.0], [1.0]]
    """
    reflectors, matrix = _matrix_shape("ormqr", input), _matrix_shape("ormqr", other)
    tau_array = tau.astype(reflectors.dtype)
    m = reflectors.shape[-2]
    side = matrix.shape[-2] if left else matrix.shape[-1]
    if side != m or tau_array.shape[-1] > min(reflectors.shape[-2:]):
        raise ValueError(f"For 'ormqr', 'other' {tuple(matrix.shape)} must have {m} "
                         f"{'rows' if left else 'columns'} and 'tau' at most min(M, N) elements.")
    q = _householder_product(reflectors, tau_array, m, m)
    if transpose:
        q = _adjoint(q)
    return q @ matrix if left else matrix @ q
