"""Converted loops whose trip count depends on a traced tensor: ``lax.while_loop`` and ``lax.scan``.

The loop-carried variables are those the body assigns (``analysis.assigned_names``) whose value
before the loop consists of Tensors, arrays or Python numbers; a name first assigned inside the
body is local to one iteration; any other value (a Cell, None, a string) must come out of the
body unchanged. Python numbers become Tensors (as MindSpore's graph does). The carry's dtypes
are found by a fixed point: the body is traced with the current dtypes and retraced with
promoted ones while its results need wider types (``i = 0`` then ``i = i + 0.5``). The lifted
Parameters the body writes are carried too, so optimizer steps and statistics inside a loop
update their Parameters.

``lax.scan`` (``for row in tensor``) is differentiable in reverse mode. A ``while`` (and
``for i in range(tensor)``) runs through ``reverse``: a masked ``scan`` when its trip count has
a bound known while tracing, otherwise ``lax.while_loop`` with an exact custom reverse-mode rule
(checkpointed recomputation); a forward-mode ``jvp`` gets the plain ``lax.while_loop``. Loops
with a Python bound never get here: they run as Python, unrolled, with each tensor-dependent
``break`` becoming a ``cond``, which is exact and differentiable.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.core import jax_private
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.graph.control_flow import reverse
from sporax.graph.control_flow.analysis import HELPER_PREFIX
from sporax.graph.control_flow.bound import trip_bound
from sporax.graph.control_flow.tracing import (ControlFlowFallback, changed_in_place, in_reverse, kept_in_place,
                                               linearized, trace)
from sporax.graph.control_flow.values import (ReturnPending, Undefined, abstract_value, describe, flatten, is_array,
                                              is_number, number_dtype, number_tensor, plain_equal,
                                              stands_for_number, zeros_like)
from sporax.state.arguments import MutableScalar
from sporax.state.conditional import write_states
from sporax.state.scope import (in_compiled_trace, lifted_states, note_parameter_result, owned_by_active_scope,
                                parameter_behind)

_MAX_PROMOTIONS = 4


def _forward_mode(arrays):
    """Whether forward-mode (``jvp``) tracers are among ``arrays`` (reverse mode uses LinearizeTracer)."""
    return any(jax_private.is_forward_mode_tracer(array) for array in jax.tree_util.tree_leaves(arrays))


class _ParameterRebound(Exception):
    """The body rebinds a name that held a Parameter to another value: the loop carries it after all."""


class _Carry:
    """Which variables a loop carries, and how to rebuild them from flat arrays. A Parameter stays itself
    (``keep_parameters``) while the body only updates it with ``x op= y``, as MindSpore's graph does: the
    lifted state carries its value."""

    def __init__(self, values, names, construct, line, keep_parameters=True):
        self.values, self.names, self.construct, self.line = values, names, construct, line
        self.carried = []  # (index, treedef, number_flags, structure)
        self.tensors = set()  # positions of number leaves the body makes Tensors
        self.parameters = {index for index, value in enumerate(values)
                           if keep_parameters and isinstance(value, Parameter) and owned_by_active_scope(value)}
        init = []
        for index, value in enumerate(values):
            if isinstance(value, Undefined) or index in self.parameters:
                continue
            leaves, treedef = flatten(value)
            if leaves and all(is_array(leaf) or is_number(leaf) for leaf in leaves):
                self.carried.append((index, treedef, [is_number(leaf) for leaf in leaves]))
                init.extend(leaves)
        arrays = [leaf._value if isinstance(leaf, Tensor) else jnp.asarray(leaf, number_dtype(leaf)) if is_number(leaf)
                  else jnp.asarray(leaf) for leaf in init]
        # Values known before the loop (numbers, constants): trip bounds are derived from them.
        self.known = {}
        for position, leaf in enumerate(init):
            value = leaf._value if isinstance(leaf, Tensor) else leaf
            if not isinstance(value, jax.core.Tracer):
                self.known[position] = np.asarray(value)
        self.init = [lax.convert_element_type(array, array.dtype) for array in arrays]  # strong dtypes
        self.dtypes = [array.dtype for array in self.init]

    def rebuild(self, arrays, tensors=frozenset()):
        """The carried values from flat ``arrays``; a number leaf stands for a number unless its position is in
        ``tensors``."""
        values = list(self.values)
        position = 0
        for index, treedef, numbers in self.carried:
            leaves = []
            for number in numbers:
                array = arrays[position]
                if number:
                    array = Tensor._wrap(array) if position in tensors else number_tensor(array)
                leaves.append(array)
                position += 1
            values[index] = jax.tree_util.tree_unflatten(treedef, leaves)
        return tuple(values)

    def flat_results(self, new_values, promote):
        """The carried leaves of the body's results, cast to the carry dtypes (noting promotions)."""
        carried_index = {index for index, _, _ in self.carried}
        for index, (old, new) in enumerate(zip(self.values, new_values)):
            if index in self.parameters and new is not old and parameter_behind(new) is not old:
                raise _ParameterRebound
            if index in carried_index or isinstance(old, Undefined) or index in self.parameters:
                continue
            if new is not old and not (type(new) is type(old) and plain_equal(new, old)):
                raise ControlFlowFallback(
                    f"The {self.construct} at line {self.line} changes the variable '{self.names[index]}' from "
                    f"{describe(old)} to {describe(new)}; only Tensors and numbers can change in a loop on a "
                    "tensor condition.")
        arrays, position = [], 0
        for index, treedef, numbers in self.carried:
            leaves, new_tree = flatten(new_values[index])
            if len(leaves) != len(numbers) or not all(is_array(leaf) or is_number(leaf) for leaf in leaves):
                raise TypeError(f"In the {self.construct} at line {self.line}, the variable '{self.names[index]}' "
                                f"is {describe(self.values[index])} before the loop and {describe(new_values[index])}"
                                " after an iteration: a loop-carried variable must keep its type and structure.")
            new = new_values[index]
            if numbers == [True] and isinstance(new, Tensor) and not isinstance(new, MutableScalar) \
                    and not stands_for_number(new):
                self.tensors.add(position)  # ``s = 0`` before, ``s = s + row.sum()`` in the body: a Tensor after
            for leaf in leaves:
                array = jnp.asarray(leaf)
                dtype = self.dtypes[position]
                if array.ndim != self.init[position].ndim and in_compiled_trace():
                    # MindSpore's graph compiler cannot join ranks: it unrolls the loop until its depth limit
                    raise RuntimeError(
                        f"Exceed function call depth limit 1000: in the {self.construct} at line {self.line}, the "
                        f"variable '{self.names[index]}' has rank {self.init[position].ndim} before the loop and "
                        f"{array.ndim} after an iteration; a loop on a tensor condition must keep each Tensor's rank.")
                if array.shape != self.init[position].shape:
                    # MindSpore joins the shapes into a dynamic one; one XLA loop cannot: run eagerly.
                    raise ControlFlowFallback(
                        f"Shape Join Failed: in the {self.construct} at line {self.line}, the variable "
                        f"'{self.names[index]}' has shape {self.init[position].shape} before the loop and "
                        f"{array.shape} after an iteration; a loop compiled into one program needs a fixed shape.")
                wider = jnp.promote_types(dtype, array.dtype) if array.dtype != dtype else dtype
                if wider != dtype:
                    promote[position] = wider
                arrays.append(lax.convert_element_type(array, dtype))
                position += 1
        return arrays


def _predicate_array(value):
    array = value._value if isinstance(value, Tensor) else value
    return jnp.reshape(jnp.asarray(array), ()).astype(bool)


def _trace_body(construct, line, values, names, step, rows, row_aval, states):
    """Trace the body with the carry dtypes at their fixed point: ``(carry, traced, returned)``, where
    ``returned`` maps the index of a not-yet-returned return value to what the body gives it."""
    try:
        return _trace_body_with(_Carry(values, names, construct, line), step, rows, row_aval, states)
    except _ParameterRebound:
        return _trace_body_with(_Carry(values, names, construct, line, False), step, rows, row_aval, states)


def _trace_body_with(carry, step, rows, row_aval, states):
    values = carry.values
    in_place = carry.in_place = set()
    for _ in range(_MAX_PROMOTIONS):
        promote, results = {}, {}

        def body(arrays):
            current = carry.rebuild(arrays[:len(carry.init)])
            before = [getattr(value, "_array", None) for value in current]
            new = step(current) if rows is None else step(current, Tensor._wrap(arrays[-1]))
            results["new"] = new
            # the variables the body changed in place (x += 1, x[0] = 7): the same object, another array
            in_place.update(index for index, (given, result, array) in enumerate(zip(current, new, before))
                            if changed_in_place(given, result, array))
            return carry.flat_results(new, promote)

        example = [jax.ShapeDtypeStruct(array.shape, dtype) for array, dtype in zip(carry.init, carry.dtypes)]
        traced = trace(body, example + ([row_aval] if rows is not None else []), states)
        if not promote:
            break
        for position, dtype in promote.items():
            carry.dtypes[position] = dtype
    returned = {index: abstract_value(new) for index, (old, new) in enumerate(zip(values, results["new"]))
                if isinstance(old, ReturnPending) and not isinstance(new, Undefined)}
    return carry, traced, returned


def run_loop(construct, line, values, names, step, test=None, rows=None, effect=None):
    """Run a converted loop on traced values; returns the variables' new values.

    ``step(values)`` (or ``step(values, row)`` over the leading axis of ``rows``) is the body;
    ``test(values)`` the condition of a while loop.
    """
    if effect:
        raise ControlFlowFallback(f"The {construct} at line {line} runs on a tensor value but has a Python side "
                                  f"effect ({effect}) that one compiled loop cannot repeat.")
    states = lifted_states()
    state_values = [state._value for state in states]
    row_aval = None if rows is None else jax.ShapeDtypeStruct(rows.shape[1:], rows.dtype)
    values = tuple(values)
    for _ in range(2):
        carry, traced, returned = _trace_body(construct, line, values, names, step, rows, row_aval, states)
        if not returned:
            break
        # A `return` inside the loop: carry its value from zeros (the return flag says when it is real).
        values = tuple(zeros_like(returned[index]) if index in returned else value
                       for index, value in enumerate(values))
    written = [index for index, flag in enumerate(traced.written) if flag]

    def all_states(written_values):
        current = list(state_values)
        for index, value in zip(written, written_values):
            current[index] = value
        return current

    def advance(carried, row=None):
        arrays, written_values = carried
        inputs = list(arrays) + ([row] if row is not None else [])
        new_arrays, after = traced.evaluate(inputs, all_states(written_values))
        return list(new_arrays), [after[index] for index in written]

    initial = ([lax.convert_element_type(array, dtype) for array, dtype in zip(carry.init, carry.dtypes)],
               [state_values[index] for index in written])
    if rows is None:
        final_arrays, final_states = _while(construct, line, carry, traced, test, states, state_values, written,
                                            initial)
    else:
        (final_arrays, final_states), _ = lax.scan(lambda carried, row: (advance(carried, row), None), initial,
                                                   rows)
    write_states([states[index] for index in written], final_states)
    # a loop over a Tensor's rows unrolls in MindSpore's graph: a number the body adds a Tensor to is a Tensor after
    results = list(carry.rebuild(final_arrays, carry.tensors if rows is not None else frozenset()))
    carried_index = {index for index, _, _ in carry.carried}
    for index, value in enumerate(values):
        if isinstance(value, Undefined) and not isinstance(value, ReturnPending) and index not in carried_index:
            results[index] = Undefined(names[index], f"The local variable '{names[index]}' is assigned only inside "
                                                     f"the {construct} at line {line}, which runs on a tensor "
                                                     "condition; assign it before the loop to use it afterwards.")
    for index in carry.in_place:  # an input updated before the loop is the caller's: so is the body's update
        results[index] = kept_in_place(values[index], results[index])
    for index in carry.parameters:  # the name still stands for the Parameter, now holding the loop's value
        results[index] = Tensor._wrap(values[index]._value)
        note_parameter_result(results[index], values[index])
    return tuple(results)


def _while(construct, line, carry, traced, test, states, state_values, written, initial):
    """The converted ``while``: ``lax.while_loop``, or a formulation reverse mode can differentiate
    (``reverse``) unless forward-mode tracers show a ``jvp`` (which differentiates ``while_loop``)."""
    tested = trace(lambda arrays: _predicate_array(test(carry.rebuild(arrays))),
                   [jax.ShapeDtypeStruct(array.shape, array.dtype) for array in initial[0]], states)
    if any(tested.written):
        raise ControlFlowFallback(f"The condition of the {construct} at line {line} writes a Parameter; compute "
                                  "the condition without side effects.")
    count = len(initial[0])

    def with_written(all_values, written_values):
        current = list(all_values)
        for index, value in zip(written, written_values):
            current[index] = value
        return current

    def keep_going(carried, params):
        (arrays, written_values), (all_values, _, test_consts) = carried, params
        (flag,), _ = tested.evaluate_with(test_consts, arrays, with_written(all_values, written_values))
        return flag

    def step(carried, params):
        (arrays, written_values), (all_values, body_consts, _) = carried, params
        outputs, after = traced.evaluate_with(body_consts, arrays, with_written(all_values, written_values))
        return list(outputs[:count]), [after[index] for index in written]

    params = (list(state_values), list(traced.consts()), list(tested.consts()))
    if _forward_mode([initial, params]):
        return lax.while_loop(lambda carried: keep_going(carried, params), lambda carried: step(carried, params),
                              initial)
    if in_reverse() or linearized([initial, params]):
        known = {position: np.asarray(value, carry.dtypes[position]) for position, value in carry.known.items()}
        bound = trip_bound(tested, traced, known, count)
        if bound is not None:
            return reverse.bounded_while(keep_going, step, initial, params, bound)
    return reverse.checkpointed_while(keep_going, step, initial, params, f"the {construct} at line {line}")


# the scalar types MindSpore's graph names in "'int64' object is not iterable" (a bool keeps Python's words)
_SCALAR_TYPE_NAMES = ((int, "int64"), (float, "float32"), (type(None), "none"))


def iterable(value):
    """A ``for`` loop's iterable in converted code: a number or None raises MindSpore's TypeError."""
    if not isinstance(value, bool):
        for python_type, graph_name in _SCALAR_TYPE_NAMES:
            if isinstance(value, python_type):
                raise TypeError(f"'{graph_name}' object is not iterable")
    return value


def loop_locals(kind, names, before, values, line):
    """The variables after a loop (``kind``: "'while'" or "'for'"): one its body defines first stays undefined
    after it, as MindSpore 2.10's graph compiler holds it."""
    return tuple(Undefined(name, f"The local variable '{name}' defined in the {kind} loop body cannot be used "
                                 f"outside of the loop body. Please define variable '{name}' before {kind} (line "
                                 f"{line}).")
                 if type(start) is Undefined and not name.startswith(HELPER_PREFIX) else value
                 for name, start, value in zip(names, before, values))
