"""Native Sparse Attention's compression of keys/values: ``ops.nsa_compress``, written from MindSpore 2.10's
documented semantics (MindSpore runs it on Ascend only).

Contract: ``input`` (T, N, D) holds segments whose ends are ``actual_seq_len`` (prefix sums, the last one T);
inside each segment, windows of ``compress_block_size`` tokens every ``compress_stride`` tokens (no window
crosses a segment's end) become one token each: the sum of the window's tokens weighted by ``weight``
(block, N), per head. The outputs of all segments follow one another in order: (T', N, D), ``input``'s dtype.
Ascend's size limits (multiples of 16, D <= 256) are its kernel's; any sizes compute here.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.arange(8, dtype=np.float32).reshape(8, 1, 1))
    >>> ops.nsa_compress(x, Tensor(np.ones((4, 1), np.float32)), 4, 2, actual_seq_len=(8,)).asnumpy().ravel().tolist()
    [6.0, 14.0, 22.0]
"""
import numbers

import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import FLOAT, Sample, op
from sporax.ops.samples import values


def _segments(total, actual_seq_len):
    if not isinstance(actual_seq_len, (tuple, list)) or not actual_seq_len or \
            not all(isinstance(end, numbers.Integral) and not isinstance(end, bool) for end in actual_seq_len):
        raise TypeError(f"For 'nsa_compress', 'actual_seq_len' must be a non-empty tuple or list of ints, but got "
                        f"{actual_seq_len!r}.")
    ends = [int(end) for end in actual_seq_len]
    if any(later < earlier for earlier, later in zip([0] + ends, ends)) or ends[-1] != total:
        raise ValueError(f"For 'nsa_compress', 'actual_seq_len' must be non-decreasing prefix sums ending at T="
                         f"{total}, but got {tuple(ends)}.")
    return list(zip([0] + ends[:-1], ends))


def _window_starts(total, actual_seq_len, block, stride):
    return [start + offset for start, end in _segments(total, actual_seq_len)
            for offset in range(0, max(end - start - block, -1) + 1, stride) if end - start >= block]


def _numpy_nsa_compress(input, weight, compress_block_size, compress_stride, *, actual_seq_len):
    starts = _window_starts(input.shape[0], actual_seq_len, compress_block_size, compress_stride)
    windows = [np.einsum("knd,kn->nd", np.asarray(input, np.float64)[start:start + compress_block_size],
                         np.asarray(weight, np.float64)) for start in starts]
    return np.stack(windows) if windows else np.zeros((0,) + input.shape[1:])


def _nsa_compress_samples(dtype):
    return [Sample((values((10, 2, 3), dtype), values((4, 2), dtype, seed=1)),
                   {"compress_block_size": 4, "compress_stride": 2, "actual_seq_len": (6, 6, 10)}),
            Sample((values((8, 1, 4), dtype, seed=2), values((2, 1), dtype, seed=3)),
                   {"compress_block_size": 2, "compress_stride": 2, "actual_seq_len": [8]})]


@op(inputs=("input", "weight"), samples=_nsa_compress_samples, reference=_numpy_nsa_compress)
def nsa_compress(input, weight, compress_block_size, compress_stride, *, actual_seq_len):
    """Compress each segment of ``input`` (T, N, D) by sliding windows of ``compress_block_size`` tokens every
    ``compress_stride`` tokens, each window the sum of its tokens weighted by ``weight`` (block, N) per head:
    (T', N, D), T' the windows that fit inside the segments ending at ``actual_seq_len``."""
    for name, value in (("compress_block_size", compress_block_size), ("compress_stride", compress_stride)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise ValueError(f"For 'nsa_compress', '{name}' must be a positive int, but got {value!r}.")
    if compress_stride > compress_block_size:
        raise ValueError(f"For 'nsa_compress', 'compress_stride' ({compress_stride}) must not exceed "
                         f"'compress_block_size' ({compress_block_size}).")
    if input.ndim != 3:
        raise ValueError(f"For 'nsa_compress', 'input' must be 3-D (T, N, D), but got shape {tuple(input.shape)}.")
    if tuple(weight.shape) != (compress_block_size, input.shape[1]):
        raise ValueError(f"For 'nsa_compress', 'weight' must have shape (compress_block_size, N) = "
                         f"{(compress_block_size, input.shape[1])}, but got {tuple(weight.shape)}.")
    if weight.dtype != input.dtype:
        raise TypeError(f"For 'nsa_compress', 'weight' must have the dtype of 'input' ({input.dtype}), but got "
                        f"{weight.dtype}.")
    starts = np.asarray(_window_starts(input.shape[0], actual_seq_len, compress_block_size, compress_stride),
                        np.int32)
    if not starts.size:
        return jnp.zeros((0,) + input.shape[1:], input.dtype)
    windows = input[starts[:, None] + np.arange(compress_block_size)[None, :]]  # (T', block, N, D)
    compressed = jnp.einsum("tknd,kn->tnd", windows.astype(jnp.float32), weight.astype(jnp.float32))
    return compressed.astype(input.dtype)
