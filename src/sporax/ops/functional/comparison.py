"""Comparison, logical and bitwise ops, value tests and clamping (``ops.eq``, ``ops.logical_and``, ``ops.clamp`` ...).

Comparisons promote their operands as arithmetic does and return Bool tensors; logical ops read
any dtype as truth values; bitwise ops take Bool and integer operands. Each two-operand op is one
op-table entry (``sporax.ops.op_table``, rule ``BINARY``), its Primitive and Tensor method
generated from it (``isclose``'s tolerances are the settings of its Primitive ``IsClose``). The value tests
(``isnan`` ...), ``logical_not`` and ``invert`` are one-input entries; ``clamp`` (alias ``clip``) promotes its
input and its bounds together (rule ``PROMOTED``); ``clip_by_value`` calls it with bounds cast to ``x``'s dtype.

Example:
    >>> from sporax import Tensor, ops
    >>> ops.gt(Tensor([1, 5]), 2)
    Tensor(shape=[2], dtype=Bool, value= [False,  True])
"""
import jax.numpy as jnp
import numpy as np

from sporax.core.dtype import from_numpy_dtype
from sporax.ops._dispatch import promote_types
from sporax.ops.functional.nan_orders import clamp_between, select_maximum, select_minimum
from sporax.ops.op_table import ANY, BINARY, FLOAT_NUMBER, PROMOTED, Sample, function_op, op
from sporax.ops.op_table import spelling
from sporax.ops.samples import _numpy_dtype as _sample_dtype, binary, mixed_operands, unary, with_settings, without

_BOOL = np.dtype(np.bool_)
_TIES = binary(ties=True)  # comparisons meet equal values too


def _as_bool(value):
    value = jnp.asarray(value)
    return value if value.dtype == _BOOL else value != 0


def _two_operand(name, compute, reference, samples, doc, primitive=None, aliases=()):
    """Declare the op-table entry ``name``: ``compute(input, other)`` on promoted operands, not
    differentiable (a Bool or integer result); its Tensor-method and ``mint`` names are its own."""

    return function_op(name, compute, doc, module=__name__, inputs=("input", "other"), dtypes=BINARY,
                       primitive=primitive, method=name, mint=name, samples=samples, reference=reference,
                       grad_check=False, aliases=aliases)


def _comparison(name, short, compare, reference, symbol, primitive, short_aliases=()):
    """The comparison ``name`` (with its Primitive) and its short form (``eq``, with MindSpore's instance
    names such as ``tensor_gt`` as aliases): MindSpore has both, as two functions."""
    doc = f"Return ``input {symbol} other`` element-wise, as a Bool tensor."
    return (_two_operand(name, compare, reference, _TIES, doc, primitive),
            _two_operand(short, compare, reference, _TIES, doc, aliases=short_aliases))


# --- comparisons ------------------------------------------------------------------------------
equal, eq = _comparison("equal", "eq", jnp.equal, np.equal, "==", "Equal")
not_equal, ne = _comparison("not_equal", "ne", jnp.not_equal, np.not_equal, "!=", "NotEqual")
greater, gt = _comparison("greater", "gt", jnp.greater, np.greater, ">", "Greater", ("tensor_gt",))
greater_equal, ge = _comparison("greater_equal", "ge", jnp.greater_equal, np.greater_equal, ">=", "GreaterEqual",
                                ("tensor_ge",))
less, lt = _comparison("less", "lt", jnp.less, np.less, "<", "Less")
less_equal, le = _comparison("less_equal", "le", jnp.less_equal, np.less_equal, "<=", "LessEqual", ("tensor_le",))


@op(inputs=("input", "other"), dtypes=BINARY, primitive="IsClose", primitive_attrs=("rtol", "atol", "equal_nan"),
    attribute_forms={"rtol": FLOAT_NUMBER, "atol": FLOAT_NUMBER},
    method="isclose", mint="isclose", samples=with_settings(_TIES, {"rtol": 0.1, "equal_nan": True}),
    reference=np.isclose, grad_check=False)
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Return where ``|input - other| <= atol + rtol * |other|``, as a Bool tensor."""
    return jnp.isclose(input, other, rtol=rtol, atol=atol, equal_nan=equal_nan)


def _near_pairs(dtype):
    """``x`` and ``y`` of one shape differing by 0, 0.25 or 2 (far from the tolerances 1e-5 and 0.5 in every
    dtype), then the first pair with tolerance 0.5."""
    samples = []
    for seed, shape in enumerate(((3, 4), (5,))):
        x = np.random.default_rng(seed).uniform(-4.0, 4.0, shape)
        offset = np.random.default_rng(seed + 10).choice([0.0, 0.25, 2.0], shape)
        samples.append(Sample((x.astype(_sample_dtype(dtype)), (x + offset).astype(_sample_dtype(dtype)))))
    return samples + [Sample(samples[0].arrays, {"tolerance": 0.5})]


def _check_approximate_equal(x, y, tolerance=1e-05):
    # MindSpore 2.10's checks and messages (tests/ops/test_approximate_equal_checks.py)
    if not isinstance(tolerance, float):
        raise TypeError("For 'ApproximateEqual', the type of 'tolerance' should be 'float', but got type "
                        f"'{type(tolerance).__name__}'.")
    if np.shape(x) != np.shape(y):  # a Python number is a 0-d operand
        raise RuntimeError(f"For 'ApproximateEqual', arg 'x1' must have the same shape as 'x2'. But got 'x1' shape: "
                           f"{np.shape(x)}, 'x2' shape: {np.shape(y)}.")
    if np.ndim(x) >= 8:
        raise RuntimeError(f"For 'ApproximateEqual', the x's rank should be less than 8, but got: {np.ndim(x)}")


def _operand_dtype(value):
    """A Tensor's dtype; a Python number's as MindSpore makes it a Tensor (Bool, Int64, Float32)."""
    if hasattr(value, "dtype"):
        return value.dtype
    return np.dtype(bool if isinstance(value, bool) else np.int64 if isinstance(value, int) else np.float32)


def _check_approximate_equal_dtypes(x, y, *settings):
    """MindSpore 2.10's ApproximateEqual promotes its operands to their common dtype first (Int32 with Float32
    compares as Float32), then takes Float16/32/64 alone (Int, Bool, BFloat16: its TypeError, naming x1);
    ``Tensor.approximate_equal`` computes the others (its composite)."""
    got = str(from_numpy_dtype(promote_types(_operand_dtype(x), _operand_dtype(y))))
    if got not in ("Float16", "Float32", "Float64"):
        raise TypeError("For primitive[ApproximateEqual], the input argument[x1] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got Tensor[{got}].")


@op(inputs=("x", "y"), scalars=("x", "y"), dtypes=ANY, primitive="ApproximateEqual", primitive_attrs=("tolerance",),
    primitive_check=_check_approximate_equal_dtypes,
    method="approximate_equal", value_check=_check_approximate_equal, grad_check=False,
    samples=without(("bfloat16",), _near_pairs),
    reference=lambda x, y, tolerance=1e-05: np.abs(x - y) < tolerance)
def approximate_equal(x, y, tolerance=1e-05):
    """Return where ``|x - y| < tolerance``, as a Bool tensor (same shapes, rank below 8, float tolerance; the
    operands in their common dtype).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.approximate_equal(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([1.2, 2.0], np.float32)),
        ...                       0.1).asnumpy().tolist()
        [False, True]
    """
    dtype = promote_types(_operand_dtype(x), _operand_dtype(y))
    if dtype == jnp.bool_:
        dtype = jnp.int32  # Bools compare as 0 and 1 (MindSpore 2.10's Tensor.approximate_equal); XLA has no Bool minus
    return jnp.abs(x.astype(dtype) - y.astype(dtype)) < tolerance


# --- logical ----------------------------------------------------------------------------------
_TRUTH = binary(-1.0, 1.0, integral=True)  # zeros among the operands


def _truth_values(dtype):
    """Whole numbers in [-2, 2]: zeros (False) among the values."""
    return [Sample((np.round(sample.arrays[0]),)) for sample in unary(-2.0, 2.0)(dtype)]


def _logical(name, combine, reference, primitive):
    return _two_operand(name, lambda input, other: combine(_as_bool(input), _as_bool(other)), reference, _TRUTH,
                        f"Return the element-wise {name[8:].upper()} of the truth values of ``input`` and "
                        "``other``.", primitive)


logical_and = _logical("logical_and", jnp.logical_and, np.logical_and, "LogicalAnd")
logical_or = _logical("logical_or", jnp.logical_or, np.logical_or, "LogicalOr")
logical_xor = _logical("logical_xor", jnp.logical_xor, np.logical_xor, "LogicalXor")


@op(dtypes=ANY, primitive="LogicalNot", method="logical_not", mint="logical_not",
    samples=_truth_values, reference=np.logical_not, grad_check=False)
def logical_not(input):
    """Return the element-wise logical NOT of the truth values of ``input``."""
    return jnp.logical_not(_as_bool(input))


# --- bitwise (Bool and integer tensors) -------------------------------------------------------
def _integral_operands(op_name, a, b):
    """Refuse promoted operands that are not Bool or integer (MindSpore has no float bitwise kernels)."""
    for value in (a, b):
        if jnp.asarray(value).dtype.kind not in "biu":
            raise TypeError(f"For '{op_name}', the inputs must be Bool or integer tensors, but got "
                            f"{jnp.asarray(value).dtype}; cast them first, e.g. x.astype(mindspore.int32).")


def integral_only(name, compute):
    """``compute(input, other)`` of promoted operands that must be Bool or integer (a TypeError naming ``name``)."""
    def checked(input, other):
        _integral_operands(name, input, other)
        return compute(input, other)

    return checked


def _bitwise(name, compute, reference, doc, primitive=None):
    return _two_operand(name, integral_only(name, compute), reference, _BITS, doc, primitive)


_BITS = binary(-8.0, 8.0, other=(0.0, 4.0), scalar=2, integer=True)
bitwise_and = _bitwise("bitwise_and", jnp.bitwise_and, np.bitwise_and, "Return the element-wise bitwise AND.",
                       "BitwiseAnd")
bitwise_or = _bitwise("bitwise_or", jnp.bitwise_or, np.bitwise_or, "Return the element-wise bitwise OR.",
                      "BitwiseOr")
bitwise_xor = _bitwise("bitwise_xor", jnp.bitwise_xor, np.bitwise_xor, "Return the element-wise bitwise XOR.",
                       "BitwiseXor")
bitwise_left_shift = _bitwise("bitwise_left_shift", jnp.left_shift, np.left_shift,
                              "Return ``input << other``, element-wise.")
bitwise_right_shift = _bitwise("bitwise_right_shift", jnp.right_shift, np.right_shift,
                               "Return ``input >> other``, element-wise.")


def _integer_samples(dtype):
    """Int16/Int32/Bool operands for an integer-only op, in the float32 run only (one run, not per float dtype)."""
    if dtype not in ("float32", "float64"):
        return []
    generator = np.random.default_rng(0)
    return [Sample((generator.integers(-100, 100, size=(3, 4)).astype(np.int32),)),
            Sample((generator.integers(-100, 100, size=(7,)).astype(np.int16),)),
            Sample((np.array([True, False, True]),))]


@op(inputs="x", dtypes=ANY, primitive="Invert", method=("invert", "bitwise_not"),
    mint=spelling("bitwise_not", "input", x="input"), samples=_integer_samples,
    reference=np.invert, grad_check=False)
def invert(x):
    """Return the element-wise bitwise NOT of an integer (or Bool) tensor."""
    if x.dtype.kind not in "biu":
        raise TypeError(f"For 'invert', the argument 'x' must be a Bool or integer tensor, "
                        f"but got {x.dtype}; cast it first, e.g. x.astype(mindspore.int32).")
    return jnp.invert(x)


# --- value tests ------------------------------------------------------------------------------
def _special_values(dtype):
    """``unary()``'s samples, the later ones with NaN, +-infinity and -0.0 among the values (what the value
    tests tell apart; the first stays finite: the dtype-rule test casts it to integers)."""
    samples = unary()(dtype)
    _, vector, scalar = (sample.arrays[0] for sample in samples)
    vector.flat[:5] = (np.nan, np.inf, -np.inf, -0.0, 0.0)
    scalar.flat[0] = np.inf
    return samples


def _value_test(name, test, doc, primitive=None, mint=None):
    """The entry ``name``: ``test`` of any dtype (``jnp.isnan``), a Bool tensor; NumPy's function of
    the same name is the reference."""
    return function_op(name, test, doc, module=__name__, dtypes=ANY, primitive=primitive, method=name,
                       mint=name if mint is None else mint,
                       samples=_special_values, reference=getattr(np, name), grad_check=False)


isnan = _value_test("isnan", jnp.isnan, "Return where ``input`` is NaN, as a Bool tensor.", "IsNan",
                    mint=spelling("isnan", "tensor", input="tensor"))
isinf = _value_test("isinf", jnp.isinf, "Return where ``input`` is positive or negative infinity.", "IsInf")
isposinf = _value_test("isposinf", jnp.isposinf, "Return where ``input`` is positive infinity.")
isneginf = _value_test("isneginf", jnp.isneginf, "Return where ``input`` is negative infinity.")
isfinite = _value_test("isfinite", jnp.isfinite, "Return where ``input`` is finite (not NaN, not infinite).",
                       "IsFinite")
signbit = _value_test("signbit", jnp.signbit,
                      "Return where the sign bit of ``input`` is set (negative numbers and -0.0).")


# --- clamping ---------------------------------------------------------------------------------
@op(inputs=("input", "min", "max"), dtypes=PROMOTED, method="clamp", mint="clamp", aliases=("clip",),
    samples=mixed_operands((-4.0, 4.0), (-3.0, -1.0), (1.0, 3.0),
                     rows=[((3, 4), (3, 4), (3, 4)), ((3, 4), (4,), ()), ((7,), -1.5, 2)]),
    reference=np.clip)
def clamp(input, min=None, max=None):
    """Clamp every element of ``input`` into ``[min, max]`` (either bound may be None).

    The result has the common dtype of ``input`` and the bounds (an Int32 Tensor clamped by 0.5 is Float32).
    """
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must be given (not None).")
    # Lower bound first, then upper, so a lower bound above the upper one gives the upper bound; a NaN input
    # gives the bound (nan_orders)
    return clamp_between(input, min, max)


clip = clamp


def _numpy_clip_by_value(x, clip_value_min=None, clip_value_max=None):
    dtype = np.asarray(x).dtype
    bound = lambda value: None if value is None else np.asarray(value).astype(dtype)  # noqa: E731
    return np.clip(x, bound(clip_value_min), bound(clip_value_max))


# A Tensor ``x`` (``ops.clip_by_value`` below also takes a list or tuple of them and clips each).
@op(inputs=("x", "clip_value_min", "clip_value_max"), scalars=("clip_value_min", "clip_value_max"), dtypes=ANY,
    samples=mixed_operands((-4.0, 4.0), (-3.0, -1.0), (1.0, 3.0),
                           rows=[((3, 4), (3, 4), (3, 4)), ((3, 4), (4,), ()), ((7,), -1.5, 2)]),
    reference=_numpy_clip_by_value, grad_check=False)
def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """Clamp ``x`` into ``[clip_value_min, clip_value_max]``, the bounds cast to ``x``'s dtype (unlike ``clamp``,
    the result keeps the dtype of ``x``: 0.5 clips an Int32 Tensor at 0)."""
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("For 'clip_by_value', at least one of 'clip_value_min' and 'clip_value_max' must be "
                         "given (not None).")
    bounds = [None if bound is None else jnp.asarray(bound).astype(x.dtype) for bound in (clip_value_min, clip_value_max)]
    if x.dtype.kind not in "fV":
        return clamp.entry.kernel(x, *bounds)
    # MindSpore's ClipByValue is maximum then minimum, so at a bound the gradient splits between ``x`` and the
    # bound, half each, as those ops' gradients do (``clamp`` gives it all to ``x``)
    lower, upper = bounds
    result = x if lower is None else select_maximum(x, lower)
    return result if upper is None else select_minimum(result, upper)


_clip_tensor_by_value = clip_by_value


def clip_by_value(x, clip_value_min=None, clip_value_max=None):  # noqa: F811 (the face of the entry above)
    """Clamp ``x`` (a Tensor, or a list/tuple of Tensors: a tuple back) into ``[clip_value_min, clip_value_max]``.

    Unlike ``clamp``, the result keeps the dtype of ``x``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.clip_by_value(Tensor(np.array([1, 5, 9], np.int32)), 2, 6.5).asnumpy().tolist()
        [2, 5, 6]
    """
    if isinstance(x, (list, tuple)):
        # a tuple for a list too, as MindSpore returns
        return tuple(_clip_tensor_by_value(item, clip_value_min, clip_value_max) for item in x)
    return _clip_tensor_by_value(x, clip_value_min, clip_value_max)
