"""``vmap``, ``jvp``, ``vjp``, ``jacfwd``, ``jacrev`` with MindSpore's signatures and outputs.

The user's function sees Tensors; JAX's transforms see arrays. Parameters the function reads
are constants of the transform (``vjp(..., weights=...)`` differentiates w.r.t. them by binding
them for the length of the call, as ``grad`` does).
"""
import jax

from sporax.core.tensor import Tensor
from sporax.ops.lowering import plain_lowering
from sporax.state.assign import write
from sporax.state.binding import Bound, detach_outputs
from sporax.state.discovery import DiscoveryCache


def _is_tensor(value):
    return isinstance(value, Tensor)


def to_arrays(value):
    """The structure with every Tensor replaced by its array."""
    return jax.tree_util.tree_map(lambda leaf: leaf._value if isinstance(leaf, Tensor) else leaf, value,
                                  is_leaf=_is_tensor)


def to_tensors(value):
    """The structure with every array replaced by a Tensor."""
    return jax.tree_util.tree_map(
        lambda leaf: Tensor._wrap(leaf) if isinstance(leaf, (jax.Array, jax.core.Tracer)) else leaf, value)


def _array_function(fn, has_aux=False):
    """``fn`` on Tensors as a function of arrays; with has_aux returns ``(output, aux)``.

    The Parameters ``fn`` can reach are bound to their current values for the call and restored
    after it: a state update inside a transform (BatchNorm statistics under ``vmap``) would
    otherwise leave a transform's tracer in the Parameter.
    """
    discovery = DiscoveryCache(fn)
    label = getattr(fn, "__qualname__", None) or type(fn).__name__

    def on_arrays(*arrays):
        states = discovery.get().states
        with Bound(states, [state._value for state in states], label):
            # a Tensor passed as is keeps its identity (vmap tracks in-place updates of it)
            outputs = detach_outputs(fn(*[item if isinstance(item, Tensor) else to_tensors(item) for item in arrays]))
        if has_aux:
            if not isinstance(outputs, (tuple, list)) or len(outputs) < 2:
                raise ValueError("With has_aux=True the function must return (output, aux, ...), a tuple of "
                                 "at least two values.")
            aux = outputs[1] if len(outputs) == 2 else tuple(outputs[1:])
            return to_arrays(outputs[0]), to_arrays(aux)
        return to_arrays(outputs)

    return on_arrays


def vmap(fn, in_axes=0, out_axes=0):
    """Vectorise ``fn`` over the ``in_axes`` of its inputs (``mindspore.vmap``).

    Args:
        fn (Union[Cell, Function]): the function to map.
        in_axes (Union[int, None, tuple]): the mapped axis of each input (None: not mapped). Default: 0.
        out_axes (Union[int, None, tuple]): where the mapped axis goes in the outputs. Default: 0.

    Returns:
        Function, the vectorised ``fn``.
    """
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    if isinstance(out_axes, list):
        out_axes = tuple(out_axes)
    function = _array_function(fn)

    def vectorised(*args):
        # Tensor arguments mapped along an axis may be updated in place by the function (an optimizer
        # Primitive on a Parameter): each comes back as an extra output on its own axis and is stored.
        axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
        tracked = [i for i, arg in enumerate(args)
                   if isinstance(arg, Tensor) and i < len(axes) and isinstance(axes[i], int)]
        written = []

        def with_updates(*arrays):
            tensors = [Tensor._wrap(array) if i in tracked else array for i, array in enumerate(arrays)]
            inner = [tensors[i] for i in tracked]
            with Bound(inner, [arrays[i] for i in tracked], "vmap") as bound:
                outputs = function(*tensors)
            written[:] = [new is not arrays[i] for new, i in zip(bound.new_values, tracked)]
            return outputs, tuple(bound.new_values)

        mapped = jax.vmap(with_updates, in_axes=axes if tracked else in_axes,
                          out_axes=(out_axes, tuple(axes[i] for i in tracked)))
        outputs, updates = mapped(*to_arrays(args))
        for i, changed, value in zip(tracked, written, updates):
            if changed:
                write(args[i], Tensor._wrap(value), "vmap")
        return to_tensors(outputs)

    return vectorised


def jvp(fn, inputs, v, has_aux=False):
    """Forward-mode product of ``fn``'s Jacobian at ``inputs`` with ``v``.

    Returns:
        ``(output, jvp)``, or ``(output, jvp, aux)`` with has_aux.
    """
    primals = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    tangents = tuple(v) if isinstance(v, (tuple, list)) else (v,)
    if len(primals) != len(tangents):
        raise ValueError(f"For 'jvp', 'v' must have one tangent per input: {len(primals)} inputs, {len(tangents)} "
                         "tangents.")
    function = _array_function(fn, has_aux)
    with plain_lowering():  # forward mode: the CPU lowerings with a hand-written VJP define no JVP
        if has_aux:
            output, tangent_out, aux = jax.jvp(function, to_arrays(primals), to_arrays(tangents), has_aux=True)
            return to_tensors(output), to_tensors(tangent_out), to_tensors(aux)
        output, tangent_out = jax.jvp(function, to_arrays(primals), to_arrays(tangents))
    return to_tensors(output), to_tensors(tangent_out)


def vjp(fn, *inputs, weights=None, has_aux=False):
    """Reverse-mode: ``fn``'s output and a function mapping a cotangent to the input gradients.

    Returns:
        ``(output, vjp_fn)`` or ``(output, vjp_fn, aux)``; ``vjp_fn(v)`` returns a tuple of input
        gradients, or ``(input_gradients, weight_gradients)`` when ``weights`` are given.
    """
    weight_list = None
    if weights is not None:
        weight_list = (weights,) if isinstance(weights, Tensor) else tuple(weights)
    function = _array_function(fn, has_aux)
    arrays = to_arrays(inputs)
    if weight_list is None:
        results = jax.vjp(function, *arrays, has_aux=has_aux)
    else:
        def with_weights(weight_values, *input_arrays):
            with Bound(list(weight_list), list(weight_values), "vjp"):
                return function(*input_arrays)

        results = jax.vjp(with_weights, [w._value for w in weight_list], *arrays, has_aux=has_aux)
    output, pullback = results[0], results[1]

    def vjp_fn(*cotangents):
        cotangent = cotangents[0] if len(cotangents) == 1 else cotangents
        grads = pullback(to_arrays(cotangent))
        if weight_list is None:
            return to_tensors(tuple(grads))
        return to_tensors(tuple(grads[1:])), to_tensors(tuple(grads[0]))

    if has_aux:
        return to_tensors(output), vjp_fn, to_tensors(results[2])
    return to_tensors(output), vjp_fn


def _jacobian(transform, fn, grad_position, has_aux, api):
    if isinstance(grad_position, list):
        grad_position = tuple(grad_position)
    if not isinstance(grad_position, (int, tuple)) or isinstance(grad_position, bool):
        raise TypeError(f"For '{api}', 'grad_position' must be an int or a tuple of int, but got "
                        f"{type(grad_position).__name__}.")
    jacobian = transform(_array_function(fn, has_aux), argnums=grad_position, has_aux=has_aux)
    forward_mode = transform is jax.jacfwd

    def compute(*args):
        if forward_mode:  # the CPU lowerings with a hand-written VJP define no JVP
            with plain_lowering():
                return to_tensors(jacobian(*to_arrays(args)))
        return to_tensors(jacobian(*to_arrays(args)))

    return compute


def jacfwd(fn, grad_position=0, has_aux=False):
    """The Jacobian of ``fn`` w.r.t. the inputs at ``grad_position``, by forward mode."""
    return _jacobian(jax.jacfwd, fn, grad_position, has_aux, "jacfwd")


def jacrev(fn, grad_position=0, has_aux=False):
    """The Jacobian of ``fn`` w.r.t. the inputs at ``grad_position``, by reverse mode."""
    return _jacobian(jax.jacrev, fn, grad_position, has_aux, "jacrev")
