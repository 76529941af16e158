"""``mindspore.mint`` creation and set functions with PyTorch's signatures, onto ``sporax.ops`` and
``sporax.numpy``."""
import jax.numpy as jnp

from sporax import ops
from sporax.core import dtype as mstype
from sporax.numpy.dispatch import exact, numpy_function

__all__ = ["ones", "linspace", "unique", "fix", "addcmul"]


def ones(size, *, dtype=None):
    """A tensor of ones of shape ``size`` (Float32 by default).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.ones((2, 3))
    """
    return ops.ones(size, dtype or mstype.float32)


def linspace(start, end, steps, *, dtype=None):
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.linspace(0, 1, 5)
    """
    result = ops.linspace(float(start), float(end), steps)
    return result if dtype is None else result.astype(dtype)


def fix(input):
    """Round toward zero (``trunc``).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.fix(ms.Tensor([-1.5, 1.5]))
    """
    return ops.trunc(input)


def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.addcmul(ms.Tensor([1.0]), ms.Tensor([2.0]), ms.Tensor([3.0]), value=0.5)
    """
    return ops.addcmul(input, tensor1, tensor2, value)


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
