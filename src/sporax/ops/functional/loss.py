"""Loss functions: cross_entropy, nll_loss, mse_loss (and mse_loss_ext), l1_loss, smooth_l1_loss, binary cross
entropy, kl_div, the margin losses (multi_margin_loss, multilabel_margin_loss, multilabel_soft_margin_loss), and
the fused softmax/sigmoid cross entropies of MindSpore's Primitive classes.

``reduction`` is 'mean', 'sum' or 'none'. Losses keep the input's float dtype; integer inputs
of the regression losses become Float32. A weighted 'mean' divides by the sum of the weights
of the counted targets (ignored targets count for nothing), as MindSpore does.

Example:
    >>> from sporax import ops, Tensor, int32
    >>> loss = ops.cross_entropy(Tensor([[1.0, 2.0, 3.0]]), Tensor([2], int32))
    >>> round(float(loss.asnumpy()), 4)
    0.4076
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, describe, float_array_of, wrap
from sporax.ops.functional._args import check_index_range, check_reduction, kernel
from sporax.ops.functional.activation import float_input
from sporax.ops.functional.special_math import floating as _float


def _reduce(loss, reduction, weight_sum=None):
    if reduction == "sum":
        return jnp.sum(loss)
    if reduction == "mean":
        return jnp.sum(loss) / weight_sum if weight_sum is not None else jnp.mean(loss)
    return loss


def _pair(op_name, input, target, input_name="input", target_name="target"):
    a = float_array_of(op_name, input_name, input)
    b = float_array_of(op_name, target_name, target)
    if a.dtype != b.dtype:
        target_dtype = jnp.promote_types(a.dtype, b.dtype)
        a, b = a.astype(target_dtype), b.astype(target_dtype)
    try:
        jnp.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"For '{op_name}', the shapes of '{input_name}' {a.shape} and "
                         f"'{target_name}' {b.shape} cannot be broadcast together.") from None
    return a, b


def _class_weight(op_name, weight, classes, dtype):
    if weight is None:
        return None
    array = array_of(op_name, "weight", weight)
    if array.shape != (classes,):
        raise ValueError(f"For '{op_name}', 'weight' must have one entry per class ({classes}), but got "
                         f"{describe(weight)}.")
    return array if array.dtype == dtype else array.astype(dtype)


@kernel("ignore_index", "reduction", "label_smoothing", "from_logits")
def _class_loss_kernel(values, target, weight, ignore_index, reduction, label_smoothing, from_logits):
    log_probs = jax.nn.log_softmax(values, 1) if from_logits else values
    classes = log_probs.shape[1]
    valid = target != ignore_index
    safe_target = jnp.where(valid, target, 0)
    picked = -jnp.squeeze(jnp.take_along_axis(log_probs, safe_target[:, None], 1), 1)
    target_weight = jnp.ones_like(picked) if weight is None else weight[safe_target]
    target_weight = jnp.where(valid, target_weight, jnp.zeros((), log_probs.dtype))
    loss = picked * target_weight
    if label_smoothing > 0.0:
        class_weight = jnp.ones((classes,), log_probs.dtype) if weight is None else weight
        smooth = -jnp.sum(log_probs * class_weight.reshape((1, -1) + (1,) * (log_probs.ndim - 2)), 1)
        smooth = jnp.where(valid, smooth, jnp.zeros((), log_probs.dtype))
        loss = (1.0 - label_smoothing) * loss + (label_smoothing / classes) * smooth
    return _reduce(loss, reduction, jnp.sum(target_weight) if reduction == "mean" else None)


def _class_loss(op_name, values, target, weight, ignore_index, reduction, label_smoothing, from_logits):
    """NLL of integer class targets over axis 1, with class weights, smoothing and ignore_index."""
    check_reduction(op_name, reduction)
    if values.ndim == 1:
        values, target = values[None], target[None]
    if target.shape != values.shape[:1] + values.shape[2:]:
        raise ValueError(f"For '{op_name}', 'target' must have shape {values.shape[:1] + values.shape[2:]}"
                         f" (the input's shape without the class axis 1), but got {target.shape}.")
    weight = _class_weight(op_name, weight, values.shape[1], values.dtype)
    check_index_range(op_name, "target", target, -values.shape[1], values.shape[1], int(ignore_index))
    return _class_loss_kernel(values, target, weight, int(ignore_index), reduction, float(label_smoothing),
                              from_logits)


@kernel("reduction", "label_smoothing")
def _probability_loss_kernel(logits, labels, weight, reduction, label_smoothing):
    class_axis = 1 if logits.ndim > 1 else 0
    classes = logits.shape[class_axis]
    log_probs = jax.nn.log_softmax(logits, class_axis)
    if label_smoothing > 0.0:
        labels = labels * (1.0 - label_smoothing) + label_smoothing / classes
    weighted = log_probs * labels
    if weight is not None:
        weighted = weighted * weight.reshape((-1,) + (1,) * (logits.ndim - 1 - class_axis))
    loss = -jnp.sum(weighted, class_axis)
    if reduction == "mean":
        return jnp.sum(loss) / (logits.size // classes)
    return _reduce(loss, reduction)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Cross entropy of logits ``input`` (N, C, ...) against class indices or class probabilities."""
    logits = float_input("cross_entropy", "input", input)
    labels = array_of("cross_entropy", "target", target)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"For 'cross_entropy', 'label_smoothing' must be in [0, 1], but got {label_smoothing}.")
    if labels.dtype.kind in "iu":
        return wrap(_class_loss("cross_entropy", logits, labels, weight, ignore_index, reduction,
                                label_smoothing, True))
    check_reduction("cross_entropy", reduction)
    if labels.shape != logits.shape:
        raise ValueError(f"For 'cross_entropy', probability targets must have the input's shape "
                         f"{logits.shape}, but got {labels.shape}.")
    classes = logits.shape[1 if logits.ndim > 1 else 0]
    class_weight = _class_weight("cross_entropy", weight, classes, logits.dtype)
    return wrap(_probability_loss_kernel(logits, labels.astype(logits.dtype), class_weight, reduction,
                                         float(label_smoothing)))


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Negative log likelihood of class indices ``target`` under log-probabilities ``inputs``."""
    log_probs = float_input("nll_loss", "inputs", inputs)
    labels = array_of("nll_loss", "target", target)
    if labels.dtype.kind not in "iu":
        raise TypeError(f"For 'nll_loss', 'target' must be an integer Tensor of class indices, but got "
                        f"{describe(target)}.")
    return wrap(_class_loss("nll_loss", log_probs, labels, weight, ignore_index, reduction, label_smoothing,
                            False))


@kernel("kind", "reduction", "beta")
def _pointwise_kernel(a, b, kind, reduction, beta):
    if kind == "mse":
        loss = jnp.square(a - b)
    elif kind == "l1":
        loss = jnp.abs(a - b)
    elif kind == "smooth_l1":
        diff = jnp.abs(a - b)
        loss = jnp.where(diff < beta, 0.5 * diff * diff / beta, diff - 0.5 * beta).astype(a.dtype)
    elif kind == "huber":
        diff = jnp.abs(a - b)
        loss = jnp.where(diff < beta, 0.5 * diff * diff, beta * (diff - 0.5 * beta)).astype(a.dtype)
    elif kind == "soft_margin":
        loss = jax.nn.softplus(-b * a)
    elif kind == "kl_div":
        # MindSpore's kernel: zero loss where labels <= 0, yet the logits gradient is -labels
        # everywhere (its KLDivLossGrad), so the masked terms keep a gradient-only part.
        loss = jnp.where(b > 0, jax.scipy.special.xlogy(b, b) - b * a, jax.lax.stop_gradient(b * a) - b * a)
        if reduction == "batchmean":
            return jnp.sum(loss) / (a.shape[0] if a.ndim else 1)
    else:  # sigmoid cross entropy from logits
        loss = (1.0 - b) * a + jax.nn.softplus(-a)
    return _reduce(loss, reduction)


def _pointwise(op_name, kind, input, target, reduction, beta=0.0, names=("input", "target")):
    check_reduction(op_name, reduction)
    a, b = _pair(op_name, input, target, *names)
    return wrap(_pointwise_kernel(a, b, kind, reduction, float(beta)))


def mse_loss(input, target, reduction="mean"):
    """Mean squared error ``(input - target) ** 2``."""
    return _pointwise("mse_loss", "mse", input, target, reduction)


def l1_loss(input, target, reduction="mean"):
    """Mean absolute error ``|input - target|``."""
    return _pointwise("l1_loss", "l1", input, target, reduction)


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta`` (d = input - target)."""
    if beta <= 0:
        raise ValueError(f"For 'smooth_l1_loss', 'beta' must be positive, but got {beta}.")
    return _pointwise("smooth_l1_loss", "smooth_l1", input, target, reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``."""
    return _pointwise("huber_loss", "huber", input, target, reduction, delta)


def soft_margin_loss(input, target, reduction="mean"):
    """``log(1 + exp(-target * input))``."""
    return _pointwise("soft_margin_loss", "soft_margin", input, target, reduction)


def kl_div(logits, labels, reduction="mean"):
    """KL divergence ``labels * (log(labels) - logits)`` (``logits`` are log-probabilities)."""
    if reduction not in ("mean", "sum", "none", "batchmean"):
        raise ValueError(f"For 'kl_div', 'reduction' must be 'mean', 'sum', 'none' or 'batchmean', but "
                         f"got {reduction!r}.")
    a, b = _pair("kl_div", logits, labels, "logits", "labels")
    return wrap(_pointwise_kernel(a, b, "kl_div", reduction, 0.0))


def _optional_weight(op_name, arg_name, weight, dtype):
    return None if weight is None else array_of(op_name, arg_name, weight).astype(dtype)


@kernel("reduction", "from_logits")
def _binary_kernel(x, y, weight, pos_weight, reduction, from_logits):
    if from_logits:
        log_weight = 1.0 if pos_weight is None else 1.0 + (pos_weight - 1.0) * y
        loss = (1.0 - y) * x + log_weight * jax.nn.softplus(-x)
    else:
        eps = 1e-12
        loss = -(y * jnp.log(jnp.maximum(x, eps)) + (1 - y) * jnp.log(jnp.maximum(1 - x, eps)))
    return _reduce(loss if weight is None else loss * weight, reduction)


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """BCE of probabilities ``logits`` against ``labels`` (logs clamped at log(1e-12))."""
    check_reduction("binary_cross_entropy", reduction)
    p, y = _pair("binary_cross_entropy", logits, labels, "logits", "labels")
    w = _optional_weight("binary_cross_entropy", "weight", weight, p.dtype)
    return wrap(_binary_kernel(p, y, w, None, reduction, False))


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction="mean"):
    """BCE of ``sigmoid(input)`` against ``target``, computed stably from the logits."""
    op_name = "binary_cross_entropy_with_logits"
    check_reduction(op_name, reduction)
    x, y = _pair(op_name, input, target)
    return wrap(_binary_kernel(x, y, _optional_weight(op_name, "weight", weight, x.dtype),
                               _optional_weight(op_name, "pos_weight", pos_weight, x.dtype), reduction, True))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``max(0, -target * (input1 - input2) + margin)``."""
    check_reduction("margin_ranking_loss", reduction)
    a, b = _pair("margin_ranking_loss", input1, input2, "input1", "input2")
    y = float_array_of("margin_ranking_loss", "target", target).astype(a.dtype)
    return wrap(_reduce(jnp.maximum(0, -y * (a - b) + margin), reduction))


# --- the fused losses behind MindSpore's Primitive classes -------------------------------------
def sigmoid_cross_entropy_with_logits(logits, label):
    """Element-wise BCE of ``sigmoid(logits)`` against ``label`` (no reduction)."""
    x, y = _pair("SigmoidCrossEntropyWithLogits", logits, label, "logits", "label")
    return wrap(_pointwise_kernel(x, y, "sigmoid", "none", 0.0))


def _softmax_cross_entropy_forward(x, y):
    log_probs = jax.nn.log_softmax(x, -1)
    return -jnp.sum(y * log_probs, -1), jnp.exp(log_probs) - y


# MindSpore's kernel defines the logits gradient as ``dloss * (softmax - labels)`` whatever the
# labels sum to (the textbook derivative would be ``softmax * sum(labels) - labels``), and gives
# the labels no gradient; the second output (``backprop``) passes no gradient either.
@jax.custom_vjp
def _softmax_cross_entropy_kernel(x, y):
    return _softmax_cross_entropy_forward(x, y)


def _softmax_cross_entropy_fwd(x, y):
    loss, backprop = _softmax_cross_entropy_forward(x, y)
    return (loss, backprop), (backprop, y)


def _softmax_cross_entropy_bwd(residuals, cotangents):
    backprop, y = residuals
    return cotangents[0][..., None] * backprop, jnp.zeros_like(y)


_softmax_cross_entropy_kernel.defvjp(_softmax_cross_entropy_fwd, _softmax_cross_entropy_bwd)
_softmax_cross_entropy_kernel = jax.jit(_softmax_cross_entropy_kernel)


def softmax_cross_entropy_with_logits(logits, labels):
    """Per-row softmax cross entropy of (N, C) ``logits`` against one-hot/probability ``labels``,
    and its gradient w.r.t. the logits: ``(loss, softmax(logits) - labels)``."""
    x, y = _pair("SoftmaxCrossEntropyWithLogits", logits, labels, "logits", "labels")
    loss, backprop = _softmax_cross_entropy_kernel(x, y)
    return wrap(loss), wrap(backprop)


@kernel("is_grad")
def _sparse_kernel(x, y, is_grad):
    log_probs = jax.nn.log_softmax(x, -1)
    if is_grad:
        return (jnp.exp(log_probs) - jax.nn.one_hot(y, x.shape[-1], dtype=x.dtype)) / x.shape[0]
    return -jnp.mean(jnp.take_along_axis(log_probs, y[:, None].astype(np.int32), -1))


def sparse_softmax_cross_entropy_with_logits(logits, labels, is_grad=False):
    """Mean softmax cross entropy of (N, C) ``logits`` against class indices ``labels``
    (with ``is_grad``: the gradient w.r.t. the logits instead)."""
    x = float_input("SparseSoftmaxCrossEntropyWithLogits", "logits", logits)
    y = array_of("SparseSoftmaxCrossEntropyWithLogits", "labels", labels)
    return wrap(_sparse_kernel(x, y, bool(is_grad)))


# --- embedding and distribution losses --------------------------------------------------------
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``1 - cos(x1, x2)`` where target is 1, ``max(0, cos(x1, x2) - margin)`` where it is -1."""
    check_reduction("cosine_embedding_loss", reduction)
    a, b = _pair("cosine_embedding_loss", input1, input2, "input1", "input2")
    y = float_array_of("cosine_embedding_loss", "target", target).astype(a.dtype)
    eps = 1e-12
    cosine = jnp.sum(a * b, -1) / jnp.sqrt(jnp.maximum(jnp.sum(a * a, -1) * jnp.sum(b * b, -1), eps))
    loss = jnp.where(y > 0, 1.0 - cosine, jnp.maximum(0.0, cosine - margin))
    return wrap(_reduce(loss.astype(a.dtype), reduction))


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """``x`` where target is 1, ``max(0, margin - x)`` where it is -1."""
    check_reduction("hinge_embedding_loss", reduction)
    x, y = _pair("hinge_embedding_loss", inputs, targets, "inputs", "targets")
    loss = jnp.where(y > 0, x, jnp.maximum(0.0, margin - x))
    return wrap(_reduce(loss.astype(x.dtype), reduction))


def gaussian_nll_loss(x, target, var, full=False, eps=1e-06, reduction="mean"):
    """Gaussian negative log likelihood ``0.5 (log(var) + (x - target)^2 / var)`` (+ const)."""
    check_reduction("gaussian_nll_loss", reduction)
    a, b = _pair("gaussian_nll_loss", x, target, "x", "target")
    variance = jnp.maximum(float_array_of("gaussian_nll_loss", "var", var).astype(a.dtype), eps)
    if variance.ndim == a.ndim - 1:
        variance = variance[..., None]
    loss = 0.5 * (jnp.log(variance) + jnp.square(a - b) / variance)
    if full:
        loss = loss + float(0.5 * np.log(2 * np.pi))
    return wrap(_reduce(loss, reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction="mean"):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with p-norm distances along the last axis."""
    check_reduction("triplet_margin_loss", reduction)
    a, pos = _pair("triplet_margin_loss", anchor, positive, "anchor", "positive")
    neg = float_array_of("triplet_margin_loss", "negative", negative).astype(a.dtype)

    def distance(u, v):
        return jnp.sum(jnp.abs(u - v + eps) ** p, -1) ** (1.0 / p)

    d_neg = distance(a, neg)
    if swap:
        d_neg = jnp.minimum(d_neg, distance(pos, neg))
    loss = jnp.maximum(distance(a, pos) - d_neg + margin, 0.0)
    return wrap(_reduce(loss.astype(a.dtype), reduction))


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
    check_reduction("multi_margin_loss", reduction)
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
    check_reduction("multilabel_margin_loss", reduction)
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
    check_reduction("multilabel_soft_margin_loss", reduction)
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
    check_reduction("mse_loss_ext", reduction)
    try:
        difference = x - y
    except (TypeError, ValueError) as error:
        raise ValueError(f"For 'mse_loss_ext', 'input' {tuple(x.shape)} and 'target' {tuple(y.shape)} must "
                         f"broadcast. Details: {error}") from None
    return wrap(_reduce(difference * difference, reduction))
