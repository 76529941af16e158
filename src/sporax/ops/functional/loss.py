"""Probability losses: cross_entropy, nll_loss, binary cross entropy, kl_div (and kl_div_ext), the fused
softmax/sigmoid cross entropies of MindSpore's Primitive classes, and the reduction and input promotion every
loss shares (``regression_loss`` and ``margin_loss`` hold the other losses).

Each loss is one op-table entry (``sporax.ops.op_table``): the kernel below, its Primitive and
``mint`` names, its samples and a NumPy reference (``sporax.ops.functional.loss_references``).
``reduction`` is 'mean', 'sum' or 'none'. Losses keep the input's float dtype; integer inputs
of the regression losses become Float32 (the ``TO_FLOAT`` rule). A weighted 'mean' divides by the
sum of the weights of the counted targets (ignored targets count for nothing), as MindSpore does.

Example:
    >>> from sporax import ops, Tensor, int32
    >>> loss = ops.cross_entropy(Tensor([[1.0, 2.0, 3.0]]), Tensor([2], int32))
    >>> round(float(loss.asnumpy()), 4)
    0.4076
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of, float_array_of, wrap
from sporax.ops.functional import loss_references as references
from sporax.ops.functional._args import check_index_range, check_reduction, kernel
from sporax.ops.functional.activation import float_input
from sporax.ops.functional.reduce import divide_exactly, full_sum
from sporax.ops.face_inputs import accepting, primitive_accepting
from sporax.ops.functional.arithmetic import one_dtype
from sporax.ops.op_table import ANY, FLOAT, INDEX, TO_FLOAT, Sample, op, spelling


def _reduce(loss, reduction, weight_sum=None):
    if reduction == "sum":
        return full_sum(loss) if loss.dtype.kind == "f" else jnp.sum(loss)
    if reduction == "mean":
        if weight_sum is not None:
            return full_sum(loss) / weight_sum
        # the sum divided by the count rounded once, as MindSpore's loss kernels and ReduceMean divide (jnp.mean
        # multiplies by the count's rounded reciprocal: BinaryCrossEntropy's docstring example gave 0.38240486,
        # MindSpore 0.38240483)
        if loss.dtype.kind != "f":
            return jnp.mean(loss)
        total = full_sum(loss, np.promote_types(loss.dtype, np.float32))
        return divide_exactly(total, loss.size).astype(loss.dtype)
    return loss


def _promoted(op_name, input, target, input_name="input", target_name="target"):
    """``input`` and ``target`` in their common float dtype, checked to broadcast."""
    if input.dtype != target.dtype:
        common = jnp.promote_types(input.dtype, target.dtype)
        input, target = input.astype(common), target.astype(common)
    try:
        jnp.broadcast_shapes(input.shape, target.shape)
    except ValueError:
        raise ValueError(f"For '{op_name}', the shapes of '{input_name}' {input.shape} and "
                         f"'{target_name}' {target.shape} cannot be broadcast together.") from None
    return input, target


def _pair(op_name, input, target, input_name="input", target_name="target"):
    """``_promoted`` of two Tensor arguments (Bool and Int become Float32): the Primitive-only losses."""
    return _promoted(op_name, float_array_of(op_name, input_name, input),
                     float_array_of(op_name, target_name, target), input_name, target_name)


def _class_weight(op_name, weight, classes, dtype):
    if weight is None:
        return None
    if weight.shape != (classes,):
        raise ValueError(f"For '{op_name}', 'weight' must have one entry per class ({classes}), but got "
                         f"a Tensor of shape {weight.shape}.")
    return weight.astype(dtype)


def _optional(weight, dtype):
    return None if weight is None else weight.astype(dtype)


def _targets_in_range(op_name):
    """The ``value_check`` of a loss over class indices: every target a class or ``ignore_index``
    (a gather in XLA would clamp an index out of range and give a silently wrong loss)."""

    def check(values, target, weight=None, ignore_index=-100, **settings):
        if target is not None and target.dtype.kind in "iu" and values.ndim:
            classes = values.shape[1] if values.ndim > 1 else values.shape[0]
            check_index_range(op_name, "target", target, -classes, classes, int(ignore_index))

    return check


# MindSpore 2.10 gathers class indices with GatherD, which takes Int32 and Int64 only; ``cross_entropy`` reads
# Float16/Float32 targets as probabilities (a Float64 or Bool target is taken for indices and refused, recorded).
_INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))
_PROBABILITY_DTYPES = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(jnp.bfloat16))


def _check_target_dtype(op_name, target, probabilities=()):
    if target.dtype in _INDEX_DTYPES or target.dtype in probabilities:
        return
    expected = "Int32 or Int64 class indices" + (", or Float16/Float32 probabilities" if probabilities else "")
    raise TypeError(f"For '{op_name}', 'target' must hold {expected}, but got a Tensor of "
                    f"{mstype.from_numpy_dtype(target.dtype)}; cast it first, e.g. target.astype(mindspore.int32).")


def _class_loss(op_name, values, target, weight, ignore_index, reduction, label_smoothing, from_logits):
    """NLL of integer class targets over axis 1, with class weights, smoothing and ignore_index."""
    check_reduction(op_name, reduction)
    if values.ndim == 1:
        values, target = values[None], target[None]
    if target.shape != values.shape[:1] + values.shape[2:]:
        raise ValueError(f"For '{op_name}', 'target' must have shape {values.shape[:1] + values.shape[2:]}"
                         f" (the input's shape without the class axis 1), but got {target.shape}.")
    weight = _class_weight(op_name, weight, values.shape[1], values.dtype)
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


def _probability_loss(logits, labels, weight, reduction, label_smoothing):
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


@op(inputs=("input", "target", "weight"), input_dtypes={"target": ANY, "weight": ANY}, mint="cross_entropy",
    value_check=_targets_in_range("cross_entropy"), samples=references.cross_entropy_samples,
    reference=references.cross_entropy)
def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Cross entropy of logits ``input`` (N, C, ...) against class indices or class probabilities."""
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"For 'cross_entropy', 'label_smoothing' must be in [0, 1], but got {label_smoothing}.")
    _check_target_dtype("cross_entropy", target, _PROBABILITY_DTYPES)
    if target.dtype.kind in "iu":
        return _class_loss("cross_entropy", input, target, weight, int(ignore_index), reduction,
                           float(label_smoothing), True)
    check_reduction("cross_entropy", reduction)
    if target.shape != input.shape:
        raise ValueError(f"For 'cross_entropy', probability targets must have the input's shape "
                         f"{input.shape}, but got {target.shape}.")
    classes = input.shape[1 if input.ndim > 1 else 0]
    class_weight = _class_weight("cross_entropy", weight, classes, input.dtype)
    return _probability_loss(input, target.astype(input.dtype), class_weight, reduction, float(label_smoothing))


@op(mint=spelling("nll_loss", "input, target, weight=None, ignore_index=-100, reduction='mean'", inputs="input",
                  namespaces="mint.nn.functional"),
    inputs=("inputs", "target", "weight"), dtypes=TO_FLOAT, input_dtypes={"target": INDEX, "weight": ANY},
    value_check=_targets_in_range("nll_loss"), samples=references.nll_loss_samples, reference=references.nll_loss)
def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Negative log likelihood of class indices ``target`` under log-probabilities ``inputs`` (integer
    ``inputs`` compute in Float32, as MindSpore's)."""
    _check_target_dtype("nll_loss", target)
    return _class_loss("nll_loss", inputs, target, weight, int(ignore_index), reduction, float(label_smoothing),
                       False)


def _regression(op_name, input, target, reduction, names=("input", "target")):
    check_reduction(op_name, reduction)
    return _promoted(op_name, input, target, *names)


# MindSpore 2.10's KLDivLoss: float logits (Int, Bool: its TypeError) and labels of their dtype
_kl_div_one_dtype = one_dtype("KLDivLoss", "kl_div")


@op(inputs=("logits", "labels"), dtypes=FLOAT, primitive="KLDivLoss", primitive_attrs=("reduction",),
    input_dtypes={"logits": primitive_accepting("KLDivLoss", "x", ("Float16", "Float32", "Float64")), "labels": ANY},
    value_check=lambda logits, labels, reduction="mean": _kl_div_one_dtype(logits, labels),
    samples=references.pair_samples(-3.0, -0.1, target=(0.1, 1.0),
                                    settings=({"reduction": "batchmean"}, {"reduction": "none"})),
    reference=references.kl_div, grad_check=False)  # labels take no gradient (MindSpore's bprop): see tests/ops
def kl_div(logits, labels, reduction="mean"):
    """KL divergence ``labels * (log(labels) - logits)`` (``logits`` are log-probabilities)."""
    # MindSpore's KLDivLoss bprop gives ``labels`` a zero gradient (R-Drop's symmetric KL trains through
    # only the log-probability side, its target side being the other pass's softmax).
    return _kl_div_loss(logits, labels, reduction, labels_gradient=False)


def _kl_div_loss(logits, labels, reduction, labels_gradient):
    if reduction not in ("mean", "sum", "none", "batchmean"):
        raise ValueError(f"For 'kl_div', 'reduction' must be 'mean', 'sum', 'none' or 'batchmean', but "
                         f"got {reduction!r}.")
    a, b = _promoted("kl_div", logits, labels, "logits", "labels")
    if not labels_gradient:
        b = jax.lax.stop_gradient(b)
    # MindSpore's kernel: zero loss where labels <= 0, yet the logits gradient is -labels
    # everywhere (its KLDivLossGrad), so the masked terms keep a gradient-only part.
    loss = jnp.where(b > 0, jax.scipy.special.xlogy(b, b) - b * a, jax.lax.stop_gradient(b * a) - b * a)
    if reduction == "batchmean":
        return jnp.sum(loss) / (a.shape[0] if a.ndim else 1)
    return _reduce(loss, reduction)


def _numpy_kl_div_ext(input, target, reduction="mean", log_target=False):
    if not log_target:
        return references.kl_div(input, target, reduction)
    loss = np.exp(target) * (target - input)
    return np.sum(loss) / input.shape[0] if reduction == "batchmean" else references.reduced(loss, reduction)


# MindSpore's KLDiv Primitive (``mint.nn.functional.kl_div``, PyTorch's): ``kl_div`` with ``log_target``.
@op(mint=spelling("kl_div", "input, target, reduction='mean', log_target=False", namespaces="mint.nn.functional"),
    inputs=("input", "target"), dtypes=TO_FLOAT, reference=_numpy_kl_div_ext,
    samples=references.pair_samples(-3.0, -0.1, target=(0.1, 1.0), settings=(
        {"reduction": "batchmean"}, {"reduction": "sum", "log_target": True})))
def kl_div_ext(input, target, reduction="mean", log_target=False):
    """KL divergence of ``target`` from the log-probabilities ``input``; ``target`` is log-probabilities too
    when ``log_target`` (``exp(target) * (target - input)``).

    Example:
        >>> from sporax import Tensor
        >>> from sporax.ops.functional.loss import kl_div_ext
        >>> round(float(kl_div_ext(Tensor([-1.0]), Tensor([-1.0]), log_target=True).asnumpy()), 6)
        0.0
    """
    if not log_target:
        return _kl_div_loss(input, target, reduction, labels_gradient=True)
    if reduction not in ("mean", "sum", "none", "batchmean"):
        raise ValueError(f"For 'kl_div', 'reduction' must be 'mean', 'sum', 'none' or 'batchmean', but "
                         f"got {reduction!r}.")
    a, b = _promoted("kl_div", input, target, "input", "target")
    loss = jnp.exp(b) * (b - a)
    if reduction == "batchmean":
        return jnp.sum(loss) / (a.shape[0] if a.ndim else 1)
    return _reduce(loss, reduction)


def _binary_loss(x, y, weight, pos_weight, reduction, from_logits):
    if from_logits:
        log_weight = 1.0 if pos_weight is None else 1.0 + (pos_weight - 1.0) * y
        # softplus(-x) as MindSpore's CPU kernel forms it, log(1 + exp(-|x|)) without log1p: for large |x| the
        # loss then rounds as there (mindyolo's classification loss sums ~1e5 such terms: 3e-4 apart with log1p)
        softplus = jnp.maximum(-x, 0.0) + jnp.log(1.0 + jnp.exp(-jnp.abs(x)))
        loss = (1.0 - y) * x + log_weight * softplus
    else:
        # MindSpore's CPU kernel computes a Float16 loss in Float16, rounding after every step; XLA keeps
        # the steps of a fused Float16 expression in Float32 (1 ulp apart), so a Float16 loss is computed in
        # Float32 with each step's rounding to Float16 explicit
        half = x.dtype == jnp.float16
        step = _half_step if half else (lambda value: value)
        if half:
            x, y = x.astype(jnp.float32), y.astype(jnp.float32)
            weight = None if weight is None else weight.astype(jnp.float32)
        eps = 1e-12
        positive = step(y * step(jnp.log(jnp.maximum(x, eps))))
        negative = step(step(1 - y) * step(jnp.log(jnp.maximum(step(1 - x), eps))))
        total = step(positive + negative)
        loss = -total if weight is None else -step(weight * total)
        return _reduce(loss.astype(jnp.float16) if half else loss, reduction)
    return _reduce(loss if weight is None else loss * weight, reduction)


def _half_step(value):
    """A Float32 ``value`` rounded to Float16's precision (XLA elides a Float16 round trip, not this)."""
    return jax.lax.reduce_precision(value, exponent_bits=5, mantissa_bits=10)


# MindSpore 2.10's BinaryCrossEntropy: float probabilities (sporax also computes Float64), the target and weight of
# their dtype; BCEWithLogitsLoss: four float Tensors (each may be another float dtype)
_HALF_AND_SINGLE = ("BFloat16", "Float16", "Float32", "Float64")
_BCE_INPUT = accepting(_HALF_AND_SINGLE, "For Primitive[BinaryCrossEntorpy], the type of the input must be [Float16, "
                                         "Float32, BFloat16], but got {got}!")
_BCE_WITH_LOGITS_INPUTS = {name: accepting(_HALF_AND_SINGLE, f"For primitive[BCEWithLogitsLoss], the input argument"
                                                             f"[{name}] must be a type of {{{{BFloat16, Float16, "
                                                             "Float32}}, but got {got}.")
                           for name in ("input", "target", "weight", "pos_weight")}


def _check_binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    for name, other in (("target", labels), ("weight", weight)):
        if other is not None and other.dtype != logits.dtype:
            raise TypeError(f"For primitive[BinaryCrossEntorpy], the input and {name} should have same type, but got: "
                            f"{mstype.from_numpy_dtype(logits.dtype)} and {mstype.from_numpy_dtype(other.dtype)}.\nFor "
                            f"'binary_cross_entropy', cast '{name}' first, e.g. {name}.astype(input.dtype).")


@op(mint=spelling("binary_cross_entropy", "input, target, weight=None, reduction='mean'", logits="input",
                  labels="target", namespaces="mint.nn.functional"),
    inputs=("logits", "labels", "weight"), dtypes=FLOAT,
    input_dtypes={"logits": _BCE_INPUT, "labels": ANY, "weight": ANY}, value_check=_check_binary_cross_entropy,
    primitive="BinaryCrossEntropy", primitive_attrs=("reduction",),
    samples=references.pair_samples(0.05, 0.95, target=(0.0, 1.0), weighted=True),
    reference=references.binary_cross_entropy)
def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """BCE of probabilities ``logits`` against ``labels`` (logs clamped at log(1e-12))."""
    p, y = _regression("binary_cross_entropy", logits, labels, reduction, ("logits", "labels"))
    return _binary_loss(p, y, _optional(weight, p.dtype), None, reduction, False)


@op(mint=spelling("binary_cross_entropy_with_logits", "input, target, weight=None, reduction='mean', pos_weight=None",
                  namespaces="mint.nn.functional"),
    inputs=("input", "target", "weight", "pos_weight"), dtypes=FLOAT,
    input_dtypes=_BCE_WITH_LOGITS_INPUTS, primitive="BCEWithLogitsLoss", primitive_attrs=("reduction",),
    samples=references.pair_samples(target=(0.0, 1.0), weighted=True, positive_weighted=True),
    reference=references.binary_cross_entropy_with_logits)
def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction="mean"):
    """BCE of ``sigmoid(input)`` against ``target``, computed stably from the logits."""
    x, y = _regression("binary_cross_entropy_with_logits", input, target, reduction)
    return _binary_loss(x, y, _optional(weight, x.dtype), _optional(pos_weight, x.dtype), reduction, True)


# --- the fused losses behind MindSpore's Primitive classes -------------------------------------
# The Primitive (ops.SigmoidCrossEntropyWithLogits) stays a class of its own that calls this op: its
# signature, ``(name=None)``, is part of sporax's recorded public API.
@op(inputs=("logits", "label"), dtypes=TO_FLOAT,
    samples=references.pair_samples(target=(0.0, 1.0), settings=({}, {})),
    reference=lambda logits, label: (1.0 - label) * logits + np.logaddexp(0.0, -logits))
def sigmoid_cross_entropy_with_logits(logits, label):
    """Element-wise BCE of ``sigmoid(logits)`` against ``label`` (no reduction)."""
    x, y = _promoted("SigmoidCrossEntropyWithLogits", logits, label, "logits", "label")
    return (1.0 - y) * x + jax.nn.softplus(-x)


def _softmax_cross_entropy_forward(x, y):
    # MindSpore's CPU kernel works in float32 for half inputs and rounds each output once.
    dtype = x.dtype
    if jnp.finfo(dtype).bits < 32:
        x, y = x.astype(jnp.float32), y.astype(jnp.float32)
    log_probs = jax.nn.log_softmax(x, -1)
    return (-jnp.sum(y * log_probs, -1)).astype(dtype), (jnp.exp(log_probs) - y).astype(dtype)


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




def _numpy_sparse_softmax_cross_entropy_v2(features, labels):
    shifted = features - features.max(-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
    one_hot = np.eye(features.shape[-1])[labels]
    return -(log_probs * one_hot).sum(-1), np.exp(log_probs) - one_hot


@op(inputs=("features", "labels"), dtypes=TO_FLOAT, indices="labels",
    primitive="SparseSoftmaxCrossEntropyWithLogitsV2", grad_check=False,
    samples=lambda dtype: [Sample((np.linspace(-2, 2, 12).reshape(3, 4).astype(dtype), np.array([3, 0, 1], np.int32)))],
    reference=_numpy_sparse_softmax_cross_entropy_v2)
def sparse_softmax_cross_entropy_with_logits_v2(features, labels):
    """Per-row softmax cross entropy of (N, C) ``features`` against class indices ``labels`` and its gradient
    w.r.t. the features: ``(loss, softmax(features) - one_hot(labels))``."""
    check_index_range("SparseSoftmaxCrossEntropyWithLogitsV2", "labels", labels, 0, features.shape[-1])
    return _softmax_cross_entropy_forward(features, jax.nn.one_hot(labels, features.shape[-1], dtype=features.dtype))
