"""Finite differences and integration: ``ops.diff``, ``ops.trapz`` (op-table entries).

Example:
    >>> from sporax import Tensor, ops
    >>> ops.diff(Tensor([1, 4, 9, 16]))
    Tensor(shape=[3], dtype=Int64, value= [3, 5, 7])
"""
import jax.numpy as jnp
import numpy as np

from sporax.ops.functional.linalg import operands
from sporax.ops.op_table import ANY, TO_FLOAT, Sample, op, spelling
from sporax.ops.samples import with_settings


def _numpy_diff(x, prepend=None, append=None, n=1, axis=-1):
    extra = {name: value for name, value in (("prepend", prepend), ("append", append)) if value is not None}
    return np.diff(x, n, axis, **extra)


@op(mint=spelling("diff", "input, n=1, dim=-1, prepend=None, append=None", x="input", axis="dim"),
    inputs=("x", "prepend", "append"), dtypes=ANY, method="diff", samples=with_settings(operands(((3, 4),), ((6,),)), {"n": 2, "axis": 0}), reference=_numpy_diff)
def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th forward difference of ``x`` along ``axis`` (``prepend``/``append`` joined to it first).

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.diff(Tensor([1.0, 4.0, 9.0]), prepend=Tensor([0.0])).asnumpy().tolist()
        [1.0, 3.0, 5.0]
    """
    try:
        return jnp.diff(x, n, axis, prepend, append)
    except (TypeError, ValueError) as error:
        raise ValueError(f"For 'diff', cannot take differences along axis {axis} of shape "
                         f"{tuple(x.shape)}. Details: {error}") from None


def _trapz_samples(dtype):
    values = with_settings(operands(((3, 4),), ((5,),)), {"dx": 0.5, "dim": 0})(dtype)
    points = np.sort(np.random.default_rng(7).uniform(0.0, 3.0, size=4)).astype(values[0].arrays[0].dtype)
    return values + [Sample((values[0].arrays[0], points))]


def _single_unless_half(array, float32, float16):
    """MindSpore's trapz computes in Float32: Float16 stays, any other input is cast (a complex one to its real
    part, as its Cast does)."""
    if array is None or array.dtype == float16:
        return array
    return (array.real if array.dtype.kind == "c" else array).astype(float32)


def _numpy_trapz(y, x=None, dx=1.0, dim=-1):
    y, x = (_single_unless_half(None if a is None else np.asarray(a), np.float32, np.float16) for a in (y, x))
    return np.trapezoid(y, x, dx=dx, axis=dim).astype(np.result_type(y, *(() if x is None else (x,))))


# No finite-difference check: Float64 samples compute in Float32 (MindSpore's rule), too coarse for the differences.
@op(inputs=("y", "x"), dtypes=TO_FLOAT, samples=_trapz_samples, reference=_numpy_trapz, grad_check=False)
def trapz(y, x=None, *, dx=1.0, dim=-1):
    """Integrate ``y`` along ``dim`` by the trapezoidal rule (sample points ``x`` or spacing ``dx``).

    As MindSpore's, it computes in Float32: a Float16 ``y`` (and ``x``) stays Float16, Float64, BFloat16 and
    complex inputs (their real parts) become Float32.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.trapz(Tensor([1.0, 2.0, 3.0])).asnumpy().item()
        4.0
    """
    y, x = (_single_unless_half(array, jnp.float32, jnp.float16) for array in (y, x))
    return jnp.trapezoid(y, x, dx, dim)
