"""``mindspore.mint.linalg``: inverse, vector and matrix norms, QR; onto ``sporax.ops``."""
import jax.numpy as jnp

from sporax import ops
from sporax.mint import reduction
from sporax.mint.products import inverse
from sporax.numpy.dispatch import numpy_function

__all__ = ["inv", "vector_norm", "matrix_norm", "norm", "qr"]

inv = inverse


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """The vector ``ord``-norm over ``dim`` (all elements when None).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.linalg.vector_norm(ms.Tensor([3.0, 4.0]))
    """
    return reduction.norm(x, ord, dim, keepdim, dtype=dtype)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """The matrix norm ('fro', 'nuc', 1, -1, 2, -2, inf, -inf) over the two dimensions ``dim``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.linalg.matrix_norm(ms.Tensor(np.eye(2, dtype=np.float32)))
    """
    return ops.norm(A, ord, dim, keepdim, dtype=dtype)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """The 2-norm of a vector, the Frobenius norm of a matrix, or the ``ord`` norm over ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.linalg.norm(ms.Tensor([3.0, 4.0]))
    """
    return ops.norm(A, ord, dim, keepdim, dtype=dtype)


qr = numpy_function("qr", "(A, mode='reduced')", lambda A, mode: tuple(jnp.linalg.qr(A, mode)), "A",
                    module="mindspore.mint.linalg",
                    doc="The QR decomposition (Q, R) of a matrix.\n\nExample:\n"
                        "    >>> import numpy as np, sporax as ms\n"
                        "    >>> q, r = ms.mint.linalg.qr(ms.Tensor(np.eye(2, dtype=np.float32)))")
