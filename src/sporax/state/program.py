"""A stateful Python function compiled once per signature into one XLA program.

``build_program(body, discovered, arrays, name)`` traces ``body`` (a function of the traced
argument arrays that reads and writes Parameters) with the discovered states bound to tracers:

1. A recording trace (``jax.make_jaxpr``) finds which states are written, and which
   Parameters the discovery walk missed: a read shows up as a captured constant, a write trips
   the leak guard, a nested sporax call reports ``MissingStates``; they are added and the trace
   repeats. Untraceable Python (``if`` on a tensor) makes an eager program instead.
2. The final program evaluates that trace's jaxpr (the Python is not run again): it takes
   ``(written_values, read_only_values, arrays)``, returns ``(output_arrays, new_written_values)``,
   and donates the written values' old buffers. A Cell attribute the Python set to a traced
   Tensor (``self.last = x + 1``) is returned too and set on the Cell after each run, as
   MindSpore's graph writes it back.

A call (``Program.__call__``) is the per-step host path: read the slots, check by reference
count that no other object shares a donated buffer (else donate a copy of that buffer), run,
write back the written slots (the rule of ``sporax.state.lifting``), rebuild the output structure.
"""
import sys
import weakref

import jax
import numpy as np

from sporax.core import grad_mode, parameter as parameter_module, seeded_streams
from sporax.core.context import GRAPH_MODE, get_mode
from sporax.core.tensor import Tensor
from sporax.state import deferred, discovery, fallback, guards, returned_inputs, world as world_program
from sporax.state.lifting import Lift, store
from sporax.state.python_floats import returned_floats
from sporax.state.fallback import (ExplainedFallback, formatted_from_traced, is_untraceable, replaced,
                                   runtime_print, warn_fallback)
from sporax.state.ordered_outputs import keep_order, restore
from sporax.state.scope import active_scopes, owned_by_active_scope, recording_attribute_writes, traced_attributes

_DYNAMIC = object()
_LONE_TENSOR = jax.tree_util.tree_structure(Tensor._wrap(np.zeros(())))
_MAX_DISCOVERY_ROUNDS = 5


class MissingStates(Exception):
    """Raised inside a trace by a nested sporax call whose Parameters the trace does not own."""

    def __init__(self, states):
        super().__init__(f"{len(states)} Parameters are not lifted by the enclosing trace")
        self.states = states


def require_owned(states):
    """Inside a trace: raise MissingStates for ``states`` no active scope owns."""
    missing = [state for state in states if not owned_by_active_scope(state)]
    if missing:
        raise MissingStates(missing)


def walked_cells(discovered):
    """A scope's ``walked`` for ``discovered``: the Cells its walk went through, at this structure version."""
    return discovery.structure_version(), frozenset(map(id, discovered.cells))


def walked_by_active_scope(cell):
    """Whether an active scope's discovery walked ``cell``'s tree with the Cell trees as they are now: the
    Parameters that tree holds are then that scope's already, and a Cell called inline need not walk it
    again (ResNet-18's train step: 83 inline Cell calls, ~30 ms of a 0.2 s trace on a quiet 2-core machine)."""
    version = discovery.structure_version()
    for scope in active_scopes():
        walked = scope.walked
        if walked is not None and walked[0] == version and id(cell) in walked[1]:
            return True
    return False


def _max_private_references():
    class Holder:
        __slots__ = ("_array",)

    holder = Holder()
    holder._array = jax.numpy.zeros(())
    return max(map(sys.getrefcount, [holder._array]))


_PRIVATE_REFERENCES = _max_private_references()


# One program copies a call's shared buffers (``jnp.array(copy=True)`` is XLA's copy: new buffers).
@jax.jit
def _copies(values):
    return [jax.numpy.array(value, copy=True) for value in values]


def unshared(values):
    """``values`` (read from state slots) with each buffer another object also holds replaced by a copy.

    A program donates its written states' old buffers; one shared with another Parameter (a clone
    made with ``init="same"``, as mindcv's EMA weights are before the first step) or a live Tensor
    must survive the call, so its copy is donated instead. The donating program then serves every
    call: a non-donating variant would be a second compile of the whole train step at step 2, when
    the buffers are no longer shared (issue 26: 308 s for mobilenet_v3_small on XLA:CPU).

    Args:
        values (list): the arrays of the state slots (each slot and ``values`` hold one reference).

    Returns:
        list: ``values`` itself when no buffer is shared, else a new list with copies in its place.

    Example:
        >>> import jax.numpy as jnp
        >>> array = jnp.ones(2)
        >>> values = [array, array]  # two slots (here: one list) share one buffer
        >>> copied = unshared(values)
        >>> copied[0] is array, copied[0].tolist()
        (False, [1.0, 1.0])
    """
    if not values:
        return values
    counts = list(map(sys.getrefcount, values))
    if max(counts) <= _PRIVATE_REFERENCES:
        return values
    positions = [index for index, count in enumerate(counts)
                 if count > _PRIVATE_REFERENCES and isinstance(values[index], jax.Array)]
    values = list(values)
    for index, copy in zip(positions, _copies([values[index] for index in positions])):
        values[index] = copy
    return values


def _is_array(value):
    return isinstance(value, (jax.Array, jax.core.Tracer, np.ndarray, np.generic))


class Program:
    """One compiled (or, after a fallback, eager) variant of a function for one signature."""

    __slots__ = ("name", "eager", "states", "written", "readonly", "_final", "_donating",
                 "treedef", "template", "all_dynamic", "lone_tensor", "error", "has_dict", "world",
                 "output_scalars", "written_scalars", "size", "deferrable", "fused_with", "unfused_updates",
                 "tensor_structure", "constant_output", "attributes", "prints", "argument_writes", "returned_list",
                 "frozen_globals", "lazy", "output_avals", "lazy_placeholders", "lazy_steps", "lazy_last",
                 "lazy_resumes", "returned_input", "helper_replays", "reseeds", "has_run", "effects")

    def __init__(self, name):
        self.name = name
        self.eager = False
        self.error = None
        self.world = False
        self.size = 0  # the states' elements: what decides whether to fuse it with an update (state.deferred)
        self.deferrable = False
        self.fused_with = {}  # pending update's program -> how the pair runs (sporax.state.deferred)
        self.unfused_updates = 0
        self.tensor_structure = None
        self.constant_output = None  # the outputs when they are all Python constants (an optimizer's True)
        self.attributes = ()  # (weak reference to a Cell, attribute name): set from the run's values
        self.prints = False  # the program prints (sporax.state.fallback.graph_print)
        self.effects = False  # the program has side effects (host callbacks: prints, draws of host random streams)
        # Positions among the traced arrays of the Tensor arguments the program updates in place: it
        # returns (outputs, their new values) and the caller stores them (sporax.state.arguments).
        self.argument_writes = ()
        # the module-level or argument list a jitted function returns itself (sporax.graph.jit)
        self.returned_list = None
        # the module-level containers an eager rerun sees as first compiled (sporax.graph.attribute_views)
        self.frozen_globals = None
        # the changes to outside lists that helpers make at every call (sporax.graph.helper_changes)
        self.helper_replays = ()
        # ("state", i) or ("argument", i) when the program returns that input untouched (see returned_input)
        self.returned_input = None
        # its trace took seeded random ops' seed pairs (sporax.core.seeded_streams): a call that MindSpore
        # compiles anew each time takes new ones (sporax.graph.cell_jit); has_run: it ran once already
        self.reseeds = False
        self.has_run = False
        # Pending results (sporax.state.lazy): whether calls qualify (None: not decided yet), the output
        # leaves' shapes, and the fused (gradient, update) steps with their argument placeholders.
        self.lazy = None
        self.output_avals = ()
        self.lazy_placeholders = {}
        self.lazy_steps = {}
        self.lazy_last = None  # the last fused step: (optimizer's cache, positions, change count, step, ...)
        self.lazy_resumes = 0  # held-back updates applied early for this gradient program since its last fused step

    def __call__(self, arrays):
        if parameter_module.deferred_update is not None:  # an optimizer update is pending (sporax.state.deferred)
            leaves = deferred.run_after_pending(self, arrays, unshared)
            if leaves is not None:
                return self.outputs(leaves)
        return self.run(arrays)

    def run(self, arrays, readonly=None):
        """The call itself: ``arrays`` in, outputs out, written states stored. ``readonly``: the read-only
        states' values when not their current ones (a deferred call's, taken when it was made)."""
        written = self.written
        old = unshared([state._array for state in written])
        if readonly is None:
            readonly = [state._array for state in self.readonly]
        function = self._donating
        if self.world:
            return self._call_world(function, old, readonly, arrays)
        leaves, new_values = function(old, readonly, arrays)
        store(written, new_values)
        return self.outputs(leaves)

    def world_arguments(self, old, readonly, arrays):
        """This process's arguments as its blocks of the world arrays (``sporax.state.world``)."""
        to_global = world_program.to_global
        return ([to_global(value) for value in old], [to_global(value) for value in readonly],
                jax.tree_util.tree_map(to_global, arrays))

    def _call_world(self, function, old, readonly, arrays):
        leaves, new_values, _ = function(*self.world_arguments(old, readonly, arrays))
        from_global = world_program.from_global
        store(self.written, [from_global(value, scalar) for value, scalar in zip(new_values, self.written_scalars)])
        return self.outputs([from_global(leaf, scalar) for leaf, scalar in zip(leaves, self.output_scalars)])

    def lower(self, arrays):
        """The jitted program lowered for ``arrays`` and the current state values (for inspection)."""
        old = [state._array for state in self.written]
        readonly = [state._array for state in self.readonly]
        if self.world:
            return self._donating.lower(*self.world_arguments(old, readonly, arrays))
        return self._donating.lower(old, readonly, arrays)

    def outputs(self, leaves):
        if self.prints:
            jax.effects_barrier()  # its prints appear before the call returns, as MindSpore's graph prints do
        if not self.attributes:
            return self._rebuilt(leaves)
        results, written = self._rebuilt(leaves)
        for (owner, name), tensor in zip(self.attributes, written):
            cell = owner()
            if cell is not None:
                setattr(cell, name, tensor)
        return results

    def _rebuilt(self, leaves):
        if self.lone_tensor:  # the common case (a loss), without a pytree rebuild
            return Tensor._wrap(leaves[0])
        if self.constant_output is not None:
            return self.constant_output[0]
        if self.tensor_structure is not None:  # tuples of Tensors (a loss and gradients): no per-leaf callback
            return self.tensor_structure.unflatten(_wrap_all(leaves))  # the treedef's own method: one call fewer
        if not self.all_dynamic:
            iterator = iter(leaves)
            leaves = [next(iterator) if item is _DYNAMIC else item for item in self.template]
        outputs = jax.tree_util.tree_unflatten(self.treedef, leaves)
        return restore(outputs) if self.has_dict else outputs


_new_object = object.__new__


def _wrap_all(arrays):
    """``[Tensor._wrap(array) for array in arrays]``, inlined: a call's outputs are wrapped on every step."""
    if grad_mode.disabled[0]:
        return [Tensor._wrap(array) for array in arrays]  # tracers under _no_grad become constants there
    tensors = []
    for array in arrays:
        tensor = _new_object(Tensor)
        tensor._array = array
        tensor._init = None
        tensors.append(tensor)
    return tensors


def _constant_output(treedef, template):
    """``(outputs,)`` when every output is an immutable Python constant (an optimizer's ``True``), else None."""
    if not all(type(item) in (bool, int, float, str, type(None)) for item in template):
        return None
    outputs = jax.tree_util.tree_unflatten(treedef, template)
    return (outputs,) if all(type(node) is tuple for node in _containers(outputs)) else None


def _containers(value):
    if isinstance(value, (list, tuple, dict)):
        yield value
        for item in (value.values() if isinstance(value, dict) else value):
            yield from _containers(item)


def _tensor_structure(treedef, count):
    """``treedef`` with each Tensor node as a leaf, when every one of its ``count`` leaves is a Tensor's
    array (else None): the outputs then rebuild from the wrapped leaves without a Python call per node."""
    try:
        rebuilt = jax.tree_util.tree_unflatten(treedef, list(range(count)))
        tensors, structure = jax.tree_util.tree_flatten(rebuilt, is_leaf=lambda value: type(value) is Tensor)
    except Exception:  # noqa: BLE001 - a custom node that cannot hold markers: the general rebuild
        return None
    if len(tensors) != count or any(type(tensor) is not Tensor or tensor._array != index
                                    for index, tensor in enumerate(tensors)):
        return None
    return structure


def _flat_body(lifted, record, strict_print=False):
    """``(state_values, arrays) -> (output_array_leaves, new_state_values)`` around ``lifted``."""

    def flat(state_values, arrays):
        prints = fallback.graph_prints[0]
        with runtime_print(strict_print), recording_attribute_writes() as writes:
            outputs, new_values = lifted(state_values, arrays)
        record["prints"] = fallback.graph_prints[0] != prints
        attributes = traced_attributes(writes)
        record["attributes"] = [(weakref.ref(owner), name) for owner, name, _ in attributes]
        if attributes:  # returned with the outputs; Program.outputs sets them on their Cells
            outputs = (outputs, tuple(tensor for _, _, tensor in attributes))
        if not strict_print or get_mode() == GRAPH_MODE:  # a PyNative gradient's program: Python's floats
            outputs = returned_floats(outputs)
        # A NumPy scalar is a compile-time constant: MindSpore returns it as a Python number, not a tensor.
        outputs = replaced(outputs, np.generic, lambda value: value.item())
        outputs, record["has_dict"] = keep_order(outputs)
        leaves, treedef = jax.tree_util.tree_flatten(outputs)
        fallback.refuse_outputs(leaves)
        if any(formatted_from_traced(leaf) for leaf in leaves):
            # MindSpore formats it when the graph runs, so the string holds the values (f"x: {x}")
            raise ExplainedFallback("The function returns a string formatted from a Tensor it computes; the "
                                    "values exist only when it runs, so it runs eagerly to return them.")
        # A NumPy array is a compile-time constant too: MindSpore's graph returns it as that NumPy array.
        dynamic = [leaf for leaf in leaves if _is_array(leaf) and type(leaf) is not np.ndarray]
        record["treedef"] = treedef
        record["template"] = [_DYNAMIC if _is_array(leaf) and type(leaf) is not np.ndarray else leaf
                              for leaf in leaves]
        return dynamic, new_values

    return flat


def _missed_reads(consts, states):
    owned = {id(state) for state in states}
    by_array = {}
    for state in guards.known_states():
        array = state._array
        if id(state) not in owned and array is not None:
            by_array[id(array)] = state
    if not by_array:
        return []
    return [by_array[id(const)] for const in consts if id(const) in by_array]


def record_states(trace, discovered, name):
    """Run ``trace()`` until no state is missing; returns its result (discovery grows in place).

    Raises the original error for a genuine user error; returns None when the Python cannot
    be traced (the caller falls back to eager) after warning once.
    """
    for _ in range(_MAX_DISCOVERY_ROUNDS):
        try:
            return trace()
        except MissingStates as missing:
            if not discovered.add(missing.states):
                raise
        except guards.StateLeakError as leak:
            if not discovered.add(getattr(leak, "states", [])):
                raise
    return trace()


def _multi_device_sharding(value):
    sharding = getattr(value, "sharding", None)
    if isinstance(value, jax.Array) and sharding is not None and len(sharding.device_set) > 1:
        return sharding
    return None


def _split_unread(jaxpr, written_flags, output_count):
    """``(read, unread)``: the indices of the read-only states the jaxpr reads, and of those it does not.

    The jaxpr's outputs are the output leaves, then every state's new value (a read-only state's is
    its input, dropped by the program): those outputs do not count as reads."""
    count = len(written_flags)
    dropped = {output_count + index for index, flag in enumerate(written_flags) if not flag}
    used = {id(var) for equation in jaxpr.eqns for var in equation.invars}
    used.update(id(var) for position, var in enumerate(jaxpr.outvars) if position not in dropped)
    read, unread = [], []
    for index, (flag, var) in enumerate(zip(written_flags, jaxpr.invars[:count])):
        if not flag:
            (read if id(var) in used else unread).append(index)
    return read, unread


def build_program(body, discovered, arrays, name, strict_print=False, hint=None, warn=True):
    """Trace and compile ``body(arrays)`` with ``discovered.states`` lifted; see the module doc.

    ``hint()`` (optional) names what stopped the compiler's own conversion of the Python, for the
    fallback warning. ``strict_print``: code that sporax compiles behind the user's back (a gradient
    called outside a trace): its prints run on every call (``sporax.state.fallback.runtime_print``).
    ``warn=False``: fall back to eager without a warning (PyNative code is eager code), and leave Python's own
    errors as Python words them (``'tuple' object has no attribute``), as MindSpore's PyNative mode does.

    The user's Python runs once per signature: the recording trace's jaxpr is what the final
    program evaluates (outputs of states that were not written are dead code XLA removes).
    """
    program = Program(name)
    record = {}

    output_flags = []  # the outputs' scalar flags, when traced as the per-rank view of a world program

    def recording_trace():
        lifted = Lift(body, discovered.states, name, walked_cells(discovered))
        values = lifted.values()
        flat = _flat_body(lifted, record, strict_print)
        if program.world:
            output_flags.clear()
            scalars = jax.tree_util.tree_map(lambda value: np.ndim(value) == 0, (values, arrays))
            avals = jax.tree_util.tree_map(world_program.global_aval, (values, arrays))
            closed = jax.make_jaxpr(world_program.per_rank(flat, scalars, output_flags))(*avals)
        else:
            closed = jax.make_jaxpr(flat)(values, arrays)
        missing = _missed_reads(closed.consts, lifted.states)
        if missing:
            raise MissingStates(missing)
        return lifted, closed

    seed_counters = seeded_streams.op_seed_counters()
    try:
        try:
            lifted, closed = record_states(recording_trace, discovered, name)
        except world_program.NeedsWorldProgram:
            program.world = True
            lifted, closed = record_states(recording_trace, discovered, name)
            if not world_program.processes_agree(closed, name):
                raise world_program.DivergentPrograms(name) from None
    except Exception as error:  # noqa: BLE001 - classified right below
        if not is_untraceable(error):
            fallback.drop_jax_note(error)
            # MindSpore's graph type names ('Tuple' object has no ...); PyNative code keeps Python's
            renamed = fallback.graph_attribute_error(error) if warn else None
            if renamed is not None:
                raise renamed from None
            raise
        strict = fallback.strict_syntax_error(error)
        if strict is not None:
            raise strict from None
        if warn:
            warn_fallback(name, error, detail=hint() if hint is not None else None)
        # the seeded ops the trace reached took their op seeds; the eager calls take them again
        seeded_streams.restore_op_seed_counters(seed_counters)
        program.eager = True
        program.error = error
        return program

    written_flags = lifted.written
    states = lifted.states
    program.states = states
    program.written = lifted.written_states()
    written_index = [index for index, flag in enumerate(written_flags) if flag]
    count = len(states)
    template = record["template"]
    dynamic_count = sum(1 for item in template if item is _DYNAMIC)
    jaxpr, consts = closed.jaxpr, closed.consts
    program.effects = bool(closed.effects)
    # A read-only state the trace never reads (the RNG key of a network without dropout) is not an
    # input: each argument is host time on every call (~0.3 us in JAX's dispatch).
    readonly_index, unread_index = _split_unread(jaxpr, written_flags, dynamic_count)
    program.readonly = [states[index] for index in readonly_index]
    unread = [(index, states[index]._array) for index in unread_index]
    unread = [(index, jax.ShapeDtypeStruct(np.shape(value), value.dtype)) for index, value in unread]
    # A written Parameter laid out over several devices (a sharding strategy, AutoParallel's search,
    # the parallel optimizer; replicated ones too) keeps that layout across steps instead of the one
    # XLA would pick for the new value.
    layouts = [_multi_device_sharding(states[index]._array) for index in written_index]

    def final(written_values, readonly_values, traced_arrays):
        values = [None] * count
        for index, value in zip(written_index, written_values):
            values[index] = value
        for index, value in zip(readonly_index, readonly_values):
            values[index] = value
        for index, shape in unread:
            values[index] = jax.numpy.zeros(shape.shape, shape.dtype)  # never read: dead code to XLA
        results = jax.core.eval_jaxpr(jaxpr, consts, *values, *traced_arrays)
        new_values = results[dynamic_count:dynamic_count + count]
        written = [new_values[index] if layout is None else jax.lax.with_sharding_constraint(new_values[index], layout)
                   for index, layout in zip(written_index, layouts)]
        outputs = results[:dynamic_count], written
        # A world program's last output keeps its collectives alive (sporax.state.world.keep_alive).
        return outputs + (results[-1],) if program.world else outputs

    if program.world:
        program.output_scalars = jax.tree_util.tree_leaves(output_flags[-1][0])
        program.written_scalars = [np.ndim(state._array) == 0 for state in program.written]

    program._final = final
    program._donating = jax.jit(final, donate_argnums=(0,))
    program.treedef = record["treedef"]
    program.output_avals = [jax.ShapeDtypeStruct(aval.shape, aval.dtype) for aval in closed.out_avals[:dynamic_count]]
    program.attributes = record["attributes"]
    program.prints = record["prints"]
    program.template = template
    program.has_dict = record["has_dict"]
    program.all_dynamic = all(item is _DYNAMIC for item in template)
    program.lone_tensor = program.all_dynamic and program.treedef == _LONE_TENSOR
    program.tensor_structure = (_tensor_structure(program.treedef, dynamic_count)
                                if program.all_dynamic and not program.has_dict and not program.lone_tensor else None)
    # Dicts come back as OrderedNodes (their order kept through the trace): those outputs take the general rebuild.
    program.constant_output = None if program.has_dict else _constant_output(program.treedef, template)
    program.size = sum(int(np.size(state._array)) for state in states)
    program.deferrable = deferred.deferrable(program, program.constant_output is not None)
    if program.lone_tensor and not program.world and not any(written_flags) and not program.prints \
            and not program.attributes and not lifted.joined:
        program.returned_input = returned_inputs.input_returned(closed, count)
    return program

