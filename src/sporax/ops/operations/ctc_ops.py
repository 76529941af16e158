"""``ops.CTCLoss``: TensorFlow-style CTC over logits with sparse labels, returning the loss and its gradient.

The labels arrive as a sparse (batch, position) -> class list in row-major order; they are scattered
into a (N, L) blank-padded matrix (L = the number of label values, a static bound), optionally with
consecutive repeats collapsed first, and scored by the shared CTC forward recursion on
``log_softmax(x)`` with the last class as the blank. The gradient output is ``d loss / d x`` (softmax
minus the label posterior), taken by JAX's autodiff through that recursion.
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional.ctc import _ctc_forward
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.ops.functional.ctc import ctc_loss


def _dense_labels(indices, values, batch, blank, collapse_repeated):
    """(N, L) blank-padded labels and (N,) lengths from sparse row-major ``indices``/``values``."""
    rows, columns = indices[:, 0].astype(jnp.int32), indices[:, 1].astype(jnp.int32)
    values = values.astype(jnp.int32)
    if collapse_repeated:
        same_row = jnp.concatenate([jnp.zeros((1,), bool), rows[1:] == rows[:-1]])
        repeated = same_row & jnp.concatenate([jnp.zeros((1,), bool), values[1:] == values[:-1]])
        kept = ~repeated
        # position within the row among the kept labels
        running = jnp.cumsum(kept.astype(jnp.int32))
        row_start = jax.ops.segment_min(jnp.where(kept, running, running.shape[0] + 1), rows, batch)
        columns = running - row_start[rows]
        rows = jnp.where(kept, rows, batch)  # dropped labels scatter out of bounds
    else:
        kept = jnp.ones(values.shape, bool)
    size = max(int(values.shape[0]), 1)
    labels = jnp.full((batch, size), blank, jnp.int32).at[rows, columns].set(values, mode="drop")
    lengths = jax.ops.segment_sum(kept.astype(jnp.int32), rows, batch)
    return labels, lengths


class CTCLoss(Primitive):
    """Connectionist temporal classification loss of logits against sparse labels (blank = last class).

    Args:
        preprocess_collapse_repeated (bool): merge consecutive equal labels before scoring. Default: False.
        ctc_merge_repeated (bool): consecutive equal emissions merge into one label (standard CTC); when
            False each emission counts. Default: True.
        ignore_longer_outputs_than_inputs (bool): give zero loss and gradient to samples whose labels
            cannot fit their sequence length. Default: False.

    Inputs:
        - **x** (Tensor) - (max_time, batch, num_classes) float logits.
        - **labels_indices** (Tensor) - (M, 2) Int64 (batch, position) pairs, row-major.
        - **labels_values** (Tensor) - (M,) Int32 classes in [0, num_classes - 1).
        - **sequence_length** (Tensor) - (batch,) Int32 time steps of each sample.

    Outputs:
        ``(loss, gradient)``: the (batch,) negative log-likelihoods and their gradient w.r.t. ``x``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x = Tensor(np.zeros((2, 1, 3), np.float32))
        >>> loss, grad = ops.CTCLoss()(x, Tensor(np.array([[0, 0]], np.int64)), Tensor(np.array([1], np.int32)),
        ...                            Tensor(np.array([2], np.int32)))
        >>> round(float(loss[0]), 4)   # 3 of the 9 equally likely paths give [1]
        1.0986
    """

    @prim_attr_register
    def __init__(self, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
        for name, flag in (("preprocess_collapse_repeated", preprocess_collapse_repeated),
                           ("ctc_merge_repeated", ctc_merge_repeated),
                           ("ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs)):
            if not isinstance(flag, bool):
                raise TypeError(f"For 'CTCLoss', '{name}' must be a bool, but got {type(flag).__name__}.")
        self.preprocess_collapse_repeated = preprocess_collapse_repeated
        self.ctc_merge_repeated = ctc_merge_repeated
        self.ignore_longer_outputs_than_inputs = ignore_longer_outputs_than_inputs

    def __call__(self, x, labels_indices, labels_values, sequence_length):
        logits = array_of("CTCLoss", "x", x)
        indices = array_of("CTCLoss", "labels_indices", labels_indices)
        values = array_of("CTCLoss", "labels_values", labels_values)
        lengths = array_of("CTCLoss", "sequence_length", sequence_length).astype(jnp.int32)
        if logits.ndim != 3 or logits.dtype.kind != "f":
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
        labels, label_lengths = _dense_labels(indices, values, batch, blank, self.preprocess_collapse_repeated)
        merge = self.ctc_merge_repeated

        def losses(inputs):
            log_probs = jax.nn.log_softmax(inputs.astype(jnp.float32), axis=-1)
            loss, _ = _ctc_forward(log_probs, labels, lengths, label_lengths, blank, merge)
            return loss

        loss, pullback = jax.vjp(losses, logits)
        if self.ignore_longer_outputs_than_inputs:
            too_long = label_lengths > lengths
            loss = jnp.where(too_long, 0.0, loss)
        (gradient,) = pullback(jnp.ones_like(loss))
        if self.ignore_longer_outputs_than_inputs:
            gradient = jnp.where(too_long[None, :, None], 0.0, gradient)
        return wrap(loss.astype(logits.dtype)), wrap(gradient.astype(logits.dtype))


class CTCLossV2(Primitive):
    """CTC loss of (T, N, C) log-probabilities against (N, S) padded targets: ``(neg_log_likelihood, log_alpha)``.

    The same computation as ``ops.ctc_loss``, as a Primitive.

    Args:
        blank (int): the blank class. Default: 0.
        reduction (str): 'none', 'mean' (each loss over its target length, then the batch mean) or 'sum'.
            Default: 'none'.
        zero_infinity (bool): accepted as MindSpore's CPU kernel does. Default: False.

    Inputs:
        - **log_probs** (Tensor) - (T, N, C) float log-probabilities.
        - **targets** (Tensor) - (N, S) int labels.
        - **input_lengths**, **target_lengths** (Tensor) - (N,) int lengths.

    Outputs:
        ``(neg_log_likelihood, log_alpha)``: the reduced loss and the (N, T, 2S+1) forward variables.
    """

    @prim_attr_register
    def __init__(self, blank=0, reduction="none", zero_infinity=False):
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def __call__(self, log_probs, targets, input_lengths, target_lengths):
        return ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                        self.zero_infinity)
