"""The one lift (``sporax.state.lifting``) and its write-back rule: only written states are rebound, once,
after the transform; on error nothing is written. Transforms that used to drop state writes now keep
them: BatchNorm statistics after ``ops.vjp`` as MindSpore 2.10 (tests/fixtures/autodiff/
transform_state_updates.json, recorded by tests/fixtures/autodiff/record_transform_state_updates.py)."""
import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax import Tensor, nn, ops
from sporax.core.parameter import Parameter
from sporax.state.lifting import Lift
from sporax.state.scope import is_tracing
from tests.state.helpers import add, assign, tensor

with open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "autodiff", "transform_state_updates.json")) as _f:
    ORACLE = json.load(_f)


def _counter_step():
    counter = Parameter(tensor([1.0, 2.0]), name="counter")
    weight = Parameter(tensor([10.0, 20.0]), name="weight")

    def step(x):
        assign(counter, add(counter, x))
        return add(weight, x)

    return counter, weight, step


def test_only_written_states_are_written_back_after_the_transform():
    counter, weight, step = _counter_step()
    weight_array = weight._array
    lifted = Lift(step, [counter, weight], "step")
    outputs, new_values = jax.jit(lifted)(lifted.values(), tensor([1.0, 1.0]))
    np.testing.assert_allclose(counter.asnumpy(), [1.0, 2.0], err_msg="nothing is stored before the write-back")
    assert lifted.written == [True, False]
    lifted.write_back(new_values)
    np.testing.assert_allclose(counter.asnumpy(), [2.0, 3.0])
    assert weight._array is weight_array, "a state only read is not rebound"
    np.testing.assert_allclose(outputs.asnumpy(), [11.0, 21.0])
    assert not is_tracing()


def test_written_values_and_store_written_round_trip():
    counter, weight, step = _counter_step()
    lifted = Lift(step, [weight, counter], "step")
    _, new_values = lifted(lifted.values(), tensor([5.0, 5.0]))
    written = lifted.written_values(new_values)
    assert len(written) == 1 and lifted.written_states() == [counter]
    lifted.store_written(written)
    np.testing.assert_allclose(counter.asnumpy(), [6.0, 7.0])


def test_an_error_writes_nothing_back_and_restores_every_slot():
    counter = Parameter(tensor([1.0]), name="counter")

    def failing(x):
        assign(counter, add(counter, x))
        raise ZeroDivisionError("user error after an assign")

    original = counter._array
    lifted = Lift(failing, [counter], "failing")
    with pytest.raises(ZeroDivisionError):
        jax.jit(lifted)(lifted.values(), tensor([3.0]))
    assert counter._array is original
    assert not is_tracing()


def test_a_returned_parameter_carries_its_value_at_the_end_of_the_function():
    counter = Parameter(tensor([1.0]), name="counter")

    def step(x):
        assign(counter, add(counter, x))
        return counter

    lifted = Lift(step, [counter], "step")
    outputs, _ = lifted([jnp.asarray([4.0], jnp.float32)], tensor([1.0]))
    assert type(outputs) is Tensor
    np.testing.assert_allclose(outputs.asnumpy(), [5.0])


class _Normalized(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(2, momentum=0.5)

    def construct(self, x):
        return self.bn(x) * 2


def test_vjp_writes_back_batchnorm_statistics_as_mindspore():
    net = _Normalized()
    net.set_train()
    out, pullback = ops.vjp(net, Tensor(np.array(ORACLE["x"], np.float32)))
    pullback(Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_allclose(out.asnumpy(), ORACLE["vjp"]["output"], rtol=1e-5)
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), ORACLE["vjp"]["moving_mean"], rtol=1e-6)
    np.testing.assert_allclose(net.bn.moving_variance.asnumpy(), ORACLE["vjp"]["moving_variance"], rtol=1e-6)


def test_jvp_writes_back_batchnorm_statistics_once_unlike_mindspore():
    """Known difference: MindSpore 2.10's jvp runs the forward pass twice and so updates the moving statistics
    twice (fixture: moving_mean [1.5, 3.0]); sporax runs the function once and updates them once, as vjp."""
    net = _Normalized()
    net.set_train()
    out, _ = ops.jvp(net, Tensor(np.array(ORACLE["x"], np.float32)), Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_allclose(out.asnumpy(), ORACLE["jvp"]["output"], rtol=1e-5)
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), ORACLE["vjp"]["moving_mean"], rtol=1e-6)
    assert ORACLE["jvp"]["moving_mean"] != ORACLE["vjp"]["moving_mean"], "the recorded MindSpore difference"
