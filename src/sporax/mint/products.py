"""``mindspore.mint`` matrix products and solvers that are no op-table face yet: ``triangular_solve`` and ``vdot``
(``sporax.numpy`` rows) and ``conv_tbc`` (``conv1d`` on a time-major layout)."""
import jax
import jax.numpy as jnp

from sporax import ops
from sporax.numpy.dispatch import numpy_function

__all__ = ["triangular_solve", "vdot", "conv_tbc"]


def _triangular_solve(b, A, upper, transpose, unitriangular):
    solution = jax.scipy.linalg.solve_triangular(A, b, trans=1 if transpose else 0, lower=not upper,
                                                 unit_diagonal=unitriangular)
    return solution, A


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
