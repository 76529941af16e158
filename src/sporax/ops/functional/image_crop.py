"""``ops.crop_and_resize``: boxes cropped out of an NHWC image batch and resized (the ``CropAndResize`` Primitive's
functional form; the sampling rules are in ``sporax.ops.operations.image_ops``).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> image = Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
    >>> boxes = Tensor(np.array([[0, 0, 1, 1]], np.float32))
    >>> ops.crop_and_resize(image, boxes, Tensor(np.array([0], np.int32)), (2, 2))[0, :, :, 0].asnumpy().tolist()
    [[0.0, 3.0], [12.0, 15.0]]
"""
from sporax.ops.operations.image_ops import CropAndResize


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    """Crop ``boxes`` (normalized ``(y1, x1, y2, x2)`` rows) out of the images ``box_indices`` names and resize each
    to ``crop_size``.

    Args:
        image (Tensor): (batch, height, width, channels), real numbers.
        boxes (Tensor): float32 (num_boxes, 4).
        box_indices (Tensor): int32 (num_boxes,), the image of each box.
        crop_size (tuple[int]): ``(crop_height, crop_width)``.
        method (str): ``'bilinear'`` (default), ``'nearest'`` or ``'bilinear_v2'``.
        extrapolation_value (float): the value of samples outside the image. Default: ``0.0``.

    Returns:
        float32 Tensor (num_boxes, crop_height, crop_width, channels).
    """
    return CropAndResize(method, extrapolation_value)(image, boxes, box_indices, crop_size)
