"""Reverse-mode gradients through a ``while`` whose condition is a traced tensor.

XLA's while loop has no reverse-mode rule: JAX does not know how many iterations the backward
pass must replay, nor where to keep their intermediate values. MindSpore's graph mode does
differentiate such loops, so converted code uses one of two exact formulations. Both take the
loop as two pure functions of flat arrays: ``test(carry, params) -> bool scalar`` and
``step(carry, params) -> carry``, where ``params`` are the values the loop only reads (the lifted
Parameters, the constants its body closes over).

* ``bounded_while``: the trip count has a bound ``B`` known while tracing (``bound.trip_bound``
  finds one, e.g. a counter that starts at a number and steps towards a constant). The loop
  becomes ``lax.scan`` over ``B`` steps whose body runs ``step`` under ``lax.cond(test, ...)``
  and keeps the carry unchanged once the test is false. Exact, and ``scan`` is differentiable;
  the unselected branch is never differentiated, so an iteration that would overflow after the
  loop ended cannot poison the gradient.
* ``checkpointed_while``: any other loop, through a custom VJP. The forward pass is the
  ``lax.while_loop`` itself, counting its trips ``n``; it keeps only the initial carry. The
  backward pass recomputes the forward states with two-level checkpointing: it
  runs the ``n`` steps again storing every ``s``-th carry in ``C`` slots (``s = ceil(n / C)``),
  then walks the segments from last to first; each segment's states are recomputed into a
  second set of ``C`` slots (every ``s2``-th, ``s2 = ceil(s / C)``), and each step is
  differentiated (``jax.vjp`` of ``step``) from its recomputed input, last step first. For
  ``n <= C * C`` the backward pass costs two extra forward runs and ``n`` step VJPs, with ``2C``
  carries of memory; beyond it the innermost segments are recomputed from their start
  (quadratic in ``s2``), still exact. ``C`` is the number of carries that fit in
  ``SPORAX_WHILE_CHECKPOINT_BYTES`` (default 8 MiB), between 1 and 64.

Non-float carry and parameter leaves (counters, flags) get no gradient. The backward pass is
not itself differentiable (a gradient of a gradient through such a loop raises JAX's error);
forward-mode differentiation (``ops.jvp``) uses the plain ``while_loop`` (see ``loops``).
"""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.graph.control_flow.tracing import linearized
from sporax.graph.control_flow.values import ControlFlowFallback

_MAX_SLOTS = 64
_LEVELS = 2


def bounded_while(test, step, carry, params, bound):
    """``while test: carry = step(carry)`` as a masked ``lax.scan`` of ``bound`` steps."""
    if bound == 0:
        return carry

    def one(current, _):
        return lax.cond(test(current, params), lambda c: step(c, params), lambda c: c, current), None

    final, _ = lax.scan(one, carry, None, length=bound)
    return final


def _inexact(leaf):
    return jnp.issubdtype(jnp.result_type(leaf), jnp.inexact)


def _slots(carry):
    budget = int(os.environ.get("SPORAX_WHILE_CHECKPOINT_BYTES", 8 << 20))
    size = sum(int(np.prod(np.shape(leaf))) * jnp.result_type(leaf).itemsize for leaf in jax.tree_util.tree_leaves(carry))
    return max(1, min(_MAX_SLOTS, budget // max(size, 1)))


def _repeat(step, params, count, carry):
    return lax.fori_loop(0, count, lambda _, current: step(current, params), carry)


def _ceil_div(a, b):
    return (a + b - 1) // b


class _Split:
    """Which leaves of a pytree are differentiable (inexact), to rebuild it around their cotangents."""

    def __init__(self, tree):
        self.leaves, self.treedef = jax.tree_util.tree_flatten(tree)
        self.mask = [_inexact(leaf) for leaf in self.leaves]

    def part(self, tree):
        return [leaf for leaf, keep in zip(jax.tree_util.tree_leaves(tree), self.mask) if keep]

    def join(self, differentiable, rest):
        """A tree with ``differentiable`` leaves where the mask holds, ``rest``'s leaves elsewhere."""
        values = iter(differentiable)
        leaves = [next(values) if keep else leaf for leaf, keep in zip(jax.tree_util.tree_leaves(rest), self.mask)]
        return jax.tree_util.tree_unflatten(self.treedef, leaves)

    def cotangent(self, differentiable):
        """The cotangent tree: ``differentiable`` where the mask holds, float0 zeros elsewhere."""
        values = iter(differentiable)
        leaves = [next(values) if keep else np.zeros(np.shape(leaf), jax.dtypes.float0)
                  for leaf, keep in zip(self.leaves, self.mask)]
        return jax.tree_util.tree_unflatten(self.treedef, leaves)


def checkpointed_while(test, step, carry, params, where="a 'while' loop"):
    """``while test: carry = step(carry)`` with an exact reverse-mode rule (see the module doc);
    ``where`` names the loop in the error a second-order gradient raises."""

    @jax.custom_vjp
    def loop(carry, params):
        return lax.while_loop(lambda current: test(current, params), lambda current: step(current, params), carry)

    def forward(carry, params):
        def counted(state):
            trips, current = state
            return trips + 1, step(current, params)

        trips, final = lax.while_loop(lambda state: test(state[1], params), counted, (jnp.int32(0), carry))
        return final, (carry, params, trips)

    def backward(residual, cotangent):
        start, params, trips = residual
        if linearized([residual, cotangent]):
            raise ControlFlowFallback(
                f"A gradient of a gradient runs through {where}, whose trip count has no bound known while "
                "tracing; its first-order backward pass cannot be differentiated again. Bound the loop (a counter "
                "compared to a constant in its condition, or `for _ in range(MAX):` with `if not condition: "
                "break`) to compile it.")
        carry_split, param_split = _Split(start), _Split(params)
        slots = _slots(start)
        param_parts = param_split.part(params)

        def step_vjp(state, gradients):
            carry_gradient, param_gradient = gradients

            def differentiable_step(carry_part, param_part):
                new = step(carry_split.join(carry_part, state), param_split.join(param_part, params))
                return carry_split.part(new)

            _, pullback = jax.vjp(differentiable_step, carry_split.part(state), param_parts)
            carry_gradient, step_param_gradient = pullback(carry_gradient)
            return carry_gradient, [a + b for a, b in zip(param_gradient, step_param_gradient)]

        def backward_range(first, length, state, level):
            """Back-propagate through ``length`` steps starting from the carry ``first``; ``state`` is
            ``(gradients, checkpoint buffers per level)`` (allocated once, reused by every segment)."""
            if level == _LEVELS:  # recompute each state from the segment start
                def one(reverse_index, state):
                    gradients, buffers = state
                    current = _repeat(step, params, length - 1 - reverse_index, first)
                    return step_vjp(current, gradients), buffers

                return lax.fori_loop(0, length, one, state)
            stride = jnp.maximum(1, _ceil_div(length, slots))
            segments = _ceil_div(length, stride)

            def store(index, stored):
                buffers, current = stored
                buffers = [buffer.at[index].set(leaf) for buffer, leaf in
                           zip(buffers, jax.tree_util.tree_leaves(current))]
                count = jnp.minimum(stride, length - index * stride)
                return buffers, _repeat(step, params, count, current)

            gradients, buffers = state
            mine, _ = lax.fori_loop(0, segments, store, (buffers[level], first))
            buffers = buffers[:level] + [mine] + buffers[level + 1:]

            def segment(reverse_index, state):
                index = segments - 1 - reverse_index
                begin = jax.tree_util.tree_unflatten(carry_split.treedef, [buffer[index] for buffer in
                                                                           state[1][level]])
                count = jnp.minimum(stride, length - index * stride)
                return backward_range(begin, count, state, level + 1)

            return lax.fori_loop(0, segments, segment, (gradients, buffers))

        zeros = [jnp.zeros_like(leaf) for leaf in param_parts]
        buffers = [[jnp.zeros((slots,) + np.shape(leaf), jnp.result_type(leaf)) for leaf in carry_split.leaves]
                   for _ in range(_LEVELS)]
        (carry_gradient, param_gradient), _ = backward_range(start, trips,
                                                             ((carry_split.part(cotangent), zeros), buffers), 0)
        return carry_split.cotangent(carry_gradient), param_split.cotangent(param_gradient)

    loop.defvjp(forward, backward)
    return loop(carry, params)

