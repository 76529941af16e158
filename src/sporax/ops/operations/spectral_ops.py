"""Primitive classes of the spectral windows (``BartlettWindow``, ``BlackmanWindow``, ``HammingWindow``) and
``FFTWithSize``.

Example:
    >>> from sporax import Tensor, ops
    >>> [round(float(v), 2) for v in ops.HammingWindow(periodic=False)(Tensor([3])).asnumpy()]
    [0.08, 1.0, 0.08]
"""
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops import functional
from sporax.ops._dispatch import array_of, describe
from sporax.ops.functional import windows
from sporax.ops.functional.fft import fftn, ifftn, irfftn
from sporax.ops.functional.real_fft import rfftn
from sporax.ops.operations.decomposition_ops import _check_bool
from sporax.ops.primitive import Primitive, prim_attr_register


def _window_length(op_name, value):
    if isinstance(value, Tensor):
        if value.size != 1 or value._value.dtype.kind not in "iu":
            raise ValueError(f"For '{op_name}', 'window_length' must be a one-element int Tensor, but got "
                             f"{describe(value)}.")
        return int(value.asnumpy().reshape(-1)[0])
    return value


class BartlettWindow(Primitive):
    """The Bartlett window of ``window_length`` points (an int Tensor).

    Args:
        periodic (bool): Default: True. dtype (mindspore.dtype): Float16, Float32 or Float64. Default: Float32.
    """

    @prim_attr_register
    def __init__(self, periodic=True, dtype=mstype.float32):
        _check_bool(type(self).__name__, periodic=periodic)
        self.periodic, self.dtype = periodic, dtype

    def __call__(self, window_length):
        return windows.bartlett_window(_window_length(self.name, window_length), self.periodic, dtype=self.dtype)


class BlackmanWindow(BartlettWindow):
    """The Blackman window of ``window_length`` points (an int Tensor)."""

    def __call__(self, window_length):
        return windows.blackman_window(_window_length(self.name, window_length), self.periodic, dtype=self.dtype)


class HammingWindow(Primitive):
    """The generalized Hamming window ``alpha - beta cos(2 pi n / N)`` of ``length`` points.

    Args:
        periodic (bool): Default: True. alpha (float): Default: 0.54. beta (float): Default: 0.46.
        dtype (mindspore.dtype): Default: Float32.
    """

    @prim_attr_register
    def __init__(self, periodic=True, alpha=0.54, beta=0.46, dtype=mstype.float32):
        _check_bool("HammingWindow", periodic=periodic)
        self.periodic, self.alpha, self.beta, self.dtype = periodic, alpha, beta, dtype

    def __call__(self, length):
        return windows.hamming_window(_window_length(self.name, length), self.periodic, self.alpha, self.beta,
                                      dtype=self.dtype)


class FFTWithSize(Primitive):
    """The complex, real (``rfft``-style) or inverse FFT over the last ``signal_ndim`` (1 to 3) axes.

    Args:
        signal_ndim (int): 1, 2 or 3. inverse (bool): the inverse transform. real (bool): a real input
            (forward) or real output (inverse). norm (str): 'backward', 'forward' or 'ortho'.
        onesided (bool): real transforms keep half the last axis. Default: True.
        signal_sizes (tuple[int]): the output sizes of an inverse real one-sided transform. Default: ().
    """

    @prim_attr_register
    def __init__(self, signal_ndim, inverse, real, norm="backward", onesided=True, signal_sizes=()):
        if signal_ndim not in (1, 2, 3):
            raise ValueError(f"For 'FFTWithSize', 'signal_ndim' must be 1, 2 or 3, but got {signal_ndim!r}.")
        _check_bool("FFTWithSize", inverse=inverse, real=real, onesided=onesided)
        if norm not in ("backward", "forward", "ortho"):
            raise ValueError(f"For 'FFTWithSize', 'norm' must be 'backward', 'forward' or 'ortho', but got {norm!r}.")
        self.signal_ndim, self.inverse, self.real = signal_ndim, inverse, real
        self.norm, self.onesided, self.signal_sizes = norm, onesided, tuple(signal_sizes)

    def __call__(self, x):
        array = array_of(self.name, "x", x)
        if array.ndim < self.signal_ndim:
            raise ValueError(f"For '{self.name}', 'x' needs at least {self.signal_ndim} dimensions, but got "
                             f"{array.ndim}.")
        axes = tuple(range(array.ndim - self.signal_ndim, array.ndim))
        if self.real and self.inverse:
            if self.onesided:
                return irfftn(x, self.signal_sizes or None, axes, self.norm)
            return functional.real(ifftn(x, None, axes, self.norm))
        if self.real and self.onesided:
            return rfftn(x, None, axes, self.norm)
        return (ifftn if self.inverse else fftn)(x, None, axes, self.norm)
