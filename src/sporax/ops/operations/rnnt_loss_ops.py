"""``RNNTLoss``: the RNN-Transducer loss and its gradient with respect to the logits.

Algorithm: with ``lp = log_softmax(acts)`` over the vocabulary, the forward variable over the (T, U+1) lattice is
``alpha[t, u] = logaddexp(alpha[t-1, u] + lp[t-1, u, blank], alpha[t, u-1] + lp[t, u-1, label[u-1]])`` and the
cost of a sample with input length T and label length U is ``-(alpha[T-1, U] + lp[T-1, U, blank])``.
Both recursions run as ``lax.scan`` (rows over t, the u recursion inside a row); the gradient is JAX's.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> acts = Tensor(np.zeros((1, 2, 2, 3), np.float32))
    >>> costs, grads = ops.RNNTLoss()(acts, Tensor(np.array([[1]], np.int32)), Tensor(np.array([2], np.int32)), Tensor(np.array([1], np.int32)))
    >>> round(float(costs.asnumpy()[0]), 4)
    2.6027
"""
import jax
import jax.numpy as jnp

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.primitive import Primitive, prim_attr_register


def _sample_cost(log_probs, labels, frames, label_count, blank):
    """The transducer cost of one sample: log_probs (T, U+1, V), labels (U,)."""
    steps, positions, _ = log_probs.shape
    blank_lp = log_probs[..., blank]                                            # (T, U+1)
    emit_lp = jnp.take_along_axis(log_probs[:, :-1, :], labels[None, :, None], axis=2)[..., 0]  # (T, U)

    def row(previous, t):
        from_above = jnp.where(t > 0, previous + blank_lp[t - 1], jnp.where(jnp.arange(positions) == 0, 0.0, -jnp.inf))

        def along(left, u):
            value = jnp.where(u == 0, from_above[0], jnp.logaddexp(from_above[u], left + emit_lp[t, u - 1]))
            return value, value
        _, current = jax.lax.scan(along, -jnp.inf, jnp.arange(positions))
        return current, current

    _, alpha = jax.lax.scan(row, jnp.full((positions,), -jnp.inf), jnp.arange(steps))
    return -(alpha[frames - 1, label_count] + blank_lp[frames - 1, label_count])


class RNNTLoss(Primitive):
    """``(costs, grads)``: the RNN-Transducer loss per sample and its gradient with respect to ``acts``.

    Args:
        blank_label (int): the blank symbol. Default: 0.

    Inputs:
        - **acts** (Tensor) - (B, T, U+1, V) logits. **labels** (Tensor[int32]) - (B, U).
        - **input_lengths**, **label_lengths** (Tensor[int32]) - (B,).
    """

    @prim_attr_register
    def __init__(self, blank_label=0):
        if isinstance(blank_label, bool) or not isinstance(blank_label, int) or blank_label < 0:
            raise ValueError(f"For 'RNNTLoss', 'blank_label' must be a non-negative int, but got {blank_label!r}.")
        self.blank_label = blank_label

    def __call__(self, acts, labels, input_lengths, label_lengths):
        logits = array_of("RNNTLoss", "acts", acts)
        targets = array_of("RNNTLoss", "labels", labels)
        frames = array_of("RNNTLoss", "input_lengths", input_lengths)
        counts = array_of("RNNTLoss", "label_lengths", label_lengths)
        if logits.ndim != 4 or targets.shape != (logits.shape[0], logits.shape[2] - 1) \
                or frames.shape != (logits.shape[0],) or counts.shape != (logits.shape[0],):
            raise ValueError(f"For 'RNNTLoss', 'acts' must be (B, T, U+1, V), 'labels' (B, U) and the lengths (B,), "
                             f"but got {tuple(logits.shape)}, {tuple(targets.shape)}, {tuple(frames.shape)} and "
                             f"{tuple(counts.shape)}.")
        if not 0 <= self.blank_label < logits.shape[-1]:
            raise ValueError(f"For 'RNNTLoss', 'blank_label' must be below the vocabulary size {logits.shape[-1]}.")

        def total(values):
            log_probs = jax.nn.log_softmax(values.astype(jnp.float32), axis=-1)
            costs = jax.vmap(_sample_cost, in_axes=(0, 0, 0, 0, None))(log_probs, targets, frames, counts,
                                                                      self.blank_label)
            return jnp.sum(costs), costs

        gradient, costs = jax.grad(total, has_aux=True)(logits)
        return wrap(costs.astype(logits.dtype)), wrap(gradient.astype(logits.dtype))
