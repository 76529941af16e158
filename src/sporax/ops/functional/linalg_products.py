"""Matrix products and factorisations: ``addbmm``, ``addmv``, ``addr``, ``baddbmm``, ``batch_dot``, ``block_diag``,
``cartesian_prod``, ``combinations``, ``cholesky*``, ``cond``, ``det``, ``eig``, ``eigvals``, ``geqrf``,
``ger``, ``inverse``, ``adjoint``, ``cov``, ``einsum_ext``.

Contract: the products follow MindSpore's ``beta * input + alpha * product`` form (``input``
broadcast to the product); the decompositions take float (or complex) matrices with any batch
dimensions in front, as ``jax.numpy.linalg``/``jax.lax.linalg`` compute them.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.det(Tensor(np.eye(3, dtype=np.float32))).asnumpy().item()
    1.0
"""
import itertools
import numbers

import jax
import jax.numpy as jnp
import jax.scipy.linalg as scipy_linalg
import numpy as np

from sporax.ops._dispatch import array_of, inexact_array_of, wrap
from sporax.ops.functional import linalg
from sporax.ops.functional.linalg import _promoted, operands
from sporax.ops.functional.matrix_functions import lapack_samples, matrices, square_matrices, uniform
from sporax.ops.op_table import ANY, INEXACT, TO_FLOAT, Sample, op
from sporax.ops.samples import with_settings


def _scaled_sum(op_name, input, product, beta, alpha):
    """``beta * input + alpha * product`` in their common dtype, ``input`` broadcast to the product."""
    base, product = _promoted(input, product)
    try:
        base = jnp.broadcast_to(base, product.shape)
    except ValueError:
        raise ValueError(f"For '{op_name}', 'input' of shape {tuple(base.shape)} must broadcast to the product's "
                         f"shape {tuple(product.shape)}.") from None
    if beta == 0:
        return (alpha * product).astype(product.dtype)
    return (beta * base + alpha * product).astype(product.dtype)


def _ranked(op_name, **named):
    """The arrays ``named`` as ``(array, rank)``, refused unless each has its rank."""
    for name, (array, rank) in named.items():
        if array.ndim != rank:
            raise ValueError(f"For '{op_name}', '{name}' must be {rank}-D, but got shape {tuple(array.shape)}.")
    return [array for array, _ in named.values()]


def _numpy_scaled(product):
    """The NumPy reference of ``beta * input + alpha * product(*operands)``."""

    def reference(input, *operands, beta=1, alpha=1):
        return beta * np.asarray(input) + alpha * product(*[np.asarray(operand) for operand in operands])

    return reference


_SCALED = {"beta": 0.5, "alpha": 2}


@op(inputs=("input", "batch1", "batch2"), dtypes=ANY, method="addbmm",
    samples=with_settings(operands(((2, 3), (4, 2, 5), (4, 5, 3)), ((3,), (2, 1, 2), (2, 2, 3))), _SCALED),
    reference=_numpy_scaled(lambda a, b: np.matmul(a, b).sum(0)))
def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.addbmm(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.ones((3, 2, 4), np.float32)),
        ...            Tensor(np.ones((3, 4, 2), np.float32))).asnumpy()[0, 0].item()
        12.0
    """
    a, b = _ranked("addbmm", batch1=(batch1, 3), batch2=(batch2, 3))
    return _scaled_sum("addbmm", input, jnp.matmul(*_promoted(a, b)).sum(0), beta, alpha)


@op(inputs=("input", "batch1", "batch2"), dtypes=ANY, method="baddbmm",
    samples=with_settings(operands(((2, 2, 3), (2, 2, 4), (2, 4, 3)), ((3,), (1, 2, 2), (1, 2, 3))), _SCALED),
    reference=_numpy_scaled(np.matmul))
def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` for batches of matrices.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.baddbmm(Tensor(np.ones((1, 2, 2), np.float32)), Tensor(np.ones((1, 2, 3), np.float32)),
        ...             Tensor(np.ones((1, 3, 2), np.float32))).asnumpy()[0, 0, 0].item()
        4.0
    """
    a, b = _ranked("baddbmm", batch1=(batch1, 3), batch2=(batch2, 3))
    return _scaled_sum("baddbmm", input, jnp.matmul(*_promoted(a, b)), beta, alpha)


def baddbmm_ext(input, batch1, batch2, *, beta=1, alpha=1):
    """``baddbmm`` with ``beta`` and ``alpha`` keyword-only."""
    return baddbmm(input, batch1, batch2, beta, alpha)


@op(inputs=("input", "mat", "vec"), dtypes=ANY, method="addmv",
    samples=with_settings(operands(((2,), (2, 3), (3,)), ((), (4, 2), (2,))), _SCALED),
    reference=_numpy_scaled(np.matmul))
def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.addmv(Tensor(np.ones(2, np.float32)), Tensor(np.ones((2, 3), np.float32)),
        ...                 Tensor(np.ones(3, np.float32))))
        [4. 4.]
    """
    m, v = _ranked("addmv", mat=(mat, 2), vec=(vec, 1))
    return _scaled_sum("addmv", input, jnp.matmul(*_promoted(m, v)), beta, alpha)


@op(inputs=("x", "vec1", "vec2"), dtypes=ANY, method="addr",
    samples=with_settings(operands(((2, 3), (2,), (3,)), ((3,), (2,), (3,))), _SCALED),
    reference=_numpy_scaled(np.outer))
def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``beta * x + alpha * outer(vec1, vec2)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.addr(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.ones(2, np.float32)),
        ...          Tensor(np.ones(2, np.float32))).asnumpy().sum().item()
        4.0
    """
    a, b = _ranked("addr", vec1=(vec1, 1), vec2=(vec2, 1))
    return _scaled_sum("addr", x, jnp.outer(*_promoted(a, b)), beta, alpha)


@op(inputs=("input", "vec2"), dtypes=ANY, method="ger", samples=operands(((2,), (3,)), ((4,), (1,))),
    reference=np.outer)
def ger(input, vec2):
    """The outer product of two 1-D tensors (same dtype).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.ger(Tensor(np.ones(2, np.float32)), Tensor(np.ones(3, np.float32))).shape
        (2, 3)
    """
    a, b = _ranked("ger", input=(input, 1), vec2=(vec2, 1))
    if a.dtype != b.dtype:
        raise TypeError(f"For 'ger', 'input' and 'vec2' must have the same dtype, but got {a.dtype} and {b.dtype}.")
    return jnp.outer(a, b)


@op(inputs="x", dtypes=ANY, method="adjoint", samples=operands(((2, 3),), ((2, 1, 3),)),
    reference=lambda x: np.conj(np.swapaxes(x, -1, -2)))
def adjoint(x):
    """The conjugate transpose of the last two dimensions.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.adjoint(Tensor(np.ones((2, 3), np.float32))).shape
        (3, 2)
    """
    if x.ndim < 2:
        raise ValueError(f"For 'adjoint', 'x' must have at least 2 dimensions, but got shape {tuple(x.shape)}.")
    return jnp.conj(jnp.swapaxes(x, -1, -2))


def _numpy_batch_dot(x1, x2, axes=None):
    a, b = np.asarray(x1), np.asarray(x2)
    if axes is None:
        axes = (a.ndim - 1, b.ndim - 1) if b.ndim == 2 else (a.ndim - 1, b.ndim - 2)
    elif isinstance(axes, int):
        axes = (axes, axes)
    axes = [axis % array.ndim - 1 for axis, array in zip(axes, (a, b))]
    result = np.stack([np.tensordot(p, q, (axes[:1], axes[1:])) for p, q in zip(a, b)])
    return result[:, None] if result.ndim == 1 else result


@op(inputs=("x1", "x2"), dtypes=ANY,
    samples=with_settings(operands(((2, 3), (2, 3)), ((2, 3, 4), (2, 4, 2))), {"axes": (1, 1)}),
    reference=_numpy_batch_dot)
def batch_dot(x1, x2, axes=None):
    """Dot products of the batch items (axis 0) of ``x1`` and ``x2`` over ``axes``.

    ``axes`` (int or pair; default: the last axis of ``x1`` and the second-to-last of ``x2``, or the
    last axis of each for 2-D inputs) are contracted; 2-D inputs give shape (batch, 1).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.batch_dot(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32))).shape
        (2, 1)
    """
    a, b = x1, x2
    if a.ndim < 2 or b.ndim < 2 or a.shape[0] != b.shape[0]:
        raise ValueError(f"For 'batch_dot', 'x1' and 'x2' must be at least 2-D with the same batch size, but got "
                         f"shapes {tuple(a.shape)} and {tuple(b.shape)}.")
    if axes is None:
        axes = (a.ndim - 1, b.ndim - 1) if b.ndim == 2 else (a.ndim - 1, b.ndim - 2)
    elif isinstance(axes, numbers.Integral):
        axes = (axes, axes)
    axes = [int(axis) % array.ndim for axis, array in zip(axes, (a, b))]
    if 0 in axes:
        raise ValueError(f"For 'batch_dot', 'axes' must not contain the batch axis 0, but got {axes}.")
    if a.shape[axes[0]] != b.shape[axes[1]]:
        raise ValueError(f"For 'batch_dot', the contracted dimensions differ: {a.shape[axes[0]]} (x1 axis "
                         f"{axes[0]}) and {b.shape[axes[1]]} (x2 axis {axes[1]}).")
    result = jax.vmap(lambda p, q: jnp.tensordot(p, q, ((axes[0] - 1,), (axes[1] - 1,))))(*_promoted(a, b))
    return result[:, None] if result.ndim == 1 else result


def block_diag(*inputs):
    """The block-diagonal matrix of the inputs (scalars, vectors and matrices), as ``torch.block_diag``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.block_diag(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((1, 3), np.float32))).shape
        (3, 5)
    """
    arrays = []
    for i, value in enumerate(inputs):
        array = array_of("block_diag", f"inputs[{i}]", value)
        if array.ndim > 2:
            raise ValueError(f"For 'block_diag', each input must have at most 2 dimensions, but inputs[{i}] has "
                             f"shape {tuple(array.shape)}.")
        arrays.append(array.reshape((1, -1)) if array.ndim < 2 else array)
    if not arrays:
        return wrap(jnp.zeros((1, 0), jnp.float32))
    return wrap(scipy_linalg.block_diag(*_promoted(*arrays)))


def cartesian_prod(*inputs):
    """The Cartesian product of 1-D tensors, one row per combination (a 1-D result for one input).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.cartesian_prod(Tensor(np.array([1, 2])), Tensor(np.array([3, 4, 5]))).shape
        (6, 2)
    """
    arrays = [array_of("cartesian_prod", f"inputs[{i}]", value) for i, value in enumerate(inputs)]
    for i, array in enumerate(arrays):
        if array.ndim != 1:
            raise ValueError(f"For 'cartesian_prod', each input must be 1-D, but inputs[{i}] has shape "
                             f"{tuple(array.shape)}.")
    if len(arrays) == 1:
        return wrap(arrays[0])
    grids = jnp.meshgrid(*arrays, indexing="ij")
    return wrap(jnp.stack([grid.reshape(-1) for grid in grids], axis=1))


def _numpy_combinations(input, r=2, with_replacement=False):
    choose = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = [list(row) for row in choose(np.asarray(input).tolist(), r)]
    return np.array(rows).reshape(-1, r) if rows and r else np.zeros((0,))


@op(dtypes=ANY, samples=with_settings(operands(((4,),), ((1,),)), {"r": 3}, {"r": 2, "with_replacement": True}),
    reference=_numpy_combinations)
def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of the elements of 1-D ``input`` (rows in lexicographic order).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.combinations(Tensor(np.array([1, 2, 3]))).asnumpy().tolist()
        [[1, 2], [1, 3], [2, 3]]
    """
    if input.ndim != 1:
        raise ValueError(f"For 'combinations', 'input' must be 1-D, but got shape {tuple(input.shape)}.")
    if isinstance(r, bool) or not isinstance(r, numbers.Integral) or r < 0:
        raise ValueError(f"For 'combinations', 'r' must be a non-negative int, but got {r!r}.")
    choose = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = np.array(list(choose(range(input.shape[0]), int(r))), np.int32).reshape(-1, int(r))
    if rows.shape[0] == 0 or r == 0:
        return jnp.zeros((0,), input.dtype)
    return input[jnp.asarray(rows)]


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
    grad_check=False)  # the gradient is of the symmetric input; finite differences perturb it unsymmetrically
def cholesky(input_x, upper=False):
    """The Cholesky factor of symmetric positive-definite matrices: lower ``L`` (``A = L L^T``) or upper.

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


@op(inputs=("input", "input2"), dtypes=INEXACT, method="cholesky_solve",
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


@op(dtypes=INEXACT, method="inverse", samples=square_matrices((3, 3), (2, 2, 2)), reference=np.linalg.inv)
def inverse(input):
    """The inverse of (batches of) square matrices.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.inverse(Tensor(np.array([[2.0, 0.0], [0.0, 4.0]], np.float32))).asnumpy().tolist()
        [[0.5, 0.0], [0.0, 0.25]]
    """
    return jnp.linalg.inv(_square("inverse", "input", input))


@op(inputs="A", dtypes=TO_FLOAT, samples=with_settings(square_matrices((3, 3), (2, 2, 2)), {"p": 1}, {"p": "fro"}),
    reference=lambda A, p=None: np.linalg.cond(A, p))
def cond(A, p=None):
    """The condition number of ``A`` in the ``p`` norm (None or 2: the ratio of singular values;
    'fro', 'nuc', inf, -inf, 1, -1, -2 as ``numpy.linalg.cond``).

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
    return jnp.linalg.cond(A, p)


def eig(A):
    """Eigenvalues and right eigenvectors of square matrices, as complex tensors ``(values, vectors)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> values, vectors = ops.eig(Tensor(np.array([[2.0, 0.0], [0.0, 3.0]], np.float32)))
        >>> values.asnumpy().real.tolist()
        [2.0, 3.0]
    """
    values, vectors = jnp.linalg.eig(_square("eig", "A", inexact_array_of("eig", "A", A)))
    return wrap(values), wrap(vectors)


def eigvals(A):
    """Eigenvalues of square matrices (complex).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.eigvals(Tensor(np.eye(2, dtype=np.float32))).asnumpy().real.tolist()
        [1.0, 1.0]
    """
    return wrap(jnp.linalg.eigvals(_square("eigvals", "A", inexact_array_of("eigvals", "A", A))))


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


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of ``input`` (observations in columns).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> round(ops.cov(Tensor(np.array([1.0, 2.0, 4.0], np.float32))).asnumpy().item(), 4)
        2.3333
    """
    array = array_of("cov", "input", input)
    if array.ndim > 2:
        raise ValueError(f"For 'cov', 'input' must be at most 2-D, but got shape {tuple(array.shape)}.")
    if isinstance(correction, bool) or not isinstance(correction, numbers.Integral):
        raise TypeError(f"For 'cov', 'correction' must be an int, but got {type(correction).__name__}.")
    if array.dtype.kind in "biu":
        array = array.astype(jnp.float32)
    frequency = None if fweights is None else array_of("cov", "fweights", fweights)
    weights = None if aweights is None else array_of("cov", "aweights", aweights)
    return wrap(jnp.cov(array, ddof=int(correction), fweights=frequency, aweights=weights).astype(array.dtype))


def einsum_ext(equation, *operands):
    """Einstein summation (same as ``ops.einsum``; the operands may also be one list).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.einsum_ext("ij->j", Tensor(np.ones((2, 3), np.float32))).shape
        (3,)
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return linalg.einsum(equation, *operands)
