"""Special and number-theoretic element-wise math of ``mindspore.ops``: ``lcm``, ``ldexp``, ``nextafter``, ``polar``,
``polygamma``, ``zeta``, ``population_count``, ``renorm``, ``vander``, ``vecdot``, ``pdist``, ...

Each op reads its operands with the shared dispatch helpers (MindSpore's dtype promotion and error
types) and computes with ``jax.numpy``/``jax.scipy.special``, so they differentiate and compile.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.lcm(Tensor(np.array([4, 6])), Tensor(np.array([6, 8]))).asnumpy().tolist()
    [12, 24]
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, binary_operands, describe, float_array_of, wrap
from sporax.ops.functional._args import axis_index
from sporax.ops.functional.comparison import integral_only
from sporax.ops.op_table import BINARY, FLOAT, function_op
from sporax.ops.samples import binary, unary
from sporax.ops.functional.arithmetic import pow as power

# Int32 operands (zeros and negatives among them) for the integer-only ops.
INTEGER_PAIRS = binary(-12.0, 12.0, scalar=4, integer=True)


def _integer(op_name, arg_name, value):
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind not in "iu":
        raise TypeError(f"For '{op_name}', '{arg_name}' must be an integer Tensor, but got {array.dtype}.")
    return array


def floating(op_name, arg_name, value):
    """The jax array of float Tensor argument ``arg_name``; a TypeError naming the op otherwise."""
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind not in "fV":
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a float Tensor, but got {array.dtype}.")
    return array


lcm = function_op("lcm", integral_only("lcm", jnp.lcm),
                  "The element-wise least common multiple of two integer Tensors (``lcm(0, x) == 0``).",
                  module=__name__, inputs=("input", "other"), dtypes=BINARY, primitive="Lcm", method="lcm",
                  samples=INTEGER_PAIRS, reference=np.lcm, grad_check=False)


def ldexp(x, other):
    """``x * 2**other`` element-wise (``other`` is usually an integer Tensor)."""
    mantissa = float_array_of("ldexp", "x", x)
    exponent = other._value if isinstance(other, Tensor) else jnp.asarray(other)
    try:
        return wrap(mantissa * jnp.exp2(exponent.astype(mantissa.dtype)))
    except (TypeError, ValueError) as error:
        raise ValueError(f"For 'ldexp', 'x' {mantissa.shape} and 'other' {exponent.shape} must broadcast. "
                         f"Details: {error}") from None


def _same_float_dtype(op_name, first, second):
    """The arrays of two ``(name, value)`` float Tensor arguments that must share one dtype."""
    (first_name, first_value), (second_name, second_value) = first, second
    a, b = floating(op_name, first_name, first_value), floating(op_name, second_name, second_value)
    if a.dtype != b.dtype:
        raise TypeError(f"For '{op_name}', '{first_name}' and '{second_name}' must have the same dtype, but got "
                        f"{a.dtype} and {b.dtype}.")
    return a, b


def nextafter(input, other):
    """The next representable float after ``input`` in the direction of ``other``."""
    a, b = _same_float_dtype("nextafter", ("input", input), ("other", other))
    return wrap(jnp.nextafter(a, b))


def polar(abs, angle):
    """The complex Tensor ``abs * (cos(angle) + i sin(angle))`` (Float32 -> Complex64)."""
    magnitude, phase = _same_float_dtype("polar", ("abs", abs), ("angle", angle))
    return wrap(jax.lax.complex(magnitude * jnp.cos(phase), magnitude * jnp.sin(phase)))


def polygamma(n, input):
    """The ``n``-th derivative of the digamma function at ``input`` (``n`` an int or 0-d integer Tensor)."""
    x = float_array_of("polygamma", "input", input)
    if isinstance(n, Tensor):
        order = _integer("polygamma", "n", n)
    elif isinstance(n, numbers.Integral) and not isinstance(n, bool):
        order = jnp.asarray(n)
    else:
        raise TypeError(f"For 'polygamma', 'n' must be an int or an integer Tensor, but got {describe(n)}.")
    if not isinstance(order, jax.core.Tracer) and bool(jnp.any(order < 0)):
        raise ValueError(f"For 'polygamma', 'n' must be non-negative, but got {np.asarray(order)}.")
    return wrap(jax.scipy.special.polygamma(order.astype(jnp.int32), x).astype(x.dtype))


def zeta(input, other):
    """The Hurwitz zeta function ``sum_k (other + k) ** -input``."""
    x, q = binary_operands("zeta", input, other)
    x = jnp.asarray(x)
    if x.dtype.kind not in "fV":
        x = x.astype(jnp.float32)
    return wrap(jax.scipy.special.zeta(x, jnp.asarray(q, x.dtype)))


def population_count(input_x):
    """The number of set bits of each element of an integer Tensor, as UInt8."""
    array = _integer("population_count", "input_x", input_x)
    unsigned = jax.lax.bitcast_convert_type(array, jnp.dtype(f"uint{array.dtype.itemsize * 8}"))
    return wrap(jax.lax.population_count(unsigned).astype(jnp.uint8))


def pows(input, exponent):
    """``input ** exponent`` (MindSpore's name of ``pow`` for a Tensor and a scalar)."""
    return power(input, exponent)


def real(input):
    """The real part of a Tensor (a real Tensor is returned as it is)."""
    return wrap(jnp.real(array_of("real", "input", input)))


def renorm(input, p, axis, maxnorm):
    """Rescale each slice along ``axis`` whose ``p``-norm exceeds ``maxnorm`` to norm ``maxnorm``."""
    x = floating("renorm", "input", input)
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p <= 0:
        raise ValueError(f"For 'renorm', 'p' must be a positive number, but got {p!r}.")
    if not isinstance(maxnorm, (int, float)) or maxnorm < 0:
        raise ValueError(f"For 'renorm', 'maxnorm' must be a non-negative float, but got {maxnorm!r}.")
    axis = axis_index("renorm", "axis", axis, x.ndim)
    others = tuple(i for i in range(x.ndim) if i != axis)
    norm = jnp.sum(jnp.abs(x) ** p, axis=others, keepdims=True) ** (1.0 / p)
    scale = jnp.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return wrap((x * scale).astype(x.dtype))


def vander(x, N=None):
    """The Vandermonde matrix of a 1-D Tensor: columns ``x**(N-1), ..., x, 1``."""
    array = array_of("vander", "x", x)
    if array.ndim != 1:
        raise ValueError(f"For 'vander', 'x' must be 1-D, but got shape {tuple(array.shape)}.")
    columns = array.shape[0] if N is None else N
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 0:
        raise ValueError(f"For 'vander', 'N' must be a non-negative int, but got {N!r}.")
    return wrap(jnp.vander(array, columns))


def vecdot(x, y, *, axis=-1):
    """The dot product of ``x`` and ``y`` along ``axis`` (``x`` conjugated), broadcasting the rest."""
    a = array_of("vecdot", "x", x)
    b = array_of("vecdot", "y", y)
    try:
        shape = jnp.broadcast_shapes(a.shape, b.shape)
    except ValueError as error:
        raise ValueError(f"For 'vecdot', 'x' {tuple(a.shape)} and 'y' {tuple(b.shape)} must broadcast. "
                         f"Details: {error}") from None
    axis = axis_index("vecdot", "axis", axis, len(shape))
    return wrap(jnp.sum(jnp.conj(a) * b, axis=axis))


def pdist(input, p=2.0):
    """The ``p``-norm distances between the rows of a (..., N, M) Tensor: (..., N*(N-1)/2), row pairs i<j."""
    x = floating("pdist", "input", input)
    if x.ndim < 2:
        raise ValueError(f"For 'pdist', 'input' must be at least 2-D, but got shape {tuple(x.shape)}.")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
        raise ValueError(f"For 'pdist', 'p' must be a non-negative float, but got {p!r}.")
    rows, columns = np.triu_indices(x.shape[-2], 1)
    difference = jnp.abs(x[..., rows, :] - x[..., columns, :])
    if p == 0:
        return wrap(jnp.sum((difference != 0).astype(x.dtype), -1))
    if p == float("inf"):
        return wrap(jnp.max(difference, -1))
    if p == 2:
        # sqrt with a zero-safe gradient (identical rows).
        squared = jnp.sum(difference * difference, -1)
        safe = jnp.where(squared > 0, squared, 1.0)
        return wrap(jnp.where(squared > 0, jnp.sqrt(safe), 0.0).astype(x.dtype))
    return wrap(jnp.sum(difference ** p, -1) ** (1.0 / p))


mul_no_nan = function_op("mul_no_nan", lambda x, y: jnp.where(y == 0, 0, x * y),
                         "``x * y``, with 0 wherever ``y`` is 0 (even when ``x`` is inf or NaN).", module=__name__,
                         inputs=("x", "y"), dtypes=BINARY, primitive="MulNoNan", samples=binary(),
                         reference=lambda x, y: np.where(np.asarray(y) == 0, 0, np.multiply(x, y)))
rint = function_op("rint", jnp.rint, "Round to the nearest integer, halves to even.", module=__name__, dtypes=FLOAT,
                   primitive="Rint", samples=unary(), reference=np.rint, grad_check=False)
