"""``mindspore.ops``' primitive-instance names (``tensor_add``, ``tensor_div``, ...) and functional in-place ops
(``zero_``, ``tanh_``, ``normal_``, ``uniform_``, ``random_``) onto sporax's ops.

MindSpore exports ``tensor_add = P.Add()`` and similar module-level instances; here each is the
functional op with the same semantics. The in-place functions rebind the Tensor's array (as the
Tensor methods ``x.zero_()`` do) and return it.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.tensor_div(Tensor(np.array([-5, 7])), Tensor(np.array([2, 2]))).asnumpy().tolist()
    [-2, 3]
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.casting import convert
from sporax.ops.faces import renamed
from sporax.ops.op_table import ANY, SCALAR, Distribution, Sample, op
from sporax.ops.samples import python_calls, shaped, unary, values
from sporax.ops.functional import arithmetic, comparison, creation, math, slicing
from sporax.ops.functional.inplace import fill_samples, in_place_of
from sporax.ops.functional.random import _key as draw_key
from sporax.state.assign import rebind

_renamed = functools.partial(renamed, module=__name__)


# MindSpore's instances of a Primitive whose op is an entry of the same signature are aliases of that entry.
tensor_add = arithmetic.add


def tensor_sub(*args):
    """``input - other`` (MindSpore's ``Sub`` instance)."""
    if len(args) != 2:
        raise TypeError(f"For 'tensor_sub', 2 inputs are expected, but got {len(args)}.")
    return arithmetic.sub(*args)


tensor_mul = tensor_muls = arithmetic.mul
tensor_div = arithmetic.tensor_div


tensor_floordiv = _renamed("tensor_floordiv", arithmetic.floor_div, ("input", "other"),
                           "``floor(input / other)`` (MindSpore's ``FloorDiv`` instance).")
tensor_mod = arithmetic.floor_mod
tensor_pow = arithmetic.pow
tensor_exp = _renamed("tensor_exp", math.exp, ("input",), "``exp(input)`` (MindSpore's ``Exp`` instance).")
tensor_expm1 = _renamed("tensor_expm1", math.expm1, ("input",), "``exp(input) - 1`` (MindSpore's ``Expm1`` instance).")
tensor_gt = comparison.gt
tensor_ge = comparison.ge


def tensor_lt(*args, **kwargs):
    """``input < other``."""
    return comparison.lt(*args, **kwargs)


tensor_le = comparison.le
tensor_range = _renamed("tensor_range", creation.range, ("start", "end", "step"),
                        "``[start, start + step, ...)`` below ``end`` (MindSpore's ``Range`` instance).")
tensor_slice = _renamed("tensor_slice", slicing.slice, ("input", "begin", "size"),
                        "The block of ``input`` at ``begin`` of shape ``size`` (MindSpore's ``Slice`` instance).")


# MindSpore's ``*_ext`` and short names of ops sporax has under their main name.
floordiv = arithmetic.floor_divide
floormod = arithmetic.floor_mod
float_power_ext = _renamed("float_power_ext", arithmetic.float_power, ("input", "exponent"),
                           "``input ** exponent`` as ``ops.float_power``.")
isnan_ext = _renamed("isnan_ext", comparison.isnan, ("tensor",), "Element-wise test for NaN, as ``ops.isnan``.")


def _tensor_other(op_name, arg_name, value):
    """The array of ``type_as``'s ``other``: only a Tensor has a dtype to cast to."""
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a Tensor (its dtype is the target), but got "
                        f"{describe(value)}; to cast to a dtype, use ops.cast(input, dtype).")
    return array_of(op_name, arg_name, value)


@op(inputs=("input", "other"), dtypes=ANY, input_dtypes={"other": _tensor_other}, method="type_as", inline=True,
    grad_check=False, reference=lambda input, other: np.asarray(input).astype(np.asarray(other).dtype),
    samples=lambda dtype: [Sample((values((2, 3), dtype, seed=1), np.array([1, 2], np.int32))),
                           Sample((np.array([[3, -1]], np.int32), values((2,), dtype, seed=2)))])
def type_as(input, other):
    """``input`` cast to the dtype of the Tensor ``other``.

    Example:
        >>> from sporax import Tensor, int32, ops
        >>> ops.type_as(Tensor([1.5, -2.5]), Tensor([0], int32)).asnumpy().tolist()
        [1, -2]
    """
    return convert(input, other.dtype)


def _numpy_mixed_precision_cast(dst_dtype, x):
    if isinstance(x, np.ndarray):
        return x.astype(np.float16 if dst_dtype == mstype.float16 else np.float32) if x.dtype.kind == "f" else x
    if isinstance(x, (tuple, list)):
        return type(x)(_numpy_mixed_precision_cast(dst_dtype, item) for item in x)
    return x


# A SCALAR entry (values handed over as they are): a Tensor, or the Tensors of a nested tuple/list/dict, as
# MindSpore's auto-mixed-precision casts the inputs of a Cell.
@op(inputs="x", dtypes=SCALAR, reference=_numpy_mixed_precision_cast,
    samples=python_calls((mstype.float16, np.array([1.5, -2.0], np.float32)),
                         (mstype.float32, (np.array([[1.0]], np.float16), 3, [np.array([2, 1], np.int32)]))))
def mixed_precision_cast(dst_dtype, x):
    """Cast ``x`` (a float Tensor, or the float Tensors of a tuple/list/dict) to ``dst_dtype``; others pass.

    Example:
        >>> from sporax import Tensor, float16, ops
        >>> ops.mixed_precision_cast(float16, (Tensor([1.5]), 3))[0].dtype
        Float16
    """
    target = mstype.to_numpy_dtype(mstype.normalize(dst_dtype))

    def cast(value):
        if isinstance(value, Tensor) and value._value.dtype.kind in "fV":
            return wrap(value._value.astype(target))
        if isinstance(value, (tuple, list)):
            return type(value)(cast(item) for item in value)
        if isinstance(value, dict):
            return {key: cast(item) for key, item in value.items()}
        return value

    return cast(x)


def _check_device(input, to="CPU", blocking=True):
    if to not in ("CPU", "Ascend"):
        raise ValueError(f"For 'move_to', 'to' must be 'CPU' or 'Ascend', but got {to!r}.")


@op(dtypes=ANY, method="move_to", value_check=_check_device, samples=unary(shapes=((3, 4),), to="CPU"),
    reference=lambda input, to="CPU", blocking=True: input)
def move_to(input, to="CPU", blocking=True):
    """A copy of ``input`` on device ``to`` ('CPU' or 'Ascend'; sporax keeps one host/XLA device).

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.move_to(Tensor([1.0]), "CPU").asnumpy().tolist()
        [1.0]
    """
    return jnp.array(input, copy=True)


def _rebound(input, value, op_name):
    """Make the Tensor ``input`` hold the result ``value`` as it is, whatever its shape (``reshape_``), in place."""
    return rebind(input, value._value, op_name)


@op(writes="input", writer=_rebound, dtypes=ANY, inline=True, grad_check=False,
    samples=shaped(((3, 4), {"shape": (2, 6)}), ((2, 3), {"shape": (-1,)})),
    reference=lambda input, shape: np.reshape(input, shape))
def reshape_(input, shape):
    """Reshape ``input`` in place; returns it.

    Example:
        >>> from sporax import Tensor, ops
        >>> x = Tensor([[1.0, 2.0]])
        >>> ops.reshape_(x, (2,)) is x, x.shape
        (True, (2,))
    """
    return input.reshape(tuple(shape))


@op(writes="input", writer=_rebound, dtypes=ANY, inline=True, grad_check=False, samples=unary(shapes=((2, 3),)),
    reference=lambda input: input)
def stop_gradient_(input):
    """Detach ``input`` from gradient computation in place: its value stays, no gradient flows back.

    Example:
        >>> from sporax import Tensor, ops
        >>> x = Tensor([1.0])
        >>> ops.stop_gradient_(x) is x
        True
    """
    return jax.lax.stop_gradient(input)


tanh_ = in_place_of("tanh_", math.tanh, np.tanh, "``tanh`` of ``input``, in place; returns it.", module=__name__)


@op(writes="input", dtypes=ANY, grad_check=False, samples=unary(shapes=((3, 4), ())), reference=np.zeros_like)
def zero_(input):
    """Fill ``input`` with zeros in place; returns it.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.zero_(Tensor(np.ones(2, np.float32))).asnumpy().tolist()
        [0.0, 0.0]
    """
    return jnp.zeros_like(input)


def _float_dtype(array):
    return array.dtype if array.dtype.kind in "fV" else jnp.float32


def _normal_draws(input, mean=0, std=1, generator=None):
    return Distribution(input.shape, input.dtype.name, mean=mean, std=std)


@op(writes="input", dtypes=ANY, random=draw_key, grad_check=False, samples=fill_samples(mean=1.0, std=2.0),
    reference=_normal_draws)
def normal_(input, mean=0, std=1, *, generator=None, key):
    """Fill ``input`` in place with samples of N(``mean``, ``std``**2) from the global random state.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x = Tensor(np.zeros(3, np.float32))
        >>> ops.normal_(x, 0.0, 0.5) is x
        True
    """
    return jax.random.normal(key, input.shape, _float_dtype(input)) * std + mean


def _uniform_draws(input, from_=0, to=1, generator=None):
    return Distribution(input.shape, input.dtype.name, mean=(from_ + to) / 2, std=(to - from_) / np.sqrt(12),
                        low=from_, high=to)


@op(writes="input", dtypes=ANY, random=draw_key, grad_check=False, samples=fill_samples(from_=-1.0, to=3.0),
    reference=_uniform_draws)
def uniform_(input, from_=0, to=1, *, generator=None, key):
    """Fill ``input`` in place with samples of U(``from_``, ``to``) from the global random state.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> bool((ops.uniform_(Tensor(np.zeros(4, np.float32)), 2.0, 3.0).asnumpy() >= 2).all())
        True
    """
    if from_ > to:
        raise ValueError(f"For 'uniform_', 'from_' must be at most 'to', but got {from_} and {to}.")
    return jax.random.uniform(key, input.shape, _float_dtype(input), from_, to)


def _random_bound(input, to):
    """``random_``'s upper bound: ``to``, or the dtype's largest integer (2**mantissa bits for floats)."""
    if to is not None:
        return to
    if input.dtype.kind in "iu":
        return int(jnp.iinfo(input.dtype).max)
    if input.dtype == jnp.bool_:
        return 2
    return 2 ** (jnp.finfo(input.dtype).nmant + 1)


def _random_draws(input, from_=0, to=None, generator=None):
    count = _random_bound(input, to) - from_
    return Distribution(input.shape, input.dtype.name, mean=(from_ + _random_bound(input, to) - 1) / 2,
                        std=np.sqrt((count * count - 1) / 12), low=from_, high=_random_bound(input, to) - 1)


@op(writes="input", dtypes=ANY, random=draw_key, method="random_", grad_check=False,
    samples=fill_samples(from_=-3, to=5), reference=_random_draws)
def random_(input, from_=0, to=None, *, generator=None, key):
    """Fill ``input`` in place with integers drawn uniformly from [``from_``, ``to``) (``to`` None: up to the
    dtype's largest integer, 2**mantissa for floats).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> values = ops.random_(Tensor(np.zeros(5, np.int32)), 0, 3).asnumpy()
        >>> bool(((values >= 0) & (values < 3)).all())
        True
    """
    to = _random_bound(input, to)
    if from_ >= to:
        raise ValueError(f"For 'random_', 'from_' must be less than 'to', but got {from_} and {to}.")
    return jax.random.randint(key, input.shape, from_, to, jnp.int64).astype(input.dtype)
