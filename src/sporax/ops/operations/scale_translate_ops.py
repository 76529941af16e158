"""``ops.ScaleAndTranslate``: resample NHWC images through a scale and a translation with a separable filter
(TensorFlow's ``scale_and_translate``, which MindSpore 2.10 follows).

For output coordinate ``x`` the sampling point in the input is ``s = (x + 0.5 - translation) / scale``;
the input pixels whose centres lie within the kernel's radius (times ``max(1 / scale, 1)`` when
``antialias`` and down-scaling) contribute ``kernel((p + 0.5 - s) / kernel_scale)``, normalised to sum
to 1. A sampling point outside ``[0, input_size]`` gives 0. Kernels: ``lanczos1/3/5``, ``gaussian``
(sigma 0.5, radius 1.5), ``box``, ``triangle``, ``keyscubic`` (a = -0.5) and ``mitchellcubic`` (B = C =
1/3). Values checked against MindSpore 2.10 (tests/fixtures/surface_ops/scale_and_translate.json).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> image = Tensor(np.ones((1, 2, 2, 1), np.float32))
    >>> size, scale = Tensor(np.array([4, 4], np.int32)), Tensor(np.array([2.0, 2.0], np.float32))
    >>> ops.ScaleAndTranslate()(image, size, scale, Tensor(np.zeros(2, np.float32))).shape
    (1, 4, 4, 1)
"""
import math

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.primitive import Primitive, prim_attr_register


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


_KERNELS = {
    "lanczos1": _lanczos(1), "lanczos3": _lanczos(3), "lanczos5": _lanczos(5),
    "gaussian": (lambda x: np.where(x >= 1.5, 0.0, np.exp(-x * x / (2 * 0.5 ** 2))), 1.5),
    "box": (lambda x: np.where(x < 0.5, 1.0, np.where(x == 0.5, 0.5, 0.0)), 1.0),
    "triangle": (lambda x: np.where(x < 1.0, 1.0 - x, 0.0), 1.0),
    "keyscubic": _cubic(-0.5, 2.5, -4.0, 2.0, 1.5, -2.5, 1.0),
    "mitchellcubic": _cubic(-7.0 / 18, 2.0, -10.0 / 3, 16.0 / 9, 7.0 / 6, -2.0, 8.0 / 9),
}


def _weights(kernel_type, antialias, input_size, output_size, scale, translation):
    """The (output_size, input_size) resampling matrix of one spatial dimension."""
    kernel, radius = _KERNELS[kernel_type]
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
    return jnp.asarray(np.where(usable, weights / np.where(usable, total, 1.0), weights).astype(np.float32))


def _pair(name, argument, value, kind):
    array = array_of(name, argument, value) if isinstance(value, Tensor) else value
    if isinstance(array, jax.core.Tracer):
        raise ValueError(f"For '{name}', '{argument}' sets the output's shape and filter, so it must be a constant "
                         f"(a Tensor made outside the compiled function, or a tuple), not a traced value.")
    values = np.asarray(array)
    if values.shape != (2,):
        raise ValueError(f"For '{name}', '{argument}' must have shape (2,), but got {values.shape}.")
    if kind == "size" and (values.dtype.kind not in "iu" or (values <= 0).any()):
        raise TypeError(f"For '{name}', 'size' must hold two positive int32 values, but got {values.tolist()}.")
    if kind == "scale" and (values <= 0).any():
        raise ValueError(f"For '{name}', 'scale' must hold two positive values, but got {values.tolist()}.")
    return [int(v) if kind == "size" else float(v) for v in values]


class ScaleAndTranslate(Primitive):
    """Scale and translate NHWC images with a separable resampling filter.

    Args:
        kernel_type (str): ``"lanczos1"``, ``"lanczos3"`` (default), ``"lanczos5"``, ``"gaussian"``, ``"box"``,
            ``"triangle"``, ``"keyscubic"`` or ``"mitchellcubic"``.
        antialias (bool): widen the kernel when down-scaling. Default: True.

    Inputs:
        - **images** (Tensor) - (batch, height, width, channels), real numbers.
        - **size** (Tensor) - int32 (2,): the output height and width.
        - **scale** (Tensor) - float32 (2,): the zoom factors, positive.
        - **translation** (Tensor) - float32 (2,): the shifts, in output pixels.

    Outputs:
        float32 Tensor (batch, size[0], size[1], channels).
    """

    @prim_attr_register
    def __init__(self, kernel_type="lanczos3", antialias=True):
        if not isinstance(kernel_type, str):
            raise TypeError(f"For 'ScaleAndTranslate', kernel_type must be a str, but got {type(kernel_type)}.")
        if kernel_type not in _KERNELS:
            raise ValueError(f"For 'ScaleAndTranslate', kernel_type must be one of {list(_KERNELS)}, but got "
                             f"{kernel_type!r}.")
        if not isinstance(antialias, bool):
            raise TypeError(f"For 'ScaleAndTranslate', antialias must be a bool, but got {type(antialias)}.")
        self.kernel_type, self.antialias = kernel_type, antialias

    def __call__(self, images, size, scale, translation):
        value = array_of("ScaleAndTranslate", "images", images)
        if value.ndim != 4:
            raise ValueError(f"For 'ScaleAndTranslate', 'images' must be 4-D (batch, height, width, channels), but "
                             f"got shape {tuple(value.shape)}.")
        size = _pair("ScaleAndTranslate", "size", size, "size")
        scale = _pair("ScaleAndTranslate", "scale", scale, "scale")
        translation = _pair("ScaleAndTranslate", "translation", translation, "translation")
        rows = _weights(self.kernel_type, self.antialias, value.shape[1], size[0], scale[0], translation[0])
        columns = _weights(self.kernel_type, self.antialias, value.shape[2], size[1], scale[1], translation[1])
        return wrap(jnp.einsum("oh,bhwc,pw->bopc", rows, value.astype(jnp.float32), columns))
