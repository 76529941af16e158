"""Encode one summary value (scalar, tensor, image, histogram) as MindSpore's ``Value`` message.

What each kind records, as MindSpore 2.10 records it:

- scalar: the first element, as a 32-bit float;
- tensor: the shape, MindSpore's ``DataType`` code and every element as a 32-bit float;
- image: (N, C, H, W) with C 1 or 3, tiled 8 per row on a black canvas, mapped to uint8 (values
  in [0, 1] times 255, otherwise ``(x - min) * 255 / (max - min + 1)``; uint8 images too, since
  MindSpore tests the canvas's float dtype), PNG-encoded;
- histogram: NaN/±inf counts, min/max/sum of the finite values and ``k`` equal-width buckets
  between min and max (``k`` = 2 up to 5 values, 3 up to 10, ``n // 10 + 1`` up to 880, then 90;
  min == max widens the range by 0.5 each way), edges computed in the value's dtype.
"""
import io
import struct

import numpy as np
from PIL import Image

from sporax.io.wire import encode_varint, length_delimited
from sporax.train.summary.event_file import double_field, float_field, varint_field

# MindSpore's summary DataType codes (anf_ir.proto).
_DATA_TYPES = {
    "bool": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "uint8": 6, "uint16": 7,
    "uint32": 8, "uint64": 9, "float16": 10, "float32": 11, "float64": 12,
}
_IMAGES_PER_ROW = 8


def _tag(tag):
    return length_delimited(1, tag.encode())


def scalar_value(tag, array):
    if array.size == 0:
        raise ValueError(f"For 'SummaryRecord', the scalar {tag!r} has no elements.")
    return _tag(tag) + float_field(3, array.reshape(-1)[0])


def tensor_value(tag, array):
    code = _DATA_TYPES.get(array.dtype.name)
    if code is None:
        raise TypeError(f"For 'SummaryRecord', the tensor {tag!r} has dtype {array.dtype}, which MindSpore's "
                        f"summary cannot store; expected bool, (u)int8-64 or float16/32/64.")
    dims = b"".join(varint_field(1, size) for size in array.shape)
    floats = array.reshape(-1).astype(np.float32).tobytes()
    message = dims + varint_field(2, code) + length_delimited(3, floats)
    return _tag(tag) + length_delimited(8, message)


def _bucket_count(count):
    if count == 0:
        return 1
    if count <= 5:
        return 2
    if count <= 10:
        return 3
    if count <= 880:
        return count // 10 + 1
    return 90


def histogram_value(tag, array):
    flat = array.reshape(-1)
    if flat.dtype == np.bool_:
        flat = flat.astype(np.int8)
    floating = np.issubdtype(flat.dtype, np.floating)
    finite = flat[np.isfinite(flat)] if floating else flat
    nan_count = int(np.isnan(flat).sum()) if floating else 0
    pos_inf = int(np.isposinf(flat).sum()) if floating else 0
    neg_inf = int(np.isneginf(flat).sum()) if floating else 0
    buckets = b""
    low = high = total = 0.0
    if finite.size:
        low, high = finite.min(), finite.max()
        total = finite.sum(dtype=np.float64)
        first, last = float(low), float(high)  # edges are spaced in double precision, then cast
        if not first < last:
            first, last = first - 0.5, last + 0.5
        edges = np.linspace(first, last, _bucket_count(finite.size) + 1, dtype=flat.dtype)
        counts, edges = np.histogram(finite, bins=edges)
        for count, left, right in zip(counts, edges, edges[1:]):
            bucket = double_field(1, left) + double_field(2, right - left) + varint_field(3, count)
            buckets += length_delimited(1, bucket)
    message = (buckets + varint_field(2, nan_count) + varint_field(3, pos_inf) + varint_field(4, neg_inf)
               + double_field(5, high) + double_field(6, low) + double_field(7, total)
               + varint_field(8, flat.size))
    return _tag(tag) + length_delimited(9, message)


def _canvas(images):
    if images.shape[1] == 1:
        images = np.concatenate([images] * 3, axis=1)
    count, _, height, width = images.shape
    columns = min(count, _IMAGES_PER_ROW)
    rows = -(-count // columns)
    canvas = np.zeros((3, height * rows, width * columns))
    for index in range(count):
        row, column = divmod(index, columns)
        canvas[:, row * height:(row + 1) * height, column * width:(column + 1) * width] = images[index]
    return canvas.transpose(1, 2, 0)


def image_value(tag, array):
    if array.ndim != 4 or array.shape[1] not in (1, 3) or 0 in array.shape:
        raise ValueError(f"For 'SummaryRecord', the image {tag!r} must be (N, C, H, W) with C 1 or 3 and no empty "
                         f"dimension, but got shape {array.shape}.")
    pixels = _canvas(array)
    largest, smallest = np.max(pixels), np.min(pixels)
    scale, shift = 1.0, 0.0
    if 0 <= smallest and largest <= 1:
        scale = 255.0
    else:
        if largest != smallest:
            scale = 255.0 / (largest - smallest + 1)
        shift = smallest
    pixels = ((pixels.astype(np.float32) - shift) * scale).astype(np.uint8)
    height, width, channels = pixels.shape
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    message = (varint_field(1, height) + varint_field(2, width) + varint_field(3, channels)
               + length_delimited(4, buffer.getvalue()))
    return _tag(tag) + length_delimited(4, message)


ENCODERS = {"scalar": scalar_value, "tensor": tensor_value, "image": image_value, "histogram": histogram_value}
