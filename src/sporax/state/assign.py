"""Storing a new value into a Parameter: the one place outside binding that rebinds a slot.

``ops.assign`` and the optimizer update ops store through ``write``; under a trace the leak
guard checks that an active scope owns the Parameter, so the value is lifted out and written
back after the compiled call.
"""
import math

import jax
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core import generator
from sporax.core.host_buffer import buffer_of
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.state import traced_views, views
from sporax.state.arguments import note_in_place
from sporax.state.guards import check_store


def rebind(state, array, op_name="assign", through_views=True):
    """Make ``state`` hold ``array`` as it is (any shape and dtype); returns ``state``. ``through_views=False``:
    the new array holds the same values (a gradient hook's wrapper), so the Tensors sharing ``state`` keep theirs."""
    if isinstance(state, Parameter):  # a temporary Tensor made inside the trace may hold tracers
        check_store(state, array, op_name)
    buffer = buffer_of(state)
    if buffer is None or not buffer.write(state, array):  # a Tensor.from_numpy writes into its array, as MindSpore
        state._array = array
        if buffer is None or not isinstance(array, jax.core.Tracer):
            state._init = None  # a value being traced stays in the slot for the trace only: the sharing goes on
    if through_views and not isinstance(array, jax.core.Tracer):
        views.after_write(state)  # a view's write shows in its root, a root's in its views
    elif through_views:
        traced_views.after_write(state, op_name)  # the same, functionally, in traced code
    return state


@jax.custom_jvp
def _assigned(old, new):
    return new


@_assigned.defjvp
def _assigned_jvp(primals, tangents):
    # MindSpore's Assign: the stored value carries the variable's gradient, none of the value's.
    return primals[1], tangents[0]


def assign(state, value, op_name="assign"):
    """``write`` with the gradient of MindSpore's Assign: later reads of ``state`` differentiate with respect
    to the Parameter itself, not to whatever computed ``value``."""
    old = state._array if isinstance(state, Tensor) else None
    write(state, value, op_name)
    return _keep_variable_gradient(state, old)


def set_parameter(parameter, value):
    """``self.weight = value`` inside a Cell's construct: ``Parameter.set_data`` with the gradient of
    MindSpore's Assign (its compiler turns the attribute store into one), so that a gradient of a later
    read reaches the Parameter, not the inputs that computed ``value``."""
    old = parameter._array
    parameter.set_data(value)
    return _keep_variable_gradient(parameter, old)


def _keep_variable_gradient(state, old):
    new = state._array
    if isinstance(old, jax.core.Tracer) or isinstance(new, jax.core.Tracer):
        if getattr(old, "shape", None) == new.shape and getattr(old, "dtype", None) == new.dtype:
            state._array = _assigned(old, new)
    return state


def write(state, value, op_name="assign"):
    """Rebind ``state``'s slot to ``value`` cast to its dtype; returns ``state``."""
    if not isinstance(state, Tensor):
        raise TypeError(f"For '{op_name}', the variable must be a Parameter, got {type(state).__name__}.")
    check_store(state, value, op_name)
    array = value._value if isinstance(value, Tensor) else jnp.asarray(value)
    target_shape = state.shape
    if tuple(array.shape) != tuple(target_shape):
        try:
            array = jnp.broadcast_to(array, target_shape)
        except ValueError:
            if array.size == math.prod(target_shape):  # (1,) into (): MindSpore's Assign accepts equal sizes
                note_in_place(state)
                return rebind(state, array.reshape(target_shape).astype(mstype.to_numpy_dtype(state.dtype)),
                              op_name)
            raise ValueError(f"For '{op_name}', the value of shape {tuple(array.shape)} cannot be stored in place "
                             f"into {getattr(state, 'name', 'the variable')!r} of shape "
                             f"{tuple(target_shape)}.") from None
    target = mstype.to_numpy_dtype(state.dtype)
    if array.dtype != target:
        array = array.astype(target)
    note_in_place(state)
    return rebind(state, array, op_name)


generator.use_parameter_writer(write)  # a Generator's step inside a trace is a lifted write too
