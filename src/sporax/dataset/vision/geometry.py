"""Deterministic geometric transforms: Resize, crops (with FiveCrop/TenCrop), flips, Pad, Rotate, Affine,
Perspective, SlicePatches."""
import numpy as np

from sporax.dataset.transforms.base import PythonOperation, TensorOperation
from sporax.dataset.vision.padding import check_border, pad_batch, pad_image, parse_padding
from sporax.dataset.vision.resample import resize_array, resize_batch, resize_pil
from sporax.dataset.vision.utils import (Border, Inter, SliceMode, as_image, check_fill_value, check_size, is_pil,
                                         restore_like)
from sporax.dataset.vision.warp import affine_matrix, perspective_matrix, rotation_matrix, warp_affine


def check_inter(op_name, interpolation, arg_name="interpolation"):
    """Validate an Inter value."""
    if not isinstance(interpolation, Inter):
        raise TypeError(f"{op_name}: argument {arg_name} with value {interpolation!r} is not of type "
                        f"[<enum 'Inter'>], but got {type(interpolation)}.")
    return interpolation


def target_size(size, height, width):
    """(h, w) for a Resize size: an int scales the shorter side to ``size`` keeping the aspect ratio."""
    if isinstance(size, tuple):
        return size
    if height <= width:
        return size, max(1, int(size * width / height))
    return max(1, int(size * height / width)), size


def resize(op_name, image, size, interpolation):
    """Resize a NumPy or PIL image; returns the same kind."""
    if is_pil(image):
        height, width = target_size(size, image.size[1], image.size[0])
        return resize_pil(op_name, image, height, width, interpolation)
    array = as_image(op_name, image)
    height, width = target_size(size, *array.shape[:2])
    return resize_array(array, height, width, interpolation)


def image_batch(images):
    """True when a stacked column is a non-empty batch of numeric <H,W> or <H,W,C> images.

    Anything else makes a ``_batch_call`` return NotImplemented, so the per-row path runs and
    raises its usual error naming the row.
    """
    return images.ndim in (3, 4) and len(images) > 0 and images.dtype.kind in "biuf"


class Resize(TensorOperation):
    """Resize an image to ``size`` ((h, w), or an int for the shorter side) with ``interpolation``."""

    def __init__(self, size, interpolation=Inter.LINEAR):
        self.size = check_size("Resize", size)
        self.interpolation = check_inter("Resize", interpolation)

    def __call__(self, img):
        return resize("Resize", img, self.size, self.interpolation)

    def _batch_call(self, images):
        if not image_batch(images):
            return NotImplemented
        height, width = target_size(self.size, *images.shape[1:3])
        return resize_batch(images, height, width, self.interpolation)


def crop_array(image, top, left, height, width):
    """A crop as a view of ``image``."""
    return image[top:top + height, left:left + width]


class Crop(TensorOperation):
    """Crop the region whose top-left corner is ``coordinates`` (y, x) and whose size is ``size``."""

    def __init__(self, coordinates, size):
        if not (isinstance(coordinates, (list, tuple)) and len(coordinates) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in coordinates)):
            raise TypeError(f"Crop: coordinates should be a (y, x) pair of non-negative ints, got {coordinates!r}.")
        self.coordinates = tuple(coordinates)
        self.size = check_size("Crop", size)

    def __call__(self, img):
        image = as_image("Crop", img)
        height, width = (self.size, self.size) if isinstance(self.size, int) else self.size
        top, left = self.coordinates
        if top + height > image.shape[0]:
            raise RuntimeError(f"Crop: Crop height dimension: {top + height} exceeds image height: {image.shape[0]}.")
        if left + width > image.shape[1]:
            raise RuntimeError(f"Crop: Crop width dimension: {left + width} exceeds image width: {image.shape[1]}.")
        return restore_like(crop_array(image, top, left, height, width).copy(), img)

    def _batch_call(self, images):
        height, width = (self.size, self.size) if isinstance(self.size, int) else self.size
        top, left = self.coordinates
        if not image_batch(images) or top + height > images.shape[1] or left + width > images.shape[2]:
            return NotImplemented
        return images[:, top:top + height, left:left + width].copy()


class CenterCrop(TensorOperation):
    """Crop the centre of the image to ``size``; a crop larger than the image pads it with zeros."""

    def __init__(self, size):
        self.size = check_size("CenterCrop", size)

    def __call__(self, img):
        image = as_image("CenterCrop", img)
        height, width = (self.size, self.size) if isinstance(self.size, int) else self.size
        pad_h, pad_w = max(height - image.shape[0], 0), max(width - image.shape[1], 0)
        if pad_h or pad_w:
            # The odd pixel of padding goes to the top/left (MindSpore's rule).
            image = pad_image(image, pad_w - pad_w // 2, pad_h - pad_h // 2, pad_w // 2, pad_h // 2)
        top, left = (image.shape[0] - height) // 2, (image.shape[1] - width) // 2
        return restore_like(np.ascontiguousarray(crop_array(image, top, left, height, width)), img)

    def _batch_call(self, images):
        if not image_batch(images):
            return NotImplemented
        height, width = (self.size, self.size) if isinstance(self.size, int) else self.size
        pad_h, pad_w = max(height - images.shape[1], 0), max(width - images.shape[2], 0)
        if pad_h or pad_w:
            images = pad_batch(images, pad_w - pad_w // 2, pad_h - pad_h // 2, pad_w // 2, pad_h // 2)
        top, left = (images.shape[1] - height) // 2, (images.shape[2] - width) // 2
        return np.ascontiguousarray(images[:, top:top + height, left:left + width])


class Pad(TensorOperation):
    """Pad the image borders: ``padding`` int, (left/right, top/bottom) or (left, top, right, bottom)."""

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = parse_padding("Pad", padding)
        self.fill_value = check_fill_value("Pad", fill_value)
        self.padding_mode = check_border("Pad", padding_mode)

    def __call__(self, img):
        image = as_image("Pad", img)
        left, top, right, bottom = self.padding
        return restore_like(pad_image(image, left, top, right, bottom, self.fill_value, self.padding_mode), img)

    def _batch_call(self, images):
        if not image_batch(images):
            return NotImplemented
        left, top, right, bottom = self.padding
        return pad_batch(images, left, top, right, bottom, self.fill_value, self.padding_mode)


class PadToSize(TensorOperation):
    """Pad the image to ``size`` with the original placed at ``offset`` (centred by default)."""

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = check_size("PadToSize", size)
        if offset is not None and isinstance(offset, int):
            offset = (offset, offset)
        self.offset = offset
        self.fill_value = check_fill_value("PadToSize", fill_value)
        self.padding_mode = check_border("PadToSize", padding_mode)

    def __call__(self, img):
        image = as_image("PadToSize", img)
        height, width = (self.size, self.size) if isinstance(self.size, int) else self.size
        if height < image.shape[0] or width < image.shape[1]:
            raise RuntimeError(f"PadToSize: the target size {(height, width)} must not be smaller than the image "
                               f"size {image.shape[:2]}.")
        extra_h, extra_w = height - image.shape[0], width - image.shape[1]
        top, left = (extra_h // 2, extra_w // 2) if self.offset is None else self.offset
        if top > extra_h or left > extra_w:
            raise RuntimeError(f"PadToSize: offset {self.offset} leaves no room for the image in size {self.size}.")
        return restore_like(pad_image(image, left, top, extra_w - left, extra_h - top, self.fill_value,
                                      self.padding_mode), img)

    def _batch_call(self, images):
        if not image_batch(images):
            return NotImplemented
        height, width = (self.size, self.size) if isinstance(self.size, int) else self.size
        extra_h, extra_w = height - images.shape[1], width - images.shape[2]
        top, left = (extra_h // 2, extra_w // 2) if self.offset is None else self.offset
        if min(extra_h, extra_w, top, left) < 0 or top > extra_h or left > extra_w:
            return NotImplemented  # the per-row path raises the error
        return pad_batch(images, left, top, extra_w - left, extra_h - top, self.fill_value, self.padding_mode)


class HorizontalFlip(TensorOperation):
    """Mirror the image left to right."""

    def __call__(self, img):
        if is_pil(img):
            return img.transpose(0)
        return np.ascontiguousarray(as_image("HorizontalFlip", img)[:, ::-1])

    def _batch_call(self, images):
        return np.ascontiguousarray(images[:, :, ::-1])


class VerticalFlip(TensorOperation):
    """Flip the image upside down."""

    def __call__(self, img):
        if is_pil(img):
            return img.transpose(1)
        return np.ascontiguousarray(as_image("VerticalFlip", img)[::-1])

    def _batch_call(self, images):
        return np.ascontiguousarray(images[:, ::-1])


def rotate(op_name, img, degrees, resample, expand, center, fill_value):
    """Rotate counter-clockwise by ``degrees`` (OpenCV warpAffine conventions)."""
    image = as_image(op_name, img)
    matrix, size = rotation_matrix(image.shape[0], image.shape[1], degrees, center, expand)
    fill = fill_value
    if not isinstance(fill_value, int) and image.ndim == 3:
        # MindSpore 2.10's rotation kernel fills (r, g, b) as (b, g, r) (then zeros for more channels),
        # for NumPy and PIL images alike (recorded)
        fill = np.zeros(image.shape[2], np.int64)
        values = fill_value[::-1][:image.shape[2]]
        fill[:len(values)] = values
    return restore_like(warp_affine(image, matrix, size, resample, fill), img)


def check_rotation_args(op_name, resample, expand, center, fill_value):
    check_inter(op_name, resample, "resample")
    if resample not in (Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC):
        raise ValueError(f"{op_name}: resample must be Inter.NEAREST, Inter.BILINEAR or Inter.BICUBIC, "
                         f"got {resample!r}.")
    if not isinstance(expand, bool):
        raise TypeError(f"{op_name}: expand must be a bool, got {type(expand).__name__}.")
    if center is not None and not (isinstance(center, (list, tuple)) and len(center) == 2):
        raise TypeError(f"{op_name}: center should be None or an (x, y) pair, got {center!r}.")
    return check_fill_value(op_name, fill_value)


class Rotate(TensorOperation):
    """Rotate the image by ``degrees`` counter-clockwise."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        if isinstance(degrees, bool) or not isinstance(degrees, (int, float)):
            raise TypeError(f"Rotate: degrees must be a number, got {type(degrees).__name__}.")
        self.degrees = degrees
        self.resample = resample
        self.expand = expand
        self.center = center
        self.fill_value = check_rotation_args("Rotate", resample, expand, center, fill_value)

    def __call__(self, img):
        return rotate("Rotate", img, self.degrees, self.resample, self.expand, self.center, self.fill_value)


class ResizedCrop(TensorOperation):
    """Crop the region (top, left, height, width), then resize it to ``size``."""

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        for name, value, low in (("top", top, 0), ("left", left, 0), ("height", height, 1), ("width", width, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"ResizedCrop: {name} must be an int >= {low}, got {value!r}.")
        self.top, self.left, self.height, self.width = top, left, height, width
        self.size = check_size("ResizedCrop", size)
        self.interpolation = check_inter("ResizedCrop", interpolation)

    def __call__(self, img):
        image = as_image("ResizedCrop", img)
        if self.top + self.height > image.shape[0] or self.left + self.width > image.shape[1]:
            raise RuntimeError(f"ResizedCrop: the crop region exceeds the image of size {image.shape[:2]}.")
        region = crop_array(image, self.top, self.left, self.height, self.width)
        size = (self.size, self.size) if isinstance(self.size, int) else self.size
        return restore_like(resize_array(region, size[0], size[1], self.interpolation), img)

    def _batch_call(self, images):
        if (not image_batch(images) or self.top + self.height > images.shape[1]
                or self.left + self.width > images.shape[2]):
            return NotImplemented
        region = images[:, self.top:self.top + self.height, self.left:self.left + self.width]
        size = (self.size, self.size) if isinstance(self.size, int) else self.size
        return resize_batch(region, size[0], size[1], self.interpolation)


class SlicePatches(TensorOperation):
    """Cut the image into ``num_height`` x ``num_width`` patches (several output columns)."""

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        for name, value in (("num_height", num_height), ("num_width", num_width)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 512:
                raise ValueError(f"SlicePatches: Input {name} is not within the required interval of [1, 512], "
                                 f"got {value!r}.")
        if not isinstance(slice_mode, SliceMode):
            raise TypeError(f"SlicePatches: slice_mode should be a vision.SliceMode, got {slice_mode!r}.")
        self.num_height, self.num_width = num_height, num_width
        self.slice_mode = slice_mode
        self.fill_value = check_fill_value("SlicePatches", fill_value)

    def __call__(self, img):
        image = as_image("SlicePatches", img)
        height, width = image.shape[:2]
        if self.slice_mode == SliceMode.PAD:
            patch_h, patch_w = -(-height // self.num_height), -(-width // self.num_width)
            image = pad_image(image, 0, 0, patch_w * self.num_width - width, patch_h * self.num_height - height,
                              self.fill_value)
        else:
            patch_h, patch_w = height // self.num_height, width // self.num_width
        return tuple(np.ascontiguousarray(crop_array(image, row * patch_h, col * patch_w, patch_h, patch_w))
                     for row in range(self.num_height) for col in range(self.num_width))


def _fill(image, fill_value):
    if isinstance(fill_value, tuple) and image.ndim == 3:
        return np.resize(np.asarray(fill_value), image.shape[2])
    return fill_value if not isinstance(fill_value, tuple) else fill_value[0]


def affine_image(op_name, img, degrees, translate, scale, shear, resample, fill_value):
    """``img`` warped by the affine map of (degrees, translate, scale, shear) about its centre."""
    image = as_image(op_name, img)
    matrix = affine_matrix(image.shape[0], image.shape[1], degrees, translate, scale, shear)
    return restore_like(warp_affine(image, matrix, image.shape[:2], resample, _fill(image, fill_value)), img)


def _shear_pair(shear):
    if isinstance(shear, (int, float)):
        return float(shear), 0.0
    return (float(shear[0]), float(shear[1]) if len(shear) > 1 else 0.0)


class Affine(TensorOperation):
    """Rotate by ``degrees``, translate by ``translate`` (fractions of width/height), scale and shear."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        if not (isinstance(translate, (list, tuple)) and len(translate) == 2 and all(-1 <= t <= 1 for t in translate)):
            raise ValueError(f"Affine: translate should be two fractions in [-1.0, 1.0], got {translate!r}.")
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale <= 0:
            raise ValueError(f"Affine: scale must be a positive number, got {scale!r}.")
        self.degrees, self.translate, self.scale, self.shear = degrees, tuple(translate), scale, _shear_pair(shear)
        self.resample = check_inter("Affine", resample, "resample")
        self.fill_value = check_fill_value("Affine", fill_value)

    def __call__(self, img):
        return affine_image("Affine", img, self.degrees, self.translate, self.scale, self.shear, self.resample,
                       self.fill_value)


def perspective_image(op_name, img, start_points, end_points, interpolation):
    """``img`` warped by the perspective map taking ``start_points`` to ``end_points``."""
    image = as_image(op_name, img)
    matrix = perspective_matrix(start_points, end_points)
    return restore_like(warp_affine(image, matrix, image.shape[:2], interpolation, 0), img)


class Perspective(TensorOperation):
    """Warp the four ``start_points`` (x, y) of the image onto ``end_points``."""

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR):
        for name, points in (("start_points", start_points), ("end_points", end_points)):
            if not (isinstance(points, (list, tuple)) and len(points) == 4 and all(len(p) == 2 for p in points)):
                raise TypeError(f"Perspective: {name} should be four (x, y) points, got {points!r}.")
        self.start_points, self.end_points = start_points, end_points
        self.interpolation = check_inter("Perspective", interpolation)

    def __call__(self, img):
        return perspective_image("Perspective", img, self.start_points, self.end_points, self.interpolation)


def _corner_crops(op_name, img, size):
    height, width = (size, size) if isinstance(size, int) else size
    if is_pil(img):
        full_w, full_h = img.size
        crop = lambda left, top: img.crop((left, top, left + width, top + height))  # noqa: E731
    else:
        image = as_image(op_name, img)
        full_h, full_w = image.shape[:2]
        crop = lambda left, top: np.ascontiguousarray(image[top:top + height, left:left + width])  # noqa: E731
    if height > full_h or width > full_w:
        raise ValueError(f"{op_name}: crop size {(height, width)} is bigger than the image {(full_h, full_w)}.")
    return (crop(0, 0), crop(full_w - width, 0), crop(0, full_h - height), crop(full_w - width, full_h - height),
            CenterCrop((height, width))(img))


class FiveCrop(PythonOperation, TensorOperation):
    """The four corner crops and the centre crop of ``size`` (five outputs)."""

    def __init__(self, size):
        self.size = check_size("FiveCrop", size)

    def __call__(self, img):
        return _corner_crops("FiveCrop", img, self.size)


class TenCrop(PythonOperation, TensorOperation):
    """FiveCrop of the image and of its horizontal (or vertical) flip (ten outputs)."""

    def __init__(self, size, use_vertical_flip=False):
        self.size = check_size("TenCrop", size)
        self.use_vertical_flip = use_vertical_flip

    def __call__(self, img):
        if is_pil(img):
            flipped = img.transpose(1 if self.use_vertical_flip else 0)
        else:
            image = as_image("TenCrop", img)
            flipped = np.ascontiguousarray(image[::-1] if self.use_vertical_flip else image[:, ::-1])
        return _corner_crops("TenCrop", img, self.size) + _corner_crops("TenCrop", flipped, self.size)
