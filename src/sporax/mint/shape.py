"""``mindspore.mint`` joins, splits, reorderings and indexing with PyTorch's ``dim`` arguments:
adapters onto ``sporax.ops``."""
import jax.numpy as jnp

import sporax.numpy as mnp
from sporax import ops
from sporax.numpy.dispatch import numpy_function

__all__ = ["select", "scatter_add", "diag", "index_add"]


def select(input, dim, index):
    """The slice of ``input`` at ``index`` along ``dim`` (that dimension removed).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.select(ms.Tensor([[1.0, 2.0]]), 1, 0)
    """
    return ops.squeeze(ops.narrow(input, dim, index % input.shape[dim], 1), dim)


def scatter_add(input, dim, index, src):
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.scatter_add(ms.Tensor([[1.0, 2.0]]), 1, ms.Tensor([[1]]), ms.Tensor([[5.0]]))
    """
    shape = tuple(index.shape)
    if tuple(src.shape) != shape:
        src = src[tuple(slice(0, size) for size in shape)]
    return ops.tensor_scatter_elements(input, index, src, dim, "add")


def diag(input, diagonal=0):
    """A diagonal matrix from a vector, or the ``diagonal``-th diagonal of a matrix.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.diag(ms.Tensor([1.0, 2.0]))
    """
    return mnp.diag(input, diagonal)


def _index_add(input, dim, index, source, alpha):
    moved = jnp.moveaxis(input, dim, 0)
    added = moved.at[index].add(alpha * jnp.moveaxis(source, dim, 0).astype(input.dtype))
    return jnp.moveaxis(added, 0, dim)


index_add = numpy_function("index_add", "(input, dim, index, source, *, alpha=1)", _index_add,
                           "input index source",
                           doc="A copy of ``input`` with ``alpha * source`` added at ``index`` along ``dim``.\n\n"
                               "Example:\n    >>> import sporax as ms\n    >>> _ = ms.mint.index_add("
                               "ms.Tensor([[1.0, 2.0]]), 1, ms.Tensor([0]), ms.Tensor([[3.0]]))",
                               module="mindspore.mint")

