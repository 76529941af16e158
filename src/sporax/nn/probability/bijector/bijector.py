"""``mindspore.nn.probability.bijector.Bijector``: the base Cell of invertible transformations.

A subclass defines ``_forward``, ``_inverse``, ``_forward_log_jacobian`` and ``_inverse_log_jacobian``; the
public methods check that the value is a float Tensor (MindSpore's TypeError otherwise) and cast the
bijector's parameters to its type. Calling a bijector with a distribution gives a TransformedDistribution;
with a method name it runs that method (``construct``).

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.bijector import ScalarAffine
    >>> ScalarAffine(2.0, 1.0)("forward", ms.Tensor([1.0])).asnumpy().tolist()
    [3.0]
"""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell

_METHODS = ("forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian")


def check_positive(value, name):
    """Construction-time ValueError when ``value`` is not > 0."""
    array = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
    if not bool(np.all(array > 0)):
        raise ValueError(f"{name} must be greater than zero.")


class Bijector(Cell):
    """The base class of bijectors.

    Args:
        is_constant_jacobian (bool): whether the jacobian does not depend on the value. Default: False.
        is_injective (bool): whether the transformation is one-to-one. Default: True.
        name (str): the bijector's name. Default: None.
        dtype (mindspore.dtype): the type of the values it takes (None: any float). Default: None.
        param (dict): the constructor's arguments; its ``param_dict`` holds the parameters. Default: None.

    Inputs (of ``construct``):
        - **name** (str) -- 'forward', 'inverse', 'forward_log_jacobian' or 'inverse_log_jacobian'.
        - **value** (Tensor) -- a float Tensor.

    Outputs:
        Tensor, the method's result.
    """

    def __init__(self, is_constant_jacobian=False, is_injective=True, name=None, dtype=None, param=None):
        super().__init__()
        if name is not None and not isinstance(name, str):
            raise TypeError(f"For 'Bijector', the type of 'name' should be 'str', but got type "
                            f"'{type(name).__name__}'.")
        self._name, self._dtype = name, dtype
        self._bijector_parameters = {key: value for key, value in (param or {}).items()
                                     if key != "self" and not key.startswith("_")}
        self._is_constant_jacobian = is_constant_jacobian
        self._is_injective = is_injective
        values = list(self._bijector_parameters.get("param_dict", {}).values())
        self._is_scalar_batch = all(isinstance(value, (int, float)) for value in values)
        shapes = [tuple(value.shape) if isinstance(value, Tensor) else np.shape(value) for value in values]
        self._batch_shape = tuple(np.broadcast_shapes(*shapes)) if shapes else ()

    @property
    def name(self):
        """The bijector's name."""
        return self._name

    @property
    def dtype(self):
        """The type of the values it takes (None: any float)."""
        return self._dtype

    @property
    def parameters(self):
        """The constructor's arguments."""
        return self._bijector_parameters

    @property
    def is_constant_jacobian(self):
        """Whether the jacobian is constant (an affine bijector)."""
        return self._is_constant_jacobian

    @property
    def is_injective(self):
        """Whether the transformation is one-to-one."""
        return self._is_injective

    @property
    def batch_shape(self):
        """The broadcast shape of the parameters."""
        return self._batch_shape

    @property
    def is_scalar_batch(self):
        """Whether every parameter is a Python scalar."""
        return self._is_scalar_batch

    @staticmethod
    def _as_float(value, name):
        """A Python number or array parameter as a float32 Tensor (MindSpore's TypeError for anything else)."""
        if isinstance(value, Tensor):
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float, list, tuple, np.ndarray)):
            raise TypeError(f"Unable to convert input of type {type(value)} to a Tensor of type Float32")
        return Tensor(np.asarray(value, np.float32))

    def _check_value(self, value):
        if not isinstance(value, Tensor):
            raise TypeError("For input value of bijector, input type must be a Tensor or Parameter.")
        if value.dtype not in (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16):
            raise TypeError(f"For input value of bijector , the type must be or be subclass of Float, but got "
                            f"{value.dtype}")
        return value

    def cast_param_by_value(self, value, para):
        """``para`` in ``value``'s type."""
        return ops.cast(para, value.dtype)

    def forward(self, value, *args, **kwargs):
        """``y = f(value)``."""
        return self._forward(self._check_value(value), *args, **kwargs)

    def inverse(self, value, *args, **kwargs):
        """``x = f^-1(value)``."""
        return self._inverse(self._check_value(value), *args, **kwargs)

    def forward_log_jacobian(self, value, *args, **kwargs):
        """``log |f'(value)|``."""
        return self._forward_log_jacobian(self._check_value(value), *args, **kwargs)

    def inverse_log_jacobian(self, value, *args, **kwargs):
        """``log |(f^-1)'(value)|``."""
        return self._inverse_log_jacobian(self._check_value(value), *args, **kwargs)

    def __call__(self, *args, **kwargs):
        from sporax.nn.probability.distribution.distribution import Distribution
        from sporax.nn.probability.distribution.transformed_distribution import TransformedDistribution
        if args and isinstance(args[0], Distribution):
            return TransformedDistribution(self, args[0])
        return super().__call__(*args, **kwargs)

    def construct(self, name, *args, **kwargs):
        if not isinstance(name, str) or name not in _METHODS:
            raise ValueError(f"For '{self.name}', invalid name: the first argument must be one of "
                             f"{', '.join(_METHODS)} (or a distribution), but got {type(name).__name__}.")
        return getattr(self, name)(*args, **kwargs)

    def extend_repr(self):
        values = self._bijector_parameters.get("param_dict", {})
        if self.is_scalar_batch:
            return ", ".join(f"{key} = {value}" for key, value in values.items())
        return f"batch_shape = {self.batch_shape}"
