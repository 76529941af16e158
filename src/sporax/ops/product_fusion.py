"""MindSpore's graph compiler fuses ``MatMul`` and the ``BiasAdd`` that takes its output into one kernel.

On half-precision inputs the fused kernel adds the bias (in the input's dtype) to the Float32 product and
rounds once; PyNative runs the two ops and rounds the product, then the sum (MindSpore 2.10, recorded on
CPU: a Float16 ``P.MatMul(transpose_b=True)`` then ``P.BiasAdd``). sporax traces op by op, so while a graph
is built ``MatMul`` remembers the operands of each half-precision product it returns, and ``BiasAdd`` given
that very Tensor recomputes the product in Float32 and rounds the sum once (the rounded product it no longer
reads is dead code to XLA).
"""
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of
from sporax.state.scope import graph_constant_cache, in_compiled_trace

HALF_DTYPES = (mstype.float16, mstype.bfloat16)


def remember_half_product(output, input, mat2, transpose_a, transpose_b):
    """Note that ``output`` is ``MatMul(transpose_a, transpose_b)(input, mat2)`` (only while a graph is built)."""
    if in_compiled_trace():
        products = graph_constant_cache("fusion")
        products[id(output)] = (output, input, mat2, transpose_a, transpose_b)


def bias_added_to_half_product(input_x, bias):
    """``BiasAdd(input_x, bias)`` as the fused kernel computes it when ``input_x`` is a product ``MatMul``
    returned in the graph being built; None otherwise (the caller adds the bias itself)."""
    if not in_compiled_trace() or not isinstance(input_x, Tensor) or input_x.dtype not in HALF_DTYPES:
        return None
    record = graph_constant_cache("fusion").get(id(input_x))
    if record is None or record[0] is not input_x:
        return None
    _, input, mat2, transpose_a, transpose_b = record
    first = array_of("MatMul", "input", input)
    second = array_of("MatMul", "mat2", mat2)
    if first.dtype != second.dtype:
        return None
    first = jnp.swapaxes(first, -1, -2) if transpose_a else first
    second = jnp.swapaxes(second, -1, -2) if transpose_b else second
    half = first.dtype
    product = jnp.matmul(first, second, preferred_element_type=jnp.float32)
    bias_array = array_of("BiasAdd", "bias", bias).astype(half).astype(jnp.float32)
    if bias_array.ndim != 1 or bias_array.shape[0] != product.shape[1]:
        return None  # functional.bias_add raises the error naming the shapes
    return Tensor._wrap((product + bias_array).astype(half))
