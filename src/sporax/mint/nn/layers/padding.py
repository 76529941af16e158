"""``mindspore.mint.nn`` padding Cells: constant, zero, reflection and replication padding of the last
1, 2 or 3 dimensions, all onto ``ops.pad``."""
from sporax import ops
from sporax.nn.cell import Cell

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d"]


class _Pad(Cell):
    """Pads the last ``_dims`` dimensions by ``padding`` (an int for every side, or PyTorch's
    (left, right, top, bottom, front, back) tuple)."""

    _dims, _mode = 1, "constant"

    def __init__(self, padding, value=None):
        super().__init__()
        name = type(self).__name__
        if isinstance(padding, int):
            padding = (padding,) * (2 * self._dims)
        padding = tuple(padding)
        if len(padding) != 2 * self._dims or not all(isinstance(p, int) for p in padding):
            raise ValueError(f"For '{name}', padding must be an int or a tuple of {2 * self._dims} ints, "
                             f"got {padding!r}.")
        self.padding, self.value = padding, value

    def construct(self, input):
        if self._mode == "constant":
            return ops.pad(input, self.padding, "constant", 0.0 if self.value is None else self.value)
        return ops.pad(input, self.padding, self._mode)


def _pad_class(name, dims, mode, takes_value):
    summary = {"constant": "a constant ``value``", "zeros": "zeros", "reflect": "the reflection of the input",
               "replicate": "copies of the edge values"}[mode]
    doc = (f"Pad the last {dims} dimension(s) with {summary}.\n\n    Args:\n        padding (Union[int, tuple]): "
           f"an int for every side or a tuple of {2 * dims} ints.\n"
           + ("        value (float): the fill value.\n" if takes_value else "")
           + "\n    Inputs:\n        - **input** (Tensor).\n\n    Outputs:\n        Tensor, padded.\n\n"
           f"    Example:\n        >>> import numpy as np, sporax as ms\n        >>> _ = ms.mint.nn.{name}(1"
           + (", 0.5" if takes_value else "") + f")(ms.Tensor(np.ones((1, 1) + (3,) * {dims}, np.float32)))\n")
    if takes_value:
        def __init__(self, padding, value):
            _Pad.__init__(self, padding, value)
    else:
        def __init__(self, padding):
            _Pad.__init__(self, padding)
    return type(name, (_Pad,), {"_dims": dims, "_mode": "constant" if mode == "zeros" else mode,
                                "__init__": __init__, "__doc__": doc, "__module__": __name__})


def _pad_classes(prefix, mode, takes_value):
    """The 1-d, 2-d and 3-d Cells of one padding mode (``ZeroPad1d``, ``ZeroPad2d``, ``ZeroPad3d``)."""
    return tuple(_pad_class(f"{prefix}{dims}d", dims, mode, takes_value) for dims in (1, 2, 3))


ConstantPad1d, ConstantPad2d, ConstantPad3d = _pad_classes("ConstantPad", "constant", True)
ZeroPad1d, ZeroPad2d, ZeroPad3d = _pad_classes("ZeroPad", "zeros", False)
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = _pad_classes("ReflectionPad", "reflect", False)
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = _pad_classes("ReplicationPad", "replicate", False)
