"""``vmap``, ``jvp``, ``vjp``, ``jacfwd``, ``jacrev`` with MindSpore's signatures and outputs.

The user's function sees Tensors; JAX's transforms see arrays. The state the function can reach
is lifted (``sporax.state.lifting``): ``vjp(..., weights=...)`` differentiates w.r.t. the weights'
values as ``grad`` does; ``jvp``, ``vjp`` and the jacobians write back the Parameters the function
assigns (BatchNorm statistics) once, after the transform; under ``vmap`` only the mapped Tensor
arguments are written back (along their axis), other state is read-only.
"""
import jax

from sporax.core.dtype import from_numpy_dtype
from sporax.core.tensor import Tensor
from sporax.ops.lowering import plain_lowering
from sporax.state.discovery import DiscoveryCache
from sporax.state.lifting import Lift


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


def _array_function(fn, has_aux=False, weights=None, state_out=False):
    """``fn`` on Tensors as a function of arrays; with has_aux returns ``(output, aux)``.

    The state ``fn`` can reach (and ``weights``) is lifted (``sporax.state.lifting``). With
    ``weights`` the function takes their values first. With ``state_out`` it also returns the new
    values of the states it wrote, as an aux output (``(output, written)`` or
    ``(output, (aux, written))``) that the transform hands back as primal values; the caller then
    writes them back with ``on_arrays.write_back(written)``. Without it (``vmap``, ``linearize``,
    a ``lax.switch`` branch, a ``while_loop`` body) the state is read-only there: writes are dropped.
    """
    discovery = DiscoveryCache(fn)
    label = getattr(fn, "__qualname__", None) or type(fn).__name__
    weights = list(weights or ())
    latest = []

    def on_tensors(*arrays):
        # a Tensor passed as is keeps its identity (vmap tracks in-place updates of it)
        return fn(*[item if isinstance(item, Tensor) else to_tensors(item) for item in arrays])

    def on_arrays(*arrays):
        states = discovery.get().states
        if weights:
            known = {id(state) for state in states}
            states = states + [weight for weight in weights if id(weight) not in known]
        lifted = Lift(on_tensors, states, label)
        latest[:] = [lifted]
        values = lifted.values()
        if weights:
            index_of = {id(state): index for index, state in enumerate(states)}
            for weight, value in zip(weights, arrays[0]):
                values[index_of[id(weight)]] = value
            arrays = arrays[1:]
        outputs, new_values = lifted(values, *arrays)
        written = lifted.written_values(new_values)
        if has_aux:
            if not isinstance(outputs, (tuple, list)) or len(outputs) < 2:
                raise ValueError("With has_aux=True the function must return (output, aux, ...), a tuple of "
                                 "at least two values.")
            aux = outputs[1] if len(outputs) == 2 else tuple(outputs[1:])
            if state_out:
                return to_arrays(outputs[0]), (to_arrays(aux), written)
            return to_arrays(outputs[0]), to_arrays(aux)
        if state_out:
            return to_arrays(outputs), written
        return to_arrays(outputs)

    on_arrays.write_back = lambda written: latest[0].store_written(written)
    return on_arrays


def vmap(fn, in_axes=0, out_axes=0):
    """Vectorise ``fn`` over the ``in_axes`` of its inputs (``mindspore.vmap``).

    Args:
        fn (Union[Cell, Function, CellList]): the function to map; a CellList (model ensembling) runs its cell
            ``i`` on slice ``i`` of the mapped inputs.
        in_axes (Union[int, None, tuple]): the mapped axis of each input (None: not mapped). Default: 0.
        out_axes (Union[int, None, tuple]): where the mapped axis goes in the outputs. Default: 0.

    Returns:
        Function, the vectorised ``fn``.
    """
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    if isinstance(out_axes, list):
        out_axes = tuple(out_axes)
    if getattr(fn, "ensembles_under_vmap", False):  # a CellList: model ensembling, cell i takes slice i
        return _ensembled(fn, in_axes, out_axes)
    function = _array_function(fn)

    def vectorised(*args):
        # Tensor arguments mapped along an axis may be updated in place by the function (an optimizer
        # Primitive on a Parameter): each comes back as an extra output on its own axis and is stored.
        axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
        tracked = [i for i, arg in enumerate(args)
                   if isinstance(arg, Tensor) and i < len(axes) and isinstance(axes[i], int)]

        lifted = Lift(function, [args[i] for i in tracked], "vmap")

        def with_updates(*arrays):
            # the mapped Tensors themselves hold the per-example values while the function runs
            tensors = [args[i] if i in tracked else array for i, array in enumerate(arrays)]
            outputs, new_values = lifted([arrays[i] for i in tracked], *tensors)
            return outputs, tuple(new_values)

        mapped = jax.vmap(with_updates, in_axes=axes if tracked else in_axes,
                          out_axes=(out_axes, tuple(axes[i] for i in tracked)))
        outputs, updates = mapped(*to_arrays(args))
        lifted.write_back(updates)
        return to_tensors(outputs)

    return vectorised


def _ensembled(cells, in_axes, out_axes):
    """``vmap`` of a CellList (MindSpore's model ensembling): cell ``i`` runs on slice ``i`` of each mapped input
    (an input whose axis is None goes to every cell whole); the outputs are stacked along ``out_axes``."""
    def run(*args):
        axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
        sizes = {arg.shape[axis] for arg, axis in zip(args, axes) if axis is not None}
        if sizes - {len(cells)}:  # no mapped input (in_axes=None): every cell takes the inputs whole
            raise ValueError(f"For 'vmap', the mapped axes of the inputs (sizes {sorted(sizes)}) must all have the "
                             f"size {len(cells)}, the number of Cells in the CellList; map the ensemble's inputs "
                             f"along an axis of that size.")
        outputs = [cell(*[arg if axis is None else Tensor._wrap(jax.numpy.take(arg._value, index, axis))
                          for arg, axis in zip(args, axes)]) for index, cell in enumerate(cells)]
        # a Tensor flattens to its array and unflattens to a Tensor: the leaves stacked are arrays
        leaves = [jax.tree_util.tree_leaves(output) for output in outputs]
        positions = out_axes if isinstance(out_axes, tuple) else (out_axes,) * len(leaves[0])
        stacked = [jax.numpy.stack([each[position] for each in leaves], axis)
                   for position, axis in enumerate(positions)]
        return jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(outputs[0]), stacked)

    return run


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
    function = _array_function(fn, has_aux, state_out=True)
    with plain_lowering():  # forward mode: the CPU lowerings with a hand-written VJP define no JVP
        output, tangent_out, aux = jax.jvp(function, to_arrays(primals), to_arrays(tangents), has_aux=True)
    if has_aux:
        aux, written = aux
        function.write_back(written)
        return to_tensors(output), to_tensors(tangent_out), to_tensors(aux)
    function.write_back(aux)
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
    function = _array_function(fn, has_aux, weights=weight_list, state_out=True)
    arrays = to_arrays(inputs)
    if weight_list is None:
        output, pullback, aux = jax.vjp(function, *arrays, has_aux=True)
    else:
        output, pullback, aux = jax.vjp(function, [w._value for w in weight_list], *arrays, has_aux=True)
    if has_aux:
        aux, written = aux
    else:
        written = aux
    function.write_back(written)

    def vjp_fn(*cotangents):
        cotangent = to_arrays(cotangents[0] if len(cotangents) == 1 else cotangents)
        jax.tree_util.tree_map(_check_cotangent, output, cotangent)
        grads = pullback(cotangent)
        if weight_list is None:
            return to_tensors(tuple(grads))
        return to_tensors(tuple(grads[1:])), to_tensors(tuple(grads[0]))

    if has_aux:
        return to_tensors(output), vjp_fn, to_tensors(aux)
    return to_tensors(output), vjp_fn


def _shape_text(shape):
    return "[const vector]{" + ", ".join(str(d) for d in shape) + "}"  # MindSpore's spelling of a shape


def _check_cotangent(out, cotangent):
    """A cotangent handed to ``vjp_fn`` has its output's shape and dtype, or raises as MindSpore does."""
    if not isinstance(cotangent, (jax.Array, jax.core.Tracer)):
        return  # Python numbers and NumPy arrays go to JAX as given
    shape, out_shape = tuple(cotangent.shape), tuple(out.shape)
    if shape != out_shape:
        if not shape:  # a scalar for a non-scalar output: MindSpore's PyNative grad executor raises RuntimeError
            raise RuntimeError("For grad interface or custom function, grad tensor should be broadcast to expected "
                               f"shape, but got {_shape_text(shape)} vs {_shape_text(out_shape)}")
        raise ValueError(f"The shape should be {_shape_text(out_shape)}, but got {_shape_text(shape)}: the "
                         "cotangent given to vjp_fn must have the shape of the function's output.")
    if cotangent.dtype != out.dtype:
        expected, got = from_numpy_dtype(out.dtype), from_numpy_dtype(cotangent.dtype)
        raise TypeError(f"The dtype should be {expected}, but got {got}: the cotangent given to vjp_fn must have "
                        "the dtype of the function's output.")


def _jacobian(transform, fn, grad_position, has_aux, api):
    if isinstance(grad_position, list):
        grad_position = tuple(grad_position)
    if not isinstance(grad_position, (int, tuple)) or isinstance(grad_position, bool):
        raise TypeError(f"For '{api}', 'grad_position' must be an int or a tuple of int, but got "
                        f"{type(grad_position).__name__}.")
    function = _array_function(fn, has_aux, state_out=True)
    jacobian = transform(function, argnums=grad_position, has_aux=True)
    forward_mode = transform is jax.jacfwd

    def compute(*args):
        if forward_mode:  # the CPU lowerings with a hand-written VJP define no JVP
            with plain_lowering():
                result, aux = jacobian(*to_arrays(args))
        else:
            result, aux = jacobian(*to_arrays(args))
        if has_aux:
            aux, written = aux
            function.write_back(written)
            return to_tensors((result, aux))
        function.write_back(aux)
        return to_tensors(result)

    return compute


def jacfwd(fn, grad_position=0, has_aux=False):
    """The Jacobian of ``fn`` w.r.t. the inputs at ``grad_position``, by forward mode."""
    return _jacobian(jax.jacfwd, fn, grad_position, has_aux, "jacfwd")


def jacrev(fn, grad_position=0, has_aux=False):
    """The Jacobian of ``fn`` w.r.t. the inputs at ``grad_position``, by reverse mode."""
    return _jacobian(jax.jacrev, fn, grad_position, has_aux, "jacrev")
