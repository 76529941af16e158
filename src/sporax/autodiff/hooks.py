"""Gradient hooks: ``ops.HookBackward`` and ``ops.InsertGradientOf``.

Both are identities in the forward pass whose backward pass calls a user function on the
gradient (``jax.custom_vjp``). Inside a compiled program the function runs while the backward
pass is traced; a ``print`` of a gradient there prints its run-time value (``sporax.state``
routes it through ``jax.debug.callback``).

As in MindSpore 2.10, ``HookBackward`` works in PyNative mode only: in GRAPH_MODE and inside
``ms.jit`` it is removed from the program with a warning (the gradient passes unchanged). A
PyNative ``grad`` that reaches one runs eagerly, so the hook sees the gradients' values.
"""
import warnings

import jax
import jax.numpy as jnp

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.ops.primitive import Primitive
from sporax.state import fallback


def in_graph():
    """True in GRAPH_MODE or while a user's ``ms.jit`` function (not a PyNative grad) is traced."""
    if context.get_mode() == context.GRAPH_MODE:
        return True
    # runtime_print counts the traces running; the strict ones are PyNative grads compiled by sporax.
    return fallback._print_depth[0] > fallback._strict_depth[0]


def _array(value, like):
    array = value._value if isinstance(value, Tensor) else jnp.asarray(value)
    return jnp.broadcast_to(array.astype(like.dtype), like.shape)


def _hooked_identity(arrays, hook, again=False):
    """``arrays`` unchanged, whose gradients pass through ``hook``; with ``again``, a gradient of a gradient
    passes through it too (MindSpore's HookBackward: an outer gradient differentiates the forward pass
    again, hook included, while its own rule is plain code to JAX's outer level)."""
    @jax.custom_vjp
    def identity(*values):
        return values

    def forward(*values):
        return (_hooked_identity(values, hook, again) if again else values), None

    def backward(_, gradients):
        return hook(gradients)

    identity.defvjp(forward, backward)
    return identity(*arrays)


def _hook_result(result, count, name):
    """The new gradients a HookBackward hook returned (None: keep them), checked as MindSpore 2.10 checks
    them: one input takes a Tensor or a 1-tuple; several take a tuple with one gradient each."""
    if result is None:
        return None
    if count == 1:
        if isinstance(result, Tensor):
            return (result,)
        if type(result) is tuple and len(result) == 1:
            result = result[0]
        if isinstance(result, Tensor):
            return (result,)
        raise TypeError(f"The output type of function: {name} should be a tensor but got {type(result).__name__}. "
                        "(A HookBackward hook with one input returns its new gradient, a 1-tuple of it, or None.)")
    if type(result) is not tuple or len(result) != count:
        raise TypeError(f"The output gradient should be a tuple! (HookBackward hook {name} returned "
                        f"{type(result).__name__} for {count} inputs: return a tuple of {count} gradients, or None.)")
    for item in result:
        if not isinstance(item, Tensor):
            raise TypeError(f"The output type of function: {name} should be a tensor but got {type(item).__name__}. "
                            f"(HookBackward hook {name}: return a tuple of {count} Tensors, or None.)")
    return result


class HookBackward(Primitive):
    """Call ``hook_fn`` on the gradients flowing back into the inputs; it may replace them.

    Args:
        hook_fn (Callable): receives a tuple of gradient Tensors (one per input) and returns
            None (keep them) or a tuple of new gradients (with one input, also the new gradient itself).
        cell_id (str): accepted for compatibility. Default: ''.

    Inputs:
        - **inputs** (Tensor) -- passed through unchanged.

    Outputs:
        The input (one input) or the tuple of inputs.
    """

    def __init__(self, hook_fn, cell_id=""):
        super().__init__("HookBackward")
        if not callable(hook_fn):
            raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}. "
                            "(For 'HookBackward', 'hook_fn' must be callable.)")
        self.hook_fn = hook_fn
        self.cell_id = cell_id

    def __call__(self, *inputs):
        if in_graph():
            warnings.warn("HookBackward does not work in GRAPH_MODE or in functions decorated with 'jit': it is "
                          "removed from the compiled program and the gradient passes unchanged. Use "
                          "Cell.register_backward_hook or Tensor.register_hook there.", stacklevel=2)
            return inputs[0] if len(inputs) == 1 else tuple(inputs)
        if fallback.compiling_pynative():
            # PyNative calls the hook with the gradients' values on every backward pass (it may print or
            # keep them); the PyNative gradient runs eagerly instead of compiling it once.
            raise fallback.ExplainedFallback("HookBackward inside a PyNative gradient: its hook runs with the "
                                             "gradients' values on every call.")
        arrays = [value._value for value in inputs]
        name = getattr(self.hook_fn, "__name__", "hook_fn")

        def hook(gradients):
            result = _hook_result(self.hook_fn(tuple(Tensor._wrap(g) for g in gradients)), len(gradients), name)
            return tuple(gradients) if result is None else tuple(map(_array, result, gradients))

        outputs = _hooked_identity(arrays, hook, again=True)
        if len(inputs) == 1:
            return Tensor._wrap(outputs[0])
        return tuple(Tensor._wrap(output) for output in outputs)


class InsertGradientOf(Primitive):
    """The identity, whose gradient is ``f(gradient)`` (for example a gradient clip).

    Args:
        f (Callable): maps the incoming gradient Tensor to the gradient passed on.

    Inputs:
        - **input_x** (Tensor) -- passed through unchanged.

    Outputs:
        Tensor, ``input_x``.
    """

    def __init__(self, f):
        super().__init__("InsertGradientOf")
        if not callable(f):
            raise TypeError(f"For 'InsertGradientOf', 'f' must be callable, but got {type(f).__name__}.")
        self.f = f

    def __call__(self, input_x):
        def hook(gradients):
            return (_array(self.f(Tensor._wrap(gradients[0])), gradients[0]),)

        return Tensor._wrap(_hooked_identity([input_x._value], hook)[0])
