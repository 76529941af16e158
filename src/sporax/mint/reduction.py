"""``mindspore.mint`` reductions, scans and sorts with PyTorch's ``dim``/``keepdim`` arguments: adapters
onto ``sporax.ops``."""
from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor


def _extremum(name, input, dim, keepdim, other):
    if isinstance(dim, Tensor):
        return getattr(ops, "maximum" if name == "max" else "minimum")(input, dim)
    if other is not None:
        return getattr(ops, "maximum" if name == "max" else "minimum")(input, other)
    if dim is None:  # MindSpore's Max: tied extremes share the gradient, the rest get +0. (amax's get 0 * it)
        return getattr(ops, name)(input)[0]
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
    # One name for two ops (MindSpore's norm_ext picks matrix_norm for 'nuc', vector_norm for the rest).
    if p == "nuc":
        return ops.norm(input, "nuc", dim, keepdim, dtype=dtype)
    return ops.vector_norm(input, 2 if p in ("fro", None) else p, dim, keepdim, dtype=dtype)


def bincount(input, weights=None, minlength=0):
    """The number of occurrences of each non-negative integer (weighted sums with ``weights``).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.bincount(ms.Tensor([0, 1, 1]))
    """
    # mint's BincountExt counts in Int64 where ops.bincount gives Float32 counts
    counts = ops.bincount(input, weights, minlength)
    return counts.astype(mstype.int64) if weights is None else counts
