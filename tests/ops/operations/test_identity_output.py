"""``ops.Identity()`` gives a new Tensor, in a compiled Cell too, while ``return x`` hands back ``x`` itself.

Recorded on MindSpore 2.10 CPU: in GRAPH_MODE a Cell returning ``x`` returns the very object passed in (and a
Parameter stays that Parameter), one returning ``Identity()(x)`` a new Tensor (``is`` False), as in PyNative;
a tuple output is new Tensors. Before, sporax's compiled Identity handed back the input object."""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


class Passthrough(nn.Cell):
    def construct(self, x):
        return x


class Identity(nn.Cell):
    def __init__(self):
        super().__init__()
        self.identity = ops.Identity()

    def construct(self, x):
        return self.identity(x)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_identity_is_a_new_tensor_and_a_passthrough_is_not(mode):
    x = Tensor(np.arange(3).astype(np.float32))
    weight = Parameter(Tensor(np.ones(3, np.float32)), name="weight")
    ms.set_context(mode=mode)
    try:
        copied, passed, parameter = Identity()(x), Passthrough()(x), Passthrough()(weight)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert copied is not x and passed is x and parameter is weight
    np.testing.assert_array_equal(copied.asnumpy(), [0.0, 1.0, 2.0])
    assert copied.dtype == ms.float32


def test_identity_n_gives_a_tuple_of_new_tensors_and_checks_its_input():
    """MindSpore 2.10 CPU: a tuple for a list or a tuple (new Tensors, ``is`` False); a lone Tensor or a non-Tensor
    item is a TypeError, an empty list a ValueError."""
    a, b = Tensor(np.ones((2, 2), np.float32)), Tensor(np.array([1, 2], np.int64))
    for inputs in ([a, b], (a, b)):
        result = ops.IdentityN()(inputs)
        assert type(result) is tuple and len(result) == 2 and result[0] is not a
        np.testing.assert_array_equal(result[1].asnumpy(), [1, 2])
        assert result[1].dtype == ms.int64
    with pytest.raises(TypeError, match="list or tuple"):
        ops.IdentityN()(a)
    with pytest.raises(TypeError, match=r"x\[0\]"):
        ops.IdentityN()([1, 2])
    with pytest.raises(ValueError, match="at least one"):
        ops.IdentityN()([])
