"""Gradients for integer inputs and Parameters of ``mindspore.grad``, as MindSpore gives them.

JAX has no tangents for integers; MindSpore differentiates an integer input as if it were a float and casts the
gradient back. ``integer_gradients`` reruns the function with those inputs as float32 through a replay of its lift
(its state writes are dropped) and keeps the result only where the float run reproduces the integer outputs.
"""
import jax
import jax.numpy as jnp

from sporax.autodiff import grad_inputs
from sporax.core.tensor import Tensor
from sporax.state.fallback import is_untraceable
from sporax.state.lifting import Lift
from sporax.state.scope import is_tracing


def integer_gradients(gradient, fn, args, kwargs, sens, positions, states, current, position_values, position_grads,
                      primal_leaves, weight_index, weight_values, weight_grads):
    """Gradients for integer inputs and Parameters, as MindSpore gives them: the function differentiated with
    those as float32 (JAX has no tangents for integers), cast back to their dtype. They are kept only where the
    float run gives the integer run's outputs (no overflow, no integer division); otherwise, and where the
    function cannot run on floats, they stay zero. Returns ``(position_grads, weight_grads)``."""
    integer = [index for index, value in enumerate(position_values) if grad_inputs.is_integer(value)]
    integer += [len(position_values) + index for index, value in enumerate(weight_values)
                if grad_inputs.is_integer(value)]  # weights numbered after the inputs
    inputs_and_weights = list(position_values) + list(weight_values)
    has_aux = gradient.has_aux
    replay = Lift(fn, states, gradient.name)

    def float_run(chosen):
        """Gradients of the ``chosen`` integer inputs run as float32 (others stay integers), or None on failure."""
        def shadowed(primals):
            call_args, values = list(args), list(current)
            for index, value in zip(chosen, primals):
                if index < len(position_values):
                    call_args[positions[index]] = Tensor._wrap(value)
                else:
                    values[weight_index[index - len(position_values)]] = value
            outputs, _ = replay(values, *call_args, **kwargs)  # a replay: its writes are dropped
            target = grad_inputs.differentiated_output(outputs, has_aux, gradient.api)
            return [leaf for leaf in jax.tree_util.tree_leaves(target)
                    if isinstance(leaf, (jax.Array, jax.core.Tracer))]

        try:
            floats = [inputs_and_weights[index].astype(jnp.float32) for index in chosen]
            leaves, pullback = jax.vjp(shadowed, floats)
            if len(leaves) != len(primal_leaves):
                return None
            if sens is None:
                cotangents = [grad_inputs.cotangent(leaf) for leaf in leaves]
            else:
                cotangents = [jnp.broadcast_to(jnp.asarray(value, leaf.dtype), leaf.shape)
                              for value, leaf in zip(jax.tree_util.tree_leaves(sens), leaves)]
            (grads,) = pullback(cotangents)
            same = jnp.asarray(True)
            for shadow, primal in zip(leaves, primal_leaves):
                same = same & jnp.all(shadow.astype(primal.dtype) == primal)
        except Exception as error:  # noqa: BLE001 - e.g. an index input cannot run as float
            if is_untraceable(error) and is_tracing():
                raise  # the whole gradient runs eagerly instead, where the float run can be traced
            return None  # eagerly too, the input is read as a value (an axis, a shape): it stays zero
        return grads, same

    # All integer inputs as floats first; when that fails (some are indices), leave one out, then
    # try each alone: the inputs of the first run that works get the derivative, the rest zero.
    attempts = [integer]
    if len(integer) > 1:
        attempts += [[i for i in integer if i != left_out] for left_out in integer]
        attempts += [[index] for index in integer] if len(integer) > 2 else []
    for chosen in attempts:
        result = float_run(chosen)
        if result is not None:
            break
    else:
        return position_grads, weight_grads
    grads, same = result
    all_grads = list(position_grads) + list(weight_grads)
    for index, gradient in zip(chosen, grads):
        dtype = inputs_and_weights[index].dtype
        all_grads[index] = jnp.where(same, gradient.astype(dtype), jnp.zeros_like(all_grads[index]))
    return all_grads[:len(position_values)], all_grads[len(position_values):]
