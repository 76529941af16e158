"""Connectionist temporal classification loss (``ops.ctc_loss``, ``nn.CTCLoss``).

The forward algorithm in log space over the target with blanks interleaved (``2 * S + 1`` states):
``alpha[t, s] = logsumexp(alpha[t-1, s], alpha[t-1, s-1], alpha[t-1, s-2] when label s is not blank and
differs from label s-2) + log_probs[t, label s]``, started from the first blank and the first label, run by
``lax.scan`` over time with each sample frozen after its ``input_length``. The loss of a sample is
``-logsumexp`` of its last blank and last label state. ``log_probs`` are used as given (no normalisation).
A label outside ``[0, C)`` reads what MindSpore's CPU kernel reads: the (T, N, C) buffer at the flat offset
``(t * N + n) * C + label`` (the next rows' entries), and zero past the end of the buffer.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of
from sporax.ops.functional import ctc_samples
from sporax.ops.op_table import ANY, FLOAT, Sample, op

_REDUCTIONS = ("none", "mean", "sum")


def _emissions(log_probs, labels):
    """(T, N, 2 * S + 1) log-probabilities of each state's label, read at flat buffer offsets.

    For labels in ``[0, C)`` this is a plain gather; a label past the class axis reads on into the
    flat (T, N, C) buffer as MindSpore's kernel does, and an offset outside the buffer reads zero.
    """
    steps, batch, classes = log_probs.shape
    rows = (jnp.arange(steps)[:, None] * batch + jnp.arange(batch)[None, :]) * classes
    offsets = rows[:, :, None] + labels[None].astype(rows.dtype)
    flat = log_probs.reshape(-1)
    inside = (offsets >= 0) & (offsets < flat.shape[0])
    return jnp.where(inside, flat[jnp.clip(offsets, 0, flat.shape[0] - 1)], jnp.zeros((), log_probs.dtype))


def _log_add(a, b):
    """``log(exp(a) + exp(b))`` whose gradient stays finite where both are -inf (unreachable states)."""
    top = lax.stop_gradient(jnp.maximum(a, b))
    dead = top == -jnp.inf
    top = jnp.where(dead, 0.0, top)
    total = jnp.exp(jnp.where(dead, 0.0, a) - top) + jnp.exp(jnp.where(dead, 0.0, b) - top)
    return jnp.where(dead, -jnp.inf, top + jnp.log(total))


def _ctc_forward(log_probs, targets, input_lengths, target_lengths, blank, merge_repeated=True):
    """Per-sample negative log-likelihood (N,) and log_alpha (N, T, 2 * S + 1).

    ``merge_repeated=False`` (TensorFlow's ``ctc_merge_repeated``) counts every emission of a label as
    one output: a label state cannot repeat, and two equal labels need no blank between them.
    """
    steps, batch, _ = log_probs.shape
    states = 2 * targets.shape[1] + 1
    labels = jnp.full((batch, states), blank, targets.dtype).at[:, 1::2].set(targets)
    previous_label = jnp.concatenate([jnp.full((batch, 2), blank, labels.dtype), labels[:, :-2]], axis=1)
    can_skip = (labels != blank) & ((labels != previous_label) | (not merge_repeated))
    can_stay = (labels == blank) | merge_repeated
    negative = jnp.asarray(-jnp.inf, log_probs.dtype)
    emitted = _emissions(log_probs, labels)
    start = jnp.full((batch, states), negative).at[:, 0].set(emitted[0, :, 0])
    start = start.at[:, 1].set(jnp.where(target_lengths > 0, emitted[0, :, 1], negative))

    def step(alpha, inputs):
        time, emission = inputs
        shifted1 = jnp.concatenate([jnp.full((batch, 1), negative), alpha[:, :-1]], axis=1)
        shifted2 = jnp.concatenate([jnp.full((batch, 2), negative), alpha[:, :-2]], axis=1)
        shifted2 = jnp.where(can_skip, shifted2, negative)
        stay = jnp.where(can_stay, alpha, negative)
        new = _log_add(_log_add(stay, shifted1), shifted2) + emission
        alpha = jnp.where((time < input_lengths)[:, None], new, alpha)
        return alpha, alpha

    final, history = lax.scan(step, start, (jnp.arange(1, steps), emitted[1:]))
    log_alpha = jnp.concatenate([start[None], history]).transpose(1, 0, 2)
    # As MindSpore's: no probability for the padding states past a sample's target or the time steps
    # past its input (the scan above carries the last alpha through them for the loss).
    valid_state = jnp.arange(states)[None, :] < (2 * target_lengths + 1)[:, None]
    valid_time = jnp.arange(steps)[None, :] < input_lengths[:, None]
    log_alpha = jnp.where(valid_time[:, :, None] & valid_state[:, None, :], log_alpha, negative)
    last = 2 * target_lengths
    end_blank = jnp.take_along_axis(final, last[:, None], axis=1)[:, 0]
    end_label = jnp.take_along_axis(final, jnp.maximum(last - 1, 0)[:, None], axis=1)[:, 0]
    end_label = jnp.where(target_lengths > 0, end_label, negative)
    return -_log_add(end_blank, end_label), log_alpha


def _softmax_gradient_term(log_probs, input_lengths):
    """Per sample (N,), zero in value, whose gradient w.r.t. ``log_probs`` is ``exp(log_probs)`` over the sample's
    time steps: MindSpore's CTCLossV2 gradient (PyTorch's too) is ``exp(log_probs) - posterior``, the gradient
    w.r.t. the logits under a log_softmax, not the loss's own derivative (``-posterior``)."""
    probabilities = lax.stop_gradient(jnp.exp(log_probs))
    inside = (jnp.arange(log_probs.shape[0])[:, None] < input_lengths[None, :])[:, :, None]
    # the weight times an exact zero whose derivative is 1; an overflowed weight (inf * 0) adds nothing
    zero = probabilities * (log_probs - lax.stop_gradient(log_probs))
    return jnp.sum(jnp.where(inside & jnp.isfinite(probabilities), zero, jnp.zeros_like(zero)), axis=(0, 2))


def _lengths(op_name, arg_name, value):
    """Int32 lengths from a Tensor or a tuple/list of ints; float lengths raise MindSpore's TypeError."""
    if isinstance(value, (tuple, list)):
        host = np.asarray(value)
        array = jnp.asarray(host.astype(np.float32) if host.dtype.kind == "f" else host)  # Python floats: Float32
    else:
        array = array_of(op_name, arg_name, value)
    if array.dtype.kind not in "iu":
        raise TypeError(f"For primitive[CTCLossV2], the input argument[{arg_name}] must be a type of {{Int32, Int64}}, "
                        f"but got {mstype.from_numpy_dtype(array.dtype)}.")
    return array.astype(jnp.int32)


@op(inputs=("log_probs", "targets", "input_lengths", "target_lengths"),
    input_dtypes={"targets": ANY, "input_lengths": _lengths, "target_lengths": _lengths},
    samples=ctc_samples.ctc_loss_samples,
    reference=ctc_samples.numpy_ctc_loss, grad_check=False)
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """CTC loss of (T, N, C) ``log_probs`` against (N, S) padded ``targets``; returns ``(loss, log_alpha)``.

    ``reduction='mean'`` divides each sample's loss by its target length, then averages over the batch.
    ``zero_infinity`` is accepted and, as measured on MindSpore 2.10 (CPU), leaves infinite losses
    (impossible alignments) infinite.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.ops import functional
        >>> log_probs = Tensor(np.log(np.full((3, 1, 2), 0.5, np.float32)))
        >>> loss, _ = functional.ctc_loss(log_probs, Tensor([[1]]), Tensor([3]), Tensor([1]), reduction="none")
        >>> round(float(loss[0]), 4)   # 6 of the 8 equally likely paths give [1]: -log(6/8)
        0.2877
    """
    probs, labels, input_len, target_len = log_probs, targets, input_lengths, target_lengths
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For 'ctc_loss', 'reduction' must be one of {_REDUCTIONS}, but got {reduction!r}.")
    if probs.ndim != 3 or labels.ndim != 2 or labels.shape[0] != probs.shape[1]:
        raise ValueError(f"For 'ctc_loss', expected log_probs (T, N, C) and targets (N, S), but got "
                         f"{probs.shape} and {labels.shape}.")
    if not isinstance(blank, int) or not 0 <= blank < probs.shape[2]:
        raise ValueError(f"For 'ctc_loss', 'blank' must be an int in [0, {probs.shape[2]}), but got {blank!r}.")
    loss, log_alpha = _ctc_forward(probs, labels.astype(jnp.int32), jnp.broadcast_to(input_len, probs.shape[1:2]),
                                   jnp.broadcast_to(target_len, probs.shape[1:2]), blank)
    if not isinstance(zero_infinity, bool):
        raise TypeError(f"For 'ctc_loss', 'zero_infinity' must be a bool, but got {type(zero_infinity).__name__}.")
    loss = loss + _softmax_gradient_term(probs, jnp.broadcast_to(input_len, probs.shape[1:2]))
    # MindSpore's CTCLossV2 bprop differentiates the loss only: log_alpha is a result, not a path for gradients
    log_alpha = lax.stop_gradient(log_alpha)
    if reduction == "mean":
        loss = jnp.mean(loss / jnp.maximum(target_len, 1).astype(loss.dtype))
    elif reduction == "sum":
        loss = jnp.sum(loss)
    return loss, log_alpha


# --- ``CTCLoss``: TensorFlow-style CTC over logits with sparse labels --------------------------------------
def _dense_labels(indices, values, batch, blank, collapse_repeated):
    """(N, L) blank-padded labels and (N,) lengths from sparse row-major ``indices``/``values``.

    As MindSpore's kernel reads them, row ``b`` holds the next ``count(indices[:, 0] == b)`` values in row order
    (the values' own row ids sorted): the same as ``indices[:, 0]`` for row-major indices, its own rows otherwise.
    """
    rows = jnp.sort(indices[:, 0].astype(jnp.int32))
    values = values.astype(jnp.int32)
    # Values of the blank class or above are padding: MindSpore's kernel drops them (a fixed-width label
    # row padded with the blank, as CRNN's data set writes it, scores as its real labels only). It reads the
    # values as unsigned, so a negative padding value (-1) is past the blank too.
    kept = (values >= 0) & (values < blank)
    if collapse_repeated:
        same_row = jnp.concatenate([jnp.zeros((1,), bool), rows[1:] == rows[:-1]])
        kept = kept & ~(same_row & jnp.concatenate([jnp.zeros((1,), bool), values[1:] == values[:-1]]))
    # position within the row among the kept labels
    running = jnp.cumsum(kept.astype(jnp.int32))
    row_start = jax.ops.segment_min(jnp.where(kept, running, running.shape[0] + 1), rows, batch)
    columns = running - row_start[rows]
    rows = jnp.where(kept, rows, batch)  # dropped labels scatter out of bounds
    size = max(int(values.shape[0]), 1)
    labels = jnp.full((batch, size), blank, jnp.int32).at[rows, columns].set(values, mode="drop")
    lengths = jax.ops.segment_sum(kept.astype(jnp.int32), rows, batch)
    return labels, lengths


def _check_label_padding(x, labels_indices, labels_values, sequence_length, **settings):
    """MindSpore's CPU kernel rejects a real label after padding (a value outside ``[0, num_classes - 1)``) in
    its row: the padding must end the row. Row ``b`` is the next ``count(labels_indices[:, 0] == b)`` values, in
    row order, as the kernel reads them (see ``_dense_labels``). Concrete labels are checked here, with one
    vectorised pass (a data set's label batches are large); a compiled caller's are not."""
    if any(isinstance(array, jax.core.Tracer) for array in (x, labels_indices, labels_values)):
        return
    values = np.asarray(labels_values).reshape(-1)
    if values.size == 0:
        return
    blank = x.shape[-1] - 1
    rows = np.sort(np.asarray(labels_indices)[:, 0])
    padding = (values < 0) | (values >= blank)
    first_of_row = np.concatenate([[True], rows[1:] != rows[:-1]])
    row_start = np.maximum.accumulate(np.where(first_of_row, np.arange(values.size), 0))
    padding_before = np.cumsum(padding) - padding  # padding values before each one, over all rows
    late = ~padding & (padding_before > padding_before[row_start])
    if late.any():
        place = int(np.argmax(late))
        position = place - row_start[place]
        raise RuntimeError(f"For 'CTCLoss', the value of labels_values[{position}] must be in the range of "
                           f"[0, num_classes), but got {values[place]}. A label row's padding (values outside "
                           f"[0, {blank}), the blank {blank} included) must come after all its real labels.")


def _sparse_ctc_samples(dtype):
    x = np.random.default_rng(0).uniform(-1, 1, (4, 2, 3)).astype(dtype)
    indices = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], np.int64)
    values = np.array([1, 1, 0, 1, 1], np.int32)
    # sample 2: the second row's collapsed labels [0, 1] do not fit its 1 step, its loss and gradient are 0
    return [Sample((x, indices, values, np.array([3, 4], np.int32))),
            Sample((x, indices, values, np.array([4, 1], np.int32)),
                   {"preprocess_collapse_repeated": True, "ignore_longer_outputs_than_inputs": True})]


def _sparse_ctc_losses(x, indices, values, sequence_length, collapse, ignore_longer):
    steps, batch, classes = x.shape
    rows = [[] for _ in range(batch)]
    for row, value in zip(sorted(np.asarray(indices)[:, 0].tolist()), np.asarray(values).tolist()):
        if 0 <= value < classes - 1 and not (collapse and rows[row] and rows[row][-1] == value):
            rows[row].append(value)
    lengths = np.array([len(row) for row in rows])
    targets = np.array([row + [0] * (max(lengths.max(), 1) - len(row)) for row in rows])
    shifted = x - x.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    losses, _ = ctc_samples.numpy_ctc_loss(log_probs, targets, np.asarray(sequence_length), lengths,
                                           blank=classes - 1, reduction="none")
    if ignore_longer:
        losses = np.where(lengths > np.asarray(sequence_length), 0.0, losses)
    return losses


def _sparse_ctc_reference(x, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated=False,
                          ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False):
    """The losses by the NumPy forward recursion in float64, the gradient by central differences of their sum."""
    x = np.asarray(x, np.float64)
    settings = (labels_indices, labels_values, sequence_length, preprocess_collapse_repeated,
                ignore_longer_outputs_than_inputs)
    gradient = np.zeros_like(x)
    for place in np.ndindex(x.shape):
        shifted = x.copy()
        shifted[place] += 1e-6
        above = _sparse_ctc_losses(shifted, *settings).sum()
        shifted[place] -= 2e-6
        gradient[place] = (above - _sparse_ctc_losses(shifted, *settings).sum()) / 2e-6
    return _sparse_ctc_losses(x, *settings), gradient


@op(inputs=("x", "labels_indices", "labels_values", "sequence_length"), dtypes=FLOAT,
    input_dtypes={"labels_indices": ANY, "labels_values": ANY, "sequence_length": ANY}, grad_check=False,
    value_check=_check_label_padding, samples=_sparse_ctc_samples, reference=_sparse_ctc_reference)
def ctc_loss_and_gradient(x, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated=False,
                          ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False):
    """``CTCLoss``: ``(loss, gradient)``, the CTC loss of logits ``x`` (max_time, batch, num_classes; blank = the
    last class) against sparse row-major labels (``labels_indices`` (M, 2) and ``labels_values`` (M,)), and its
    gradient with respect to ``x``, both of ``x``'s dtype."""
    for name, flag in (("preprocess_collapse_repeated", preprocess_collapse_repeated),
                       ("ctc_merge_repeated", ctc_merge_repeated),
                       ("ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs)):
        if not isinstance(flag, bool):
            raise TypeError(f"For 'CTCLoss', '{name}' must be a bool, but got {type(flag).__name__}.")
    logits, indices, values = x, labels_indices, labels_values
    lengths = sequence_length.astype(jnp.int32)
    if logits.ndim != 3:
        raise ValueError(f"For 'CTCLoss', 'x' must be a 3-D float Tensor (max_time, batch, num_classes), "
                         f"but got shape {logits.shape} and dtype {logits.dtype}.")
    if indices.ndim != 2 or indices.shape[1] != 2 or values.shape != indices.shape[:1]:
        raise ValueError(f"For 'CTCLoss', 'labels_indices' must be (M, 2) and 'labels_values' (M,), but got "
                         f"{indices.shape} and {values.shape}.")
    if lengths.shape != logits.shape[1:2]:
        raise ValueError(f"For 'CTCLoss', 'sequence_length' must have shape ({logits.shape[1]},), but got "
                         f"{lengths.shape}.")
    steps, batch, classes = logits.shape
    blank = classes - 1
    labels, label_lengths = _dense_labels(indices, values, batch, blank, preprocess_collapse_repeated)

    def losses(inputs):
        log_probs = jax.nn.log_softmax(inputs.astype(jnp.float32), axis=-1)
        loss, _ = _ctc_forward(log_probs, labels, lengths, label_lengths, blank, ctc_merge_repeated)
        return loss

    loss, pullback = jax.vjp(losses, logits)
    if ignore_longer_outputs_than_inputs:
        too_long = label_lengths > lengths
        loss = jnp.where(too_long, 0.0, loss)
    (gradient,) = pullback(jnp.ones_like(loss))
    if ignore_longer_outputs_than_inputs:
        gradient = jnp.where(too_long[None, :, None], 0.0, gradient)
    return loss.astype(logits.dtype), gradient.astype(logits.dtype)
