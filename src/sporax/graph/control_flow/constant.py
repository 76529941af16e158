"""The value of a traced expression that depends on constants only (MindSpore's constant folding).

Inside a trace every operation is staged, even on constants, so ``self.flags.all() == self.mask``
on Tensors stored in a Cell is a tracer although its value is fixed. MindSpore's static graph folds
such an expression at compile time, and an ``if`` on it keeps just the branch taken (the two
branches may then return different shapes or types). ``known_value(array)`` recovers the value:
it walks the operations that produced the tracer back to constants and literals and evaluates
them (``jax.ensure_compile_time_eval``). A traced input (an argument, a Parameter, the RNG state)
or an operation with an effect anywhere on the way means "not known".

The walk is bounded (``_LIMIT`` operations), so an expression built by a long unrolled loop costs
at most that much before it is treated as traced.
"""
import jax

from sporax.core import jax_private

_LIMIT = 64


class _Unknown(Exception):
    pass


def known_value(array):
    """The concrete value of ``array`` (a jax tracer) when it depends on constants only, else None."""
    if not jax_private.is_staged_tracer(array):
        return None
    try:
        with jax.ensure_compile_time_eval():
            return _evaluate(array, {}, [0])
    except _Unknown:
        return None
    except Exception:  # noqa: BLE001 - a primitive that cannot run eagerly here: treat as traced
        return None


def _evaluate(tracer, memo, budget):
    if not jax_private.is_staged_tracer(tracer):
        if isinstance(tracer, jax.core.Tracer):
            raise _Unknown
        return tracer
    key = id(tracer)
    if key in memo:
        return memo[key]
    atom = tracer.val
    if isinstance(atom, jax_private.Literal):
        return atom.val
    constant = tracer._trace.frame.constvar_to_val.get(atom)
    if constant is not None:
        value = _evaluate(constant, memo, budget)
    else:
        equation = tracer.parent
        budget[0] += 1
        if equation is None or equation.effects or budget[0] > _LIMIT:
            raise _Unknown  # an input of the trace, an effect, or too far to look
        inputs = [_evaluate(item, memo, budget) for item in equation.in_tracers]
        outputs = equation.primitive.bind(*inputs, **equation.params)
        if equation.primitive.multiple_results:
            value = outputs[[id(var) for var in equation.outvars].index(id(atom))]
        else:
            value = outputs
    memo[key] = value
    return value
