"""Random draws, colour-space ops and small utilities: ``gamma``, ``cauchy_sample``, dropout masks,
``hsv_to_rgb``/``rgb_to_hsv``, ``coalesce``, ``compare_and_bitpack``, ``confusion_matrix``,
``bounding_box_encode``/``decode``, ``check_valid``, ``iou`` (functional forms of the box Primitives).

Contract: random ops draw from the global random state (an op ``seed`` is folded into the key, as
``ops.uniform`` does). ``gamma``'s ``beta`` is the rate (TensorFlow's ``random.gamma`` convention:
the mean is ``alpha / beta``). Images are float tensors with RGB/HSV in the last dimension, all
channels in [0, 1] (hue as a fraction of a turn).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.gamma((3, 1, 2), Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones(1, np.float32))).shape
    (3, 2, 2)
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional.random import _key


def gamma(shape, alpha, beta, seed=None):
    """Gamma(``alpha``, rate ``beta``) samples; the shape broadcasts ``shape``, ``alpha`` and ``beta``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> bool((ops.gamma((4,), Tensor(np.array([2.0], np.float32)), Tensor(np.array([1.0], np.float32))).asnumpy() > 0).all())
        True
    """
    if not isinstance(shape, tuple):
        raise TypeError(f"For 'gamma', 'shape' must be a tuple, but got {type(shape).__name__}.")
    concentration = array_of("gamma", "alpha", alpha)
    rate = array_of("gamma", "beta", beta)
    for name, array in (("alpha", concentration), ("beta", rate)):
        if array.dtype != np.float32:
            raise TypeError(f"For 'gamma', '{name}' must be a Float32 Tensor, but got {array.dtype}.")
    out_shape = jnp.broadcast_shapes(shape, concentration.shape, rate.shape)
    sample = jax.random.gamma(_key(seed), jnp.broadcast_to(concentration, out_shape), out_shape, jnp.float32)
    return wrap(sample / rate)


def cauchy_sample(shape, median, sigma, seed=None):
    """Float32 samples of the Cauchy distribution (location ``median``, scale ``sigma``)."""
    return wrap(jax.random.cauchy(_key(seed), tuple(shape), jnp.float32) * sigma + median)


def dropout_gen_mask(shape, keep_prob, seed=None):
    """A bit mask for ``dropout_do_mask``: one bit per element of ``shape`` (1 with probability
    ``keep_prob``), little-endian within bytes, padded to a multiple of 128 bits (UInt8)."""
    count = int(np.prod(shape))
    padded = -(-count // 128) * 128
    bits = jax.random.bernoulli(_key(seed), keep_prob, (padded,)).astype(jnp.uint8)
    weights = jnp.asarray([1 << i for i in range(8)], jnp.uint8)
    return wrap((bits.reshape(-1, 8) * weights).sum(axis=1).astype(jnp.uint8))


def dropout_do_mask(input_x, mask, keep_prob):
    """``input_x * bit / keep_prob`` with the bits of a ``dropout_gen_mask`` mask."""
    array = array_of("DropoutDoMask", "input_x", input_x)
    packed = array_of("DropoutDoMask", "mask", mask)
    if packed.dtype != np.uint8 or packed.size * 8 < array.size:
        raise ValueError(f"For 'DropoutDoMask', 'mask' must be a UInt8 Tensor of at least {-(-array.size // 8)} "
                         f"bytes, but got {describe(mask)}.")
    bits = (packed[:, None] >> jnp.arange(8, dtype=jnp.uint8)) & 1
    keep = bits.reshape(-1)[:array.size].reshape(array.shape)
    return wrap(jnp.where(keep == 1, array / keep_prob, 0).astype(array.dtype))


def hsv_to_rgb(array):
    """HSV (last axis, hue as a fraction of a turn) to RGB."""
    hue, saturation, value = array[..., 0], array[..., 1], array[..., 2]
    sector = jnp.floor(hue * 6.0)
    fraction = hue * 6.0 - sector
    p = value * (1 - saturation)
    q = value * (1 - saturation * fraction)
    t = value * (1 - saturation * (1 - fraction))
    index = jnp.mod(sector, 6).astype(jnp.int32)
    red = jnp.choose(index, [value, q, p, p, t, value], mode="clip")
    green = jnp.choose(index, [t, value, value, q, p, p], mode="clip")
    blue = jnp.choose(index, [p, p, t, value, value, q], mode="clip")
    return jnp.stack([red, green, blue], axis=-1)


def rgb_to_hsv(array):
    """RGB (last axis) to HSV with hue in [0, 1)."""
    red, green, blue = array[..., 0], array[..., 1], array[..., 2]
    high = jnp.max(array, axis=-1)
    low = jnp.min(array, axis=-1)
    spread = high - low
    safe = jnp.where(spread == 0, 1, spread)
    hue = jnp.where(high == red, (green - blue) / safe,
                    jnp.where(high == green, 2.0 + (blue - red) / safe, 4.0 + (red - green) / safe))
    hue = jnp.where(spread == 0, 0.0, jnp.mod(hue / 6.0, 1.0))
    saturation = jnp.where(high == 0, 0.0, spread / jnp.where(high == 0, 1, high))
    return jnp.stack([hue, saturation, high], axis=-1)


def image_input(op_name, image):
    """The float array of an image with 3 channels in its last dimension (at least 3-D)."""
    array = array_of(op_name, "image", image)
    if array.ndim < 3 or array.shape[-1] != 3:
        raise ValueError(f"For '{op_name}', the image must have at least 3 dimensions with 3 channels last, but got "
                         f"{describe(image)}.")
    if array.dtype.kind != "f":
        raise TypeError(f"For '{op_name}', the image must be a float Tensor, but got {describe(image)}.")
    return array


def coalesce(x_indices, x_values, x_shape):
    """Merge the duplicate indices of a COO tensor: ``(indices, values, shape)`` with indices sorted and
    unique (column per entry, ``(ndim, N)``) and the values of duplicates summed.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> indices, values, shape = ops.coalesce(Tensor(np.array([[2, 0, 2], [1, 3, 1]], np.int64)),
        ...                                       Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor(np.array([3, 4], np.int64)))
        >>> indices.asnumpy().tolist(), values.asnumpy().tolist()
        ([[0, 2], [3, 1]], [2.0, 4.0])
    """
    index = np.asarray(array_of("coalesce", "x_indices", x_indices))
    values = array_of("coalesce", "x_values", x_values)
    dense_shape = np.asarray(array_of("coalesce", "x_shape", x_shape))
    if index.ndim != 2 or values.ndim != 1 or index.shape[1] != values.shape[0] or index.shape[0] != dense_shape.size:
        raise ValueError(f"For 'coalesce', expected x_indices (ndim, N), x_values (N,) and x_shape (ndim,), but got "
                         f"{index.shape}, {tuple(values.shape)} and {dense_shape.shape}.")
    if index.size and ((index < 0).any() or (index >= dense_shape[:, None]).any()):
        raise ValueError("For 'coalesce', every index must lie inside x_shape.")
    flat = np.ravel_multi_index(tuple(index), tuple(dense_shape)) if index.size else np.zeros((0,), np.int64)
    unique, inverse = np.unique(flat, return_inverse=True)
    summed = jnp.zeros((unique.size,), values.dtype).at[jnp.asarray(inverse.reshape(-1))].add(values)
    merged = np.stack(np.unravel_index(unique, tuple(dense_shape))) if unique.size else index[:, :0]
    return wrap(jnp.asarray(merged.astype(index.dtype))), wrap(summed), wrap(jnp.asarray(dense_shape))


def compare_and_bitpack(x, threshold):
    """``x > threshold`` packed 8 per byte (first element in the high bit) along the last axis (UInt8)."""
    array = array_of("CompareAndBitpack", "x", x)
    limit = array_of("CompareAndBitpack", "threshold", threshold)
    if array.ndim == 0 or array.shape[-1] % 8:
        raise ValueError(f"For 'CompareAndBitpack', the last dimension of 'x' must be a multiple of 8, but got "
                         f"{describe(x)}.")
    if limit.size != 1:
        raise ValueError(f"For 'CompareAndBitpack', 'threshold' must be a scalar, but got {describe(threshold)}.")
    bits = (array > limit.reshape(())).astype(jnp.uint8).reshape(array.shape[:-1] + (-1, 8))
    weights = jnp.asarray([1 << (7 - i) for i in range(8)], jnp.uint8)
    return wrap((bits * weights).sum(axis=-1).astype(jnp.uint8))


def confusion_matrix(labels, predictions, num_classes, weights=None, dtype=jnp.int32):
    """``matrix[label, prediction] += weight`` for each pair (1 without weights)."""
    true = array_of("ConfusionMatrix", "labels", labels).reshape(-1)
    predicted = array_of("ConfusionMatrix", "logits", predictions).reshape(-1)
    if true.shape != predicted.shape:
        raise ValueError(f"For 'ConfusionMatrix', 'labels' and 'logits' must have the same shape, but got "
                         f"{describe(labels)} and {describe(predictions)}.")
    if weights is None:
        amount = jnp.ones(true.shape, dtype)
    else:
        amount = array_of("ConfusionMatrix", "weights", weights).reshape(-1)
        dtype = amount.dtype
    return wrap(jnp.zeros((num_classes, num_classes), dtype).at[true, predicted].add(amount, mode="drop"))


def _box_primitive(name):
    from sporax.ops.operations import bbox_ops

    return getattr(bbox_ops, name)


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    """The (dx, dy, dw, dh) deltas of ground-truth boxes from anchor boxes, as ``ops.BoundingBoxEncode``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> box = Tensor(np.array([[0.0, 0.0, 2.0, 2.0]], np.float32))
        >>> ops.bounding_box_encode(box, box).asnumpy().tolist()
        [[0.0, 0.0, 0.0, 0.0]]
    """
    return _box_primitive("BoundingBoxEncode")(means, stds)(anchor_box, groundtruth_box)


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip=0.016):
    """Boxes from anchor boxes and deltas, clipped to ``max_shape``, as ``ops.BoundingBoxDecode``."""
    return _box_primitive("BoundingBoxDecode")(max_shape, means, stds, wh_ratio_clip)(anchor_box, deltas)


def check_valid(bboxes, img_metas):
    """Whether each box lies inside the image ``img_metas`` (height, width, ratio), as ``ops.CheckValid``."""
    return _box_primitive("CheckValid")()(bboxes, img_metas)


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """Intersection over union ('iou') or over foreground ('iof') of two box sets, as ``ops.IOU``."""
    return _box_primitive("IOU")(mode)(anchor_boxes, gt_boxes)


def check_probability(op_name, value):
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value <= 1:
        raise ValueError(f"For '{op_name}', 'p' must be a number in [0, 1] or a Tensor, but got {value!r}.")
    return value
