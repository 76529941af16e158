"""``nn.MSSSIM``: multi-scale structural similarity (Wang, Simoncelli and Bovik, 2003).

At each of ``len(power_factors)`` scales the per-channel contrast-structure term ``cs`` is
averaged over positions; the images are then halved by a 2x2 average pool. The last scale
contributes the full SSIM instead of ``cs``. Each term is clipped at 0 (ReLU), raised to its
power factor, the powers are multiplied, and the product is averaged over the channels: one
value per image, as MindSpore 2.10 computes it.
"""
import jax.numpy as jnp
from jax import lax

from sporax.core import validator
from sporax.core.product_precision import conv_precision
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.image_quality import _check_max_val, _dtype_max, _gaussian_window, _pair, _to_float


class MSSSIM(Cell):
    """Multi-scale SSIM of two image batches, one value per image.

    Args:
        max_val (Union[int, float]): the dynamic range of the pixel values. Default: ``1.0``.
        power_factors (Union[tuple, list]): one weight per scale.
            Default: ``(0.0448, 0.2856, 0.3001, 0.2363, 0.1333)``.
        filter_size (int): side of the Gaussian window. Default: ``11``.
        filter_sigma (float): its standard deviation. Default: ``1.5``.
        k1 (float): Default: ``0.01``. k2 (float): Default: ``0.03`` (the stabilising constants).

    Inputs:
        - **img1** (Tensor), **img2** (Tensor): (N, C, H, W) of float64/float32/float16/uint8, same shape
          and dtype; H and W must stay >= ``filter_size`` at the coarsest scale.

    Outputs:
        Tensor: float32 of shape (N,).

    Example:
        >>> import numpy as np, sporax as ms
        >>> image = ms.Tensor(np.random.rand(1, 1, 16, 16).astype(np.float32))
        >>> msssim = ms.nn.MSSSIM(power_factors=(0.5, 0.5), filter_size=3)
        >>> round(float(msssim(image, image)[0]), 4)
        1.0
    """

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333), filter_size=11,
                 filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        self.max_val = _check_max_val("MSSSIM", max_val)
        validator.check_value_type("power_factors", power_factors, [tuple, list], "MSSSIM")
        validator.check_value_type("filter_size", filter_size, [int], "MSSSIM")
        if filter_size < 1:
            raise ValueError(f"For 'MSSSIM', 'filter_size' must be >= 1, but got {filter_size}.")
        self.filter_size = filter_size
        self.filter_sigma = validator.check_positive_float(filter_sigma, "filter_sigma", "MSSSIM")
        self.k1 = validator.check_value_type("k1", k1, [float], "MSSSIM")
        self.k2 = validator.check_value_type("k2", k2, [float], "MSSSIM")
        self.power_factors = tuple(float(value) for value in power_factors)
        self.level = len(power_factors)
        self._window = _gaussian_window(filter_size, filter_sigma)

    def construct(self, img1, img2):
        first, second = _pair("MSSSIM", img1, img2)
        if first.dtype not in (jnp.float64, jnp.float32, jnp.float16, jnp.uint8):
            raise TypeError(f"For 'MSSSIM', the dtype of 'img1' must be float64, float32, float16 or uint8, but got "
                            f"{first.dtype}.")
        smallest = min(first.shape[2:]) // (2 ** (self.level - 1))
        if smallest < self.filter_size:
            raise ValueError(f"For 'MSSSIM', the height and width of 'img1' {first.shape[2:]} are too small for "
                             f"{self.level} scales with filter_size {self.filter_size}: each scale halves them, and "
                             f"the coarsest must be >= filter_size. Use larger images, fewer power_factors or a "
                             "smaller filter_size.")
        dtype_max = _dtype_max(first.dtype)
        max_val = float(_to_float(self.max_val, dtype_max))
        first, second = _to_float(first, dtype_max), _to_float(second, dtype_max)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        window = jnp.asarray(self._window)
        terms = []
        for level in range(self.level):
            ssim, cs = _ssim_and_cs(first, second, window, c1, c2)
            terms.append(jnp.maximum(ssim if level == self.level - 1 else cs, 0.0))
            first, second = _halve(first), _halve(second)
        stacked = jnp.stack(terms, axis=-1) ** jnp.asarray(self.power_factors, jnp.float32)
        return Tensor._wrap(jnp.mean(jnp.prod(stacked, axis=-1), axis=-1))


def _ssim_and_cs(first, second, window, c1, c2):
    """Per (image, channel): the mean SSIM and the mean contrast-structure term over the valid positions."""
    batch, channels, height, width = first.shape

    def blur(image):
        out = lax.conv_general_dilated(image.reshape(batch * channels, 1, height, width), window, (1, 1), "VALID",
                                       precision=conv_precision())
        return out.reshape(batch, channels, out.shape[2], out.shape[3])

    mu1, mu2 = blur(first), blur(second)
    sigma1 = blur(first * first) - mu1 * mu1
    sigma2 = blur(second * second) - mu2 * mu2
    sigma12 = blur(first * second) - mu1 * mu2
    cs = (2 * sigma12 + c2) / (sigma1 + sigma2 + c2)
    ssim = (2 * mu1 * mu2 + c1) / (mu1 * mu1 + mu2 * mu2 + c1) * cs
    return jnp.mean(ssim, axis=(2, 3)), jnp.mean(cs, axis=(2, 3))


def _halve(image):
    """2x2 average pooling, stride 2, valid padding."""
    summed = lax.reduce_window(image, 0.0, lax.add, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
    return summed / 4.0
