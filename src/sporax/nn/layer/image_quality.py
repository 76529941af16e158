"""Image-quality Cells of ``mindspore.nn``: ``PSNR`` and ``SSIM`` over (N, C, H, W) batches.

Both follow MindSpore 2.10: integer images are scaled to [0, 1] by their dtype's maximum (and
``max_val`` with them); float images are used as they are. SSIM convolves each channel with a
normalised ``filter_size`` Gaussian window (valid padding), averages the SSIM map over the
positions and then over the channels: one value per image.
"""
import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.core import validator
from sporax.core.product_precision import conv_precision
from sporax.core.tensor import Tensor, unwrap
from sporax.nn.cell import Cell


def _images(cell, name, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{cell}', '{name}' must be a Tensor, but got {type(value).__name__}.")
    array = unwrap(value)
    if array.ndim != 4:
        raise ValueError(f"For '{cell}', the dimension of '{name}' must be 4, but got {array.ndim}.")
    return array


def _pair(cell, img1, img2):
    first, second = _images(cell, "img1", img1), _images(cell, "img2", img2)
    if first.shape != second.shape or first.dtype != second.dtype:
        raise TypeError(f"For '{cell}', 'img1' and 'img2' must have the same shape and dtype, but got "
                        f"{first.shape} {first.dtype} and {second.shape} {second.dtype}.")
    return first, second


def _dtype_max(dtype):
    return float(np.iinfo(dtype).max) if jnp.issubdtype(dtype, jnp.integer) else 1.0


def _to_float(value, dtype_max):
    value = jnp.asarray(value, jnp.float32)
    return value / dtype_max if dtype_max > 1.0 else value


def _check_max_val(cell, max_val):
    validator.check_value_type("max_val", max_val, [int, float], cell)
    if max_val <= 0:
        raise ValueError(f"For '{cell}', 'max_val' must be greater than 0, but got {max_val}.")
    return max_val


class PSNR(Cell):
    """Peak signal-to-noise ratio ``10 * log10(max_val ** 2 / MSE)`` per image.

    Args:
        max_val (Union[int, float]): the dynamic range of the pixel values. Default: ``1.0``.

    Inputs:
        - **img1** (Tensor), **img2** (Tensor): (N, C, H, W), same shape and dtype.

    Outputs:
        Tensor: float32 of shape (N,).

    Example:
        >>> import numpy as np, sporax as ms
        >>> image = ms.Tensor(np.full((1, 1, 4, 4), 0.5, np.float32))
        >>> round(float(ms.nn.PSNR()(image, image * 0.5)[0]), 3)
        12.041
    """

    def __init__(self, max_val=1.0):
        super().__init__()
        self.max_val = _check_max_val("PSNR", max_val)

    def construct(self, img1, img2):
        first, second = _pair("PSNR", img1, img2)
        dtype_max = _dtype_max(first.dtype)
        max_val = _to_float(self.max_val, dtype_max)
        mse = jnp.mean(jnp.square(_to_float(first, dtype_max) - _to_float(second, dtype_max)), axis=(-3, -2, -1))
        return Tensor._wrap(10 * jnp.log(jnp.square(max_val) / mse) / jnp.log(10.0))


def _gaussian_window(size, sigma):
    grid = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float32) ** 2
    window = np.exp(-(grid[:, None] + grid[None, :]) / (2 * sigma ** 2))
    return (window / window.sum()).astype(np.float32)[None, None]


class SSIM(Cell):
    """Structural similarity of two image batches, one value per image.

    Args:
        max_val (Union[int, float]): the dynamic range of the pixel values. Default: ``1.0``.
        filter_size (int): side of the Gaussian window (>= 1, at most H and W). Default: ``11``.
        filter_sigma (float): standard deviation of the window. Default: ``1.5``.
        k1 (float): Default: ``0.01``. k2 (float): Default: ``0.03`` (the stabilising constants).

    Inputs:
        - **img1** (Tensor), **img2** (Tensor): float16/float32 (N, C, H, W), same shape.

    Outputs:
        Tensor: float32 of shape (N,).
    """

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        self.max_val = _check_max_val("SSIM", max_val)
        self.filter_size = validator.check_value_type("filter_size", filter_size, [int], "SSIM")
        if filter_size < 1:
            raise ValueError(f"For 'SSIM', 'filter_size' must be >= 1, but got {filter_size}.")
        self.filter_sigma = validator.check_positive_float(filter_sigma, "filter_sigma", "SSIM")
        self.k1 = validator.check_value_type("k1", k1, [float], "SSIM")
        self.k2 = validator.check_value_type("k2", k2, [float], "SSIM")
        self._window = _gaussian_window(filter_size, filter_sigma)

    def construct(self, img1, img2):
        first, second = _pair("SSIM", img1, img2)
        if first.dtype not in (jnp.float32, jnp.float16):
            raise TypeError(f"For 'SSIM', the dtype of 'img1' must be float32 or float16, but got {first.dtype}.")
        if min(first.shape[2:]) < self.filter_size:
            raise ValueError(f"For 'SSIM', the height and width of 'img1' must be >= filter_size "
                             f"({self.filter_size}), but got {first.shape[2:]}.")
        first, second = first.astype(jnp.float32), second.astype(jnp.float32)
        c1 = (self.k1 * self.max_val) ** 2
        c2 = (self.k2 * self.max_val) ** 2
        batch, channels, height, width = first.shape
        window = jnp.asarray(self._window)

        def blur(image):
            flat = image.reshape(batch * channels, 1, height, width)
            out = lax.conv_general_dilated(flat, window, (1, 1), "VALID", precision=conv_precision())
            return out.reshape(batch, channels, out.shape[2], out.shape[3])

        mu1, mu2 = blur(first), blur(second)
        sigma1 = blur(first * first) - mu1 * mu1
        sigma2 = blur(second * second) - mu2 * mu2
        sigma12 = blur(first * second) - mu1 * mu2
        ssim = ((2 * mu1 * mu2 + c1) * (2 * sigma12 + c2)) / ((mu1 * mu1 + mu2 * mu2 + c1) * (sigma1 + sigma2 + c2))
        return Tensor._wrap(jnp.mean(jnp.mean(ssim, axis=(2, 3)), axis=-1))


class ClipByNorm(Cell):
    """Scale ``x`` so that its L2 norm over ``axis`` is at most ``clip_norm``: ``x * clip_norm / max(norm, clip_norm)``.

    Args:
        axis (Union[None, int, tuple(int)]): the axes of the norm; None for all. Default: ``None``.

    Inputs:
        - **x** (Tensor) - float16/float32.
        - **clip_norm** (Tensor) - a positive scalar or a Tensor broadcastable to ``x``.

    Outputs:
        Tensor: float32, the shape of ``x``.
    """

    def __init__(self, axis=None):
        super().__init__()
        if axis is not None and not isinstance(axis, (int, tuple, list)):
            raise TypeError(f"For 'ClipByNorm', 'axis' must be None, an int or a tuple of ints, but got {axis!r}.")
        self.axis = tuple(axis) if isinstance(axis, list) else axis

    def construct(self, x, clip_norm):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'ClipByNorm', 'x' must be a Tensor, but got {type(x).__name__}.")
        values = unwrap(x).astype(jnp.float32)
        limit = jnp.asarray(unwrap(clip_norm), jnp.float32)
        norm = jnp.sqrt(jnp.sum(jnp.square(values), axis=self.axis, keepdims=True))
        return Tensor._wrap(values * limit / jnp.maximum(norm, limit))
