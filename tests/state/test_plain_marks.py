"""The last-call memo of ``ProgramCache.lookup`` (``sporax.state.arguments.plain_marks``): calls whose
arguments are plain Tensors, or tuples of them, with the marks of the previous call reuse its program;
any other shape, dtype or structure takes the signature key and gets its own program."""
import numpy as np
import pytest

import sporax as ms
from sporax.core.initializer import One
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.state.arguments import plain_marks, signature


def _tensor(shape, dtype=np.float32, value=1.0):
    return Tensor(np.full(shape, value, dtype))


@pytest.mark.parametrize("first, second", [
    ((_tensor((2, 3)),), ((_tensor((2, 3)),),)),  # a Tensor, then a tuple holding one
    (((_tensor((2,)), _tensor((3,))), _tensor((4,))), (_tensor((2,)), (_tensor((3,)), _tensor((4,))))),
    ((_tensor((2, 3)),), (_tensor((3, 2)),)),
    ((_tensor((2, 3)),), (_tensor((2, 3), np.float16),)),
    (((),), ()),
])
def test_different_signatures_have_different_marks(first, second):
    assert signature(first, {})[0] != signature(second, {})[0]
    assert plain_marks(first)[1] != plain_marks(second)[1]


def test_equal_marks_give_the_same_key_and_arrays():
    args = ((_tensor((2, 3)), _tensor((3,), np.int32)), _tensor((5,)))
    again = ((_tensor((2, 3), value=2.0), _tensor((3,), np.int32)), _tensor((5,), value=3.0))
    arrays, marks = plain_marks(args)
    assert plain_marks(again)[1] == marks
    assert signature(again, {})[0] == signature(args, {})[0]
    assert all(a is b for a, b in zip(arrays, signature(args, {})[1]))


@pytest.mark.parametrize("args", [
    (Parameter(_tensor((2,)), name="w"),),
    ([_tensor((2,))],),
    ((_tensor((2,)), 1.0),),
    (1,),
    (Tensor(shape=(2,), dtype=ms.float32, init=One()),),
])
def test_other_arguments_take_the_signature(args):
    assert plain_marks(args) is None


def test_outputs_of_one_program_share_their_marks():
    """What makes the memo an identity test per item: a program's outputs of two calls share their avals."""
    double = ms.jit(lambda x: (x * 2, x + 1))
    x = _tensor((2, 3))
    first, second = plain_marks((double(x),))[1], plain_marks((double(x),))[1]
    assert all(a is b for a, b in zip(first, second))


def test_alternating_signatures_run_their_own_programs():
    @ms.jit
    def total(values, scale):
        return sum(value.sum() for value in values) * scale

    calls = [((_tensor((2, 3)), _tensor((4,))), _tensor(())),
             ((_tensor((2, 3)), _tensor((4,))), _tensor(())),
             ((_tensor((3, 3)), _tensor((4,))), _tensor(())),
             ((_tensor((2, 3)),), _tensor(())),
             ((_tensor((2, 3), np.float16), _tensor((4,))), _tensor(())),
             ((_tensor((2, 3)), _tensor((4,))), _tensor((), value=3.0))]
    for values, scale in calls * 2:
        expected = sum(np.asarray(v.asnumpy(), np.float64).sum() for v in values) * float(scale.asnumpy())
        assert float(total(values, scale).asnumpy()) == pytest.approx(expected, rel=1e-3)
