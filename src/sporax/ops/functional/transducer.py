"""The RNN-Transducer loss (MindSpore's ``RNNTLoss`` Primitive), an op-table entry returning the costs and their
gradient with respect to the logits.

Algorithm: with ``lp = log_softmax(acts)`` over the vocabulary, the forward variable over the (T, U+1) lattice is
``alpha[t, u] = logaddexp(alpha[t-1, u] + lp[t-1, u, blank], alpha[t, u-1] + lp[t, u-1, label[u-1]])`` and the
cost of a sample with input length T and label length U is ``-(alpha[T-1, U] + lp[T-1, U, blank])``.
Both recursions run as ``lax.scan`` (rows over t, the u recursion inside a row); the gradient is JAX's. The entry
is Primitive-only (MindSpore has no functional name); its class is ``sporax.ops.operations.rnnt_loss_ops.RNNTLoss``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.transducer import rnnt_loss
    >>> costs, grads = rnnt_loss(Tensor(np.zeros((1, 2, 2, 3), np.float32)), Tensor(np.array([[1]], np.int32)),
    ...                          Tensor(np.array([2], np.int32)), Tensor(np.array([1], np.int32)))
    >>> round(float(costs.asnumpy()[0]), 4)
    2.6027
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.face_inputs import accepting
from sporax.ops.op_table import FLOAT, Sample, op


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


def _samples(dtype):
    acts = np.random.default_rng(0).uniform(-1, 1, (2, 2, 3, 3)).astype(dtype)
    labels = np.array([[1, 2], [1, 0]], np.int32)
    return [Sample((acts, labels, np.array([2, 1], np.int32), np.array([2, 1], np.int32)), {"blank_label": 0}),
            Sample((acts, labels, np.array([1, 2], np.int32), np.array([1, 2], np.int32)), {"blank_label": 2})]


def _reference_costs(acts, labels, input_lengths, label_lengths, blank_label):
    costs = []
    for logits, label, frames, count in zip(np.asarray(acts, np.float64), labels, input_lengths, label_lengths):
        shifted = logits - logits.max(axis=-1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
        alpha = np.full((int(frames), int(count) + 1), -np.inf)
        for t in range(int(frames)):
            for u in range(int(count) + 1):
                if t == 0 and u == 0:
                    alpha[t, u] = 0.0
                    continue
                above = alpha[t - 1, u] + log_probs[t - 1, u, blank_label] if t else -np.inf
                left = alpha[t, u - 1] + log_probs[t, u - 1, label[u - 1]] if u else -np.inf
                alpha[t, u] = np.logaddexp(above, left)
        costs.append(-(alpha[-1, -1] + log_probs[int(frames) - 1, int(count), blank_label]))
    return np.array(costs)


def _reference(acts, labels, input_lengths, label_lengths, blank_label=0):
    """The costs by the lattice recursion in float64, the gradient by central differences of their sum."""
    acts = np.asarray(acts, np.float64)
    costs = _reference_costs(acts, labels, input_lengths, label_lengths, blank_label)
    gradient = np.zeros_like(acts)
    step = 1e-6
    for place in np.ndindex(acts.shape):
        shifted = acts.copy()
        shifted[place] += step
        above = _reference_costs(shifted, labels, input_lengths, label_lengths, blank_label).sum()
        shifted[place] -= 2 * step
        below = _reference_costs(shifted, labels, input_lengths, label_lengths, blank_label).sum()
        gradient[place] = (above - below) / (2 * step)
    return costs, gradient


def _int32_only(argument):
    """RNNTLoss's labels and lengths are Int32 alone (MindSpore 2.10's check, its argument names)."""
    return accepting(("Int32",), f"For 'RNNTLoss', the element of '{argument}' must be Tensor[Int32], but got "
                                 "Tensor[{got}].", keep=True)


@op(inputs=("acts", "labels", "input_lengths", "label_lengths"), dtypes=FLOAT,
    input_dtypes={"labels": _int32_only("labels"), "input_lengths": _int32_only("input_length"),
                  "label_lengths": _int32_only("label_length")}, grad_check=False,
    samples=_samples, reference=_reference)
def rnnt_loss(acts, labels, input_lengths, label_lengths, blank_label=0):
    """``RNNTLoss``: ``(costs, grads)``, the RNN-Transducer cost of each sample of ``acts`` (B, T, U+1, V) against
    ``labels`` (B, U) and its gradient with respect to ``acts``, both of ``acts``' dtype."""
    if acts.ndim != 4 or labels.shape != (acts.shape[0], acts.shape[2] - 1) \
            or input_lengths.shape != (acts.shape[0],) or label_lengths.shape != (acts.shape[0],):
        raise ValueError(f"For 'RNNTLoss', 'acts' must be (B, T, U+1, V), 'labels' (B, U) and the lengths (B,), "
                         f"but got {tuple(acts.shape)}, {tuple(labels.shape)}, {tuple(input_lengths.shape)} and "
                         f"{tuple(label_lengths.shape)}.")
    if not 0 <= blank_label < acts.shape[-1]:
        raise ValueError(f"For 'RNNTLoss', 'blank_label' must be below the vocabulary size {acts.shape[-1]}.")

    def total(values):
        log_probs = jax.nn.log_softmax(values.astype(jnp.float32), axis=-1)
        costs = jax.vmap(_sample_cost, in_axes=(0, 0, 0, 0, None))(log_probs, labels, input_lengths, label_lengths,
                                                                  blank_label)
        return jnp.sum(costs), costs

    gradient, costs = jax.grad(total, has_aux=True)(acts)
    return costs.astype(acts.dtype), gradient.astype(acts.dtype)
