"""Calling one of several Cells or functions chosen by a traced index: ``lax.switch``.

MindSpore's graph mode compiles ``self.layers[i](x)`` for a ``CellList``, a tuple of Cells or a
tuple of functions when ``i`` is a Tensor known only at run time. ``nn.CellList.__getitem__`` and
the converter (``runtime.item`` for ``functions[i](...)``) return a ``SelectedCall`` for such an
index; calling it traces every candidate once with the lifted state (as ``tracing.cond`` traces
two branches), merges their results (same structure and shapes; dtypes promoted; numbers become
Tensors) and runs ``lax.switch`` over the replays. Parameter writes inside the candidates go
through state lifting: the written states are outputs of every branch.

A negative index counts from the end, as in Python; an index beyond the ends selects the first
or last candidate (``lax.switch`` clamps). MindSpore's graph mode raises IndexError at run time
there; raising needs a host callback, which ``jax.export`` cannot serialise, so sporax clamps
(a pinned GRAPH/PyNative difference: PyNative raises IndexError).
"""
import inspect

import jax
import jax.numpy as jnp
from jax import lax

from sporax.core.tensor import Tensor
from sporax.graph.control_flow.tracing import trace
from sporax.graph.control_flow.values import JOIN_FAILED, Undefined, describe, fresh, join_failure, merge
from sporax.state.conditional import write_states
from sporax.state.fallback import ExplainedFallback, is_untraceable
from sporax.state.scope import lifted_states


def traced_index(index):
    """The traced integer scalar of ``index`` (a Tensor or array), or None when it is known now."""
    array = index._value if isinstance(index, Tensor) else index
    if not isinstance(array, jax.core.Tracer):
        return None
    if array.size != 1 or not (jnp.issubdtype(array.dtype, jnp.integer) or array.dtype == jnp.bool_):
        raise TypeError(f"A Tensor used to select a Cell or function must be an integer scalar, but got a Tensor "
                        f"of shape {tuple(array.shape)} and dtype {array.dtype}.")
    if array.dtype != jnp.int32 and array.dtype != jnp.bool_:  # MindSpore 2.10's switch_layer takes Int32 only
        raise ValueError(f"switch_layer index must be an int32, but got {Tensor._wrap(array).dtype} (make the index "
                         "Tensor int32, e.g. Tensor(i, mindspore.int32) or index.astype(mindspore.int32)).")
    try:
        int(array)
    except (jax.errors.ConcretizationTypeError, jax.errors.TracerIntegerConversionError):
        return jnp.reshape(array, ()).astype(jnp.int32)
    return None


class SelectedCall:
    """``candidates[index]`` for a traced ``index``: only calling it is supported."""

    __slots__ = ("candidates", "index", "owner")

    def __init__(self, candidates, index, owner):
        self.candidates, self.index, self.owner = list(candidates), index, owner

    def __call__(self, *args, **kwargs):
        return call_selected(self.index, self.candidates, args, kwargs, self.owner)

    def __getattr__(self, attribute):
        raise AttributeError(f"{self.owner}[index] with an index Tensor known only at run time can only be called "
                        f"(`{self.owner}[index](inputs)`), not used for '.{attribute}'. Index with a Python int to "
                        "reach the Cell itself.")


def _return_lines(candidate):
    """``(where, source line)`` of each ``return`` in a candidate's code (its ``construct`` for a Cell), as
    MindSpore lists the branches of a switch_layer whose results cannot be joined; none when not readable."""
    function = inspect.unwrap(getattr(candidate, "construct", candidate))
    try:
        filename = inspect.getsourcefile(function)
        lines, first = inspect.getsourcelines(function)
    except (OSError, TypeError):
        return []
    return [(f"{filename}, line {first + offset}", line.strip()) for offset, line in enumerate(lines)
            if line.strip().startswith("return")]


def _abstract_name(value):
    """MindSpore's abstract-type name of a value (for its 'Type Join Failed' reason)."""
    kinds = ((Tensor, "AbstractTensor"), (tuple, "AbstractTuple"), (list, "AbstractList"),
             (dict, "AbstractDictionary"), (type(None), "AbstractNone"), ((bool, int, float), "AbstractScalar"))
    return next((name for kind, name in kinds if isinstance(value, kind)),
                "AbstractTensor" if hasattr(value, "shape") else "AbstractAny")


def _merged(values, construct, candidates):
    """The Plan joining every candidate's result; MindSpore's join TypeError naming the two candidates that
    differ and listing every candidate's return lines when they cannot be one value."""
    plan = None
    for position, other in enumerate(values[1:], start=1):
        try:
            extra = merge(values[0], other, "<value>", construct, "?")
        except TypeError as error:
            if not str(error).startswith(JOIN_FAILED):
                raise
            sources = [source for candidate in candidates for source in _return_lines(candidate)]
            raise join_failure(f"Abstract type {_abstract_name(values[0])} cannot join with {_abstract_name(other)}: "
                               f"the {construct} returns {describe(values[0])} from candidate 0 and "
                               f"{describe(other)} from candidate {position}: every Cell or function a Tensor "
                               "index selects must return the same type and structure.", sources) from None
        if extra is None or isinstance(extra, Undefined):
            return extra  # a candidate returns no value: the caller raises
        if plan is None:
            plan = extra
            continue
        for leaf, (mine, theirs) in enumerate(zip(plan.avals, extra.avals)):
            if mine is None and theirs is not None:
                plan.avals[leaf], plan.static[leaf] = theirs, None
                plan.tensor[leaf] = extra.tensor[leaf]
            elif mine is not None and theirs is not None:
                plan.avals[leaf] = jax.ShapeDtypeStruct(mine.shape, jnp.result_type(mine.dtype, theirs.dtype))
    return plan


def call_selected(index, candidates, args, kwargs, owner):
    """``candidates[index](*args, **kwargs)`` with a traced integer scalar ``index``."""
    count = len(candidates)
    if count == 0:
        raise IndexError(f"{owner} is empty: no Cell or function to select.")
    if count == 1:
        return candidates[0](*args, **kwargs)
    states = lifted_states()
    state_values = [state._value for state in states]
    construct = f"call of {owner}[index]"
    branches = []
    for function in candidates:
        try:
            branches.append(trace(lambda _, function=function: function(*fresh(args), **kwargs), [], states))
        except Exception as error:  # noqa: BLE001 - a candidate's own error, e.g. a `raise` in its construct
            if is_untraceable(error):
                raise
            # MindSpore raises only when that candidate runs: with the index known (eagerly) only it runs
            raise ExplainedFallback(f"The {construct}: candidate {len(branches)} raises {type(error).__name__} "
                                    f"when compiled ({error}); it may raise only when selected, so the index is "
                                    "read and only the selected candidate runs.") from error
    values = [branch.abstract_value() for branch in branches]
    plan = _merged(values, construct, candidates)
    if plan is None or isinstance(plan, Undefined):
        raise TypeError(f"The {construct} returns no value in some candidates.")
    written = [position for position in range(len(states)) if any(branch.written[position] for branch in branches)]

    def replay(branch):
        def run(operands):
            value, after = branch.evaluate([], operands)
            return plan.emit(value), [after[position] for position in written]

        return run

    position = jnp.where(index < 0, index + count, index)
    arrays, new_states = lax.switch(position, [replay(branch) for branch in branches], state_values)
    write_states([states[position] for position in written], new_states)
    return plan.build(iter(arrays))
