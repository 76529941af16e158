"""What custom optimizers reach into on ``nn.Optimizer`` (mindcv's AdamW, Adan, Lion): ``target`` and the
step helpers. Errors and values as MindSpore 2.10 gives them on CPU."""
import numpy as np
import pytest

from sporax import nn
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.optim.optimizer import Optimizer


def _params():
    return nn.Dense(2, 1).trainable_params()


@pytest.mark.parametrize("make", [lambda p: nn.SGD(p, 0.1), lambda p: nn.Momentum(p, 0.1, 0.9)])
def test_target_reads_the_device_and_cannot_be_set_on_most_optimizers(make):
    optimizer = make(_params())
    assert optimizer.target == "CPU"
    with pytest.raises(NotImplementedError, match="'target' cannot be set"):
        optimizer.target = "CPU"


@pytest.mark.parametrize("make", [lambda p: nn.Adam(p), lambda p: nn.LazyAdam(p), lambda p: nn.FTRL(p),
                                  lambda p: nn.ProximalAdagrad(p)])
def test_target_of_the_optimizers_with_a_host_update_is_validated(make):
    optimizer = make(_params())
    optimizer.target = "CPU"
    assert optimizer.target == "CPU"
    with pytest.raises(ValueError, match="cannot be set to 'GPU' or 'Ascend' in the 'CPU' environment"):
        optimizer.target = "GPU"
    with pytest.raises(ValueError, match=r"must be one of \['CPU', 'Ascend' ,'GPU'\], but got cpu"):
        optimizer.target = "cpu"
    with pytest.raises(TypeError, match="must be string"):
        optimizer.target = 3


def test_a_subclass_declares_its_own_target_setter_on_the_property():
    class HostOptimizer(nn.SGD):
        @Optimizer.target.setter
        def target(self, value):
            self._set_base_target(value)

    optimizer = HostOptimizer(_params(), 0.1)
    optimizer.target = "CPU"
    assert optimizer.target == "CPU"


def test_the_step_helpers_custom_optimizers_call():
    optimizer = nn.SGD(_params(), 0.1, weight_decay=0.0)
    assert optimizer.global_step_increase_tensor.dtype == mstype.int32
    np.testing.assert_array_equal(optimizer.global_step_increase_tensor.asnumpy(), [1])
    optimizer.assignadd(optimizer.global_step, optimizer.global_step_increase_tensor)
    optimizer.assignadd(optimizer.global_step, optimizer.global_step_increase_tensor)
    np.testing.assert_array_equal(optimizer.global_step.asnumpy(), [2])
    gradients = tuple(Tensor(np.arange(p.size, dtype=np.float32).reshape(p.shape)) for p in optimizer.parameters)
    # No parameter fusion, dense gradients, no sharded state: each returns the gradients it got; with
    # grad_centralization MindSpore 2.10 on CPU also leaves them unchanged.
    for helper in (optimizer.flatten_gradients, optimizer.gradients_centralization,
                   optimizer._grad_sparse_indices_deduplicate, optimizer.broadcast_params):
        assert helper(gradients) is gradients


def test_per_step_learning_rate_is_the_parameter_learning_rate():
    # MindSpore 2.10's names for the same optimizer (an Optimizer does not prefix its child Cells'
    # Parameters): the per-step list is saved and resumed as 'learning_rate'.
    from sporax import nn as sporax_nn
    net = sporax_nn.Dense(2, 2)
    optimizer = sporax_nn.Adam(net.trainable_params(), learning_rate=[0.1, 0.2])
    assert [parameter.name for parameter in optimizer.get_parameters()] == [
        "global_step", "weight", "bias", "beta1_power", "beta2_power", "moment1.weight", "moment1.bias",
        "moment2.weight", "moment2.bias", "learning_rate"]


@pytest.mark.parametrize("make", [lambda params: nn.Adam(params, 0.01), lambda params: nn.Momentum(params, 0.1, 0.9),
                                  lambda params: nn.FTRL(params)], ids=["Adam", "Momentum", "FTRL"])
def test_a_gradient_count_other_than_the_parameters_raises_runtime_error(make):
    """MindSpore 2.10 refuses gradients of more parameters than the optimizer holds (a GAN step differentiating
    the generator's weights too) with RuntimeError ("For 'Map', the length of tuples must be the same")."""
    first, second = nn.Dense(2, 2), nn.Dense(2, 3)
    optimizer = make(first.trainable_params())
    gradients = tuple(Tensor(np.ones(p.shape, np.float32)) for p in first.trainable_params() + second.trainable_params())
    with pytest.raises(RuntimeError, match=r"updates 2 parameters but got 4 gradients"):
        optimizer(gradients)
    before = first.weight.asnumpy().copy()
    optimizer(gradients[:2])
    assert not np.allclose(first.weight.asnumpy(), before)


def test_get_lr_parameter_takes_a_parameter_or_a_list():
    # MindSpore 2.10 (the docstring's example: groups with lr 0.05 and the default 0.1): a list gives a list,
    # one rate per parameter; without groups every parameter gets the one learning_rate.
    from sporax import Parameter  # noqa: PLC0415 - only this test builds a stray Parameter

    params = nn.Dense(2, 2).trainable_params()
    grouped = nn.Momentum([{"params": params[:1], "lr": 0.05}, {"params": params[1:]}], learning_rate=0.1,
                          momentum=0.9)
    rates = grouped.get_lr_parameter(params)
    assert isinstance(rates, list) and np.allclose([r.asnumpy() for r in rates], [0.05, 0.1])
    assert np.isclose(grouped.get_lr_parameter(params[0]).asnumpy(), 0.05)
    plain = nn.Momentum(params, learning_rate=0.1, momentum=0.9)
    assert plain.get_lr_parameter(params) == [plain.learning_rate] * 2
    with pytest.raises(TypeError, match=r"^For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' "
                                        r"type, but got <class 'int'>.$"):
        grouped.get_lr_parameter(3)
    with pytest.raises(ValueError, match=r"^For 'get_lr_parameter', the parameter zz is not in optimizer"):
        plain.get_lr_parameter([Parameter(Tensor(np.ones(1, np.float32)), name="zz")])
