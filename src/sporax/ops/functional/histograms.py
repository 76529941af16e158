"""Counting values into bins: ``bincount``, ``bucketize``, ``histc`` and ``HistogramFixedWidth``'s op.

Contract: as the MindSpore 2.10 functions of these names (values and dtypes checked against it). ``bincount``'s
length is read from the values on the host (an ``eager`` entry); the others have static output shapes.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.histc(Tensor(np.array([1.0, 2.0, 1.0], np.float32)), bins=4, min=0, max=3))
    [0. 2. 1. 0.]
"""
import numbers

import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import describe
from sporax.ops.face_inputs import concrete
from sporax.ops.op_table import ANY, NUMBER, TO_FLOAT, Sample, op, spelling
from sporax.ops.samples import unary, values, with_settings


# The output length is the largest value + 1, read on the host: an ``eager`` entry. Float32 whatever the weights'
# dtype, as MindSpore's.
@op(inputs=("input", "weights"), indices="input", dtypes=TO_FLOAT, method="bincount", eager=True, grad_check=False,
    samples=lambda dtype: [Sample((np.array([0, 1, 1, 3, 5], np.int32),)),
                           Sample((np.array([2, 0, 2], np.int64), values((3,), dtype, 0.0, 1.0)), {"minlength": 5})],
    reference=lambda input, weights=None, minlength=0: np.bincount(input.astype(np.int64), weights, minlength))
def bincount(input, weights=None, minlength=0):
    """The count (or summed ``weights``) of each value 0..max in the non-negative 1-D int ``input`` (Float32).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.bincount(Tensor(np.array([0, 1, 1, 3], np.int32))))
        [1. 2. 0. 1.]
    """
    values = concrete("bincount", "input", input)
    if values.ndim != 1:
        raise ValueError(f"For 'bincount', 'input' must be 1-D, but got shape {values.shape}.")
    if values.size and values.min() < 0:
        raise ValueError("For 'bincount', 'input' must be non-negative, but it has negative values.")
    if isinstance(minlength, bool) or not isinstance(minlength, numbers.Integral) or minlength < 0:
        raise ValueError(f"For 'bincount', 'minlength' must be a non-negative int, but got {minlength!r}.")
    length = max(int(minlength), int(values.max()) + 1 if values.size else 0)
    if weights is None:
        return jnp.zeros((length,), jnp.float32).at[values].add(1.0)
    if weights.shape != values.shape:
        raise ValueError(f"For 'bincount', 'weights' must have the shape of 'input' {values.shape}, but got "
                         f"{tuple(weights.shape)}.")
    return jnp.zeros((length,), jnp.float32).at[values].add(weights.astype(jnp.float32))


@op(dtypes=ANY, samples=with_settings(unary(boundaries=(-2.0, -0.5, 1.0, 3.0)), {"right": True}),
    reference=lambda input, boundaries, right=False: np.searchsorted(boundaries, input,
                                                                     side="right" if right else "left"),
    grad_check=False)
def bucketize(input, boundaries, *, right=False):
    """The index of the bucket of each element: ``boundaries[i-1] < x <= boundaries[i]``
    (``right``: ``boundaries[i-1] <= x < boundaries[i]``); Int32.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.bucketize(Tensor(np.array([1.0, 5.0, 7.0], np.float32)), [1.0, 3.0, 5.0, 7.0], right=True))
        [1 3 4]
    """
    if not isinstance(boundaries, tuple):
        raise TypeError(f"For 'bucketize', 'boundaries' must be a list of numbers or a 1-D Tensor, but got "
                        f"{describe(boundaries)}.")
    edges = jnp.asarray(boundaries, jnp.float32 if any(isinstance(b, float) for b in boundaries) else None)
    return jnp.searchsorted(edges, input, side="right" if right else "left").astype(jnp.int32)


def _histc_reference(input, bins=100, min=0.0, max=0.0):
    values = np.ravel(input)
    if min == max:
        min, max = values.min(), values.max()
        if min == max:
            min, max = min - 1, max + 1
    return np.histogram(values, bins, range=(min, max))[0]


def _histc_samples(dtype):
    return [Sample(sample.arrays, settings) for sample, settings in zip(
        unary(-4.0, 4.0)(dtype), ({"bins": 5, "min": -2.0, "max": 2.0}, {"bins": 4}, {"bins": 3, "min": -1, "max": 3}))]


@op(dtypes=NUMBER, method="histc", mint=spelling("histc", "input, bins=100, min=0, max=0"),
    samples=_histc_samples, reference=_histc_reference, grad_check=False)
def histc(input, bins=100, min=0.0, max=0.0):
    """A histogram of ``input`` with ``bins`` equal bins over [min, max] (the data range when both are 0);
    values outside are ignored. The result has ``input``'s dtype (Float32 for Float16/BFloat16, as MindSpore's).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.histc(Tensor(np.array([1.0, 2.0, 1.0], np.float32)), bins=4, min=0, max=3))
        [0. 2. 1. 0.]
    """
    if isinstance(bins, bool) or not isinstance(bins, numbers.Integral) or bins < 1:
        raise ValueError(f"For 'histc', 'bins' must be a positive int, but got {bins!r}.")
    if min > max:
        raise ValueError(f"For 'histc', 'min' must not exceed 'max', but got min={min}, max={max}.")
    values = input.reshape(-1).astype(jnp.float32)
    low, high = jnp.float32(min), jnp.float32(max)
    if min == max:
        low, high = values.min(), values.max()
        same = low == high
        low, high = jnp.where(same, low - 1, low), jnp.where(same, high + 1, high)
    position = jnp.floor((values - low) / (high - low) * bins).astype(jnp.int32)
    position = jnp.where(values == high, bins - 1, position)
    inside = (values >= low) & (values <= high)
    counts = jnp.zeros((int(bins),), jnp.float32).at[jnp.where(inside, position, bins)].add(1.0, mode="drop")
    return counts.astype(np.float32 if input.dtype.itemsize < 4 and input.dtype.kind in "fV" else input.dtype)


def _histogram_fixed_width_reference(x, range, nbins):  # noqa: A002 - MindSpore's name
    low, high = (float(bound) for bound in np.asarray(range, np.float64).reshape(-1))
    counts = np.zeros(nbins, np.int32)
    for value in np.asarray(x, np.float64).reshape(-1):
        counts[min(max(int(np.floor((value - low) / (high - low) * nbins)), 0), nbins - 1)] += 1
    return counts


@op(inputs=("x", "range"), dtypes=ANY, grad_check=False, reference=_histogram_fixed_width_reference,
    samples=lambda dtype: [Sample((np.array([[-1.0, 0.0, 1.5], [2.0, 5.0, 15.0]], np.float32),
                                   np.array([0.0, 5.0], np.float32)), {"nbins": 5}),
                           Sample((np.array([0, 3, 3, 9], np.int32), np.array([0, 8], np.int32)), {"nbins": 3})])
def histogram_fixed_width(x, range, nbins):  # noqa: A002 - MindSpore's name
    """``HistogramFixedWidth``: the Int32 counts of ``x`` in ``nbins`` equal bins over ``range`` = [low, high];
    values outside go to the first or last bin."""
    bounds = range.reshape(-1)
    if bounds.shape[0] != 2:
        raise ValueError(f"For 'HistogramFixedWidth', 'range' must hold [low, high], but got shape "
                         f"{tuple(range.shape)}.")
    low, high = bounds[0].astype(jnp.float32), bounds[1].astype(jnp.float32)
    position = jnp.floor((x.reshape(-1).astype(jnp.float32) - low) / (high - low) * nbins).astype(jnp.int32)
    return jnp.zeros((nbins,), jnp.int32).at[jnp.clip(position, 0, nbins - 1)].add(1)
