"""Transforms of an (image, bounding boxes) pair; boxes are rows of [x, y, width, height, ...]."""
import numpy as np

from sporax.dataset.core.random import eager_words, nested_operations
from sporax.dataset.engine.sampler_order import canonical, uniform_float
from sporax.dataset.transforms.base import TensorOperation, random_generator
from sporax.dataset.vision.geometry import target_size
from sporax.dataset.vision.random_geometry import RandomCrop, RandomResize, RandomResizedCrop
from sporax.dataset.vision.resample import resize_array
from sporax.dataset.vision.utils import Inter, as_image, check_probability, check_size


def check_boxes(op_name, image, bboxes):
    """The boxes as a (N, >=4) array, checked to lie inside ``image``."""
    boxes = np.asarray(bboxes)
    if boxes.ndim != 2 or boxes.shape[1] < 4:
        raise RuntimeError(f"{op_name}: bounding boxes should be a 2-D array with at least 4 features "
                           f"([x, y, width, height, ...]), but got shape {boxes.shape}.")
    height, width = image.shape[:2]
    if boxes.shape[0]:
        right, bottom = boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]
        bad = (boxes[:, 0] < 0) | (boxes[:, 1] < 0) | (right > width) | (bottom > height)
        if bad.any():
            row = int(np.argmax(bad))
            raise RuntimeError(f"{op_name}: bounding boxes is out of bounds of the image, as image width: {width}, "
                               f"bbox width coordinate: {float(right[row])}, and image height: {height}, bbox "
                               f"height coordinate: {float(bottom[row])}.")
    return boxes.copy()


def crop_boxes(boxes, top, left, height, width):
    """Move boxes into a crop window at (top, left) of size (height, width), clipping them to it; boxes wholly
    outside the window are dropped, as MindSpore drops them (one touching its edge stays, zero wide)."""
    left_edge, top_edge = boxes[:, 0] - left, boxes[:, 1] - top
    right_edge, bottom_edge = left_edge + boxes[:, 2], top_edge + boxes[:, 3]
    inside = (left_edge <= width) & (right_edge >= 0) & (top_edge <= height) & (bottom_edge >= 0)
    x0, y0 = np.clip(left_edge, 0, width), np.clip(top_edge, 0, height)
    x1, y1 = np.clip(right_edge, 0, width), np.clip(bottom_edge, 0, height)
    boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3] = x0, y0, x1 - x0, y1 - y0
    return boxes[inside]


def scale_boxes(boxes, scale_y, scale_x):
    """Scale x and width by ``scale_x``, y and height by ``scale_y``."""
    out = boxes.astype(np.result_type(boxes.dtype, np.float32))
    out[:, [0, 2]] *= scale_x
    out[:, [1, 3]] *= scale_y
    return out.astype(boxes.dtype)


class _BoxFlip(TensorOperation):
    random = True
    mindspore_draws = True

    def __init__(self, prob=0.5):
        self.prob = check_probability(type(self).__name__, prob)

    def __call__(self, img, bboxes):
        image = as_image(type(self).__name__, img)
        boxes = check_boxes(type(self).__name__, image, bboxes)
        words = eager_words(self)  # MindSpore's kernel: std::bernoulli_distribution(prob), two words
        draw = canonical(words) if words is not None else random_generator().random()
        if draw >= self.prob:
            return image, boxes
        if self._vertical:
            boxes[:, 1] = image.shape[0] - boxes[:, 1] - boxes[:, 3]
            return np.ascontiguousarray(image[::-1]), boxes
        boxes[:, 0] = image.shape[1] - boxes[:, 0] - boxes[:, 2]
        return np.ascontiguousarray(image[:, ::-1]), boxes


class RandomHorizontalFlipWithBBox(_BoxFlip):
    """Mirror the image and its boxes left to right with probability ``prob``."""

    _vertical = False


class RandomVerticalFlipWithBBox(_BoxFlip):
    """Flip the image and its boxes upside down with probability ``prob``."""

    _vertical = True


def _resize_pair(op_name, img, bboxes, size, interpolation):
    image = as_image(op_name, img)
    boxes = check_boxes(op_name, image, bboxes)
    height, width = target_size(size, *image.shape[:2])
    out = resize_array(image, height, width, interpolation)
    return out, scale_boxes(boxes, height / image.shape[0], width / image.shape[1])


class ResizeWithBBox(TensorOperation):
    """Resize the image to ``size`` and scale its boxes to match."""

    def __init__(self, size, interpolation=Inter.LINEAR):
        self.size = check_size("ResizeWithBBox", size)
        self.interpolation = interpolation

    def __call__(self, img, bboxes):
        return _resize_pair("ResizeWithBBox", img, bboxes, self.size, self.interpolation)


class RandomResizeWithBBox(RandomResize):
    """RandomResize of the image, with its boxes scaled to match."""

    def __call__(self, img, bboxes):
        return _resize_pair("RandomResizeWithBBox", img, bboxes, self.size, self._mode())


class RandomCropWithBBox(RandomCrop):
    """RandomCrop of the image; boxes move with the crop and are clipped to it."""

    def __call__(self, img, bboxes):
        image = as_image("RandomCropWithBBox", img)
        boxes = check_boxes("RandomCropWithBBox", image, bboxes)
        crop, (top, left) = self._crop_image(image)
        return crop, crop_boxes(boxes, top, left, crop.shape[0], crop.shape[1])

    def _batch_call(self, *columns):
        return NotImplemented  # boxes differ in count per row: the engine applies this per row


class RandomResizedCropWithBBox(RandomResizedCrop):
    """RandomResizedCrop of the image; boxes are cropped, clipped and scaled with it."""

    def __call__(self, img, bboxes):
        image = as_image("RandomResizedCropWithBBox", img)
        boxes = check_boxes("RandomResizedCropWithBBox", image, bboxes)
        top, left, crop_h, crop_w = self._box(image)
        region = image[top:top + crop_h, left:left + crop_w]
        out = resize_array(region, self._out[0], self._out[1], self.interpolation)
        boxes = crop_boxes(boxes, top, left, crop_h, crop_w)
        return out, scale_boxes(boxes, self._out[0] / crop_h, self._out[1] / crop_w)


class BoundingBoxAugment(TensorOperation):
    """Apply ``transform`` to the image region of each box, each with probability ``ratio``."""

    random = True
    mindspore_draws = True

    def __init__(self, transform, ratio=0.3):
        if not callable(transform):
            raise TypeError(f"BoundingBoxAugment: transform should be callable, got {type(transform).__name__}.")
        self.transform = transform
        self.ratio = check_probability("BoundingBoxAugment", ratio)

    def __call__(self, img, bboxes):
        image = as_image("BoundingBoxAugment", img).copy()
        boxes = check_boxes("BoundingBoxAugment", image, bboxes)
        words = eager_words(self)
        # MindSpore's kernel: per box uniform_real_distribution<float>(0, 1) < ratio; the transform's own draws keep
        # the dataset seed.
        draws = ([uniform_float(words, 0.0, 1.0) for _ in range(boxes.shape[0])] if words is not None
                 else random_generator().random(boxes.shape[0]))
        for box, draw in zip(boxes, draws):
            x, y, w, h = (int(v) for v in box[:4])
            if draw >= self.ratio or w <= 0 or h <= 0:
                continue
            with nested_operations():
                region = np.asarray(self.transform(image[y:y + h, x:x + w].copy()))
            if region.shape[:2] != (h, w):
                region = resize_array(region, h, w, Inter.BILINEAR)
            image[y:y + h, x:x + w] = region.astype(image.dtype).reshape(image[y:y + h, x:x + w].shape)
        return image, boxes
