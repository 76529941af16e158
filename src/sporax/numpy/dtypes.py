"""Dtype names and promotion of ``mindspore.numpy`` (MindSpore's dtype objects)."""
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.numpy.dispatch import numpy_dtype

bool_ = mstype.bool_
int8, int16, int32, int64 = mstype.int8, mstype.int16, mstype.int32, mstype.int64
uint8, uint16, uint32, uint64 = mstype.uint8, mstype.uint16, mstype.uint32, mstype.uint64
float16, float32, float64 = mstype.float16, mstype.float32, mstype.float64
int_, float_, uint = mstype.int32, mstype.float32, mstype.uint32
inf, nan, pi = float("inf"), float("nan"), 3.141592653589793
PINF, NINF = float("inf"), float("-inf")

__all__ = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
           "float64", "int_", "float_", "promote_types", "result_type"]


def promote_types(type1, type2):
    """The MindSpore dtype both ``type1`` and ``type2`` convert to safely.

    Example:
        >>> import sporax.numpy as mnp
        >>> mnp.promote_types(mnp.int32, mnp.float16)
        mindspore.float16
    """
    return mstype.from_numpy_dtype(jnp.promote_types(numpy_dtype(type1), numpy_dtype(type2)))


def result_type(*arrays_and_dtypes):
    """The MindSpore dtype of an operation on these Tensors, numbers and dtypes.

    Example:
        >>> import sporax.numpy as mnp
        >>> mnp.result_type(mnp.int32, 1.0)
        mindspore.float32
    """
    operands = []
    for item in arrays_and_dtypes:
        if isinstance(item, Tensor):
            operands.append(item._value)
        elif isinstance(item, mstype.Type):
            operands.append(numpy_dtype(item))
        else:
            operands.append(item)
    result = jnp.result_type(*operands)
    narrowed = {"float64": "float32", "int64": "int32"}.get(str(result)) if not any(
        str(getattr(o, "dtype", o)) in ("float64", "int64") for o in operands) else None
    return mstype.from_numpy_dtype(narrowed or result)
