"""Tracing a branch or loop body once, with the lifted Parameters as explicit inputs.

``trace(function, arrays, states)`` runs ``function(arrays)`` under ``jax.make_jaxpr`` with the
lifted states (``sporax.state.scope.lifted_states``: every Parameter and the RNG state the
enclosing compiled function owns) bound to fresh tracers through
``sporax.state.lifting.Lift``. The result records the jaxpr, the abstract Python
value the function returned, and which states it wrote. ``Traced.evaluate`` replays the jaxpr
inside ``lax.cond``/``while_loop``/``scan`` without running the Python again, so each branch
and body runs exactly once per compilation.

``cond`` builds the converted ``if``: both branches traced, their variables merged
(``values.merge``), ``lax.cond`` over the two replays, written states rebound to its results.
"""
import contextlib
import threading

import jax
from jax import lax

from sporax.core import jax_private
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.graph.control_flow.item_assignment import item_source
from sporax.graph.control_flow.transformer import RETURN_FLAG
from sporax.graph.control_flow.values import (RETURN_PENDING, ControlFlowFallback, Undefined, abstract, flatten, fresh,
                                              is_array, merge)
from sporax.state.arguments import store_in_place
from sporax.state.conditional import write_states
from sporax.state.lifting import Lift
from sporax.state.fallback import is_untraceable
from sporax.state.scope import (current_scope, in_compiled_trace, lifted_states, note_control_flow_join,
                                note_parameter_result, parameter_behind)


_reverse = threading.local()


def linearized(tree):
    """Whether reverse-mode (linearize) tracers are among the leaves of ``tree``."""
    return any(jax_private.is_reverse_mode_tracer(leaf) for leaf in jax.tree_util.tree_leaves(tree))


def in_reverse():
    """Whether the branch or loop body being traced now is inside a reverse-mode gradient (its own
    inputs are fresh tracers, so a loop inside it cannot see that from its values). A ``False``
    answer is noted: a trace that turns out to be differentiated is redone only if one was given."""
    if getattr(_reverse, "depth", 0) > 0:
        return True
    _reverse.asked = getattr(_reverse, "asked", 0) + 1
    return False


@contextlib.contextmanager
def _reverse_scope(active):
    _reverse.depth = getattr(_reverse, "depth", 0) + int(active)
    try:
        yield
    finally:
        _reverse.depth -= int(active)


class Traced:
    """One traced function: jaxpr, output skeleton, written-state flags."""

    __slots__ = ("closed", "treedef", "skeleton", "written")

    def evaluate(self, arrays, state_values):
        """``(python_value, state_values_after)`` from replaying the jaxpr on these inputs."""
        inputs = jax.tree_util.tree_leaves((list(arrays), list(state_values)))
        outputs = jax.core.eval_jaxpr(self.closed.jaxpr, self.closed.consts, *inputs)
        dynamic = iter(outputs[:len(outputs) - len(state_values)])
        leaves = [next(dynamic) if is_array(leaf) else leaf for leaf in self.skeleton]
        value = jax.tree_util.tree_unflatten(self.treedef, leaves)
        return value, outputs[len(outputs) - len(state_values):]

    def evaluate_with(self, consts, arrays, state_values):
        """``(flat_array_outputs, state_values_after)`` from replaying the jaxpr with explicit ``consts``."""
        outputs = jax.core.eval_jaxpr(self.closed.jaxpr, consts, *list(arrays), *list(state_values))
        split = len(outputs) - len(state_values)
        return outputs[:split], outputs[split:]

    def abstract_value(self):
        return jax.tree_util.tree_unflatten(self.treedef, self.skeleton)

    def consts(self):
        return self.closed.consts


def trace(function, arrays, states):
    """Trace ``function(arrays)`` (see the module doc)."""
    traced = Traced()
    scope = current_scope()
    lifted = Lift(function, states, scope.name if scope is not None else getattr(function, "__qualname__", "branch"))

    def flat(traced_arrays, state_values):
        value, after = lifted(state_values, traced_arrays)
        leaves, traced.treedef = flatten(value)
        traced.skeleton = [abstract(leaf) if is_array(leaf) else leaf for leaf in leaves]
        traced.written = lifted.written
        return [leaf for leaf in leaves if is_array(leaf)], after

    state_values = [state._value for state in states]
    reverse = getattr(_reverse, "depth", 0) > 0 or linearized(state_values)
    asked = getattr(_reverse, "asked", 0)
    with _reverse_scope(reverse):
        traced.closed = jax.make_jaxpr(flat)(list(arrays), state_values)
    if not reverse and getattr(_reverse, "asked", 0) != asked and linearized(traced.closed.consts):
        # a loop inside chose its form without knowing that the values it closes over are differentiated
        with _reverse_scope(True):
            traced.closed = jax.make_jaxpr(flat)(list(arrays), state_values)
    return traced


def _after_return(first, second, names):
    """A branch that surely returned leaves its other variables unused: one it did not assign takes
    the other branch's value (``if c: a = f(x) else: return y`` then ``return a``, as MindSpore)."""
    if RETURN_FLAG not in names:
        return first, second
    flag = names.index(RETURN_FLAG)
    first, second = list(first), list(second)
    for returned, other in ((first, second), (second, first)):
        if returned[flag] is True and other[flag] is not True:
            for index, name in enumerate(names):
                if index != flag and isinstance(returned[index], Undefined) and not isinstance(other[index],
                                                                                                Undefined):
                    returned[index] = RETURN_PENDING  # emitted as zeros, never read
    return tuple(first), tuple(second)


def cond(predicate, true_function, false_function, values, names, line, construct="'if'", where=None):
    """The converted ``if`` on a traced boolean scalar ``predicate``: new values of ``names`` (``where``: the
    file and each name's branch lines, for a join error)."""
    states = lifted_states()
    state_values = [state._value for state in states]

    in_place = set()  # positions of the names a branch updated in place (``x += 1``)
    parameters = []  # per branch trace: positions still naming the Parameter they got (``x op= y`` keeps it)

    def branch(function):
        def run(_):
            inputs = [fresh(value) for value in values]
            arrays = [getattr(given, "_array", None) for given in inputs]
            current_scope().branch_inputs = {id(given) for given in inputs if isinstance(given, Tensor)}
            outputs = function(*inputs)
            # changed in place: ``x += 1`` (noted) or ``x[0] = 7`` (the same object, another array)
            in_place.update(index for index, (given, result, array) in enumerate(zip(inputs, outputs, arrays))
                            if changed_in_place(given, result, array))
            parameters.append({index for index, (given, result) in enumerate(zip(inputs, outputs))
                               if isinstance(given, Parameter)
                               and (result is given or parameter_behind(result) is given)})
            return outputs

        return trace(run, [], states)

    try:
        first, second = branch(true_function), branch(false_function)
    except Exception as error:  # noqa: BLE001 - only a PyNative step's branch errors are re-classified
        if in_compiled_trace() or is_untraceable(error):
            raise
        # PyNative code compiled behind the user's back (Model's or a TrainOneStepCell's step): MindSpore
        # runs only the branch the value takes, so a branch's error (mindcv's gradient accumulation
        # assigning an int to a Parameter attribute when the count is reached) must wait for that branch.
        raise ControlFlowFallback(f"a branch of the {construct} at line {line} raised {type(error).__name__}: "
                                  f"{error}; PyNative runs only the branch its value takes, so this step runs "
                                  "eagerly.") from error
    first_value, second_value = _after_return(first.abstract_value(), second.abstract_value(), names)
    plans = [merge(a, b, name, construct, line, where) for a, b, name in zip(first_value, second_value, names)]
    written = [index for index, (a, b) in enumerate(zip(first.written, second.written)) if a or b]

    def replay(traced):
        def run(operands):
            value, after = traced.evaluate([], operands)
            arrays = []
            for plan, item in zip(plans, value):
                if plan is not None and not isinstance(plan, Undefined):
                    arrays.extend(plan.emit(item))
            return arrays, [after[index] for index in written]

        return run

    arrays, new_states = lax.cond(predicate, replay(first), replay(second), state_values)
    write_states([states[index] for index in written], new_states)
    if written and construct == "'if'":
        note_control_flow_join()
    iterator = iter(arrays)
    results = []
    for plan, a in zip(plans, first_value):
        if plan is None:  # undefined (or no return yet) after both branches
            results.append(a)
        elif isinstance(plan, Undefined):
            results.append(plan)
        else:
            results.append(plan.build(iterator))
    for index in in_place:
        results[index] = kept_in_place(values[index], results[index])
    for index in set.intersection(*parameters) if parameters else ():
        note_parameter_result(results[index], values[index])
    return tuple(results)


def changed_in_place(given, result, array):
    """Whether a branch or loop body changed the Tensor ``given`` (holding ``array`` when it started) in place: the
    same object with another array (``x += 1``), or the value item assignments made from it (``x[0] = 7``)."""
    if not isinstance(given, Tensor):
        return False
    return (given is result and given._array is not array) or item_source(result) is given


def kept_in_place(original, result):
    """``result``, the joined value of a name a branch changed in place (``x += 1``, ``x[0] = 7``), or ``original``
    holding it.

    MindSpore 2.10's graph runs a branch on a tensor condition as another graph: an input Tensor reaches it as
    a copy (the caller's keeps its value), unless an ``x += y`` had updated it before; it is then the caller's
    object, and the branch's change reaches the caller too (``x += 10; if y > 0: x += 1`` leaves 16)."""
    scope = current_scope()
    if (type(original) is not Tensor or scope is None or id(original) not in scope.updated
            or not isinstance(result, Tensor) or result.shape != original.shape):
        return result
    store_in_place(original, result._array.astype(original._array.dtype))
    return original

