"""Op-table entries behind image-resize Primitives that MindSpore gives no functional name (not exported by
``ops``): ``resize_area`` (``ResizeArea``: TensorFlow's area-weighted resize of NHWC images) and
``scale_and_translate`` (``ScaleAndTranslate``). Their sizes, scales and shifts are settings (Python values: the
Primitives read their Tensors once on the host) since they set the output's shape and the resampling weights.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.image_resize import resize_area
    >>> resize_area(Tensor(np.arange(4, dtype=np.float32).reshape(1, 2, 2, 1)), (1, 1)).asnumpy().ravel().tolist()
    [1.5]
"""

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
