"""The call signature (``sporax.state.arguments.signature``): the fast path for a tuple of Tensors (an
optimizer's gradients) gives the same key and arrays as the general walk, and anything else takes the walk."""
import numpy as np
import pytest

from sporax.core import dtype as mstype
from sporax.core.initializer import One
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.state.arguments import _key_of, signature


def _walked(args, owned=None):
    """The key and arrays of the general walk, for comparison with ``signature``'s fast paths."""
    arrays = []
    return tuple(_key_of(item, arrays, owned, False) for item in args), arrays


def _gradients():
    return tuple(Tensor(np.full((2, index + 1), index, np.float32)) for index in range(3))


def test_tuple_of_tensors_same_key_and_arrays_as_walk():
    gradients = _gradients()
    key, arrays = signature((gradients,), {})
    walked_key, walked_arrays = _walked((gradients,))
    assert key == walked_key
    assert len(arrays) == 3 and all(a is b for a, b in zip(arrays, walked_arrays))
    assert [np.asarray(a).tolist() for a in arrays] == [g.asnumpy().tolist() for g in gradients]


def test_tuple_key_changes_with_shape_and_dtype():
    gradients = _gradients()
    key = signature((gradients,), {})[0]
    assert signature((_gradients(),), {})[0] == key  # new arrays of the same shapes: the same program
    reshaped = gradients[:2] + (Tensor(np.zeros((3, 3), np.float32)),)
    assert signature((reshaped,), {})[0] != key
    retyped = gradients[:2] + (Tensor(np.zeros((2, 3), np.float16)),)
    assert signature((retyped,), {})[0] != key


def test_tuple_with_parameter_or_lazy_tensor_takes_the_walk():
    weight = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    mixed = (Tensor(np.zeros(2, np.float32)), weight)
    owned = {id(weight)}
    key, arrays = signature((mixed,), {}, owned)
    assert key == _walked((mixed,), owned)[0]
    assert ("state", id(weight)) in key[0][1]  # the lifted Parameter is passed by identity, not traced
    assert len(arrays) == 1
    lazy = (Tensor(shape=(2,), dtype=mstype.float32, init=One()),)
    key, arrays = signature((lazy,), {})
    assert key == ((tuple, (("T", (2,), np.dtype(np.float32)),)),)
    assert np.asarray(arrays[0]).tolist() == [1.0, 1.0]  # materialised by the walk


def test_list_keeps_its_type_in_the_key():
    gradients = _gradients()
    assert signature((list(gradients),), {})[0] != signature((gradients,), {})[0]


@pytest.mark.parametrize("value", [(), (1.0, 2.0)])
def test_tuples_without_tensors_are_static(value):
    key, arrays = signature((value,), {})
    assert key == _walked((value,))[0] and arrays == []


def test_mutable_numbers_come_back_from_a_compiled_function_as_python_numbers():
    # MindSpore 2.10 (ms.jit): int 3, float 7.0, (10, 2, 24) ints, "3.14"; a Tensor operand gives a Tensor
    import sporax as ms

    @ms.jit
    def add(x, y):
        return x + y

    @ms.jit
    def three(x, y):
        return x + y, x - y, x * y

    @ms.jit
    def formatted(value):
        return "{:.2f}".format(value)

    total = add(ms.mutable(1), ms.mutable(2))
    assert type(total) is int and total == 3
    mixed = add(ms.mutable(3), ms.mutable(4.0))
    assert type(mixed) is float and mixed == 7.0
    assert three(ms.mutable(6), ms.mutable(4)) == (10, 2, 24)
    assert all(type(item) is int for item in three(ms.mutable(6), ms.mutable(4)))
    assert formatted(ms.mutable(3.1415926)) == "3.14"
    assert isinstance(add(ms.mutable(1), ms.Tensor(2)), ms.Tensor)
