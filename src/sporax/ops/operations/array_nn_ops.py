"""Primitive classes for array, segment and nn ops: ``SegmentSum``..., ``UnravelIndex``, ``RaggedRange``,
``ParallelConcat``, ``MirrorPad``, ``PadV3``, ``LRN``, ``RmsNorm``, the margin losses, the view ops.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations import SegmentSum
    >>> SegmentSum()(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor(np.array([0, 0, 2], np.int32))).asnumpy().tolist()
    [3.0, 0.0, 3.0]
"""
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional import array_embedding, indexing, normalization
from sporax.ops.functional.inplace import dyn_shape
from sporax.ops.functional import margin_loss
from sporax.ops.functional._args import _concrete
from sporax.ops.faces import primitive_class
from sporax.ops.op_table import TABLE
from sporax.ops.operations.scatter_ops import _adapter
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.ops.functional.array import squeeze, swapaxes, transpose
from sporax.ops.functional.array_joining import concat
from sporax.ops.functional.creation import logspace
from sporax.ops.functional.slicing import narrow
from sporax.ops.functional._args import axis_index
from sporax.ops.functional.sampling import pad
from sporax.ops.functional.margin_loss import triplet_margin_loss
from sporax.ops.functional.softmax import log_softmax
from sporax.ops.functional.scatters import tensor_scatter_elements
from sporax.ops.functional.slicing import space_to_batch_nd


def _make(name, function, doc, attributes=()):
    return _adapter(name, function, doc, attributes, module=__name__)


def _segment(method):
    name = "Segment" + method.capitalize()
    return _make(name, lambda input_x, segment_ids: array_embedding.segment_reduce(name, input_x, segment_ids, method),
                 f"The {method} of the rows of ``input_x`` per sorted segment id (empty segments give "
                 f"{1 if method == 'prod' else 0}).\n\nInputs:\n    - **input_x** (Tensor), **segment_ids** "
                 "(Tensor[int]) - sorted.")


SegmentSum, SegmentMax, SegmentMin, SegmentMean, SegmentProd = (_segment(m) for m in
                                                                 ("sum", "max", "min", "mean", "prod"))
MaskedScatter = _make("MaskedScatter", array_embedding.masked_scatter,
                      "Fill the masked positions of ``input`` with ``source``'s elements in order.")
Padding = primitive_class(TABLE["padding"], __name__)
MirrorPad = primitive_class(TABLE["mirror_pad"], __name__)
LRN = _make("LRN", normalization.lrn, "Local response normalisation across channels.",
            (("depth_radius", 5), ("bias", 1.0), ("alpha", 1.0), ("beta", 0.5), ("norm_region", "ACROSS_CHANNELS")))
RmsNorm = _make("RmsNorm", normalization.rms_norm, "``(y, rstd)`` of RMS normalisation.", (("epsilon", 1e-6),))


class UnravelIndex(Primitive):
    """The coordinates of flat ``indices`` in an array of shape ``dims``: (len(dims), N) (or (len(dims),)).

    Inputs:
        - **indices** (Tensor[int]) - 0-D or 1-D. **dims** (Tensor[int]) - 1-D, positive.
    """

    def __call__(self, indices, dims):
        return indexing.unravel_index(indices, dims)


class RaggedRange(Primitive):
    """``(nested_splits, dense_values)`` of the ranges ``range(starts[i], limits[i], deltas[i])``.

    Args:
        Tsplits (mindspore.dtype): int32 or int64, the dtype of the splits.

    Inputs:
        - **starts**, **limits**, **deltas** (Tensor) - 0-D or 1-D, the same dtype.
    """

    @prim_attr_register
    def __init__(self, Tsplits):
        self.split_dtype = mstype.to_numpy_dtype(mstype.normalize(Tsplits))

    def __call__(self, starts, limits, deltas):
        return indexing.ragged_range(starts, limits, deltas, self.split_dtype.name)


class ParallelConcat(Primitive):
    """Concatenate a tuple of Tensors whose first dimension is 1 along that dimension.

    Inputs:
        - **values** (tuple[Tensor]) - each (1, ...), the same shape and dtype.
    """

    def __call__(self, values):
        arrays = [array_of("ParallelConcat", "values", v) for v in values]
        if not arrays or any(a.shape != arrays[0].shape or a.dtype != arrays[0].dtype for a in arrays) \
                or arrays[0].ndim < 1 or arrays[0].shape[0] != 1:
            raise ValueError("For 'ParallelConcat', 'values' must be a non-empty tuple of Tensors of the same shape "
                             "(1, ...) and dtype.")
        return concat(values, 0)


class TensorShape(Primitive):
    """The shape of a Tensor as a 1-D Int64 Tensor.

    Inputs:
        - **input_x** (Tensor).
    """

    def __call__(self, input_x):
        array_of("TensorShape", "input_x", input_x)
        return dyn_shape(input_x)


class TransposeView(Primitive):
    """``x`` with its axes permuted by ``perm``.

    Inputs:
        - **x** (Tensor). **perm** (tuple[int]).
    """

    def __call__(self, x, perm):

        return transpose(x, perm)


class TransposeExtView(Primitive):
    """``x`` with axes ``dim0`` and ``dim1`` swapped.

    Inputs:
        - **x** (Tensor). **dim0**, **dim1** (int).
    """

    def __call__(self, x, dim0, dim1):

        return swapaxes(x, dim0, dim1)


class SelectView(Primitive):
    """The slice of ``input`` at ``index`` along ``dim`` (that axis removed).

    Inputs:
        - **input** (Tensor). **dim**, **index** (int).
    """

    def __call__(self, input, dim, index):

        shape = array_of("SelectView", "input", input).shape
        axis = axis_index("SelectView", "dim", dim, len(shape))
        if isinstance(index, bool) or not isinstance(index, int) or not -shape[axis] <= index < shape[axis]:
            raise IndexError(f"For 'SelectView', 'index' {index!r} is out of range for dimension {axis} of size "
                             f"{shape[axis]}.")
        return squeeze(narrow(input, axis, index % shape[axis], 1), axis)


class PadV3(Primitive):
    """Pad with a constant, by reflection, by repeating the edge or circularly (``paddings``: last axis first).

    Args:
        mode (str): 'constant', 'reflect', 'edge' or 'circular'.
        paddings_contiguous (bool): ``paddings`` as (begin, end) pairs; else all begins then all ends.

    Inputs:
        - **x** (Tensor). **paddings** (Tensor or tuple). **constant_value** (Tensor) - for 'constant'.
    """

    _MODES = {"constant": "constant", "reflect": "reflect", "edge": "replicate", "circular": "circular"}

    @prim_attr_register
    def __init__(self, mode="constant", paddings_contiguous=True):
        if mode not in self._MODES:
            raise ValueError(f"For 'PadV3', 'mode' must be one of {sorted(self._MODES)}, but got {mode!r}.")
        self.mode, self.paddings_contiguous = mode, bool(paddings_contiguous)

    def __call__(self, x, paddings, constant_value=None):

        amounts = [int(v) for v in np.asarray(_concrete("PadV3", "paddings", paddings)).reshape(-1)]
        if not self.paddings_contiguous:
            half = len(amounts) // 2
            amounts = [v for pair in zip(amounts[:half], amounts[half:]) for v in pair]
        if self.mode == "constant":
            return pad(x, tuple(amounts), "constant", constant_value)
        return pad(x, tuple(amounts), self._MODES[self.mode])


class MultiMarginLoss(Primitive):
    """The multi-class hinge loss (``ops.multi_margin_loss``).

    Inputs:
        - **x** (Tensor) - (N, C). **target** (Tensor) - (N,). **weight** (Tensor) - (C,), optional.
    """

    @prim_attr_register
    def __init__(self, p=1, margin=1.0, reduction="mean"):
        self.p, self.margin, self.reduction = p, margin, reduction

    def __call__(self, x, target, weight=None):
        return margin_loss.multi_margin_loss(x, target, self.p, self.margin, weight, self.reduction)


class MultilabelMarginLoss(Primitive):
    """``(loss, is_target)`` of the multi-label hinge loss; ``is_target`` marks the target classes (Int32).

    Inputs:
        - **x** (Tensor) - (N, C) or (C,). **target** (Tensor[int32]) - the same shape, ended by -1.
    """

    @prim_attr_register
    def __init__(self, reduction="mean"):
        self.reduction = reduction

    def __call__(self, x, target):
        return margin_loss.multilabel_margin_loss_with_targets(x, target, self.reduction)


class TripletMarginLoss(Primitive):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with ``p``-norm distances.

    Inputs:
        - **x**, **positive**, **negative** (Tensor). **margin** (Tensor) - a scalar.
    """

    @prim_attr_register
    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean"):
        self.p, self.swap, self.eps, self.reduction = p, swap, eps, reduction

    def __call__(self, x, positive, negative, margin):

        value = float(np.asarray(_concrete("TripletMarginLoss", "margin", margin)))
        return triplet_margin_loss(x, positive, negative, value, self.p, self.eps, self.swap, self.reduction)


class LogSpace(Primitive):
    """``steps`` numbers ``base ** t``, ``t`` evenly spaced from ``start`` to ``end``.

    Inputs:
        - **start**, **end** (Tensor) - 0-D.
    """

    @prim_attr_register
    def __init__(self, steps=10, base=10, dtype=mstype.float32):
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
            raise ValueError(f"For 'LogSpace', 'steps' must be a non-negative int, but got {steps!r}.")
        self.steps, self.base, self.dtype = steps, base, dtype

    def __call__(self, start, end):
        return logspace(start, end, self.steps, self.base, dtype=self.dtype)


class LogSoftmaxExt(Primitive):
    """``log_softmax`` along ``dim`` after casting to ``dtype``.

    Inputs:
        - **input** (Tensor). **dim** (int) - default: 0 for 0-D/1-D/3-D inputs, else 1. **dtype** (optional).
    """

    def __call__(self, input, dim=None, dtype=None):

        array = array_of("LogSoftmaxExt", "input", input)
        if dtype is not None:
            array = array.astype(mstype.to_numpy_dtype(mstype.normalize(dtype)))
        if dim is None:
            dim = 0 if array.ndim in (0, 1, 3) else 1
        return log_softmax(wrap(array), dim)


class ScatterAddWithAxis(Primitive):
    """A new Tensor: ``input_x`` with ``updates`` added at ``indices`` along ``axis`` (element-wise scatter).

    Inputs:
        - **input_x** (Tensor). **indices** (Tensor[int]). **updates** (Tensor) - the shape of ``indices``.
    """

    @prim_attr_register
    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, input_x, indices, updates):

        return tensor_scatter_elements(input_x, indices, updates, self.axis, "add")


class SpaceToBatch(Primitive):
    """Move ``block_size`` x ``block_size`` spatial blocks of an NCHW Tensor into the batch, after padding.

    Inputs:
        - **input_x** (Tensor) - 4-D.
    """

    @prim_attr_register
    def __init__(self, block_size, paddings):
        if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 2:
            raise ValueError(f"For 'SpaceToBatch', 'block_size' must be an int >= 2, but got {block_size!r}.")
        self.block_size, self.paddings = block_size, paddings

    def __call__(self, input_x):

        return space_to_batch_nd(input_x, (self.block_size, self.block_size), self.paddings)

