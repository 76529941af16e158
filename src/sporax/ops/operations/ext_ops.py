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
                                   dropouts, indexing, linalg, normalization, norms, order_statistics, reduce, scans, scatters, slicing,
                                   sorting)
from sporax.ops.faces import primitive_class
from sporax.ops.primitive import Primitive
from sporax.state.assign import write


def _with_alpha(function):
    return lambda input, other, alpha=1: function(input, other if alpha == 1 else arithmetic.mul(other, alpha))


def _scatter(input, dim, index, src, reduce="none"):
    if not isinstance(reduce, str):
        raise TypeError(f"For 'Scatter', the input 'reduce' should be a str, but got {type(reduce)}.")
    if reduce == "none":
        return scatters.scatter(input, dim, index, src)
    if reduce not in ("add", "multiply"):
        raise ValueError(f"For 'Scatter', 'reduce' must be 'none', 'add' or 'multiply', but got {reduce!r}.")
    return scatters.tensor_scatter_elements(input, index, src, dim, reduce)


def _inplace_copy(input, src, non_blocking=False):
    # ``non_blocking`` only matters for host/device copies; values land before the next read either way.
    return write(input, src, "InplaceCopy")


def _slice_ext(input, dim, start, end, step):
    axis = dim % input.ndim if -input.ndim <= dim < input.ndim else dim
    if not 0 <= axis < input.ndim:
        raise ValueError(f"For 'SliceExt', 'dim' must be in [{-input.ndim}, {input.ndim}), but got {dim}.")
    return input[(slice(None),) * axis + (slice(start, end, step),)]


def _group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    # MindSpore's GroupNorm Primitive (nn.GroupNorm's kernel, in its MindIR files) also answers each group's
    # mean and 1 / sqrt(variance + eps), shape (N, num_groups)
    groups = input.reshape(input.shape[0], num_groups, -1).astype("float32")
    mean = groups.mean(-1)
    variance = (groups - mean.expand_dims(-1)).square().mean(-1)
    return (normalization.group_norm(input, num_groups, weight, bias, eps), mean.astype(input.dtype),
            (variance + eps).rsqrt().astype(input.dtype))


def _grouped_matmul(x, weight, bias=None, scale=None, offset=None, antiquant_scale=None, antiquant_offset=None,
                    group_list=None, split_item=0, group_type=-1, transpose_a=False, transpose_b=False):
    quantised = [name for name, value in (("scale", scale), ("offset", offset), ("antiquant_scale", antiquant_scale),
                                          ("antiquant_offset", antiquant_offset)) if value is not None]
    if quantised or transpose_a or group_type not in (-1, 0) or (group_type == 0 and split_item not in (2, 3)):
        raise NotImplementedError(
            f"GroupedMatmul: {'quantised inputs ' + str(quantised) if quantised else 'this form'} (group_type="
            f"{group_type}, split_item={split_item}, transpose_a={transpose_a}) runs on Ascend only in MindSpore "
            "2.10; sporax computes the float forms group_type=-1 (pairwise) and group_type=0 with split_item 2 or 3.")
    weight = [array.swapaxes(w, -1, -2) if transpose_b else w for w in weight]
    if group_type == -1:  # one product per (x, weight) pair
        outputs = [linalg.matmul(a, w) for a, w in zip(x, weight)]
        if bias is not None:
            outputs = [out + b for out, b in zip(outputs, bias)]
        return [array_joining.concat(outputs, 0)] if split_item in (2, 3) else outputs
    # group_type 0: the rows of x are split among the experts; group_list holds each group's end row.
    rows = array_joining.concat(list(x), 0)
    weights = weight[0] if len(weight) == 1 else array_joining.stack(weight, 0)
    experts = weights.shape[0]
    ends = array.reshape(group_list, (-1,))
    expert = order_statistics.searchsorted(ends, creation.arange(rows.shape[0], dtype=ends.dtype), right=True)
    inside = expert < experts  # rows past the last group's end are zero, as on Ascend
    expert = indexing.where(inside, expert, experts - 1)
    out = linalg.bmm(array.expand_dims(rows, 1), indexing.gather(weights, expert, 0))[:, 0]
    if bias is not None:
        out = out + indexing.gather(bias[0] if len(bias) == 1 else array_joining.stack(bias, 0), expert, 0)
    return [indexing.where(array.expand_dims(inside, 1), out, creation.zeros_like(out))]


# name -> (inputs as "name" or "name=default" in MindSpore's order, function, summary); a spec
# "attributes ; inputs" names the ``__init__`` attributes before the ``;`` (``StackExt(dim=0)(tensors)``),
# which reach the function as keywords. MindSpore 2.10 registers the kernels of ``StackExt``, ``OneHotExt``,
# ``TopkExt``, ``CumsumExt``, ``SortExt``, ``DropoutExt`` and ``FmodScalar`` on Ascend only; here they run on every backend.
_TABLE = {
    "StackExt": ("dim=0 ; tensors", lambda tensors, dim=0: array_joining.stack(tensors, dim),
                 "Stack ``tensors`` along a new dimension ``dim``."),
    "OneHotExt": ("axis=-1 ; tensor num_classes on_value off_value",
                  lambda tensor, num_classes, on_value, off_value, axis=-1: indexing.one_hot(
                      tensor, num_classes, on_value, off_value, axis),
                  "One-hot vectors of ``num_classes`` along ``axis``."),
    "Scatter": ("input dim index src reduce='none'", _scatter,
                "``input`` with ``src`` written (or added, multiplied) at ``index`` along ``dim``."),
    "TopkExt": ("input k dim=-1 largest=True sorted=True", sorting.topk,
                "The ``k`` largest (or smallest) entries along ``dim`` and their indices."),
    "CumsumExt": ("input dim dtype=None", lambda input, dim, dtype=None: scans.cumsum(input, dim, dtype),
                  "Cumulative sum along ``dim``."),
    "SortExt": ("input dim=-1 descending=False stable=False",
                # XLA's sort is stable, so ``stable`` changes nothing.
                lambda input, dim=-1, descending=False, stable=False: sorting.sort(input, dim, descending),
                "Sorted values along ``dim`` and their indices."),
    "GroupedMatmul": ("split_item=0 group_type=-1 transpose_a=False transpose_b=False ; x weight bias=None scale=None "
                      "offset=None antiquant_scale=None antiquant_offset=None group_list=None", _grouped_matmul,
                      "Matrix products of groups: each ``x[i] @ weight[i]`` (group_type -1), or the rows of ``x`` "
                      "split at the ends in ``group_list``, group ``e`` times ``weight[e]`` (group_type 0)."),
    # mindformers' parallel-core Dropout builds it at construction; MindSpore 2.10 runs it on Ascend only.
    "DropoutExt": ("input p seed offset", dropouts.dropout_ext,
                   "Dropout keyed by ``seed`` and ``offset``; returns (output, UInt8 bit mask of the kept elements)."),
    "InplaceCopy": ("input src non_blocking=False", _inplace_copy,
                    "Store ``src`` (broadcast, cast to ``input``'s dtype) into ``input``; returns ``input``."),
    "FmodScalar": ("input other", arithmetic.fmod, "Remainder of ``input / other`` with the sign of ``input``."),
    "FmodTensor": ("input other", arithmetic.fmod, "Remainder of ``input / other`` with the sign of ``input``."),
    # ``Tensor.__mod__`` and ``ops.remainder`` export as these in MindSpore 2.10's MindIR.
    "RemainderTensorScalar": ("input other", arithmetic.remainder,
                              "Remainder of floor division by a scalar: the sign of ``other``."),
    "RemainderTensorTensor": ("input other", arithmetic.remainder,
                              "Remainder of floor division: the sign of ``other``."),
    "RemainderScalarTensor": ("input other", arithmetic.remainder,
                              "Remainder of a scalar's floor division by a Tensor: the sign of ``other``."),
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
    "GroupNorm": ("input num_groups weight=None bias=None eps=1e-05", _group_norm,
                  "Group normalisation of (N, C, ...) over ``num_groups`` channel groups; returns (y, mean, rstd)."),
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
    "MaxDim": ("input dim keepdim=False", lambda input, dim, keepdim=False: reduce.max(input, dim, keepdim),
               "The maximum along ``dim`` and its index (Int64)."),
    "MinDim": ("input dim keepdim=False", lambda input, dim, keepdim=False: reduce.min(input, dim, keepdim),
               "The minimum along ``dim`` and its index (Int64)."),
    "NewOnes": ("input size dtype=None", lambda input, size, dtype=None: creation.ones(size, dtype or input.dtype),
                "Ones of ``size``, in ``input``'s dtype unless ``dtype``."),
    "NewZeros": ("input size dtype=None", lambda input, size, dtype=None: creation.zeros(size, dtype or input.dtype),
                 "Zeros of ``size``, in ``input``'s dtype unless ``dtype``."),
    "SliceExt": ("input dim start end step", _slice_ext,
                 "Every ``step``-th element of ``input`` from ``start`` to before ``end`` along ``dim``."),
    "FullLike": ("input fill_value dtype=None",
                 lambda input, fill_value, dtype=None: creation.full_like(input, fill_value, dtype=dtype),
                 "A Tensor like ``input`` filled with ``fill_value``."),
}
# MindSpore's ``*View`` Primitives share memory with their input; arrays are immutable here, so each is its op.
_TABLE.update({view: _TABLE[view[:-len("View")]] for view in ("SplitTensorView", "SplitWithSizeView", "ChunkView",
                                                           "NarrowView", "SliceExtView")})


def _cast(value, dtype):
    return value if dtype is None else value.astype(dtype)


def spec_parameters(spec):
    """``inspect.Parameter``s of a row's spec: ``"name"`` or ``"name=default"`` items."""
    parameters = []
    for item in spec.split():
        argument, _, default = item.partition("=")
        parameters.append(inspect.Parameter(argument, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                            default=eval(default) if default else inspect.Parameter.empty))
    return parameters


def row_primitive(name, spec, function, summary, module=__name__):
    """A Primitive class from one table row: ``"attributes ; inputs"`` (``"axis=None ; x clip_norm"``), the
    function its call runs, and its docstring summary."""
    attribute_spec, _, input_spec = spec.rpartition(";")
    attributes, parameters = spec_parameters(attribute_spec), spec_parameters(input_spec)

    def __init__(self, *values, **settings):
        Primitive.__init__(self, name)
        bound = init_signature.bind(self, *values, **settings)
        bound.apply_defaults()
        for attribute in attributes:
            value = bound.arguments[attribute.name]
            setattr(self, attribute.name, value)
            self.add_prim_attr(attribute.name, value)

    def __call__(self, *args, **kwargs):
        return function(*args, **kwargs, **{attribute.name: getattr(self, attribute.name) for attribute in attributes})

    self_parameter = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    init_signature = inspect.Signature([self_parameter, *attributes])
    __init__.__signature__ = init_signature
    __call__.__signature__ = inspect.Signature([self_parameter, *parameters])
    inputs = "\n".join(f"        - **{parameter.name}**" for parameter in parameters)
    args = "".join(f"        {attribute.name} (default {attribute.default!r}).\n" for attribute in attributes)
    doc = (f"{summary}\n\n" + (f"    Args:\n{args}\n" if attributes else "")
           + f"    Inputs:\n{inputs}\n\n    Outputs:\n        Tensor.\n")
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": module})


for _name, (_spec, _function, _summary) in _TABLE.items():
    globals()[_name] = row_primitive(_name, _spec, _function, _summary)
# Primitives of op-table entries (their Ascend-only kernels in MindSpore 2.10 are noted at the entries).
Swiglu = primitive_class(activation.swiglu.entry, __name__)
Outer = primitive_class(linalg.outer.entry, __name__)
__all__ = [*_TABLE, "Swiglu", "Outer"]
