"""sporax: MindSpore's Python programming model on JAX/XLA.

This package is the top-level ``mindspore`` surface: ``import mindspore as ms`` under
``sporax run`` (or after ``sporax.compat.install()``) gives these very objects.
"""
from sporax.core import dtype
from sporax.core.dtype import (
    QuantDtype, Type, TensorType, bfloat16, bool_, byte, cdouble, cfloat, complex64, complex128,
    double, dtype_to_nptype, dtype_to_pytype, float8_e4m3fn, float8_e5m2, float16, float32,
    float64, float_, get_py_obj_dtype, half, hifloat8, int8, int16, int32, int64, int_, intc, intp,
    list_, long, number, pytype_to_dtype, qint4x2, short, single, string, tensor_type, tuple_,
    type_none, ubyte, uint, uint8, uint16, uint32, uint64, uintc, uintp, ushort,
)
from sporax.core.random_state import get_seed, set_seed
from sporax.core.tensor import Tensor, from_numpy, tensor

__version__ = "0.1.0"
