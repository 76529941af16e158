"""Fractional pooling Primitives: ``FractionalMaxPoolWithFixedKsize``, ``FractionalMaxPool3DWithFixedKsize``
(torch-style windows from given random samples) and ``FractionalMaxPool``/``FractionalAvgPool``
(TensorFlow-style random boundaries on NHWC input).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> y, argmax = ops.FractionalMaxPoolWithFixedKsize(2, (2, 2))(
    ...     Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)), Tensor(np.zeros((1, 1, 2), np.float32)))
    >>> argmax.asnumpy().ravel().tolist()
    [5, 7, 13, 15]
"""
from sporax.ops.functional import fractional_pooling
from sporax.ops.primitive import Primitive, prim_attr_register


class FractionalMaxPoolWithFixedKsize(Primitive):
    """Fractional max pooling of NCHW ``input_x`` with ``ksize`` windows to ``output_shape``, window starts from
    ``random_samples`` (N, C, 2): ``(y, argmax)``.

    Args:
        ksize (Union[int, tuple[int]]), output_shape (Union[int, tuple[int]]), data_format (str): 'NCHW'.
    """

    _spatial = 2
    _format = "NCHW"

    @prim_attr_register
    def __init__(self, ksize, output_shape, data_format="NCHW"):
        self._settings(ksize, output_shape, data_format)

    def _settings(self, ksize, output_shape, data_format):
        if data_format != self._format:
            raise ValueError(f"For '{type(self).__name__}', 'data_format' must be '{self._format}', but got "
                             f"{data_format!r}.")
        self.ksize, self.output_shape = ksize, output_shape

    def __call__(self, input_x, random_samples):
        return fractional_pooling.fractional_max_pool_fixed(self.name, input_x, self.ksize, self.output_shape, None,
                                                      random_samples, self._spatial)


class FractionalMaxPool3DWithFixedKsize(FractionalMaxPoolWithFixedKsize):
    """The 3-D (NCDHW) form of ``FractionalMaxPoolWithFixedKsize``; ``random_samples`` is (N, C, 3)."""

    _spatial = 3
    _format = "NCDHW"

    @prim_attr_register
    def __init__(self, ksize, output_shape, data_format="NCDHW"):  # MindSpore's default format differs
        self._settings(ksize, output_shape, data_format)


class FractionalMaxPool(Primitive):
    """TensorFlow-style fractional max pooling of NHWC ``x``: ``(y, row_pooling_sequence, col_pooling_sequence)``.

    Args:
        pooling_ratio (list[float]): [1.0, row ratio, col ratio, 1.0], ratios >= 1.
        pseudo_random (bool): pseudo-random instead of shuffled boundaries. Default: False.
        overlapping (bool): windows include their right/bottom boundary. Default: False.
        deterministic (bool): use ``seed``/``seed2`` (which must be 0 otherwise). seed, seed2 (int): Default: 0.
    """

    _reduction = "max"

    @prim_attr_register
    def __init__(self, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0, seed2=0):
        name = type(self).__name__
        if len(pooling_ratio) != 4 or pooling_ratio[0] != 1.0 or pooling_ratio[3] != 1.0 or \
                min(pooling_ratio[1:3]) < 1.0:
            raise ValueError(f"For '{name}', 'pooling_ratio' must be [1.0, >= 1, >= 1, 1.0], but got {pooling_ratio}.")
        self.pooling_ratio, self.pseudo_random, self.overlapping = list(pooling_ratio), pseudo_random, overlapping
        self.deterministic, self.seed, self.seed2 = deterministic, seed, seed2

    def __call__(self, x):
        if not self.deterministic and (self.seed or self.seed2):
            raise ValueError(f"For '{self.name}', both 'seed' and 'seed2' must be 0 if 'deterministic' is false.")
        seed = self.seed * 1000003 + self.seed2 if self.deterministic else 0
        return fractional_pooling.fractional_pool_nhwc(self.name, x, self.pooling_ratio, self.pseudo_random,
                                                 self.overlapping, seed, self._reduction)


class FractionalAvgPool(FractionalMaxPool):
    """TensorFlow-style fractional average pooling of NHWC ``x`` (see ``FractionalMaxPool``)."""

    _reduction = "mean"
