"""Wide 2-d convolutions of NHWC data through oneDNN's CPU convolution primitives (XLA FFI).

Contract: ``conv(array, weight, strides, pads)`` equals ``conv_nhwc_cpu.conv_channels_last``: XLA's
convolution of an NHWC float32 ``array`` with an OIHW ``weight``, one group, no dilation, explicit
``(low, high)`` ``pads``, giving NHWC; in value and in reverse-mode derivatives of any order within
float32 rounding (oneDNN sums in its own order). First derivatives are oneDNN's backward-data and
backward-weights primitives, in one call that runs them side by side where oneDNN's team has two
threads and AVX-512 kernels; on AVX2 kernels a window wider than 1x1 has its weight gradient as a
GEMM over the batch's windows instead (``conv_onednn.cc``); derivatives of those come from XLA's
convolution (``_reference``).
Forward mode is not defined (``jax.custom_vjp``): sporax's forward-mode APIs trace under
``plain_lowering()``. ``available()``: ``onednn.library()`` is there (built here, not switched
off); ``applies(...)`` also needs a non-empty result.

Algorithm: ``conv_onednn.cc`` creates oneDNN's forward, backward-data and backward-weights
primitives once per shape, on NHWC data with the weights in whatever blocked layout oneDNN picks;
each call reorders the OIHW weights (or the weight gradient back to OIHW), so XLA sees no layout
transposes around the convolution at all (with XLA's convolution: the OIHW -> HWIO weights, the
flipped kernel of the input gradient, and the (C, H, W, N) / (Ho, Wo, N, O) operands of the weight
gradient). The library makes a shape's primitives ahead of its first call, on ``onednn.in_background``'s
thread, as soon as a call with that shape is traced (``prepare``): a program's first run then finds them made.
"""
import ctypes
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.core.product_precision import conv_precision
from sporax.ops.lowering import onednn

_FORWARD, _BACKWARD = "sporax_onednn_conv_forward", "sporax_onednn_conv_backward"
_DIMENSIONS = ("NHWC", "OIHW", "NHWC")


def available():
    """Whether the oneDNN convolution kernels can run here (built and loaded on the first call)."""
    return onednn.library() is not None


def _output_shape(array_shape, weight_shape, strides, pads):
    batch, height, width, _ = array_shape
    rows = (height + pads[0][0] + pads[0][1] - weight_shape[2]) // strides[0] + 1
    columns = (width + pads[1][0] + pads[1][1] - weight_shape[3]) // strides[1] + 1
    return batch, rows, columns, weight_shape[0]


def applies(array, weight, strides, pads):
    """Whether ``conv`` takes this NHWC convolution: the kernels are available and nothing is empty
    (XLA gives an empty result where the window does not fit; oneDNN has no empty primitive)."""
    return (available() and array.size > 0 and weight.size > 0
            and min(_output_shape(array.shape, weight.shape, strides, pads)) > 0)


def _reference(array, weight, strides, pads):
    return lax.conv_general_dilated(array, weight, strides, pads, dimension_numbers=_DIMENSIONS,
                                    precision=conv_precision())


@functools.lru_cache(maxsize=None)
def _convolution(strides, pads):
    """The custom-VJP convolution for these static ``strides`` and ``pads``."""
    attributes = dict(stride_h=np.int64(strides[0]), stride_w=np.int64(strides[1]),
                      pad_top=np.int64(pads[0][0]), pad_bottom=np.int64(pads[0][1]),
                      pad_left=np.int64(pads[1][0]), pad_right=np.int64(pads[1][1]))

    def call(target, shapes, *operands):
        results = [jax.ShapeDtypeStruct(shape, jnp.float32) for shape in shapes]
        return jax.ffi.ffi_call(target, results, vmap_method="sequential")(*operands, **attributes)

    def reference(array, weight):
        return _reference(array, weight, strides, pads)

    forward = onednn.with_reference_derivatives(
        lambda array, weight: call(_FORWARD, [_output_shape(array.shape, weight.shape, strides, pads)], array,
                                   weight)[0],
        reference)
    # One call for both gradients: the kernel runs them side by side (conv_onednn.cc). Where the array's
    # gradient is not needed (a network's first layer) it is computed all the same.
    gradients = onednn.with_reference_derivatives(
        lambda array, weight, gradient: tuple(call(_BACKWARD, [array.shape, weight.shape], array, weight,
                                                   gradient)),
        lambda array, weight, gradient: jax.vjp(reference, array, weight)[1](gradient))

    @jax.custom_vjp
    def convolution(array, weight):
        return forward(array, weight)

    convolution.defvjp(lambda array, weight: (forward(array, weight), (array, weight)),
                       lambda saved, gradient: gradients(*saved, gradient))
    return convolution


_prepared = set()  # the shapes handed to the preparation thread in this process


def _prepare(key):
    """Make the primitives of ``key`` (``conv_onednn.cc``'s ``MakeKey`` order) now: 1 where they are new, 0 where
    they were made before, -1 where oneDNN failed (left to the first call, which reports it)."""
    return onednn.library().SporaxConvPrepare((ctypes.c_int64 * len(key))(*key), 1)


def prepare(array_shape, weight_shape, strides, pads):
    """Start making this convolution's oneDNN primitives in the background (``onednn.in_background``).

    Called when a call is traced: the primitives of the program's convolutions are then made while the
    rest of the step is traced and XLA compiles it, instead of in the program's first run. A shape seen
    before is not prepared again (the library keeps its primitives for the process's life). Returns the
    shape's key (``_prepare``'s), or None where a dimension is symbolic.
    """
    batch, height, width, channels = array_shape
    outputs, _, rows, columns = weight_shape
    key = (batch, channels, height, width, outputs, rows, columns, *strides, *pads[0], *pads[1])
    if not all(isinstance(size, (int, np.integer)) for size in key):
        return None  # a symbolic dimension (jax.export): the first call makes the primitives
    key = tuple(int(size) for size in key)
    if key not in _prepared:
        _prepared.add(key)
        onednn.in_background(_prepare, key)
    return key


def conv(array, weight, strides, pads):
    """NHWC x OIHW convolution with explicit ``pads``, through oneDNN (see the module's contract)."""
    strides, pads = tuple(strides), tuple(tuple(pair) for pair in pads)
    prepare(array.shape, weight.shape, strides, pads)
    return _convolution(strides, pads)(array, weight)
