"""What ``grad`` differentiates for each input, and the shape its gradient comes back in.

A Tensor input is differentiated through its array; in GRAPH_MODE a ``mutable`` tuple, list or dict
of Tensors is differentiated element by element and its gradient comes back as the same kind of
container (MindSpore 2.10's behaviour); integer inputs get zeros, as MindSpore gives.

Example:
    >>> from sporax import Tensor
    >>> from sporax.autodiff.grad_inputs import container_gradient
    >>> import jax.numpy as jnp
    >>> grads = container_gradient([Tensor([1.0]), Tensor([2.0])], (jnp.ones(1), jnp.zeros(1)))
    >>> type(grads).__name__, [float(g.asnumpy()[0]) for g in grads]
    ('list', [1.0, 0.0])
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.context import GRAPH_MODE, get_mode
from sporax.core.tensor import Tensor
from sporax.state.arguments import MutableMarker
from sporax.state.discovery import is_parameter


def normalize_weights(weights, api):
    """``(weights as a tuple, 'single' or 'tuple')`` for grad's ``weights`` argument, or ``(None, None)``."""
    if weights is None:
        return None, None
    if is_parameter(weights):
        return (weights,), "single"
    if isinstance(weights, (list, tuple)):
        weights = tuple(weights)
        for weight in weights:
            if not is_parameter(weight):
                raise TypeError(f"For '{api}', 'weights' must be a Parameter, a list/tuple of Parameters or a "
                                f"ParameterTuple, but it contains {type(weight).__name__}. Pass "
                                "net.trainable_params() or optimizer.parameters.")
        return weights, "tuple"
    raise TypeError(f"For '{api}', 'weights' must be a Parameter, a list/tuple of Parameters or a "
                    f"ParameterTuple, but got {type(weights).__name__}.")


def float0_to_zeros(gradient, primal):
    if gradient.dtype == jax.dtypes.float0:
        return jnp.zeros(np.shape(primal), primal.dtype)
    return gradient


def is_integer(value):
    """An integer or Bool input: JAX has no tangents for it, its gradient comes from a float32 run (MindSpore's
    bprops give Bool inputs theirs too, e.g. SparseToDense's values)."""
    return not isinstance(value, (tuple, dict)) and (jnp.issubdtype(value.dtype, jnp.integer)
                                                     or value.dtype == jnp.bool_)


def tensors_only(value):
    if isinstance(value, Tensor):
        return True
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (tuple, list)) else None
    return items is not None and len(items) > 0 and all(tensors_only(item) for item in items)


def differentiable(value, graph):
    """A Tensor, or in GRAPH_MODE a ``mutable`` tuple, list or dict of Tensors (nested ones too): MindSpore
    2.10's GRAPH_MODE differentiates it element by element; PyNative, like MindSpore's, gives it none."""
    if isinstance(value, Tensor):
        return True
    return graph and isinstance(value, MutableMarker) and tensors_only(value)


def primal(value):
    """What ``grad`` differentiates for an input: a Tensor's array; a container's, as tuples and dicts."""
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, dict):
        return {key: primal(item) for key, item in value.items()}
    return tuple(primal(item) for item in value)


def rebound(original, primal):
    """``original`` (a container of Tensors) holding the Tensors of ``primal``, its kinds kept."""
    if isinstance(original, Tensor):
        return Tensor._wrap(primal)
    if isinstance(original, dict):
        return type(original)({key: rebound(item, primal[key]) for key, item in original.items()})
    return type(original)(rebound(item, value) for item, value in zip(original, primal))


def container_gradient(original, gradient):
    """The gradient of a container input: Tensors in tuples, lists and dicts shaped as ``original``."""
    if isinstance(original, Tensor):
        return Tensor._wrap(gradient)
    if isinstance(original, dict):
        return {key: container_gradient(item, gradient[key]) for key, item in original.items()}
    items = [container_gradient(item, value) for item, value in zip(original, gradient)]
    return items if isinstance(original, list) else tuple(items)


def unique_at(args, position):
    """Whether the Tensor at ``position`` of ``args`` is passed at no other position."""
    return sum(arg is args[position] for arg in args) == 1


def tensor_owners(args, positions):
    """PyNative differentiates Tensors, not argument slots: for each input, the index of the first
    input that is the same Tensor object. When one Tensor is passed at several positions, every one
    of them gets the gradient of that Tensor (the sum over its uses), as MindSpore's PyNative mode
    gives; GRAPH_MODE keeps one gradient per slot. None when no differentiated input is repeated."""
    first = {}
    owners = tuple(first.setdefault(id(arg), index) if isinstance(arg, Tensor) else index
                   for index, arg in enumerate(args))
    if all(owner == index for index, owner in enumerate(owners)):
        return None
    chosen = {owners[position] for position in positions}
    if not any(owners[index] in chosen for index in range(len(args)) if owners[index] != index):
        return None
    return owners


def cotangent(value):
    if jnp.issubdtype(value.dtype, jnp.inexact):
        return jnp.ones_like(value)
    return np.zeros(value.shape, jax.dtypes.float0)


def normalize_positions(grad_position, api):
    """``grad_position`` as a tuple of positions and the structure of their gradients ('single'/'tuple')."""
    if grad_position is None:
        return None, None
    if isinstance(grad_position, bool) or not isinstance(grad_position, (int, tuple, list)):
        raise TypeError(f"For '{api}', the 'grad_position' must be int, tuple of int or None, but got "
                        f"{type(grad_position).__name__}.")
    if isinstance(grad_position, int):
        positions = (grad_position,)
    else:
        positions = tuple(grad_position)
        if not positions:
            raise ValueError(f"For '{api}', the 'grad_position' must not be empty when it is a tuple.")
    for position in positions:
        if isinstance(position, bool) or not isinstance(position, int) or position < 0:
            raise ValueError(f"For '{api}', every 'grad_position' must be a non-negative int, but got {position!r}.")
    # MindSpore returns a single Tensor for an int position and for a one-element tuple.
    return positions, ("single" if len(positions) == 1 else "tuple")


def scalar_zeros(args, positions, graph):
    """GRAPH_MODE gives a ``mutable`` int or float input a zero gradient of its Python type (0 or 0.0) in its
    place among the gradients (MindSpore 2.10); PyNative, like MindSpore's, leaves it out. Returns
    ``{position: zero}``."""
    if not graph:
        return {}
    return {position: 0 if isinstance(args[position], int) else 0.0 for position in positions
            if isinstance(args[position], MutableMarker) and isinstance(args[position], (int, float))}


def with_scalar_zeros(result, zeros, positions, position_mode, function):
    """``result`` of ``function`` (a GradFunction run w.r.t. the Tensor positions, as a tuple) with ``zeros``
    put in at their ``positions`` and structured by ``position_mode``."""
    def merge(inputs):
        given = iter(inputs)
        merged = tuple(((position, zeros[position]) if function.return_ids else zeros[position])
                       if position in zeros else next(given) for position in positions)
        return merged[0] if position_mode == "single" else merged

    def grads_merged(grads):
        return (merge(grads[0]), grads[1]) if function.weight_mode is not None else merge(grads)

    if function.get_value:
        return result[0], grads_merged(result[1])
    if function.has_aux:
        return grads_merged(result[0]), result[1]
    return grads_merged(result)


def differentiated_output(outputs, has_aux, api):
    """What a gradient differentiates of ``fn``'s ``outputs``: all of them, or with ``has_aux`` the first.

    MindSpore 2.10 refuses ``has_aux`` on a function returning one output (ValueError; RuntimeError in GRAPH_MODE), and on one returning
    ``(loss, aux)`` whose aux is a lone Python scalar, string or None (a Tensor or a sequence is fine).

    Example:
        >>> differentiated_output((1.0, (2.0,)), True, "grad")
        1.0
    """
    if not has_aux:
        return outputs
    if not isinstance(outputs, (tuple, list)) or len(outputs) < 2:
        got = f"a tuple of {len(outputs)}" if isinstance(outputs, (tuple, list)) else f"one {type(outputs).__name__}"
        # GRAPH_MODE reports it from the graph compiler (RuntimeError); PyNative, even under jit, as ValueError
        error = RuntimeError if get_mode() == GRAPH_MODE else ValueError
        raise error(f"When has_aux is True, origin fn requires more than one outputs.\n(For '{api}': the "
                         f"function returned {got}; return (output, aux, ...).)")
    if len(outputs) == 2 and (outputs[1] is None or isinstance(outputs[1], (bool, int, float, str))):
        raise RuntimeError(f"If you set has_aux for grad or value_and_grad, that forward function should be multi "
                           f"output, but got {type(outputs[1]).__name__} as its second output. (For '{api}': return "
                           "the aux values as Tensors or in a tuple, e.g. `return loss, (count,)`.)")
    return outputs[0]


def sensitivity(value, output, api, graph):
    """The cotangent a ``sens_param`` value seeds for one ``output`` array (its dtype and shape).

    A value that broadcasts to the output's shape is broadcast. MindSpore 2.10 also takes a one-element
    sensitivity for a scalar output (``F.tuple_to_array((sens,))`` seeding a scalar loss, as many
    model-zoo training cells do), and in GRAPH_MODE one of the output's size whose shape differs only
    by 1-sized axes ((4, 1) or (1, 4) for (4,)): the backward of the output's last op reshapes it.

    Example:
        >>> import jax.numpy as jnp
        >>> sensitivity(jnp.array([2.0]), jnp.zeros(()), "GradOperation", graph=False).shape
        ()
    """
    array = jnp.asarray(value, output.dtype)
    if array.shape == output.shape:
        return array
    squeezed = tuple(size for size in array.shape if size != 1)
    if array.size == output.size and (output.ndim == 0 or (graph and squeezed == tuple(
            size for size in output.shape if size != 1))):
        return array.reshape(output.shape)
    try:
        return jnp.broadcast_to(array, output.shape)
    except ValueError:
        raise ValueError(f"For '{api}' with sens_param=True, the sensitivity of shape {array.shape} does not fit "
                         f"the output of shape {output.shape}: give a sensitivity of the output's shape (or one "
                         "that broadcasts to it).") from None
