"""Margin and embedding losses: soft_margin_loss, margin_ranking_loss, cosine_embedding_loss,
hinge_embedding_loss, triplet_margin_loss and the multi-class/multi-label hinge losses (multi_margin_loss,
multilabel_margin_loss and its ``MultilabelMarginLoss`` form, multilabel_soft_margin_loss).

Each is one op-table entry, as the losses of ``sporax.ops.functional.loss`` are (whose reduction and
input promotion they share).

Example:
    >>> from sporax import ops, Tensor
    >>> round(float(ops.hinge_embedding_loss(Tensor([0.5, 0.2]), Tensor([1.0, -1.0])).asnumpy()), 4)
    0.65
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops.functional import loss_references as references
from sporax.ops.functional._args import check_reduction
from sporax.ops.functional.loss import _reduce, _regression
from sporax.ops.face_inputs import accepting
from sporax.ops.op_table import ANY, FLOAT, TO_FLOAT, op


@op(inputs=("input", "target"), dtypes=TO_FLOAT, primitive="SoftMarginLoss", primitive_attrs=("reduction",),
    mint="soft_margin_loss", samples=references.pair_samples(target=(-1.0, 1.0), signs=True),
    reference=lambda input, target, reduction="mean": references.reduced(np.logaddexp(0.0, -target * input),
                                                                        reduction))
def soft_margin_loss(input, target, reduction="mean"):
    """``log(1 + exp(-target * input))``."""
    a, b = _regression("soft_margin_loss", input, target, reduction)
    return _reduce(jax.nn.softplus(-b * a), reduction)


@op(inputs=("input1", "input2", "target"), dtypes=TO_FLOAT, samples=references.ranking_samples(),
    reference=references.margin_ranking_loss)
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``max(0, -target * (input1 - input2) + margin)``."""
    a, b = _regression("margin_ranking_loss", input1, input2, reduction, ("input1", "input2"))
    y = target.astype(a.dtype)
    # the whole gradient at the hinge (loss exactly 0), as MindSpore's; jnp.maximum would split it in half
    hinge = -y * (a - b) + margin
    return _reduce(jnp.where(hinge >= 0, hinge, jnp.zeros_like(hinge)), reduction)


# --- embedding losses ------------------------------------------------------------------------
@op(inputs=("input1", "input2", "target"), dtypes=TO_FLOAT, samples=references.ranking_samples(per_row=True),
    reference=references.cosine_embedding_loss)
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``1 - cos(x1, x2)`` where target is 1, ``max(0, cos(x1, x2) - margin)`` where it is -1."""
    a, b = _regression("cosine_embedding_loss", input1, input2, reduction, ("input1", "input2"))
    y = target.astype(a.dtype)
    eps = 1e-12
    cosine = jnp.sum(a * b, -1) / jnp.sqrt(jnp.maximum(jnp.sum(a * a, -1) * jnp.sum(b * b, -1), eps))
    loss = jnp.where(y > 0, 1.0 - cosine, jnp.maximum(0.0, cosine - margin))
    return _reduce(loss.astype(a.dtype), reduction)


# MindSpore 2.10 checks both inputs' dtypes in Python (Int, Bool: its TypeError)
_HINGE_INPUTS = {name: accepting(("BFloat16", "Float16", "Float32", "Float64"), "For 'HingeEmbeddingLoss', the dtype of "
                                 f"the {place} input must be float, but got {{got}}.")
                 for name, place in (("inputs", "first"), ("targets", "second"))}


@op(inputs=("inputs", "targets"), dtypes=FLOAT, samples=references.pair_samples(target=(-1.0, 1.0), signs=True),
    input_dtypes=_HINGE_INPUTS, reference=references.hinge_embedding_loss)
def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """``x`` where target is 1, ``max(0, margin - x)`` where it is -1."""
    x, y = _regression("hinge_embedding_loss", inputs, targets, reduction, ("inputs", "targets"))
    loss = jnp.where(y > 0, x, jnp.maximum(0.0, margin - x))
    return _reduce(loss.astype(x.dtype), reduction)


@op(inputs=("anchor", "positive", "negative"), dtypes=TO_FLOAT, samples=references.triplet_samples,
    reference=references.triplet_margin_loss)
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction="mean"):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with p-norm distances along the last axis."""
    a, pos = _regression("triplet_margin_loss", anchor, positive, reduction, ("anchor", "positive"))
    neg = negative.astype(a.dtype)

    def distance(u, v):
        return jnp.sum(jnp.abs(u - v + eps) ** p, -1) ** (1.0 / p)

    d_neg = distance(a, neg)
    if swap:
        d_neg = jnp.minimum(d_neg, distance(pos, neg))
    loss = jnp.maximum(distance(a, pos) - d_neg + margin, 0.0)
    return _reduce(loss.astype(a.dtype), reduction)


def _integer_target(op_name, target):
    if target.dtype.kind not in "iu":
        raise TypeError(f"For '{op_name}', 'target' must be an integer Tensor, but got {target.dtype}.")


@op(inputs=("input", "target", "weight"), input_dtypes={"target": ANY}, samples=references.multi_margin_samples,
    reference=references.multi_margin_loss)
def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):
    """The multi-class hinge loss ``sum_{j != y} max(0, margin - x[y] + x[j])**p / C`` per sample.

    Args:
        input (Tensor): (N, C) or (C,) scores. target (Tensor): (N,) or () class indices.
        p (int): 1 or 2. margin (float): the margin. weight (Tensor): (C,) class weights (of ``y``).
        reduction (str): 'none', 'mean' or 'sum'.
    """
    if np.dtype(target.dtype) != np.int64:  # MindSpore 2.10's kernel takes Int64 class indices only
        raise TypeError(f"For primitive[MultiMarginLoss], the input argument[target] must be a type of "
                        f"{{Tensor[Int64]}}, but got Tensor[{mstype.from_numpy_dtype(np.dtype(target.dtype))}].")
    if p not in (1, 2):
        raise ValueError(f"For 'multi_margin_loss', 'p' must be 1 or 2, but got {p!r}.")
    check_reduction("multi_margin_loss", reduction)
    scores = input if input.ndim == 2 else input[None]
    labels = target.reshape(-1)
    if scores.ndim != 2 or labels.shape[0] != scores.shape[0]:
        raise ValueError(f"For 'multi_margin_loss', 'input' must be (N, C) and 'target' (N,), but got "
                         f"{tuple(input.shape)} and {tuple(target.shape)}.")
    chosen = jnp.take_along_axis(scores, labels[:, None], axis=1)
    hinge = jnp.maximum(margin - chosen + scores, 0) ** p
    hinge = jnp.where(jax.nn.one_hot(labels, scores.shape[1], dtype=bool), 0, hinge)
    if weight is not None:
        hinge = hinge * weight[labels][:, None]
    loss = jnp.sum(hinge, axis=1) / scores.shape[1]
    return _reduce(loss if input.ndim == 2 else loss[0], reduction)


def _multilabel_targets(labels, classes):
    """The labels that count (those before the first -1) and, per sample, which classes they name."""
    valid = jnp.cumprod(labels >= 0, axis=1).astype(bool)
    is_target = jnp.any(jax.nn.one_hot(jnp.where(valid, labels, classes), classes + 1, dtype=bool)[..., :classes],
                        axis=1)
    return valid, is_target


@op(inputs=("input", "target"), input_dtypes={"target": ANY}, samples=references.multilabel_margin_samples,
    reference=references.multilabel_margin_loss)
def multilabel_margin_loss(input, target, reduction="mean"):
    """The multi-label hinge loss: for the target classes ``j`` (listed first in ``target``, ended by -1) and the
    other classes ``i``, ``sum max(0, 1 - (x[j] - x[i])) / C`` per sample."""
    _integer_target("multilabel_margin_loss", target)
    check_reduction("multilabel_margin_loss", reduction)
    if target.shape != input.shape or input.ndim not in (1, 2):
        raise ValueError(f"For 'multilabel_margin_loss', 'input' and 'target' must have the same (N, C) or (C,) "
                         f"shape, but got {tuple(input.shape)} and {tuple(target.shape)}.")
    scores = input if input.ndim == 2 else input[None]
    labels = target if target.ndim == 2 else target[None]
    classes = scores.shape[1]
    valid, is_target = _multilabel_targets(labels, classes)
    target_scores = jnp.where(valid, jnp.take_along_axis(scores, jnp.where(valid, labels, 0), axis=1), 0)
    hinge = jnp.maximum(1 - (target_scores[:, :, None] - scores[:, None, :]), 0)
    mask = valid[:, :, None] & ~is_target[:, None, :]
    loss = jnp.sum(jnp.where(mask, hinge, 0), axis=(1, 2)) / classes
    return _reduce(loss if input.ndim == 2 else loss[0], reduction)


@op(inputs=("input", "target", "weight"), input_dtypes={"target": ANY},
    samples=references.pair_samples(target=(0.0, 1.0), signs=True, weighted=True),
    reference=references.multilabel_soft_margin_loss)
def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    """``-mean_c(w_c (y log sigmoid(x) + (1 - y) log sigmoid(-x)))`` per sample, then reduced."""
    y = target.astype(input.dtype)
    check_reduction("multilabel_soft_margin_loss", reduction)
    if input.shape != y.shape:
        raise ValueError(f"For 'multilabel_soft_margin_loss', 'input' and 'target' must have the same shape, but "
                         f"got {tuple(input.shape)} and {tuple(y.shape)}.")
    terms = y * jax.nn.log_sigmoid(input) + (1 - y) * jax.nn.log_sigmoid(-input)
    if weight is not None:
        terms = terms * weight
    return _reduce(-jnp.mean(terms, axis=-1), reduction)


def _multilabel_margin_with_targets_reference(x, target, reduction="mean"):
    is_target = np.zeros(np.shape(target), np.int32)
    for row, labels in zip(np.atleast_2d(is_target), np.atleast_2d(target)):
        for label in labels:
            if label < 0:
                break
            row[label] = 1
    return references.multilabel_margin_loss(x, target, reduction), is_target


@op(inputs=("x", "target"), input_dtypes={"target": ANY}, samples=references.multilabel_margin_samples,
    reference=_multilabel_margin_with_targets_reference, grad_check=False)
def multilabel_margin_loss_with_targets(x, target, reduction="mean"):
    """``MultilabelMarginLoss``: ``(loss, is_target)``, the ``multilabel_margin_loss`` and an Int32 Tensor of
    ``target``'s shape marking the classes each sample's target names."""
    loss = multilabel_margin_loss.entry.kernel(x, target, reduction)
    labels = target if target.ndim == 2 else target[None]
    _, is_target = _multilabel_targets(labels, labels.shape[1])
    return loss, is_target.astype(jnp.int32).reshape(target.shape)
