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

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of
from sporax.ops.functional._args import axis_index
from sporax.ops.functional.comparison import integral_only
from sporax.ops.functional.linalg import _promoted, operands
from sporax.ops.op_table import ANY, BINARY, BINARY_TO_FLOAT, FLOAT, INEXACT, TO_FLOAT, Sample, function_op, op
from sporax.ops.face_inputs import primitive_accepting
from sporax.ops.samples import binary, unary, values as _sample_values, with_settings, without
from sporax.ops.functional.arithmetic import accepting_common_dtype, one_dtype, pow as power

# Int32 operands (zeros and negatives among them) for the integer-only ops.
INTEGER_PAIRS = binary(-12.0, 12.0, scalar=4, integer=True)


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


def _ldexp_samples(dtype):
    """Float mantissas beside Int32 exponents: of one shape, broadcast, and a Python int."""
    mantissa = [_sample_values(shape, dtype, seed=seed) for seed, shape in enumerate(((3, 4), (2, 3)))]
    exponents = np.random.default_rng(7).integers(-3, 4, (3, 4)).astype(np.int32)
    return [Sample((mantissa[0], exponents)), Sample((mantissa[1], exponents[0, :3])), Sample((mantissa[0], 2))]


@op(inputs=("x", "other"), dtypes=TO_FLOAT, input_dtypes={"other": ANY}, scalars="other", method="ldexp",
    samples=_ldexp_samples, reference=lambda x, other: x * 2.0 ** np.asarray(other, np.float64))
def ldexp(x, other):
    """``x * 2**other`` element-wise (``other`` is usually an integer Tensor; integer ``x`` computes in Float32).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.ldexp(Tensor(np.array([1.0, 3.0], np.float32)), Tensor(np.array([2, -1], np.int32))).asnumpy().tolist()
        [4.0, 1.5]
    """
    if x.dtype.kind in "fV" and x.dtype.itemsize < 4:  # MindSpore's Ldexp answers Float32 for half precision
        x = x.astype(np.float32)
    try:
        return x * jnp.exp2(jnp.asarray(other).astype(x.dtype))
    except (TypeError, ValueError) as error:
        raise ValueError(f"For 'ldexp', 'x' {x.shape} and 'other' {jnp.shape(other)} must broadcast. "
                         f"Details: {error}") from None


def _same_dtype(op_name, first_name, first, second_name, second):
    if first.dtype != second.dtype:
        raise TypeError(f"For '{op_name}', '{first_name}' and '{second_name}' must have the same dtype, but got "
                        f"{first.dtype} and {second.dtype}.")


# MindSpore 2.10's NextAfter takes Float32/Float64 alone
@op(inputs=("input", "other"), dtypes=FLOAT, primitive="NextAfter", method="nextafter",
    input_dtypes={"input": primitive_accepting("NextAfter", "x1", ("Float32", "Float64")),
                  "other": primitive_accepting("NextAfter", "x2", ("Float32", "Float64"))},
    samples=without(("float16", "bfloat16"), operands(((3, 4), (3, 4)), ((5,), ()))), reference=np.nextafter,
    grad_check=False)
def nextafter(input, other):
    """The next representable float after ``input`` in the direction of ``other``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.nextafter(Tensor(np.array([1.0], np.float32)), Tensor(np.array([2.0], np.float32))).asnumpy().item() > 1
        True
    """
    _same_dtype("nextafter", "input", input, "other", other)
    return _next_after(input, other)


@jax.custom_jvp
def _next_after(input, other):
    return jnp.nextafter(input, other)


# MindSpore's NextAfter gradient: the result moves with ``input`` (its tangent passes through), not with
# ``other`` (JAX has no rule and raises).
_next_after.defjvps(lambda tangent, result, input, other: jnp.broadcast_to(tangent, result.shape),
                    lambda tangent, result, input, other: jnp.zeros_like(result))


def _check_polar(abs, angle):
    # MindSpore's Polar takes Float32 or Float64, both inputs of one dtype
    _same_dtype("polar", "abs", abs, "angle", angle)
    if abs.dtype.itemsize < 4:
        raise TypeError(f"For 'polar', 'abs' must be a Float32 or Float64 Tensor, but got {abs.dtype}.")


def _polar_samples(dtype):
    if dtype not in ("float32", "float64"):
        return []  # MindSpore's Polar has no Float16 kernel
    return [Sample((_sample_values((3, 4), dtype, 0.0, 4.0, seed=0), _sample_values((3, 4), dtype, seed=1))),
            Sample((_sample_values((5,), dtype, 0.0, 4.0, seed=2), _sample_values((), dtype, seed=3)))]


@op(inputs=("abs", "angle"), dtypes=FLOAT, primitive="Polar", mint="polar", value_check=_check_polar,
    samples=_polar_samples, reference=lambda abs, angle: abs * np.exp(1j * angle), grad_check=False)
def polar(abs, angle):
    """The complex Tensor ``abs * (cos(angle) + i sin(angle))`` (Float32 -> Complex64, Float64 -> Complex128).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.polar(Tensor(np.array([2.0], np.float32)), Tensor(np.array([0.0], np.float32))).asnumpy().tolist()
        [(2+0j)]
    """
    return jax.lax.complex(abs * jnp.cos(angle), abs * jnp.sin(angle))


def _check_polygamma(n, input):
    if not isinstance(n, jax.core.Tracer) and bool(jnp.any(n < 0)):
        raise ValueError(f"For 'polygamma', 'n' must be non-negative, but got {np.asarray(n)}.")


def _polygamma_samples(dtype):
    return [Sample((np.asarray(order, np.int64), _sample_values(shape, dtype, 0.5, 3.0, seed=order)))
            for order, shape in ((0, (3, 4)), (1, (5,)), (2, (2, 3)))]


def _numpy_polygamma(n, input):
    import scipy.special  # a test oracle only (scipy comes with jax)

    return scipy.special.polygamma(n, input)


# MindSpore 2.10's Polygamma takes a Float16/32/64 ``input`` alone (Int, Bool: its TypeError naming argument x)
@op(inputs=("n", "input"), dtypes=FLOAT, indices="n", primitive="Polygamma", value_check=_check_polygamma,
    input_dtypes={"input": primitive_accepting("Polygamma", "x", ("Float16", "Float32", "Float64"))},
    samples=_polygamma_samples, reference=_numpy_polygamma, grad_check=False)
def polygamma(n, input):
    """The ``n``-th derivative of the digamma function at ``input`` (``n`` an int or integer Tensor; integer
    ``input`` computes in Float32).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> round(ops.polygamma(Tensor(np.array(1, np.int64)), Tensor(np.array([1.0], np.float32))).asnumpy().item(), 4)
        1.6449
    """
    # Float16 runs in Float32 (JAX's polygamma series loses its precision otherwise), cast back
    working = input.astype(jnp.float32) if input.dtype.itemsize < 4 else input
    return jax.scipy.special.polygamma(n.astype(jnp.int32), working).astype(input.dtype)


def _numpy_zeta(input, other):
    import scipy.special  # a test oracle only (scipy comes with jax)

    return scipy.special.zeta(input, other)


def _numpy_population_count(input_x):
    unsigned = np.asarray(input_x).astype(np.int64) & 0xFFFFFFFF
    return np.vectorize(lambda value: bin(int(value)).count("1"))(unsigned).astype(np.uint8)


# MindSpore 2.10's Zeta takes a Float32/Float64 common dtype alone (Int, Bool, Float16: its TypeError)
_check_zeta = accepting_common_dtype("Zeta", "q", ("Float32", "Float64"))
_zeta_one_dtype = one_dtype("Zeta", "zeta")  # Float32 beside Float64: its TypeError


@op(inputs=("input", "other"), dtypes=BINARY, primitive="Zeta", value_check=_zeta_one_dtype,
    samples=without(("float16", "bfloat16"), binary(1.5, 4.0, other=(0.5, 3.0), scalar=2.5)), reference=_numpy_zeta,
    grad_check=False)  # JAX differentiates zeta in ``input`` only (tests/ops: the gradient in input)
def zeta(input, other):
    """The Hurwitz zeta function ``sum_k (other + k) ** -input``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> round(ops.zeta(Tensor(np.array([2.0], np.float32)), Tensor(np.array([1.0], np.float32))).asnumpy().item(), 4)
        1.6449
    """
    _check_zeta(input, other)
    return jax.scipy.special.zeta(input, other)


def _integer_samples(dtype):
    if dtype not in ("float32", "float64"):
        return []
    generator = np.random.default_rng(0)
    return [Sample((generator.integers(-40, 40, size=shape).astype(np.int32),)) for shape in ((3, 4), (5,))]


@op(inputs="input_x", dtypes=ANY, primitive="PopulationCount", samples=_integer_samples,
    reference=_numpy_population_count, grad_check=False)
def population_count(input_x):
    """The number of set bits of each element of an integer Tensor, as UInt8.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.population_count(Tensor(np.array([7, 0], np.int16))).asnumpy().tolist()
        [3, 0]
    """
    if input_x.dtype.kind not in "iu":
        raise TypeError(f"For 'population_count', 'input_x' must be an integer Tensor, but got {input_x.dtype}.")
    unsigned = jax.lax.bitcast_convert_type(input_x, jnp.dtype(f"uint{input_x.dtype.itemsize * 8}"))
    return jax.lax.population_count(unsigned).astype(jnp.uint8)


pows = power  # MindSpore's name of ``pow`` for a Tensor and a scalar: an alias of its entry


def _numpy_renorm(input, p, axis, maxnorm):
    x = np.asarray(input)
    others = tuple(i for i in range(x.ndim) if i != axis % x.ndim)
    norm = np.sum(np.abs(x) ** p, axis=others, keepdims=True) ** (1.0 / p)
    return x * np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)


# The samples' maxnorms lie off every norm of quarter-grid values: no slice sits on the kink.
@op(dtypes=INEXACT, primitive="Renorm", primitive_attrs=("p", ("dim", "axis"), "maxnorm"), method="renorm",
    samples=lambda dtype: [Sample(sample.arrays, settings) for sample, settings in zip(
        operands(((3, 4),), ((2, 3, 2),), low=0.25)(dtype), ({"p": 2, "axis": 0, "maxnorm": 1.4},
                                                  {"p": 1, "axis": 1, "maxnorm": 1.9}))],
    reference=_numpy_renorm)
def renorm(input, p, axis, maxnorm):
    """Rescale each slice along ``axis`` whose ``p``-norm exceeds ``maxnorm`` to norm ``maxnorm``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.renorm(Tensor(np.array([[3.0, 4.0]], np.float32)), 2, 0, 1.0).asnumpy().round(4).tolist()
        [[0.6, 0.8]]
    """
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p <= 0:
        raise ValueError(f"For 'renorm', 'p' must be a positive number, but got {p!r}.")
    if not isinstance(maxnorm, (int, float)) or maxnorm < 0:
        raise ValueError(f"For 'renorm', 'maxnorm' must be a non-negative float, but got {maxnorm!r}.")
    axis = axis_index("renorm", "axis", axis, input.ndim)
    others = tuple(i for i in range(input.ndim) if i != axis)
    norm = jnp.sum(jnp.abs(input) ** p, axis=others, keepdims=True) ** (1.0 / p)
    scale = jnp.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return (input * scale).astype(input.dtype)


@op(inputs="x", dtypes=ANY, samples=with_settings(operands(((4,),), ((1,),)), {"N": 3}, {"N": 0}),
    reference=lambda x, N=None: np.vander(x, N))
def vander(x, N=None):
    """The Vandermonde matrix of a 1-D Tensor: columns ``x**(N-1), ..., x, 1`` (integers and Bool in Int64, as
    MindSpore's).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.vander(Tensor(np.array([2, 3])), N=3).asnumpy().tolist()
        [[4, 2, 1], [9, 3, 1]]
    """
    if x.ndim != 1:
        raise ValueError(f"For 'vander', 'x' must be 1-D, but got shape {tuple(x.shape)}.")
    columns = x.shape[0] if N is None else N
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 0:
        raise ValueError(f"For 'vander', 'N' must be a non-negative int, but got {N!r}.")
    return jnp.vander(x.astype(np.int64) if x.dtype.kind in "biu" else x, columns)


@op(inputs=("x", "y"), dtypes=ANY,
    samples=with_settings(operands(((3, 4), (3, 4)), ((2, 3), (3,))), {"axis": 0}),
    reference=lambda x, y, axis=-1: np.sum(np.conj(x) * y, axis=axis))
def vecdot(x, y, *, axis=-1):
    """The dot product of ``x`` and ``y`` along ``axis`` (``x`` conjugated), broadcasting the rest.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.vecdot(Tensor(np.array([[1.0, 2.0]], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))).asnumpy().tolist()
        [11.0]
    """
    try:
        shape = jnp.broadcast_shapes(x.shape, y.shape)
    except ValueError as error:
        raise ValueError(f"For 'vecdot', 'x' {tuple(x.shape)} and 'y' {tuple(y.shape)} must broadcast. "
                         f"Details: {error}") from None
    axis = axis_index("vecdot", "axis", axis, len(shape))
    a, b = _promoted(x, y)
    return jnp.sum(jnp.conj(a) * b, axis=axis)


def _numpy_pdist(input, p=2.0):
    x = np.asarray(input)
    rows, columns = np.triu_indices(x.shape[-2], 1)
    difference = np.abs(x[..., rows, :] - x[..., columns, :])
    if p == 0:
        return np.sum(difference != 0, -1).astype(np.float64)
    if p == float("inf"):
        return np.max(difference, -1)
    return np.sum(difference ** p, -1) ** (1.0 / p)


@op(dtypes=FLOAT, primitive="Pdist", primitive_attrs=("p",),
    samples=with_settings(operands(((4, 3),), ((2, 3, 2),)), {"p": 1.0}, {"p": float("inf")}, {"p": 3.0}),
    reference=_numpy_pdist)
def pdist(input, p=2.0):
    """The ``p``-norm distances between the rows of a (..., N, M) Tensor: (..., N*(N-1)/2), row pairs i<j.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.pdist(Tensor(np.array([[0.0, 0.0], [3.0, 4.0]], np.float32))).asnumpy().tolist()
        [5.0]
    """
    if input.ndim < 2:
        raise ValueError(f"For 'pdist', 'input' must be at least 2-D, but got shape {tuple(input.shape)}.")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
        raise ValueError(f"For 'pdist', 'p' must be a non-negative float, but got {p!r}.")
    rows, columns = np.triu_indices(input.shape[-2], 1)
    difference = jnp.abs(input[..., rows, :] - input[..., columns, :])
    if p == 0:
        return jnp.sum((difference != 0).astype(input.dtype), -1)
    if p == float("inf"):
        return jnp.max(difference, -1)
    if p == 2:
        # sqrt with a zero-safe gradient (identical rows).
        squared = jnp.sum(difference * difference, -1)
        safe = jnp.where(squared > 0, squared, 1.0)
        return jnp.where(squared > 0, jnp.sqrt(safe), 0.0).astype(input.dtype)
    return jnp.sum(difference ** p, -1) ** (1.0 / p)


mul_no_nan = function_op("mul_no_nan", lambda x, y: jnp.where(y == 0, 0, x * y),
                         "``x * y``, with 0 wherever ``y`` is 0 (even when ``x`` is inf or NaN).", module=__name__,
                         inputs=("x", "y"), dtypes=BINARY, primitive="MulNoNan", samples=binary(),
                         reference=lambda x, y: np.where(np.asarray(y) == 0, 0, np.multiply(x, y)))
rint = function_op("rint", jnp.rint, "Round to the nearest integer, halves to even.", module=__name__, dtypes=FLOAT,
                   primitive="Rint", samples=unary(), reference=np.rint, grad_check=False)
