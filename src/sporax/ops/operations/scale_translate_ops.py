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
import jax
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of
from sporax.ops.functional import image_resize
from sporax.ops.primitive import Primitive, prim_attr_register


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
        if kernel_type not in image_resize.KERNELS:
            raise ValueError(f"For 'ScaleAndTranslate', kernel_type must be one of {list(image_resize.KERNELS)}, but got "
                             f"{kernel_type!r}.")
        if not isinstance(antialias, bool):
            raise TypeError(f"For 'ScaleAndTranslate', antialias must be a bool, but got {type(antialias)}.")
        self.kernel_type, self.antialias = kernel_type, antialias

    def __call__(self, images, size, scale, translation):
        size = _pair("ScaleAndTranslate", "size", size, "size")
        scale = _pair("ScaleAndTranslate", "scale", scale, "scale")
        translation = _pair("ScaleAndTranslate", "translation", translation, "translation")
        return image_resize.scale_and_translate(images, tuple(size), tuple(scale), tuple(translation),
                                                self.kernel_type, self.antialias)
