"""``mindspore.mint`` joins, splits, reorderings and indexing with PyTorch's ``dim`` arguments:
adapters onto ``sporax.ops``."""
import jax.numpy as jnp

import sporax.numpy as mnp
from sporax import ops
from sporax.numpy.dispatch import numpy_function

__all__ = ["cat", "concat", "stack", "chunk", "split", "permute", "transpose", "gather", "index_select", "narrow",
           "select", "scatter", "scatter_add", "diag", "diff", "squeeze", "flatten", "index_add",
           "repeat_interleave", "meshgrid"]


def cat(tensors, dim=0):
    """Join ``tensors`` along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.cat((ms.Tensor([1.0]), ms.Tensor([2.0])))
    """
    return ops.cat(tensors, dim)


def concat(tensors, dim=0):
    """Join ``tensors`` along ``dim`` (``cat``).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.concat((ms.Tensor([1.0]), ms.Tensor([2.0])))
    """
    return ops.cat(tensors, dim)


def stack(tensors, dim=0):
    """Stack ``tensors`` along a new dimension ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.stack((ms.Tensor([1.0]), ms.Tensor([2.0])), 1)
    """
    return ops.stack(tensors, dim)


def chunk(input, chunks, dim=0):
    """Split ``input`` into ``chunks`` pieces along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.chunk(ms.Tensor([1.0, 2.0]), 2)
    """
    return ops.chunk(input, chunks, dim)


def split(tensor, split_size_or_sections, dim=0):
    """Split ``tensor`` into pieces of a size, or of the listed sizes, along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.split(ms.Tensor([1.0, 2.0, 3.0]), [1, 2])
    """
    return ops.split(tensor, split_size_or_sections, dim)


def permute(input, dims):
    """Reorder the dimensions of ``input``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.permute(ms.Tensor([[1.0, 2.0]]), (1, 0))
    """
    return ops.permute(input, dims)


def transpose(input, dim0, dim1):
    """Swap dimensions ``dim0`` and ``dim1``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.transpose(ms.Tensor([[1.0, 2.0]]), 0, 1)
    """
    return ops.swapaxes(input, dim0, dim1)


def gather(input, dim, index):
    """``out[i][j] = input[i][index[i][j]]`` for ``dim=1`` (PyTorch's gather).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.gather(ms.Tensor([[1.0, 2.0]]), 1, ms.Tensor([[1, 0]]))
    """
    return ops.gather_elements(input, dim, index)


def index_select(input, dim, index):
    """The slices of ``input`` at ``index`` along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.index_select(ms.Tensor([[1.0, 2.0]]), 1, ms.Tensor([1]))
    """
    return ops.index_select(input, dim, index)


def narrow(input, dim, start, length):
    """``length`` elements of ``input`` from ``start`` along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.narrow(ms.Tensor([1.0, 2.0, 3.0]), 0, 1, 2)
    """
    return ops.narrow(input, dim, start, length)


def select(input, dim, index):
    """The slice of ``input`` at ``index`` along ``dim`` (that dimension removed).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.select(ms.Tensor([[1.0, 2.0]]), 1, 0)
    """
    return ops.squeeze(ops.narrow(input, dim, index % input.shape[dim], 1), dim)


def scatter(input, dim, index, src):
    """A copy of ``input`` with ``src`` (a Tensor or a number) written at ``index`` along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.scatter(ms.Tensor([[1.0, 2.0]]), 1, ms.Tensor([[1]]), ms.Tensor([[5.0]]))
    """
    return ops.scatter(input, dim, index, src)


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


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.diff(ms.Tensor([1.0, 4.0, 9.0]))
    """
    return ops.diff(input, n, dim, prepend, append)


def squeeze(input, dim):
    """``input`` without the size-1 dimension(s) ``dim`` (MindSpore 2.10's mint requires ``dim``).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.squeeze(ms.Tensor([[1.0]]), 0)
    """
    return ops.squeeze(input, dim)


def flatten(input, start_dim=0, end_dim=-1):
    """Merge dimensions ``start_dim`` .. ``end_dim`` into one.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.flatten(ms.Tensor([[1.0, 2.0]]))
    """
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


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


def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    """Repeat each element of ``input`` ``repeats`` times along ``dim`` (flattened when None).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.repeat_interleave(ms.Tensor([1.0, 2.0]), 2)
    """
    return ops.repeat_interleave(input, repeats, dim)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-D tensors (``indexing='ij'`` by default, as PyTorch).

    Example:
        >>> import sporax as ms
        >>> rows, columns = ms.mint.meshgrid(ms.Tensor([1, 2]), ms.Tensor([3, 4, 5]))
    """
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing=indexing or "ij")
