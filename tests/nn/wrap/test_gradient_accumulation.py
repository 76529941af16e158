"""``mindspore.boost.GradientAccumulation``: values recorded from MindSpore 2.10 (CPU, PyNative)."""
import numpy as np
import pytest

from sporax import nn, ops
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.wrap.gradient_accumulation import (GradientAccumulation, gradient_accumulation_op,
                                                  gradient_clear_op)


def test_the_update_functions_add_the_scaled_gradient_and_clear_in_place():
    accumulated = Parameter(Tensor(np.ones(3, np.float32)), name="a")
    gradient_accumulation_op(4, accumulated, Tensor(np.full(3, 2.0, np.float32)))
    np.testing.assert_allclose(accumulated.asnumpy(), [1.5, 1.5, 1.5])  # 1 + 2 / 4, as MindSpore
    gradient_clear_op(accumulated)
    np.testing.assert_array_equal(accumulated.asnumpy(), [0.0, 0.0, 0.0])


def test_the_optimizer_runs_on_the_mean_gradient_every_max_accumulation_step_calls():
    net = nn.Dense(2, 1)
    accumulate = GradientAccumulation(2, nn.SGD(net.trainable_params(), 0.1))
    # MindSpore's names: the optimizer's weights, their zero clones and the step counter.
    assert [p.name for p in accumulate._grad_accumulation] == ["grad_accumulation.optimizer.weight",
                                                               "grad_accumulation.optimizer.bias"]
    assert accumulate._max_accumulation_step == 2 and accumulate._accumulation_step.dtype == mstype.int32
    before = net.weight.asnumpy().copy()
    first = tuple(Tensor(np.ones(p.shape, np.float32)) for p in net.trainable_params())
    second = tuple(Tensor(np.full(p.shape, 3.0, np.float32)) for p in net.trainable_params())

    loss = accumulate(Tensor(1.5, mstype.float32), first)
    assert float(loss.asnumpy()) == 1.5
    np.testing.assert_array_equal(net.weight.asnumpy(), before)  # accumulated only
    np.testing.assert_allclose(accumulate._grad_accumulation[0].asnumpy(), [[0.5, 0.5]])
    assert int(accumulate._accumulation_step.asnumpy()) == 1

    accumulate(Tensor(2.5, mstype.float32), second)
    # SGD with lr 0.1 on the mean gradient (1 + 3) / 2 = 2.
    np.testing.assert_allclose(net.weight.asnumpy() - before, [[-0.2, -0.2]], rtol=1e-5)
    np.testing.assert_array_equal(accumulate._grad_accumulation[0].asnumpy(), [[0.0, 0.0]])
    assert int(accumulate._accumulation_step.asnumpy()) == 0


def test_a_subclass_reuses_the_attributes_in_its_own_construct():
    class EveryStep(GradientAccumulation):
        def construct(self, loss, grads):
            loss = ops.depend(loss, self.hyper_map(ops.partial(gradient_accumulation_op, self._max_accumulation_step),
                                                   self._grad_accumulation, grads))
            return ops.depend(loss, self.optimizer(self._grad_accumulation))

    net = nn.Dense(2, 1)
    before = net.bias.asnumpy().copy()
    step = EveryStep(4, nn.SGD(net.trainable_params(), 1.0))
    step(Tensor(0.0), tuple(ops.ones_like(p) for p in net.trainable_params()))
    np.testing.assert_allclose(net.bias.asnumpy() - before, [-0.25], rtol=1e-6)


@pytest.mark.parametrize("steps", [0, -1, 1.5, True])
def test_bad_max_accumulation_step_is_refused(steps):
    with pytest.raises(ValueError, match="max_accumulation_step"):
        GradientAccumulation(steps, nn.SGD(nn.Dense(2, 1).trainable_params(), 0.1))


def test_the_optimizer_must_be_an_optimizer():
    with pytest.raises(TypeError, match="'optimizer' must be an optimizer Cell"):
        GradientAccumulation(2, nn.Dense(2, 1))


def test_boost_train_step_at_level_o0_is_the_train_step():
    """mindspore.boost.BoostTrainOneStepCell, two Momentum steps (MindSpore 2.10: without ``sens`` the step
    returns None, its no-sens path has no return; with sens=2.0 it returns the losses 15.875, 9.063517)."""
    from sporax.nn.wrap.boost_train_step import BoostTrainOneStepCell
    x = Tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32))
    y = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))
    expected = {None: ([None, None], [[0.42046875, 0.09156254, -0.80124992], [0.37078124, -0.2940625, -0.87875003]],
                       [-0.64218748, -0.62031251]),
                2.0: ([15.875, 9.063517], [[0.34937507, -0.16874993, -0.9849999], [0.29562503, -0.84124994, -1.00499988]],
                      [-0.68374997, -0.59625006])}
    for sens, (losses, weight, bias) in expected.items():
        net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        step = BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                     nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9), sens=sens)
        got = [step(x, y) for _ in range(2)]
        assert [None if loss is None else pytest.approx(float(loss), rel=1e-5) for loss in got] == losses
        np.testing.assert_allclose(net.weight.asnumpy(), weight, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(net.bias.asnumpy(), bias, rtol=1e-5, atol=1e-6)
        assert (step.freeze, step.use_grad_accumulation, step.enable_dim_reduce, step.enable_adasum,
                step.max_accumulation_step) == (False, False, False, False, 1)
