"""Affine warps of NumPy images with OpenCV's ``warpAffine`` conventions (MindSpore's rotation)."""
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


def warp_affine(image, matrix, out_size, mode=Inter.NEAREST, fill=0):
    """Warp ``image`` by the forward 2x3 affine (or 3x3 projective) ``matrix`` into ``out_size`` (h, w);
    outside pixels get ``fill``."""
    out_h, out_w = out_size
    forward = np.vstack([matrix, [0.0, 0.0, 1.0]]) if matrix.shape[0] == 2 else matrix
    inverse = np.linalg.inv(forward)
    ys, xs = np.mgrid[0:out_h, 0:out_w].astype(np.float64)
    src_x = inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]
    src_y = inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]
    if matrix.shape[0] == 3:
        weight = inverse[2, 0] * xs + inverse[2, 1] * ys + inverse[2, 2]
        weight = np.where(weight == 0, np.inf, weight)
        src_x, src_y = src_x / weight, src_y / weight
    planar = image if image.ndim == 3 else image[..., None]
    height, width, channels = planar.shape
    margin = 2
    fill_vector = np.broadcast_to(np.asarray(fill, dtype=np.float64), (channels,))
    padded = np.empty((height + 2 * margin, width + 2 * margin, channels), np.float32)
    padded[...] = fill_vector
    padded[margin:margin + height, margin:margin + width] = planar

    def gather(rows, cols):
        rows = np.clip(rows + margin, 0, height + 2 * margin - 1)
        cols = np.clip(cols + margin, 0, width + 2 * margin - 1)
        return padded[rows, cols]

    mode = Inter(mode)
    if mode == Inter.NEAREST:
        # Coordinates far outside land in the fill margin after clipping.
        out = gather(np.floor(src_y + 0.5).astype(np.int64), np.floor(src_x + 0.5).astype(np.int64))
    else:
        # OpenCV snaps source coordinates to 1/32 of a pixel before interpolating.
        src_y = np.round(src_y * 32.0) / 32.0
        src_x = np.round(src_x * 32.0) / 32.0
        top = np.floor(src_y).astype(np.int64)
        left = np.floor(src_x).astype(np.int64)
        fy, fx = src_y - top, src_x - left
        if mode == Inter.BICUBIC:
            offsets = range(-1, 3)
            weight_y = [_cubic(fy - o) for o in offsets]
            weight_x = [_cubic(fx - o) for o in offsets]
        else:
            offsets = range(0, 2)
            weight_y, weight_x = [1.0 - fy, fy], [1.0 - fx, fx]
        out = np.zeros((out_h, out_w, channels), np.float64)
        for i, oy in enumerate(offsets):
            row = np.zeros((out_h, out_w, channels), np.float64)
            for j, ox in enumerate(offsets):
                row += weight_x[j][..., None] * gather(top + oy, left + ox)
            out += weight_y[i][..., None] * row
        far = ((src_y < -margin + 1) | (src_y > height + margin - 2)
               | (src_x < -margin + 1) | (src_x > width + margin - 2))
        out[far] = fill_vector
    if image.dtype.kind in "iu":
        info = np.iinfo(image.dtype)
        out = np.clip(np.rint(out), info.min, info.max)
    out = out.astype(image.dtype)
    return out if image.ndim == 3 else out[..., 0]
