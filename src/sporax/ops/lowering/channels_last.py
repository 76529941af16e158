"""Activations that stay in NHWC between wide convolutions while a network is traced on CPU.

Contract: while a step is traced (GRAPH mode, ``ms.jit``, or a gradient in PyNative) with the
fast ``conv`` lowering on, a Tensor made by ``nn.Conv2d`` from a convolution that
``conv_nhwc_cpu`` takes, or from a few-channel stem that ``conv_cpu`` takes with at least 16
output channels, carries, beside its NCHW array, the same values in NHWC:
``nhwc_of(tensor)``. ``nn.BatchNorm2d``, the position-wise activation Cells (``nn.ReLU``,
``nn.GELU``, ...), ``Tensor + Tensor`` of two such Tensors and the next ``nn.Conv2d`` read that
form and give channels-last results; every other op reads the NCHW array. Values, gradients and
BatchNorm's moving statistics are those of the NCHW computation (within float32 rounding: the
reductions run in another order). Outside a trace (eager PyNative) nothing changes.

Algorithm: ``conv_nhwc_cpu`` runs a wide convolution in NHWC between two transposes. In a
ResNet block those transposes, and the batch-norm/ReLU/residual chains XLA fuses into them, cost
a sixth of the train step (``benchmarks/suite_models.py``'s ResNet-18 b32, sporax GRAPH, 2-core
AMD EPYC, runs alternated: 454-474 -> 373-401 ms with them gone). So the convolution's NHWC
output is kept in a slot of the Tensor (``Tensor._channels_last``: the pair
``(nchw_array, nhwc_array)``) and the layer ops above continue in NHWC. The NCHW array is still
the Tensor's value, as the transpose of the NHWC one: in a trace it is a graph node that XLA
drops when nothing reads it. The slot is trusted only while the Tensor still holds the array it
was made with, so an in-place update (``set_data``, ``x[...] = v``, ``add_``) falls back to NCHW.
"""
import jax

from sporax.core.tensor import Tensor


def nhwc_of(value):
    """The NHWC array ``value`` carries, or None (not a Tensor, no slot, or updated in place)."""
    pair = getattr(value, "_channels_last", None)
    if pair is None or pair[0] is not value._array:
        return None
    return pair[1]


def wrap(nhwc):
    """A Tensor whose value is ``nhwc`` as NCHW, carrying ``nhwc`` itself."""
    tensor = Tensor._wrap(nhwc.transpose(0, 3, 1, 2))
    tensor._channels_last = (tensor._array, nhwc)
    return tensor


def traced(array):
    """Whether ``array`` is being traced (eager PyNative keeps plain NCHW: one array per op)."""
    return isinstance(array, jax.core.Tracer)
