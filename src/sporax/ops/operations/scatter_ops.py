"""Primitive classes for scatter, reorder and value-dependent array ops.

``ScatterAdd``/``ScatterUpdate``/``ScatterNdAdd``/``ScatterNdUpdate``, ``ScatterMul``/``Div``/``Max``/``Min``/``Sub``
(rows), ``ScatterNdSub``/``Mul``/``Div``/``Max``/``Min`` (index tuples) and ``ScatterNonAliasingAdd`` update their
Parameter in place (by rebinding its slot) and return a new Tensor of its new value, as MindSpore 2.10 does.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.Roll(1)(Tensor([1, 2, 3])).asnumpy().tolist()
    [3, 1, 2]
"""
import inspect

from sporax.ops import functional
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.faces import primitive_class
from sporax.ops.functional import parameter_scatter, scatters, slicing, sorting
from sporax.ops.op_table import TABLE
from sporax.ops.primitive import Primitive, prim_attr_register


REQUIRED = inspect.Parameter.empty


def _adapter(name, function, doc, attributes=(), module=__name__):
    """A Primitive whose ``__init__`` takes ``attributes`` (name, default; ``REQUIRED`` for none)
    and whose call is ``function(*inputs, *attribute values)``."""
    names = [attribute for attribute, _ in attributes]
    signature = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(key, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
           for key, default in attributes])

    def __init__(self, *args, **kwargs):
        Primitive.__init__(self, name)
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{name}(): {error}") from None
        bound.apply_defaults()
        values = dict(list(bound.arguments.items())[1:])
        for key, value in values.items():
            setattr(self, key, value)  # ``ops.Concat(1).axis`` reads it, as in MindSpore
            self.add_prim_attr(key, value)
        self._values = tuple(values[key] for key in names)

    __init__.__signature__ = signature

    # the inputs are the function's leading parameters: MindIR loading reads their names (``dtype`` ...)
    inputs = list(inspect.signature(function).parameters.values())
    call_signature = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + inputs[:len(inputs) - len(names)])

    def __call__(self, *inputs, **kwargs):
        if kwargs:  # inputs by name, as MindSpore's ``ops.Zeros()(shape, dtype=...)`` takes them (mindformers' MoE)
            unknown = [key for key in kwargs if key == "self" or key not in call_signature.parameters]
            if unknown:  # reported before a missing input, as a Python call does
                raise TypeError(f"{name}.__call__() got an unexpected keyword argument '{unknown[0]}'")
            try:
                bound = call_signature.bind(self, *inputs, **kwargs)
            except TypeError as error:
                raise TypeError(f"{name}.__call__() {error}") from None
            bound.apply_defaults()
            inputs = tuple(bound.arguments.values())[1:]
        return function(*inputs, *self._values)

    __call__.__signature__ = call_signature

    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__module__": module,
                                     "__doc__": doc})


# Generated from their op-table entries (``sporax.ops.functional.scatters``, ``slicing``).
(TensorScatterSub, TensorScatterMul, TensorScatterDiv, TensorScatterMax, TensorScatterMin, TensorScatterElements,
 IndexAdd, Roll, Tril, Triu, MatrixBandPart, ReverseSequence) = (
    primitive_class(TABLE[entry], __name__) for entry in (
        "tensor_scatter_sub", "tensor_scatter_mul", "tensor_scatter_div", "tensor_scatter_max",
        "tensor_scatter_min", "tensor_scatter_elements", "index_add", "roll", "tril", "triu",
        "matrix_band_part", "reverse_sequence"))
# MindSpore's extended Primitive of ``tensor_scatter_elements``, its attributes named ``axis`` and ``reduce``.
TensorScatterElementsExt = _adapter(
    "TensorScatterElementsExt", scatters.tensor_scatter_elements,
    "Write (``reduce='none'``) or add (``'add'``) ``updates`` into ``data`` at ``indices`` along ``axis``.\n\n"
    "Args:\n    axis (int): Default: 0.\n    reduce (str): 'none' or 'add'. Default: 'none'.\n\n"
    "Inputs:\n    - **data** (Tensor), **indices** (Tensor[int]), **updates** (Tensor).",
    (("axis", 0), ("reduce", "none")))
Expand = _adapter("Expand", functional.expand, "Broadcast to a shape.\n\nInputs:\n    - **x** (Tensor), **shape** (Tensor).")
NonZero = primitive_class(TABLE["nonzero"], __name__)
DepthToSpace = _adapter("DepthToSpace", slicing.depth_to_space,
                        "Move channel blocks into space.\n\nArgs:\n    block_size (int).", (("block_size", REQUIRED),))


class SpaceToDepth(Primitive):
    """Move (N, C, H*b, W*b) spatial blocks into channels: (N, C*b*b, H, W) (TensorFlow order).

    Args:
        block_size (int): the block edge.

    Inputs:
        - **x** (Tensor) - (N, C, H, W).
    """

    @prim_attr_register
    def __init__(self, block_size):
        self.block_size = block_size

    def __call__(self, x):
        array = array_of("SpaceToDepth", "x", x)
        n, channels, height, width = array.shape
        b = self.block_size
        if height % b or width % b:
            raise ValueError(f"For 'SpaceToDepth', height and width must be divisible by {b}.")
        out = array.reshape(n, channels, height // b, b, width // b, b).transpose(0, 3, 5, 1, 2, 4)
        return wrap(out.reshape(n, channels * b * b, height // b, width // b))
SpaceToBatchND = primitive_class(TABLE["space_to_batch_nd"], __name__)


class SparseReorder(Primitive):
    """Sort a sparse tensor's entries into row-major (canonical) order.

    Inputs:
        - **indices** (Tensor) - int64 (N, R), one coordinate row per entry.
        - **values** (Tensor) - (N,).
        - **shape** (Tensor) - int64 (R,), the dense shape.

    Outputs:
        ``(y_indices, y_values)``, the entries sorted by their coordinates (ties keep their order).

    Example:
        >>> from sporax import Tensor
        >>> from sporax.ops.operations import SparseReorder
        >>> y_indices, y_values = SparseReorder()(Tensor([[2, 1], [0, 1]]), Tensor([1.0, 2.0]), Tensor([3, 3]))
        >>> y_indices.asnumpy().tolist(), y_values.asnumpy().tolist()
        ([[0, 1], [2, 1]], [2.0, 1.0])
    """

    def __init__(self):
        Primitive.__init__(self, "SparseReorder")

    def __call__(self, indices, values, shape):
        return sorting.sparse_reorder(indices, values, shape)


_INPUTS = "\n\nInputs:\n    - **input_x** (Parameter), **indices** (Tensor[int]), **updates** (Tensor)."


def _in_place(name, function, doc, use_locking=False):
    """A scatter into a Parameter, in place; MindSpore's ``use_locking`` is accepted (updates are functional)."""
    def call(input_x, indices, updates, use_locking):
        return function(input_x, indices, updates)
    return _adapter(name, call, doc + _INPUTS, (("use_locking", use_locking),), module=__name__)


ScatterAdd = _in_place("ScatterAdd", scatters.scatter_add, "Add updates into rows of a Parameter, in place.")
ScatterUpdate = _in_place("ScatterUpdate", scatters.scatter_update, "Set rows of a Parameter, in place.", True)
ScatterNdAdd = _in_place("ScatterNdAdd", scatters.scatter_nd_add,
                         "Add updates at index tuples of a Parameter, in place.")
ScatterNdUpdate = _in_place("ScatterNdUpdate", scatters.scatter_nd_update,
                            "Set index tuples of a Parameter, in place.", True)
ScatterMul = _in_place("ScatterMul", parameter_scatter.scatter_mul, "Multiply rows of a Parameter, in place.")
ScatterDiv = _in_place("ScatterDiv", parameter_scatter.scatter_div, "Divide rows of a Parameter, in place.")
ScatterMax = _in_place("ScatterMax", parameter_scatter.scatter_max, "The maximum with rows of a Parameter, in place.")
ScatterMin = _in_place("ScatterMin", parameter_scatter.scatter_min, "The minimum with rows of a Parameter, in place.")
ScatterSub = _in_place("ScatterSub", parameter_scatter.scatter_sub, "Subtract from rows of a Parameter, in place.")
ScatterNdSub = _in_place("ScatterNdSub", parameter_scatter.scatter_nd_sub,
                         "Subtract at index tuples of a Parameter, in place.")
ScatterNdMul = _in_place("ScatterNdMul", parameter_scatter.scatter_nd_mul,
                         "Multiply at index tuples of a Parameter, in place.")
ScatterNdDiv = _in_place("ScatterNdDiv", parameter_scatter.scatter_nd_div,
                         "Divide at index tuples of a Parameter, in place.")
ScatterNdMax = _in_place("ScatterNdMax", parameter_scatter.scatter_nd_max,
                         "The maximum at index tuples of a Parameter, in place.")
ScatterNdMin = _in_place("ScatterNdMin", parameter_scatter.scatter_nd_min,
                         "The minimum at index tuples of a Parameter, in place.")
ScatterNonAliasingAdd = _adapter(
    "ScatterNonAliasingAdd", lambda input_x, indices, updates: scatters.scatter_nd_add(input_x, indices, updates),
    "Add at index tuples of a Parameter, in place." + _INPUTS, module=__name__)
