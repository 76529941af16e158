"""Element-wise backward-kernel Primitives of ``ops.operations._grad_ops``: ``ReluGrad()(dy, x)`` ...

Each computes its closed form from the incoming gradient and the forward input (or output), in
MindSpore's argument order: the trigonometric ones take ``(x, dy)``, the activation ones
``(dy, x)``. Inputs must share one shape; the result has the dtype of the forward tensor.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.grad_ops_elementwise import ReluGrad
    >>> ReluGrad()(Tensor(np.array([2.0, 3.0], np.float32)), Tensor(np.array([-1.0, 1.0], np.float32))).asnumpy().tolist()
    [0.0, 3.0]
"""
import functools

import jax
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.faces import primitive_class
from sporax.ops.functional import activation, gradient_kernels  # noqa: F401 - declares the generated entries
from sporax.ops.op_table import PRIMITIVES
from sporax.ops.primitive import Primitive, prim_attr_register


def _same_shape_inputs(op_name, names, values):
    arrays = [array_of(op_name, name, value) for name, value in zip(names, values)]
    for name, array in zip(names[1:], arrays[1:]):
        if array.shape != arrays[0].shape:
            raise ValueError(f"For '{op_name}', '{names[0]}' and '{name}' must have the same shape, but got "
                             f"{tuple(arrays[0].shape)} and {tuple(array.shape)}.")
    return arrays


def _check_number(op_name, arg_name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{op_name}', the type of '{arg_name}' should be 'float', but got {type(value).__name__}.")
    return float(value)


def _pointwise_grad(name, input_names, formula, summary, forward_index):
    """A Primitive ``name()(*inputs)`` computing ``formula(*arrays)`` in the forward tensor's dtype."""

    def __init__(self):
        Primitive.__init__(self, name)
        self.init_prim_io_names(list(input_names), ["output"])

    def __call__(self, *inputs):
        if len(inputs) != len(input_names):
            raise TypeError(f"For '{name}', expected {len(input_names)} inputs {input_names}, got {len(inputs)}.")
        arrays = _same_shape_inputs(name, input_names, inputs)
        dtype = arrays[forward_index].dtype
        if not jnp.issubdtype(dtype, jnp.inexact):
            raise TypeError(f"For '{name}', '{input_names[forward_index]}' must be a Tensor of float type, "
                            f"but got {mstype.from_numpy_dtype(dtype)}.")
        return wrap(formula(*[array.astype(dtype) for array in arrays]).astype(dtype))

    doc = (f"{summary}\n\n    Inputs:\n" + "".join(f"        - **{arg}** (Tensor)\n" for arg in input_names) +
           "\n    Outputs:\n        Tensor, the gradient of the forward input.\n")
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


def _grad_of(forward):
    """``dy * forward'(x)`` through JAX's VJP of an element-wise forward function."""
    def formula(dy, x):
        _, pullback = jax.vjp(forward, x)
        return pullback(dy)[0]
    return formula


# The forward kernels of the op table: a gradient Primitive differentiates the very function its op runs.
_fast_gelu = activation.fast_gelu.entry.kernel
_gelu_tanh = functools.partial(activation.gelu.entry.kernel, approximate="tanh")


AbsGrad = _pointwise_grad("AbsGrad", ("x", "dy"), lambda x, dy: dy * jnp.sign(x),
                          "Gradient of ``abs``: ``dy * sign(x)``.", 0)
# For complex inputs MindSpore divides by the conjugate derivative (``jnp.conj`` leaves real arrays as they are).
ACosGrad = _pointwise_grad("ACosGrad", ("x", "dy"), lambda x, dy: -dy / jnp.conj(jnp.sqrt(1 - x * x)),
                           "Gradient of ``acos``: ``-dy / conj(sqrt(1 - x**2))``.", 0)
AsinGrad = _pointwise_grad("AsinGrad", ("x", "dy"), lambda x, dy: dy / jnp.conj(jnp.sqrt(1 - x * x)),
                           "Gradient of ``asin``: ``dy / conj(sqrt(1 - x**2))``.", 0)
AtanGrad = _pointwise_grad("AtanGrad", ("x", "dy"), lambda x, dy: dy / jnp.conj(1 + x * x),
                           "Gradient of ``atan``: ``dy / conj(1 + x**2)``.", 0)
InvGrad = _pointwise_grad("InvGrad", ("x", "grad"), lambda y, dy: -dy * y * y,
                          "Gradient of ``inv`` from its output ``x``: ``-grad * x**2``.", 0)
ReluGrad = _pointwise_grad("ReluGrad", ("y_backprop", "x"), lambda dy, x: jnp.where(x > 0, dy, 0),
                           "Gradient of ``relu``: ``dy`` where ``x > 0``, else 0.", 1)
ReLU6Grad = _pointwise_grad("ReLU6Grad", ("y_grad", "x"), lambda dy, x: jnp.where((x > 0) & (x <= 6), dy, 0),
                            "Gradient of ``relu6``: ``dy`` where ``0 < x <= 6``, else 0.", 1)
EluGrad = _pointwise_grad("EluGrad", ("dy", "y"), lambda dy, y: jnp.where(y < 0, dy * (y + 1), dy),
                          "Gradient of ``elu`` (alpha 1) from its output ``y``: ``dy * (y + 1)`` where ``y < 0``.", 1)
HSwishGrad = _pointwise_grad(
    "HSwishGrad", ("y_grad", "x"),
    lambda dy, x: jnp.where(x < -3, 0, jnp.where(x > 3, dy, dy * (2 * x + 3) / 6)),
    "Gradient of ``hswish``: ``dy * (2x + 3) / 6`` on [-3, 3], ``dy`` above, 0 below.", 1)
HSigmoidGrad = _pointwise_grad("HSigmoidGrad", ("grads", "input_x"),
                               lambda dy, x: jnp.where((x > -3) & (x < 3), dy / 6, 0),
                               "Gradient of ``hsigmoid``: ``dy / 6`` inside (-3, 3), else 0.", 1)
SiLUGrad = _pointwise_grad("SiLUGrad", ("dout", "x"), _grad_of(lambda x: x * jax.nn.sigmoid(x)),
                           "Gradient of ``silu``: ``dy * s * (1 + x * (1 - s))`` with ``s = sigmoid(x)``.", 1)
SoftplusGrad = _pointwise_grad("SoftplusGrad", ("gradients", "features"),
                               lambda dy, x: dy * jax.nn.sigmoid(x), "Gradient of ``softplus``: ``dy * sigmoid(x)``.", 1)
FastGeLUGrad = _pointwise_grad("FastGeLUGrad", ("dy", "x"), _grad_of(_fast_gelu),
                               "Gradient of ``fast_gelu``.", 1)


class GeLUGrad(Primitive):
    """Gradient of ``gelu`` (the tanh approximation MindSpore's GeLU computes).

    Inputs:
        - **dy** (Tensor) - the gradient of the output.
        - **x** (Tensor) - the forward input.
        - **y** (Tensor) - the forward output (unused: the derivative needs ``x`` only).

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["dy", "x", "y"], ["z"])

    def __call__(self, dy, x, y):
        dy_array, x_array, _ = _same_shape_inputs("GeLUGrad", ("dy", "x", "y"), (dy, x, y))
        return wrap(_grad_of(_gelu_tanh)(dy_array.astype(x_array.dtype), x_array))


def _shrink_grad(name):
    class ShrinkGrad(Primitive):
        @prim_attr_register
        def __init__(self, lambd=0.5):
            self.lambd = _check_number(name, "lambd", lambd)

        def __call__(self, gradients, features):
            dy, x = _same_shape_inputs(name, ("gradients", "features"), (gradients, features))
            return wrap(jnp.where(jnp.abs(x) > self.lambd, dy.astype(x.dtype), 0).astype(x.dtype))

    ShrinkGrad.__name__ = ShrinkGrad.__qualname__ = name
    ShrinkGrad.__doc__ = (f"Gradient of ``{name[:-4].lower()}``: ``dy`` where ``|x| > lambd``, else 0.\n\n"
                          "    Args:\n        lambd (float): the forward threshold. Default: 0.5.\n")
    return ShrinkGrad


HShrinkGrad = _shrink_grad("HShrinkGrad")
SoftShrinkGrad = _shrink_grad("SoftShrinkGrad")


# Generated from their op-table entries (sporax.ops.functional.gradient_kernels).
LogitGrad = primitive_class(PRIMITIVES["LogitGrad"], __name__)
LogSoftmaxGrad = primitive_class(PRIMITIVES["LogSoftmaxGrad"], __name__)


class IgammaGradA(Primitive):
    """Derivative of ``igamma(a, x)`` (the regularized lower incomplete gamma) with respect to ``a``.

    Inputs:
        - **a** (Tensor) - float, the shape parameter.
        - **x** (Tensor) - the point, broadcastable against ``a``, same dtype.

    Outputs:
        Tensor of the broadcast shape, the dtype of ``a``.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["a", "x"], ["z"])

    def __call__(self, a, x):
        a_array, x_array = array_of("IgammaGradA", "a", a), array_of("IgammaGradA", "x", x)
        if a_array.dtype not in (jnp.float32, jnp.float64) or x_array.dtype != a_array.dtype:
            raise TypeError(f"For 'IgammaGradA', 'a' and 'x' must be Tensors of one dtype, float32 or float64, but "
                            f"got {mstype.from_numpy_dtype(a_array.dtype)} and "
                            f"{mstype.from_numpy_dtype(x_array.dtype)}.")
        a_array, x_array = jnp.broadcast_arrays(a_array, x_array)
        return wrap(jax.lax.igamma_grad_a(a_array, x_array))
