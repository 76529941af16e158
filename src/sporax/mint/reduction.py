"""``mindspore.mint`` reductions, scans and sorts with PyTorch's ``dim``/``keepdim`` arguments: adapters
onto ``sporax.ops``."""
import sporax.numpy as mnp
from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor


def _cast(result, dtype):
    return result if dtype is None else result.astype(dtype)


def _extremum(name, input, dim, keepdim, other):
    if isinstance(dim, Tensor):
        return getattr(ops, "maximum" if name == "max" else "minimum")(input, dim)
    if other is not None:
        return getattr(ops, "maximum" if name == "max" else "minimum")(input, other)
    if dim is None:
        return getattr(ops, "amax" if name == "max" else "amin")(input)
    return getattr(ops, name)(input, dim, keepdim)


def max(input, dim=None, keepdim=False, *, other=None):
    """``max(input)``: the largest element; ``max(input, dim, keepdim)``: (values, indices) along ``dim``;
    ``max(input, other)``: the element-wise maximum.

    Example:
        >>> import sporax as ms
        >>> values, indices = ms.mint.max(ms.Tensor([[1.0, 3.0]]), 1)
    """
    return _extremum("max", input, dim, keepdim, other)


def min(input, dim=None, keepdim=False, *, other=None):
    """``min(input)``, ``min(input, dim, keepdim)`` -> (values, indices), or ``min(input, other)``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.min(ms.Tensor([1.0, 3.0]))
    """
    return _extremum("min", input, dim, keepdim, other)


def median(input, dim=None, keepdim=False):
    """The (lower) median of all elements, or (values, indices) along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.median(ms.Tensor([3.0, 1.0, 2.0]))
    """
    if dim is None:
        return ops.median(input.reshape(-1), 0)[0]
    return ops.median(input, dim, keepdim)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """The vector ``p``-norm over ``dim`` (all elements when None); ``'fro'`` is the 2-norm, ``'nuc'``
    the nuclear norm of a matrix.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.norm(ms.Tensor([3.0, 4.0]))
    """
    input = _cast(input, dtype)
    if p == "nuc":
        return ops.norm(input, "nuc", dim, keepdim)
    if p == "fro" or p is None:
        p = 2
    magnitude = ops.abs(input)
    if p == float("inf"):
        return ops.amax(magnitude, dim, keepdim)
    if p == float("-inf"):
        return ops.amin(magnitude, dim, keepdim)
    if p == 0:
        return ops.sum((magnitude != 0).astype(input.dtype), dim, keepdim)
    return ops.pow(ops.sum(ops.pow(magnitude, p), dim, keepdim), 1.0 / p)


def histc(input, bins=100, min=0, max=0):
    """A histogram of ``bins`` equal bins over [min, max] (the data's range when both are 0).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.histc(ms.Tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3)
    """
    if min == max:
        low, high = float(ops.amin(input).asnumpy()), float(ops.amax(input).asnumpy())
    else:
        low, high = min, max
    counts, _ = mnp.histogram(input, bins, (low, high))
    return counts.astype(input.dtype)


def bincount(input, weights=None, minlength=0):
    """The number of occurrences of each non-negative integer (weighted sums with ``weights``).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.bincount(ms.Tensor([0, 1, 1]))
    """
    counts = mnp.bincount(input, weights, minlength)
    return counts.astype(mstype.int64) if weights is None else counts


def kthvalue(input, k, dim=-1, keepdim=False):
    """The ``k``-th smallest value along ``dim`` and its index.

    Example:
        >>> import sporax as ms
        >>> value, index = ms.mint.kthvalue(ms.Tensor([3.0, 1.0, 2.0]), 2)
    """
    values, indices = ops.sort(input, dim)
    values = ops.narrow(values, dim, k - 1, 1)
    indices = ops.narrow(indices, dim, k - 1, 1).astype(mstype.int64)
    if not keepdim:
        values, indices = ops.squeeze(values, dim), ops.squeeze(indices, dim)
    return values, indices


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """Indices where ``values`` would be inserted into ``sorted_sequence`` (Int64, or Int32 with
    ``out_int32``).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.searchsorted(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([2.5]))
    """
    side = side or ("right" if right else "left")
    result = mnp.searchsorted(sorted_sequence, values, side, sorter)
    return result if out_int32 else result.astype(mstype.int64)


