"""NumPy references and sample inputs of the loss entries (``sporax.ops.functional.loss``, ``regression_loss``
and ``margin_loss``).

The op test table (tests/ops/test_op_table.py) runs each loss's samples through every face and
compares them with these references, computed in float64 independently of the kernels (NumPy, one
formula per loss as MindSpore documents it); gradients are checked against finite differences of
the references.

Example:
    >>> import numpy as np
    >>> float(reduced(np.array([1.0, 3.0]), "mean"))
    2.0
    >>> [sample.kwargs for sample in pair_samples()("float32")]
    [{}, {'reduction': 'none'}, {'reduction': 'sum'}]
"""
import ml_dtypes
import numpy as np

from sporax.ops.op_table import Sample

_REDUCTIONS = ({"reduction": "none"}, {"reduction": "sum"})


def _dtype(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def _uniform(shape, dtype, low, high, seed):
    return np.random.default_rng(seed).uniform(low, high, size=shape).astype(_dtype(dtype))


def _signs(shape, dtype, seed):
    return np.where(np.random.default_rng(seed).uniform(size=shape) > 0.5, 1.0, -1.0).astype(_dtype(dtype))


def _log_sigmoid(x):
    return -np.logaddexp(0.0, -x)


def reduced(loss, reduction, weight_sum=None):
    """``loss`` summed, averaged (over ``weight_sum`` when given) or left as it is."""
    if reduction == "sum":
        return np.sum(loss)
    if reduction == "mean":
        return np.sum(loss) / weight_sum if weight_sum is not None else np.mean(loss)
    return loss


# --- sample makers ------------------------------------------------------------------------------
def pair_samples(low=-2.0, high=2.0, target=None, signs=False, weighted=False, positive_weighted=False,
                 settings=_REDUCTIONS):
    """``(input, target)`` samples: (3, 4) with the default settings, (5,) and (3, 4) with each of
    ``settings``. ``target`` is its ``(low, high)`` (default: the input's); ``signs`` rounds it to its
    two ends (-1/1 or 0/1 labels). ``weighted`` (``positive_weighted``) adds a (4,) ``weight``
    (``pos_weight``) to the last sample."""
    target_low, target_high = target or (low, high)

    def make(dtype):
        samples = []
        for seed, (shape, extra) in enumerate((((3, 4), {}), ((5,), settings[0]), ((3, 4), settings[-1]))):
            x = _uniform(shape, dtype, low, high, seed)
            if signs:
                y = np.where(_signs(shape, "float64", seed + 50) > 0, target_high, target_low).astype(_dtype(dtype))
            else:
                y = _uniform(shape, dtype, target_low, target_high, seed + 50)
            arrays = (x, y)
            if seed == 2 and (weighted or positive_weighted):
                arrays += (_uniform((4,), dtype, 0.5, 1.5, 7),)
                if positive_weighted:
                    arrays += (_uniform((4,), dtype, 0.5, 2.0, 8),)
            samples.append(Sample(arrays, dict(extra)))
        return samples

    return make


def _classes(shape, classes, seed, ignored=None):
    target = np.random.default_rng(seed).integers(0, classes, size=shape).astype(np.int32)
    if ignored is not None:
        target.flat[1] = ignored
    return target


def cross_entropy_samples(dtype):
    """Class-index targets (with weights, smoothing, an ignored target, an (N, C, d) input) and
    class-probability targets."""
    logits = _uniform((4, 3), dtype, -2.0, 2.0, 0)
    weight = _uniform((3,), dtype, 0.5, 2.0, 1)
    probabilities = _uniform((4, 3), dtype, 0.0, 1.0, 2)
    return [Sample((logits, _classes((4,), 3, 3))),
            Sample((logits, _classes((4,), 3, 4, ignored=-100), weight), {"label_smoothing": 0.2}),
            Sample((_uniform((2, 3, 2), dtype, -2.0, 2.0, 5), _classes((2, 2), 3, 6)), {"reduction": "none"}),
            Sample((logits, probabilities, weight), {"reduction": "sum", "label_smoothing": 0.1})]


def nll_loss_samples(dtype):
    log_probs = _uniform((4, 3), dtype, -3.0, -0.1, 0)
    return [Sample((log_probs, _classes((4,), 3, 1))),
            Sample((log_probs, _classes((4,), 3, 2, ignored=-100), _uniform((3,), dtype, 0.5, 2.0, 3)), {}),
            Sample((log_probs, _classes((4,), 3, 4)), {"reduction": "none"})]


def ranking_samples(per_row=False):
    """``(input1, input2, target)``: (3, 4) inputs, -1/1 targets of shape (3, 4), or (3,) when ``per_row``."""

    def make(dtype):
        target_shape = (3,) if per_row else (3, 4)
        return [Sample((_uniform((3, 4), dtype, -2.0, 2.0, seed), _uniform((3, 4), dtype, -2.0, 2.0, seed + 10),
                        _signs(target_shape, dtype, seed + 20)), extra)
                for seed, extra in enumerate(({}, {"margin": 0.3, "reduction": "none"}, {"reduction": "sum"}))]

    return make


def gaussian_nll_samples(dtype):
    x, target = _uniform((3, 4), dtype, -2.0, 2.0, 0), _uniform((3, 4), dtype, -2.0, 2.0, 1)
    return [Sample((x, target, _uniform((3, 4), dtype, 0.5, 2.0, 2))),
            Sample((x, target, _uniform((3,), dtype, 0.5, 2.0, 3)), {"full": True, "reduction": "none"}),
            Sample((x, target, _uniform((3, 4), dtype, 0.5, 2.0, 4)), {"reduction": "sum"})]


def triplet_samples(dtype):
    anchor, positive, negative = (_uniform((3, 4), dtype, -2.0, 2.0, seed) for seed in range(3))
    return [Sample((anchor, positive, negative)),
            Sample((anchor, positive, negative), {"swap": True, "margin": 2.0, "reduction": "none"}),
            Sample((anchor, positive, negative), {"p": 1, "margin": 3.0, "reduction": "sum"})]


def multi_margin_samples(dtype):
    scores = _uniform((4, 3), dtype, -2.0, 2.0, 0)
    # MultiMarginLoss takes Int64 class indices only
    return [Sample((scores, _classes((4,), 3, 1).astype(np.int64))),
            Sample((scores, _classes((4,), 3, 2).astype(np.int64), _uniform((3,), dtype, 0.5, 2.0, 3)),
                   {"p": 2, "margin": 0.5, "reduction": "none"}),
            Sample((scores[0], np.asarray(2, np.int64)), {"reduction": "sum"})]


def multilabel_margin_samples(dtype):
    target = np.array([[2, 0, -1, 1], [1, -1, 0, 0], [3, 2, 1, 0]], np.int32)
    return [Sample((_uniform((3, 4), dtype, -2.0, 2.0, 0), target)),
            Sample((_uniform((3, 4), dtype, -2.0, 2.0, 1), target), {"reduction": "none"}),
            Sample((_uniform((4,), dtype, -2.0, 2.0, 2), target[0]), {"reduction": "sum"})]


# --- references ------------------------------------------------------------------------------------
def _class_loss(log_probs, target, weight, ignore_index, reduction, label_smoothing):
    if log_probs.ndim == 1:
        log_probs, target = log_probs[None], target[None]
    classes = log_probs.shape[1]
    class_weight = np.ones(classes) if weight is None else weight
    last = np.moveaxis(log_probs, 1, -1)  # (N, ..., C)
    valid = target != ignore_index
    safe = np.where(valid, target, 0)
    picked = -np.take_along_axis(last, safe[..., None], -1)[..., 0]
    target_weight = np.where(valid, class_weight[safe], 0.0)
    loss = picked * target_weight
    if label_smoothing > 0:
        smooth = np.where(valid, -np.sum(last * class_weight, -1), 0.0)
        loss = (1 - label_smoothing) * loss + label_smoothing / classes * smooth
    return reduced(loss, reduction, np.sum(target_weight))


def _log_softmax(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    axis = 1 if input.ndim > 1 else 0
    log_probs = _log_softmax(input, axis)
    if np.asarray(target).dtype.kind in "iu":
        return _class_loss(log_probs, target, weight, ignore_index, reduction, label_smoothing)
    classes = input.shape[axis]
    labels = target * (1 - label_smoothing) + label_smoothing / classes
    class_weight = np.ones(classes) if weight is None else weight
    loss = -np.sum(log_probs * labels * class_weight.reshape((-1,) + (1,) * (input.ndim - 1 - axis)), axis)
    return np.sum(loss) / (input.size // classes) if reduction == "mean" else reduced(loss, reduction)


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    return _class_loss(inputs, target, weight, ignore_index, reduction, label_smoothing)


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    d = np.abs(input - target)
    return reduced(np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):
    d = np.abs(input - target)
    return reduced(np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta)), reduction)


def kl_div(logits, labels, reduction="mean"):
    loss = np.where(labels > 0, labels * (np.log(np.where(labels > 0, labels, 1.0)) - logits), 0.0)
    if reduction == "batchmean":
        return np.sum(loss) / logits.shape[0]
    return reduced(loss, reduction)


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    loss = -(labels * np.log(np.maximum(logits, 1e-12)) + (1 - labels) * np.log(np.maximum(1 - logits, 1e-12)))
    return reduced(loss if weight is None else loss * weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction="mean"):
    positive = 1.0 if pos_weight is None else pos_weight
    loss = -(positive * target * _log_sigmoid(input) + (1 - target) * _log_sigmoid(-input))
    return reduced(loss if weight is None else loss * weight, reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    return reduced(np.maximum(0.0, -target * (input1 - input2) + margin), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    cosine = np.sum(input1 * input2, -1) / np.sqrt(np.sum(input1 ** 2, -1) * np.sum(input2 ** 2, -1))
    return reduced(np.where(target > 0, 1.0 - cosine, np.maximum(0.0, cosine - margin)), reduction)


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    return reduced(np.where(targets > 0, inputs, np.maximum(0.0, margin - inputs)), reduction)


def gaussian_nll_loss(x, target, var, full=False, eps=1e-06, reduction="mean"):
    var = np.maximum(var, eps)
    var = var[..., None] if var.ndim == x.ndim - 1 else var
    loss = 0.5 * (np.log(var) + (x - target) ** 2 / var) + (0.5 * np.log(2 * np.pi) if full else 0.0)
    return reduced(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction="mean"):
    def distance(u, v):
        return np.sum(np.abs(u - v + eps) ** p, -1) ** (1.0 / p)

    far = distance(anchor, negative)
    if swap:
        far = np.minimum(far, distance(positive, negative))
    return reduced(np.maximum(distance(anchor, positive) - far + margin, 0.0), reduction)


def multi_margin_loss(input, target, weight=None, p=1, margin=1, reduction="mean"):
    scores, labels = np.atleast_2d(input), np.atleast_1d(target)
    rows = []
    for row, label in zip(scores, labels):
        others = [max(0.0, margin - row[label] + row[j]) ** p for j in range(len(row)) if j != label]
        rows.append(sum(others) * (1.0 if weight is None else weight[label]) / len(row))
    loss = np.array(rows)
    return reduced(loss if np.ndim(input) == 2 else loss[0], reduction)


def multilabel_margin_loss(input, target, reduction="mean"):
    scores, labels = np.atleast_2d(input), np.atleast_2d(target)
    rows = []
    for row, label in zip(scores, labels):
        chosen = []
        for value in label:
            if value < 0:
                break
            chosen.append(value)
        others = [i for i in range(len(row)) if i not in chosen]
        rows.append(sum(max(0.0, 1 - (row[j] - row[i])) for j in chosen for i in others) / len(row))
    loss = np.array(rows)
    return reduced(loss if np.ndim(input) == 2 else loss[0], reduction)


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    terms = target * _log_sigmoid(input) + (1 - target) * _log_sigmoid(-input)
    return reduced(-np.mean(terms if weight is None else terms * weight, -1), reduction)
