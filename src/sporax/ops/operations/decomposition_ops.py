"""Primitive classes over matrix decompositions: ``Cholesky``, ``CholeskyInverse``, ``CholeskySolve``, ``Eig``,
``Geqrf``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.Cholesky()(Tensor(np.array([[4.0, 0.0], [0.0, 1.0]], np.float32))))
    [[2. 0.]
     [0. 1.]]
"""
from sporax.ops.functional import decompositions
from sporax.ops.primitive import Primitive, prim_attr_register


def _check_bool(op_name, **flags):
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"For '{op_name}', '{name}' must be a bool, but got {type(value).__name__}.")


class Cholesky(Primitive):
    """The Cholesky factor of symmetric positive-definite matrices.

    Args:
        upper (bool): return the upper factor ``U`` (``A = U^T U``) instead of the lower. Default: False.
    """

    @prim_attr_register
    def __init__(self, upper=False):
        _check_bool("Cholesky", upper=upper)
        self.upper = upper

    def __call__(self, input_x):
        return decompositions.cholesky(input_x, self.upper)


class CholeskyInverse(Cholesky):
    """The inverse of ``A`` from its Cholesky factor ``x`` (upper if ``upper``)."""

    def __call__(self, x):
        return decompositions.cholesky_inverse(x, self.upper)


class CholeskySolve(Cholesky):
    """Solve ``A X = x1`` given the Cholesky factor ``x2`` of ``A`` (upper if ``upper``)."""

    def __call__(self, x1, x2):
        return decompositions.cholesky_solve(x1, x2, self.upper)


class Eig(Primitive):
    """Eigenvalues (and, with ``compute_v``, right eigenvectors) of square matrices, complex.

    Args:
        compute_v (bool): also return the eigenvectors. Default: False.

    Outputs:
        ``(eigenvalues, eigenvectors)``; ``eigenvectors`` is None without ``compute_v``.
    """

    @prim_attr_register
    def __init__(self, compute_v=False):
        _check_bool("Eig", compute_v=compute_v)
        self.compute_v = compute_v

    def __call__(self, x):
        if self.compute_v:
            return decompositions.eig(x)
        return decompositions.eigvals(x), None


class Geqrf(Primitive):
    """The QR decomposition in LAPACK's compact form ``(y, tau)``."""

    def __call__(self, x):
        return decompositions.geqrf(x)
