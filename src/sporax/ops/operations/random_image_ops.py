"""Random, image and utility Primitive classes: ``Bernoulli``, ``Cauchy``, ``Gamma``, ``DropoutGenMask``,
``DropoutDoMask``, ``HSVToRGB``, ``AdjustHue``, ``AdjustSaturation``, ``Dilation2D``, ``CompareAndBitpack``,
``ComputeAccidentalHits``, ``ConfusionMatrix``, ``Coalesce``, ``Assert``, ``ForiLoop``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.CompareAndBitpack()(Tensor(np.arange(8, dtype=np.float32)), Tensor(3.5)))
    [15]
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional import image_utils
from sporax.ops.functional.random import _key
from sporax.ops.primitive import Primitive, prim_attr_register


def _seed(seed, seed2=0):
    return None if not seed and not seed2 else int(seed) * 1000003 + int(seed2)


class Bernoulli(Primitive):
    """0/1 draws of probability ``p`` (a number or a broadcastable Tensor) in ``x``'s shape and dtype.

    Args:
        seed (int): -1 for a fresh stream. offset (int): folded into the seed. Default: 0.
    """

    @prim_attr_register
    def __init__(self, seed=-1, offset=0):
        self.seed, self.offset = seed, offset

    def __call__(self, x, p):
        array = array_of(self.name, "x", x)
        probability = image_utils.check_probability(self.name, p)
        seed = None if self.seed == -1 else self.seed * 1000003 + self.offset
        draw = jax.random.bernoulli(_key(seed), probability, array.shape)
        return wrap(draw.astype(array.dtype))


class Cauchy(Primitive):
    """Float32 Cauchy samples of shape ``size``.

    Args:
        size (list[int]): the shape. median (float): Default: 0.0. sigma (float): > 0. Default: 1.0.
    """

    @prim_attr_register
    def __init__(self, size, median=0.0, sigma=1.0):
        if not isinstance(size, (list, tuple)) or not all(isinstance(s, numbers.Integral) and s > 0 for s in size):
            raise ValueError(f"For 'Cauchy', 'size' must be a list of positive ints, but got {size!r}.")
        if sigma <= 0:
            raise ValueError(f"For 'Cauchy', 'sigma' must be positive, but got {sigma}.")
        self.size, self.median, self.sigma = tuple(size), median, sigma

    def __call__(self):
        return image_utils.cauchy_sample(self.size, self.median, self.sigma)


class Gamma(Primitive):
    """Gamma(``alpha``, rate ``beta``) samples of shape ``shape`` broadcast with ``alpha`` and ``beta``.

    Args:
        seed (int), seed2 (int): Default: 0.
    """

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        self.seed, self.seed2 = seed, seed2

    def __call__(self, shape, alpha, beta):
        return image_utils.gamma(tuple(shape), alpha, beta, _seed(self.seed, self.seed2))


class DropoutGenMask(Primitive):
    """A packed UInt8 bit mask (one bit per element of ``shape``, kept with probability ``keep_prob``) for
    ``DropoutDoMask``.

    Args:
        Seed0 (int), Seed1 (int): Default: 0.
    """

    @prim_attr_register
    def __init__(self, Seed0=0, Seed1=0):
        self.seed0, self.seed1 = Seed0, Seed1

    def __call__(self, shape, keep_prob):
        probability = float(keep_prob.asnumpy()) if isinstance(keep_prob, Tensor) else float(keep_prob)
        if not 0 <= probability <= 1:
            raise ValueError(f"For '{self.name}', 'keep_prob' must be in [0, 1], but got {probability}.")
        return image_utils.dropout_gen_mask(tuple(shape), probability, _seed(self.seed0, self.seed1))


class DropoutDoMask(Primitive):
    """``input_x * bit / keep_prob`` with the bits of a ``DropoutGenMask`` mask."""

    def __call__(self, input_x, mask, keep_prob):
        probability = keep_prob._value if isinstance(keep_prob, Tensor) else keep_prob
        return image_utils.dropout_do_mask(input_x, mask, probability)


class HSVToRGB(Primitive):
    """HSV images (last dimension 3, hue in [0, 1)) to RGB."""

    def __call__(self, x):
        return wrap(image_utils.hsv_to_rgb(image_utils.image_input(self.name, x)))


class AdjustHue(Primitive):
    """Rotate the hue of RGB images (last dimension 3) by ``delta`` (a fraction of a turn, in [-1, 1])."""

    def __call__(self, image, delta):
        array = image_utils.image_input(self.name, image)
        shift = delta._value if isinstance(delta, Tensor) else delta
        hsv = image_utils.rgb_to_hsv(array.astype(jnp.float32))
        hsv = hsv.at[..., 0].set(jnp.mod(hsv[..., 0] + shift, 1.0))
        return wrap(image_utils.hsv_to_rgb(hsv).astype(array.dtype))


class AdjustSaturation(Primitive):
    """Scale the saturation of RGB images (last dimension 3) by ``scale`` (clipped to [0, 1])."""

    def __call__(self, image, scale):
        array = image_utils.image_input(self.name, image)
        factor = scale._value if isinstance(scale, Tensor) else scale
        hsv = image_utils.rgb_to_hsv(array.astype(jnp.float32))
        hsv = hsv.at[..., 1].set(jnp.clip(hsv[..., 1] * factor, 0.0, 1.0))
        return wrap(image_utils.hsv_to_rgb(hsv).astype(array.dtype))


class Dilation2D(Primitive):
    """Grayscale morphological dilation of NCHW ``x`` by a (C, kh, kw) ``filter``:
    ``out = max over the window of (x + filter)``.

    Args:
        stride (Union[int, tuple[int]]), dilation (Union[int, tuple[int]]): (1, 1, h, w) style or pairs.
        pad_mode (str): 'SAME' or 'VALID'. Default: 'SAME'. data_format (str): 'NCHW'.
    """

    @prim_attr_register
    def __init__(self, stride, dilation, pad_mode="SAME", data_format="NCHW"):
        if pad_mode.upper() not in ("SAME", "VALID"):
            raise ValueError(f"For 'Dilation2D', 'pad_mode' must be 'SAME' or 'VALID', but got {pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For 'Dilation2D', 'data_format' must be 'NCHW', but got {data_format!r}.")
        as_pair = lambda v: (v, v) if isinstance(v, numbers.Integral) else tuple(v)[-2:]  # noqa: E731
        self.stride, self.dilation, self.pad_mode = as_pair(stride), as_pair(dilation), pad_mode.upper()

    def __call__(self, x, filter):
        array = array_of(self.name, "x", x)
        kernel = array_of(self.name, "filter", filter)
        if array.ndim != 4 or kernel.ndim != 3 or kernel.shape[0] != array.shape[1]:
            raise ValueError(f"For '{self.name}', expected x (N, C, H, W) and filter (C, kh, kw), but got {describe(x)} "
                             f"and {describe(filter)}.")
        kh, kw = kernel.shape[1:]
        patches = jax.lax.conv_general_dilated_patches(array, (kh, kw), self.stride, self.pad_mode,
                                                       rhs_dilation=self.dilation)
        if self.pad_mode == "SAME":  # padded taps must never win the max
            ones = jax.lax.conv_general_dilated_patches(jnp.ones_like(array), (kh, kw), self.stride, "SAME",
                                                        rhs_dilation=self.dilation)
            patches = jnp.where(ones > 0, patches, -jnp.inf)
        n, _, height, width = patches.shape
        patches = patches.reshape(n, array.shape[1], kh * kw, height, width)
        return wrap(jnp.max(patches + kernel.reshape(1, array.shape[1], kh * kw, 1, 1), axis=2).astype(array.dtype))


class CompareAndBitpack(Primitive):
    """``x > threshold`` packed 8 per byte along the last axis (UInt8, first element in the high bit)."""

    def __call__(self, x, threshold):
        return image_utils.compare_and_bitpack(x, threshold)


class ComputeAccidentalHits(Primitive):
    """The sampled candidates that equal one of a row's true classes: ``(indices, ids, weights)`` with the
    row, the candidate position and the weight -FLT_MAX of each hit.

    Args:
        num_true (int): the number of true classes per row. Default: 1.
    """

    @prim_attr_register
    def __init__(self, num_true=1):
        self.num_true = num_true

    def __call__(self, true_classes, sampled_candidates):
        truth = np.asarray(array_of(self.name, "true_classes", true_classes))
        sampled = np.asarray(array_of(self.name, "sampled_candidates", sampled_candidates))
        if truth.ndim != 2 or truth.shape[1] != self.num_true or sampled.ndim != 1:
            raise ValueError(f"For '{self.name}', 'true_classes' must be (batch, {self.num_true}) and "
                             f"'sampled_candidates' 1-D, but got {truth.shape} and {sampled.shape}.")
        rows, ids = [], []
        for position, candidate in enumerate(sampled):
            for row in range(truth.shape[0]):
                if candidate in truth[row]:
                    rows.append(row)
                    ids.append(position)
        order = np.lexsort((ids, rows))
        rows, ids = np.asarray(rows, np.int32)[order], np.asarray(ids, np.int32)[order]
        weights = np.full(rows.shape, np.finfo(np.float32).min, np.float32)
        return wrap(jnp.asarray(rows)), wrap(jnp.asarray(ids)), wrap(jnp.asarray(weights))


class ConfusionMatrix(Primitive):
    """The (num_classes, num_classes) confusion matrix of ``labels`` against predicted ``logits`` (class ids).

    Args:
        num_classes (int): the number of classes. dtype (str): the result type without weights. Default: 'int32'.
    """

    @prim_attr_register
    def __init__(self, num_classes, dtype="int32"):
        if isinstance(num_classes, bool) or not isinstance(num_classes, numbers.Integral) or num_classes < 1:
            raise ValueError(f"For 'ConfusionMatrix', 'num_classes' must be a positive int, but got {num_classes!r}.")
        self.num_classes, self.dtype = num_classes, dtype

    def __call__(self, labels, logits, weights=None):
        return image_utils.confusion_matrix(labels, logits, self.num_classes, weights,
                                       mstype.to_numpy_dtype(mstype.normalize(self.dtype)))


class Coalesce(Primitive):
    """Merge duplicate COO indices (values summed): ``(y_indices, y_values, y_shape)``."""

    def __call__(self, x_indices, x_values, x_shape):
        return image_utils.coalesce(x_indices, x_values, x_shape)


class Assert(Primitive):
    """Raise a RuntimeError showing the first ``summarize`` values of each ``input_data`` tensor when
    ``condition`` is False.

    Args:
        summarize (int): how many values of each input to show. Default: 3.
    """

    @prim_attr_register
    def __init__(self, summarize=3):
        if isinstance(summarize, bool) or not isinstance(summarize, numbers.Integral) or summarize < 1:
            raise ValueError(f"For 'Assert', 'summarize' must be a positive int, but got {summarize!r}.")
        self.summarize = summarize

    def __call__(self, condition, input_data):
        value = condition.asnumpy() if isinstance(condition, Tensor) else np.asarray(condition)
        if value.dtype != np.bool_ or value.size != 1:
            raise TypeError(f"For '{self.name}', 'condition' must be a bool or a one-element Bool Tensor, but got "
                            f"{describe(condition)}.")
        if not bool(value.reshape(())):
            shown = [np.asarray(item.asnumpy() if isinstance(item, Tensor) else item).reshape(-1)[:self.summarize]
                     for item in input_data]
            raise RuntimeError(f"For '{self.name}', the condition is false. Input data: "
                               f"{', '.join(str(values) for values in shown)}")


class ForiLoop(Primitive):
    """``for i in range(lower, upper): val = loop_func(i, val)``; returns the last ``val``.

    Inputs:
        - **lower**, **upper** (int): the range. **loop_func** (function): ``(i, val) -> val``.
        - **init_val**: the initial value (Tensors or nested tuples of them).
    """

    def __call__(self, lower, upper, loop_func, init_val, unroll=True):
        start = int(lower.asnumpy()) if isinstance(lower, Tensor) else int(lower)
        stop = int(upper.asnumpy()) if isinstance(upper, Tensor) else int(upper)
        value = init_val
        for index in range(start, stop):
            value = loop_func(index, value)
        return value
