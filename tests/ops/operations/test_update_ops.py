"""FusedWeightScaleApplyMomentum (MindSpore runs it on GPU only) against nn.Momentum's documented steps in NumPy,
eagerly and inside a compiled train step; ApplyMomentum against MindSpore 2.10's recorded step."""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from sporax.ops.functional import update


def _numpy_steps(weight, moment, gradients, weight_decay, scale, learning_rate, momentum):
    for gradient in gradients:
        moment = momentum * moment + (gradient * scale + weight_decay * weight)
        weight = weight - learning_rate * moment
    return weight, moment


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_fused_weight_scale_momentum_follows_nn_momentum(mode):
    rng = np.random.default_rng(0)
    start = rng.standard_normal((3, 2)).astype(np.float32)
    gradients = rng.standard_normal((3, 3, 2)).astype(np.float32)

    class Step(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = Parameter(Tensor(start), name="weight")
            self.moment = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="moment")
            self.update = ops.FusedWeightScaleApplyMomentum()

        def construct(self, gradient):
            return self.update(Tensor(0.01, ms.float32), Tensor(0.125, ms.float32), self.weight, self.moment,
                               Tensor(0.1, ms.float32), gradient, Tensor(0.9, ms.float32))

    step = Step()
    ms.set_context(mode=mode)
    try:
        for gradient in gradients:
            step(Tensor(gradient))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    weight, moment = _numpy_steps(start.astype(np.float64), 0.0, gradients, 0.01, 0.125, 0.1, 0.9)
    np.testing.assert_allclose(step.weight.asnumpy(), weight, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(step.moment.asnumpy(), moment, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("use_nesterov", [False, True])
def test_apply_momentum_one_step(mode, use_nesterov):
    """Recorded on MindSpore 2.10 (CPU, both modes): var [1, -2], accum [0.5, 0.5], lr 0.1, grad [1, 0.5],
    momentum 0.9 -> accum [1.45, 0.95], var [0.855, -2.095] for use_nesterov False AND True: its CPU kernel has
    no Nesterov branch (mindyolo's nn.Momentum(use_nesterov=True) trains as plain momentum there), and sporax
    with device_target CPU takes it so (test_apply_momentum_nesterov_on_gpu_targets: the documented rule)."""
    class Step(nn.Cell):
        def __init__(self):
            super().__init__()
            self.var = Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name="var")
            self.accum = Parameter(Tensor(np.array([0.5, 0.5], np.float32)), name="accum")
            self.update = ops.ApplyMomentum(use_nesterov=use_nesterov)

        def construct(self, gradient):
            return self.update(self.var, self.accum, Tensor(0.1, ms.float32), gradient, Tensor(0.9, ms.float32))

    step = Step()
    ms.set_context(mode=mode)
    try:
        step(Tensor(np.array([1.0, 0.5], np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(step.accum.asnumpy(), [1.45, 0.95], rtol=1e-6)
    np.testing.assert_allclose(step.var.asnumpy(), [0.855, -2.095], rtol=1e-6)


def test_apply_momentum_nesterov_on_gpu_targets(monkeypatch):
    """With a GPU/Ascend device target ApplyMomentum(use_nesterov=True) follows the documented rule
    var -= (grad + accum * momentum) * lr, as those MindSpore kernels do (the CPU kernel has no Nesterov branch)."""
    monkeypatch.setattr(update, "get_context", lambda key: "GPU" if key == "device_target" else None)
    var = Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name="var")
    accum = Parameter(Tensor(np.array([0.5, 0.5], np.float32)), name="accum")
    ops.ApplyMomentum(use_nesterov=True)(var, accum, Tensor(0.1, ms.float32), Tensor(np.array([1.0, 0.5], np.float32)),
                                         Tensor(0.9, ms.float32))
    np.testing.assert_allclose(accum.asnumpy(), [1.45, 0.95], rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), [1 - (1 + 1.45 * 0.9) * 0.1, -2 - (0.5 + 0.95 * 0.9) * 0.1], rtol=1e-6)


def test_update_primitives_return_new_tensors_of_the_stored_values():
    # As MindSpore 2.10 (recorded): ApplyMomentum()(v, a, 0.1, ones, 0.9) on v = ones, a = zeros gives a Tensor
    # [0.9, 0.9] that is not v, and keeps that value after v.set_data(zeros); ApplyAdagradV2 and
    # ApplyGradientDescent give Tensors too.
    v = Parameter(Tensor(np.ones(2, np.float32)), name="v")
    a = Parameter(Tensor(np.zeros(2, np.float32)), name="a")
    ones = Tensor(np.ones(2, np.float32))
    out = ops.ApplyMomentum()(v, a, Tensor(0.1, ms.float32), ones, Tensor(0.9, ms.float32))
    assert type(out) is Tensor and out is not v
    v.set_data(Tensor(np.zeros(2, np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [0.9, 0.9], rtol=1e-6)
    outputs = ops.ApplyAdagradV2(epsilon=1e-6)(v, a, Tensor(0.1, ms.float32), ones)
    assert [type(output) for output in outputs] == [Tensor, Tensor] and outputs[0] is not v
    np.testing.assert_allclose(outputs[1].asnumpy(), a.asnumpy())
    out = ops.ApplyGradientDescent()(v, Tensor(0.1, ms.float32), ones)
    assert type(out) is Tensor and out is not v
    np.testing.assert_allclose(out.asnumpy(), v.asnumpy())


def test_update_primitives_return_new_tensors_of_the_updated_values():
    # MindSpore 2.10's ApplyAdaMax and ApplyGradientDescent docstrings (a Cell calling the Primitive in
    # PyNative) print Tensors of the updated values, not the Parameters; values recorded there.
    class AdaMax(nn.Cell):
        def __init__(self):
            super().__init__()
            self.apply_ada_max = ops.ApplyAdaMax()
            self.var = Parameter(Tensor(np.array([[0.6, 0.4], [0.1, 0.5]], np.float32)), name="var")
            self.m = Parameter(Tensor(np.array([[0.6, 0.5], [0.2, 0.6]], np.float32)), name="m")
            self.v = Parameter(Tensor(np.array([[0.9, 0.1], [0.7, 0.8]], np.float32)), name="v")

        def construct(self, *args):
            return self.apply_ada_max(self.var, self.m, self.v, *args)

    scalars = [Tensor(x, ms.float32) for x in (0.9, 0.001, 0.9, 0.99, 1e-10)]
    net = AdaMax()
    out = net(*scalars, Tensor(np.array([[0.3, 0.7], [0.1, 0.8]], np.float32)))
    assert [type(item) for item in out] == [Tensor] * 3
    np.testing.assert_allclose(out[0].asnumpy(), [[5.93602717e-01, 3.92571449e-01], [9.72582996e-02, 4.92249995e-01]],
                               rtol=1e-6)
    np.testing.assert_allclose(out[1].asnumpy(), [[0.57, 0.52], [0.19, 0.62]], rtol=1e-6)
    np.testing.assert_allclose(out[2].asnumpy(), [[0.891, 0.7], [0.693, 0.8]], rtol=1e-6)
    np.testing.assert_array_equal(net.var.asnumpy(), out[0].asnumpy())  # the Parameter is updated too

    var = Parameter(Tensor(np.ones((2, 2), np.float32)), name="var")
    out = ops.ApplyGradientDescent()(var, Tensor(0.001, ms.float32), Tensor(np.full((2, 2), 0.1, np.float32)))
    assert type(out) is Tensor and out is not var
    np.testing.assert_allclose(out.asnumpy(), np.full((2, 2), 0.9999, np.float32))
    np.testing.assert_array_equal(var.asnumpy(), out.asnumpy())


def test_sparse_apply_primitives_return_new_tensors():
    # MindSpore 2.10's SparseApplyAdagradV2 docstring prints Tensors ([[0.19999999]], [[0.59]]), not Parameters.
    var = Parameter(Tensor(np.array([[0.2]], np.float32)), name="var")
    accum = Parameter(Tensor(np.array([[0.1]], np.float32)), name="accum")
    out = ops.SparseApplyAdagradV2(lr=1e-8, epsilon=1e-6)(var, accum, Tensor(np.array([[0.7]], np.float32)),
                                                          Tensor(np.array([0]), ms.int32))
    assert [type(item) for item in out] == [Tensor, Tensor]
    np.testing.assert_allclose(out[0].asnumpy(), [[1.99999988e-01]], rtol=1e-7)
    np.testing.assert_allclose(out[1].asnumpy(), [[5.89999974e-01]], rtol=1e-7)
    np.testing.assert_array_equal(var.asnumpy(), out[0].asnumpy())
