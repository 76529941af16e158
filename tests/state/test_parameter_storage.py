"""A Parameter's storage (sporax.state.parameter_storage): who shares it, and which writes replace it.

Every expected value was recorded on MindSpore 2.10 (CPU) with the same statements: a held ``d = p.data``
follows in-place writes (``ops.assign``, an optimizer's step, a compiled train step, BatchNorm's statistics)
and keeps the old storage across ``set_data`` / ``p.data = x`` / ``assign_value`` / PyNative ``self.w = x``,
while ``set_data(t)`` makes ``p`` share ``t``'s storage.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


def values(*numbers):
    return Tensor(np.array(numbers, np.float32))


def parameter(*numbers, name="p"):
    return Parameter(values(*numbers), name=name)


def test_data_is_a_new_tensor_over_the_same_storage_at_each_call():
    p = parameter(1.0, 2.0)
    first, second = p.data, p.data
    assert first is not p and first is not second and type(first) is Tensor
    ops.assign(p, values(7.0, 7.0))
    assert first.asnumpy().tolist() == [7, 7] and second.asnumpy().tolist() == [7, 7]
    ops.assign(first, values(0.5, 0.5))  # a write through either Tensor reaches the Parameter
    assert p.asnumpy().tolist() == [0.5, 0.5] and second.asnumpy().tolist() == [0.5, 0.5]


@pytest.mark.parametrize("replace", ["set_data", "data =", "assign_value"])
def test_a_new_storage_leaves_the_held_data_with_the_old_one(replace):
    p = parameter(1.0, 2.0)
    held = p.data
    new = values(10.0, 20.0)
    if replace == "set_data":
        p.set_data(new)
    elif replace == "data =":
        p.data = new
    else:
        p.assign_value(new)
    assert held.asnumpy().tolist() == [1, 2] and p.asnumpy().tolist() == [10, 20]
    ops.assign(p, values(5.0, 5.0))  # MindSpore: d after assign [1. 2.]
    assert held.asnumpy().tolist() == [1, 2]
    held[0] = -2  # MindSpore: p stays [5. 5.]
    assert p.asnumpy().tolist() == [5, 5]


def test_tensors_left_on_the_old_storage_still_share_it():
    p = parameter(1.0, 2.0)
    held, element = p.data, p[1]
    p.set_data(values(0.0, 0.0))
    held[1] = 7  # MindSpore: d and v share after detach? [1. 7.] 7.0
    assert held.asnumpy().tolist() == [1, 7] and float(element) == 7 and p.asnumpy().tolist() == [0, 0]


def test_set_data_shares_the_given_tensors_storage_when_no_cast_is_needed():
    p, t = parameter(1.0, 2.0), values(5.0, 6.0)
    p.set_data(t)
    t[0] = 9  # MindSpore: p after set_data(t), t[0]=9 [9. 6.]
    assert p.asnumpy().tolist() == [9, 6]
    ops.assign(t, values(8.0, 8.0))
    assert p.asnumpy().tolist() == [8, 8]
    ops.assign(p, values(3.0, 3.0))
    assert t.asnumpy().tolist() == [3, 3]

    p, t = parameter(1.0, 2.0), values(3.0, 4.0)
    p.set_data(t)
    held = p.data
    p.set_data(values(0.0, 0.0))  # p leaves t's storage; held stays on it (MindSpore: [0. 0.] [9. 4.])
    t[0] = 9
    assert p.asnumpy().tolist() == [0, 0] and held.asnumpy().tolist() == [9, 4]

    p, q = parameter(1.0, 2.0), parameter(5.0, 6.0, name="q")
    p.set_data(q)  # MindSpore: p after set_data(q), assign q [3. 3.]
    ops.assign(q, values(3.0, 3.0))
    assert p.asnumpy().tolist() == [3, 3]

    p, integers = parameter(1.0, 2.0), Tensor(np.array([5, 6], np.int32))
    p.set_data(integers)  # cast to Float32: a copy (MindSpore: [5. 6.] Float32 after t[0] = 9)
    integers[0] = 9
    assert p.asnumpy().tolist() == [5, 6] and p.dtype == ms.float32


def test_held_data_follows_optimizer_steps_and_batchnorm_statistics():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    held = net.weight.data
    gradients = tuple(ops.ones_like(weight) for weight in net.trainable_params())
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    optimizer(gradients)  # MindSpore: held after momentum step [[0.9 0.9]]
    np.testing.assert_allclose(held.asnumpy(), [[0.9, 0.9]], rtol=1e-6)
    element = net.weight[0]
    optimizer(gradients)  # 0.9 - 0.1 * (0.9 * 1 + 1)
    np.testing.assert_allclose(element.asnumpy(), [0.71, 0.71], rtol=1e-6)
    np.testing.assert_allclose(held.asnumpy(), [[0.71, 0.71]], rtol=1e-6)

    norm = nn.BatchNorm1d(2)
    norm.set_train(True)
    mean = norm.moving_mean.data
    norm(values(1.0, 2.0, 3.0, 4.0).reshape(2, 2))  # MindSpore: held moving_mean [0.2 0.3]
    np.testing.assert_allclose(mean.asnumpy(), [0.2, 0.3], rtol=1e-6)


class _Store(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = parameter(1.0, 2.0, name="w")

    def construct(self, x):
        self.w = x
        return self.w + 0


@pytest.mark.parametrize("mode, expected", [(ms.PYNATIVE_MODE, [1, 2]), (ms.GRAPH_MODE, [6, 6])])
def test_attribute_store_is_set_data_in_pynative_and_assign_in_graph(mode, expected):
    # A named PyNative/GRAPH difference of MindSpore's own: its graph compiles ``self.w = x`` into Assign (in
    # place), PyNative's Cell.__setattr__ calls set_data (new storage).
    ms.set_context(mode=mode)
    try:
        cell = _Store()
        held = cell.w.data
        cell(values(6.0, 6.0))
        assert held.asnumpy().tolist() == expected and cell.w.asnumpy().tolist() == [6, 6]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_held_data_follows_a_compiled_train_step():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        held = net.weight.data
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
        step(Tensor(np.ones((3, 2), np.float32)), Tensor(np.zeros((3, 1), np.float32)))
        # MindSpore: graph held after train step [[0.6 0.6]]
        np.testing.assert_allclose(held.asnumpy(), [[0.6, 0.6]], rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_asnumpy_is_a_private_copy_a_known_difference_from_mindspore():
    # MindSpore 2.10 (CPU): ``a = p.asnumpy(); a[0] = 100`` changes p ([100. 2.]), and Tensor.asnumpy()'s array
    # is the Tensor's memory. sporax's arrays are immutable (XLA may share or cache them), so asnumpy() returns a
    # private copy: writing it leaves the Parameter and its held data as they were.
    p = parameter(1.0, 2.0)
    held = p.data
    array = p.asnumpy()
    array[0] = 100
    assert p.asnumpy().tolist() == [1, 2] and held.asnumpy().tolist() == [1, 2]
