"""``mindspore.nn.probability.bijector.ScalarAffine``: ``y = scale * x + shift``.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.bijector import ScalarAffine
    >>> ScalarAffine(2.0, 1.0).inverse(ms.Tensor([3.0])).asnumpy().tolist()
    [1.0]
"""
from sporax import ops
from sporax.nn.probability.bijector.bijector import Bijector


class ScalarAffine(Bijector):
    """The affine bijector ``y = scale * x + shift``; its log jacobian ``log |scale|`` is constant.

    Args:
        scale (Union[float, list, numpy.ndarray, Tensor]): the scale. Default: 1.0.
        shift (Union[float, list, numpy.ndarray, Tensor]): the shift. Default: 0.0.
        name (str): the bijector's name. Default: 'ScalarAffine'.

    Inputs (of ``forward``, ``inverse``, ``forward_log_jacobian``, ``inverse_log_jacobian``):
        - **value** (Tensor) -- a float Tensor.

    Outputs:
        Tensor of value's type (the log jacobians have scale's shape).
    """

    def __init__(self, scale=1.0, shift=0.0, name="ScalarAffine"):
        param = {"scale": scale, "shift": shift, "name": name, "param_dict": {"scale": scale, "shift": shift}}
        super().__init__(is_constant_jacobian=True, is_injective=True, name=name, param=param)
        self._scale = self._as_float(scale, "scale")
        self._shift = self._as_float(shift, "shift")

    @property
    def scale(self):
        """The scale."""
        return self._scale

    @property
    def shift(self):
        """The shift."""
        return self._shift

    def _forward(self, x):
        return self.cast_param_by_value(x, self._scale) * x + self.cast_param_by_value(x, self._shift)

    def _inverse(self, y):
        return (y - self.cast_param_by_value(y, self._shift)) / self.cast_param_by_value(y, self._scale)

    def _forward_log_jacobian(self, x):
        return ops.log(ops.abs(self.cast_param_by_value(x, self._scale)))

    def _inverse_log_jacobian(self, y):
        return -ops.log(ops.abs(self.cast_param_by_value(y, self._scale)))
