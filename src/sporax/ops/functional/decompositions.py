"""Matrix decompositions and what they give: ``cholesky*``, ``det``, ``inverse``, ``cond``, ``eig``,
``eigvals``, ``geqrf``.

Contract: the decompositions take float (or complex) matrices with any batch dimensions in front, as
``jax.numpy.linalg``/``jax.lax.linalg`` compute them; the op-table entries carry their samples
(LAPACK has float32/float64 kernels only) and NumPy references.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.det(Tensor(np.eye(3, dtype=np.float32))).asnumpy().item()
    1.0
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.functional.matrix_functions import (
    in_single_precision, lapack_samples, matrices, square_matrices, uniform)
from sporax.ops.functional.runtime_checks import check_positive_definite
from sporax.ops.op_table import FLOAT, INEXACT, Sample, op
from sporax.ops.face_inputs import primitive_accepting
from sporax.ops.samples import with_settings, without


def _square(op_name, arg_name, array):
    if array.ndim < 2 or array.shape[-1] != array.shape[-2]:
        raise ValueError(f"For '{op_name}', '{arg_name}' must be a (batch of) square matrices (..., N, N), but "
                         f"got shape {tuple(array.shape)}.")
    return array


def _positive_definite(*shapes):
    """A sample maker: symmetric positive-definite matrices ``M M^T + 2 I`` (float32/float64 only)."""

    def build(generator, shape, dtype):
        m = uniform(generator, shape, np.float64)
        return Sample(((m @ np.swapaxes(m, -1, -2) + 2 * np.eye(shape[-1])).astype(dtype),))

    return lapack_samples(build, *shapes)


def _factors(*shapes, rhs=None):
    """A sample maker: lower-triangular Cholesky factors with a positive diagonal (after a right-hand
    side of ``rhs`` columns when given), float32/float64 only."""

    def build(generator, shape, dtype):
        factor = (np.tril(uniform(generator, shape, np.float64)) / 2 + 2 * np.eye(shape[-1])).astype(dtype)
        if rhs is None:
            return Sample((factor,))
        return Sample((uniform(generator, shape[:-1] + (rhs,), dtype), factor))

    return lapack_samples(build, *shapes)


def _numpy_from_factor(factor, upper):
    """The matrix ``A`` a Cholesky ``factor`` stands for (LAPACK reads only its triangle)."""
    factor = np.asarray(factor)
    if upper:
        triangle = np.triu(factor)
        return np.conj(np.swapaxes(triangle, -1, -2)) @ triangle
    triangle = np.tril(factor)
    return triangle @ np.conj(np.swapaxes(triangle, -1, -2))


def _check_upper(op_name, upper):
    if not isinstance(upper, bool):
        raise TypeError(f"For '{op_name}', 'upper' must be a bool, but got {type(upper).__name__}.")


def _numpy_cholesky(input_x, upper=False):
    lower = np.linalg.cholesky(input_x)
    return np.conj(np.swapaxes(lower, -1, -2)) if upper else lower


@op(inputs="input_x", dtypes=INEXACT, method="cholesky",
    samples=with_settings(_positive_definite((3, 3), (2, 2, 2)), {"upper": True}), reference=_numpy_cholesky,
    value_check=lambda input_x, upper=False: check_positive_definite(_square("cholesky", "input_x", input_x)),
    grad_check=False)  # the gradient is of the symmetric input; finite differences perturb it unsymmetrically
@in_single_precision
def cholesky(input_x, upper=False):
    """The Cholesky factor of symmetric positive-definite matrices: lower ``L`` (``A = L L^T``) or upper.

    A matrix not symmetric or not positive definite is refused with a RuntimeError (when the program runs).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.cholesky(Tensor(np.array([[4.0, 0.0], [0.0, 9.0]], np.float32))))
        [[2. 0.]
         [0. 3.]]
    """
    _check_upper("cholesky", upper)
    lower = jnp.linalg.cholesky(_square("cholesky", "input_x", input_x))
    return jnp.conj(jnp.swapaxes(lower, -1, -2)) if upper else lower


def _from_factor(factor, upper):
    """The lower Cholesky factor of ``A`` given its ``factor`` (lower, or upper if ``upper``)."""
    return jnp.conj(jnp.swapaxes(factor, -1, -2)) if upper else factor


@op(inputs="input_x", dtypes=INEXACT, method="cholesky_inverse",
    samples=with_settings(_factors((3, 3), (2, 2, 2)), {"upper": True}),
    reference=lambda input_x, upper=False: np.linalg.inv(_numpy_from_factor(input_x, upper)))
def cholesky_inverse(input_x, upper=False):
    """The inverse of ``A`` from its Cholesky factor (lower, or upper if ``upper``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> a = Tensor(np.array([[4.0, 2.0], [2.0, 3.0]], np.float32))
        >>> inverse = ops.cholesky_inverse(ops.cholesky(a))  # the factor of ``a`` gives ``a``'s inverse
        >>> np.allclose(ops.matmul(inverse, a).asnumpy(), np.eye(2), atol=1e-5)
        True
    """
    _check_upper("cholesky_inverse", upper)
    factor = _square("cholesky_inverse", "input_x", input_x)
    identity = jnp.broadcast_to(jnp.eye(factor.shape[-1], dtype=factor.dtype), factor.shape)
    return jax.scipy.linalg.cho_solve((_from_factor(factor, upper), True), identity)


# MindSpore 2.10's CholeskySolve: Float32/Float64 (Float16: its TypeError)
@op(inputs=("input", "input2"), dtypes=INEXACT, method="cholesky_solve",
    input_dtypes={"input": primitive_accepting("CholeskySolve", "x1", ("Float32", "Float64")),
                  "input2": primitive_accepting("CholeskySolve", "x2", ("Float32", "Float64"))},
    samples=with_settings(_factors((3, 3), (2, 2, 2), rhs=2), {"upper": True}),
    reference=lambda input, input2, upper=False: np.linalg.solve(_numpy_from_factor(input2, upper), input))
def cholesky_solve(input, input2, upper=False):
    """Solve ``A X = input`` given the Cholesky factor ``input2`` of ``A`` (lower, or upper if ``upper``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.cholesky_solve(Tensor(np.array([[4.0], [16.0]], np.float32)),
        ...                    Tensor(np.array([[2.0, 0.0], [0.0, 4.0]], np.float32))).asnumpy().ravel().tolist()
        [1.0, 1.0]
    """
    _check_upper("cholesky_solve", upper)
    factor = _square("cholesky_solve", "input2", input2)
    if input.ndim != factor.ndim or input.shape[-2] != factor.shape[-1]:
        raise ValueError(f"For 'cholesky_solve', 'input' must be (..., N, K) for a factor (..., N, N), but got "
                         f"{tuple(input.shape)} and {tuple(factor.shape)}.")
    return jax.scipy.linalg.cho_solve((_from_factor(factor, upper), True), input.astype(factor.dtype))


@op(dtypes=INEXACT, method="det", samples=square_matrices((3, 3), (2, 2, 2)), reference=np.linalg.det)
def det(input):
    """The determinant of (batches of) square matrices.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.det(Tensor(np.array([[2.0, 0.0], [0.0, 3.0]], np.float32))).asnumpy().item()
        6.0
    """
    return jnp.linalg.det(_square("det", "input", input))


@op(dtypes=INEXACT, method="inverse", mint="inverse",
    samples=square_matrices((3, 3), (2, 2, 2)), reference=np.linalg.inv)
def inverse(input):
    """The inverse of (batches of) square matrices.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.inverse(Tensor(np.array([[2.0, 0.0], [0.0, 4.0]], np.float32))).asnumpy().tolist()
        [[0.5, 0.0], [0.0, 0.25]]
    """
    return jnp.linalg.inv(_square("inverse", "input", input))


_SINGULAR_VALUE_NORMS = (None, 2, -2, "nuc")


def _numpy_cond(A, p=None):
    result = np.linalg.cond(A, p)
    return result.astype(np.float32) if p in _SINGULAR_VALUE_NORMS else result.astype(np.result_type(A))


# No finite-difference check: the singular-value norms answer Float32 (MindSpore's rule), too coarse for the
# differences of the Float64 samples.
# MindSpore 2.10's cond inverts ``A`` (MatrixInverse): Float32, Float64 or complex (Int, Bool, Float16: its TypeError)
@op(inputs="A", dtypes=FLOAT,
    input_dtypes={"A": primitive_accepting("MatrixInverse", "x", ("Complex128", "Complex64", "Float32", "Float64"))},
    samples=without(("float16", "bfloat16"),
                    with_settings(square_matrices((3, 3), (2, 2, 2)), {"p": 1}, {"p": "fro"})),
    reference=_numpy_cond, grad_check=False)
def cond(A, p=None):
    """The condition number of ``A`` in the ``p`` norm (None or 2: the ratio of singular values;
    'fro', 'nuc', inf, -inf, 1, -1, -2 as ``numpy.linalg.cond``): Float32 for None, 2, -2 and 'nuc', else the
    dtype of ``A``, as MindSpore answers.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.cond(Tensor(np.array([[2.0, 0.0], [0.0, 1.0]], np.float32))).asnumpy().item()
        2.0
    """
    if A.ndim < 2:
        raise ValueError(f"For 'cond', 'A' must have at least 2 dimensions, but got shape {tuple(A.shape)}.")
    if p not in (None, "fro", "nuc", np.inf, -np.inf, 1, -1, 2, -2):
        raise ValueError(f"For 'cond', 'p' must be None, 'fro', 'nuc', inf, -inf, 1, -1, 2 or -2, but got {p!r}.")
    result = jnp.linalg.cond(A, p)
    # MindSpore's dtypes: Float32 from its singular-value path (None, 2, -2, 'nuc') whatever the input, the input's
    # dtype (complex included) from its norm-times-inverse-norm path
    return result.astype(jnp.float32) if p in _SINGULAR_VALUE_NORMS else result.astype(A.dtype)


def _triangular(*shapes):
    """A sample maker: upper triangular matrices with distinct diagonals (1, 2, 3 ... plus a random part): their
    eigenvalues are the diagonal, in its order, whatever the precision LAPACK works in (float32/float64 only)."""

    def build(generator, shape, dtype):
        upper = np.triu(uniform(generator, shape, np.float64), 1) + np.diag(np.arange(1.0, shape[-1] + 1))
        return Sample((upper.astype(dtype),))

    return lapack_samples(build, *shapes)


def _numpy_eig(A):
    return tuple(np.linalg.eig(A))


@op(inputs="A", dtypes=INEXACT, samples=_triangular((3, 3), (2, 2, 2)), reference=_numpy_eig, grad_check=False)
def eig(A):
    """Eigenvalues and right eigenvectors of square matrices, as complex tensors ``(values, vectors)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> values, vectors = ops.eig(Tensor(np.array([[2.0, 0.0], [0.0, 3.0]], np.float32)))
        >>> values.asnumpy().real.tolist()
        [2.0, 3.0]
    """
    values, vectors = jnp.linalg.eig(_square("eig", "A", A))
    return values, vectors


@op(inputs="A", dtypes=INEXACT, method="eigvals", samples=_triangular((3, 3), (2, 2, 2)),
    reference=np.linalg.eigvals, grad_check=False)
def eigvals(A):
    """Eigenvalues of square matrices (complex).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.eigvals(Tensor(np.eye(2, dtype=np.float32))).asnumpy().real.tolist()
        [1.0, 1.0]
    """
    return jnp.linalg.eigvals(_square("eigvals", "A", A))


def _numpy_geqrf(input):
    reflectors, tau = np.linalg.qr(np.asarray(input), mode="raw")  # LAPACK's own geqrf (column-major)
    return reflectors.T, tau


@op(dtypes=INEXACT, method="geqrf", samples=matrices((4, 3), (3, 3), (2, 4)), reference=_numpy_geqrf,
    grad_check=False)  # two outputs: the table's finite differences take one
def geqrf(input):
    """The QR decomposition in LAPACK's compact form: ``(y, tau)`` with R on and above ``y``'s diagonal and
    the Householder vectors below it.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> y, tau = ops.geqrf(Tensor(np.array([[3.0, 1.0], [4.0, 2.0]], np.float32)))
        >>> round(abs(float(y.asnumpy()[0, 0])), 4)
        5.0
    """
    if input.ndim < 2:
        raise ValueError(f"For 'geqrf', 'input' must be a float or complex Tensor of at least 2 dimensions, but got "
                         f"shape {tuple(input.shape)}.")
    return tuple(_householder_qr(input))


@jax.jit
def _householder_qr(array):
    """LAPACK's geqrf on the last two axes: reflectors ``H_k = I - tau_k v_k v_k^H`` with ``v_k[k] = 1``."""
    rows, cols = array.shape[-2:]
    taus = []
    for k in range(min(rows, cols)):
        alpha = array[..., k, k]
        tail = array[..., k + 1:, k]
        tail_norm = jnp.sqrt(jnp.sum(jnp.abs(tail) ** 2, axis=-1))
        beta = -jnp.where(jnp.real(alpha) >= 0, 1.0, -1.0) * jnp.sqrt(jnp.abs(alpha) ** 2 + tail_norm ** 2)
        trivial = tail_norm == 0
        safe_beta = jnp.where(trivial, 1.0, beta)
        tau = jnp.where(trivial, 0.0, (safe_beta - alpha) / safe_beta)
        scale = jnp.where(trivial, 0.0, 1.0 / jnp.where(trivial, 1.0, alpha - safe_beta))
        vector = jnp.concatenate([jnp.ones_like(alpha)[..., None], tail * scale[..., None]], axis=-1)
        block = array[..., k:, k + 1:]
        projection = jnp.einsum("...i,...ij->...j", jnp.conj(vector), block)
        block = block - jnp.conj(tau)[..., None, None] * vector[..., :, None] * projection[..., None, :]
        array = array.at[..., k:, k + 1:].set(block)
        array = array.at[..., k, k].set(jnp.where(trivial, alpha, beta))
        array = array.at[..., k + 1:, k].set(vector[..., 1:])
        taus.append(tau.astype(array.dtype))
    return array, jnp.stack(taus, axis=-1)
