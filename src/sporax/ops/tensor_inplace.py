"""Tensor's in-place methods (``add_``, ``mul_``, ``fill_``, ``zero_``, ``copy_``, ``assign_value``, ...).

"In place" rebinds the tensor's ``_array`` slot to a new array (arrays are never mutated), so every
holder of the Tensor object (a network and its optimizer share a Parameter) sees the new value.
The result keeps the tensor's shape and dtype, as MindSpore's in-place ops do.
"""
import jax
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.host_buffer import detach
from sporax.core.tensor import Tensor
from sporax.ops.tensor_support import functional
from sporax.core.parameter import Parameter
from sporax.state import views
from sporax.state.assign import rebind, write
from sporax.state.parameter_storage import replace
from sporax.core.random_state import next_key
from sporax.ops.tensor_support import _find


def _store(tensor, method, result):
    """Rebind ``tensor``'s slot to ``result`` cast to its dtype; the shape must not change."""
    return write(tensor, result, f"Tensor.{method}")


def add_(self, other, *, alpha=1):
    return _store(self, "add_", self.add(other, alpha=alpha))  # Tensor.add: AddExt's dtypes (Bool + Bool)


def sub_(self, other, *, alpha=1):
    return _store(self, "sub_", functional.sub(self, other if alpha == 1 else functional.mul(other, alpha)))


def mul_(self, other):
    return _store(self, "mul_", functional.mul(self, other))


def div_(self, other, *, rounding_mode=None):
    return _store(self, "div_", functional.div(self, other, rounding_mode=rounding_mode))


def fill_(self, value):
    value = value._value if isinstance(value, Tensor) else value
    return _store(self, "fill_", jnp.full(self.shape, value, self._value.dtype))


def zero_(self):
    return _store(self, "zero_", jnp.zeros(self.shape, self._value.dtype))


def copy_(self, src, non_blocking=False):
    """Copy ``src``'s values (broadcast, cast to this dtype) into this tensor; returns self."""
    if not isinstance(src, Tensor):
        src = Tensor(src)
    return _store(self, "copy_", src)


def assign_value(self, value):
    """Make this tensor hold ``value``'s array (shape and dtype included); returns self.

    A Parameter gets ``value``'s storage, as with ``set_data`` (``sporax.state.parameter_storage``)."""
    if not isinstance(value, Tensor):
        value = Tensor(value)
    if isinstance(self, Parameter) and views.concrete(self) and views.concrete(value):
        replace(self, value._value, value)
        self._init = None
        return self
    detach(self)  # new storage: a Tensor.from_numpy's array keeps its values, as in MindSpore
    return rebind(self, value._value, "Tensor.assign_value")


def set_dtype(self, dtype):
    """Cast this tensor to ``dtype`` in place; returns the dtype."""
    dtype = mstype.normalize(dtype)
    rebind(self, self._value.astype(mstype.to_numpy_dtype(dtype)), "Tensor.set_dtype")
    return dtype


def _float_dtype(tensor):
    dtype = tensor._value.dtype
    return dtype if dtype.kind == "f" else jnp.float32


def normal_(self, mean=0, std=1, *, generator=None):
    """Fill with samples of N(``mean``, ``std``^2) from the global random state."""

    sample = jax.random.normal(next_key(), self.shape, _float_dtype(self)) * std + mean
    return _store(self, "normal_", sample)


def uniform_(self, from_=0, to=1, *, generator=None):
    """Fill with samples of U(``from_``, ``to``) from the global random state."""

    return _store(self, "uniform_", jax.random.uniform(next_key(), self.shape, _float_dtype(self), from_, to))


def uniform(self, from_=0.0, to=1.0, generator=None):
    """A new tensor of this shape and dtype with samples of U(``from_``, ``to``)."""

    sample = jax.random.uniform(next_key(), self.shape, _float_dtype(self), from_, to)
    return Tensor._wrap(sample.astype(self._value.dtype))


def requires_grad_(self, requires_grad=True):
    """Mark a Parameter as trainable or not; returns self."""
    if hasattr(type(self), "requires_grad"):
        self.requires_grad = requires_grad
    return self


def _inplace_of(name, op_name):
    """``x.name_(...)``: the op's result stored into ``x`` (shape and dtype kept)."""

    function = _find(op_name)
    if function is None:
        return None

    def method(self, *args, **kwargs):
        return _store(self, name, function(self, *args, **kwargs))
    method.__name__ = name
    return method


_INPLACE_OF = {"exp_": "exp", "log_": "log", "floor_": "floor", "ceil_": "ceil", "sigmoid_": "sigmoid",
               "tanh_": "tanh", "sign_": "sign", "sqrt_": "sqrt", "neg_": "neg", "abs_": "abs", "clamp_": "clamp",
               "clip_": "clip", "masked_fill_": "masked_fill", "remainder_": "remainder",
               "floor_divide_": "floor_divide", "pow_": "pow", "erfinv_": "erfinv", "square_": "square",
               "index_fill_": "index_fill", "tril_": "tril", "triu_": "triu", "relu_": "relu", "round_": "round"}


def install():
    """Set the in-place methods on ``Tensor``."""
    for name, op_name in _INPLACE_OF.items():
        method = _inplace_of(name, op_name)
        if method is not None:
            setattr(Tensor, name, method)
    for function in (add_, sub_, mul_, div_, fill_, zero_, copy_, assign_value, set_dtype, normal_, uniform_,
                     uniform, requires_grad_):
        setattr(Tensor, function.__name__, function)
    Tensor.subtract_ = sub_
    Tensor.multiply_ = mul_
    Tensor.divide_ = div_
