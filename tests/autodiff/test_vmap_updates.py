"""vmap over a function that updates its Tensor arguments in place (an optimizer Primitive on Parameters):
each mapped row is updated, the outputs match NumPy's Adadelta, and the Parameters hold the new values
afterwards, in PyNative and GRAPH mode and under nested vmap (MindSpore supports this)."""
import numpy as np
import pytest

import sporax
from sporax import Parameter, Tensor, nn, ops
from sporax.ops.operations import ApplyAdadelta


def _adadelta(var, accum, update, lr, rho, eps, grad):
    accum = rho * accum + (1 - rho) * grad * grad
    step = np.sqrt(update + eps) / np.sqrt(accum + eps) * grad
    update = rho * update + (1 - rho) * step * step
    return var - lr * step, accum, update


def _step(var, accum, accum_update, lr, rho, epsilon, grad):
    return ApplyAdadelta()(var, accum, accum_update, lr, rho, epsilon, grad)


class _Net(nn.Cell):
    def __init__(self, shape, nested):
        super().__init__()
        rng = np.random.default_rng(0)
        self.var = Parameter(Tensor(rng.random(shape, np.float32)), name="var")
        self.accum = Parameter(Tensor(rng.random(shape, np.float32)), name="accum")
        self.accum_update = Parameter(Tensor(rng.random(shape, np.float32)), name="accum_update")
        if nested:
            inner = ops.vmap(_step, in_axes=(0, 0, 0, 0, 0, None, 0), out_axes=0)
            self.mapped = ops.vmap(inner, in_axes=(0, 0, 0, 0, None, None, 0), out_axes=0)
        else:
            self.mapped = ops.vmap(_step, in_axes=(0, 0, 0, 0, None, None, 0), out_axes=0)

    def construct(self, lr, rho, epsilon, grad):
        return self.mapped(self.var, self.accum, self.accum_update, lr, rho, epsilon, grad)


@pytest.mark.parametrize("mode", [sporax.PYNATIVE_MODE, sporax.GRAPH_MODE])
@pytest.mark.parametrize("nested", [False, True])
def test_vmap_updates_mapped_parameters(mode, nested):
    shape = (2, 3, 4) if nested else (3, 4)
    net = _Net(shape, nested)
    before = [p.asnumpy().copy() for p in (net.var, net.accum, net.accum_update)]
    lr = np.array([[0.01, 0.02, 0.03], [0.04, 0.05, 0.06]] if nested else [0.01, 0.02, 0.03], np.float32)
    rho = np.array([0.9, 0.95, 0.99], np.float32) if nested else np.float32(0.95)
    grad = np.random.default_rng(1).random(shape, np.float32)
    sporax.set_context(mode=mode)
    try:
        out = net(Tensor(lr), Tensor(rho) if nested else 0.95, 1e-6, Tensor(grad))
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    lr_b = lr[..., None]
    rho_b = rho[None, :, None] if nested else rho
    expect = _adadelta(*before, lr_b, rho_b, 1e-6, grad)
    for got, param, want in zip(out, (net.var, net.accum, net.accum_update), expect):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)
        np.testing.assert_allclose(param.asnumpy(), want, rtol=1e-5)
