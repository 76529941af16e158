"""``mindspore.mint`` matrix products and solvers: adapters onto ``sporax.ops`` and ``sporax.numpy``."""
import jax
import jax.numpy as jnp

from sporax import ops
from sporax.numpy.dispatch import numpy_function

__all__ = ["bmm", "mv", "addbmm", "addmv", "addr_", "baddbmm", "inverse", "triangular_solve", "vdot", "cdist",
           "conv_tbc"]


def bmm(input, mat2):
    """Batched matrix product.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.bmm(ms.Tensor(np.ones((2, 1, 3), np.float32)), ms.Tensor(np.ones((2, 3, 1), np.float32)))
    """
    return ops.bmm(input, mat2)


def mv(input, vec):
    """Matrix-vector product.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.mv(ms.Tensor(np.eye(2, dtype=np.float32)), ms.Tensor([1.0, 2.0]))
    """
    return ops.mv(input, vec)


def _combine(input, product, beta, alpha):
    if beta == 0:
        return ops.mul(product, alpha)
    return ops.add(ops.mul(input, beta), ops.mul(product, alpha))


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b batch1[b] @ batch2[b]``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> ones = ms.Tensor(np.ones((2, 2, 2), np.float32))
        >>> _ = ms.mint.addbmm(ms.Tensor(np.ones((2, 2), np.float32)), ones, ones)
    """
    return _combine(input, ops.sum(ops.bmm(batch1, batch2), 0), beta, alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * batch1 @ batch2`` per batch.

    Example:
        >>> import numpy as np, sporax as ms
        >>> ones = ms.Tensor(np.ones((2, 2, 2), np.float32))
        >>> _ = ms.mint.baddbmm(ones, ones, ones)
    """
    return _combine(input, ops.bmm(batch1, batch2), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * mat @ vec``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.addmv(ms.Tensor([1.0, 1.0]), ms.Tensor(np.eye(2, dtype=np.float32)), ms.Tensor([1.0, 2.0]))
    """
    return _combine(input, ops.mv(mat, vec), beta, alpha)


def addr_(input, vec1, vec2, beta=1, alpha=1):
    """``beta * input + alpha * outer(vec1, vec2)``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.addr_(ms.Tensor(np.zeros((2, 2), np.float32)), ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 0.0]))
    """
    return _combine(input, ops.outer(vec1, vec2), beta, alpha)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Pairwise ``p``-norm distances between the rows of ``x1`` and ``x2``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.cdist(ms.Tensor([[0.0, 0.0]]), ms.Tensor([[3.0, 4.0]]))
    """
    return ops.cdist(x1, x2, p)


def _triangular_solve(b, A, upper, transpose, unitriangular):
    solution = jax.scipy.linalg.solve_triangular(A, b, trans=1 if transpose else 0, lower=not upper,
                                                 unit_diagonal=unitriangular)
    return solution, A


inverse = numpy_function("inverse", "(input)", lambda input: jnp.linalg.inv(input), "input",
                         doc="The inverse of a square matrix (or a batch of them).\n\nExample:\n"
                             "    >>> import numpy as np, sporax as ms\n"
                             "    >>> _ = ms.mint.inverse(ms.Tensor(np.eye(2, dtype=np.float32)))",
                             module="mindspore.mint")
triangular_solve = numpy_function(
    "triangular_solve", "(b, A, upper=True, transpose=False, unitriangular=False)", _triangular_solve, "b A",
    doc="Solve ``A x = b`` for a triangular ``A``: returns (x, A).\n\nExample:\n"
        "    >>> import numpy as np, sporax as ms\n    >>> eye = ms.Tensor(np.eye(2, dtype=np.float32))\n"
        "    >>> solution, _ = ms.mint.triangular_solve(eye, eye)", module="mindspore.mint")
vdot = numpy_function("vdot", "(input, other)", lambda input, other: jnp.vdot(input, other), "input other",
                      doc="The dot product of two 1-D tensors (the first conjugated).\n\nExample:\n"
                          "    >>> import sporax as ms\n    >>> _ = ms.mint.vdot(ms.Tensor([1.0]), ms.Tensor([2.0]))",
                          module="mindspore.mint")


def conv_tbc(input, weight, bias, pad=0):
    """1-D convolution of a (time, batch, channels) input with a (kernel, in, out) weight.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.conv_tbc(ms.Tensor(np.ones((5, 1, 2), np.float32)), ms.Tensor(np.ones((3, 2, 4), np.float32)),
        ...                      ms.Tensor(np.zeros(4, np.float32)), 1)
    """
    output = ops.conv1d(ops.permute(input, (1, 2, 0)), ops.permute(weight, (2, 1, 0)), bias, 1, "pad", pad)
    return ops.permute(output, (2, 0, 1))
