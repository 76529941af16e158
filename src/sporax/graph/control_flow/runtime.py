"""What converted code calls: each construct decides at run time between Python and lax.

A condition that is a Python value, or a Tensor whose value is known while tracing (a constant,
or a value under an eager gradient), runs the plain Python statement: branches on constants
and loops with Python bounds unroll at trace time, as MindSpore's static graph does. A traced
condition goes to ``tracing.cond`` (``if``, conditional expressions, ``and``/``or`` with tensor
operands) or ``loops.run_loop`` (``while``, ``for`` over a tensor or a tensor ``range``).
"""
import copy
import linecache
import sys

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.graph.control_flow import loops, tracing
from sporax.graph.control_flow.calls import (call, call_instance, inline_lambda, item, plain_member,  # noqa: F401
                                           unbound_in_graph)  # - converted code calls them here
from sporax.graph.control_flow.constant import known_value
from sporax.graph.control_flow.dict_keys import dict_key, subscript  # noqa: F401 - converted code calls them here
from sporax.graph.control_flow.item_assignment import (changed_copy, is_list, list_added, set_item,  # noqa: F401
                                                      unpack)
from sporax.graph.control_flow.formatted_strings import formatted  # noqa: F401 - converted code calls it here
from sporax.graph.control_flow.graph_members import graph_member  # noqa: F401 - converted code calls it here
from sporax.graph.control_flow.module_globals import augmented_global, declared_global, global_name  # noqa: F401
from sporax.graph.control_flow.raise_statement import assert_message, raised  # noqa: F401 - converted code
from sporax.graph.control_flow.scalars import (arith, compare, negative, numbers, scalar_pow,  # noqa: F401
                                               scalar_sum)
from sporax.graph.control_flow.sequences import (checked_range, contains, dict_view,  # noqa: F401
                                                 has_key, loop_iterable)  # - converted code calls them here
from sporax.graph.control_flow.values import (JOIN_FAILED, RETURN_PENDING, Undefined, unassigned,  # noqa: F401
                                              join_failure, stands_for_number)
from sporax.graph.control_flow.with_contexts import with_class, with_context  # noqa: F401 - converted code
from sporax.state.arguments import MutableScalar
from sporax.state.discovery import is_cell
from sporax.state.scope import note_control_flow_join

_UNKNOWN = (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError,
            jax.errors.TracerIntegerConversionError)


def _array_of(value):
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, (jax.Array, jax.core.Tracer)):
        return value
    return None


def _effect(effect):
    """The first side effect a compiled branch or loop cannot carry (a description), or None."""
    if effect is None or isinstance(effect, str):
        return effect
    return next((item for item in effect() if item), None)


def attribute_effect(owner, attribute, description):
    """Storing ``owner.attribute`` is a lifted state write when it is a Cell's Parameter; else a side effect."""
    if is_cell(owner) and attribute in owner.__dict__.get("_params", ()):
        return None
    return description


def predicate(value, construct, line, fold=True):
    """``(python_bool, None)`` when ``value``'s truth is known now, else ``(None, traced_bool_scalar)``.

    ``fold``: a tracer computed from constants only counts as known (``constant.known_value``), as
    MindSpore folds it; loops leave it off, so a long loop on a constant counter stays one loop.
    """
    array = _array_of(value)
    if array is None or not isinstance(array, jax.core.Tracer):
        return bool(value), None
    if array.size != 1:
        # MindSpore's message first (scripts match on it), then where and how to fix it.
        raise ValueError(f"Only tensor which shape is () or (1,) can be converted to bool, but got tensor shape is "
                         f"({', '.join(str(dim) for dim in array.shape)}). The {construct} at line {line} tests it: the truth value of a Tensor "
                         "with more than one element is ambiguous. Reduce it first, e.g. with .all() or .any().")
    try:
        return bool(array), None
    except _UNKNOWN:
        folded = known_value(array) if fold else None
        if folded is not None:
            return bool(folded), None
        return None, jnp.reshape(array, ()).astype(bool)


def if_stmt(test, true_function, false_function, values, names, line, effect=None, lines=None):
    """``if test: ... else: ...`` over the variables ``names`` (current ``values``); ``lines``: per name,
    the lines of its value in each branch (for a join error's message)."""
    known, traced = predicate(test, "'if'", line)
    if traced is None:
        return unassigned(true_function(*values) if known else false_function(*values), names, line, lines, known)
    effect = _effect(effect)
    if effect:
        raise tracing.ControlFlowFallback(f"The 'if' at line {line} depends on a tensor value but has a Python "
                                          f"side effect ({effect}) that a compiled branch cannot perform.")
    where = (sys._getframe(1).f_code.co_filename, dict(zip(names, lines))) if lines else None
    return tracing.cond(traced, true_function, false_function, values, names, line, where=where)


def if_exp(test, true_thunk, false_thunk, line):
    """``a if test else b``."""
    known, traced = predicate(test, "conditional expression", line)
    if traced is None:
        return true_thunk() if known else false_thunk()
    return tracing.cond(traced, lambda: (true_thunk(),), lambda: (false_thunk(),), (), ("<value>",), line,
                        "conditional expression")[0]


def and_(*thunks, line=None):
    """``a and b and ...``: Python's short circuit, or the choice between traced values.

    ``line``: the user's line of an ``and`` written in the source (None for the converter's own);
    there both candidates must join as MindSpore's graph joins them (``_select``).
    """
    value = thunks[0]()
    for thunk in thunks[1:]:
        known, traced = predicate(value, "'and'", line or "?")
        if traced is None:
            if not known:
                return value
            value = thunk()
        else:
            value = _select(traced, thunk(), value, jnp.logical_and, line=line)
    return value


def or_(*thunks, line=None):
    """``a or b or ...``: Python's short circuit, or the choice between traced values (see ``and_``)."""
    value = thunks[0]()
    for thunk in thunks[1:]:
        known, traced = predicate(value, "'or'", line or "?")
        if traced is None:
            if known:
                return value
            value = thunk()
        else:
            value = _select(traced, value, thunk(), jnp.logical_or, tested_first=True, line=line)
    return value


def _select(traced, when_true, when_false, logical, tested_first=False, line=None):
    """``when_true if traced else when_false`` for ``and``/``or`` whose tested operand is traced.

    Two Tensors of one shape and one non-boolean dtype give the chosen Tensor (Python's value
    semantics: ``x and y`` is ``y`` when ``x`` holds, as MindSpore returns it); otherwise the
    boolean ``logical`` of both truths (booleans keep it: the loop-bound analysis reads 'and').
    For a user's ``and``/``or`` (``line`` given), other pairs follow MindSpore's graph join.
    """
    first, second = _array_of(when_true), _array_of(when_false)
    both_tensors = isinstance(when_true, Tensor) and isinstance(when_false, Tensor)
    if line is not None:
        _check_join(when_true, when_false, both_tensors, line)
    if both_tensors and first.shape == second.shape and first.dtype == second.dtype and first.dtype != jnp.bool_:
        return Tensor._wrap(jnp.where(traced, first, second))
    other = when_false if tested_first else when_true
    return Tensor._wrap(logical(traced, _truth(other)))


def _check_join(when_true, when_false, both_tensors, line):
    """MindSpore's graph joins the two values a traced ``and``/``or`` chooses between: Tensors of
    different dtypes, or a Tensor and a Python number, raise its TypeError; a NumPy array (MindSpore
    runs the expression in Python) or Tensors of different shapes (its dynamic shape) run eagerly."""
    caller = sys._getframe(3).f_code.co_filename
    source = [(f"{caller}, line {line}", linecache.getline(caller, line).strip())]
    if both_tensors:
        if when_true.dtype != when_false.dtype:
            raise join_failure(f"dtype1 = {when_true.dtype}, dtype2 = {when_false.dtype}.", source)
        if when_true.shape != when_false.shape:
            raise tracing.ControlFlowFallback(
                f"The boolean operator at line {line} chooses between Tensors of shapes {tuple(when_true.shape)} "
                f"and {tuple(when_false.shape)}; one compiled program needs one shape.")
        return
    values = (when_true, when_false)
    if any(isinstance(value, np.ndarray) for value in values):
        raise tracing.ControlFlowFallback(f"The boolean operator at line {line} chooses between a tensor and a "
                                          "NumPy array, which only Python can hold.")
    tensor = next((value for value in values if isinstance(value, Tensor)), None)
    number = next((value for value in values if isinstance(value, (bool, int, float, complex))), None)
    if tensor is not None and number is not None:
        raise join_failure(f"dtype1 = {tensor.dtype}, dtype2 = Any (a Python {type(number).__name__}).", source)


def _truth(value):
    known, traced = predicate(value, "boolean operator", "?")
    return jnp.asarray(known) if traced is None else traced


def not_(value):
    """``not value``."""
    known, traced = predicate(value, "'not'", "?")
    if traced is None:
        return not known
    if isinstance(value, MutableScalar):  # a mutable number stays a scalar: the compiled function returns a bool
        return MutableScalar.of(jnp.logical_not(traced))
    # MindSpore's graph negates the tensor itself: 'not t' of a shape-(1,) tensor keeps shape (1,)
    return Tensor._wrap(jnp.logical_not(jnp.asarray(_array_of(value)).astype(bool)))


def not_any(*flags):
    """``not (flag1 or flag2 ...)`` for the converter's break/continue/return flags."""
    result = True
    for flag in flags:
        known, traced = predicate(flag, "flag", "?")
        if traced is None:
            if known:
                return False
        else:
            result = jnp.logical_and(result, jnp.logical_not(traced))
    return result if result is True else Tensor._wrap(result)


def identity(left, right, positive):
    """``left is right`` (``positive``) or ``is not`` in converted code, one side a number literal. A variable
    that holds a number a tensor condition chose (a Tensor here) is still that number in MindSpore's graph, so
    its value is compared: ``a is 3`` after ``a = a + 1`` in a ``while`` on a Tensor."""
    for value, literal in ((left, right), (right, left)):
        if stands_for_number(value) and isinstance(literal, (int, float)) and not isinstance(literal, bool):
            array = jnp.asarray(value._value)
            if jnp.issubdtype(array.dtype, jnp.integer) != isinstance(literal, int):
                return not positive  # an int is never a float
            same = array == literal if positive else array != literal
            return bool(same) if not isinstance(same, jax.core.Tracer) else Tensor._wrap(same)
    return (left is right) if positive else (left is not right)


class TracedRange:
    """``range(start, stop, step)`` with a traced bound: run by ``lax.while_loop``."""

    __slots__ = ("start", "stop", "step")

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = start, stop, step


def _index(value):
    array = _array_of(value)
    if array is None:
        return int(value.__index__()) if not isinstance(value, int) else value
    if np.ndim(array) and np.size(array) == 1:
        array = array.reshape(())  # a one-element tensor stands for its element, as in PyNative's range(x)
    if np.ndim(array):
        raise TypeError(f"range() takes integers or one-element tensors as bounds, but got a tensor of shape "
                        f"{tuple(np.shape(array))}; pass one element (x[0]) or its size (x.shape[0]).")
    try:
        return int(array)
    except _UNKNOWN:
        return array


def range_(*args):
    """``range(...)``: Python's range when its bounds are known while tracing."""
    if not 1 <= len(args) <= 3:
        raise TypeError(f"range expected 1 to 3 arguments, got {len(args)}")
    bounds = [_index(arg) for arg in checked_range(*args)]
    if all(isinstance(bound, int) for bound in bounds):
        return range(*bounds)
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (bounds + [1])[:3]
    if not isinstance(step, int) or step == 0:
        raise ValueError("range() with a tensor bound needs a nonzero Python integer step.")
    return TracedRange(jnp.asarray(start, jnp.int32), jnp.asarray(stop, jnp.int32), step)


def while_stmt(test, body, values, names, line, effect=None):
    """``while test: body`` over the variables ``names``. A variable the body defines stays undefined after
    the loop, even when the loop runs on Python values, as MindSpore 2.10's graph compiler holds it."""
    values = tuple(values)
    before = values
    while True:
        known, traced = predicate(test(*values), "'while'", line, fold=False)
        if traced is not None:
            values = loops.run_loop("'while'", line, values, names, lambda current: body(*current),
                                    test=lambda current: test(*current), effect=_effect(effect))
            note_control_flow_join()
            break
        if not known:
            break
        values = tuple(body(*values))
    return loops.loop_locals("'while'", names, before, values, line)


def _guarded(extra_test, body, item, values, names, line):
    if extra_test is None:
        return tuple(body(item, *values))
    return tuple(if_stmt(extra_test(*values), lambda *current: body(item, *current), lambda *current: current,
                         values, names, line))


def for_stmt(iterable, extra_test, body, values, names, line, effect=None):
    """``for target in iterable: body``; ``extra_test`` (or None) is False once a break/return ran. A variable the
    body defines (the target too) stays undefined after the loop, as MindSpore 2.10's graph compiler holds it."""
    after = _for(iterable, extra_test, body, tuple(values), names, line, effect)
    return loops.loop_locals("'for'", names, tuple(values), after, line)


def _for(iterable, extra_test, body, values, names, line, effect):
    if isinstance(iterable, TracedRange):
        return _traced_range(iterable, extra_test, body, values, names, line, _effect(effect))
    array = _array_of(iterable)
    if isinstance(iterable, Tensor) and isinstance(array, jax.core.Tracer) and array.ndim and not _effect(effect):
        return loops.run_loop("'for'", line, values, names,
                              lambda current, row: _guarded(extra_test, body, row, current, names, line),
                              rows=array)
    for item in loops.iterable(iterable):
        if extra_test is not None:
            known, _ = predicate(extra_test(*values), "'for'", line)
            if known is False:
                break
        values = _guarded(extra_test, body, item, values, names, line)
    return values


def _traced_range(bounds, extra_test, body, values, names, line, effect):
    stop, step = bounds.stop, bounds.step

    def test(current):
        counter = current[0]._value
        inside = counter < stop if step > 0 else counter > stop
        if extra_test is None:
            return Tensor._wrap(inside)
        return and_(lambda: Tensor._wrap(inside), lambda: extra_test(*current[1:]))

    def step_function(current):
        counter = current[0]  # the loop test already includes extra_test
        new = body(counter, *current[1:])
        return (Tensor._wrap(counter._value + step),) + tuple(new)

    results = loops.run_loop("'for'", line, (Tensor._wrap(bounds.start),) + values, ("<index>",) + tuple(names),
                             step_function, test=test, effect=effect)
    return results[1:]


def graph_dict(value):
    """The dict a compiled function changes in place of a module-global one (a shallow copy)."""
    return copy.copy(value) if isinstance(value, dict) else value


def initial_local(name, namespace):
    """The value a converted function's local starts with: the module global of that name when
    there is one (MindSpore's static graph reads it until the local is assigned), else undefined."""
    if name in namespace:
        return namespace[name]
    # neither a local assigned before nor a module global: MindSpore 2.10's NameError
    return Undefined(name, f"The name '{name}' is not defined, or not supported in graph mode (assign '{name}' "
                     "before this use, or define it at module level).", NameError)


def result(value, pending=()):
    """A returned value: None when no ``return`` ran; returning an undefined name raises NameError.

    ``pending``: join errors of the function's print arguments (``print_``), raised now that the
    returned value itself joined."""
    if pending:
        raise pending[0]
    if isinstance(value, RETURN_PENDING.__class__):
        return None
    for item in value if isinstance(value, (tuple, list)) else (value,):
        if isinstance(item, Undefined):
            item._fail()
    return value


def print_(function, arguments, pending):
    """``print(...)`` in converted code. MindSpore's graph types the function's returned value before a
    print's arguments, so a join error there (``print(x and y)`` before ``return x and y``) names the
    return: the print's error waits in ``pending`` for ``result``, unless the return raises first."""
    try:
        values = arguments()
    except TypeError as error:
        if not str(error).startswith(JOIN_FAILED):
            raise
        pending.append(error)
        return None
    return function(*values)
