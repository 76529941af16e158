"""Regression losses: mse_loss (and mse_loss_ext), l1_loss, smooth_l1_loss, huber_loss and gaussian_nll_loss.

Each is one op-table entry, as the losses of ``sporax.ops.functional.loss`` are (whose reduction and
input promotion they share); integer inputs become Float32 (the ``TO_FLOAT`` rule), except in l1_loss, which
keeps them, as MindSpore's does.

Example:
    >>> from sporax import ops, Tensor
    >>> float(ops.mse_loss(Tensor([1.0, 2.0]), Tensor([1.0, 4.0])).asnumpy())
    2.0
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.casting import convert
from sporax.ops.functional import loss_references as references
from sporax.ops.functional._args import check_reduction
from sporax.ops.functional.loss import _reduce, _regression
from sporax.ops.functional.math import abs_array
from sporax.ops.op_table import ANY, FLOAT_NUMBER, TO_FLOAT, op, spelling


@op(inputs=("input", "target"), dtypes=TO_FLOAT, mint="mse_loss", samples=references.pair_samples(),
    reference=lambda input, target, reduction="mean": references.reduced(np.square(input - target), reduction))
def mse_loss(input, target, reduction="mean"):
    """Mean squared error ``(input - target) ** 2``."""
    a, b = _regression("mse_loss", input, target, reduction)
    return _reduce(jnp.square(a - b), reduction)


def _numpy_l1_loss(input, target, reduction="mean"):
    a, b = np.asarray(input), np.asarray(target)
    difference = a ^ b if a.dtype == b.dtype == np.bool_ else np.abs(a - b).astype(np.result_type(a, b))
    if difference.dtype.kind not in "biu":
        return references.reduced(difference, reduction)
    if reduction == "sum":
        return np.sum(difference, dtype=difference.dtype)
    return np.mean(difference, dtype=np.float64).astype(difference.dtype) if reduction == "mean" else difference


@op(inputs=("input", "target"), dtypes=ANY, samples=references.pair_samples(), reference=_numpy_l1_loss)
def l1_loss(input, target, reduction="mean"):
    """Mean absolute error ``|input - target|``.

    As MindSpore's, it keeps the inputs' dtype: integers subtract with wrap-around, Bools differ by exclusive-or,
    an integer mean is truncated toward zero (a sum wraps), a complex error is complex (zero imaginary part).
    """
    a, b = _regression("l1_loss", input, target, reduction)
    if a.dtype == np.bool_:
        difference = a ^ b
    else:
        difference = abs_array(a - b).astype(a.dtype)
    if difference.dtype.kind not in "biu" or reduction == "none":
        return _reduce(difference, reduction)
    if reduction == "sum":
        return jnp.sum(difference, dtype=difference.dtype)
    return convert(jnp.mean(difference, dtype=jnp.float64), difference.dtype)


@op(inputs=("input", "target"), dtypes=TO_FLOAT, primitive="SmoothL1Loss", primitive_attrs=("beta", "reduction"),
    attribute_forms={"beta": FLOAT_NUMBER},
    mint=spelling("smooth_l1_loss", "input, target, reduction='mean', beta=1.0", namespaces="mint.nn.functional"),
    samples=references.pair_samples(settings=({"reduction": "mean"}, {"beta": 0.5, "reduction": "sum"})),
    reference=references.smooth_l1_loss)
def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta`` (d = input - target)."""
    if beta <= 0:
        raise ValueError(f"For 'smooth_l1_loss', 'beta' must be positive, but got {beta}.")
    a, b = _regression("smooth_l1_loss", input, target, reduction)
    return _reduce(_smooth_l1(a, b, beta).astype(a.dtype), reduction)


@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _smooth_l1(a, b, beta):
    diff = jnp.abs(a - b)
    return jnp.where(diff < beta, 0.5 * diff * diff / beta, diff - 0.5 * beta)


@_smooth_l1.defjvp
def _smooth_l1_jvp(beta, primals, tangents):
    """MindSpore's SmoothL1LossGrad, for each operand from its own difference: ``d / beta`` where ``|d| < beta``,
    else ``sign(d)``, times the cotangent; at ``d == 0`` both get 0 times it (-0. under a negative cotangent)."""
    (a, b), (da, db) = primals, tangents

    def slope(d):
        return jnp.where(jnp.abs(d) < beta, d / beta, jnp.sign(d))

    return _smooth_l1(a, b, beta), slope(a - b) * da + slope(b - a) * db


@op(inputs=("input", "target"), dtypes=TO_FLOAT,
    samples=references.pair_samples(settings=({"reduction": "none", "delta": 0.5}, {"reduction": "sum"})),
    reference=references.huber_loss)
def huber_loss(input, target, reduction="mean", delta=1.0):
    """``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``."""
    a, b = _regression("huber_loss", input, target, reduction)
    diff = jnp.abs(a - b)
    return _reduce(jnp.where(diff < delta, 0.5 * diff * diff, delta * (diff - 0.5 * delta)).astype(a.dtype),
                   reduction)


@op(inputs=("x", "target", "var"), dtypes=TO_FLOAT, samples=references.gaussian_nll_samples,
    reference=references.gaussian_nll_loss)
def gaussian_nll_loss(x, target, var, full=False, eps=1e-06, reduction="mean"):
    """Gaussian negative log likelihood ``0.5 (log(var) + (x - target)^2 / var)`` (+ const)."""
    a, b = _regression("gaussian_nll_loss", x, target, reduction, ("x", "target"))
    variance = jnp.maximum(var.astype(a.dtype), eps)
    if variance.ndim == a.ndim - 1:
        variance = variance[..., None]
    loss = 0.5 * (jnp.log(variance) + jnp.square(a - b) / variance)
    if full:
        loss = loss + float(0.5 * np.log(2 * np.pi))
    return _reduce(loss, reduction)


@op(inputs=("input", "target"), samples=references.pair_samples(),
    reference=lambda input, target, reduction="mean": references.reduced(np.square(input - target), reduction))
def mse_loss_ext(input, target, reduction="mean"):
    """The squared error ``(input - target)**2`` with broadcasting, reduced by ``reduction``."""
    check_reduction("mse_loss_ext", reduction)
    try:
        difference = input - target
    except (TypeError, ValueError) as error:
        raise ValueError(f"For 'mse_loss_ext', 'input' {tuple(input.shape)} and 'target' {tuple(target.shape)} "
                         f"must broadcast. Details: {error}") from None
    return _reduce(difference * difference, reduction)
