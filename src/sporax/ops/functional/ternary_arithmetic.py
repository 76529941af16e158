"""Element-wise ops of three or four operands: ``ops.lerp``, ``ops.addcmul``, ``ops.addcdiv``.

Entries of rule ``PROMOTED`` (every Tensor-or-number operand promoted together) or ``FLOAT`` (``lerp``), with
MindSpore 2.10's type checks as their ``value_check``; faces are generated from the op table as for ``arithmetic.py``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.lerp(Tensor(np.zeros(2, np.float32)), Tensor(np.ones(2, np.float32)), 0.25))
    [0.25 0.25]
"""
import jax
import jax.numpy as jnp

from sporax.core.dtype import from_numpy_dtype
from sporax.ops.face_inputs import accepting
from sporax.ops.op_table import FLOAT, PROMOTED, op, spelling
from sporax.ops.samples import mixed_operands, without


_THREE_SHAPES = [((3, 4), (3, 4), (3, 4)), ((3, 4), (4,), ()), ((7,), (7,), 0.25)]


# MindSpore 2.10's Lerp: ``input`` and ``end`` Tensors of one dtype, Float16, Float32 or BFloat16 (its messages name
# either input ``start``); ``weight`` a float or a float Tensor of any width, the result in the inputs' dtype.
_LERP_INPUT = accepting(("Float16", "Float32", "BFloat16"),
                        "For primitive[Lerp], the input[start] supports types: Float16, Float32, BFloat16. But got {got}.")


def _check_lerp(input, end, weight):
    if input.dtype != end.dtype:
        raise TypeError(f"For primitive[Lerp], the input[tensors] elements should have same type, but got: "
                        f"{from_numpy_dtype(input.dtype)}, {from_numpy_dtype(end.dtype)}.\nFor 'lerp', 'input' and "
                        "'end' must have one dtype: cast one of them, e.g. end.astype(input.dtype).")


@op(inputs=("input", "end", "weight"), dtypes=FLOAT, primitive="Lerp", method="lerp", mint="lerp",
    input_dtypes={"input": _LERP_INPUT, "end": _LERP_INPUT}, scalars=("weight",), value_check=_check_lerp,
    samples=without(("float64",), mixed_operands((-4.0, 4.0), (-4.0, 4.0), (0.0, 1.0), rows=_THREE_SHAPES)),
    reference=lambda input, end, weight: input + weight * (end - input))
def lerp(input, end, weight):
    """Return ``input + weight * (end - input)`` in the dtype of ``input`` and ``end`` (one dtype: Float16,
    Float32 or BFloat16, as MindSpore 2.10's Lerp; ``weight`` a float or a float Tensor)."""
    return (input + weight * (end - input)).astype(input.dtype)


_WITH_VALUE = [((3, 4), (3, 4), (3, 4), (3, 4)), ((3, 4), (4,), (3, 1), ()), ((3, 4), (3, 4), (4,), 0.5),
               ((7,), (7,), (7,), 2)]


@op(mint=spelling("addcmul", "input, tensor1, tensor2, *, value=1"),
    inputs=("input", "tensor1", "tensor2", "value"), dtypes=PROMOTED, primitive="Addcmul", method="addcmul",
    samples=mixed_operands((-4.0, 4.0), (-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0), rows=_WITH_VALUE),
    reference=lambda input, tensor1, tensor2, value=1: input + value * tensor1 * tensor2)
def addcmul(input, tensor1, tensor2, value=1):
    """Return ``input + value * tensor1 * tensor2``."""
    return input + value * tensor1 * tensor2


_ADDCDIV_DTYPES = ("Float16", "Float32", "Float64", "Int64")


def _check_addcdiv(*operands):
    # MindSpore 2.10's Addcdiv takes Float16/32/64 and Int64 Tensors (a Tensor ``value`` may be Int32); its Tensor
    # method and mint.addcdiv (AddcdivExt) have no CPU kernel there, and refuse too here
    for argument, operand in zip(("input", "tensor1", "tensor2"), operands):
        got = str(from_numpy_dtype(operand.dtype)) if hasattr(operand, "dtype") else None
        if got is not None and got not in _ADDCDIV_DTYPES:
            allowed = ", ".join(f"Tensor[{name}]" for name in _ADDCDIV_DTYPES)
            raise TypeError(f"For primitive[Addcdiv], the input argument[{argument}] must be a type of {{{allowed}}}, "
                            f"but got Tensor[{got}].")


@op(inputs=("input", "tensor1", "tensor2", "value"), dtypes=PROMOTED, primitive="Addcdiv",
    method="addcdiv", mint="addcdiv", value_check=_check_addcdiv,
    samples=without(("bfloat16",), mixed_operands((-4.0, 4.0), (-2.0, 2.0), (0.5, 2.0), (-2.0, 2.0), rows=_WITH_VALUE)),
    reference=lambda input, tensor1, tensor2, value=1: input + value * tensor1 / tensor2)
def addcdiv(input, tensor1, tensor2, value=1):
    """Return ``input + value * tensor1 / tensor2``: integers keep their dtype, ``value * tensor1`` divided by
    ``tensor2`` truncating toward zero (MindSpore's Addcdiv on Int64). Tensors of Float16/32/64 or Int64 (Int32, Bool: its TypeError)."""
    dtype = jnp.result_type(input, tensor1, tensor2, value)
    if dtype.kind in "iu":
        input, tensor1, tensor2, value = (jnp.asarray(operand, dtype) for operand in (input, tensor1, tensor2, value))
        return input + jax.lax.div(*jnp.broadcast_arrays(value * tensor1, tensor2))
    return input + value * (tensor1 / tensor2)
