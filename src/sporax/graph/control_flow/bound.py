"""A static bound on the trip count of a converted ``while``, found by running its counters.

A loop such as ``i = 0`` / ``while i < 10 and x.sum() > 0: ...; i += 1`` has a traced condition,
yet it cannot run more than 10 times: one conjunct of the condition depends only on loop
variables whose values before the loop are known (Python numbers, constants) and whose updates
depend only on each other and on constants. ``trip_bound`` finds such a bound, so that
``reverse.bounded_while`` can differentiate the loop as a masked ``scan``.

Algorithm, on the jaxprs of the condition and of the body (``tracing.Traced``; the constants a
jaxpr closes over count as inputs, and only those that are concrete arrays are known):

1. The counters: start with the carried values known before the loop; drop each one whose new
   value (dead-code elimination of the body to that output gives the inputs it uses) needs an
   input outside the set; repeat until nothing changes.
2. The deciding conjuncts: split the condition's result through ``and`` (and bool conversions and
   reshapes) and keep the conjuncts that use counters and known constants only.
3. Run the counters concretely (``jax.ensure_compile_time_eval``): the first iteration at which a
   deciding conjunct is false bounds the trip count. No bound when none is false within
   ``SPORAX_WHILE_SCAN_BOUND`` iterations (default 1000).
"""
import os

import jax
import numpy as np

from sporax.core import jax_private

_PASS_THROUGH = frozenset(["convert_element_type", "reshape", "squeeze", "broadcast_in_dim"])


def _known_constant(value):
    return not isinstance(value, jax.core.Tracer)


class _Program:
    """A closed jaxpr with its constants turned into leading inputs."""

    def __init__(self, closed):
        self.jaxpr = jax_private.constants_as_inputs(closed.jaxpr)
        self.consts = list(closed.consts)

    def slice(self, outvars):
        """``(jaxpr computing outvars, indices of the inputs it uses)``."""
        debug = self.jaxpr.debug_info._replace(result_paths=None)
        narrowed = self.jaxpr.replace(outvars=list(outvars), debug_info=debug)
        pruned, used = jax_private.dead_code_eliminated(narrowed, [True] * len(outvars))
        return pruned, [index for index, flag in enumerate(used) if flag]


def _conjuncts(jaxpr):
    producers = {id(var): eqn for eqn in jaxpr.eqns for var in eqn.outvars}
    found, pending = [], list(jaxpr.outvars)
    while pending:
        var = pending.pop()
        eqn = producers.get(id(var))
        if isinstance(var, jax_private.Literal):
            continue
        if eqn is not None and eqn.primitive.name == "and" and var.aval.dtype == np.bool_:
            pending.extend(eqn.invars)
        elif eqn is not None and eqn.primitive.name in _PASS_THROUGH and eqn.invars[0].aval.dtype == np.bool_:
            pending.append(eqn.invars[0])
        else:
            found.append(var)
    return found


def trip_bound(tested, traced, known, count):
    """The most iterations the loop can run (an int), or None when no bound is found.

    ``tested``/``traced`` are the traced condition and body (inputs: the ``count`` carried arrays,
    then the lifted states); ``known`` maps a carried position to its value before the loop.
    """
    if not known:
        return None
    body, test = _Program(traced.closed), _Program(tested.closed)
    body_offset, test_offset = len(body.consts), len(test.consts)
    body_known = {index for index, value in enumerate(body.consts) if _known_constant(value)}
    test_known = {index for index, value in enumerate(test.consts) if _known_constant(value)}
    counters = set(known)
    slices = {}
    for position in counters:
        slices[position] = body.slice([body.jaxpr.outvars[position]])
    changed = True
    while changed:
        allowed = body_known | {body_offset + position for position in counters}
        keep = {position for position in counters if set(slices[position][1]) <= allowed}
        changed = keep != counters
        counters = keep
    if not counters:
        return None
    allowed = test_known | {test_offset + position for position in counters}
    deciding = [test.slice([var]) for var in _conjuncts(test.jaxpr)]
    deciding = [(jaxpr, used) for jaxpr, used in deciding if used and set(used) <= allowed]
    if not deciding:
        return None
    order = sorted(counters)
    update, update_used = body.slice([body.jaxpr.outvars[position] for position in order])

    def inputs(program, offset, used, values):
        return [program.consts[index] if index < offset else values[index - offset] for index in used]

    limit = int(os.environ.get("SPORAX_WHILE_SCAN_BOUND", 1000))
    values = {position: known[position] for position in order}
    with jax.ensure_compile_time_eval():
        for trips in range(limit + 1):
            for jaxpr, used in deciding:
                (flag,) = jax.core.eval_jaxpr(jaxpr, [], *inputs(test, test_offset, used, values))
                if not bool(flag):
                    return trips
            new = jax.core.eval_jaxpr(update, [], *inputs(body, body_offset, update_used, values))
            values = dict(zip(order, new))
    return None
