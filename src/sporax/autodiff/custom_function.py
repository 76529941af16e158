"""``mindspore._Function``: custom autograd functions with a forward and a backward (PyTorch's form).

A subclass defines ``forward(ctx, *args)`` (or ``forward(*args)`` plus ``setup_context(ctx, inputs,
output)``) and ``backward(ctx, *grad_outputs)``, and is called through ``apply``. The call becomes a
``jax.custom_vjp`` over the Tensor arguments: the forward runs on them, and what the context keeps
for the backward pass (``save_for_backward``, Tensors assigned as ``ctx`` attributes) becomes the
VJP's residuals; other ``ctx`` attributes (Python values) are carried as they are. ``backward``
returns one gradient per ``forward`` argument (None where there is none, and for non-Tensor arguments).

As in MindSpore: gradients of outputs that do not reach the loss arrive as zeros, or as None after
``ctx.set_materialize_grads(False)``; outputs passed to ``ctx.mark_non_differentiable`` get zero
gradients; ``ctx.needs_input_grad`` says which arguments are Tensors. MindSpore runs these
functions in PyNative mode only; sporax also traces them under ``ms.jit`` and GRAPH_MODE.

Example:
    >>> import numpy as np, sporax as ms
    >>> class Square(ms._Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x
    ...     @staticmethod
    ...     def backward(ctx, grad):
    ...         x, = ctx.saved_tensors
    ...         return 2 * x * grad
    >>> x = ms.Tensor(np.array([1.0, 3.0], np.float32))
    >>> ms.grad(lambda t: Square.apply(t).sum())(x).asnumpy().tolist()
    [2.0, 6.0]
"""
import inspect

import jax
import jax.numpy as jnp
import numpy as np
from jax.custom_derivatives import SymbolicZero

from sporax.core.tensor import Tensor


class FunctionContext:
    """The ``ctx`` a custom function's forward fills and its backward reads."""

    def __init__(self, needs_input_grad):
        self.needs_input_grad = needs_input_grad
        self.saved_tensors = ()
        self.materialize_grads = True
        self.non_differentiable = ()
        self.dirty_tensors = ()

    def save_for_backward(self, *tensors):
        """Keep ``tensors`` (Tensors or None) for the backward pass, as ``ctx.saved_tensors``."""
        for tensor in tensors:
            if tensor is not None and not isinstance(tensor, Tensor):
                raise TypeError(f"save_for_backward takes Tensors (or None), but got {type(tensor).__name__}; keep "
                                "other values as ctx attributes (ctx.value = ...).")
        self.saved_tensors = tensors

    def mark_dirty(self, *args):
        """Record the inputs the forward modified in place (MindSpore keeps the record; sporax too)."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        """Give these outputs zero gradients (backward receives zeros for them)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        """With False, backward receives None (not zeros) for outputs that do not reach the loss."""
        self.materialize_grads = bool(value)


class _Function:
    """A custom autograd function: subclass it with static ``forward`` and ``backward``, call ``apply``.

    Inputs:
        - **args** -- the arguments of ``forward`` (Tensors are differentiated; other values are constants).

    Outputs:
        what ``forward`` returns (a Tensor or a tuple of Tensors).
    """

    _has_setup_context = False

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("forward function should be customized: define forward(ctx, *args) in the "
                                  "_Function subclass.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("backward function should be customized: define backward(ctx, *grad_outputs) "
                                  "in the _Function subclass, returning one gradient per forward argument.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Save what backward needs (used when ``forward`` takes no ctx)."""
        raise NotImplementedError("_Function.setup_context is not defined by this subclass: define "
                                  "setup_context(ctx, inputs, output) when forward takes no ctx, or take ctx as "
                                  "forward's first argument.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` on the arguments, with ``backward`` as its gradient."""
        cls._has_setup_context = cls.setup_context is not _Function.setup_context
        if cls._has_setup_context:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        return _apply(cls, args, kwargs)


def _is_array(value):
    return isinstance(value, (jax.Array, jax.core.Tracer, np.ndarray))


def _apply(cls, args, kwargs):
    name = cls.__name__
    tensor_slots = [index for index, value in enumerate(args) if isinstance(value, Tensor)]
    needs_input_grad = tuple(isinstance(value, Tensor) for value in args)
    record = {}

    def run_forward(arrays):
        """``forward`` on Tensors made of ``arrays``; returns (ctx, output leaves, output tree)."""
        call_args = list(args)
        for slot, array in zip(tensor_slots, arrays):
            call_args[slot] = Tensor._wrap(array)
        ctx = FunctionContext(needs_input_grad)
        if cls._has_setup_context:
            output = cls.forward(*call_args, **kwargs)
            cls.setup_context(ctx, tuple(call_args), output)
        else:
            output = cls.forward(ctx, *call_args, **kwargs)
        leaves, tree = jax.tree_util.tree_flatten(output, is_leaf=lambda value: isinstance(value, Tensor))
        return ctx, leaves, tree

    def split_outputs(leaves, tree):
        record["tree"] = tree
        record["template"] = [None if isinstance(leaf, Tensor) else leaf for leaf in leaves]
        return [leaf._value for leaf in leaves if isinstance(leaf, Tensor)]

    @jax.custom_vjp
    def function(arrays):
        _, leaves, tree = run_forward(arrays)
        return split_outputs(leaves, tree)

    def forward(arrays):
        arrays = [primal.value for primal in arrays]
        ctx, leaves, tree = run_forward(arrays)
        outputs = split_outputs(leaves, tree)
        tensor_outputs = [leaf for leaf in leaves if isinstance(leaf, Tensor)]
        blocked = {id(value) for value in ctx.non_differentiable}
        record["blocked"] = [id(leaf) in blocked for leaf in tensor_outputs]
        # Tensors the backward pass needs travel as residuals; every other ctx attribute is static.
        saved = [None if tensor is None else tensor._value for tensor in ctx.saved_tensors]
        attributes = {key: value for key, value in vars(ctx).items() if key != "saved_tensors"}
        tensor_attributes = {key: value._value for key, value in attributes.items() if isinstance(value, Tensor)}
        record["ctx"] = {key: value for key, value in attributes.items() if key not in tensor_attributes}
        record["shapes"] = [(array.shape, array.dtype) for array in arrays]
        return outputs, (saved, tensor_attributes)

    def backward(residuals, cotangents):
        saved, tensor_attributes = residuals
        ctx = FunctionContext(needs_input_grad)
        vars(ctx).update(record["ctx"])
        vars(ctx).update({key: Tensor._wrap(value) for key, value in tensor_attributes.items()})
        ctx.saved_tensors = tuple(None if value is None else Tensor._wrap(value) for value in saved)
        grads = []
        for cotangent, blocked in zip(cotangents, record["blocked"]):
            if isinstance(cotangent, SymbolicZero):
                zero = jnp.zeros(cotangent.aval.shape, cotangent.aval.dtype)
                grads.append(Tensor._wrap(zero) if ctx.materialize_grads or blocked else None)
            else:
                grads.append(Tensor._wrap(jnp.zeros_like(cotangent) if blocked else cotangent))
        result = cls.backward(ctx, *grads)
        result = result if isinstance(result, (tuple, list)) else (result,)
        if len(result) != len(args):
            raise RuntimeError(f"Function backward return a wrong number of gradients, expect: {len(args)} but: "
                               f"{len(result)}. {name}.backward must return one gradient per forward argument "
                               "(None for arguments without one).")
        input_grads = []
        for slot, (shape, dtype) in zip(tensor_slots, record["shapes"]):
            grad = result[slot]
            if not jnp.issubdtype(dtype, jnp.inexact):
                input_grads.append(np.zeros(shape, jax.dtypes.float0))  # integer inputs take no gradient
                continue
            if grad is None:
                input_grads.append(jnp.zeros(shape, dtype))
                continue
            if not isinstance(grad, Tensor):
                raise TypeError(f"{name}.backward must return Tensors or None, but returned "
                                f"{type(grad).__name__} for argument {slot}.")
            try:
                input_grads.append(jnp.broadcast_to(grad._value, shape).astype(dtype))
            except ValueError:
                raise ValueError(f"{name}.backward returned a gradient of shape {tuple(grad.shape)} for argument "
                                 f"{slot}, whose shape is {tuple(shape)}.") from None
        return (input_grads,)

    function.defvjp(forward, backward, symbolic_zeros=True)
    outputs = iter(function([args[slot]._value for slot in tensor_slots]))
    leaves = [Tensor._wrap(next(outputs)) if item is None else item for item in record["template"]]
    return jax.tree_util.tree_unflatten(record["tree"], leaves)
