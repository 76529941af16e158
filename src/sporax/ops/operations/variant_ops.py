"""MindSpore's other Primitive spellings of ops sporax already has (``AddV2``, ``ReLUV3``, ``DivMod``, ``RangeV2``,
``SparseSegmentSum`` ...), as its ``math_ops``, ``nn_ops``, ``array_ops``, ``sparse_ops`` and private ``_inner_ops``
export them.

Each is made from one table row (``ext_ops.row_primitive``): the Primitive name, its attributes and inputs in
MindSpore's order, and the functional op its call runs. None is exported by ``ops`` (MindSpore's is not either).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.variant_ops import AddV2
    >>> AddV2()(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32))).asnumpy().tolist()
    [2.0, 2.0]
"""
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops.functional import activation, arithmetic, array, creation, math, reduce, sparse_components
from sporax.ops.operations.ext_ops import row_primitive


def _divide(input, other, rounding_mode=None):
    return arithmetic.div(input, other, rounding_mode=rounding_mode)


def _contiguous_segments(name, segment_ids):
    # MindSpore's CPU kernels refuse ids that skip a segment or go back; the output has ids[-1] + 1 rows.
    ids = np.asarray(segment_ids.asnumpy() if isinstance(segment_ids, Tensor) else segment_ids).reshape(-1)
    steps = np.diff(ids)
    if ids.size and (ids[0] < 0 or np.any((steps != 0) & (steps != 1))):
        raise ValueError(f"For '{name}', 'segment_ids' must be sorted and contiguous (each id equal to or one more "
                         f"than the one before), but got {ids.tolist()}.")
    return int(ids[-1]) + 1 if ids.size else 0


def _sparse_segment_sum(x, indices, segment_ids):
    count = _contiguous_segments("SparseSegmentSum", segment_ids)
    return sparse_components.sparse_segment_sum_with_num_segments(x, indices, segment_ids, count)


def _sparse_segment_sqrt_n(x, indices, segment_ids):
    count = _contiguous_segments("SparseSegmentSqrtN", segment_ids)
    return sparse_components.sparse_segment_sqrt_n_with_num_segments(x, indices, segment_ids, count)


def _clip_by_norm(x, clip_norm, axis=None):
    if str(x.dtype) not in ("Float16", "Float32"):
        raise TypeError(f"For 'ClipByNorm', the input 'x' must be a Tensor of Float16 or Float32, but got {x.dtype}; "
                        "cast it first.")
    norm = math.sqrt(reduce.sum(arithmetic.mul(x, x), axis, True))
    clipped = arithmetic.div(arithmetic.mul(x, clip_norm), arithmetic.maximum(norm, clip_norm))
    return array.cast(clipped, x.dtype)


def _mixed_precision_cast(dst_dtype, x):
    # Float Tensors are cast, anything else passes through; lists come back as tuples (as in MindSpore).
    if isinstance(x, Tensor):
        return array.cast(x, dst_dtype) if x.is_floating_point() else x
    if isinstance(x, (tuple, list)):
        return tuple(_mixed_precision_cast(dst_dtype, item) for item in x)
    if isinstance(x, dict):
        return {key: _mixed_precision_cast(dst_dtype, value) for key, value in x.items()}
    return x


def _same_type_shape(x, y):
    if x.dtype != y.dtype:
        raise TypeError(f"For 'SameTypeShape', the x dtype should be = y dtype: {y.dtype}, but got {x.dtype}.")
    if tuple(x.shape) != tuple(y.shape):
        raise ValueError(f"For 'SameTypeShape', the x shape should be = y shape: {tuple(y.shape)}, "
                         f"but got {tuple(x.shape)}.")
    return x


def _range(start, limit, delta, maxlen=1000000):
    for name, value in (("start", start), ("limit", limit), ("delta", delta)):
        if not isinstance(value, Tensor):
            raise TypeError(f"For 'RangeV2', the input '{name}' must be a Tensor, but got {type(value).__name__}: "
                            f"wrap it as Tensor({value!r}).")
    return creation.range(start, limit, delta, maxlen)


def _load(parameter, *monad):
    # ``u`` (the update-state monad) only orders reads in MindSpore's graphs; eager reads are in order already.
    return parameter * 1 if isinstance(parameter, Tensor) else parameter


def _broadcast_gradient_args(x_shape, y_shape):
    # TensorFlow's BroadcastGradientArgs rule, as MindSpore 2.10's CPU kernel gives it: equal shapes reduce nothing;
    # otherwise each input reduces the (padded) axes where it has size 1, axes where every input is 1 included.
    shapes = [tuple(int(size) for size in (shape.asnumpy().reshape(-1) if isinstance(shape, Tensor) else shape))
              for shape in (x_shape, y_shape)]
    reductions = [[], []]
    if shapes[0] != shapes[1]:
        rank = max(len(shape) for shape in shapes)
        padded = [(1,) * (rank - len(shape)) + shape for shape in shapes]
        for axis in range(rank):
            sizes = [shape[axis] for shape in padded]
            if len(set(sizes) - {1}) > 1:
                raise ValueError(f"For 'DynamicBroadcastGradientArgs', the shapes {shapes[0]} and {shapes[1]} do "
                                 f"not broadcast (axis {axis}: {sizes[0]} and {sizes[1]}).")
            for reduction, size in zip(reductions, sizes):
                if size == 1:
                    reduction.append(axis)
    return tuple(Tensor(np.array(reduction, np.int64)) for reduction in reductions)


_TABLE = {
    "AddV2": ("x y", arithmetic.add, "Element-wise ``x + y`` (MindSpore's math_ops.AddV2)."),
    "DivMod": ("input other rounding_mode=None", _divide,
               "``input / other``, rounded toward zero (``'trunc'``) or down (``'floor'``) when asked."),
    "ReLUV3": ("input", activation.relu, "``max(input, 0)`` (MindSpore's nn_ops.ReLUV3)."),
    "RangeV2": ("maxlen=1000000 ; start limit delta", _range,
                "The values ``start, start + delta ...`` below ``limit``, from three scalar Tensors."),
    "DynamicBroadcastTo": ("x shape", array.broadcast_to, "Broadcast ``x`` to ``shape`` (a tuple or a Tensor)."),
    "SameTypeShape": ("x y", _same_type_shape, "``x``, after checking that ``y`` has its dtype and shape."),
    "MixedPrecisionCast": ("dst_dtype x", _mixed_precision_cast,
                           "Cast the float Tensors in ``x`` (a Tensor or nested tuples) to ``dst_dtype``."),
    "Load": ("parameter u=None", _load, "The value of a Parameter (MindSpore's graph read of it)."),
    "ClipByNorm": ("axis=None ; x clip_norm", _clip_by_norm,
                   "``x * clip_norm / max(l2_norm(x, axis), clip_norm)``: ``x`` scaled to an L2 norm of at most "
                   "``clip_norm``."),
    "SparseSegmentSum": ("x indices segment_ids", _sparse_segment_sum,
                         "Row ``s`` sums the rows ``x[indices[k]]`` whose (sorted) ``segment_ids[k]`` is ``s``."),
    "DynamicBroadcastGradientArgs": ("s0 s1", _broadcast_gradient_args,
                                     "The axes each of two broadcast inputs' gradients sums over (Int64 Tensors)."),
    "SparseSegmentSqrtN": ("x indices segment_ids", _sparse_segment_sqrt_n,
                           "The sum of a segment's rows ``x[indices[k]]`` divided by the square root of their count."),
}
for _name, (_spec, _function, _summary) in _TABLE.items():
    globals()[_name] = row_primitive(_name, _spec, _function, _summary, __name__)
__all__ = list(_TABLE)
