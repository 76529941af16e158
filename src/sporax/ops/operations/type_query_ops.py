"""Type queries MindSpore's compiler folds into constants: ``TopTypeof`` (the outer type of a value).

Example:
    >>> import sporax as ms
    >>> from sporax.ops.operations import TopTypeof
    >>> TopTypeof()((1, 2)) == ms.tuple_
    True
"""
import numbers

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops.primitive import Primitive, prim_attr_register

# MindSpore's bare ``Int()``: the type of any Python int, whatever its width (repr ``mindspore.int``).
_ANY_INT = mstype.Int("Int")


class TopTypeof(Primitive):
    """The outer MindSpore type of a value: ``mindspore.tensor`` for any Tensor (its element type left
    out), ``tuple_``/``list_`` for a sequence (its items left out), ``type_none`` for None, ``bool`` for a
    bool, ``int`` for any Python int and ``float32`` for a Python float (the type MindSpore's graphs give it).

    Inputs:
        - **x** (Union[Tensor, tuple, list, None, bool, int, float, str]) -- the value.

    Outputs:
        A MindSpore type (``mindspore.tensor_type`` itself for a Tensor).

    Raises:
        NotImplementedError: for a dict, a slice or Ellipsis (sporax has no type objects for them).
        TypeError: for any other value.
    """

    @prim_attr_register
    def __init__(self):
        """Takes no arguments."""

    def __call__(self, x):
        if isinstance(x, Tensor):
            return mstype.tensor_type
        if x is None:
            return mstype.type_none
        if isinstance(x, bool):
            return mstype.bool_
        if isinstance(x, tuple):
            return mstype.tuple_
        if isinstance(x, list):
            return mstype.list_
        if isinstance(x, numbers.Integral):
            return _ANY_INT
        if isinstance(x, float):
            return mstype.float32
        if isinstance(x, str):
            return mstype.string
        if isinstance(x, (dict, slice)) or x is Ellipsis:
            raise NotImplementedError(f"For 'TopTypeof', sporax has no MindSpore type object for a "
                                      f"{type(x).__name__}: compare with isinstance(x, {type(x).__name__}) instead.")
        raise TypeError(f"For 'TopTypeof', 'x' must be a Tensor, tuple, list, None, bool, int, float or str, but "
                        f"got {type(x).__name__}.")
