"""``x op= y`` on a Parameter inside compiled code updates the Parameter in place, and the name keeps standing for
it: a second ``x op= z``, an update inside an ``if`` or a loop on a tensor condition, and one after such a join
all reach the Parameter (values recorded on MindSpore 2.10 CPU, GRAPH mode and ``ms.jit``)."""
import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, jit, nn


def _parameter(name):
    return Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name=name)


def test_chained_updates_all_reach_the_parameter():
    @jit
    def step(x):
        x -= 1
        x *= 3
        return x

    p = _parameter("p")
    np.testing.assert_array_equal(step(p).asnumpy(), [0.0, 3.0])
    np.testing.assert_array_equal(p.asnumpy(), [0.0, 3.0])


def test_update_inside_a_branch_on_a_tensor_condition():
    @jit
    def step(x, c):
        if c > 0:
            x += 5
        else:
            x -= 1
        return x * 1

    p = _parameter("p")
    np.testing.assert_array_equal(step(p, Tensor(1)).asnumpy(), [6.0, 7.0])
    np.testing.assert_array_equal(p.asnumpy(), [6.0, 7.0])
    np.testing.assert_array_equal(step(p, Tensor(-1)).asnumpy(), [5.0, 6.0])
    np.testing.assert_array_equal(p.asnumpy(), [5.0, 6.0])


def test_update_inside_a_while_loop_and_a_rebinding_loop():
    @jit
    def updates(x, n):
        i = 0
        while i < n:
            x += 1
            i += 1
        return x

    @jit
    def rebinds(x, n):
        i = 0
        while i < n:
            x = x * 2
            i += 1
        return x

    p, q = _parameter("p"), _parameter("q")
    np.testing.assert_array_equal(updates(p, Tensor(3)).asnumpy(), [4.0, 5.0])
    np.testing.assert_array_equal(p.asnumpy(), [4.0, 5.0])
    np.testing.assert_array_equal(rebinds(q, Tensor(3)).asnumpy(), [8.0, 16.0])
    np.testing.assert_array_equal(q.asnumpy(), [1.0, 2.0])


class _BranchThenUpdate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = _parameter("w")

    def construct(self, c):
        x = self.w
        if c > 0:
            x *= 2
        x -= 1
        return x + 0


def test_cell_update_after_a_branch_join_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _BranchThenUpdate()
        np.testing.assert_array_equal(net(Tensor(1)).asnumpy(), [1.0, 3.0])
        np.testing.assert_array_equal(net.w.asnumpy(), [1.0, 3.0])
        np.testing.assert_array_equal(net(Tensor(-1)).asnumpy(), [0.0, 2.0])
        np.testing.assert_array_equal(net.w.asnumpy(), [0.0, 2.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
