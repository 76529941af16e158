"""Norms and distances: ``ops.vector_norm``, ``ops.matrix_norm``, ``ops.norm``, ``ops.cdist``, ``ops.dist`` ...

The norms are op-table entries (``sporax.ops.op_table``) with their samples and NumPy references,
like the products of ``linalg`` whose sample maker and dtype promotion they share; the
Primitive-only ``LpNorm`` and ``SquareSumAll`` are entries here too. ``clip_by_global_norm``
(an operand list) stays written by hand.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.norm(Tensor(np.array([3.0, 4.0], np.float32))).asnumpy().item()
    5.0
"""
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops.functional.linalg import _grid_values, _promoted, operands
from sporax.ops.functional.reduce import _axes
from sporax.ops.op_table import FLOAT, NUMBER, TO_FLOAT, Sample, op, spelling
from sporax.ops.samples import values, with_settings

_FLOAT32 = np.dtype(np.float32)


# --- norms ------------------------------------------------------------------------------------
def _vector_norm(array, ord, axes, keepdims):
    magnitude = jnp.abs(array)
    if ord == 2:
        return jnp.sqrt(jnp.sum(magnitude * magnitude, axes, keepdims=keepdims))
    if ord == float("inf"):
        return jnp.max(magnitude, axes, keepdims=keepdims)
    if ord == float("-inf"):
        return jnp.min(magnitude, axes, keepdims=keepdims)
    if ord == 0:
        return jnp.sum(array != 0, axes, keepdims=keepdims).astype(array.dtype)
    if ord == 1:
        return jnp.sum(magnitude, axes, keepdims=keepdims)
    return jnp.sum(magnitude ** ord, axes, keepdims=keepdims) ** (1.0 / ord)


def _matrix_norm(op_name, array, ord, axes, keepdims):
    if ord == "fro":
        return jnp.sqrt(jnp.sum(array * array, axes, keepdims=keepdims))
    # LAPACK has no half-precision SVD (ord 'nuc', 2, -2): those compute in Float32, then round back.
    wide = array.astype(_FLOAT32) if array.dtype.itemsize < 4 else array
    try:
        result = jnp.linalg.matrix_norm(jnp.moveaxis(wide, axes, (-2, -1)), ord=ord).astype(array.dtype)
    except (TypeError, ValueError) as error:
        raise ValueError(f"For '{op_name}', unsupported matrix norm ord={ord!r}: use 'fro', "
                         f"'nuc', inf, -inf, 1, -1, 2 or -2. Details: {error}") from None
    return jnp.expand_dims(result, tuple(sorted(axes))) if keepdims else result


def _in_dtype(array, dtype):
    if dtype is None:
        return array
    return array.astype(mstype.to_numpy_dtype(mstype.normalize(dtype)))


def _numpy_axes(axis):
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


def _numpy_vector_norm(x, ord=2, axis=None, keepdims=False, dtype=None):
    magnitude = np.abs(np.asarray(x, np.float64))
    axis = _numpy_axes(axis)
    if ord == np.inf:
        return np.max(magnitude, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return np.min(magnitude, axis=axis, keepdims=keepdims)
    if ord == 0:
        return np.sum(magnitude != 0, axis=axis, keepdims=keepdims).astype(np.float64)
    return np.sum(magnitude ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def _norm_samples(*settings):
    base = operands(((3, 4),), ((5,),), low=0.25, high=2.0)
    return with_settings(base, *settings)


@op(inputs="x", dtypes=TO_FLOAT,
    mint=spelling("vector_norm", "x, ord=2, dim=None, keepdim=False, *, dtype=None", namespaces="mint.linalg",
                  axis="dim", keepdims="keepdim"),
    samples=_norm_samples({"ord": 1, "axis": 1}, {"ord": float("inf"), "axis": 0, "keepdims": True},
                          {"ord": 3.0, "axis": (0, 1)}),
    reference=_numpy_vector_norm)
def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):
    """The ``ord`` vector norm of ``x`` over ``axis`` (all elements when None).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.vector_norm(Tensor(np.array([3.0, 4.0], np.float32))).asnumpy().item()
        5.0
    """
    array = _in_dtype(x, dtype)
    return _complex_kept(array, _vector_norm(array, ord, _axes("vector_norm", axis, array.ndim), keepdims))


def _complex_kept(array, result):
    """MindSpore's norms of a complex input answer in its complex dtype (the norm as the real part)."""
    return result.astype(array.dtype) if array.dtype.kind == "c" else result


def _numpy_matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, dtype=None):
    return np.linalg.norm(np.asarray(A, np.float64), ord=ord, axis=tuple(axis), keepdims=keepdims)


@op(inputs="A", dtypes=TO_FLOAT,
    mint=spelling("matrix_norm", "A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None",
                  namespaces="mint.linalg", axis="dim", keepdims="keepdim"),
    samples=with_settings(operands(((3, 4),), ((2, 3, 3),), low=0.25, high=2.0),
                          {"ord": 1}, {"ord": float("-inf"), "axis": (1, 0), "keepdims": True}),
    reference=_numpy_matrix_norm)
def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):
    """The ``ord`` matrix norm of ``A`` over the two dimensions ``axis``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.matrix_norm(Tensor(np.eye(2, dtype=np.float32)), ord=1).asnumpy().item()
        1.0
    """
    array = _in_dtype(A, dtype)
    if array.ndim == 0:  # MindSpore 2.10's ValueError
        raise ValueError("For norm, the dim is out of range.\nFor 'matrix_norm', 'A' must have the two dimensions "
                         f"{tuple(axis)}, but got a 0-d Tensor.")
    axes = tuple(int(a) % array.ndim for a in axis)
    return _matrix_norm("matrix_norm", array, ord, axes, keepdims)


def _numpy_norm(A, ord=None, dim=None, keepdim=False, dtype=None):
    array = np.asarray(A, np.float64)
    if dim is None and ord is None:
        return np.sqrt(np.sum(array * array, keepdims=keepdim))
    if isinstance(dim, (tuple, list)) and len(dim) == 2:
        return np.linalg.norm(array, ord="fro" if ord is None else ord, axis=tuple(dim), keepdims=keepdim)
    if dim is None:
        return np.linalg.norm(array, ord=ord, keepdims=keepdim)
    return _numpy_vector_norm(array, 2 if ord is None else ord, dim, keepdim)


@op(inputs="A", dtypes=TO_FLOAT,
    mint=spelling("norm", "A, ord=None, dim=None, keepdim=False, *, dtype=None", namespaces="mint.linalg"),
    samples=with_settings(operands(((3, 4),), ((5,),), ((2, 3, 2),), low=0.25, high=2.0),
                          {"ord": 1}, {"dim": 1, "keepdim": True}, {"ord": "nuc", "dim": (0, 1)},
                          {"ord": 3.0, "dim": (1,)}),
    reference=_numpy_norm)
def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector or matrix norm of ``A``.

    With ``dim`` None and ``ord`` None: the 2-norm of all elements. With ``dim`` None and an
    ``ord``: a vector norm of a 1-D input or a matrix norm of a 2-D one. An int ``dim`` gives a
    vector norm, a pair of dims a matrix norm (``'fro'`` by default).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.norm(Tensor(np.array([[3.0, 0.0], [0.0, 4.0]], np.float32))).asnumpy().item()
        5.0
    """
    array = _in_dtype(A, dtype)
    return _complex_kept(array, _norm_of(array, ord, dim, keepdim))


def _norm_of(array, ord, dim, keepdim):
    if dim is None:
        if ord is None:
            return _vector_norm(array, 2, tuple(range(array.ndim)), keepdim)
        if array.ndim == 1:
            return _vector_norm(array, ord, (0,), keepdim)
        if array.ndim == 2:
            return _matrix_norm("norm", array, ord, (0, 1), keepdim)
        raise ValueError(f"For 'norm', an 'ord' without 'dim' needs a 1-D or 2-D input, but got "
                         f"shape {tuple(array.shape)}; pass dim as well.")
    if isinstance(dim, tuple) and len(dim) == 2:
        axes = tuple(int(a) % array.ndim for a in dim)
        return _matrix_norm("norm", array, "fro" if ord is None else ord, axes, keepdim)
    axes = _axes("norm", dim, array.ndim)
    if isinstance(ord, str):
        raise ValueError(f"For 'norm', ord={ord!r} is a matrix norm and needs a pair of dims, "
                         f"but got dim={dim!r}.")
    return _vector_norm(array, 2 if ord is None else ord, axes, keepdim)


def _numpy_clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    arrays = (x,) if isinstance(x, np.ndarray) else x
    total = np.sqrt(sum(np.sum(np.square(np.asarray(array, np.float64))) for array in arrays))
    clipped = tuple(array * np.full(1, clip_norm / max(total, clip_norm)) for array in arrays)
    return clipped[0] if isinstance(x, np.ndarray) else clipped


def _clip_by_global_norm_samples(dtype):
    return [Sample(((values((2, 3), dtype, seed=1), values((4,), dtype, seed=2), values((), dtype, seed=4)),),
                   {"clip_norm": 2.0}),
            Sample((values((3, 2), dtype, low=-0.1, high=0.1, seed=3),), {})]


@op(inputs="x", one_or_many="x", dtypes=NUMBER, grad_check=False, samples=_clip_by_global_norm_samples,
    reference=_numpy_clip_by_global_norm)
def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scale the tensors ``x`` so their joint 2-norm is at most ``clip_norm``.

    Each tensor becomes ``t * clip_norm / max(global_norm, clip_norm)`` (the norm summed in Float32; a 0-d
    tensor becomes shape (1,), as in MindSpore 2.10). A tuple or list gives a tuple; a single Tensor gives a Tensor.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.clip_by_global_norm((Tensor(np.array([3.0, 4.0], np.float32)),), 1.0)[0].asnumpy().tolist()
        [0.6000000238418579, 0.800000011920929]
    """
    if use_norm is not None:
        raise ValueError("For 'clip_by_global_norm', 'use_norm' only supports None: the global "
                         "norm is always computed from 'x'.")
    total = sum(jnp.sum(jnp.square(array.astype(_FLOAT32))) for array in x)
    # the scale has shape (1,), as MindSpore 2.10's: a 0-d tensor comes back with shape (1,)
    scale = jnp.reshape(clip_norm / jnp.maximum(jnp.sqrt(total), clip_norm), (1,))
    return tuple((array * scale).astype(array.dtype) for array in x)


def _numpy_cosine_similarity(x1, x2, dim=1, eps=1e-08):
    a, b = np.asarray(x1, np.float64), np.asarray(x2, np.float64)
    norms = np.sqrt(np.sum(a * a, dim)) * np.sqrt(np.sum(b * b, dim))
    return np.sum(a * b, dim) / np.maximum(norms, eps)


@op(inputs=("x1", "x2"), dtypes=TO_FLOAT,
    samples=with_settings(operands(((3, 4), (3, 4)), ((2, 3, 2), (1, 3, 2))), {"dim": -1}),
    reference=_numpy_cosine_similarity)
def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 0.0]], np.float32))
        >>> ops.cosine_similarity(x, x).asnumpy().tolist()
        [1.0]
    """
    a, b = _promoted(x1, x2)
    dot_product = jnp.sum(a * b, dim)
    norms = jnp.linalg.norm(a, axis=dim) * jnp.linalg.norm(b, axis=dim)
    return dot_product / jnp.maximum(norms, eps)


def _numpy_cdist(x1, x2, p=2.0):
    difference = np.asarray(x1)[..., :, None, :] - np.asarray(x2)[..., None, :, :]
    return _numpy_vector_norm(difference, p, -1)


@op(inputs=("x1", "x2"), dtypes=TO_FLOAT,
    mint=spelling("cdist", "x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'",
                  unused="compute_mode"),
    samples=with_settings(operands(((3, 2), (4, 2)), ((2, 3, 4), (2, 2, 4))), {"p": 1.0}, {"p": 3.0}),
    reference=_numpy_cdist)
def cdist(x1, x2, p=2.0):
    """Pairwise ``p``-norm distances between the rows of ``x1`` (..., P, M) and ``x2`` (..., R, M).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.cdist(Tensor(np.zeros((1, 2), np.float32)), Tensor(np.array([[3.0, 4.0]], np.float32))).asnumpy().tolist()
        [[5.0]]
    """
    if x1.ndim < 2 or x2.ndim < 2 or x1.shape[-1] != x2.shape[-1]:
        raise ValueError(f"For 'cdist', x1 and x2 must be (..., P, M) and (..., R, M) with the "
                         f"same M, but got shapes {tuple(x1.shape)} and {tuple(x2.shape)}.")
    difference = x1[..., :, None, :] - x2[..., None, :, :]
    return _vector_norm(difference, float(p), (difference.ndim - 1,), False)


@op(inputs=("input", "other"), dtypes=TO_FLOAT,
    samples=with_settings(operands(((3, 4), (3, 4)), ((2, 3), (3,))), {"p": 1}, {"p": float("inf")}),
    reference=lambda input, other, p=2: _numpy_vector_norm(np.asarray(input) - np.asarray(other), p))
def dist(input, other, p=2):
    """The ``p``-norm of ``input - other`` over all elements.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.dist(Tensor(np.array([3.0, 0.0], np.float32)), Tensor(np.array([0.0, 4.0], np.float32))).asnumpy().item()
        5.0
    """
    a, b = _promoted(input, other)
    difference = a - b
    return _vector_norm(difference, float(p), tuple(range(difference.ndim)), False)


# --- Primitive-only norms: ``ops.LpNorm``, ``ops.SquareSumAll`` (MindSpore has no functional op of them) ---
def _numpy_lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):
    magnitude = np.abs(np.asarray(input, np.float64))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if p == 0:
        norm = np.sum(magnitude != 0, axis=axes, keepdims=keep_dims).astype(np.float64)
    else:
        norm = np.sum(magnitude ** p, axis=axes, keepdims=keep_dims) ** (1.0 / p)
    return np.maximum(norm, epsilon)


@op(dtypes=TO_FLOAT, primitive="LpNorm", primitive_attrs=("axis", "p", "keep_dims", "epsilon"),
    samples=lambda dtype: [Sample(arrays, {"axis": axis, **settings}) for (arrays, axis, settings) in (
        ((_grid_values((3, 4), dtype, 1, 0.25, 2.0),), 1, {}),
        ((_grid_values((2, 3, 2), dtype, 2, 0.25, 2.0),), (0, 2), {"p": 3, "keep_dims": True}),
        ((_grid_values((5,), dtype, 3, 0.25, 2.0),), 0, {"p": 1}))],
    reference=_numpy_lp_norm)
def lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):
    """``(sum |x|^p)^(1/p)`` over ``axis`` (``p=0``: the count of non-zeros), at least ``epsilon``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.LpNorm(axis=0, p=1)(Tensor(np.array([1.0, -2.0], np.float32))).asnumpy().item()
        3.0
    """
    if isinstance(p, bool) or not isinstance(p, int) or p < 0:
        raise ValueError(f"For 'LpNorm', 'p' must be a non-negative int, but got {p!r}.")
    axes = ((axis,) if isinstance(axis, int) else tuple(axis)) if input.ndim else ()
    axes = tuple(a % input.ndim for a in axes)
    if p == 0:
        norm = jnp.sum((input != 0).astype(input.dtype), axes, keepdims=keep_dims)
    elif p == 1:
        norm = jnp.sum(jnp.abs(input), axes, keepdims=keep_dims)
    else:
        # Scaled by the largest magnitude so that high orders neither underflow nor overflow.
        magnitude = jnp.abs(input)
        largest = jnp.max(magnitude, axes, keepdims=True)
        safe = jnp.where(largest > 0, largest, 1)
        norm = jnp.sum((magnitude / safe) ** p, axes, keepdims=True) ** (1.0 / p) * largest
        if not keep_dims:
            norm = jnp.squeeze(norm, axes)
    return jnp.maximum(norm, jnp.asarray(epsilon, input.dtype)).astype(input.dtype)


@op(inputs=("x", "y"), dtypes=FLOAT, primitive="SquareSumAll",
    samples=lambda dtype: operands(((3, 4), (3, 4)), ((5,), (5,)))(dtype) if dtype in ("float32", "float16") else [],
    reference=lambda x, y: (np.sum(np.square(x)), np.sum(np.square(y))),
    grad_check=False)  # MindSpore's SquareSumAll takes Float16/Float32 only: no float64 to difference in
def square_sum_all(x, y):
    """The sums of squares of two tensors of one shape and dtype: ``(sum(x**2), sum(y**2))``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 0.0], np.float32))
        >>> [total.asnumpy().item() for total in ops.SquareSumAll()(x, y)]
        [5.0, 9.0]
    """
    for name, array in (("x", x), ("y", y)):
        if array.dtype not in (np.float16, np.float32):
            raise TypeError(f"For 'SquareSumAll', '{name}' must be a Float16 or Float32 Tensor, but got {array.dtype}.")
    if x.dtype != y.dtype:
        raise TypeError(f"For 'SquareSumAll', 'x' and 'y' must have the same dtype, but got {x.dtype} and "
                        f"{y.dtype}.")
    if x.shape != y.shape:
        raise ValueError(f"For 'SquareSumAll', 'x' and 'y' must have the same shape, but got {tuple(x.shape)} "
                         f"and {tuple(y.shape)}.")
    return jnp.sum(x * x), jnp.sum(y * y)
