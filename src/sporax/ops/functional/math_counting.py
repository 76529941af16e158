"""Element-wise and counting ops: ``gcd``, ``eps``, ``fills``, ``div_no_nan``, ``cumulative_logsumexp``, ``aminmax``,
``clip_by_norm``, ``diagonal_scatter``, ``intopk``, ``compare_and_bitpack``, ``confusion_matrix``, Tensor tests
(``is_floating_point``, ``is_nonzero``, ``is_tensor``) and the ``*_ext`` spellings. Complex parts are in
``complex_parts``, histograms and bins in ``histograms``.

Contract: as the MindSpore 2.10 functions of these names (values and dtypes checked against it).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.gcd(Tensor(np.array([12, 18], np.int32)), Tensor(np.array([8, -27], np.int32))))
    [4 9]
"""
import numbers

import jax
import jax.numpy as jnp
import ml_dtypes  # ships with jax: the epsilon of BFloat16
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional.nan_orders import select_minimum
from sporax.ops.functional import calculus, reduce, scans
from sporax.ops.face_inputs import concrete
from sporax.ops.functional.comparison import integral_only
from sporax.ops.functional.special_math import INTEGER_PAIRS
from sporax.ops.op_table import ANY, BINARY, FLOAT, TO_FLOAT, Sample, function_op, op
from sporax.ops.samples import (_numpy_dtype as _sample_dtype, binary, operands, reduction, shaped, unary, values,
                                with_settings)


gcd = function_op("gcd", integral_only("gcd", jnp.gcd),
                  "The element-wise greatest common divisor of integer tensors (non-negative; broadcast).\n\n"
                  "    Example:\n        >>> import numpy as np\n        >>> from sporax import Tensor, ops\n"
                  "        >>> ops.gcd(Tensor(np.array([4], np.int32)), Tensor(np.array([6], np.int32))).asnumpy()\n"
                  "        array([2], dtype=int32)\n",
                  module=__name__, inputs=("input", "other"), dtypes=BINARY, primitive="Gcd", method="gcd",
                  mint="gcd", samples=INTEGER_PAIRS, reference=np.gcd, grad_check=False)


def diff_ext(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim``, as ``ops.diff``."""
    return calculus.diff(input, n, dim, prepend, append)


def _numpy_eps(x, dtype):
    return np.full(np.shape(x), ml_dtypes.finfo(_sample_dtype(dtype)).eps, np.float64)


@op(inputs="x", dtypes=FLOAT, primitive="Eps", grad_check=False, reference_dtype=True, reference=_numpy_eps,
    samples=unary(shapes=((2, 3),)))
def eps(x):
    """A tensor of ``x``'s shape filled with the machine epsilon of its float dtype.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> float(ops.eps(Tensor(np.array([1.0], np.float16))).asnumpy()[0])
        0.0009765625
    """
    return jnp.full(x.shape, jnp.finfo(x.dtype).eps, x.dtype)


def _check_fill_value(x, value):
    if hasattr(value, "dtype"):
        if value.size != 1:
            raise ValueError(f"For 'fills', a Tensor 'value' must hold one element, but got shape {tuple(value.shape)}.")
    elif isinstance(value, bool):
        raise TypeError(f"For 'fills', 'value' must be a number or a Tensor, but got {describe(value)}.")


def _fills_samples(dtype):
    x = unary()(dtype)
    return [Sample(x[0].arrays + (2.5,)), Sample(x[1].arrays + (np.asarray([-1.25], x[1].arrays[0].dtype),))]


@op(inputs=("x", "value"), dtypes=ANY, scalars="value", method="fills", value_check=_check_fill_value,
    grad_check=False, samples=_fills_samples, reference=lambda x, value: np.full(np.shape(x), np.ravel(value)[0]))
def fills(x, value):
    """A tensor of ``x``'s shape and dtype filled with ``value`` (a number or a 0-D/1-element Tensor).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.fills(Tensor(np.zeros(3, np.float32)), 2.5).asnumpy().tolist()
        [2.5, 2.5, 2.5]
    """
    return jnp.full(x.shape, jnp.reshape(value, ()), x.dtype)


@op(inputs=("x1", "x2"), dtypes=BINARY, primitive="DivNoNan",
    samples=binary(-8.0, 8.0, other=(-2.0, 2.0), integral=True),
    reference=lambda x1, x2: np.where(np.equal(x2, 0), 0.0, x1 / np.where(np.equal(x2, 0), 1, x2)),
    grad_check=False)
def div_no_nan(x1, x2):
    """``x1 / x2``, 0 where ``x2`` is 0 (integers divide with floor); MindSpore's ``DivNoNan``."""
    zero = x2 == 0
    divisor = jnp.where(zero, jnp.ones_like(x2), x2)
    integral = np.dtype(jnp.result_type(x1, x2)).kind in "iu"
    quotient = x1 // divisor if integral else x1 / divisor
    return jnp.where(zero, jnp.zeros_like(quotient), quotient)


def _cumulative_logsumexp_reference(x, axis, exclusive=False, reverse=False):
    values = np.flip(x, axis) if reverse else x
    result = np.log(np.cumsum(np.exp(values), axis))
    return np.flip(result, axis) if reverse else result


@op(inputs="x", primitive="CumulativeLogsumexp", primitive_attrs=("exclusive", "reverse"),
    samples=with_settings(unary(shapes=((3, 4), (7,)), axis=0), {"axis": 1, "reverse": True}, {"axis": -1}),
    reference=_cumulative_logsumexp_reference)
def cumulative_logsumexp(x, axis, exclusive=False, reverse=False):
    """``log(cumsum(exp(x)))`` along ``axis``, optionally exclusive (each element left out of its own sum;
    the first is the dtype's lowest value) and/or from the end (MindSpore's ``CumulativeLogsumexp``)."""
    for name, value in (("exclusive", exclusive), ("reverse", reverse)):
        if not isinstance(value, bool):
            raise TypeError(f"For 'CumulativeLogsumexp', '{name}' must be a bool, but got {value!r}.")
    axis = axis % x.ndim
    values = jnp.flip(x, axis) if reverse else x
    result = scans.logcumsumexp.entry.kernel(values, axis)
    if exclusive:
        lowest = jnp.full_like(jax.lax.slice_in_dim(result, 0, 1, axis=axis), jnp.finfo(x.dtype).min)
        result = jnp.concatenate([lowest, jax.lax.slice_in_dim(result, 0, -1, axis=axis)], axis)
    return jnp.flip(result, axis) if reverse else result


@op(dtypes=ANY, method="aminmax", samples=reduction(keep="keepdims", single=True, required=True),
    reference=lambda input, axis=0, keepdims=False: (np.min(input, axis, keepdims=keepdims),
                                                     np.max(input, axis, keepdims=keepdims)),
    grad_check=False)
def aminmax(input, *, axis=0, keepdims=False):
    """``(min, max)`` of ``input`` along ``axis``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> low, high = ops.aminmax(Tensor(np.array([[1.0, 5.0], [3.0, 2.0]], np.float32)), axis=1)
        >>> low.asnumpy().tolist(), high.asnumpy().tolist()
        ([1.0, 2.0], [5.0, 3.0])
    """
    return reduce.amin.entry.kernel(input, axis, keepdims), reduce.amax.entry.kernel(input, axis, keepdims)


def _total_norm(arrays, norm_type):
    """The ``norm_type``-norm of all ``arrays`` together (their elements as one vector)."""
    if norm_type == float("inf"):
        return jnp.max(jnp.stack([jnp.max(jnp.abs(array)) for array in arrays]))
    return jnp.sum(jnp.stack([jnp.sum(jnp.abs(array) ** norm_type) for array in arrays])) ** (1.0 / norm_type)


def _check_total_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """``error_if_nonfinite``: the joint norm is read on the host (PyNative; a compiled caller cannot raise)."""
    if error_if_nonfinite and not any(isinstance(array, jax.core.Tracer) for array in x):
        total = _total_norm(x, float(norm_type))
        if not bool(jnp.isfinite(total)):
            raise RuntimeError(f"For 'clip_by_norm', the total norm of order {norm_type} is non-finite ({total}); "
                               "look for inf or nan in the inputs, or pass error_if_nonfinite=False.")


def _numpy_clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    arrays = (x,) if isinstance(x, np.ndarray) else x
    flat = np.abs(np.concatenate([np.ravel(array) for array in arrays]))
    total = flat.max() if norm_type == float("inf") else np.sum(flat ** norm_type) ** (1.0 / norm_type)
    scale = min(max_norm / (total + 1e-6), 1.0)
    clipped = tuple(array * scale for array in arrays)
    return clipped[0] if isinstance(x, np.ndarray) else clipped


def _clip_samples(dtype):
    return [Sample(((values((2, 3), dtype, seed=1), values((4,), dtype, seed=2)),), {"max_norm": 2.0}),
            Sample((values((3, 2), dtype, seed=3),), {"max_norm": 1.5, "norm_type": float("inf")}),
            Sample(((values((3,), dtype, low=-0.1, high=0.1, seed=4),),), {"max_norm": 1.0, "norm_type": 1.0})]


@op(inputs="x", one_or_many="x", dtypes=TO_FLOAT, value_check=_check_total_norm, grad_check=False,
    samples=_clip_samples, reference=_numpy_clip_by_norm)
def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """``x`` (a Tensor or a list/tuple of Tensors) scaled so its total ``norm_type``-norm is at most
    ``max_norm``; a list is scaled by the norm of all its tensors together (a tuple comes back).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> [round(v, 3) for v in ops.clip_by_norm(Tensor(np.array([3.0, 4.0], np.float32)), 1.0).asnumpy().tolist()]
        [0.6, 0.8]
    """
    max_norm = np.reshape(max_norm, -1)[0]  # a one-element Tensor arrives as a tuple setting: ``(1.0,)``
    # MindSpore's minimum: a NaN norm leaves the scale 1 (nan_orders)
    scale = select_minimum(max_norm / (_total_norm(x, float(norm_type)) + 1e-6), 1.0)
    return tuple((array * scale).astype(array.dtype) for array in x)


def _numpy_diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    moved = np.moveaxis(np.array(input, copy=True), (dim1, dim2), (-2, -1))
    for index in range(np.shape(src)[-1]):
        row, col = (index, index + offset) if offset >= 0 else (index - offset, index)
        moved[..., row, col] = np.asarray(src)[..., index]
    return np.moveaxis(moved, (-2, -1), (dim1, dim2))


@op(inputs=("input", "src"), dtypes=ANY, method="diagonal_scatter", grad_check=False, reference=_numpy_diagonal_scatter,
    samples=operands((((3, 4), (3,)), {}), (((3, 4), (2,)), {"offset": 2}), (((2, 3, 3), (2, 2)), {"offset": -1, "dim1": 1, "dim2": 2}),
                     (((3, 2, 4), (2, 3)), {"dim1": 0, "dim2": 2})))
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``input`` with its diagonal (``offset``, over ``dim1``/``dim2``) replaced by ``src`` (cast to ``input``'s dtype).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.diagonal_scatter(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.ones(2, np.float32))))
        [[1. 0.]
         [0. 1.]]
    """
    if input.ndim < 2:
        raise ValueError(f"For 'diagonal_scatter', 'input' must have at least 2 dimensions, but got {input.ndim}.")
    dim1, dim2 = dim1 % input.ndim, dim2 % input.ndim
    moved = jnp.moveaxis(input, (dim1, dim2), (-2, -1))
    rows, cols = moved.shape[-2:]
    start_row, start_col = (0, offset) if offset >= 0 else (-offset, 0)
    length = max(0, min(rows - start_row, cols - start_col))
    expected = moved.shape[:-2] + (length,)
    if tuple(src.shape) != expected:
        raise ValueError(f"For 'diagonal_scatter', 'src' must have the diagonal's shape {expected}, but got "
                         f"{tuple(src.shape)}.")
    index = jnp.arange(length)
    moved = moved.at[..., start_row + index, start_col + index].set(src.astype(input.dtype))
    return jnp.moveaxis(moved, (-2, -1), (dim1, dim2))


def _numpy_intopk(x1, x2, k):
    rows = np.asarray(x1)
    targets = np.asarray(x2)
    result = []
    for row, target in zip(rows, targets):
        inside = 0 <= target < row.shape[0]
        value = row[target] if inside else np.nan
        result.append(bool(inside and np.isfinite(value) and np.sum(row > value) < k))
    return np.asarray(result)


def _intopk_samples(dtype):
    """Predictions on a quarter grid (ties among them) and targets, one out of range."""
    predictions = np.round(np.random.default_rng(3).uniform(-2.0, 2.0, (4, 5)) * 4) / 4
    targets = np.asarray([0, 2, 4, 5], np.int32)
    return [Sample((predictions.astype(_sample_dtype(dtype)), targets), {"k": k}) for k in (1, 3)]


@op(inputs=("x1", "x2"), dtypes=FLOAT, indices="x2", primitive="InTopK", primitive_attrs=("k",), grad_check=False,
    samples=_intopk_samples, reference=_numpy_intopk)
def intopk(x1, x2, k):
    """Whether each target ``x2[i]`` is among the ``k`` largest predictions of row ``x1[i]`` (Bool; a target out
    of range, or whose prediction is not finite, is not).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.intopk(Tensor(np.array([[1.0, 3.0, 2.0]], np.float32)), Tensor(np.array([1], np.int32)), 1))
        [ True]
    """
    if x1.ndim != 2 or x2.ndim != 1 or x2.shape[0] != x1.shape[0]:
        raise ValueError(f"For 'intopk', 'x1' must be 2-D and 'x2' 1-D with one target per row, but got shapes "
                         f"{tuple(x1.shape)} and {tuple(x2.shape)}.")
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(f"For 'intopk', 'k' must be an int, but got {type(k).__name__}.")
    valid = (x2 >= 0) & (x2 < x1.shape[1])
    target_values = jnp.take_along_axis(x1, jnp.clip(x2, 0, x1.shape[1] - 1)[:, None].astype(jnp.int32), 1)
    larger = jnp.sum(x1 > target_values, axis=1)
    return valid & (larger < k) & jnp.isfinite(target_values[:, 0])


@op(dtypes=ANY, method="is_floating_point", eager=True, grad_check=False, samples=shaped(((2, 3), {})),
    reference=lambda input: input.dtype.kind == "f")
def is_floating_point(input):
    """Whether ``input`` has a float dtype (Float16/BFloat16/Float32/Float64).

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.is_floating_point(Tensor([1, 2])), ops.is_floating_point(Tensor([1.0]))
        (False, True)
    """
    return input.dtype.kind in "fV"


@op(dtypes=ANY, eager=True, grad_check=False, samples=shaped(((1,), {}), ((1, 1), {})),
    reference=lambda input: bool(input.reshape(()) != 0))
def is_nonzero(input):
    """Whether the one element of ``input`` is non-zero (a Python bool).

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.is_nonzero(Tensor([0.0]))
        False
    """
    if input.size != 1:
        raise RuntimeError(f"For 'is_nonzero', the input must hold exactly one element, but got shape "
                           f"{tuple(input.shape)}.")
    return bool(concrete("is_nonzero", "input", input).reshape(()) != 0)


def is_tensor(obj):
    """Whether ``obj`` is a Tensor (Parameters included).

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.is_tensor(Tensor([1.0])), ops.is_tensor(1.0)
        (True, False)
    """
    return isinstance(obj, Tensor)


def compare_and_bitpack(x, threshold):
    """``x > threshold`` packed 8 per byte (first element in the high bit) along the last axis (UInt8)."""
    array = array_of("CompareAndBitpack", "x", x)
    limit = array_of("CompareAndBitpack", "threshold", threshold)
    if array.ndim == 0 or array.shape[-1] % 8:
        raise ValueError(f"For 'CompareAndBitpack', the last dimension of 'x' must be a multiple of 8, but got "
                         f"{describe(x)}.")
    if limit.size != 1:
        raise ValueError(f"For 'CompareAndBitpack', 'threshold' must be a scalar, but got {describe(threshold)}.")
    bits = (array > limit.reshape(())).astype(jnp.uint8).reshape(array.shape[:-1] + (-1, 8))
    weights = jnp.asarray([1 << (7 - i) for i in range(8)], jnp.uint8)
    return wrap((bits * weights).sum(axis=-1).astype(jnp.uint8))


def confusion_matrix(labels, predictions, num_classes, weights=None, dtype=jnp.int32):
    """``matrix[label, prediction] += weight`` for each pair (1 without weights)."""
    true = array_of("ConfusionMatrix", "labels", labels).reshape(-1)
    predicted = array_of("ConfusionMatrix", "logits", predictions).reshape(-1)
    if true.shape != predicted.shape:
        raise ValueError(f"For 'ConfusionMatrix', 'labels' and 'logits' must have the same shape, but got "
                         f"{describe(labels)} and {describe(predictions)}.")
    if weights is None:
        amount = jnp.ones(true.shape, dtype)
    else:
        amount = array_of("ConfusionMatrix", "weights", weights).reshape(-1)
        dtype = amount.dtype
    return wrap(jnp.zeros((num_classes, num_classes), dtype).at[true, predicted].add(amount, mode="drop"))
