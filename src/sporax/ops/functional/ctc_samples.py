"""Samples and the NumPy reference of the ``ctc_loss`` entry: the CTC forward variables written out state by state.

``alpha[t, s]`` is the log-probability of the prefixes of the blank-interleaved target ``l'`` (``2 * S + 1`` states,
``S`` the padded target length) that end in state ``s`` at time ``t``: from the same state, the one before, or two
before when ``l'[s]`` is a label that differs from ``l'[s - 2]``. After its input length a sample's variables stay
as they are; its loss is ``-log(alpha[2 L] + alpha[2 L - 1])`` at the end (``L`` its target length).

Example:
    >>> import numpy as np
    >>> from sporax.ops.functional.ctc_samples import numpy_ctc_loss
    >>> loss, _ = numpy_ctc_loss(np.log(np.full((3, 1, 2), 0.5)), np.array([[1]]), np.array([3]), np.array([1]),
    ...                          reduction="none")
    >>> round(float(loss[0]), 4)
    0.2877
"""
import numpy as np

from sporax.ops.op_table import Sample


def _log_sum(*terms):
    finite = [term for term in terms if term != -np.inf]
    if not finite:
        return -np.inf
    top = max(finite)
    return top + np.log(sum(np.exp(term - top) for term in finite))


def numpy_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    steps, batch, _ = log_probs.shape
    states = 2 * targets.shape[1] + 1
    losses, log_alpha = np.zeros(batch), np.full((batch, steps, states), -np.inf)
    for n in range(batch):
        labels = [blank if s % 2 == 0 else int(targets[n, s // 2]) for s in range(states)]
        length = int(np.reshape(target_lengths, -1)[n if np.size(target_lengths) > 1 else 0])
        steps_n = int(np.reshape(input_lengths, -1)[n if np.size(input_lengths) > 1 else 0])
        alpha = np.full(states, -np.inf)
        alpha[0] = log_probs[0, n, blank]
        if length > 0:
            alpha[1] = log_probs[0, n, labels[1]]
        log_alpha[n, 0] = alpha
        for t in range(1, steps):
            if t < steps_n:
                new = np.full(states, -np.inf)
                for s in range(states):
                    terms = [alpha[s]] + ([alpha[s - 1]] if s >= 1 else [])
                    if s >= 2 and labels[s] != blank and labels[s] != labels[s - 2]:
                        terms.append(alpha[s - 2])
                    new[s] = _log_sum(*terms) + log_probs[t, n, labels[s]]
                alpha = new
                log_alpha[n, t] = alpha
        # MindSpore's log_alpha holds no probability for the padding states past the target.
        log_alpha[n, :, 2 * length + 1:] = -np.inf
        losses[n] = -_log_sum(alpha[2 * length], alpha[2 * length - 1] if length > 0 else -np.inf)
    lengths = np.broadcast_to(np.reshape(target_lengths, -1), (batch,))
    if reduction == "mean":
        return np.mean(losses / np.maximum(lengths, 1)), log_alpha
    if reduction == "sum":
        return np.sum(losses), log_alpha
    return losses, log_alpha


def ctc_loss_samples(dtype):
    """Float32 only (MindSpore's CTC kernels take Float32/Float64): the forward variables of a long alignment sum
    many terms, more than a half-precision input's rounding allows to compare."""
    if dtype != "float32":
        return []
    logits = np.random.default_rng(0).standard_normal((5, 2, 4))
    log_probs = (logits - np.log(np.exp(logits).sum(-1, keepdims=True))).astype(np.float32)
    targets = np.array([[1, 2, 2], [3, 1, 0]], np.int32)
    return [Sample((log_probs, targets, np.array([5, 4], np.int32), np.array([3, 2], np.int32)), {"reduction": "none"}),
            Sample((log_probs, targets, np.array([5, 5], np.int32), np.array([2, 1], np.int32)), {"blank": 0})]
