"""Matrix functions: determinants, ``matrix_exp``, ``matrix_power``, ``pinv``,
``NuclearNorm`` and ``TridiagonalMatMul`` (the QR, SVD and LU factorizations live in ``factorizations``).

Every op takes (..., M, N) batches of float or complex matrices and computes with
``jax.numpy.linalg``/``jax.scipy.linalg``, so results differentiate and compile.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> round(float(ops.logdet(Tensor(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32))).asnumpy()), 4)
    1.6094
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, inexact_array_of, wrap
from sporax.ops.op_table import INEXACT, NUMBER, Sample, op
from sporax.ops.face_inputs import primitive_accepting
from sporax.ops.samples import with_settings, without


_HALF = (np.dtype(np.float16), np.dtype(jnp.bfloat16))


def in_single_precision(kernel):
    """``kernel`` with Float16/BFloat16 inputs computed in Float32 and its float results cast back.

    LAPACK (and so XLA's CPU linear algebra) has no half-precision routines, while MindSpore's kernels take
    Float16 matrices and answer in Float16 (``ops.cholesky``, ``ops.qr``, ``ops.slogdet`` ...).
    """

    @functools.wraps(kernel)
    def compute(*args, **kwargs):
        half = next((arg.dtype for arg in (*args, *kwargs.values()) if getattr(arg, "dtype", None) in _HALF), None)
        if half is None:
            return kernel(*args, **kwargs)
        single = lambda arg: arg.astype(np.float32) if getattr(arg, "dtype", None) in _HALF else arg  # noqa: E731
        args, kwargs = [single(arg) for arg in args], {name: single(arg) for name, arg in kwargs.items()}
        return jax.tree_util.tree_map(lambda result: result.astype(half) if result.dtype == np.float32 else result,
                                      kernel(*args, **kwargs))

    return compute


def _matrices(op_name, arg_name, value, square=False):
    array = inexact_array_of(op_name, arg_name, value)
    if array.ndim < 2 or (square and array.shape[-1] != array.shape[-2]):
        kind = "(..., M, M) square matrices" if square else "(..., M, N) matrices"
        raise ValueError(f"For '{op_name}', '{arg_name}' must be a batch of {kind}, but got shape "
                         f"{tuple(array.shape)}.")
    return array


def _adjoint(array):
    return jnp.conj(jnp.swapaxes(array, -1, -2))


def _square_matrices(op_name, array):
    """``array``, refused unless it is a batch of square matrices (..., M, M)."""
    if array.ndim < 2 or array.shape[-1] != array.shape[-2]:
        raise ValueError(f"For '{op_name}', the input must be a batch of (..., M, M) square matrices, but got "
                         f"shape {tuple(array.shape)}.")
    return array


def lapack_samples(build, *shapes):
    """A sample maker for LAPACK-backed ops, float32/float64 only (LAPACK has no half-precision factorisation):
    ``build(generator, shape, dtype)`` makes the ``Sample`` of each shape, its generator seeded by its position."""

    def make(dtype):
        if dtype not in ("float32", "float64"):
            return []
        return [build(np.random.default_rng(seed), shape, dtype) for seed, shape in enumerate(shapes)]

    return make


def uniform(generator, shape, dtype):
    """Values uniform in [-1, 1) of ``shape`` and ``dtype``."""
    return generator.uniform(-1.0, 1.0, size=shape).astype(dtype)


def square_matrices(*shapes):
    """A sample maker: well-conditioned square matrices (a random part plus 3 I), float32/float64 only."""
    return lapack_samples(lambda generator, shape, dtype: Sample(
        ((uniform(generator, shape, np.float64) + 3 * np.eye(shape[-1])).astype(dtype),)), *shapes)


def matrices(*shapes):
    """A sample maker: matrices of ``shapes`` uniform in [-1, 1), float32/float64 only."""
    return lapack_samples(lambda generator, shape, dtype: Sample((uniform(generator, shape, dtype),)), *shapes)


_SQUARE = square_matrices((3, 3), (2, 2, 2))


def _numpy_slogdet(input):
    sign, log_abs = np.linalg.slogdet(input)
    return sign, log_abs.astype(np.result_type(input))


def _sign_and_log_abs(op_name, input):
    """``(sign, log|det|)`` as a plain tuple (two Tensors); for complex matrices both complex, as MindSpore
    answers (log|det| with a zero imaginary part)."""
    array = _square_matrices(op_name, input)
    sign, log_abs = jnp.linalg.slogdet(array)
    return sign, log_abs.astype(array.dtype)


@op(dtypes=INEXACT, primitive="MatrixDeterminant", samples=_SQUARE, reference=np.linalg.det)
def matrix_determinant(input):
    """The determinant of each (..., M, M) matrix.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.matrix_determinant(Tensor(np.diag(np.array([2.0, 3.0], np.float32)))).asnumpy().item()
        6.0
    """
    return jnp.linalg.det(_square_matrices("matrix_determinant", input))


@op(dtypes=INEXACT, method="slogdet", samples=_SQUARE, reference=_numpy_slogdet, grad_check=False)
@in_single_precision
def slogdet(input):
    """``(sign, log|det|)`` of each (..., M, M) matrix.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> sign, log_abs = ops.slogdet(Tensor(np.diag(np.array([-1.0, 1.0], np.float32))))
        >>> sign.asnumpy().item(), log_abs.asnumpy().item()
        (-1.0, 0.0)
    """
    return _sign_and_log_abs("slogdet", input)


@op(dtypes=INEXACT, primitive="LogMatrixDeterminant", samples=_SQUARE, reference=_numpy_slogdet, grad_check=False)
@in_single_precision
def log_matrix_determinant(input):
    """``(sign, log|det|)`` of each (..., M, M) matrix (MindSpore's older name of ``slogdet``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> sign, log_abs = ops.log_matrix_determinant(Tensor(np.eye(2, dtype=np.float32)))
        >>> sign.asnumpy().item(), log_abs.asnumpy().item()
        (1.0, 0.0)
    """
    return _sign_and_log_abs("log_matrix_determinant", input)


def _numpy_logdet(input):
    if np.iscomplexobj(input):
        return np.log(np.linalg.det(input))
    sign, log_abs = np.linalg.slogdet(input)
    return np.where(sign < 0, np.nan, log_abs)


@op(dtypes=INEXACT, method="logdet", samples=_SQUARE, reference=_numpy_logdet)
@in_single_precision
def logdet(input):
    """``log(det(input))``: NaN where the determinant is negative, -inf where it is 0; for complex matrices the
    complex logarithm (``log|det| + i arg(det)``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.logdet(Tensor(np.eye(2, dtype=np.float32))).asnumpy().item()
        0.0
    """
    array = _square_matrices("logdet", input)
    sign, log_abs = jnp.linalg.slogdet(array)
    if jnp.iscomplexobj(array):
        return (log_abs + 1j * jnp.angle(sign)).astype(array.dtype)
    return jnp.where(sign < 0, jnp.nan, log_abs)


def _numpy_matrix_exp(input):
    """The exponential by its Taylor series (small, well-scaled sample matrices: 30 terms are exact)."""
    input = np.asarray(input)
    total = term = np.broadcast_to(np.eye(input.shape[-1]), input.shape).copy()
    for k in range(1, 30):
        term = term @ input / k
        total = total + term
    return total


@op(dtypes=INEXACT, primitive="MatrixExp", samples=square_matrices((3, 3), (2, 2, 2)), reference=_numpy_matrix_exp)
def matrix_exp(input):
    """The matrix exponential of each (..., M, M) matrix.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.matrix_exp(Tensor(np.zeros((2, 2), np.float32))).asnumpy().tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    array = _square_matrices("matrix_exp", input)
    flat = array.reshape((-1,) + array.shape[-2:])
    return jax.vmap(jax.scipy.linalg.expm)(flat).reshape(array.shape)


def _power_samples(dtype):
    samples = _SQUARE(dtype)
    return [Sample(sample.arrays, {"n": n}) for sample, n in zip(samples + samples[:1], (3, -2, 0))]


# MindSpore 2.10's MatrixPower: Float32/64 and Int8..Int64, UInt8 (Float16, BFloat16, Bool: its TypeError)
@op(dtypes=NUMBER, primitive="MatrixPower", primitive_attrs=("n",), method="matrix_power",
    samples=without(("float16", "bfloat16"), _power_samples),
    input_dtypes={"input": primitive_accepting("MatrixPower", "x", ("Float32", "Float64", "Int16", "Int32", "Int64",
                                                                   "Int8", "UInt8"), keep=True)},
    reference=lambda input, n: np.linalg.matrix_power(input, n))
def matrix_power(input, n):
    """The ``n``-th power of each (..., M, M) matrix (``n < 0``: a power of the inverse; integer matrices keep their
    dtype and take ``n >= 0`` only).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.matrix_power(Tensor(np.diag(np.array([2.0, 3.0], np.float32))), 2).asnumpy().tolist()
        [[4.0, 0.0], [0.0, 9.0]]
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For 'matrix_power', 'n' must be an int, but got {type(n).__name__} {n!r}.")
    if n < 0 and input.dtype.kind in "iu":
        raise ValueError(f"For 'matrix_power', a negative 'n' ({n}) needs the inverse, which an integer matrix "
                         f"({input.dtype}) does not have; cast it first, e.g. ops.cast(x, mindspore.float32).")
    return jnp.linalg.matrix_power(_square_matrices("matrix_power", input), n)


def _numpy_inverse(input, adjoint=False):
    input = np.asarray(input)
    return np.linalg.inv(np.conj(np.swapaxes(input, -1, -2)) if adjoint else input)


@op(dtypes=INEXACT, primitive="MatrixInverse", primitive_attrs=("adjoint",),
    samples=with_settings(_SQUARE, {"adjoint": True}), reference=_numpy_inverse)
def matrix_inverse(input, adjoint=False):
    """The inverse of each (..., M, M) matrix (of its conjugate transpose when ``adjoint``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.MatrixInverse()(Tensor(np.diag(np.array([2.0, 4.0], np.float32)))).asnumpy().tolist()
        [[0.5, 0.0], [0.0, 0.25]]
    """
    array = _square_matrices("MatrixInverse", input)
    return jnp.linalg.inv(_adjoint(array) if adjoint else array)


def _numpy_pinv(x, atol=None, rtol=None, hermitian=False):
    x = np.asarray(x)
    if rtol is None:
        rtol = 0.0 if atol is not None else np.finfo(np.float32).eps * max(x.shape[-2:])
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    cutoff = np.maximum(0.0 if atol is None else atol, rtol * s.max(-1, keepdims=True))
    inverse = np.where(s > cutoff, 1.0 / np.where(s > cutoff, s, 1.0), 0.0)
    return np.conj(np.swapaxes(vh, -1, -2)) * inverse[..., None, :] @ np.conj(np.swapaxes(u, -1, -2))


_wide_and_tall = matrices((4, 3), (2, 2, 3))


@op(inputs="x", dtypes=INEXACT, samples=with_settings(_wide_and_tall, {"atol": 0.1}, {"hermitian": False, "rtol": 0.01}),
    reference=_numpy_pinv)
def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse: singular values below ``max(atol, rtol * s_max)`` count as 0.

    With neither tolerance given, ``rtol`` is ``eps * max(M, N)``; with only ``atol``, ``rtol`` is 0.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.pinv(Tensor(np.array([[2.0, 0.0], [0.0, 0.0]], np.float32))).asnumpy().tolist()
        [[0.5, 0.0], [0.0, 0.0]]
    """
    array = _matrix_shape("pinv", x)
    if hermitian:
        values, vectors = jnp.linalg.eigh(array)
        singular, left, right_h = jnp.abs(values), vectors, _adjoint(vectors * jnp.sign(values)[..., None, :])
    else:
        left, singular, right_h = jnp.linalg.svd(array, full_matrices=False)
    if rtol is None:
        rtol = 0.0 if atol is not None else float(jnp.finfo(array.dtype).eps) * max(array.shape[-2:])
    largest = jnp.max(singular, axis=-1, keepdims=True)
    cutoff = jnp.maximum(0.0 if atol is None else atol, rtol * largest)
    inverse = jnp.where(singular > cutoff, 1.0 / jnp.where(singular > cutoff, singular, 1.0), 0.0)
    return (_adjoint(right_h) * inverse[..., None, :].astype(array.dtype)) @ _adjoint(left)


def _matrix_shape(op_name, array):
    if array.ndim < 2:
        raise ValueError(f"For '{op_name}', the input must be a batch of (..., M, N) matrices, but got shape "
                         f"{tuple(array.shape)}.")
    return array


def matrix_logarithm(input):
    """The principal matrix logarithm of each diagonalisable (..., M, M) complex matrix."""
    array = _matrices("MatrixLogarithm", "x", input, square=True)
    if array.dtype.kind != "c":
        raise TypeError(f"For 'MatrixLogarithm', 'x' must be complex64 or complex128, but got {array.dtype}.")
    values, vectors = jnp.linalg.eig(array)
    result = (vectors * jnp.log(values)[..., None, :]) @ jnp.linalg.inv(vectors)
    return wrap(result.astype(array.dtype))


def _numpy_nuclear_norm(input, dim=None, keepdim=False):
    return np.linalg.norm(input, "nuc", axis=(-2, -1) if dim is None else tuple(dim), keepdims=keepdim)


# ``ops.NuclearNorm`` alone: MindSpore has no functional op of the name.
@op(dtypes=INEXACT, primitive="NuclearNorm", primitive_attrs=("dim", "keepdim"),
    samples=with_settings(matrices((4, 3), (2, 3, 2)), {"dim": (1, 0), "keepdim": True}),
    reference=_numpy_nuclear_norm)
def nuclear_norm(input, dim=None, keepdim=False):
    """The sum of the singular values of the matrices spanned by the two axes ``dim`` (default: the last two).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.NuclearNorm()(Tensor(np.diag(np.array([3.0, -4.0], np.float32)))).asnumpy().item()
        7.0
    """
    array = _matrix_shape("NuclearNorm", input)
    axes = (-2, -1) if dim is None else tuple(dim)
    if len(axes) != 2:
        raise ValueError(f"For 'NuclearNorm', 'dim' must hold two axes, but got {dim!r}.")
    axes = tuple(a % array.ndim for a in axes)
    if axes[0] == axes[1]:
        raise ValueError(f"For 'NuclearNorm', the two axes of 'dim' must differ, but got {dim!r}.")
    moved = jnp.moveaxis(array, axes, (-2, -1))
    norm = jnp.sum(jnp.linalg.svd(moved, compute_uv=False), -1)
    if keepdim:
        norm = jnp.expand_dims(norm, tuple(sorted(axes)))
    return norm


def _numpy_tridiagonal_matmul(superdiag, maindiag, subdiag, rhs):
    size = np.shape(rhs)[-2]
    matrix = np.zeros(np.shape(maindiag)[:-2] + (size, size))
    rows = np.arange(size)
    matrix[..., rows, rows] = np.asarray(maindiag)[..., 0, :]
    matrix[..., rows[:-1], rows[1:]] = np.asarray(superdiag)[..., 0, :-1]
    matrix[..., rows[1:], rows[:-1]] = np.asarray(subdiag)[..., 0, 1:]
    return matrix @ rhs


@op(inputs=("superdiag", "maindiag", "subdiag", "rhs"), dtypes=INEXACT, primitive="TridiagonalMatMul",
    samples=lapack_samples(lambda generator, shape, dtype: Sample(tuple(
        uniform(generator, shape[:-2] + (1, shape[-2]), dtype) for _ in range(3)) + (uniform(generator, shape, dtype),)),
        (4, 2), (2, 3, 3)),
    reference=_numpy_tridiagonal_matmul)
def tridiagonal_matmul(superdiag, maindiag, subdiag, rhs):
    """``T @ rhs`` for the tridiagonal ``T`` given by its three (..., 1, M) diagonals (``ops.TridiagonalMatMul``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ones = Tensor(np.ones((1, 2), np.float32))
        >>> ops.TridiagonalMatMul()(ones, ones, ones, Tensor(np.ones((2, 1), np.float32))).asnumpy().tolist()
        [[2.0], [2.0]]
    """
    m = _matrix_shape("TridiagonalMatMul", rhs).shape[-2]
    for name, diagonal in (("superdiag", superdiag), ("maindiag", maindiag), ("subdiag", subdiag)):
        if diagonal.shape[-2:] != (1, m) or diagonal.dtype != rhs.dtype:
            raise ValueError(f"For 'TridiagonalMatMul', '{name}' must be (..., 1, {m}) of dtype {rhs.dtype}, "
                             f"but got {tuple(diagonal.shape)} of {diagonal.dtype}.")
    up = jnp.swapaxes(superdiag, -1, -2)[..., :-1, :]
    down = jnp.swapaxes(subdiag, -1, -2)[..., 1:, :]
    result = jnp.swapaxes(maindiag, -1, -2) * rhs
    result = result.at[..., :-1, :].add(up * rhs[..., 1:, :])
    return result.at[..., 1:, :].add(down * rhs[..., :-1, :])


def lstsq_regularized(op_name, matrix, rhs, l2_regularizer=0.0):
    """The least-squares solution of ``matrix @ X = rhs`` with an L2 penalty (batched)."""
    a = _matrices(op_name, "matrix", matrix)
    b = array_of(op_name, "rhs", rhs)
    vector = b.ndim == a.ndim - 1
    if vector:
        b = b[..., None]
    if b.shape[-2] != a.shape[-2]:
        raise ValueError(f"For '{op_name}', 'rhs' must have {a.shape[-2]} rows, but got {tuple(b.shape)}.")
    b = b.astype(a.dtype)
    l2 = float(np.asarray(l2_regularizer._value if hasattr(l2_regularizer, "_value") else l2_regularizer))
    n = a.shape[-1]
    if l2 == 0.0:
        solution = jnp.linalg.pinv(a) @ b
    else:
        gram = _adjoint(a) @ a + l2 * jnp.eye(n, dtype=a.dtype)
        solution = jnp.linalg.solve(gram, _adjoint(a) @ b)
    return wrap(solution[..., 0] if vector else solution)
