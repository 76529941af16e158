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
