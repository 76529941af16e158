"""AdaSum wrappers: the job checks MindSpore 2.10 makes (messages recorded from it), and the clear refusal of
the hierarchical exchange sporax does not implement."""
import pytest

from sporax import context, nn


@pytest.fixture
def optimizer():
    net = nn.Dense(2, 2)
    return nn.Momentum(net.trainable_params(), 0.1, 0.9)


@pytest.mark.parametrize("wrapper", [nn.AdaSumByGradWrapCell, nn.AdaSumByDeltaWeightWrapCell])
def test_stand_alone_and_small_jobs_raise_as_mindspore(wrapper, optimizer):
    with pytest.raises(RuntimeError, match="Stand alone mode is not supported to apply adasum"):
        wrapper(optimizer)
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=8)
    try:
        with pytest.raises(RuntimeError, match="device_num must be at least 16"):
            wrapper(optimizer)
        context.set_auto_parallel_context(device_num=16)
        with pytest.raises(NotImplementedError, match="AdaSum's hierarchical"):
            wrapper(optimizer)
        with pytest.raises(TypeError, match="nn.Optimizer"):
            wrapper(object())
    finally:
        context.reset_auto_parallel_context()
