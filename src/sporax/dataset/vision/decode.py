"""Image decoding (Decode) and file helpers of ``mindspore.dataset.vision`` (Pillow based)."""
import io

import numpy as np
from PIL import Image

from sporax.dataset.transforms.base import Implementation, TensorOperation
from sporax.dataset.vision.utils import ImageReadMode, is_pil


def decode_image(op_name, data, to_pil=False):
    """Decode encoded image bytes (a 1-D uint8 array or bytes) into an RGB HWC uint8 array or PIL image."""
    if is_pil(data):
        raise TypeError(f"{op_name}: the input is already a decoded PIL image; Decode expects encoded bytes.")
    if isinstance(data, np.ndarray) and data.dtype.kind == "S" and data.size == 1:
        data = data.reshape(-1)[0]  # a bytes column as MindDataset yields it
    if isinstance(data, np.ndarray):
        if data.dtype != np.uint8 or data.ndim != 1:
            raise TypeError(f"{op_name}: expected encoded image bytes as a 1-D uint8 array, got dtype {data.dtype} "
                            f"and shape {data.shape}. The image may already be decoded.")
        data = data.tobytes()
    elif not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"{op_name}: expected encoded image bytes (numpy uint8 array or bytes), "
                        f"got {type(data).__name__}.")
    try:
        image = Image.open(io.BytesIO(data))
        image = image.convert("RGB")
    except Exception as error:  # Pillow raises several error types for corrupt data
        raise RuntimeError(f"{op_name}: image decode failed ({error}).") from None
    return image if to_pil else np.asarray(image)


class Decode(TensorOperation):
    """Decode JPEG/PNG/BMP/GIF/TIFF bytes into an RGB <H,W,3> uint8 array (or a PIL image with ``to_pil``)."""

    def __init__(self, to_pil=False):
        if not isinstance(to_pil, bool):
            raise TypeError(f"Decode: to_pil must be a bool, got {type(to_pil).__name__}.")
        self.to_pil = to_pil
        if to_pil:  # as MindSpore 2.10: the PIL decoder is its Python kernel
            self.implementation = Implementation.PY

    def __call__(self, img):
        return decode_image("Decode", img, self.to_pil)


def read_file(filename):
    """Read a file's bytes as a 1-D uint8 array."""
    with open(filename, "rb") as handle:
        return np.frombuffer(handle.read(), dtype=np.uint8)


def write_file(filename, data):
    """Write a 1-D uint8 array to a file."""
    with open(filename, "wb") as handle:
        handle.write(np.asarray(data, dtype=np.uint8).tobytes())


def read_image(filename, mode=ImageReadMode.UNCHANGED):
    """Read and decode an image file into an <H,W,C> uint8 array."""
    image = Image.open(filename)
    if mode == ImageReadMode.GRAYSCALE:
        image = image.convert("L")
    elif mode == ImageReadMode.COLOR:
        image = image.convert("RGB")
    array = np.asarray(image)
    return array[..., None] if array.ndim == 2 else array


def _encode(image, fmt, **options):
    image = np.asarray(image)
    if image.dtype != np.uint8:
        raise TypeError(f"encode_{fmt.lower()}: expected a uint8 image, got {image.dtype}.")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[..., 0]
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format=fmt, **options)
    return np.frombuffer(buffer.getvalue(), dtype=np.uint8)


def encode_jpeg(image, quality=75):
    """Encode an <H,W> or <H,W,C> uint8 image as JPEG bytes (1-D uint8 array)."""
    if not 1 <= quality <= 100:
        raise ValueError(f"encode_jpeg: quality must be in [1, 100], got {quality}.")
    return _encode(image, "JPEG", quality=quality)


def encode_png(image, compression_level=6):
    """Encode an <H,W> or <H,W,C> uint8 image as PNG bytes (1-D uint8 array)."""
    if not 0 <= compression_level <= 9:
        raise ValueError(f"encode_png: compression_level must be in [0, 9], got {compression_level}.")
    return _encode(image, "PNG", compress_level=compression_level)


def write_jpeg(filename, image, quality=75):
    """Encode ``image`` as JPEG and write it to ``filename``."""
    write_file(filename, encode_jpeg(image, quality))


def write_png(filename, image, compression_level=6):
    """Encode ``image`` as PNG and write it to ``filename``."""
    write_file(filename, encode_png(image, compression_level))


def get_image_num_channels(image):
    """Number of channels of a NumPy (HWC) or PIL image."""
    if is_pil(image):
        return len(image.getbands())
    image = np.asarray(image)
    return 1 if image.ndim == 2 else image.shape[-1]


def get_image_size(image):
    """[height, width] of a NumPy (HWC) or PIL image."""
    if is_pil(image):
        return [image.size[1], image.size[0]]
    return list(np.asarray(image).shape[:2])
