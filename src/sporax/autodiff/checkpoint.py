"""Rematerialisation that survives XLA's CPU pipeline: ``checkpoint(fn)``.

``jax.checkpoint`` marks the recomputation with an optimisation barrier, but XLA's CPU compiler
removes those barriers before common-subexpression elimination, which then merges the
recomputed forward pass into the original one: the activations are stored after all and the
program's memory does not fall. ``checkpoint`` instead stores only ``fn``'s inputs and, in the
backward pass, recomputes ``fn`` from inputs tied to the incoming cotangent (``x + 0 * c``, with
``c`` one element of the cotangent). The recomputation then depends on the backward pass, so no
compiler can merge it with, or hoist it into, the forward pass. For finite cotangents ``x + 0*c``
is ``x`` exactly, so the gradients are bit-identical to those without recomputation.

``fn`` must be a function of explicit array inputs (pytrees); it may run Python side effects
(they run again during the recomputation, with the same inputs).

Example:
    >>> import jax, jax.numpy as jnp
    >>> from sporax.autodiff.checkpoint import checkpoint
    >>> f = checkpoint(lambda w, x: jnp.tanh(x @ w).sum())
    >>> jax.grad(f)(jnp.ones((2, 2)), jnp.ones((1, 2))).shape
    (2, 2)
"""
import jax
import jax.numpy as jnp


def _is_float(leaf):
    return hasattr(leaf, "dtype") and jnp.issubdtype(leaf.dtype, jnp.inexact)


def _tie_value(cotangents):
    """``0 * c`` for one element ``c`` of the first floating cotangent (None when there is none)."""
    for leaf in jax.tree_util.tree_leaves(cotangents):
        if _is_float(leaf) and leaf.size:
            return jnp.zeros((), leaf.dtype) * leaf.reshape(-1)[0]
    return None


def _tied(values, tie):
    def tie_leaf(leaf):
        if _is_float(leaf):
            return leaf + tie.astype(leaf.dtype)
        return leaf
    return jax.tree_util.tree_map(tie_leaf, values)


def checkpoint(fn):
    """``fn`` whose intermediate values are recomputed in the backward pass instead of stored.

    Args:
        fn (Callable): a function of array pytrees ``fn(*inputs) -> outputs``.

    Returns:
        Callable: the same function, differentiated by recomputation.
    """

    @jax.custom_vjp
    def remat(*inputs):
        return fn(*inputs)

    def forward(*inputs):
        return fn(*inputs), inputs

    def backward(inputs, cotangents):
        tie = _tie_value(cotangents)
        if tie is not None:
            # Tie the activations (the cheap inputs) when they are floating; else every input.
            last = inputs[-1]
            if any(_is_float(leaf) for leaf in jax.tree_util.tree_leaves(last)):
                inputs = inputs[:-1] + (_tied(last, tie),)
            else:
                inputs = _tied(inputs, tie)
        _, pullback = jax.vjp(fn, *inputs)
        return pullback(cotangents)

    remat.defvjp(forward, backward)
    return remat
