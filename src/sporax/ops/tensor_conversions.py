"""Tensor -> Python conversions (``bool``, ``int``, ``item``, ``tolist``, ``len``, iteration), copies
and pickling.

A conversion needs the value, so on a tensor being compiled (inside ``ms.jit``, GRAPH_MODE or a
gradient) it raises ``TracedValueError`` naming what to do instead; ``sporax.graph`` may catch
it to convert Python control flow.
"""
import jax
import numpy as np

from sporax.core.host_buffer import private_value
from sporax.core.tensor import Tensor, concrete

wrap = Tensor._wrap


class TracedValueError(RuntimeError):
    """A Python value was asked of a Tensor whose value exists only when compiled code runs."""


def _concrete(tensor, what):
    array = concrete(tensor._value)
    if array is None:
        raise TracedValueError(
            f"{what} needs the value of a Tensor that is being compiled (inside ms.jit, GRAPH_MODE or a "
            "gradient), where values exist only when the compiled code runs. Keep the computation in "
            "tensors (ops.where / ops.select instead of Python if, ops.clip instead of min/max of "
            "Python numbers), or run this part in PyNative mode.")
    return np.asarray(array)


def _single(tensor, what, error):
    values = _concrete(tensor, what)
    if values.size != 1:
        raise ValueError(error.format(size=values.size))
    return values.reshape(()).item()


def _bool(self):
    return bool(_single(self, "bool(tensor) (an `if` or `while` on a Tensor)",
                        "The tensor should have only one element, but got {size}, more than one element is "
                        "ambiguous."))


def _int(self):
    return int(_single(self, "int(tensor)", "Only one element tensors can be converted to Python scalars"))


def _float(self):
    return float(_single(self, "float(tensor)", "Only one element tensors can be converted to Python scalars"))


def _complex(self):
    return complex(_single(self, "complex(tensor)", "Only one element tensors can be converted to Python scalars"))


def _index(self):
    if self.dtype.kind not in ("int", "uint") or self.size != 1:
        raise ValueError("Only integer tensors of a single element can be converted to an index.")
    return int(_single(self, "using a tensor as an index", ""))


def item(self):
    """The value of a one-element tensor as a Python number."""
    return _single(self, "Tensor.item()",
                   "The tensor should have only one element, but got {size}, more than one element is ambiguous.")


def tolist(self):
    """The values as (nested) Python lists; a 0-d tensor gives a Python number."""
    return _concrete(self, "Tensor.tolist()").tolist()


def _len(self):
    shape = self.shape
    if not shape:
        raise TypeError("Not support len of a 0-D tensor")
    return shape[0]


def _iter(self):
    if not self.shape:
        # PyNative MindSpore says "iteration over a 0-d tensor", GRAPH mode "Cannot iterate over a scalar
        # tensor." and a mutable scalar (compiled as a 0-d Tensor here) "'int' object is not iterable":
        # one message carries all three so code matching any of them keeps working.
        raise TypeError("iteration over a 0-d tensor: Cannot iterate over a scalar tensor. A scalar object is "
                        "not iterable; index or reshape it first")
    array = self._value
    return iter([wrap(array[index]) for index in range(array.shape[0])])


def _contains(self, element):
    return bool((self == element).any())


def _round(self, ndigits=None):
    from sporax.ops.tensor_support import functional

    return functional.round(self) if ndigits is None else functional.round(self, decimals=ndigits)


def _copy(self):
    if self._array is None:
        result = Tensor.__new__(Tensor)
        result._array, result._init = None, self._init
        return result
    return wrap(private_value(self))  # a Tensor.from_numpy's copy does not share the array


def _deepcopy(self, memodict):
    result = _copy(self)
    memodict[id(self)] = result
    return result


def _getstate(self):
    if self._array is None:
        return {"init": self._init}
    return {"value": _concrete(self, "pickling a Tensor")}


def _setstate(self, state):
    import jax.numpy as jnp

    self._init = state.get("init")
    self._array = None if "init" in state else jnp.asarray(state["value"])


def _restore(state):
    tensor = Tensor.__new__(Tensor)
    _setstate(tensor, state)
    return tensor


def _reduce_ex(self, protocol):
    # A plain Tensor pickles through a sporax function, not a class reference, so a pickle does not
    # depend on the name the class carries (``mindspore.common.tensor`` while the compat hook is on).
    if type(self) is Tensor:
        return _restore, (_getstate(self),)
    return object.__reduce_ex__(self, protocol)


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (sorted), optionally with the inverse indices and counts (host computation)."""
    values = _concrete(self, "Tensor.unique() (its output shape depends on the values)")
    result = np.unique(values, return_inverse=return_inverse, return_counts=return_counts, axis=dim)
    if not isinstance(result, tuple):
        return Tensor(result)
    outputs = [Tensor(result[0])]
    if return_inverse:
        outputs.append(Tensor(result[1].reshape(values.shape if dim is None else -1).astype(np.int64)))
    if return_counts:
        outputs.append(Tensor(result[-1].astype(np.int64)))
    return tuple(outputs)


def install():
    """Set the conversion methods on ``Tensor``."""
    Tensor.__bool__ = _bool
    Tensor.__int__ = _int
    Tensor.__float__ = _float
    Tensor.__complex__ = _complex
    Tensor.__index__ = _index
    Tensor.__len__ = _len
    Tensor.__iter__ = _iter
    Tensor.__contains__ = _contains
    Tensor.__round__ = _round
    Tensor.__copy__ = _copy
    Tensor.__deepcopy__ = _deepcopy
    Tensor.__getstate__ = _getstate
    Tensor.__setstate__ = _setstate
    Tensor.__reduce_ex__ = _reduce_ex
    Tensor.item = item
    Tensor.tolist = tolist
    Tensor.unique = unique
    from sporax.ops import tensor_inplace

    tensor_inplace.install()

