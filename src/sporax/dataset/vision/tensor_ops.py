"""Value and layout transforms: Rescale, Normalize, LinearTransformation, HWC2CHW, ToTensor, ToPIL, ToNumpy,
ToType."""
import numpy as np
from PIL import Image

from sporax.dataset.transforms.base import PythonOperation, TensorOperation
from sporax.dataset.transforms.generic import TypeCast, to_numpy_dtype
from sporax.dataset.vision.utils import as_image, is_pil


class Rescale(TensorOperation):
    """``image * rescale + shift`` as float32."""

    def __init__(self, rescale, shift):
        for name, value in (("rescale", rescale), ("shift", shift)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"Rescale: argument {name} with value {value!r} is not of type [float, int], "
                                f"but got {type(value)}.")
        self.rescale = rescale
        self.shift = shift
        self._scale, self._offset = np.float32(rescale), np.float32(shift)

    def _apply(self, image):
        out = np.multiply(image, self._scale, dtype=np.float32)
        if self._offset:
            out += self._offset
        return out

    def __call__(self, img):
        image = np.asarray(img) if is_pil(img) else img
        if not isinstance(image, np.ndarray) or image.dtype.kind not in "biuf":
            image = as_image("Rescale", image, min_rank=0)
        return self._apply(image)

    def _batch_call(self, images):
        return self._apply(images)


def _check_mean_std(op_name, mean, std):
    for name, values, low_open in (("mean", mean, False), ("std", std, True)):
        if not isinstance(values, (list, tuple)) or not values or len(values) > 4 or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            raise TypeError(f"{op_name}: {name} should be a list or tuple of 1 to 4 numbers, got {values!r}.")
        for index, value in enumerate(values):
            if (value <= 0 if low_open else value < 0) or value > 255:
                left = "(" if low_open else "["
                raise ValueError(f"Input {name}[{index}] is not within the required interval of {left}0, 255].")
    if len(mean) != len(std):
        raise ValueError(f"{op_name}: Length of mean and std must be equal, got {len(mean)} and {len(std)}.")


class Normalize(TensorOperation):
    """``(image - mean) / std`` per channel, as float32 (channels last unless ``is_hwc=False``)."""

    def __init__(self, mean, std, is_hwc=True):
        _check_mean_std("Normalize", mean, std)
        if not isinstance(is_hwc, bool):
            raise TypeError(f"Normalize: is_hwc must be a bool, got {type(is_hwc).__name__}.")
        self.mean, self.std, self.is_hwc = mean, std, is_hwc
        self._mean = np.asarray(mean, np.float32)
        self._std = np.asarray(std, np.float32)

    def _shaped(self, rank, channels):
        """mean/std broadcastable against an image of ``rank`` with ``channels``; None if mismatched."""
        if rank == 2 or len(self._mean) == 1:
            if len(self._mean) != 1 and rank == 2:
                return None
            return self._mean[0], self._std[0]
        if channels != len(self._mean):
            return None
        shape = (-1,) if self.is_hwc else (-1, 1, 1)
        return self._mean.reshape(shape), self._std.reshape(shape)

    def _apply(self, image, rank):
        channels = 1 if rank == 2 else image.shape[-1] if self.is_hwc else image.shape[-3]
        shaped = self._shaped(rank, channels)
        if shaped is None:
            raise RuntimeError(f"Normalize: number of channels does not match the size of mean and std vectors, got "
                               f"channels: {channels}, size of mean: {len(self._mean)}.")
        mean, std = shaped
        if rank == 3 and self.is_hwc and np.ndim(mean) == 1 and image.flags.c_contiguous:
            # Broadcasting a 3-vector makes NumPy's inner loop 3 long; tile it along a row instead.
            width = image.shape[-2]
            mean, std = self._tiled(width)
            flat = image.reshape(image.shape[:-2] + (width * channels,))
            out = np.subtract(flat, mean, dtype=np.float32)
            out /= std
            return out.reshape(image.shape)
        out = np.subtract(image, mean, dtype=np.float32)
        out /= std
        return out

    def _tiled(self, width):
        cache = self.__dict__.setdefault("_tile_cache", {})
        if width not in cache:
            cache[width] = (np.tile(self._mean, width), np.tile(self._std, width))
        return cache[width]

    def __call__(self, img):
        image = as_image("Normalize", img)
        if (self.is_hwc and image.ndim == 3 and len(self._mean) > 1 and image.shape[2] != len(self._mean)
                and image.shape[0] == len(self._mean)):
            # Legacy py_transforms.Normalize ran after ToTensor on <C,H,W> images: accept that layout
            # instead of failing (MindSpore 2.x would raise here).
            return self._apply_chw(image)
        return self._apply(image, image.ndim)

    def _apply_chw(self, image):
        out = np.subtract(image, self._mean.reshape(-1, 1, 1), dtype=np.float32)
        out /= self._std.reshape(-1, 1, 1)
        return out

    def _batch_call(self, images):
        if images.ndim not in (3, 4):
            return NotImplemented
        return self._apply(images, images.ndim - 1)


class NormalizePad(Normalize):
    """Normalize, then append a zero channel (HWC: 3 channels -> 4), output ``dtype``."""

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        super().__init__(mean, std, is_hwc)
        if dtype not in ("float32", "float16"):
            raise ValueError(f"NormalizePad: dtype must be 'float32' or 'float16', got {dtype!r}.")
        self.dtype = dtype

    def __call__(self, img):
        out = super().__call__(img)
        if out.ndim == 2:
            out = out[..., None]
        return self._pad_channel(out, -1 if self.is_hwc else 0)

    def _pad_channel(self, out, axis):
        if axis == 0 or axis == 1 and out.ndim == 4:
            pad = [(0, 0)] * out.ndim
            pad[axis] = (0, 1)
            return np.pad(out, pad).astype(self.dtype)
        # <H,W,C> (recorded on MindSpore 2.10, eager and in a pipeline): the normalized values keep
        # their <H,W,C> order as one flat run, the H*W zeros come after it, and that buffer is read
        # as <H,W,C+1>. The zero channel is therefore not interleaved; match it value for value.
        rows = out.reshape(-1, out.shape[-3] * out.shape[-2] * out.shape[-1])
        padded = np.concatenate([rows, np.zeros((rows.shape[0], out.shape[-3] * out.shape[-2]), rows.dtype)], axis=1)
        return padded.reshape(out.shape[:-1] + (out.shape[-1] + 1,)).astype(self.dtype)

    def _batch_call(self, images):
        # Normalize's batched path, then the extra channel (rows are <H,W,C> or <C,H,W>).
        if images.ndim != 4:
            return NotImplemented
        return self._pad_channel(super()._batch_call(images), -1 if self.is_hwc else 1)


class HWC2CHW(TensorOperation):
    """Transpose an <H,W,C> image to <C,H,W> (an <H,W> image is returned unchanged)."""

    def __call__(self, img):
        image = np.asarray(img) if is_pil(img) else img
        if not isinstance(image, np.ndarray) or image.ndim not in (2, 3):
            shape = getattr(image, "shape", None)
            raise RuntimeError(f"HWC2CHW: image shape should be <H,W> or <H,W,C>, but got "
                               f"{'rank: ' + str(len(shape)) if shape is not None else type(image).__name__}.")
        if image.ndim == 2:
            return image
        return np.ascontiguousarray(image.transpose(2, 0, 1))

    def _batch_call(self, images):
        if images.ndim == 3:
            return images
        if images.ndim != 4:
            return NotImplemented
        return np.ascontiguousarray(images.transpose(0, 3, 1, 2))


class ToTensor(TensorOperation):
    """Scale an image to [0, 1] (dividing by 255) and transpose HWC to CHW, as ``output_type``."""

    def __init__(self, output_type=np.float32):
        self.output_type = output_type
        self._dtype = to_numpy_dtype("ToTensor", output_type)

    def __call__(self, img):
        if is_pil(img):
            out = np.asarray(img, dtype=np.float32) / np.float32(255.0)
        else:
            image = as_image("ToTensor", img)
            out = np.multiply(image, np.float32(1.0 / 255.0), dtype=np.float32)
        if out.ndim == 2:
            out = out[None]
        else:
            out = out.transpose(2, 0, 1)
        return np.ascontiguousarray(out, dtype=self._dtype)

    def _batch_call(self, images):
        if images.ndim not in (3, 4):
            return NotImplemented
        out = np.multiply(images, np.float32(1.0 / 255.0), dtype=np.float32)
        out = out[:, None] if out.ndim == 3 else out.transpose(0, 3, 1, 2)
        return np.ascontiguousarray(out, dtype=self._dtype)


_PIL_MODES = {(2, np.dtype(np.uint8)): "L", (2, np.dtype(np.float32)): "F", (2, np.dtype(np.int32)): "I",
              (2, np.dtype(bool)): "1"}


class ToPIL(PythonOperation, TensorOperation):
    """Convert an <H,W> or <H,W,C> NumPy image to a PIL image (a PIL image passes through)."""

    def __call__(self, img):
        if is_pil(img):
            return img
        image = as_image("ToPIL", img)
        if image.ndim == 3 and image.shape[2] == 1:
            image = image[..., 0]
        if image.ndim == 3:
            if image.dtype != np.uint8:
                raise TypeError(f"ToPIL: The input image type {image.dtype} is not supported when image shape is "
                                f"[H, W, 2], [H, W, 3] or [H, W, 4]; convert it to uint8 first.")
            if image.shape[2] not in (2, 3, 4):
                raise TypeError(f"ToPIL: images with {image.shape[2]} channels are not supported; expected 1 to 4.")
            return Image.fromarray(image)
        if (2, image.dtype) not in _PIL_MODES:
            raise TypeError(f"ToPIL: The input image type {image.dtype} is not supported for an <H,W> image; "
                            f"use uint8, int32, float32 or bool.")
        return Image.fromarray(image)


class ToNumpy(TensorOperation):
    """Convert a PIL image, or an array-like of any rank (a list of images too), to a NumPy array."""

    def __call__(self, img):
        if is_pil(img):
            return np.asarray(img)
        if hasattr(img, "asnumpy"):
            return img.asnumpy()
        try:
            array = np.asarray(img)
        except (TypeError, ValueError):
            array = None
        if array is None or array.dtype == object:
            raise TypeError(f"ToNumpy: expected a PIL image or an array-like of numbers, got {type(img).__name__} "
                            f"(a ragged list of images has no single array shape).")
        return array


class ToType(TypeCast):
    """Cast an image to ``data_type`` (alias of transforms.TypeCast for vision pipelines)."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._dtype = to_numpy_dtype("ToType", data_type)


class LinearTransformation(PythonOperation, TensorOperation):
    """Flatten, subtract ``mean_vector``, multiply by ``transformation_matrix`` and restore the shape."""

    def __init__(self, transformation_matrix, mean_vector):
        self.transformation_matrix = np.asarray(transformation_matrix)
        self.mean_vector = np.asarray(mean_vector)
        size = self.mean_vector.size
        if self.transformation_matrix.shape != (size, size):
            raise ValueError(f"LinearTransformation: transformation_matrix must be {size}x{size} to match "
                             f"mean_vector, got {self.transformation_matrix.shape}.")

    def __call__(self, np_img):
        image = np.asarray(np_img)
        if image.size != self.mean_vector.size:
            raise RuntimeError(f"LinearTransformation: the image has {image.size} elements but mean_vector has "
                               f"{self.mean_vector.size}.")
        flat = image.reshape(1, -1) - self.mean_vector
        return (flat @ self.transformation_matrix).reshape(image.shape)
