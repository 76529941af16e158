"""MindSpore 2.x's ``*Ext`` and scalar-operand Primitives (``SumExt``, ``Divs``, ``AddScalar`` ...).

MindSpore's ``mint`` functions and Tensor operators run on these Primitives, so the MindIR files
MindSpore 2.10 exports name them (``REF::SumExt``). Each is a thin adapter onto sporax's functional
op, made from one table row: the Primitive name, its inputs in MindSpore's order with their
defaults, and the function.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.ext_ops import Muls
    >>> Muls()(Tensor(np.ones(2, np.float32)), 3).asnumpy()
    array([3., 3.], dtype=float32)
"""
import inspect

from sporax.ops.functional import (activation, arithmetic, array, array_joining, array_shaping, comparison, creation,
                                   indexing, linalg, normalization, norms, reduce, slicing)
from sporax.ops.primitive import Primitive


def _with_alpha(function):
    return lambda input, other, alpha=1: function(input, other if alpha == 1 else arithmetic.mul(other, alpha))


# name -> (inputs as "name" or "name=default" in MindSpore's order, function, summary)
_TABLE = {
    "Muls": ("input other", arithmetic.mul, "Multiply a Tensor by a scalar."),
    "Divs": ("input other", arithmetic.div, "Divide a Tensor by a scalar."),
    "AddScalar": ("input other alpha=1", _with_alpha(arithmetic.add), "``input + alpha * other``, other a scalar."),
    "SubScalar": ("input other alpha=1", _with_alpha(arithmetic.sub), "``input - alpha * other``, other a scalar."),
    "AddExt": ("input other alpha=1", _with_alpha(arithmetic.add), "``input + alpha * other``."),
    "SubExt": ("input other alpha=1", _with_alpha(arithmetic.sub), "``input - alpha * other``."),
    "PowTensorScalar": ("input exponent", arithmetic.pow, "A Tensor to a scalar power."),
    "PowScalarTensor": ("input exponent", arithmetic.pow, "A scalar to a Tensor power."),
    "MatMulExt": ("input other", linalg.matmul, "Matrix product with NumPy's broadcasting (``mint.matmul``)."),
    "BatchMatMulExt": ("input mat2", linalg.bmm, "Batched matrix product (``mint.bmm``)."),
    "SumExt": ("input dim=None keepdim=False dtype=None",
               lambda input, dim=None, keepdim=False, dtype=None: reduce.sum(input, dim, keepdim, dtype=dtype),
               "Sum over ``dim`` (all when None)."),
    "MeanExt": ("input dim=None keepdim=False dtype=None",
                lambda input, dim=None, keepdim=False, dtype=None: _cast(reduce.mean(input, dim, keepdim), dtype),
                "Mean over ``dim`` (all when None)."),
    "ProdExt": ("input dim=None keepdim=False dtype=None",
                lambda input, dim=None, keepdim=False, dtype=None: reduce.prod(input, dim, keepdim, dtype),
                "Product over ``dim`` (all when None)."),
    "ArgMaxExt": ("input dim=None keepdim=False", reduce.argmax, "Index of the maximum along ``dim``."),
    "GeluExt": ("input approximate='none'", activation.gelu, "GELU, exact or ``approximate='tanh'``."),
    "LeakyReLUExt": ("input negative_slope=0.01", activation.leaky_relu, "Leaky ReLU."),
    "SoftplusExt": ("input beta=1 threshold=20", activation.softplus, "Softplus."),
    "FlattenExt": ("input start_dim=0 end_dim=-1",
                   lambda input, start_dim=0, end_dim=-1: array.flatten(input, start_dim=start_dim, end_dim=end_dim),
                   "Flatten dimensions ``start_dim..end_dim``."),
    "OnesLikeExt": ("input dtype=None", lambda input, dtype=None: creation.ones_like(input, dtype=dtype),
                    "Ones shaped like ``input``."),
    "ZerosLikeExt": ("input dtype=None", lambda input, dtype=None: creation.zeros_like(input, dtype=dtype),
                     "Zeros shaped like ``input``."),
    "EqualExt": ("input other", comparison.equal, "Element-wise ``==``."),
    "LessScalar": ("input other", comparison.less, "Element-wise ``<`` a scalar."),
    "GreaterEqualScalar": ("input other", comparison.greater_equal, "Element-wise ``>=`` a scalar."),
    "ClampScalar": ("input min=None max=None", comparison.clamp, "Clamp to scalar bounds."),
    "MaskedFillScalar": ("input mask value", indexing.masked_fill, "Fill where ``mask`` with a scalar."),
    "LayerNormExt": ("input normalized_shape weight=None bias=None eps=1e-05", normalization.layer_norm,
                     "Layer normalisation over the trailing ``normalized_shape``; returns (y, mean, rstd)."),
    "TrilExt": ("input diagonal=0", slicing.tril, "The lower triangle."),
    "TExt": ("input", array_shaping.t, "Transpose a matrix."),
    "Contiguous": ("input", lambda input: input, "The same values (memory layout is XLA's concern)."),
    "TensorMove": ("input", lambda input: input, "A copy of ``input`` (arrays are immutable: the same values)."),
    "Copy": ("input", lambda input: input, "A contiguous copy of ``input`` (arrays are immutable: the same values)."),
    "Max": ("input", lambda input: reduce.amax(input), "The maximum of all elements."),
    "Min": ("input", lambda input: reduce.amin(input), "The minimum of all elements."),
    "SiLU": ("input", activation.silu, "``x * sigmoid(x)``."),
    "SplitTensor": ("input split_size dim=0", array_joining.split, "Split into pieces of ``split_size``."),
    "SplitWithSize": ("input split_size dim=0", array_joining.split, "Split into pieces of the given sizes."),
    "Chunk": ("input chunks dim=0", array_joining.chunk, "Split into ``chunks`` pieces."),
    "Narrow": ("input dim start length", slicing.narrow, "``length`` elements from ``start`` along ``dim``."),
    "View": ("input shape", array.reshape, "``input`` with another shape."),
    "ExpandDimsView": ("input dim", array.expand_dims, "Insert a dimension of size 1."),
    "BroadcastToView": ("input shape", array.broadcast_to, "Broadcast to ``shape``."),
    "IndexSelect": ("input dim index", indexing.index_select, "Select ``index`` entries along ``dim``."),
    "Norm": ("input p=2.0 dim=None keepdim=False dtype=None",
             lambda input, p=2.0, dim=None, keepdim=False, dtype=None: norms.vector_norm(
                 input, p, dim, keepdim, dtype=dtype), "The ``p``-norm over ``dim`` (all when None)."),
    "LinalgVectorNorm": ("x ord=2 dim=None keepdim=False dtype=None",
                         lambda x, ord=2, dim=None, keepdim=False, dtype=None: norms.vector_norm(
                             x, ord, dim, keepdim, dtype=dtype), "The vector ``ord``-norm over ``dim``."),
    "FullLike": ("input fill_value dtype=None",
                 lambda input, fill_value, dtype=None: creation.full_like(input, fill_value, dtype=dtype),
                 "A Tensor like ``input`` filled with ``fill_value``."),
}
# MindSpore's ``*View`` Primitives share memory with their input; arrays are immutable here, so each is its op.
_TABLE.update({view: _TABLE[view[:-len("View")]] for view in ("SplitTensorView", "SplitWithSizeView", "ChunkView",
                                                           "NarrowView")})


def _cast(value, dtype):
    return value if dtype is None else value.astype(dtype)


def _make(name, spec, function, summary):
    parameters = []
    for item in spec.split():
        argument, _, default = item.partition("=")
        parameters.append(inspect.Parameter(argument, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                            default=eval(default) if default else inspect.Parameter.empty))

    def __init__(self):
        Primitive.__init__(self, name)

    def __call__(self, *args, **kwargs):
        return function(*args, **kwargs)

    __call__.__signature__ = inspect.Signature([inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
                                                *parameters])
    inputs = "\n".join(f"        - **{parameter.name}**" for parameter in parameters)
    doc = f"{summary}\n\n    Inputs:\n{inputs}\n\n    Outputs:\n        Tensor.\n"
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


for _name, (_spec, _function, _summary) in _TABLE.items():
    globals()[_name] = _make(_name, _spec, _function, _summary)
__all__ = list(_TABLE)
