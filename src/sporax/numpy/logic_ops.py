"""Comparisons and set logic of ``mindspore.numpy``: closeness, equality, membership, sorted search."""
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.numpy.dispatch import table


def _isscalar(element):
    return isinstance(element, (bool, int, float, complex, str, bytes, np.generic))


_ROWS = [
    ("isclose", "(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)",
     lambda a, b, rtol, atol, equal_nan: jnp.isclose(a, b, rtol, atol, equal_nan), "a b"),
    ("array_equal", "(a1, a2, equal_nan=False)",
     lambda a1, a2, equal_nan: jnp.array_equal(a1, a2, equal_nan), "a1 a2"),
    ("array_equiv", "(a1, a2)", lambda a1, a2: jnp.array_equiv(a1, a2), "a1 a2"),
    ("isin", "(element, test_elements, invert=False)",
     lambda element, test_elements, invert: jnp.isin(element, test_elements, invert=invert),
     "element test_elements"),
    ("in1d", "(ar1, ar2, invert=False)",
     lambda ar1, ar2, invert: jnp.isin(ar1.ravel(), ar2, invert=invert), "ar1 ar2"),
    ("intersect1d", "(ar1, ar2, assume_unique=False, return_indices=False)",
     lambda ar1, ar2, assume_unique, return_indices: jnp.intersect1d(ar1, ar2, assume_unique, return_indices),
     "ar1 ar2"),
    ("setdiff1d", "(ar1, ar2, assume_unique=False)",
     lambda ar1, ar2, assume_unique: jnp.setdiff1d(ar1, ar2, assume_unique), "ar1 ar2"),
    ("searchsorted", "(a, v, side='left', sorter=None)",
     lambda a, v, side, sorter: jnp.searchsorted(a if sorter is None else a[sorter], v, side).astype(np.int32),
     "a v sorter"),
]

__all__ = table(_ROWS, globals()) + ["isscalar"]


def isscalar(element):
    """True when ``element`` is a Python or NumPy scalar (a Tensor is not).

    Example:
        >>> import sporax.numpy as mnp
        >>> mnp.isscalar(1.0)
        True
    """
    return not isinstance(element, Tensor) and _isscalar(element)
