"""A Cell's custom ``bprop``: ``bprop(self, *inputs, out, dout)`` returns the inputs' gradients.

``call_with_bprop(cell, args, kwargs)`` runs ``construct`` under ``jax.custom_vjp`` so that
differentiation uses the Cell's ``bprop``. The Cell's Parameters enter as explicit inputs of
the custom function (JAX does not allow differentiating closed-over values; lifted as everywhere,
``sporax.state.lifting``) and, as in MindSpore, receive zero gradients from a custom bprop.
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.autodiff.transforms import to_arrays, to_tensors
from sporax.state.lifting import Lift


def reduce_to_input(gradient, primal):
    """A bprop's gradient for ``primal``, in its shape and dtype.

    As MindSpore: a gradient whose shape the input broadcasts to is summed over the broadcast axes
    (the input was broadcast in the forward pass); one that would itself need broadcasting is refused.
    """
    shape, target = tuple(primal.shape), tuple(gradient.shape)
    if target != shape:
        try:
            broadcast = np.broadcast_shapes(shape, target)
        except ValueError:
            broadcast = None
        if broadcast != target:
            raise RuntimeError("For grad interface or custom function, grad tensor should be broadcast to expected "
                               f"shape, but got {list(target)} vs {list(shape)}: a bprop must return each input's "
                               "gradient in that input's shape (or in a shape the input broadcasts to).")
        lead = len(target) - len(shape)
        axes = tuple(range(lead)) + tuple(lead + axis for axis, size in enumerate(shape)
                                          if size == 1 and target[lead + axis] != 1)
        gradient = jnp.sum(gradient, axis=axes).reshape(shape)
    return gradient.astype(primal.dtype)


def has_bprop(cell):
    return callable(getattr(type(cell), "bprop", None))


def call_with_bprop(cell, args, kwargs, construct=None):
    """Call ``cell`` (its ``construct``, or ``construct`` given) with gradients from ``cell.bprop``."""
    run = construct or cell.construct
    positions = [index for index, value in enumerate(args) if isinstance(value, Tensor)]
    states = [parameter for _, parameter in cell.parameters_and_names()] if hasattr(cell, "parameters_and_names") else []
    name = f"{type(cell).__name__}.bprop"

    def rebuild(arrays):
        call_args = list(args)
        for position, array in zip(positions, arrays):
            call_args[position] = Tensor._wrap(array)
        return call_args

    lifted = Lift(lambda arrays: run(*rebuild(arrays), **kwargs), states, name)
    backward_lift = Lift(lambda arrays, out, dout: cell.bprop(*rebuild(arrays), out, dout), states, name)

    @jax.custom_vjp
    def forward(state_values, arrays):
        outputs, new_values = lifted(list(state_values), arrays)
        return to_arrays(outputs), lifted.written_values(new_values)

    def forward_with_residuals(state_values, arrays):
        out = forward(state_values, arrays)
        return out, (state_values, arrays, out[0])

    def backward(residuals, cotangents):
        state_values, arrays, out = residuals
        dout = cotangents[0]  # the written states' new values carry no gradient
        # The bprop runs in the backward pass: a replay, its state writes are dropped.
        grads, _ = backward_lift(list(state_values), arrays, to_tensors(out), to_tensors(dout))
        if not isinstance(grads, (tuple, list)):
            grads = (grads,)
        if len(grads) < len(positions):
            raise ValueError(f"{type(cell).__name__}.bprop returned {len(grads)} gradients, but construct has "
                             f"{len(positions)} Tensor inputs: return one gradient per input.")
        input_grads = []
        for grad, array in zip(grads[:len(positions)], arrays):
            value = grad._value if isinstance(grad, Tensor) else jnp.asarray(grad)
            input_grads.append(reduce_to_input(value, array))
        zero_states = [jnp.zeros_like(value) for value in state_values]
        return zero_states, input_grads

    forward.defvjp(forward_with_residuals, backward)
    outputs, written = forward(lifted.values(), [args[position]._value for position in positions])
    lifted.store_written(written)
    return to_tensors(outputs)
