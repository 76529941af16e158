"""``Symbol``: symbolic information about one dynamic dimension of an input shape.

``Tensor(shape=[Symbol(max=64, divisor=8), 3], dtype=ms.float32)`` declares a dimension that varies
between calls (``Cell.set_inputs``). XLA compiles one program per concrete shape, so sporax uses the
Symbol as a dynamic (-1) dimension and keeps the constraints for code that reads them.

Example:
    >>> from sporax import Symbol
    >>> Symbol(max=64, divisor=8).to_dict()
    {'max': 64, 'divisor': 8}
"""


class Symbol:
    """One dynamic dimension: length ``divisor * N + remainder`` (N >= 1) in ``[min, max]``.

    Args:
        max (int): largest length, used when greater than ``min``. Default: ``0``.
        min (int): smallest length (positive). Default: ``1``.
        divisor (int): the length's divisor ``d`` (positive). Default: ``1``.
        remainder (int): the remainder ``r`` in ``[0, d)``. Default: ``0``.
        unique (bool): dimensions that share this Symbol have the same length. Default: ``False``.
    """

    def __init__(self, max=0, min=1, divisor=1, remainder=0, unique=False, **kwargs):
        for name, value in (("max", max), ("min", min), ("divisor", divisor), ("remainder", remainder)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'Symbol', the argument '{name}' must be int, but got {type(value)}")
        if not isinstance(unique, bool):
            raise TypeError(f"For 'Symbol', the argument 'unique' must be bool, but got {type(unique)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        if not 0 <= remainder < divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range '[0, {divisor})', "
                             f"but got {remainder}")
        self.max, self.min, self.divisor, self.remainder, self.unique = max, min, divisor, remainder, unique
        self.id = id(self)

    def to_dict(self):
        """The constraints that differ from an unconstrained dimension (``id`` when ``unique``)."""
        result = {}
        if self.max > self.min:
            result["max"] = self.max
        if self.min > self.divisor + self.remainder:
            result["min"] = self.min
        if self.divisor != 1:
            result["divisor"] = self.divisor
        if self.remainder != 0:
            result["remainder"] = self.remainder
        if self.unique:
            result["id"] = self.id
        return result

    def __str__(self):
        return str(self.to_dict())
