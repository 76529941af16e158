"""Primitive classes for array and creation ops (with the old names ``Pack``/``Unpack``, segment reductions,
``Diag``/``DiagPart``, triangle indices, ``SplitV``): thin adapters onto ``sporax.ops.functional``.

``__init__`` records MindSpore's attributes (``prim_attr_register``); ``__call__`` calls the
functional op. Outputs match the functions (``ops.Shape()(x) == ops.shape(x)``).

Example:
    >>> from sporax import ops, Tensor
    >>> ops.Reshape()(Tensor([1, 2, 3, 4]), (2, 2)).shape
    (2, 2)
"""
import functools

import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops import functional
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.faces import primitive_class
from sporax.ops.functional.debug import print_
from sporax.ops.op_table import TABLE
from sporax.ops.operations.scatter_ops import _adapter as _generic_adapter
from sporax.ops.primitive import Primitive, prim_attr_register

_adapter = functools.partial(_generic_adapter, module=__name__)


_simple = _adapter  # a Primitive without attributes whose call is ``function(*inputs)``

# Generated from the op table (sporax.ops.op_table): each calls its functional op's kernel.
(Reshape, Transpose, ExpandDims, Tile, Squeeze, BroadcastTo, Concat, Stack, OnesLike, ZerosLike, Cast, Shape, Rank,
 Size, Fill, TupleToArray, LinSpace, ScalarToTensor, Range, UnsortedSegmentSum, UnsortedSegmentMax, UnsortedSegmentMin,
 UnsortedSegmentProd, TrilIndices, TriuIndices, Slice, StridedSlice) = (
    primitive_class(TABLE[entry], __name__) for entry in (
        "reshape", "transpose", "expand_dims", "tile", "squeeze", "broadcast_to", "concat", "stack",
        "ones_like", "zeros_like", "cast", "shape", "rank", "size", "fill", "tuple_to_array", "linspace",
        "scalar_to_tensor", "range", "unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min",
        "unsorted_segment_prod", "tril_indices", "triu_indices", "slice", "strided_slice"))


DType = primitive_class(TABLE["dtype"], __name__)
# Generated from their op-table entries (``sporax.ops.functional.indexing``, ``scatters``).
Gather = primitive_class(TABLE["gather"], __name__)
GatherV2 = Gather
GatherD = primitive_class(TABLE["gather_d"], __name__)
GatherNd = primitive_class(TABLE["gather_nd"], __name__)
ScatterNd = primitive_class(TABLE["scatter_nd"], __name__)
TensorScatterUpdate = primitive_class(TABLE["tensor_scatter_update"], __name__)
TensorScatterAdd = primitive_class(TABLE["tensor_scatter_add"], __name__)
MaskedFill = primitive_class(TABLE["masked_fill"], __name__)
MaskedSelect = primitive_class(TABLE["masked_select"], __name__)
Select = primitive_class(TABLE["where"], __name__)
Unique = primitive_class(TABLE["unique"], __name__)
# A copy: MindSpore's Identity gives a new Tensor, in a compiled Cell too (``return x`` hands back ``x`` itself)
Identity = _simple("Identity", lambda x: wrap(jnp.copy(array_of("Identity", "x", x))),
                   "Return the input's values as a new Tensor.\n\nInputs:\n    - **x** (Tensor).")


# Written here (calling the ops) because MindIR loading reads their call's input names: the ``type`` input
# arrives there as a MindSpore TypeId, made a dtype by name.
Ones = _adapter("Ones", functional.ones, "A tensor of ones.\n\nInputs:\n    - **shape** (Union[int, tuple[int]]).\n"
                "    - **type** (mindspore.dtype) - Float32 by default.")
Zeros = _adapter("Zeros", functional.zeros, "A tensor of zeros.\n\nInputs:\n    - **shape** (Union[int, tuple[int]]).\n"
                 "    - **type** (mindspore.dtype) - Float32 by default.")


class Eye(Primitive):
    """An identity-like matrix (``ops.eye``; written here as its ``__init__`` keeps Primitive's ``name``).

    Inputs:
        - **n** (int), **m** (int) - rows and columns.
        - **t** (mindspore.dtype) - the type.
    """

    def __call__(self, n, m, t):
        return functional.eye(n, m, t)








class Unstack(Primitive):
    """Split a tensor along an axis into a tuple, removing that axis.

    Args:
        axis (int): the axis. Default: 0.
        num (int): the expected number of outputs, or None.

    Inputs:
        - **input_x** (Tensor).
    """

    @prim_attr_register
    def __init__(self, axis=0, num=None):
        self.axis = axis

    def __call__(self, input_x):
        return functional.unstack(input_x, self.axis)


class Split(Primitive):
    """Split a tensor into ``output_num`` equal parts along ``axis``.

    Args:
        axis (int): the axis. Default: 0.
        output_num (int): the number of parts. Default: 1.

    Inputs:
        - **input_x** (Tensor).
    """

    @prim_attr_register
    def __init__(self, axis=0, output_num=1):
        self.axis, self.output_num = axis, output_num

    def __call__(self, input_x):
        length = functional.shape(input_x)[self.axis]
        if length % self.output_num:
            raise ValueError(f"For 'Split', the length {length} of axis {self.axis} must be divisible "
                             f"by output_num {self.output_num}.")
        return functional.split(input_x, length // self.output_num, self.axis)




class Flatten(Primitive):
    """Flatten every axis but the first: (N, ...) -> (N, -1).

    Inputs:
        - **input_x** (Tensor).
    """

    def __call__(self, input_x):
        shape = array_of("Flatten", "input_x", input_x).shape
        return functional.reshape(input_x, (shape[0] if shape else 1, -1))


OneHot = primitive_class(TABLE["one_hot"], __name__)
ReverseV2 = primitive_class(TABLE["flip"], __name__)


class Meshgrid(Primitive):
    """Coordinate grids from 1-d tensors.

    Args:
        indexing (str): 'xy' or 'ij'. Default: 'xy'.

    Inputs:
        - **inputs** (tuple[Tensor]).
    """

    @prim_attr_register
    def __init__(self, indexing="xy"):
        self.indexing = indexing

    def __call__(self, inputs):
        return functional.meshgrid(*inputs, indexing=self.indexing)




class Print(Primitive):
    """Print strings and Tensors, one per line, as MindSpore's Print operator does.

    Inputs:
        - **input_x** (Union[Tensor, str, number]) - any number of values.
    """

    def __call__(self, *input_x):
        return print_(*input_x)


Pack = _adapter("Pack", functional.stack, "Stack tensors along a new axis (old name of Stack).", (("axis", 0),))


Unpack = _adapter("Unpack", functional.unstack, "Split along an axis (old name of Unstack).", (("axis", 0),))




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
        # the positions that sort a permutation are its inverse
        return functional.cast(functional.argsort(input_x, 0), functional.dtype(input_x))


Diag = primitive_class(TABLE["diag"], __name__)


class DiagPart(Primitive):
    """The diagonal of a tensor of shape ``s + s``: a tensor of shape ``s``.

    Inputs:
        - **input_x** (Tensor).
    """

    def __call__(self, input_x):
        shape = array_of("DiagPart", "input_x", input_x).shape
        half = len(shape) // 2
        if len(shape) % 2 or shape[:half] != shape[half:]:
            raise ValueError(f"For 'DiagPart', the input shape must be s + s, but got {shape}.")
        size = int(np.prod(shape[:half], dtype=np.int64))
        return functional.reshape(functional.diagonal(functional.reshape(input_x, (size, size))), shape[:half])




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
        length = functional.shape(input_x)[self.split_dim]
        sizes = list(self.size_splits)
        if -1 in sizes:
            sizes[sizes.index(-1)] = length - (sum(sizes) + 1)
        if len(sizes) != self.num_split:
            raise ValueError(f"For 'SplitV', 'size_splits' has {len(sizes)} entries but 'num_split' is "
                             f"{self.num_split}.")
        return functional.split(input_x, sizes, self.split_dim)
