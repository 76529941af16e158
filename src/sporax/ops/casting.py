"""MindSpore's conversion of floating-point values to integers, the one cast kernel of ``ops.cast``, ``Cast``,
``Tensor.astype`` and ``Tensor.type_as``.

XLA saturates such a conversion (-2.8 -> 0 for UInt8, NaN -> 0); MindSpore's CPU kernel is a C cast on x86-64, which
truncates toward zero through a 32-bit integer (Int8, Int16, UInt8, UInt16, Int32) or a 64-bit one (UInt32, Int64,
UInt64) and keeps the low bits: -2.8 -> 254 for UInt8, 300.7 -> 44. A value outside that integer's range, NaN or an
infinity gives the processor's "integer indefinite", the most negative integer, whose low bits are 0 for the narrow
types (1e30 -> 0 for UInt8, INT32_MIN for Int32). UInt64 takes values from 2**63 up through a shifted
conversion, as C compilers do. Float16 and BFloat16 are widened to Float32 first.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, uint8
    >>> Tensor(np.array([-2.8, 300.7], np.float32)).astype(uint8).asnumpy().tolist()
    [254, 44]
"""
import jax.numpy as jnp
import numpy as np

_THROUGH_32_BITS = frozenset(np.dtype(name) for name in ("int8", "int16", "uint8", "uint16", "int32"))


def _truncate(values, integer):
    """``values`` truncated toward zero into ``integer``; out of its range (or NaN) its most negative value."""
    info = np.iinfo(integer)
    inside = (values >= float(info.min)) & (values < -float(info.min))
    return jnp.where(inside, jnp.where(inside, values, 0).astype(integer), jnp.asarray(info.min, integer))


def convert(array, dtype):
    """``array`` (a jax array) as NumPy ``dtype``; floating values to integers as MindSpore's CPU kernel converts
    them (see the module's text), any other pair as XLA does."""
    target = np.dtype(dtype)
    if target.kind not in "iu" or not jnp.issubdtype(array.dtype, jnp.floating):
        return array.astype(target)
    values = array.astype(np.float32) if array.dtype.itemsize < 4 else array
    if target in _THROUGH_32_BITS:
        return _truncate(values, np.int32).astype(target)
    if target != np.uint64:
        return _truncate(values, np.int64).astype(target)
    high = jnp.asarray(2.0 ** 63, values.dtype)
    below = _truncate(values, np.int64).astype(np.uint64)
    above = _truncate(values - high, np.int64).astype(np.uint64) ^ np.uint64(2 ** 63)
    return jnp.where(values >= high, above, below)  # NaN takes the lower branch, as compiled C does
