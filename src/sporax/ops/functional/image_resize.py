"""Op-table entries behind image-resize Primitives that MindSpore gives no functional name (not exported by
``ops``): ``resize_area`` (``ResizeArea``: TensorFlow's area-weighted resize of NHWC images) and
``scale_and_translate`` (``ScaleAndTranslate``: TensorFlow's ``scale_and_translate``, which MindSpore 2.10
follows; its filters are described in ``sporax.ops.operations.scale_translate_ops``). Their sizes, scales and shifts are settings (Python values: the
Primitives read their Tensors once on the host) since they set the output's shape and the resampling weights.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.image_resize import resize_area
    >>> resize_area(Tensor(np.arange(4, dtype=np.float32).reshape(1, 2, 2, 1)), (1, 1)).asnumpy().ravel().tolist()
    [1.5]
"""

import math

import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import TO_FLOAT, Sample, op
from sporax.ops.samples import values


def _area_matrix(size_in, size_out, align_corners):
    """(size_out, size_in): the share of each input row in each output row."""
    scale = (size_in - 1) / (size_out - 1) if align_corners and size_out > 1 else size_in / size_out
    matrix = np.zeros((size_out, size_in))
    for o in range(size_out):
        start, stop = o * scale, (o + 1) * scale
        for i in range(int(np.floor(start)), int(np.ceil(stop))):
            # Past the edge TensorFlow reads the last row again.
            matrix[o, min(i, size_in - 1)] += max(0.0, min(stop, i + 1) - max(start, i))
        matrix[o] /= scale
    return matrix


def _numpy_resize_area(images, size, align_corners=False):
    images = np.asarray(images, np.float64)
    height, width = images.shape[1:3]
    scales = [(n - 1) / (o - 1) if align_corners and o > 1 else n / o for n, o in zip((height, width), size)]
    out = np.zeros((images.shape[0], size[0], size[1], images.shape[3]))
    for y in range(size[0]):
        for x in range(size[1]):
            total = 0.0
            for i in range(height + 1):  # one row past the edge: read as the last row
                row_share = max(0.0, min((y + 1) * scales[0], i + 1) - max(y * scales[0], i))
                for j in range(width + 1):
                    col_share = max(0.0, min((x + 1) * scales[1], j + 1) - max(x * scales[1], j))
                    total = total + row_share * col_share * images[:, min(i, height - 1), min(j, width - 1), :]
            out[:, y, x, :] = total / (scales[0] * scales[1])
    return out


def _area_samples(dtype):
    return [Sample((values((1, 4, 5, 2), dtype),), {"size": (3, 2)}),
            Sample((values((2, 3, 3, 1), dtype, seed=1),), {"size": (5, 2), "align_corners": True})]


@op(inputs="images", dtypes=TO_FLOAT, samples=_area_samples, reference=_numpy_resize_area, grad_check=False)
def resize_area(images, size, align_corners=False):
    """``ResizeArea``: each output pixel of NHWC ``images`` averages the input area it covers (Float32)."""
    if images.ndim != 4:
        raise ValueError(f"For 'ResizeArea', 'images' must be 4-D (N, H, W, C), but got {tuple(images.shape)}.")
    rows = jnp.asarray(_area_matrix(images.shape[1], size[0], align_corners), jnp.float32)
    cols = jnp.asarray(_area_matrix(images.shape[2], size[1], align_corners), jnp.float32)
    return jnp.einsum("oh,bhwc,pw->bopc", rows, images.astype(jnp.float32), cols)


# --- ScaleAndTranslate ----------------------------------------------------------------------------
def _lanczos(radius):
    def kernel(x):
        safe = np.where(x <= 1e-3, 1.0, x)
        value = radius * np.sin(math.pi * safe) * np.sin(math.pi * safe / radius) / (math.pi ** 2 * safe ** 2)
        return np.where(x > radius, 0.0, np.where(x <= 1e-3, 1.0, value))
    return kernel, float(radius)


def _cubic(a_far, b_far, c_far, d_far, a_near, b_near, d_near):
    def kernel(x):
        far = ((a_far * x + b_far) * x + c_far) * x + d_far
        near = (a_near * x + b_near) * x * x + d_near
        return np.where(x >= 2.0, 0.0, np.where(x >= 1.0, far, near))
    return kernel, 2.0


KERNELS = {
    "lanczos1": _lanczos(1), "lanczos3": _lanczos(3), "lanczos5": _lanczos(5),
    "gaussian": (lambda x: np.where(x >= 1.5, 0.0, np.exp(-x * x / (2 * 0.5 ** 2))), 1.5),
    "box": (lambda x: np.where(x < 0.5, 1.0, np.where(x == 0.5, 0.5, 0.0)), 1.0),
    "triangle": (lambda x: np.where(x < 1.0, 1.0 - x, 0.0), 1.0),
    "keyscubic": _cubic(-0.5, 2.5, -4.0, 2.0, 1.5, -2.5, 1.0),
    "mitchellcubic": _cubic(-7.0 / 18, 2.0, -10.0 / 3, 16.0 / 9, 7.0 / 6, -2.0, 8.0 / 9),
}


def _weights(kernel_type, antialias, input_size, output_size, scale, translation):
    """The (output_size, input_size) resampling matrix of one spatial dimension."""
    kernel, radius = KERNELS[kernel_type]
    kernel_scale = max(1.0 / scale, 1.0) if antialias else 1.0
    sample = (np.arange(output_size, dtype=np.float32) + 0.5 - translation) / scale
    start = np.clip(np.ceil(sample - radius * kernel_scale - 0.5), 0, input_size - 1)
    end = np.clip(np.floor(sample + radius * kernel_scale - 0.5), 0, input_size - 1) + 1
    source = np.arange(input_size, dtype=np.float32)
    in_span = (source[None, :] >= start[:, None]) & (source[None, :] < end[:, None])
    weights = kernel(np.abs((source[None, :] + 0.5 - sample[:, None]) / kernel_scale))
    weights = np.where(in_span & ((sample >= 0) & (sample <= input_size))[:, None], weights, 0.0)
    total = weights.sum(axis=1, keepdims=True)
    usable = np.abs(total) >= 1000 * np.finfo(np.float32).eps
    # the weights depend only on the sizes: computed on the host, once per call
    return np.where(usable, weights / np.where(usable, total, 1.0), weights).astype(np.float32)



def _numpy_scale_and_translate(images, size, scale, translation, kernel_type="lanczos3", antialias=True):
    """Each output pixel as the double sum of kernel-weighted input pixels, row weights times column weights."""
    images = np.asarray(images, np.float64)
    weights = [_weights(kernel_type, antialias, images.shape[axis], size[index], scale[index], translation[index])
               for index, axis in ((0, 1), (1, 2))]
    out = np.zeros((images.shape[0], size[0], size[1], images.shape[3]))
    for y in range(size[0]):
        for x in range(size[1]):
            for i in range(images.shape[1]):
                for j in range(images.shape[2]):
                    out[:, y, x, :] += weights[0][y, i] * weights[1][x, j] * images[:, i, j, :]
    return out


def _scale_translate_samples(dtype):
    return [Sample((values((1, 3, 4, 2), dtype),), {"size": (5, 3), "scale": (1.7, 0.8), "translation": (0.3, -0.2)}),
            Sample((values((1, 4, 4, 1), dtype, seed=1),),
                   {"size": (2, 3), "scale": (0.5, 0.75), "translation": (0.0, 0.5), "kernel_type": "keyscubic",
                    "antialias": False})]


@op(inputs="images", dtypes=TO_FLOAT, samples=_scale_translate_samples, reference=_numpy_scale_and_translate,
    grad_check=False)
def scale_and_translate(images, size, scale, translation, kernel_type="lanczos3", antialias=True):
    """``ScaleAndTranslate``: resample NHWC ``images`` to ``size`` through ``scale`` and ``translation`` (pairs)
    with a separable ``kernel_type`` filter (Float32)."""
    if images.ndim != 4:
        raise ValueError(f"For 'ScaleAndTranslate', 'images' must be 4-D (batch, height, width, channels), but got "
                         f"shape {tuple(images.shape)}.")
    rows = _weights(kernel_type, antialias, images.shape[1], size[0], scale[0], translation[0])
    columns = _weights(kernel_type, antialias, images.shape[2], size[1], scale[1], translation[1])
    return jnp.einsum("oh,bhwc,pw->bopc", jnp.asarray(rows), images.astype(jnp.float32), jnp.asarray(columns))
