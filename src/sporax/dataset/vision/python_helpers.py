"""The array checks of MindSpore's Python vision transforms (``mindspore.dataset.vision.py_transforms_util``).

Libraries import a few of these helpers directly (mindarmour's natural-robustness perturbations use
``is_numpy`` and ``hwc_to_chw``); the other names of that MindSpore module are not served here.
"""
import numpy as np

from sporax.dataset.vision.utils import is_pil

__all__ = ["is_numpy", "is_pil", "hwc_to_chw"]


def is_numpy(img):
    """True when ``img`` is a NumPy array (a list or a PIL image is not)."""
    return isinstance(img, np.ndarray)


def hwc_to_chw(img):
    """Return an <H,W,C> array as a C-contiguous <C,H,W> copy; an <H,W> array is returned as it is.

    Raises TypeError, worded as MindSpore 2.10 words it, when ``img`` is not a NumPy array or is not 2-D/3-D.
    """
    if not is_numpy(img):
        raise TypeError(f"img should be NumPy array. Got {type(img)}.")
    if img.ndim not in (2, 3):
        raise TypeError(f"img dimension should be 2 or 3. Got {img.ndim}.")
    if img.ndim == 2:
        return img
    return np.ascontiguousarray(img.transpose(2, 0, 1))
