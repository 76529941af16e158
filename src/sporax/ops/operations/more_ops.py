"""Less common Primitive classes: 3-d convolution and pooling, segment reductions, loss classes
with MindSpore's operator signatures, diagonal and permutation helpers.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.InvertPermutation()((3, 4, 0, 2, 1))
    (2, 4, 3, 0, 1)
"""
import numbers

import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.core import dtype as mstype
from sporax.ops import functional as F
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional import conv_pool
from sporax.ops.operations.nn_ops import FastGeLU, channel_dropout
from sporax.ops.operations.scatter_ops import _adapter as _scatter_adapter
from sporax.ops.primitive import Primitive, prim_attr_register

def _adapter(name, function, doc, attributes=()):
    return _scatter_adapter(name, function, doc, attributes, __name__)


Pack = _adapter("Pack", F.stack, "Stack tensors along a new axis (old name of Stack).", (("axis", 0),))
Unpack = _adapter("Unpack", F.unstack, "Split along an axis (old name of Unstack).", (("axis", 0),))
FastGelu = FastGeLU  # MindSpore keeps both spellings
Dense = _adapter("Dense", F.dense, "``x @ w.T + b``.\n\nInputs:\n    - **x**, **w**, **b** (Tensor).")
SoftMarginLoss = _adapter("SoftMarginLoss", F.soft_margin_loss, "Soft margin loss.\n\nArgs:\n    reduction (str).",
                          (("reduction", "mean"),))
UnsortedSegmentMax = _adapter("UnsortedSegmentMax", F.unsorted_segment_max, "Segment maximum.")
UnsortedSegmentMin = _adapter("UnsortedSegmentMin", F.unsorted_segment_min, "Segment minimum.")
UnsortedSegmentProd = _adapter("UnsortedSegmentProd", F.unsorted_segment_prod, "Segment product.")


class BCEWithLogitsLoss(Primitive):
    """Binary cross entropy from logits.

    Args:
        reduction (str): 'mean', 'sum' or 'none'. Default: 'mean'.

    Inputs:
        - **logits**, **label**, **weight**, **pos_weight** (Tensor).
    """

    @prim_attr_register
    def __init__(self, reduction="mean"):
        self.reduction = reduction

    def __call__(self, logits, label, weight=None, pos_weight=None):
        return F.binary_cross_entropy_with_logits(logits, label, weight, pos_weight, self.reduction)


class NLLLoss(Primitive):
    """Negative log likelihood, returning ``(loss, total_weight)``.

    Args:
        reduction (str): Default: 'mean'. ignore_index (int): Default: -100.

    Inputs:
        - **logits** (Tensor) - (N, C) log-probabilities. **labels** (Tensor) - (N,). **weight** (Tensor) - (C,).
    """

    @prim_attr_register
    def __init__(self, reduction="mean", ignore_index=-100):
        self.reduction, self.ignore_index = reduction, ignore_index

    def __call__(self, logits, labels, weight):
        value = F.nll_loss(logits, labels, weight, self.ignore_index, self.reduction)
        index = array_of("NLLLoss", "labels", labels)
        classes = array_of("NLLLoss", "weight", weight)
        valid = index != self.ignore_index
        total = jnp.sum(jnp.where(valid, classes[jnp.where(valid, index, 0)], 0))
        return value, wrap(total.astype(classes.dtype))


def _triple(value):
    value = (value,) * 3 if isinstance(value, numbers.Integral) else tuple(value)
    return value[-3:]


class Conv3D(Primitive):
    """3-d convolution (NCDHW input, OIDHW weight).

    Args:
        out_channel (int), kernel_size (Union[int, tuple]), mode (int), pad_mode (str), pad
        (Union[int, tuple of 6]), stride, dilation (Union[int, tuple]), group (int).

    Inputs:
        - **x** (Tensor), **weight** (Tensor).
    """

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
                 data_format="NCDHW"):
        self.pad_mode = pad_mode.lower()
        pads = (pad,) * 6 if isinstance(pad, numbers.Integral) else tuple(pad)
        self.padding = ((pads[0], pads[1]), (pads[2], pads[3]), (pads[4], pads[5]))
        self.stride, self.dilation, self.group = _triple(stride), _triple(dilation), group

    def __call__(self, x, weight):
        padding = self.padding if self.pad_mode == "pad" else self.pad_mode.upper()
        return wrap(conv_pool._convolve_kernel(array_of("Conv3D", "x", x), array_of("Conv3D", "weight", weight),
                                               None, self.stride, padding, self.dilation, self.group, None))


class AvgPool3D(Primitive):
    """3-d average pooling.

    Args:
        kernel_size, strides (Union[int, tuple]), pad_mode (str), pad (Union[int, tuple of 6]),
        ceil_mode (bool), count_include_pad (bool), divisor_override (int).

    Inputs:
        - **x** (Tensor) - (N, C, D, H, W).
    """

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=0, data_format="NCDHW"):
        self.kernel, self.strides = _triple(kernel_size), _triple(strides)
        self.pad_mode = pad_mode.upper()
        self.pad = (pad,) * 3 if isinstance(pad, numbers.Integral) else tuple(pad)[::2]
        self.ceil_mode, self.count_include_pad, self.divisor = ceil_mode, count_include_pad, divisor_override

    def __call__(self, x):
        array = array_of("AvgPool3D", "x", x)
        if self.pad_mode == "PAD":
            return conv_pool._avg_pool("AvgPool3D", array, self.kernel, self.strides, self.pad, self.ceil_mode,
                                       self.count_include_pad, self.divisor)
        pads = tuple(lax.padtype_to_pads(array.shape[2:], self.kernel, self.strides, self.pad_mode))
        return wrap(conv_pool._avg_pool_kernel(array, self.kernel, self.strides, (1, 1, 1), pads, True, False,
                                               self.divisor))


class Dropout3D(Primitive):
    """Channel dropout of an (N, C, D, H, W) input, returning ``(output, mask)``.

    Args:
        keep_prob (float): probability of keeping a channel. Default: 0.5.

    Inputs:
        - **x** (Tensor).
    """

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        self.keep_prob = keep_prob

    def __call__(self, x):
        return channel_dropout("Dropout3D", x, self.keep_prob, 3)


class StandardLaplace(Primitive):
    """Float32 samples of the standard Laplace distribution.

    Args:
        seed, seed2 (int): op seeds.

    Inputs:
        - **shape** (tuple[int]).
    """

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        self.seed = seed or seed2 or None

    def __call__(self, shape):
        return F.standard_laplace(shape, self.seed)


class InvertPermutation(Primitive):
    """The inverse of a permutation (a tuple gives a tuple, a Tensor a Tensor).

    Inputs:
        - **input_x** (Union[tuple[int], Tensor]).
    """

    def __call__(self, input_x):
        if isinstance(input_x, (tuple, list)):
            inverse = np.argsort(np.asarray(input_x))
            if sorted(input_x) != list(range(len(input_x))):
                raise ValueError(f"For 'InvertPermutation', {input_x!r} is not a permutation of 0..n-1.")
            return tuple(int(i) for i in inverse)
        array = array_of("InvertPermutation", "input_x", input_x)
        return wrap(jnp.zeros_like(array).at[array].set(jnp.arange(array.shape[0], dtype=array.dtype)))


class Diag(Primitive):
    """A tensor of shape ``x.shape + x.shape`` with ``x`` on its diagonal.

    Inputs:
        - **input_x** (Tensor).
    """

    def __call__(self, input_x):
        array = array_of("Diag", "input_x", input_x)
        return wrap(jnp.diag(array.reshape(-1)).reshape(array.shape + array.shape))


class DiagPart(Primitive):
    """The diagonal of a tensor of shape ``s + s``: a tensor of shape ``s``.

    Inputs:
        - **input_x** (Tensor).
    """

    def __call__(self, input_x):
        array = array_of("DiagPart", "input_x", input_x)
        half = array.ndim // 2
        if array.ndim % 2 or array.shape[:half] != array.shape[half:]:
            raise ValueError(f"For 'DiagPart', the input shape must be s + s, but got {array.shape}.")
        size = int(np.prod(array.shape[:half], dtype=np.int64))
        return wrap(jnp.diagonal(array.reshape(size, size)).reshape(array.shape[:half]))


def _indices_primitive(name, function):
    @prim_attr_register
    def __init__(self, row, col, offset=0, dtype=mstype.int32):
        self.row, self.col, self.offset, self.dtype = row, col, offset, dtype

    def __call__(self):
        return function(self.row, self.col, self.offset, dtype=self.dtype)

    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__module__": __name__,
                                     "__doc__": f"The 2 x n coordinates of a {name[:4].lower()} triangle "
                                                "(Int32 by default).\n\nArgs:\n    row, col, offset (int), dtype."})


TrilIndices = _indices_primitive("TrilIndices", F.tril_indices)
TriuIndices = _indices_primitive("TriuIndices", F.triu_indices)


class ScalarToArray(Primitive):
    """A 0-d Tensor from a Python number (int -> Int64, float -> Float32).

    Inputs:
        - **input_x** (Union[int, float]).
    """

    def __call__(self, input_x):
        if isinstance(input_x, bool) or not isinstance(input_x, (int, float)):
            raise TypeError(f"For 'ScalarToArray', 'input_x' must be an int or a float, but got {input_x!r}.")
        return wrap(jnp.asarray(input_x, np.int64 if isinstance(input_x, int) else np.float32))


class SplitV(Primitive):
    """Split along ``split_dim`` into pieces of ``size_splits`` (one entry may be -1).

    Args:
        size_splits (tuple[int]), split_dim (int), num_split (int).

    Inputs:
        - **input_x** (Tensor).
    """

    @prim_attr_register
    def __init__(self, size_splits, split_dim, num_split):
        self.size_splits, self.split_dim, self.num_split = tuple(size_splits), split_dim, num_split

    def __call__(self, input_x):
        length = F.shape(input_x)[self.split_dim]
        sizes = list(self.size_splits)
        if -1 in sizes:
            sizes[sizes.index(-1)] = length - (sum(sizes) + 1)
        if len(sizes) != self.num_split:
            raise ValueError(f"For 'SplitV', 'size_splits' has {len(sizes)} entries but 'num_split' is "
                             f"{self.num_split}.")
        return F.split(input_x, sizes, self.split_dim)



class NoRepeatNGram(Primitive):
    """Forbid tokens that would repeat an n-gram already in the sequence (beam search).

    For each sequence, wherever the ``ngram_size - 1`` tokens before position ``i + ngram_size - 1``
    equal the last ``ngram_size - 1`` tokens, the token at that position gets log-probability ``-FLT_MAX``.

    Args:
        ngram_size (int): n, at least 1. Default: 1.

    Inputs:
        - **state_seq** (Tensor) - int32 tokens, (batch, beam, seq_len).
        - **log_probs** (Tensor) - float, (batch, beam, vocab).

    Outputs:
        Tensor, ``log_probs`` with the banned tokens set to ``-3.4028235e+38``.

    Example:
        >>> from sporax import ops, Tensor
        >>> import numpy as np
        >>> out = ops.NoRepeatNGram(2)(Tensor([[[1, 2, 1]]]), Tensor(np.zeros((1, 1, 4), np.float32)))
        >>> bool(out.asnumpy()[0, 0, 2] < -1e38)
        True
    """

    @prim_attr_register
    def __init__(self, ngram_size=1):
        if not isinstance(ngram_size, int) or isinstance(ngram_size, bool) or ngram_size < 1:
            raise ValueError(f"For 'NoRepeatNGram', 'ngram_size' must be an int >= 1, but got {ngram_size!r}.")
        self.ngram_size = ngram_size

    def __call__(self, state_seq, log_probs):
        tokens = array_of("NoRepeatNGram", "state_seq", state_seq)
        scores = array_of("NoRepeatNGram", "log_probs", log_probs)
        if tokens.ndim != 3 or scores.ndim != 3:
            raise ValueError(f"For 'NoRepeatNGram', 'state_seq' and 'log_probs' must be 3-D (batch, beam, length), "
                             f"but got ranks {tokens.ndim} and {scores.ndim}.")
        if tokens.shape[:-1] != scores.shape[:-1]:
            raise ValueError(f"For 'NoRepeatNGram', 'state_seq' {tokens.shape} and 'log_probs' {scores.shape} "
                             f"must share all dimensions but the last.")
        length, vocab, n = tokens.shape[-1], scores.shape[-1], self.ngram_size
        tail = tokens[..., length - n + 1:]
        banned = jnp.zeros(scores.shape, bool)
        for start in range(length - n + 1):
            match = jnp.all(tokens[..., start:start + n - 1] == tail, axis=-1, keepdims=True)
            hit = jnp.arange(vocab) == tokens[..., start + n - 1:start + n]
            banned = banned | (match & hit)
        return wrap(jnp.where(banned, jnp.asarray(-3.4028235e+38, scores.dtype), scores))
