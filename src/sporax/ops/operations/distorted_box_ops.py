"""``ops.SampleDistortedBoundingBoxV2``: a random crop of an image that keeps enough of its objects (TensorFlow's
``sample_distorted_bounding_box``, which MindSpore 2.10 follows).

Algorithm, per attempt (at most ``max_attempts``): draw an aspect ratio ``a`` uniformly in
``aspect_ratio_range``; with ``min_area``/``max_area`` the ``area_range`` fractions of ``H * W``, the crop
height runs from ``round(sqrt(min_area / a))`` to ``round(sqrt(max_area / a))`` (held so that the width
``round(height * a)`` fits the image), a height is drawn uniformly in that range and nudged by one when
its area falls outside ``[min_area, max_area]``; the top-left corner is uniform over the positions
that fit. The crop is accepted when it covers at least ``min_object_covered`` of the area of one of
``bounding_boxes`` (a cover of 0 accepts any crop). When no attempt succeeds the crop is the whole
image. Random numbers come from the op's own stream when ``seed`` or ``seed2`` is set (a new instance
with the same seeds repeats it), else from the global random state. It runs eagerly (PyNative), on
the concrete sizes.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> begin, size, box = ops.SampleDistortedBoundingBoxV2(seed=1)(
    ...     Tensor(np.array([10, 10, 3], np.int32)), Tensor(np.array([[[0.1, 0.1, 0.9, 0.9]]], np.float32)),
    ...     Tensor(np.array([0.1], np.float32)))
    >>> begin.shape, size.shape, box.shape
    ((3,), (3,), (1, 1, 4))
"""
from sporax.core.tensor import Tensor
from sporax.ops.functional import distorted_box
from sporax.ops.functional.distorted_box import _pair
from sporax.ops.operations.random_ops import _RandomPrimitive
from sporax.ops.primitive import Primitive


class SampleDistortedBoundingBoxV2(_RandomPrimitive):
    """A randomly distorted crop box for an image (see the module doc for the algorithm).

    Args:
        seed, seed2 (int): op seeds; 0 and 0 draw from the global random state. Default: 0.
        aspect_ratio_range (tuple[float]): width / height range. Default: (0.75, 1.33).
        area_range (tuple[float]): the crop's fraction of the image area, in (0, 1]. Default: (0.05, 1.0).
        max_attempts (int): attempts before falling back to the whole image. Default: 100.
        use_image_if_no_bounding_boxes (bool): without boxes, use the whole image as the box (else an error).
            Default: False.

    Inputs:
        - **image_size** (Tensor) - [height, width, channels], positive ints.
        - **bounding_boxes** (Tensor) - float32 (batch, N, 4) normalized ``(y1, x1, y2, x2)`` boxes.
        - **min_object_covered** (Tensor) - float32 (1,): the fraction of a box the crop must cover.

    Outputs:
        ``(begin, size, bboxes)``: ``[y, x, 0]`` and ``[h, w, -1]`` (``image_size``'s dtype; -1 is 255 for uint8),
        and the crop as a float32 (1, 1, 4) normalized box.
    """

    def __init__(self, seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0), max_attempts=100,
                 use_image_if_no_bounding_boxes=False):
        Primitive.__init__(self, "SampleDistortedBoundingBoxV2")
        for name, value in (("seed", seed), ("seed2", seed2), ("max_attempts", max_attempts)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'SampleDistortedBoundingBoxV2', '{name}' must be an int, but got {value!r}.")
        if max_attempts < 1:
            raise ValueError(f"For 'SampleDistortedBoundingBoxV2', max_attempts must be positive, but got "
                             f"{max_attempts}.")
        if not isinstance(use_image_if_no_bounding_boxes, bool):
            raise TypeError("For 'SampleDistortedBoundingBoxV2', use_image_if_no_bounding_boxes must be a bool.")
        ratios = _pair("aspect_ratio_range", aspect_ratio_range, low_open=True)
        areas = _pair("area_range", area_range, low_open=False)
        for name, value in (("seed", seed), ("seed2", seed2), ("aspect_ratio_range", aspect_ratio_range),
                            ("area_range", area_range), ("max_attempts", max_attempts),
                            ("use_image_if_no_bounding_boxes", use_image_if_no_bounding_boxes)):
            self.add_prim_attr(name, value)
        # after add_prim_attr, which sets each attribute to the value as given: the checked pairs
        self.aspect_ratio_range, self.area_range = ratios, areas
        self.seed, self.seed2 = seed, seed2
        self._start_stream()

    def __call__(self, image_size, bounding_boxes, min_object_covered):
        for name, value in (("image_size", image_size), ("bounding_boxes", bounding_boxes),
                            ("min_object_covered", min_object_covered)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For 'SampleDistortedBoundingBoxV2', '{name}' must be a Tensor, but got "
                                f"{type(value).__name__}.")
        # the op-table entry, run with this Primitive's own stream
        return distorted_box.sample_distorted_bounding_box_v2.entry.sample(
            self._key(), image_size, bounding_boxes, min_object_covered,
            aspect_ratio_range=self.aspect_ratio_range, area_range=self.area_range, max_attempts=self.max_attempts,
            use_image_if_no_bounding_boxes=self.use_image_if_no_bounding_boxes)
