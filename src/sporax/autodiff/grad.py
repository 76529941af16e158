"""``mindspore.grad`` and ``mindspore.value_and_grad``: gradients with MindSpore's structures.

The user's function may read and write Parameters (BatchNorm statistics, the RNG state): all of its state is
lifted (``sporax.state``); gradients are taken only w.r.t. the chosen inputs and ``weights``, the rest of the
state is threaded through and written back. Outside a trace (PyNative), the whole forward + backward is compiled
per call signature (``jax.jit``), the fast path of a PyNative training loop, unless the function's Python needs
values: Cell hooks, ``Tensor.register_hook``, ``HookBackward``, ``saved_tensors_hooks``, ``if``/``while`` on a
tensor, ``asnumpy()``/``item()``, a print of a formatted tensor. Then it runs eagerly: ``jax.vjp`` op by op, where
every value is concrete, so hooks and prints see real numbers as in MindSpore's PyNative mode (the same results;
in GRAPH_MODE with one warning). Inside a trace (``jit``, GRAPH_MODE Cells, an outer grad) it differentiates
inline, so higher-order gradients compose.

Output structures (checked against MindSpore 2.10):
    grad_position=0 -> Tensor; (0, 1) -> (Tensor, Tensor); weights=[w] -> (Tensor,); weights=w -> Tensor;
    both -> (input_grads, weight_grads); has_aux -> (grads, (aux, ...)); return_ids -> (position, grad) /
    (parameter name, grad) pairs; value_and_grad -> (value, grads) with the function's full output as value;
    a ``mutable`` tuple/list/dict of Tensors -> in GRAPH_MODE the same container of their gradients, in PyNative
    no gradient (left out, as for any non-Tensor input). One Tensor at two positions: GRAPH_MODE and jit, per slot.
"""
import copy
import os

import jax

from sporax.autodiff import grad_inputs, gradient_sinks, saved_tensors
from sporax.autodiff.integer_gradients import integer_gradients
from sporax.autodiff.no_grad import check_grad_allowed
from sporax.autodiff.straight_path import MISSED, remember
from sporax.autodiff.tensor_hooks import has_leaf_hooks, hooked_leaf, leaf_gradient
from sporax.core.context import GRAPH_MODE, get_mode
from sporax.core.tensor import Tensor
from sporax.state.arguments import (bound_inputs, call_rebuilt, recording_in_place, skeleton, store_in_place,
                                   write_arguments)
from sporax.state.binding import detach_outputs
from sporax.state.discovery import hooks_changed, is_cell, is_parameter, reaches_cell_hooks, training_epoch
from sporax.state.fallback import ExplainedFallback, compiling_pynative, drop_jax_note, is_untraceable
from sporax.state import lazy
from sporax.state.lifting import Lift
from sporax.state.program import build_program, record_states, require_owned
from sporax.state.program_cache import ProgramCache
from sporax.state.outside_reads import current_key, reads_inputs, trace_effects
from sporax.state.reuse import function_identity, shared
from sporax.state.scope import (compiling_graph, forward_already_ran, is_tracing, recording_attribute_writes,
                                traced_attributes)

_settings = {"pynative_jit": os.environ.get("SPORAX_PYNATIVE_JIT", "1") != "0"}


def set_pynative_jit(enabled):
    """Compile PyNative gradient calls (forward + backward) into one program per signature.

    On by default: a function whose Python needs no values (no hooks, no ``if`` on a tensor, no
    ``asnumpy()``) runs as one compiled program, its prints on every call; one whose traces write
    what it reaches (``log.append(x)``, a counter) runs eagerly from then on. Turn off to run every
    gradient eagerly (any other Python side effect then runs on every call, as in MindSpore's PyNative mode).
    """
    _settings["pynative_jit"] = bool(enabled)
    hooks_changed()  # remembered straight paths (sporax.autodiff.straight_path) must look again


def received_inputs(positions, call_args, kwargs):
    """The Tensors a differentiated function receives, which MindSpore 2.10's grad tracks when it differentiates
    an input (a backward hook sees their gradients); none with weights only (grad_position=None)."""
    if not positions:
        return ()
    return [value for value in (*call_args, *kwargs.values()) if isinstance(value, Tensor)]


class GradFunction:
    """The callable returned by ``grad``/``value_and_grad``/``GradOperation``."""

    def __init__(self, fn, positions, position_mode, weights, weight_mode, has_aux=False, return_ids=False,
                 sens_param=False, get_value=False, all_positions=False, api="grad"):
        if not callable(fn):
            raise TypeError(f"For '{api}', 'fn' must be callable (a function or a Cell), but got {type(fn).__name__}.")
        self.fn = fn
        self.positions = positions
        self.position_mode = position_mode
        self.weights = weights
        # a weight also given as a positional input gets its gradient through the input (PyNative, as MindSpore)
        self._weight_ids = frozenset(id(weight) for weight in weights or ())
        self.weight_mode = weight_mode
        self.has_aux = has_aux
        self.return_ids = return_ids
        self.sens_param = sens_param
        self.get_value = get_value
        self.all_positions = all_positions
        self.api = api
        self.name = f"{api}({getattr(fn, '__qualname__', None) or type(fn).__name__})"
        self._cache = ProgramCache(self.name, fn, lift_arguments=False, extra_states=weights or ())
        self._hook_cache = []
        self._saves_with_hooks = False  # its forward pass entered saved_tensors_hooks
        self._straight = None  # the last compiled PyNative call's StraightPath
        self._reads = []  # [OutsideReads of fn, its key] (sporax.state.outside_reads.current_key)
        self._effects = 0  # its traces' Python side effects: eager from 2 on (outside_reads.trace_effects)
        self.graph_phase = None  # GRAPH_MODE: the training flags of its first call key its programs (kept graph)

    def _sporax_reachable(self):
        return [self.fn, self.weights]

    def __deepcopy__(self, memo):
        # A copy differentiates the copied function/Cell w.r.t. the copied weights, and compiles afresh.
        return GradFunction(copy.deepcopy(self.fn, memo), self.positions, self.position_mode,
                            copy.deepcopy(self.weights, memo), self.weight_mode, has_aux=self.has_aux,
                            return_ids=self.return_ids, sens_param=self.sens_param, get_value=self.get_value,
                            all_positions=self.all_positions, api=self.api)

    # --- calling ----------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        straight = self._straight
        if straight is not None and not kwargs:
            outputs = straight.run(args)
            if outputs is not MISSED:
                return outputs
        check_grad_allowed(self.api)
        sens = None
        if self.sens_param:
            if not args:
                raise TypeError(f"For '{self.api}' with sens_param=True, the last positional input must be the "
                                "sensitivity (the gradient of the output), but no input was given.")
            args, sens = args[:-1], args[-1]
        if kwargs and (self.all_positions or any(position >= len(args) for position in self.positions or ())):
            return self._with_keyword_inputs(args, kwargs, sens)
        positions = tuple(range(len(args))) if self.all_positions else self.positions
        position_mode = self.position_mode
        if positions:
            compiled = get_mode() == GRAPH_MODE or is_tracing()
            if not args and (self.api == "GradOperation" or not compiled):
                # MindSpore 2.10: a function called without inputs has no input gradients, an empty tuple
                # (GradOperation in every mode; grad/value_and_grad in PyNative, a graph refuses below).
                return self._run(args, kwargs, sens, (), "tuple")
            for position in positions:
                if position >= len(args):
                    # MindSpore's graph compiler raises IndexError, PyNative RuntimeError.
                    error = IndexError if compiled else RuntimeError
                    raise error(f"For '{self.api}', position index {position} is exceed input size: the "
                                f"function was called with {len(args)} positional inputs.")
            # MindSpore differentiates only Tensor inputs: an int, a float, a tuple or a list at a
            # chosen position has no gradient and is left out of the result.
            graph = get_mode() == GRAPH_MODE
            zeros = grad_inputs.scalar_zeros(args, positions, graph)
            tensor_positions = tuple(position for position in positions if grad_inputs.differentiable(args[position], graph))
            if zeros:  # their zeros go back into the result, in the order of the requested positions
                result = self._run(args, kwargs, sens, tensor_positions, "tuple")
                return grad_inputs.with_scalar_zeros(result, zeros, positions, position_mode, self)
            if len(tensor_positions) != len(positions):
                if not self.all_positions:
                    position_mode = ("empty", "single", "tuple")[min(len(tensor_positions), 2)]
                positions = tensor_positions
        return self._run(args, kwargs, sens, positions, position_mode)

    def _run(self, args, kwargs, sens, positions, position_mode):
        """The gradients w.r.t. ``positions`` (all differentiable), structured by ``position_mode``."""
        group = self._cache.group(args, kwargs)
        discovered = group.discovered
        if is_tracing():
            require_owned(discovered.states)
            return self._compute(args, kwargs, sens, positions, discovered.states, position_mode)
        graph = get_mode() == GRAPH_MODE  # read once: the per-step host path (issue 26)
        owners = grad_inputs.tensor_owners(args, positions) if positions and not graph else None
        # PyNative runs the user's Python with real values: what needs them runs eagerly (jax.vjp op by op). Known
        # before tracing: Tensor.register_hook hooks on inputs or Parameters (a compiled program rebuilds its input
        # Tensors) and Cell hooks (they see, keep and count values). Found while tracing (the program falls back):
        # host reads, `if` on a value, hooks registered inside (``sporax.state.fallback.compiling_pynative``); an
        # input also read from outside (``a is x``, a dict keyed by it) makes its Python compare identities.
        if (_settings["pynative_jit"] and not has_leaf_hooks(args) and not has_leaf_hooks(discovered.states)
                and not reaches_cell_hooks(discovered, self._hook_cache, not graph)
                and not saved_tensors.hooks_active() and not self._saves_with_hooks
                and (graph or (self._effects < 2 and not reads_inputs(self._reads, self.fn, args, kwargs)
                               and not (self._weight_ids and any(id(arg) in self._weight_ids for arg in args))))):
            call_args = args if sens is None else args + (sens,)

            def build(call_args, kwargs, arrays, discovered):
                program = self._build(call_args, kwargs, arrays, positions, discovered, position_mode, owners)
                self._effects = trace_effects(self._reads, self.fn, self._effects, program)
                return program

            if graph and self.graph_phase is None:
                self.graph_phase = ("grad", training_epoch())
            # The sensitivity is data, not state: the group of ``args`` is the group of ``call_args``.
            # PyNative reads the function's globals and closure values afresh each call; GRAPH keeps its program.
            extra = owners if graph else (owners, current_key(self._reads, self.fn))
            program, arrays = self._cache.lookup(call_args, kwargs, build, extra=extra,
                                                 group=group if sens is None else None,
                                                 phase=self.graph_phase if graph else None)
            if not program.eager and program.argument_writes:
                outputs, values = program(arrays)
                write_arguments(call_args, kwargs, None, program.argument_writes, values)
                return outputs
            if not program.eager:
                if not graph and sens is None and owners is None and not kwargs and self._effects < 2:
                    self._straight = remember(self.fn, self._reads[0], args, group, program, positions)
                return lazy.call(program, arrays)
        try:
            return record_states(lambda: self._compute(args, kwargs, sens, positions, list(discovered.states),
                                                       position_mode, owners),
                                 discovered, self.name)
        except Exception as error:  # noqa: BLE001 - only untraceable reads are translated
            if not is_untraceable(error):
                raise drop_jax_note(error)
            raise RuntimeError(
                f"{self.name}: the function reads a tensor's value on the host (float(), int(), asnumpy(), "
                "print of a value) while it is being differentiated, where only an abstract value exists. "
                "Compute that value outside the differentiated function, or use tensor ops instead "
                "(an `if` on a tensor is fine in PyNative mode).") from error

    def _with_keyword_inputs(self, args, kwargs, sens):
        """MindSpore numbers keyword inputs after the positional ones (in call order): a position past the
        positional inputs names a keyword input, e.g. ``GradOperation()(net)(a=x, b=y)`` differentiates with respect
        to ``a``; ``get_all`` gives keyword Tensors' gradients after the positional ones (an int or float has none)."""
        names = tuple(kwargs)
        key = (len(args), names)
        cache = self.__dict__.setdefault("_keyword_functions", {})
        function, fn, count = cache.get(key), self.fn, len(args)
        if function is None:

            def with_keywords(*values):
                return fn(*values[:count], **dict(zip(names, values[count:])))

            with_keywords.__qualname__ = getattr(fn, "__qualname__", None) or type(fn).__name__
            function = GradFunction(with_keywords, self.positions, self.position_mode, self.weights,
                                    self.weight_mode, has_aux=self.has_aux, return_ids=self.return_ids,
                                    sens_param=self.sens_param, get_value=self.get_value,
                                    all_positions=self.all_positions, api=self.api)
            cache[key] = function
        values = args + tuple(kwargs.values())
        return function(*values) if sens is None else function(*values, sens)

    def _build(self, call_args, kwargs, arrays, positions, discovered, position_mode, owners):
        sens_param = self.sens_param
        call_args, kwargs = skeleton(call_args, kwargs)
        record = {}

        def compute(*new_args, **new_kwargs):
            sens = None
            if sens_param:
                new_args, sens = new_args[:-1], new_args[-1]
            return self._compute(new_args, new_kwargs, sens, positions, list(discovered.states), position_mode,
                                 owners)

        def body(traced_arrays):  # inputs that compiled code updates in place come back with the gradients
            return call_rebuilt(compute, call_args, kwargs, traced_arrays, None, record)

        program = build_program(body, discovered, arrays, self.name, strict_print=True, warn=get_mode() == GRAPH_MODE)
        program.argument_writes = record.get("argument_writes", ())
        return program

    def _compute(self, args, kwargs, sens, positions, states, position_mode, owners=None):
        """Differentiate once with ``states`` as they are bound now; write new state values back.

        ``owners`` (from ``grad_inputs.tensor_owners``): inputs that are one Tensor share one primal, so each of
        their positions gets that Tensor's whole gradient."""
        fn = self.fn
        if is_tracing() and get_mode() == GRAPH_MODE and not is_cell(fn):
            from sporax.graph.control_flow import converted

            fn = converted(fn)  # GRAPH_MODE compiles a differentiated function's tensor control flow too
        has_aux = self.has_aux
        requested = positions = positions or ()
        if owners is not None:
            positions = tuple(dict.fromkeys(owners[position] for position in positions))
        weights = self.weights or ()
        index_of = {id(state): index for index, state in enumerate(states)}
        weight_index = [index_of[id(weight)] for weight in weights]
        current = [state._value for state in states]
        position_values = [grad_inputs.primal(args[position]) for position in positions]
        weight_values = [current[index] for index in weight_index]
        weight_slot = {id(weight): slot for slot, weight in enumerate(weights)}

        merged = compiling_graph() and not kwargs and is_cell(self.fn) and forward_already_ran(self.fn, args)
        lifted = Lift(fn, states, self.name)
        attribute_names = []  # Cell attributes set to a differentiated Tensor: set after the forward pass

        def differentiated(weight_primals, position_primals):
            values = list(current)
            for index, value in zip(weight_index, weight_primals):
                values[index] = value  # hooks on a weight run on its total gradient, after the pullback
            call_args, bound, bound_values = list(args), [], []
            for position, value in zip(positions, position_primals):
                # An integer input keeps its argument (its gradient comes from integer_gradients): the function
                # sees its concrete value, so it can serve as an axis or a shape (MindSpore's ReduceMean(x, axis)).
                if id(args[position]) in weight_slot:
                    continue  # a weight given as an input: it reads its weight primal (gradient copied below)
                if isinstance(value, (tuple, dict)):  # a mutable container: its Tensors are the primals
                    call_args[position] = grad_inputs.rebound(args[position], value)
                elif type(args[position]) is Tensor and (owners is not None or grad_inputs.unique_at(args, position)):
                    bound.append(args[position])  # the caller's Tensor holds the primal (`a is x`), once only
                    bound_values.append(hooked_leaf(args[position], value))
                elif not grad_inputs.is_integer(value):
                    call_args[position] = Tensor._wrap(hooked_leaf(args[position], value))
            if owners is not None:
                for index, owner in enumerate(owners):
                    if owner != index and owner in positions:
                        call_args[index] = call_args[owner]
            # Point-to-point exchanges the function runs attach their backward's entry to the frame.
            with gradient_sinks.differentiating((weight_primals, position_primals)) as frame, \
                    recording_attribute_writes() as writes, recording_in_place() as updated, \
                    bound_inputs(bound, bound_values, received_inputs(positions, call_args, kwargs)):
                outputs, new_values = lifted(values, *call_args, **kwargs)
                if bound:  # a returned input carries its value of now, not the one restored
                    bound_ids = frozenset(map(id, bound))
                    outputs = detach_outputs(outputs, bound_ids)
                    if compiling_pynative() and any(id(owner.__dict__.get(name)) in bound_ids for owner, name in writes):
                        raise ExplainedFallback(f"{self.name} keeps an input Tensor in an attribute (`self.saved = x`):"
                                                " each call keeps the very Tensor it is given.")
                # an input that compiled code updates in place (x.add_(1)) holds the new value afterwards (MindSpore)
                in_place[:] = [index for index, arg in enumerate(call_args) if id(arg) in updated]
                updates = [call_args[index]._array for index in in_place]
            attributes = traced_attributes(writes)
            attribute_names[:] = [(owner, name) for owner, name, _ in attributes]
            target = grad_inputs.differentiated_output(outputs, has_aux, self.api)
            leaves = [leaf for leaf in jax.tree_util.tree_leaves(target)
                      if isinstance(leaf, (jax.Array, jax.core.Tracer))]
            attribute_values = tuple(value for *_, value in attributes)
            return gradient_sinks.tie(frame, leaves), (outputs, new_values, attribute_values, updates)

        in_place = []
        with saved_tensors.forward_region() as seen_hooks:
            primal_leaves, pullback, (outputs, new_values, attribute_values, in_place_values) = jax.vjp(
                differentiated, weight_values, position_values, has_aux=True)
        for index, value in zip(in_place, in_place_values):
            store_in_place(args[index], value)
        for (owner, name), value in zip(attribute_names, attribute_values):
            setattr(owner, name, value)
        if seen_hooks:
            self._saves_with_hooks = True  # later calls run eagerly, so the hooks see every call's values
            self._straight = None
        pullback = saved_tensors.pass_through_hooks(pullback, seen_hooks)
        if sens is None:
            cotangents = [grad_inputs.cotangent(leaf) for leaf in primal_leaves]
        else:
            sens_leaves = [leaf for leaf in jax.tree_util.tree_leaves(sens)]
            if len(sens_leaves) != len(primal_leaves):
                # Outputs that are no tensors (a shape tuple, a Python number) have no gradient to seed:
                # MindSpore takes a sensitivity for them too and ignores it.
                target = grad_inputs.differentiated_output(outputs, has_aux, self.api)
                output_leaves = jax.tree_util.tree_leaves(target)
                if len(output_leaves) == len(sens_leaves):
                    sens_leaves = [value for value, leaf in zip(sens_leaves, output_leaves)
                                   if isinstance(leaf, (jax.Array, jax.core.Tracer))]
            if len(sens_leaves) != len(primal_leaves):
                raise ValueError(f"For '{self.api}' with sens_param=True, the sensitivity must have the structure of "
                                 f"the function's output ({len(primal_leaves)} tensors), but got "
                                 f"{len(sens_leaves)} tensors.")
            cotangents = [grad_inputs.sensitivity(value, leaf, self.api, compiling_graph())
                          for value, leaf in zip(sens_leaves, primal_leaves)]
        weight_grads, position_grads = pullback(cotangents)
        if not merged:
            lifted.write_back(new_values)  # else the graph's forward already ran: MindSpore moves states once
        position_grads = [jax.tree_util.tree_map(grad_inputs.float0_to_zeros, g, p)
                          for g, p in zip(position_grads, position_values)]
        weight_grads = [grad_inputs.float0_to_zeros(g, p) for g, p in zip(weight_grads, weight_values)]
        position_grads = [weight_grads[weight_slot[id(args[position])]] if id(args[position]) in weight_slot else g
                          for position, g in zip(positions, position_grads)]
        if any(grad_inputs.is_integer(value) for value in position_values + weight_values):
            position_grads, weight_grads = integer_gradients(
                self, fn, args, kwargs, sens, positions, states, current, position_values, position_grads,
                primal_leaves, weight_index, weight_values, weight_grads)
        weight_grads = [leaf_gradient(weight, g) for weight, g in zip(weights, weight_grads)]
        if owners is not None:
            by_owner = dict(zip(positions, position_grads))
            position_grads = [by_owner[owners[position]] for position in requested]
        # A mutable container's gradient has its shape: tuples, lists and dicts of its Tensors' gradients.
        position_grads = [grad_inputs.container_gradient(args[position], g) if isinstance(g, (tuple, dict)) else g
                          for position, g in zip(requested, position_grads)]
        grads = self._structure(requested, position_grads, weight_grads, position_mode)
        if self.get_value:
            return outputs, grads
        if has_aux:
            aux = tuple(outputs[1:]) if isinstance(outputs, (tuple, list)) else ()
            return grads, aux
        return grads

    def _structure(self, positions, position_grads, weight_grads, position_mode):
        inputs = tuple(g if isinstance(g, (tuple, list, dict)) else Tensor._wrap(g) for g in position_grads)
        weighted = tuple(Tensor._wrap(g) for g in weight_grads)
        if self.return_ids:
            inputs = tuple((position, g) for position, g in zip(positions, inputs))
            weighted = tuple((weight.name, g) for weight, g in zip(self.weights or (), weighted))
        if position_mode == "single":
            inputs = inputs[0]
        if self.weight_mode == "single":
            weighted = weighted[0]
        if position_mode is not None and self.weight_mode is not None:
            return inputs, weighted
        if position_mode is not None:
            return inputs
        return weighted


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """A function computing the gradients of ``fn`` w.r.t. inputs and/or Parameters.

    Args:
        fn (Union[Cell, Function]): the function to differentiate.
        grad_position (Union[int, tuple[int], None]): the inputs to differentiate w.r.t. Default: 0.
        weights (Union[Parameter, ParameterTuple, list[Parameter], None]): the Parameters to
            differentiate w.r.t. Default: None.
        has_aux (bool): ``fn`` returns ``(output, aux, ...)``; only ``output`` is differentiated
            and the aux values are returned after the gradients. Default: False.
        return_ids (bool): pair every gradient with its position or Parameter name. Default: False.
        sens_param (bool): the last input of the returned function is the output's sensitivity. Default: False.

    Returns:
        Function: takes ``fn``'s inputs, returns the gradients (see the module doc for structures).
    """
    positions, position_mode = grad_inputs.normalize_positions(grad_position, "grad")
    weight_list, weight_mode = grad_inputs.normalize_weights(weights, "grad")
    if positions is None and weight_list is None:
        raise ValueError("`grad_position` and `weight` can not be None at the same time.")
    return _shared_grad(fn, positions, position_mode, weight_list, weight_mode, has_aux=bool(has_aux),
                        return_ids=bool(return_ids), sens_param=bool(sens_param), api="grad")


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """A function computing ``(fn's output, gradients)``; arguments as ``grad``."""
    positions, position_mode = grad_inputs.normalize_positions(grad_position, "value_and_grad")
    weight_list, weight_mode = grad_inputs.normalize_weights(weights, "value_and_grad")
    if positions is None and weight_list is None:
        raise ValueError("`grad_position` and `weight` can not be None at the same time.")
    return _shared_grad(fn, positions, position_mode, weight_list, weight_mode, has_aux=bool(has_aux),
                        return_ids=bool(return_ids), sens_param=bool(sens_param), get_value=True,
                        api="value_and_grad")


def _shared_grad(fn, positions, position_mode, weights, weight_mode, **options):
    """A GradFunction, reused for an equivalent function object (see ``sporax.state.reuse``)."""
    if not callable(fn):
        raise TypeError(f"For '{options['api']}', 'fn' must be callable (a function or a Cell), but got "
                        f"{type(fn).__name__}.")
    identity = function_identity(fn)
    key = None if identity is None else (identity, positions, position_mode, tuple(map(id, weights or ())),
                                         weight_mode, tuple(sorted(options.items())))
    function = shared(key, lambda: GradFunction(fn, positions, position_mode, weights, weight_mode, **options))
    function.graph_phase = None  # handed out anew: as a new MindSpore grad object
    return function


def get_grad(gradients, identifier):
    """The gradient for ``identifier`` (a position or a Parameter) from a ``return_ids=True`` result."""
    key = identifier.name if is_parameter(identifier) else identifier
    found = _find_grad(gradients, key)
    if found is None:
        raise ValueError(f"For 'get_grad', no gradient for {key!r} was found: pass a grad_position or a Parameter "
                         "that the gradients were computed for (with return_ids=True).")
    return found[0]


def _find_grad(value, key):
    if isinstance(value, tuple):
        if len(value) == 2 and isinstance(value[1], Tensor) and isinstance(value[0], (int, str)):
            return (value[1],) if value[0] == key and type(value[0]) is type(key) else None
        for item in value:
            found = _find_grad(item, key)
            if found is not None:
                return found
    return None
