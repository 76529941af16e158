"""Activation functions: relu, gelu, silu, leaky_relu, elu, mish, rrelu, swiglu ... (softmax: ``softmax.py``)

Each activation is one op-table entry (``sporax.ops.op_table``): the kernel below, its
Primitive, Tensor-method, ``mint`` and Cell names, its samples and a NumPy reference. The
functional op, ``ops.Mish()``, ``nn.Mish`` ... are generated from the entry and run its kernel.
Float activations keep the input's float dtype (Float16 stays Float16) and reject integer inputs
with a TypeError, as MindSpore does; ``relu`` also takes integer tensors.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.relu(Tensor([-1.0, 2.0])).asnumpy().tolist()
    [0.0, 2.0]
"""
import math

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype, random_state
from sporax.ops.face_inputs import accepting, float_input  # noqa: F401 (loss.py imports float_input from here)
from sporax.ops.functional.nan_orders import select_maximum, select_minimum
from sporax.ops.functional._args import axis_index
from sporax.ops.functional.kernel_rounding import exact_divide
from sporax.ops.op_table import (ANY, FLOAT, FLOAT_NUMBER, INEXACT, NUMBER, TO_FLOAT, CellSpec, Distribution, Sample, op,
                                  spelling)
from sporax.ops.samples import unary, with_settings

_erf = np.vectorize(math.erf)


def _softplus_reference(x):
    return np.logaddexp(0.0, x)


def _sigmoid_reference(x):
    return 1.0 / (1.0 + np.exp(-x))


def _half_in_float32(function):
    """``function`` computed in Float32 for half-precision input and rounded once, as MindSpore's
    kernels do (checked on 2.10: mish, gelu; fast_gelu is closest so)."""

    def apply(array, *args):
        wide = array.astype(jnp.float32) if array.dtype.itemsize < 4 else array
        return function(wide, *args).astype(array.dtype)

    return apply


def _number_setting(cell, name):
    def check(**settings):
        value = settings[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{cell}', the '{name}' must be int or float, but got {type(value).__name__}.")
    return check


def _axis_setting(cell, kinds=(int, tuple, list)):
    def check(axis):
        if isinstance(axis, bool) or not isinstance(axis, kinds):
            names = " or ".join(kind.__name__ for kind in kinds)
            raise TypeError(f"For '{cell}', the 'axis' must be {names}, but got {type(axis).__name__}.")
        return {"axis": tuple(axis) if isinstance(axis, (tuple, list)) else axis}
    return check


def _check_gelu(approximate):
    if not isinstance(approximate, bool):
        raise TypeError(f"For 'GELU', the 'approximate' must be bool, but got {type(approximate).__name__}.")


def _check_celu(alpha):
    if alpha == 0:
        raise ValueError("For 'CELU', the 'alpha' can not be 0.")


def _check_hardtanh(min_val, max_val):
    if min_val > max_val:
        raise ValueError(f"For 'Hardtanh', 'max_val' must be larger than 'min_val', but got "
                         f"min_val={min_val}, max_val={max_val}.")


def _check_softshrink(lambd):
    _number_setting("SoftShrink", "lambd")(lambd=lambd)
    if lambd < 0:
        raise ValueError(f"For 'SoftShrink', the 'lambd' must be >= 0, but got {lambd}.")
    return {"lambd": float(lambd)}


@jax.custom_jvp
def relu_array(array):
    """``array`` where positive, else 0, with MindSpore's ReluGrad: the gradient is ``dy * (x > 0)``, 0 at
    x == 0 (``jnp.maximum``'s own gradient splits the tie, 0.5, and costs XLA a compare-select-divide).

    NaN gives 0, as MindSpore 2.10's ReLU kernel (``x > 0 ? x : 0``): a network whose weights went NaN after
    an overflowed fp16 step still returns a finite loss there (checked on 2.10; ``max`` would pass NaN on)."""
    return jnp.where(array > 0, array, jnp.zeros((), array.dtype))


relu_array.defjvps(lambda tangent, _, array: jnp.where(array > 0, tangent, jnp.zeros_like(tangent)))


@jax.custom_jvp
def relu6_array(array):
    """``min(max(array, 0), 6)`` with MindSpore's ReLU6 gradient: ``dy * (0 < x <= 6)``; NaN gives 0, as
    MindSpore 2.10's kernel (``relu_array``)."""
    return jnp.where(array > 0, jnp.minimum(array, jnp.asarray(6, array.dtype)), jnp.zeros((), array.dtype))


relu6_array.defjvps(lambda tangent, _, array: jnp.where((array > 0) & (array <= 6), tangent,
                                                        jnp.zeros_like(tangent)))


@op(dtypes=ANY, primitive="ReLU", method="relu", mint="relu", cells=(CellSpec("ReLU"),), position_wise=True,
    samples=unary(avoid=0.0), reference=lambda input, inplace=False: np.maximum(input, 0))
def relu(input, inplace=False):
    """``max(input, 0)`` (integer and bool tensors keep their dtype)."""
    if input.dtype == np.bool_:
        return input
    return relu_array(input)


# MindSpore 2.10's ReLU6 takes Float16/Float32 (sporax also computes Float64 and BFloat16); Int and Bool are its
# TypeError (mint.nn.functional.relu6 is hardtanh's)
_RELU6_INPUT = accepting(("BFloat16", "Float16", "Float32", "Float64"), "For primitive[ReLU6], the input "
                         "argument[input_x] must be a type of {{Tensor[Float16], Tensor[Float32]}}, but got "
                         "Tensor[{got}].")


@op(inputs="x", dtypes=FLOAT, input_dtypes={"x": _RELU6_INPUT}, primitive="ReLU6", cells=(CellSpec("ReLU6"),),
    position_wise=True, samples=unary(-2.0, 8.0, avoid=(0.0, 6.0)), reference=lambda x: np.clip(x, 0, 6))
def relu6(x):
    """``min(max(x, 0), 6)`` of a float Tensor."""
    return relu6_array(x)


# mint's LeakyReLUExt (MindSpore 2.10) takes floats alone, where ops.leaky_relu scales integers too
_LEAKY_RELU_EXT = accepting(("BFloat16", "Float16", "Float32", "Float64"), "For primitive[LeakyReLUExt], the input "
                            "argument[input_x] must be a type of {{BFloat16, Float16, Float32, Float64}}, but got {got}.")


@op(mint=spelling("leaky_relu", "input, negative_slope=0.01", alpha="negative_slope", namespaces="mint.nn.functional",
                  readers={"input": _LEAKY_RELU_EXT}),
    dtypes=ANY, cells=(CellSpec("LeakyReLU", (("alpha", 0.2),), check=_number_setting("LeakyReLU", "alpha")),),
    position_wise=True, samples=with_settings(unary(avoid=0.0), {"alpha": 0.05}),
    reference=lambda input, alpha=0.2: np.where(input > 0, input, input * alpha))
def leaky_relu(input, alpha=0.2):
    """``input`` where positive, else ``alpha * input``; integers and Bool scale by ``alpha`` cast to their dtype
    (truncated toward zero: ``leaky_relu(int32 -6, 2.5)`` is -12, with 0.2 it is 0), as MindSpore 2.10's
    ``ops.leaky_relu``, whose ``max(alpha * x, x)`` casts ``alpha`` to the input's dtype."""
    if jnp.issubdtype(input.dtype, jnp.floating):
        negative = input * jnp.asarray(alpha, input.dtype)
    else:
        negative = input * jnp.asarray(int(alpha), input.dtype)
        return jnp.where(input > 0, input, negative)
    # at 0 MindSpore's LeakyReLU (max(x, alpha * x)) splits the gradient: (1 + alpha) / 2
    at_zero = input * jnp.asarray((1 + alpha) / 2, input.dtype)
    return jnp.where(input > 0, input, jnp.where(input < 0, negative, at_zero))


def _gelu_reference(input, approximate="none"):
    if approximate == "tanh":
        return 0.5 * input * (1 + np.tanh(np.sqrt(2 / np.pi) * (input + 0.044715 * input ** 3)))
    return 0.5 * input * (1 + _erf(input / np.sqrt(2)))


@op(mint=("gelu", spelling("npu_gelu", "input, approximate='none'")), position_wise=True,
    cells=(CellSpec("GELU", (("approximate", True),),
                    to_op=lambda approximate: {"approximate": "tanh" if approximate else "none"},
                    check=_check_gelu),
           CellSpec("GELU", (("approximate", "none"),), namespace="mint.nn")),
    samples=with_settings(unary(), {"approximate": "tanh"}), reference=_gelu_reference)
def gelu(input, approximate="none"):
    """Gaussian error linear unit (``approximate``: 'none' for the erf form, 'tanh'); half precision
    computes in Float32 and rounds once, as MindSpore's kernel (checked on 2.10)."""
    if approximate not in ("none", "tanh"):
        raise ValueError(f"For 'gelu', 'approximate' must be 'none' or 'tanh', but got {approximate!r}.")
    return _half_in_float32(lambda wide: jax.nn.gelu(wide, approximate=approximate == "tanh"))(input)


@op(dtypes=INEXACT, cells=(CellSpec("SiLU"),), position_wise=True, samples=unary(),
    reference=lambda input: input * _sigmoid_reference(input))
def silu(input):
    """``input * sigmoid(input)``."""
    return jax.nn.silu(input)


def _softplus_kernel(input, beta, threshold):
    scaled = input * jnp.asarray(beta, input.dtype)
    soft = jax.nn.softplus(scaled) / jnp.asarray(beta, input.dtype)
    return jnp.where(scaled > threshold, input, soft)


@op(position_wise=True, samples=with_settings(unary(-30.0, 30.0), {"beta": 2, "threshold": 5}),
    reference=lambda input, beta=1, threshold=20: np.where(
        input * beta > threshold, input, _softplus_reference(input * beta) / beta))
def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta * input)) / beta``, linear where ``beta * input > threshold``."""
    return _softplus_kernel(input, beta, threshold)


@op(inputs="input_x", primitive="Elu", primitive_attrs=("alpha",), cells=(CellSpec("ELU", (("alpha", 1.0),)),),
    position_wise=True, samples=with_settings(unary(avoid=0.0), {"alpha": 0.5}),
    reference=lambda input_x, alpha=1.0: np.where(input_x > 0, input_x, alpha * np.expm1(input_x)))
def elu(input_x, alpha=1.0):
    """``input_x`` where positive, else ``alpha * (exp(input_x) - 1)``."""
    return jax.nn.elu(input_x, jnp.asarray(alpha, input_x.dtype))


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805


_SELU_INTEGERS = (np.dtype(np.int8), np.dtype(np.int32))


def _selu_integers(input_x):
    """SeLU of Int8/Int32 in the integer type, as MindSpore 2.10's CPU kernel computes it: the scales cast to the
    type are 1, so positive values stay and the others are ``expm1`` in Float32 truncated (0, or -1 below -17)."""
    return np.where(input_x > 0, input_x, np.expm1(input_x.astype(np.float32)).astype(input_x.dtype))


def _selu_reference(input_x):
    if input_x.dtype.kind in "iu":
        return _selu_integers(input_x)
    return _SELU_SCALE * np.where(input_x > 0, input_x, _SELU_ALPHA * np.expm1(input_x))


@op(dtypes=NUMBER, inputs="input_x", primitive="SeLU", cells=(CellSpec("SeLU"), CellSpec("SELU", namespace="mint.nn")),
    position_wise=True, samples=unary(avoid=0.0), mint=spelling("selu", "input", input_x="input", namespaces="mint.nn.functional"),
    reference=_selu_reference)
def selu(input_x):
    """Scaled exponential linear unit (Int8 and Int32 too, computed in the integer type)."""
    if input_x.dtype.kind in "iu":
        if input_x.dtype not in _SELU_INTEGERS:
            raise TypeError(f"For 'selu', 'input_x' must be a Tensor of Float16, Float32, Float64, Int8 or Int32, but "
                            f"got Tensor[{mstype.from_numpy_dtype(input_x.dtype)}]; cast it first, e.g. "
                            "ops.cast(x, mindspore.float32).")
        return jnp.where(input_x > 0, input_x, jnp.expm1(input_x.astype(jnp.float32)).astype(input_x.dtype))
    return jax.nn.selu(input_x)


@op(inputs="x", primitive="CeLU", primitive_attrs=("alpha",), cells=(CellSpec("CELU", (("alpha", 1.0),), check=_check_celu),),
    position_wise=True, samples=with_settings(unary(avoid=0.0), {"alpha": 2.0}),
    reference=lambda x, alpha=1.0: np.maximum(x, 0) + np.minimum(0, alpha * np.expm1(x / alpha)))
def celu(x, alpha=1.0):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    return jax.nn.celu(x, jnp.asarray(alpha, x.dtype))


@op(dtypes=NUMBER, primitive="HSwish", cells=(CellSpec("HSwish"), CellSpec("Hardswish", namespace="mint.nn")), position_wise=True, samples=unary(avoid=(-3.0, 3.0)),
    reference=lambda input: input * np.clip(input + 3, 0, 6) / 6)
def hardswish(input):
    """``input * relu6(input + 3) / 6`` (integers in integer arithmetic, the division truncating, as MindSpore's
    HSwish)."""
    if input.dtype.kind in "iu":
        return jax.lax.div(input * jnp.clip(input + 3, 0, 6), jnp.asarray(6, input.dtype))
    # MindSpore's kernel is piecewise with a true division by 6 in the input's dtype; jax.nn.hard_swish
    # multiplies by a rounded 1/6 and differs in the last bit on about one input in five.
    return jnp.where(input >= 3, input,
                     jnp.where(input <= -3, jnp.zeros_like(input), exact_divide(input * (input + 3), 6)))


@op(dtypes=NUMBER, primitive="HSigmoid", cells=(CellSpec("HSigmoid"), CellSpec("Hardsigmoid", namespace="mint.nn")), position_wise=True, samples=unary(avoid=(-3.0, 3.0)),
    reference=lambda input: np.clip(input + 3, 0, 6) / 6)
def hardsigmoid(input):
    """``relu6(input + 3) / 6`` (integers in integer arithmetic, the division truncating, as MindSpore's
    HSigmoid)."""
    if input.dtype.kind in "iu":
        return jax.lax.div(jnp.clip(input + 3, 0, 6), jnp.asarray(6, input.dtype))
    # MindSpore computes float16 in float32 and rounds once; its division is exact (jax.nn's is not).
    wide = input.astype(jnp.float32) if input.dtype == jnp.float16 else input
    return _hardsigmoid_float(wide).astype(input.dtype)


@jax.custom_jvp
def _hardsigmoid_float(array):
    """``clip(array + 3, 0, 6) / 6`` with MindSpore's HSigmoidGrad: ``dy / 6`` unless ``x <= -3`` or
    ``x >= 3``, where it is a selected 0. (not ``dy * 0``: -0. under a negative gradient); NaN gets ``dy / 6``."""
    return exact_divide(jnp.clip(array + 3, 0, 6), 6)


_hardsigmoid_float.defjvps(lambda tangent, _, array: jnp.where(
    (array <= -3) | (array >= 3), jnp.zeros_like(tangent), tangent / jnp.asarray(6, tangent.dtype)))


@op(dtypes=ANY, cells=(CellSpec("Hardtanh", (("min_val", -1.0), ("max_val", 1.0)), check=_check_hardtanh),),
    position_wise=True,
    samples=with_settings(unary(avoid=(-1.0, 1.0)), {"min_val": -0.5, "max_val": 2.0}),
    reference=lambda input, min_val=-1.0, max_val=1.0: np.clip(input, min_val, max_val))
def hardtanh(input, min_val=-1.0, max_val=1.0):
    """``input`` clipped to ``[min_val, max_val]`` by MindSpore's maximum then minimum (NaN gives ``min_val``, a
    bound ties half the gradient: nan_orders); an integer input's bounds are clipped to its dtype's range and
    truncated toward zero, a Bool input is clipped as 0/1 (MindSpore's kernel keeps it with the default bounds)."""
    if input.dtype == np.bool_:
        return jnp.clip(input.astype(jnp.float32), min_val, max_val).astype(np.bool_)
    if input.dtype.kind in "iu":
        limits = np.iinfo(input.dtype)
        min_val, max_val = (int(np.clip(np.trunc(bound), limits.min, limits.max)) for bound in (min_val, max_val))
    return select_minimum(select_maximum(input, jnp.asarray(min_val, input.dtype)), jnp.asarray(max_val, input.dtype))


@op(inputs="x", primitive="Mish", cells=(CellSpec("Mish"),), position_wise=True, samples=unary(),
    mint=spelling("mish", "input", x="input", namespaces="mint.nn.functional"),
    reference=lambda x: x * np.tanh(_softplus_reference(x)))
def mish(x):
    """``x * tanh(softplus(x))`` (half precision computes in Float32 and rounds once, as MindSpore)."""
    return _half_in_float32(lambda wide: wide * jnp.tanh(jax.nn.softplus(wide)))(x)


@op(mint=spelling("logsigmoid", "input", x="input", namespaces="mint.nn.functional"),
    inputs="x", dtypes=INEXACT, cells=(CellSpec("LogSigmoid"),), position_wise=True, samples=unary(),
    reference=lambda x: -_softplus_reference(-x))
def logsigmoid(x):
    """``log(sigmoid(x))``, computed stably."""
    if x.dtype.kind == "c":  # jax's stable form takes real inputs only
        return -jnp.log1p(jnp.exp(-x))
    return jax.nn.log_sigmoid(x)


@op(inputs="x", primitive="Softsign", cells=(CellSpec("Softsign"),), position_wise=True, samples=unary(),
    reference=lambda x: x / (1 + np.abs(x)))
def softsign(x):
    """``x / (1 + |x|)``."""
    return jax.nn.soft_sign(x)


@op(dtypes=TO_FLOAT, cells=(CellSpec("Tanhshrink"),), position_wise=True, samples=unary(), reference=lambda input: input - np.tanh(input))
def tanhshrink(input):
    """``input - tanh(input)``."""
    return input - jnp.tanh(input)


@op(primitive="HShrink", primitive_attrs=("lambd",), attribute_forms={"lambd": FLOAT_NUMBER}, method="hardshrink",
    cells=(CellSpec("Hardshrink", (("lambd", 0.5),), namespace="mint.nn"),), position_wise=True,
    samples=with_settings(unary(avoid=(-0.5, 0.5)), {"lambd": 1.0}),
    reference=lambda input, lambd=0.5: np.where(np.abs(input) > lambd, input, 0))
def hardshrink(input, lambd=0.5):
    """``input`` where ``|input| > lambd``, else 0."""
    return jnp.where(jnp.abs(input) > lambd, input, jnp.zeros((), input.dtype))


@op(primitive="SoftShrink", primitive_attrs=("lambd",), attribute_forms={"lambd": FLOAT_NUMBER}, method="soft_shrink",
    aliases=("soft_shrink",),
    cells=(CellSpec("SoftShrink", (("lambd", 0.5),), check=_check_softshrink),), position_wise=True,
    samples=with_settings(unary(avoid=(-0.5, 0.5)), {"lambd": 1.0}),
    reference=lambda input, lambd=0.5: np.where(np.abs(input) > lambd, input - np.sign(input) * lambd, 0))
def softshrink(input, lambd=0.5):
    """``input`` shrunk toward 0 by ``lambd`` (0 inside ``[-lambd, lambd]``)."""
    shrunk = input - jnp.sign(input) * jnp.asarray(lambd, input.dtype)
    return jnp.where(jnp.abs(input) > lambd, shrunk, jnp.zeros((), input.dtype))


soft_shrink = softshrink


def _prelu_reference(input, weight):
    slope = weight.reshape((1, -1) + (1,) * (input.ndim - 2)) if input.ndim >= 2 and weight.size > 1 else weight
    return np.where(input > 0, input, input * slope)


def _prelu_samples(dtype):
    """An (N, C, L) input with one slope per channel, then a matrix and a vector with one slope."""
    inputs = unary(avoid=0.0, shapes=((2, 3, 4), (3, 4), (5,)))(dtype)
    slopes = unary(-1.0, 1.0, shapes=((3,), (1,), (1,)))(dtype)
    return [Sample(one.arrays + slope.arrays) for one, slope in zip(inputs, slopes)]


@op(inputs=("input", "weight"), input_dtypes={"weight": ANY}, primitive="PReLU", mint="prelu",
    samples=_prelu_samples, reference=_prelu_reference)
def prelu(input, weight):
    """``input`` where positive, else ``weight * input`` (``weight`` per channel, axis 1)."""
    slope = weight.astype(input.dtype)
    if slope.ndim == 1 and input.ndim >= 2 and slope.shape[0] != 1:
        slope = slope.reshape((1, -1) + (1,) * (input.ndim - 2))
    elif input.ndim == 0 and slope.size == 1:  # the output has the input's shape: a 0-d input stays 0-d
        slope = slope.reshape(())
    return sloped(input, slope)


def sloped(input, slope):
    """``input`` times 1 where positive, else times ``slope``: PReLU's value, and MindSpore's gradient ``slope * dy``
    at every non-positive position (-0. for a 0 slope under a negative ``dy``; 0 and -0. count as negative)."""
    return input * jnp.where(input > 0, jnp.ones((), input.dtype), slope)


def _glu_reference(x, axis=-1):
    first, second = np.split(x, 2, axis)
    return first * _sigmoid_reference(second)


@op(mint=spelling("glu", "input, dim=-1", x="input", axis="dim", namespaces="mint.nn.functional"),
    inputs="x", dtypes=INEXACT, primitive="GLU", primitive_attrs=("axis",), cells=(CellSpec("GLU", (("axis", -1),), check=_axis_setting("GLU", (int,))),),
    samples=unary(shapes=((3, 4), (2, 6))), reference=_glu_reference)
def glu(x, axis=-1):
    """Gated linear unit: ``a * sigmoid(b)`` for the two halves ``a, b`` of ``x`` along ``axis``."""
    axis = axis_index("glu", "axis", axis, x.ndim)
    if x.shape[axis] % 2:
        raise ValueError(f"For 'glu', the size of axis {axis} must be even, but got {x.shape[axis]}.")
    first, second = jnp.split(x, 2, axis)
    return first * jax.nn.sigmoid(second)


@op(inputs="x", primitive="FastGeLU", cells=(CellSpec("FastGelu"),), position_wise=True, samples=unary(),
    reference=lambda x: x * _sigmoid_reference(1.702 * x))
def fast_gelu(x):
    """``x * sigmoid(1.702 x)``: MindSpore's fast GELU approximation (half precision in Float32)."""
    return _half_in_float32(lambda wide: wide * jax.nn.sigmoid(1.702 * wide))(x)


@op(dtypes=ANY, position_wise=True, samples=unary(avoid=0.0, thr=0.0, value=-1.0),
    reference=lambda input, thr, value: np.where(input > thr, input, value))
def threshold(input, thr, value):
    """``input`` where it is greater than ``thr``, else ``value``."""
    if input.dtype.kind in "iu":  # C's conversion, as MindSpore's kernel: -1 in UInt8 is 255
        value = np.array(int(value)).astype(input.dtype)
    return jnp.where(input > thr, input, jnp.asarray(value, input.dtype))


def _rrelu_samples(dtype):
    """Negative inputs only: their outputs are random, each ``x * U(lower, upper)``."""
    x = np.random.default_rng(0).uniform(-2.0, -0.5, (40, 50)).astype(np.float32)
    return [Sample((x,)), Sample((x,), {"lower": 0.2, "upper": 0.6})] if dtype == "float32" else []


def _rrelu_reference(input, lower=1.0 / 8, upper=1.0 / 3):
    input = np.asarray(input, np.float64)
    return Distribution(input.shape, "float32", mean=input * (lower + upper) / 2,
                        std=np.abs(input) * (upper - lower) / np.sqrt(12), low=input * upper, high=input * lower)


@op(random=lambda seed: random_state.next_key(), samples=_rrelu_samples, reference=_rrelu_reference,
    grad_check=False)
def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, *, key):
    """Randomized leaky ReLU: negative elements times a slope drawn from U(``lower``, ``upper``).

    Example:
        >>> from sporax import Tensor, ops
        >>> slope = -float(ops.rrelu(Tensor([-1.0, 2.0]), 0.2, 0.3).asnumpy()[0])
        >>> 0.2 <= slope <= 0.3
        True
    """
    if not isinstance(lower, (int, float)) or not isinstance(upper, (int, float)) or lower > upper:
        raise ValueError(f"For 'rrelu', 'lower' and 'upper' must be numbers with lower <= upper, but got {lower!r} "
                         f"and {upper!r}.")
    slope = jax.random.uniform(key, input.shape, input.dtype, lower, upper)
    return jnp.where(input >= 0, input, input * slope)


def _swiglu_reference(input, dim=-1):
    first, second = np.split(input, 2, dim)
    return first * _sigmoid_reference(first) * second


# ``Swiglu``: MindSpore 2.10 registers its kernel on Ascend only; here it runs on every backend.
@op(primitive="Swiglu", samples=unary(shapes=((3, 4), (2, 6))), reference=_swiglu_reference)
def swiglu(input, dim=-1):
    """``silu(a) * b`` where ``a`` and ``b`` are the two halves of ``input`` along ``dim``."""
    if input.ndim == 0:  # MindSpore 2.10's ValueError
        raise ValueError(f"For primitive[Swiglu], the dim must be in [0,0), but got {dim}.\nFor 'swiglu', 'input' "
                         "must have a dimension to halve, but got a 0-d Tensor.")
    dim = axis_index("swiglu", "dim", dim, input.ndim)
    if input.shape[dim] % 2:
        raise ValueError(f"For 'swiglu', the size of dimension {dim} must be even, but got {input.shape[dim]}.")
    first, second = jnp.split(input, 2, axis=dim)
    return jax.nn.silu(first) * second
