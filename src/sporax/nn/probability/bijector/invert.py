"""``mindspore.nn.probability.bijector.Invert``: a bijector's inverse as a bijector.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.bijector import Invert, ScalarAffine
    >>> Invert(ScalarAffine(2.0, 1.0)).forward(ms.Tensor([3.0])).asnumpy().tolist()
    [1.0]
"""
from sporax.nn.probability.bijector.bijector import Bijector


class Invert(Bijector):
    """The inverse of ``bijector``: forward is its inverse, and the reverse.

    Args:
        bijector (Bijector): the bijector to invert.
        name (str): the name. Default: "" ('Invert' + the bijector's name).

    Inputs (of ``forward``, ``inverse``, ``forward_log_jacobian``, ``inverse_log_jacobian``):
        - **value** (Tensor) -- a float Tensor.

    Outputs:
        Tensor, what the inverted bijector's opposite method gives.
    """

    def __init__(self, bijector, name=""):
        if not isinstance(bijector, Bijector):
            raise TypeError(f"For 'Invert', the type of 'bijector' should be 'Bijector', but got type "
                            f"'{type(bijector).__name__}'.")
        name = name or ("Invert" + bijector.name)
        super().__init__(is_constant_jacobian=bijector.is_constant_jacobian, is_injective=bijector.is_injective,
                         name=name, dtype=bijector.dtype, param={"bijector": bijector, "name": name})
        self._bijector = bijector

    @property
    def bijector(self):
        """The inverted bijector."""
        return self._bijector

    def forward(self, value):
        """The inverted bijector's inverse."""
        return self._bijector.inverse(value)

    def inverse(self, value):
        """The inverted bijector's forward."""
        return self._bijector.forward(value)

    def forward_log_jacobian(self, value):
        """The inverted bijector's inverse log jacobian."""
        return self._bijector.inverse_log_jacobian(value)

    def inverse_log_jacobian(self, value):
        """The inverted bijector's forward log jacobian."""
        return self._bijector.forward_log_jacobian(value)

    def extend_repr(self):
        return ""
