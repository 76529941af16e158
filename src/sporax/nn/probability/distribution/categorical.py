"""``mindspore.nn.probability.distribution.Categorical``: one of K categories with probabilities ``probs``.

The last axis of ``probs`` holds the categories, the others are the batch. As MindSpore 2.10, the entropy and
KL divergence are NaN where a probability is 0 (``0 * log 0``).

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Categorical
    >>> round(float(Categorical([0.2, 0.5, 0.3]).cdf(ms.Tensor([1], ms.int32))[0]), 6)
    0.7
"""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.distribution import Distribution


class Categorical(Distribution):
    """The categorical distribution: ``P(k) = probs[..., k]`` for k = 0 .. K-1.

    Args:
        probs (Union[list, numpy.ndarray, Tensor, None]): the probabilities, last axis summing to 1.
            Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): an int type, of the samples and the mode (results are float32).
            Default: mindspore.int32.
        name (str): the distribution's name. Default: 'Categorical'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ...):
        - **value** (Tensor) -- the categories.
        - **probs** (Tensor) -- optional: the probabilities for this call.

    Outputs:
        Tensor (float32): the broadcast shape of value and the batch.
    """

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name="Categorical"):
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            values = self._probs.asnumpy()
            if values.ndim < 1:
                raise ValueError(f"For '{name}', probs must have at least 1 dimension (the categories), got a "
                                 "scalar.")
            if not bool(np.all(values >= 0)):
                raise ValueError("Probabilities must be greater than or equal to zero")
            if not np.allclose(values.sum(-1), 1.0, atol=1e-6):
                raise ValueError("Probabilities for each category should sum to one for Categorical distribution.")

    @property
    def probs(self):
        """The probabilities given at construction."""
        return self._probs

    def _categories(self, probs):
        return ops.cast(ops.arange(probs.shape[-1]), self.parameter_type)

    def _mean(self, probs=None):
        probs = self._check_param_type(probs)
        return ops.sum(probs * self._categories(probs), -1, keepdim=True)

    def _var(self, probs=None):
        probs = self._check_param_type(probs)
        categories = self._categories(probs)
        mean = ops.sum(probs * categories, -1, keepdim=True)
        return ops.sum(probs * ops.square(categories), -1, keepdim=True) - ops.square(mean)

    def _mode(self, probs=None):
        return ops.cast(ops.argmax(self._check_param_type(probs), -1), self.dtype)

    def _entropy(self, probs=None):
        probs = self._check_param_type(probs)
        return -ops.sum(probs * ops.log(probs), -1)

    def _kl_loss(self, dist, probs_b, probs=None):
        self._check_dist_name(dist)
        probs_b = self._check_value(probs_b, "probs_b")
        probs_a = self._check_param_type(probs)
        return ops.sum(probs_a * (ops.log(probs_a) - ops.log(probs_b)), -1)

    def _pick(self, table, value):
        """``table[..., value]`` with value broadcast against the batch (table's leading axes)."""
        value = ops.cast(self._check_tensor(value, "value"), mstype.int32)
        shape = tuple(np.broadcast_shapes(tuple(value.shape), tuple(table.shape[:-1])))
        table = ops.broadcast_to(table, shape + tuple(table.shape[-1:]))
        index = ops.clamp(ops.broadcast_to(value, shape), 0, table.shape[-1] - 1)
        return ops.squeeze(ops.gather_elements(table, -1, ops.expand_dims(index, -1)), -1), \
            ops.broadcast_to(value, shape)

    def _log_prob(self, value, probs=None):
        probs = self._check_param_type(probs)
        picked, value = self._pick(ops.log(probs), value)
        inside = ops.logical_and(value >= 0, value < probs.shape[-1])
        return ops.where(inside, picked, ops.fill(picked.dtype, picked.shape, float("-inf")))

    def _cdf(self, value, probs=None):
        probs = self._check_param_type(probs)
        picked, value = self._pick(ops.cumsum(probs, -1), value)
        below = ops.where(value < 0, ops.zeros_like(picked), picked)
        return ops.where(value >= probs.shape[-1], ops.ones_like(below), below)

    def _sample(self, shape=(), probs=None):
        probs = self._check_param_type(probs)
        sample_shape = tuple(shape) + tuple(probs.shape[:-1])
        # MindSpore's: ops.multinomial of every row, prod(shape) draws each with the distribution's seed, rows last
        rows = ops.reshape(probs, (-1, probs.shape[-1]))
        draws = ops.multinomial(rows, int(np.prod(tuple(shape), dtype=np.int64)), seed=self._seed)
        samples = ops.cast(ops.reshape(ops.transpose(draws, (1, 0)), sample_shape or (1,)), self.dtype)
        return samples if sample_shape else ops.squeeze(samples, 0)

    def extend_repr(self):
        return f"probs = {self._probs}"
