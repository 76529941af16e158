"""``GaussianBlur``: a separable Gaussian filter over the spatial axes of an image."""
import numpy as np

from sporax.dataset.transforms.base import TensorOperation
from sporax.dataset.vision.color_math import saturate
from sporax.dataset.vision.utils import as_image, restore_like


def gaussian_kernel(size, sigma):
    """OpenCV's getGaussianKernel (sigma <= 0 derives it from the size)."""
    if sigma <= 0:
        sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8
    offsets = np.arange(size) - (size - 1) / 2.0
    kernel = np.exp(-(offsets ** 2) / (2 * sigma * sigma))
    return kernel / kernel.sum()


class GaussianBlur(TensorOperation):
    """Blur with a Gaussian kernel ``kernel_size`` (width, height; odd) and ``sigma`` (x, y)."""

    def __init__(self, kernel_size, sigma=None):
        sizes = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
        if len(sizes) != 2 or not all(isinstance(k, int) and k > 0 and k % 2 == 1 for k in sizes):
            raise ValueError(f"GaussianBlur: kernel_size must be positive odd ints, got {kernel_size!r}.")
        sigmas = (0.0, 0.0) if sigma is None else (sigma, sigma) if isinstance(sigma, (int, float)) else tuple(sigma)
        if len(sigmas) != 2 or any(s < 0 for s in sigmas):
            raise ValueError(f"GaussianBlur: sigma must be non-negative, got {sigma!r}.")
        self.kernel_size, self.sigma = sizes, sigmas

    def __call__(self, img):
        image = as_image("GaussianBlur", img)
        out = image.astype(np.float64)
        for axis, size, sigma in ((1, self.kernel_size[0], self.sigma[0]), (0, self.kernel_size[1], self.sigma[1])):
            kernel = gaussian_kernel(size, sigma if sigma > 0 else 0)
            radius = size // 2
            widths = [(0, 0)] * out.ndim
            widths[axis] = (radius, radius)
            padded = np.pad(out, widths, mode="reflect" if out.shape[axis] > radius else "symmetric")
            length = out.shape[axis]
            out = sum(weight * np.take(padded, np.arange(i, i + length), axis=axis) for i, weight in enumerate(kernel))
        return restore_like(saturate(out, image.dtype), img)
