"""_primexpr (mindspore.ops.primitive): a constexpr that also takes variables runs its function on what it
is given, in PyNative and in a compiled construct (MindSpore 2.10 gives 6.0 below)."""
import numpy as np

import sporax
from sporax import nn
from sporax.core.tensor import Tensor
from sporax.ops import _primexpr


@_primexpr
def doubled_last_axis(shape):
    return shape[-1] * 2


class ScaleByWidth(nn.Cell):
    def construct(self, x):
        return x * doubled_last_axis(x.shape)


def test_primexpr_runs_on_static_and_traced_inputs():
    x = Tensor(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(ScaleByWidth()(x).asnumpy(), np.full((2, 3), 6.0, np.float32))
    compiled = sporax.jit(lambda t: t * doubled_last_axis(t.shape))
    np.testing.assert_array_equal(compiled(x).asnumpy(), np.full((2, 3), 6.0, np.float32))
    assert _primexpr(name="x")(len)([1, 2]) == 2
