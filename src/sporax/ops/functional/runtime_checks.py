"""Value checks that MindSpore's kernels make when they run (indices in range, positive-definite matrices).

Contract: ``refuse_when_known(refuse, *values)`` calls ``refuse`` (a host function that raises MindSpore's
error) on the values: at once when they are concrete (PyNative), and when the compiled program runs when they
are traced (a host callback; JAX reports the raised error as a RuntimeError that carries its message), as
MindSpore's kernels refuse in both modes at run time.

Example:
    >>> import numpy as np
    >>> from sporax.ops.functional.runtime_checks import refuse_when_known
    >>> def refuse(value):
    ...     if value < 0:
    ...         raise RuntimeError("negative")
    >>> refuse_when_known(refuse, np.float32(1.0))
"""
import jax
import numpy as np


def refuse_when_known(refuse, *values):
    """``refuse(*values)`` on the host: now for concrete values, when the compiled program runs for traced ones."""
    if any(isinstance(value, jax.core.Tracer) for value in values):
        jax.debug.callback(refuse, *values)
    else:
        refuse(*values)


# Eigen's ``isApprox`` precision, with which MindSpore's CPU Cholesky kernel tests symmetry (Float16 input is
# tested as Float32: measured on MindSpore 2.10, an asymmetry of 1e-4 in a Float16 matrix is refused).
_SYMMETRY_PRECISION = {np.dtype(np.float64): 1e-12}
_NOT_POSITIVE_DEFINITE = "Cholesky expects symmetric positive definite matrices as inputs."


def _refuse_not_positive_definite(matrices):
    matrices = np.asarray(matrices)
    precision = _SYMMETRY_PRECISION.get(matrices.dtype, 1e-5)
    wide = matrices.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf: NaN, refused below
        asymmetry = np.sum(np.square(wide - np.swapaxes(wide, -1, -2)), axis=(-2, -1))
        # NaN fails the comparison, so a matrix with a NaN is refused, as Eigen's test refuses it
        symmetric = np.all(asymmetry <= precision ** 2 * np.sum(np.square(wide), axis=(-2, -1)))
    if not symmetric:
        raise RuntimeError(_NOT_POSITIVE_DEFINITE)
    try:  # in the input's own precision (Float16 as Float32), as the kernel factors it
        factor = np.linalg.cholesky(matrices.astype(np.promote_types(matrices.dtype, np.float32)))
    except np.linalg.LinAlgError:
        raise RuntimeError(_NOT_POSITIVE_DEFINITE) from None
    if not np.all(np.isfinite(factor)):
        raise RuntimeError(_NOT_POSITIVE_DEFINITE)


def check_positive_definite(matrices):
    """Refuse, as MindSpore's CPU kernel does (RuntimeError), a batch of matrices with one not symmetric (to
    Eigen's precision) or not positive definite."""
    if matrices.size:
        refuse_when_known(_refuse_not_positive_definite, matrices)
