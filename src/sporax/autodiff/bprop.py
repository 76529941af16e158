"""A Cell's custom ``bprop``: ``bprop(self, *inputs, out, dout)`` returns the inputs' gradients.

``call_with_bprop(cell, args, kwargs)`` runs ``construct`` under ``jax.custom_vjp`` so that
differentiation uses the Cell's ``bprop``. The Cell's Parameters enter as explicit inputs of
the custom function (JAX does not allow differentiating closed-over values; lifted as everywhere,
``sporax.state.lifting``). A bprop returns the inputs' gradients, and may add its Parameters'
gradients as a dict, ``return (dx, dy), {self.weight: dweight}`` (the form MindSpore's
``Recompute`` cell uses); Parameters it does not name get zero gradients.

With ``set_context(check_bprop=True)`` the returned gradients are checked as MindSpore checks them: one
per argument, each of its argument's shape and dtype.
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import context
from sporax.core.dtype import from_numpy_dtype
from sporax.core.tensor import Tensor
from sporax.autodiff.transforms import to_arrays, to_tensors
from sporax.state.discovery import rng_state
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


def _array(value):
    return value._value if isinstance(value, Tensor) else jnp.asarray(value)


def _split_weight_gradients(grads, cell, states):
    """``(input gradients, one gradient or None per state)`` from what a bprop returned.

    A trailing dict maps Parameters (or their names) to their gradients; without one, every
    Parameter gets None (a zero gradient)."""
    if not isinstance(grads, (tuple, list)):
        return (grads,), [None] * len(states)
    if not grads or not isinstance(grads[-1], dict):
        return tuple(grads), [None] * len(states)
    by_parameter, inputs = grads[-1], tuple(grads[:-1])
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])  # ((dx, dy), {w: dw})
    index_of = {id(state): index for index, state in enumerate(states)}
    by_name = {getattr(state, "name", None): index for index, state in enumerate(states)}
    weight_grads = [None] * len(states)
    for key, gradient in by_parameter.items():
        index = index_of.get(id(key), by_name.get(key) if isinstance(key, str) else None)
        if index is None:
            label = key if isinstance(key, str) else getattr(key, "name", type(key).__name__)
            raise ValueError(f"{type(cell).__name__}.bprop returned a gradient for {label!r}, which is not a "
                             f"Parameter of {type(cell).__name__}: key the dict of weight gradients by the "
                             "Cell's own Parameters (or their names).")
        weight_grads[index] = gradient
    return inputs, weight_grads


def _check_bprop(cell, grads, args):
    """MindSpore's ``check_bprop=True``: a gradient per argument, each of its argument's shape and dtype.

    MindSpore 2.10 raises TypeError for a wrong count in PyNative mode and ValueError in GRAPH_MODE."""
    owner = f"For user defined method 'bprop' of net '{type(cell).__name__}'"
    if len(grads) != len(args):
        error = TypeError if context.get_mode() == context.PYNATIVE_MODE else ValueError
        raise error(f"{owner}, the number of return values(gradients) should be equal to the number of input "
                    f"arguments except 'out' and 'dout', which is: {len(args)}, but got:{len(grads)}.")
    for index, (grad, arg) in enumerate(zip(grads, args)):
        if not isinstance(arg, Tensor) or not isinstance(grad, (Tensor, jax.Array)):
            continue
        grad = _array(grad)
        which = f"{owner}, the {index}th return value(gradient of the {index}th argument) should have the same"
        if tuple(grad.shape) != tuple(arg.shape):
            raise ValueError(f"{which} shape as the {index}th argument, which is:{tuple(arg.shape)}, but got: "
                             f"{tuple(grad.shape)}.")
        if grad.dtype != arg._value.dtype:
            raise TypeError(f"{which} dtype as the {index}th argument, which is:{from_numpy_dtype(arg._value.dtype)}, "
                            f"but got: {from_numpy_dtype(grad.dtype)}.")


def _zero_cotangent(value):
    """No gradient for ``value``: zeros, of JAX's float0 for an integer state (the RNG key)."""
    if jnp.issubdtype(value.dtype, jnp.inexact):
        return jnp.zeros_like(value)
    return np.zeros(value.shape, jax.dtypes.float0)


def has_bprop(cell):
    return callable(getattr(type(cell), "bprop", None))


def call_with_bprop(cell, args, kwargs, construct=None):
    """Call ``cell`` (its ``construct``, or ``construct`` given) with gradients from ``cell.bprop``."""
    run = construct or cell.construct
    positions = [index for index, value in enumerate(args) if isinstance(value, Tensor)]
    states = [parameter for _, parameter in cell.parameters_and_names()] if hasattr(cell, "parameters_and_names") else []
    # construct may draw random numbers (the tutorial's Dropout2D under a bprop): the RNG state is lifted too, so
    # its advance leaves the custom function as an output instead of leaking out of the trace
    states.append(rng_state())
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
        grads, weight_grads = _split_weight_gradients(grads, cell, states)
        if context.get_context("check_bprop"):
            _check_bprop(cell, grads, args)
        if len(grads) < len(positions):
            # MindSpore 2.10 raises RuntimeError ('Grad size should lager than forward inputs') in both modes
            raise RuntimeError(f"Grad size should be larger than forward inputs, but got {len(grads)} vs "
                               f"{len(positions)}: {type(cell).__name__}.bprop must return one gradient per input.")
        input_grads = [reduce_to_input(_array(grad), array) for grad, array in zip(grads[:len(positions)], arrays)]
        state_grads = [_zero_cotangent(value) if grad is None else reduce_to_input(_array(grad), value)
                       for grad, value in zip(weight_grads, state_values)]
        return state_grads, input_grads

    forward.defvjp(forward_with_residuals, backward)
    outputs, written = forward(lifted.values(), [args[position]._value for position in positions])
    lifted.store_written(written)
    return to_tensors(outputs)
