"""Cell hooks: forward pre/post hooks and backward pre/post hooks (``Cell.register_*_hook``).

A Cell with hooks (or with ``recompute()`` set) carries a ``CellHooks`` object in its
``_hooks`` slot; ``Cell.__call__`` checks that one attribute and hands the call to
``call_with_hooks``, so a Cell without hooks pays nothing more.

The order of one hooked call (checked against MindSpore 2.10):

1. forward pre-hooks, in registration order (``prepend=True`` puts one first); each sees the
   inputs the previous one returned;
2. the Cell's body (its ``construct``, cast and compiled as ``Cell.__call__`` would);
3. forward hooks, each seeing the inputs after the pre-hooks and the output so far;
4. in the backward pass, the backward pre-hooks see ``grad_output`` (the gradient w.r.t. the
   output after the forward hooks) and may replace it; then the backward hooks see
   ``grad_input`` (the gradients w.r.t. the positional Tensor inputs after the pre-hooks, None
   for one that needs no gradient; ``(None,)`` when there is no Tensor input) and may replace them.
   A Cell returning a list or dict (whose outputs MindSpore does not hook), and an outer gradient of that
   backward pass, call only the backward hooks, with ``(None,)`` and the inputs' gradients (``_call_inputs_side``).

Each kind's hooks are read from its live table, as MindSpore reads its dicts: a hook that removes a
hook of the same kind while they run raises Python's RuntimeError ("OrderedDict mutated during
iteration") unless it is the last to run; the forward hooks of a failing body run from a copy.

Steps 2-3 run under ``jax.custom_vjp`` when backward hooks exist. The Cell's lifted state (its
Parameters, the RNG state) enters the custom function as explicit inputs, as in
``sporax.autodiff.bprop``; the backward rule is the function's own VJP (``jax.vjp``, whose
pullback is the residual) wrapped by the hooks, so the Parameters get their true gradients.

As in MindSpore, Cell hooks also act in GRAPH_MODE and inside ``ms.jit``: there they run once
while the program is traced, so their values are compiled in and Python side effects (a list
append) happen at trace time. ``print`` of a Tensor inside a hook prints run-time values.
"""
from collections import OrderedDict

import jax
import jax.numpy as jnp
import numpy as np
from jax.custom_derivatives import SymbolicZero

from sporax.core.context import GRAPH_MODE, get_mode
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.state.arguments import is_received_input
from sporax.state.discovery import DiscoveryCache, static_signature_changed
from sporax.state.lifting import Lift
from sporax.state.scope import in_compiled_trace
from sporax.autodiff.saved_tensors import check_hooks, pack_saved, unpack_saved
from sporax.autodiff.tensor_hooks import HookHandle, check_hook
from sporax.autodiff.transforms import to_arrays, to_tensors
from sporax.nn.hook_results import replacement

class CellHooks:
    """The hooks of one Cell and its recompute setting (kept in ``cell.__dict__['_hooks']``)."""

    __slots__ = ("cell", "forward_pre", "forward", "backward_pre", "backward", "recompute", "discovery",
                 "saved_tensors", "parameter_forward")

    def __init__(self, cell):
        self.cell = cell
        self.forward_pre = OrderedDict()    # handle id -> (hook, with_kwargs)
        self.forward = OrderedDict()        # handle id -> (hook, with_kwargs, always_call)
        self.backward_pre = OrderedDict()   # handle id -> hook
        self.backward = OrderedDict()       # handle id -> hook
        self.recompute = False
        self.discovery = None
        self.saved_tensors = None           # (pack_hook, unpack_hook) of register_saved_tensors_hooks
        self.parameter_forward = None       # [(hook, parameters or None for all)] of register_parameter_forward_hook

    def empty(self):
        return not (self.forward_pre or self.forward or self.backward_pre or self.backward or self.recompute
                    or self.saved_tensors or self.parameter_forward)

    def changed(self):
        """After a hook was added or removed: drop an empty table, recompile compiled callers."""
        if self.empty() and self.cell.__dict__.get("_hooks") is self:
            self.cell.__dict__["_hooks"] = None
        # Hooks run while a program is traced: programs compiled before the change must be rebuilt.
        static_signature_changed()


_created = [False]  # whether any Cell of this process ever had hooks (copies of such a Cell included)


def hooks_of(cell):
    """The ``CellHooks`` of ``cell`` (created on first use)."""
    hooks = cell.__dict__.get("_hooks")
    if hooks is None:
        hooks = cell.__dict__["_hooks"] = CellHooks(cell)
        _created[0] = True
    return hooks


def any_hooks_created():
    """False while no Cell of this process has ever had hooks: callers skip walking a Cell tree for them."""
    return _created[0]


def _check_flag(api, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', the argument '{name}' must be bool, but got {type(value).__name__}.")


def _add(hooks, table, entry, prepend):
    handle = HookHandle(table, hooks)
    table[handle.handle_id] = entry
    if prepend:
        table.move_to_end(handle.handle_id, last=False)
    hooks.changed()
    return handle


def register_forward_pre_hook(cell, hook_fn, prepend=False, with_kwargs=False):
    """See ``Cell.register_forward_pre_hook``."""
    check_hook(hook_fn)
    _check_flag("register_forward_pre_hook", "prepend", prepend)
    _check_flag("register_forward_pre_hook", "with_kwargs", with_kwargs)
    hooks = hooks_of(cell)
    return _add(hooks, hooks.forward_pre, (hook_fn, with_kwargs), prepend)


def register_forward_hook(cell, hook_fn, prepend=False, with_kwargs=False, always_call=False):
    """See ``Cell.register_forward_hook``."""
    check_hook(hook_fn)
    for name, value in (("prepend", prepend), ("with_kwargs", with_kwargs), ("always_call", always_call)):
        _check_flag("register_forward_hook", name, value)
    hooks = hooks_of(cell)
    return _add(hooks, hooks.forward, (hook_fn, with_kwargs, always_call), prepend)


def register_backward_pre_hook(cell, hook_fn):
    """See ``Cell.register_backward_pre_hook``."""
    check_hook(hook_fn)
    hooks = hooks_of(cell)
    return _add(hooks, hooks.backward_pre, hook_fn, False)


def register_backward_hook(cell, hook_fn):
    """See ``Cell.register_backward_hook``."""
    check_hook(hook_fn)
    hooks = hooks_of(cell)
    return _add(hooks, hooks.backward, hook_fn, False)


# --- the hooked call ---------------------------------------------------------------------------
def register_saved_tensors_hooks(cell, pack_hook, unpack_hook):
    """See ``Cell.register_saved_tensors_hooks``."""
    check_hooks(pack_hook, unpack_hook, "register_saved_tensors_hooks")
    hooks = hooks_of(cell)
    hooks.saved_tensors = (pack_hook, unpack_hook)
    hooks.changed()


def register_parameter_forward_hook(cell, hook):
    """See ``Cell.register_parameter_forward_hook``."""
    api = "register_parameter_forward_hook"
    if callable(hook):
        entries = [(hook, None)]
    elif isinstance(hook, list):
        entries = []
        for item in hook:
            if not isinstance(item, dict) or set(item) != {"params", "hook"}:
                raise ValueError(f"For '{api}', each item of the hook list must be a dict with exactly the keys "
                                 f"'params' and 'hook', but got {item!r}.")
            params = list(item["params"]) if isinstance(item["params"], (list, tuple)) else [item["params"]]
            for parameter in params:
                if not isinstance(parameter, Parameter):
                    raise TypeError(f"For '{api}', every item of 'params' must be a Parameter, but got "
                                    f"{type(parameter).__name__}.")
            if not callable(item["hook"]):
                raise TypeError(f"For '{api}', the 'hook' of each item must be callable, but got "
                                f"{type(item['hook']).__name__}.")
            entries.append((item["hook"], params))
    else:
        raise TypeError(f"For '{api}', the 'hook' must be a callable or a list of dicts {{'params': [...], "
                        f"'hook': fn}}, but got {type(hook).__name__}.")
    hooks = hooks_of(cell)
    hooks.parameter_forward = (hooks.parameter_forward or []) + entries
    hooks.changed()


def _call_with_parameter_hooks(cell, hooks, args, kwargs):
    """Run the call with each hooked Parameter reading as ``hook(parameter)`` (compiled traces only)."""
    substituted = []
    try:
        for hook, parameters in hooks.parameter_forward:
            targets = parameters if parameters is not None else list(cell.get_parameters())
            for parameter in targets:
                value = hook(parameter)
                if not isinstance(value, Tensor):
                    raise TypeError(f"A parameter forward hook of {type(cell).__name__} must return a Tensor for "
                                    f"'{parameter.name}', but got {type(value).__name__}.")
                substituted.append((parameter, parameter._array, value._value))
                parameter._array = jnp.broadcast_to(value._value, parameter.shape).astype(parameter._array.dtype)
                substituted[-1] = substituted[-1][:2] + (parameter._array,)
        return _call_hooked(cell, hooks, args, kwargs)
    finally:
        for parameter, original, hooked in reversed(substituted):
            # A Parameter that construct assigned to keeps the assigned value.
            if parameter._array is hooked:
                parameter._array = original


def call_with_hooks(cell, args, kwargs):
    """``cell(*args, **kwargs)`` with its hooks (``Cell.__call__`` calls this when ``_hooks`` is set)."""
    hooks = cell.__dict__["_hooks"]
    # MindSpore applies parameter forward hooks in graph mode and ms.jit only.
    if hooks.parameter_forward:
        if in_compiled_trace():
            return _call_with_parameter_hooks(cell, hooks, args, kwargs)
        if get_mode() == GRAPH_MODE:
            # The top-level GRAPH_MODE call: compile the hooked call itself, so the hooks are in the program.
            compiled = cell.__dict__.get("_sporax_parameter_hooked")
            if compiled is None:
                from sporax.graph.jit import jit

                compiled = jit(lambda *a, **k: _call_with_parameter_hooks(cell, cell.__dict__["_hooks"], a, k))
                cell.__dict__["_sporax_parameter_hooked"] = compiled
            return compiled(*args, **kwargs)
    return _call_hooked(cell, hooks, args, kwargs)


def _call_hooked(cell, hooks, args, kwargs):
    for hook, with_kwargs in hooks.forward_pre.values():
        if with_kwargs:
            result = hook(cell, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], dict)):
                    # MindSpore 2.10's RuntimeError and first words; the Cell and the returned type added
                    raise RuntimeError(f"forward pre hook with kwargs must return None or a tuple of (new_args, "
                                       f"new_kwargs), but got {type(result).__name__} (the forward pre-hook of "
                                       f"{type(cell).__name__}, registered with with_kwargs=True).")
                args, kwargs = _as_args(result[0]), result[1]
        else:
            result = hook(cell, args)
            if result is not None:
                args = _as_args(result)
    if hooks.backward_pre or hooks.backward or hooks.saved_tensors:
        return _call_with_backward_hooks(cell, hooks, args, kwargs)
    return _forward(cell, hooks, args, kwargs)


def _as_args(value):
    return value if isinstance(value, tuple) else (value,)


def _body(cell, hooks, args, kwargs):
    if hooks.recompute:
        from sporax.nn.recompute import call_recomputed

        return call_recomputed(cell, args, kwargs)
    return cell._call_unhooked(args, kwargs)


def _forward(cell, hooks, args, kwargs):
    """The body and the forward hooks (``always_call`` hooks also run when the body raised)."""
    try:
        output = _body(cell, hooks, args, kwargs)
    except Exception:
        for hook, with_kwargs, always_call in list(hooks.forward.values()):
            if always_call:
                hook(cell, args, kwargs, None) if with_kwargs else hook(cell, args, None)
        raise
    if cell._has_bprop:
        return output  # MindSpore 2.10 runs no forward hook of a Cell with a custom bprop (its pre-hooks run)
    for hook, with_kwargs, _ in hooks.forward.values():
        result = hook(cell, args, kwargs, output) if with_kwargs else hook(cell, args, output)
        if result is not None:
            output = result
    return output


def _zeros_for(cotangent):
    """A symbolic zero cotangent as an array (float0 for integer values, as ``jax.vjp`` wants)."""
    if isinstance(cotangent, SymbolicZero):
        aval = cotangent.aval
        if jnp.issubdtype(aval.dtype, jnp.inexact):
            return jnp.zeros(aval.shape, aval.dtype)
        return np.zeros(aval.shape, jax.dtypes.float0)
    return cotangent


def _absent(cotangent):
    """Whether MindSpore hands a hook None for this cotangent: no gradient reached that output."""
    return isinstance(cotangent, SymbolicZero) or cotangent.dtype == jax.dtypes.float0


def _call_with_backward_hooks(cell, hooks, args, kwargs):
    if hooks.discovery is None:
        hooks.discovery = DiscoveryCache(cell)
    states = list(hooks.discovery.get().states)
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=lambda value: isinstance(value, Tensor))
    tensor_index = [index for index, leaf in enumerate(leaves) if isinstance(leaf, Tensor)]
    # grad_input has one entry per positional Tensor input (MindSpore 2.10: (None,) when there is none).
    input_slots = [tensor_index.index(index) for index, arg in enumerate(args) if isinstance(arg, Tensor)] or [None]
    # MindSpore's grad tracks every Tensor its function received: the hooks see those inputs' gradients too.
    received = [is_received_input(leaves[index]) for index in tensor_index]
    name = f"{type(cell).__name__} (backward hooks)"
    record = {}

    def forward_body(arrays):
        call_leaves = list(leaves)
        for index, array in zip(tensor_index, arrays):
            call_leaves[index] = Tensor._wrap(array)
        call_args, call_kwargs = jax.tree_util.tree_unflatten(treedef, call_leaves)
        return _forward(cell, hooks, tuple(call_args), call_kwargs)

    lifted = Lift(forward_body, states, name)

    def pure(state_values, arrays):
        # An input the output does not depend on has no gradient to MindSpore (None), zeros to jax.vjp: mark
        # the inputs the backward pass reaches.
        arrays = [_reach_marked(array, slot, record) for slot, array in enumerate(arrays)]
        outputs, new_values = lifted(list(state_values), arrays)
        output_leaves, output_tree = jax.tree_util.tree_flatten(to_arrays(outputs))
        record["output_tree"] = output_tree
        # Only array outputs cross the custom_vjp boundary; Python values (a flag, a shape) stay static.
        record["template"] = [_ARRAY if _is_array(leaf) else leaf for leaf in output_leaves]
        output_arrays = [leaf for leaf in output_leaves if _is_array(leaf)]
        record["hooked_outputs"] = _top_level_arrays(to_arrays(outputs))
        # MindSpore 2.10 hooks no output of a list or dict: only the inputs' side of its backward hooks runs
        record["unhooked_output"] = type(outputs) in (list, dict)
        return output_arrays, new_values

    @jax.custom_vjp
    def hooked(state_values, arrays):
        return pure(state_values, arrays)

    def forward(state_values, arrays):
        record["perturbed"] = [primal.perturbed for primal in arrays]
        state_values = [primal.value for primal in state_values]
        arrays = [primal.value for primal in arrays]
        if hooks.backward:
            # An outer gradient differentiates this backward pass, and MindSpore calls the backward hooks again
            # there with the outer gradients that reach the inputs (see ``_inputs_hooked``).
            arrays = _inputs_hooked(arrays, lambda gradients: _call_inputs_side(cell, hooks, gradients, tracked_slots()))
        result, pullback = jax.vjp(pure, state_values, arrays)
        if hooks.saved_tensors:
            # Only arrays may cross the custom_vjp boundary; the static rest of what was packed stays here.
            arrays, record["saved_layout"] = pack_saved(pullback, hooks.saved_tensors[0])
            return result, arrays
        return result, pullback

    def backward(pullback, cotangents):
        if hooks.saved_tensors:
            pullback = unpack_saved(pullback, record["saved_layout"], hooks.saved_tensors[1],
                                    "register_saved_tensors_hooks")
        output_cotangents, state_cotangents = cotangents
        # An output no gradient reached (unused, or of an integer dtype) is None to the hooks, as in MindSpore.
        # The hooks see the gradients of the output's top-level Tensors (MindSpore 2.10: a Tensor nested deeper in
        # a tuple output passes its gradient by them).
        hooked_outputs = record["hooked_outputs"]
        zeros = [_zeros_for(value) for value in output_cotangents]
        if record["unhooked_output"]:
            record["reached"] = set()
            state_grads, input_grads = pullback((zeros, [_zeros_for(value) for value in state_cotangents]))
            _call_inputs_side(cell, hooks, input_grads, tracked_slots())
            return state_grads, [value if flag else None for value, flag in zip(input_grads, record["perturbed"])]
        gradients = [None if _absent(value) else Tensor._wrap(value) for value in output_cotangents]
        grad_output = tuple(gradients[index] for index in hooked_outputs)
        for hook in hooks.backward_pre.values():
            grad_output = _wrap_all(replacement(hook(cell, grad_output), _unwrap_all(grad_output),
                                                 [zeros[index] for index in hooked_outputs], cell, "backward pre",
                                                 "output"))
        for index, value in zip(hooked_outputs, grad_output):
            gradients[index] = value
        record["reached"] = set()
        state_grads, input_grads = pullback(([zero if value is None else value._value
                                              for value, zero in zip(gradients, zeros)],
                                             [_zeros_for(value) for value in state_cotangents]))
        grad_input = tuple(None if slot is None or not tracked(slot) else input_grads[slot] for slot in input_slots)
        likes = [None if slot is None else input_grads[slot] for slot in input_slots]
        for hook in hooks.backward.values():
            grad_input = replacement(hook(cell, _wrap_all(grad_input), grad_output), grad_input, likes,
                                      cell, "backward", "grad input")
        input_grads = list(input_grads)
        for slot, value in zip(input_slots, grad_input):
            if slot is not None and value is not None:
                input_grads[slot] = value
        return state_grads, [value if flag else None for value, flag in zip(input_grads, record["perturbed"])]

    def tracked(slot):
        """Whether MindSpore's grad tracks the positional input in ``slot``: it gets a gradient, or the
        differentiated function received it."""
        return slot is not None and (record["perturbed"][slot] or received[slot]) and slot in record["reached"]

    def tracked_slots():
        return [slot for slot in input_slots if tracked(slot)]

    hooked.defvjp(forward, backward, symbolic_zeros=True)
    output_arrays, new_values = hooked(lifted.values(), [leaves[index]._value for index in tensor_index])
    lifted.write_back(new_values)
    arrays = iter(output_arrays)
    leaves = [next(arrays) if item is _ARRAY else item for item in record["template"]]
    return to_tensors(jax.tree_util.tree_unflatten(record["output_tree"], leaves))


_ARRAY = object()  # marks where an array output goes in the output template


def _call_inputs_side(cell, hooks, gradients, slots):
    """The backward hooks' call where MindSpore 2.10 reaches a hooked Cell by its inputs only (the Cell's output is
    a list or a dict, which it does not hook, or an outer gradient differentiates its backward pass):
    ``grad_input`` is ``(None,)`` and ``grad_output`` the gradients of the tracked positional Tensor inputs (their
    ``slots`` among the Tensor inputs; no call without one); the backward pre-hooks do not run, and what the hooks return is ignored."""
    grad_output = tuple(Tensor._wrap(gradients[slot]) for slot in slots)
    if grad_output:
        for hook in hooks.backward.values():
            hook(cell, (None,), grad_output)


def _reach_marked(array, slot, record):
    """``array`` unchanged; a backward pass that reaches it adds ``slot`` to ``record["reached"]``."""
    if not jnp.issubdtype(array.dtype, jnp.inexact):
        return array

    @jax.custom_vjp
    def identity(value):
        return value

    def backward(_, gradient):
        record.setdefault("reached", set()).add(slot)
        return (gradient,)

    identity.defvjp(lambda value: (value, None), backward)
    return identity(array)


def _inputs_hooked(arrays, call):
    """``arrays`` unchanged; an outer gradient's pass through them calls ``call`` with their gradients (and so on,
    a level deeper, for a gradient of that gradient)."""
    @jax.custom_vjp
    def identity(values):
        return values

    def forward(values):
        return _inputs_hooked(values, call), None

    def backward(_, gradients):
        call([_zeros_for(value) if isinstance(value, SymbolicZero) else value for value in gradients])
        return (gradients,)

    identity.defvjp(forward, backward)
    return identity(list(arrays))


def _top_level_arrays(outputs):
    """The positions, among the output's arrays, of those the backward hooks see: the output itself, or the
    top-level items of a tuple (each array of a list or dict output, as before)."""
    if _is_array(outputs):
        return [0]
    if type(outputs) is not tuple:
        return list(range(sum(1 for leaf in jax.tree_util.tree_leaves(outputs) if _is_array(leaf))))
    positions, count = [], 0
    for item in outputs:
        if _is_array(item):
            positions.append(count)
        count += sum(1 for leaf in jax.tree_util.tree_leaves(item) if _is_array(leaf))
    return positions


def _is_array(value):
    return isinstance(value, (jax.Array, jax.core.Tracer))


def _wrap_all(values):
    return tuple(None if value is None else Tensor._wrap(value) for value in values)


def _unwrap_all(values):
    return tuple(None if value is None else value._value for value in values)
