"""The gradients of ``CropAndResize`` as ops of their own: MindSpore's image_ops ``CropAndResizeGradImage`` (with
respect to the image) and ``CropAndResizeGradBoxes`` (with respect to the boxes).

Each is the vector-Jacobian product of the ``crop_and_resize`` kernel, so the two agree with it by construction.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.crop_gradients import crop_and_resize_grad_image
    >>> grads = Tensor(np.ones((1, 1, 1, 1), np.float32))
    >>> boxes, index = Tensor(np.array([[0.0, 0.0, 0.0, 0.0]], np.float32)), Tensor(np.array([0], np.int32))
    >>> crop_and_resize_grad_image(grads, boxes, index, Tensor(np.array([1, 2, 2, 1], np.int32))).asnumpy().ravel().tolist()
    [1.0, 0.0, 0.0, 0.0]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops.functional.image_crop import _numpy_crop_and_resize, crop_and_resize
from sporax.ops.op_table import INDEX, TO_FLOAT, Sample, op


def _checked_method(op_name, method):
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"For '{op_name}', 'method' must be 'bilinear' or 'nearest', but got {method!r}.")
    return method


def _samples(dtype):
    generator = np.random.default_rng(0)
    image = generator.uniform(-2, 2, size=(2, 4, 5, 2)).astype(np.float32)
    grads = generator.uniform(-1, 1, size=(2, 3, 2, 2)).astype(np.float32)
    # samples between pixel rows and columns: the finite differences of the reference must not cross one
    boxes = np.array([[0.13, 0.21, 0.83, 0.72], [0.31, 0.07, 0.58, 0.94]], np.float32)
    return Sample((grads, boxes, np.array([1, 0], np.int32), np.array([2, 4, 5, 2], np.int32))), image


def _image_samples(dtype):
    sample, _ = _samples(dtype)
    return [sample, Sample(sample.arrays, {"method": "nearest"})]


def _numpy_grad_image(grads, boxes, box_index, image_size, T=None, method="bilinear"):
    # the crop is linear in the image: its transpose applied to grads, one unit image at a time
    shape = tuple(int(size) for size in image_size)
    result = np.zeros(int(np.prod(shape)))
    for position in range(result.size):
        unit = np.zeros(result.size)
        unit[position] = 1.0
        crops = _numpy_crop_and_resize(unit.reshape(shape), boxes, box_index, grads.shape[1:3], method)
        result[position] = np.sum(crops * grads)
    return result.reshape(shape)


@op(inputs=("grads", "boxes", "box_index", "image_size"), dtypes=TO_FLOAT,
    input_dtypes={"box_index": INDEX, "image_size": INDEX}, primitive="CropAndResizeGradImage",
    primitive_attrs=("T", "method"), samples=_image_samples, reference=_numpy_grad_image, grad_check=False,
    eager=True)  # the output shape is the values of ``image_size``, read on the host
def crop_and_resize_grad_image(grads, boxes, box_index, image_size, T=mstype.float32, method="bilinear"):
    """The gradient of ``CropAndResize`` with respect to its image: ``grads`` (num_boxes, crop_h, crop_w, C)
    spread back onto an image of ``image_size`` (four ints, NHWC), of dtype ``T``."""
    _checked_method("CropAndResizeGradImage", method)
    shape = tuple(int(size) for size in np.asarray(image_size).reshape(-1))
    if len(shape) != 4:
        raise ValueError(f"For 'CropAndResizeGradImage', 'image_size' must hold 4 ints (N, H, W, C), but got {shape}.")
    crop = lambda image: crop_and_resize.entry.kernel(image, boxes, box_index, tuple(grads.shape[1:3]), method)  # noqa: E731
    _, transpose = jax.vjp(crop, jnp.zeros(shape, jnp.float32))
    return transpose(grads.astype(jnp.float32))[0].astype(mstype.dtype_to_nptype(T) if T is not None else jnp.float32)


def _box_samples(dtype):
    sample, image = _samples(dtype)
    grads, boxes, box_index, _ = sample.arrays
    return [Sample((grads, image, boxes, box_index))]


def _numpy_grad_boxes(grads, images, boxes, box_index, method="bilinear"):
    # central differences of the reference crop (the samples stay between pixel rows and columns)
    boxes = np.asarray(boxes, np.float64)
    result = np.zeros_like(boxes)
    step = 1e-6
    for box in range(boxes.shape[0]):
        for coordinate in range(4):
            moved = [boxes.copy(), boxes.copy()]
            moved[0][box, coordinate] += step
            moved[1][box, coordinate] -= step
            ahead, behind = (_numpy_crop_and_resize(np.asarray(images, np.float64), one, box_index, grads.shape[1:3])
                             for one in moved)
            result[box, coordinate] = np.sum((ahead - behind) * grads) / (2 * step)
    return result


@op(inputs=("grads", "images", "boxes", "box_index"), dtypes=TO_FLOAT, input_dtypes={"box_index": INDEX},
    primitive="CropAndResizeGradBoxes", primitive_attrs=("method",), samples=_box_samples,
    reference=_numpy_grad_boxes, grad_check=False)
def crop_and_resize_grad_boxes(grads, images, boxes, box_index, method="bilinear"):
    """The gradient of bilinear ``CropAndResize`` with respect to its (num_boxes, 4) normalised ``boxes``."""
    if _checked_method("CropAndResizeGradBoxes", method) != "bilinear":
        raise ValueError(f"For 'CropAndResizeGradBoxes', 'method' must be 'bilinear', but got {method!r}.")
    crop = lambda corners: crop_and_resize.entry.kernel(  # noqa: E731
        images.astype(jnp.float32), corners, box_index, tuple(grads.shape[1:3]), method)
    _, transpose = jax.vjp(crop, boxes.astype(jnp.float32))
    return transpose(grads.astype(jnp.float32))[0]
