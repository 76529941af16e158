"""Affine warps of NumPy images with OpenCV's ``warpAffine`` conventions (MindSpore's rotation)."""
import functools
import math

import numpy as np

from sporax.dataset.vision.resample import _cubic
from sporax.dataset.vision.utils import Inter


def rotation_matrix(height, width, degrees, center=None, expand=False):
    """The 2x3 forward matrix (source -> destination) and output size of a rotation.

    Positive ``degrees`` turn the image counter-clockwise about ``center`` ((x, y); the pixel
    centre of the image by default). With ``expand`` the output grows to hold the whole image.
    """
    if center is None:
        center_x, center_y = (width - 1) / 2.0, (height - 1) / 2.0
    else:
        center_x, center_y = float(center[0]), float(center[1])
    angle = math.radians(degrees)
    cos, sin = math.cos(angle), math.sin(angle)
    matrix = np.array([[cos, sin, (1 - cos) * center_x - sin * center_y],
                       [-sin, cos, sin * center_x + (1 - cos) * center_y]])
    out_h, out_w = height, width
    if expand:
        # The shift uses the exact rotated extent; the output size is that extent rounded.
        extent_w = abs(width * cos) + abs(height * sin)
        extent_h = abs(width * sin) + abs(height * cos)
        out_w, out_h = int(round(extent_w)), int(round(extent_h))
        matrix[0, 2] += (extent_w - width) / 2.0
        matrix[1, 2] += (extent_h - height) / 2.0
    return matrix, (out_h, out_w)


def affine_matrix(height, width, degrees, translate, scale, shear):
    """Forward 2x3 matrix of Affine: rotate/scale/shear about the pixel centre, then translate by a
    fraction (``translate`` = (x, y)) of the image size."""
    center_x, center_y = (width - 1) * 0.5, (height - 1) * 0.5
    angle, shear_x, shear_y = math.radians(degrees), math.radians(shear[0]), math.radians(shear[1])
    a = math.cos(angle - shear_y) / math.cos(shear_y)
    b = -math.cos(angle - shear_y) * math.tan(shear_x) / math.cos(shear_y) - math.sin(angle)
    c = math.sin(angle - shear_y) / math.cos(shear_y)
    d = -math.sin(angle - shear_y) * math.tan(shear_x) / math.cos(shear_y) + math.cos(angle)
    linear = np.array([[a, b], [c, d]]) * scale
    center = np.array([center_x, center_y])
    offset = center - linear @ center + np.array([translate[0] * width, translate[1] * height])
    return np.hstack([linear, offset[:, None]])


def perspective_matrix(start_points, end_points):
    """The 3x3 homography taking the four ``start_points`` (x, y) to ``end_points``."""
    rows, values = [], []
    for (x, y), (u, v) in zip(start_points, end_points):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        values += [u, v]
    solution = np.linalg.solve(np.array(rows, np.float64), np.array(values, np.float64))
    return np.append(solution, 1.0).reshape(3, 3)


def _fixed_affine(matrix, out_h, out_w, frac_bits):
    """Source coordinates of each output pixel as OpenCV's ``warpAffine`` computes them, in fixed point with
    ``frac_bits`` fraction bits (0 for nearest, 5 for the 1/32-pixel grid of the interpolating modes).

    The forward 2x3 ``matrix`` is inverted by its explicit formula, each term is scaled to 10 fraction bits
    and rounded on its own, half a ``frac_bits`` step is added and the sum is shifted down. Floating-point
    rounding picked the neighbouring pixel for 1-2 pixels of a 16x16 rotation and a neighbouring 1/32
    step for hundreds of pixels of a bilinear one. Returns (rows, cols) as int64 arrays of shape (h, w).
    """
    (a, b, c), (d, e, f) = matrix
    det = a * e - b * d
    det = 1.0 / det if det != 0 else 0.0
    a, b, d, e = e * det, -b * det, -d * det, a * det
    c, f = -a * c - b * f, -d * c - e * f
    ab_bits = 10
    scale, half, shift = 1 << ab_bits, 1 << (ab_bits - frac_bits - 1), ab_bits - frac_bits
    xs = np.arange(out_w, dtype=np.float64)
    ys = np.arange(out_h, dtype=np.float64)
    x_step = np.rint(a * xs * scale).astype(np.int64)[None, :]
    y_step = np.rint(d * xs * scale).astype(np.int64)[None, :]
    x_row = (np.rint((b * ys + c) * scale).astype(np.int64) + half)[:, None]
    y_row = (np.rint((e * ys + f) * scale).astype(np.int64) + half)[:, None]
    return (y_row + y_step) >> shift, (x_row + x_step) >> shift


@functools.lru_cache(maxsize=1)
def _fixed_cubic_table():
    """OpenCV's uint8 bicubic weights: for each (row, column) 1/32 fraction a 4x4 int64 kernel summing to 1 << 15.

    The 1-D weights (a = -0.75) and their products are float32, each product is scaled by 1 << 15 and
    rounded; the rounding error of the sum goes to the largest (sum too small) or smallest (too large)
    of the four central-right taps, as OpenCV's table does. Shape (32, 32, 4, 4).
    """
    x = (np.arange(32, dtype=np.float32) / np.float32(32))[:, None]
    taps = np.hstack([_cubic(x + 1), _cubic(x), _cubic(1 - x), _cubic(2 - x)]).astype(np.float32)
    taps[:, 3] = np.float32(1) - taps[:, 0] - taps[:, 1] - taps[:, 2]
    table = np.rint(taps[:, None, :, None] * taps[None, :, None, :] * np.float32(1 << 15)).astype(np.int64)
    for row in range(32):
        for col in range(32):
            kernel = table[row, col]
            diff = int(kernel.sum()) - (1 << 15)
            if diff:
                smallest = largest = (2, 2)
                for k1 in (2, 3):
                    for k2 in (2, 3):
                        if kernel[k1, k2] < kernel[smallest]:
                            smallest = (k1, k2)
                        elif kernel[k1, k2] > kernel[largest]:
                            largest = (k1, k2)
                kernel[largest if diff < 0 else smallest] -= diff
    return table


def warp_affine(image, matrix, out_size, mode=Inter.NEAREST, fill=0):
    """Warp ``image`` by the forward 2x3 affine (or 3x3 projective) ``matrix`` into ``out_size`` (h, w);
    outside pixels get ``fill``. uint8 images interpolate in OpenCV's fixed point (1/32-pixel coordinates,
    integer weights summing to 1 << 15), so bilinear and bicubic results equal MindSpore's bit for bit."""
    out_h, out_w = out_size
    forward = np.vstack([matrix, [0.0, 0.0, 1.0]]) if matrix.shape[0] == 2 else matrix
    inverse = np.linalg.inv(forward)
    xs = np.arange(out_w, dtype=np.float64)[None, :]
    ys = np.arange(out_h, dtype=np.float64)[:, None]
    src_x = inverse[0, 0] * xs + (inverse[0, 1] * ys + inverse[0, 2])
    src_y = inverse[1, 0] * xs + (inverse[1, 1] * ys + inverse[1, 2])
    if matrix.shape[0] == 3:
        weight = inverse[2, 0] * xs + (inverse[2, 1] * ys + inverse[2, 2])
        weight = np.where(weight == 0, np.inf, weight)
        src_x, src_y = src_x / weight, src_y / weight
    planar = image if image.ndim == 3 else image[..., None]
    height, width, channels = planar.shape
    margin = 3  # the widest kernel (bicubic) reaches 1 pixel up/left and 2 down/right of its base
    work = np.float64 if image.dtype == np.float64 else np.float32
    fill_vector = np.broadcast_to(np.asarray(fill, dtype=work), (channels,))
    # Channel planes with a fill-valued margin, flattened: every tap is one gather of whole rows.
    padded_h, padded_w = height + 2 * margin, width + 2 * margin
    planes = np.empty((channels, padded_h, padded_w), work)
    planes[...] = fill_vector[:, None, None]
    planes[:, margin:margin + height, margin:margin + width] = np.moveaxis(planar, 2, 0)
    planes = planes.reshape(channels, -1)

    def base_index(rows, cols, low, high):
        # Clip so every tap offset in [low, high] stays inside the margin; points that far out are
        # replaced by the fill value afterwards (nearest: they land in the fill margin).
        rows = np.minimum(np.maximum(rows + margin, -low), padded_h - 1 - high)
        cols = np.minimum(np.maximum(cols + margin, -low), padded_w - 1 - high)
        return (rows * padded_w + cols).ravel()

    mode = Inter(mode)
    if mode == Inter.NEAREST and matrix.shape[0] == 2:
        rows, cols = _fixed_affine(matrix, out_h, out_w, 0)
        index = base_index(rows, cols, 0, 0)
        out = np.stack([plane.take(index) for plane in planes])
    elif mode == Inter.NEAREST:
        index = base_index(np.floor(src_y + 0.5).astype(np.int64), np.floor(src_x + 0.5).astype(np.int64), 0, 0)
        out = np.stack([plane.take(index) for plane in planes])
    else:
        # OpenCV snaps source coordinates to 1/32 of a pixel before interpolating (in fixed point for affines).
        if matrix.shape[0] == 2:
            rows, cols = _fixed_affine(matrix, out_h, out_w, 5)
        else:
            rows = np.nan_to_num(np.round(src_y * 32.0), nan=-1e9, posinf=1e9, neginf=-1e9).astype(np.int64)
            cols = np.nan_to_num(np.round(src_x * 32.0), nan=-1e9, posinf=1e9, neginf=-1e9).astype(np.int64)
        top, left = rows >> 5, cols >> 5
        frac_y, frac_x = (rows & 31).ravel(), (cols & 31).ravel()
        # uint8 weights are integers summing to 1 << 15 as in OpenCV's fixed-point remap: bilinear sums stay
        # below 2 ** 24 (exact in float32); bicubic ones, with negative taps, need float64.
        fixed = image.dtype == np.uint8
        if fixed and mode == Inter.BICUBIC:
            work = np.float64
        offsets = range(-1, 3) if mode == Inter.BICUBIC else range(0, 2)
        if mode == Inter.BICUBIC and fixed:
            # One 1-D take per tap from (tap, fraction) rows is much faster than slicing (N, 4, 4) kernels.
            kernels = _fixed_cubic_table().reshape(1024, 16).T.astype(work)
            fraction = frac_y * 32 + frac_x
            weights = [[kernels[i * 4 + j].take(fraction) for j in range(4)] for i in range(4)]
        elif mode == Inter.BICUBIC:
            weight_y = [_cubic(frac_y / 32.0 - o).astype(work) for o in offsets]
            weight_x = [_cubic(frac_x / 32.0 - o).astype(work) for o in offsets]
            weights = [[wy * wx for wx in weight_x] for wy in weight_y]
        else:
            scale = 32.0 if fixed else 1.0 / 1024.0
            weights = [[(wy * wx * scale).astype(work) for wx in (32 - frac_x, frac_x)] for wy in (32 - frac_y, frac_y)]
        index = base_index(top, left, offsets[0], offsets[-1])
        out = np.zeros((channels, out_h * out_w), work)
        for i, oy in enumerate(offsets):
            for j, ox in enumerate(offsets):
                tap_index = index + (oy * padded_w + ox)
                for channel, plane in enumerate(planes):  # 1-D takes are much faster than 2-D ones
                    out[channel] += weights[i][j] * plane.take(tap_index)
        if fixed:
            out = np.floor((out + (1 << 14)) / float(1 << 15))
        # Points whose every tap is outside get the fill value (their base index was clipped).
        far = ((top + offsets[-1] < 0) | (top + offsets[0] >= height)
               | (left + offsets[-1] < 0) | (left + offsets[0] >= width)).ravel()
        out[:, far] = fill_vector[:, None]
    if image.dtype.kind in "iu" and mode != Inter.NEAREST:
        info = np.iinfo(image.dtype)
        out = np.clip(np.rint(out), info.min, info.max)
    result = np.empty((out_h, out_w, channels), image.dtype)
    for channel in range(channels):
        result[..., channel] = out[channel].reshape(out_h, out_w)
    return result if image.ndim == 3 else result[..., 0]
