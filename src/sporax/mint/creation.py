"""``mindspore.mint`` creation and set functions with PyTorch's signatures, onto ``sporax.ops`` and
``sporax.numpy``."""
import jax.numpy as jnp

from sporax import ops
from sporax.core import dtype as mstype
from sporax.numpy.dispatch import exact, numpy_function

__all__ = ["linspace", "unique"]


def linspace(start, end, steps, *, dtype=None):
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.linspace(0, 1, 5)
    """
    result = ops.linspace(float(start), float(end), steps)
    return result if dtype is None else result.astype(dtype)


def _unique(input, sorted, return_inverse, return_counts, dim):
    values, inverse, counts = jnp.unique(input, return_inverse=True, return_counts=True, axis=dim)
    result = [values]
    if return_inverse:
        result.append(exact(inverse.reshape(input.shape if dim is None else (-1,)).astype(jnp.int64)))
    if return_counts:
        result.append(exact(counts.astype(jnp.int64)))
    return result[0] if len(result) == 1 else tuple(result)


unique = numpy_function(
    "unique", "(input, sorted=True, return_inverse=False, return_counts=False, dim=None)", _unique, "input",
    module="mindspore.mint",
    doc="The sorted unique elements (with Int64 inverse indices and counts when asked).\n\nExample:\n"
        "    >>> import sporax as ms\n    >>> _ = ms.mint.unique(ms.Tensor([3, 1, 3]))")
