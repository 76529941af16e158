"""Neural-network functions of ``mindspore.ops``: margin losses, ``mse_loss_ext``, ``rrelu``, ``swiglu``,
``rms_norm``, ``lrn``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.array([[0.1, 0.2, 0.4, 0.8]], np.float32))
    >>> round(float(ops.multi_margin_loss(x, Tensor(np.array([3]))).asnumpy()), 3)
    0.325
"""
import jax
import jax.numpy as jnp

from sporax.core import random_state
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional.special_math import floating as _float

_REDUCTIONS = ("none", "mean", "sum")


def _reduction(op_name, reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For '{op_name}', 'reduction' must be one of {_REDUCTIONS}, but got {reduction!r}.")
    return reduction


def _reduce(loss, reduction):
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    return loss


def _scores_and_labels(op_name, input, target):
    x = _float(op_name, "input", input)
    labels = array_of(op_name, "target", target)
    if labels.dtype.kind not in "iu":
        raise TypeError(f"For '{op_name}', 'target' must be an integer Tensor, but got {labels.dtype}.")
    return x, labels


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):
    """The multi-class hinge loss ``sum_{j != y} max(0, margin - x[y] + x[j])**p / C`` per sample.

    Args:
        input (Tensor): (N, C) or (C,) scores. target (Tensor): (N,) or () class indices.
        p (int): 1 or 2. margin (float): the margin. weight (Tensor): (C,) class weights (of ``y``).
        reduction (str): 'none', 'mean' or 'sum'.
    """
    x, labels = _scores_and_labels("multi_margin_loss", input, target)
    if p not in (1, 2):
        raise ValueError(f"For 'multi_margin_loss', 'p' must be 1 or 2, but got {p!r}.")
    _reduction("multi_margin_loss", reduction)
    scores = x if x.ndim == 2 else x[None]
    labels = labels.reshape(-1)
    if scores.ndim != 2 or labels.shape[0] != scores.shape[0]:
        raise ValueError(f"For 'multi_margin_loss', 'input' must be (N, C) and 'target' (N,), but got "
                         f"{tuple(x.shape)} and {tuple(labels.shape)}.")
    chosen = jnp.take_along_axis(scores, labels[:, None], axis=1)
    hinge = jnp.maximum(margin - chosen + scores, 0) ** p
    hinge = jnp.where(jax.nn.one_hot(labels, scores.shape[1], dtype=bool), 0, hinge)
    if weight is not None:
        hinge = hinge * _float("multi_margin_loss", "weight", weight)[labels][:, None]
    loss = jnp.sum(hinge, axis=1) / scores.shape[1]
    return wrap(_reduce(loss if x.ndim == 2 else loss[0], reduction))


def multilabel_margin_loss(input, target, reduction="mean"):
    """The multi-label hinge loss: for the target classes ``j`` (listed first in ``target``, ended by -1) and the
    other classes ``i``, ``sum max(0, 1 - (x[j] - x[i])) / C`` per sample."""
    x, labels = _scores_and_labels("multilabel_margin_loss", input, target)
    _reduction("multilabel_margin_loss", reduction)
    if labels.shape != x.shape or x.ndim not in (1, 2):
        raise ValueError(f"For 'multilabel_margin_loss', 'input' and 'target' must have the same (N, C) or (C,) "
                         f"shape, but got {tuple(x.shape)} and {tuple(labels.shape)}.")
    scores = x if x.ndim == 2 else x[None]
    labels = labels if labels.ndim == 2 else labels[None]
    classes = scores.shape[1]
    # A label counts until the first -1.
    valid = jnp.cumprod(labels >= 0, axis=1).astype(bool)
    is_target = jnp.any(jax.nn.one_hot(jnp.where(valid, labels, classes), classes + 1, dtype=bool)[..., :classes],
                        axis=1)
    target_scores = jnp.where(valid, jnp.take_along_axis(scores, jnp.where(valid, labels, 0), axis=1), 0)
    hinge = jnp.maximum(1 - (target_scores[:, :, None] - scores[:, None, :]), 0)
    mask = valid[:, :, None] & ~is_target[:, None, :]
    loss = jnp.sum(jnp.where(mask, hinge, 0), axis=(1, 2)) / classes
    return wrap(_reduce(loss if x.ndim == 2 else loss[0], reduction))


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    """``-mean_c(w_c (y log sigmoid(x) + (1 - y) log sigmoid(-x)))`` per sample, then reduced."""
    x = _float("multilabel_soft_margin_loss", "input", input)
    y = array_of("multilabel_soft_margin_loss", "target", target).astype(x.dtype)
    _reduction("multilabel_soft_margin_loss", reduction)
    if x.shape != y.shape:
        raise ValueError(f"For 'multilabel_soft_margin_loss', 'input' and 'target' must have the same shape, but got "
                         f"{tuple(x.shape)} and {tuple(y.shape)}.")
    terms = y * jax.nn.log_sigmoid(x) + (1 - y) * jax.nn.log_sigmoid(-x)
    if weight is not None:
        terms = terms * _float("multilabel_soft_margin_loss", "weight", weight)
    return wrap(_reduce(-jnp.mean(terms, axis=-1), reduction))


def mse_loss_ext(input, target, reduction="mean"):
    """The squared error ``(input - target)**2`` with broadcasting, reduced by ``reduction``."""
    x = _float("mse_loss_ext", "input", input)
    y = _float("mse_loss_ext", "target", target)
    _reduction("mse_loss_ext", reduction)
    try:
        difference = x - y
    except (TypeError, ValueError) as error:
        raise ValueError(f"For 'mse_loss_ext', 'input' {tuple(x.shape)} and 'target' {tuple(y.shape)} must "
                         f"broadcast. Details: {error}") from None
    return wrap(_reduce(difference * difference, reduction))


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):
    """Randomized leaky ReLU: negative elements times a slope drawn from U(``lower``, ``upper``)."""
    x = _float("rrelu", "input", input)
    if not isinstance(lower, (int, float)) or not isinstance(upper, (int, float)) or lower > upper:
        raise ValueError(f"For 'rrelu', 'lower' and 'upper' must be numbers with lower <= upper, but got {lower!r} "
                         f"and {upper!r}.")
    slope = jax.random.uniform(random_state.next_key(), x.shape, x.dtype, lower, upper)
    return wrap(jnp.where(x >= 0, x, x * slope))


def swiglu(input, dim=-1):
    """``silu(a) * b`` where ``a`` and ``b`` are the two halves of ``input`` along ``dim``."""
    x = _float("swiglu", "input", input)
    from sporax.ops.functional._args import axis_index

    dim = axis_index("swiglu", "dim", dim, x.ndim)
    if x.shape[dim] % 2:
        raise ValueError(f"For 'swiglu', the size of dimension {dim} must be even, but got {x.shape[dim]}.")
    first, second = jnp.split(x, 2, axis=dim)
    return wrap(jax.nn.silu(first) * second)


def rms_norm(x, gamma, epsilon=1e-6):
    """``(y, rstd)``: ``y = x * rstd * gamma`` with ``rstd = 1 / sqrt(mean(x**2) + epsilon)`` over the last
    ``gamma.ndim`` axes (``rstd`` keeps those axes with size 1, as Float32)."""
    array = _float("rms_norm", "x", x)
    scale = _float("rms_norm", "gamma", gamma)
    if array.dtype != scale.dtype:
        raise TypeError(f"For 'rms_norm', 'x' and 'gamma' must have the same dtype, but got {array.dtype} and "
                        f"{scale.dtype}.")
    if not isinstance(epsilon, float) or not 0 < epsilon <= 1:
        raise ValueError(f"For 'rms_norm', 'epsilon' must be a float in (0, 1], but got {epsilon!r}.")
    if scale.ndim > array.ndim or array.shape[array.ndim - scale.ndim:] != scale.shape:
        raise ValueError(f"For 'rms_norm', 'gamma' {tuple(scale.shape)} must match the last dimensions of 'x' "
                         f"{tuple(array.shape)}.")
    axes = tuple(range(array.ndim - scale.ndim, array.ndim))
    wide = array.astype(jnp.float32)
    rstd = jax.lax.rsqrt(jnp.mean(wide * wide, axis=axes, keepdims=True) + epsilon)
    return wrap((wide * rstd * scale.astype(jnp.float32)).astype(array.dtype)), wrap(rstd)


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """Local response normalisation of NCHW ``x`` across channels:
    ``x / (bias + alpha * sum_{|c' - c| <= depth_radius} x[c']**2) ** beta``."""
    array = _float("lrn", "x", x)
    if array.ndim != 4:
        raise ValueError(f"For 'lrn', 'x' must be 4-D (N, C, H, W), but got shape {tuple(array.shape)}.")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'lrn', 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}.")
    if isinstance(depth_radius, bool) or not isinstance(depth_radius, int) or depth_radius < 0:
        raise ValueError(f"For 'lrn', 'depth_radius' must be a non-negative int, but got {depth_radius!r}.")
    squared = array * array
    padded = jnp.pad(squared, ((0, 0), (depth_radius, depth_radius), (0, 0), (0, 0)))
    window = sum(padded[:, i:i + array.shape[1]] for i in range(2 * depth_radius + 1))
    return wrap(array / (bias + alpha * window) ** beta)
