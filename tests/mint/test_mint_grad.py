"""sporax.mint is differentiable (finite differences) and its Cells train in PYNATIVE and GRAPH mode."""
import numpy as np
import pytest

import sporax as ms
from sporax import mint
from sporax.mint import optim

F = mint.nn.functional
RNG = np.random.RandomState(0)
IMG = RNG.randn(1, 2, 5, 5)
LABELS = ms.Tensor(np.array([1], np.int64))

# (name, function of one float64 Tensor returning a scalar)
CASES = [
    ("conv2d", lambda z: F.conv2d(z, mint.ones((3, 2, 2, 2), dtype=ms.float64) * 0.3, None, 2, 1).sum()),
    ("cross_entropy", lambda z: F.cross_entropy(F.adaptive_avg_pool2d(z, 1).reshape(1, 2), LABELS)),
    ("std/var", lambda z: mint.std(z, 2).sum() + mint.var(z)),
    ("layer_norm", lambda z: (F.layer_norm(z, (5,)) * mint.arange(5, dtype=ms.float64)).sum()),
    ("avg/max pool", lambda z: F.avg_pool2d(z, 2, 1).sum() + F.max_pool2d(z, 3, 2, 1).sum()),
    ("unfold/fold", lambda z: (F.fold(F.unfold(z, 2) ** 2, (5, 5), 2) * z).sum()),
    ("normalize/norm", lambda z: mint.norm(F.normalize(z, dim=3), 3) + mint.linalg.vector_norm(z, 1)),
    ("pad reflect", lambda z: (F.pad(z, (1, 2, 2, 1), "reflect") ** 2).mean()),
    ("grid_sample", lambda z: F.grid_sample(z, mint.ones((1, 2, 2, 2), dtype=ms.float64) * 0.3 - 0.5).sum()),
    ("addmm/bmm", lambda z: mint.addmm(z[0, 0], z[0, 1], z[0, 0], beta=0.5, alpha=2).sum()
     + mint.bmm(z[0], z[0]).mean()),
    ("kl_div/softmax", lambda z: F.kl_div(F.log_softmax(z, 1), F.softmax(z * 0.5, 1), "batchmean")),
    ("index_add/scatter_add", lambda z: (mint.index_add(z[0, 0], 1, ms.Tensor(np.array([0, 2])), z[0, 1, :, :2])
                                         ** 2).sum() + mint.scatter_add(z[0, 0], 1, ms.Tensor(np.ones((5, 2), np.int64)),
                                                                        z[0, 1]).sum()),
]


def _numeric_gradient(function, value, step=1e-6):
    grad = np.zeros_like(value)
    for position in np.ndindex(value.shape):
        plus, minus = value.copy(), value.copy()
        plus[position] += step
        minus[position] -= step
        grad[position] = (float(function(ms.Tensor(plus)).asnumpy()) -
                          float(function(ms.Tensor(minus)).asnumpy())) / (2 * step)
    return grad


# Every case compiles a few small programs; the default run takes every other one, the slow run all.
@pytest.mark.parametrize("name, function", [
    pytest.param(*case, marks=[pytest.mark.slow] if index % 2 else []) for index, case in enumerate(CASES)],
    ids=[case[0] for case in CASES])
def test_gradient_matches_finite_differences(name, function):
    grad = ms.grad(function)(ms.Tensor(IMG))
    np.testing.assert_allclose(grad.asnumpy(), _numeric_gradient(function, IMG), rtol=1e-5, atol=1e-6)


class _Net(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = mint.nn.Conv2d(2, 4, 3, padding=1)
        self.norm = mint.nn.BatchNorm2d(4)
        self.act = mint.nn.GELU()
        self.pool = mint.nn.AdaptiveAvgPool2d(1)
        self.head = mint.nn.Linear(4, 3)

    def construct(self, x):
        return self.head(mint.flatten(self.pool(self.act(self.norm(self.conv(x)))), 1))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_mint_cells_train_in_both_modes(mode):
    ms.set_context(mode=mode)
    try:
        ms.set_seed(1)
        net = _Net()
        net.set_train()
        optimizer = optim.AdamW(net.trainable_params(), lr=0.05)
        x = ms.Tensor(RNG.randn(8, 2, 6, 6).astype(np.float32))
        labels = ms.Tensor((np.arange(8) % 3).astype(np.int64))

        def forward(inputs, targets):
            return F.cross_entropy(net(inputs), targets)

        step = ms.value_and_grad(forward, None, optimizer.parameters)
        losses = []
        for _ in range(25):
            loss, grads = step(x, labels)
            optimizer(grads)
            losses.append(float(loss.asnumpy()))
        assert losses[-1] < 0.5 * losses[0]
        assert float(net.norm.num_batches_tracked.asnumpy()) >= 25
        assert not np.allclose(net.norm.running_mean.asnumpy(), 0)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_errors_name_the_api():
    with pytest.raises(ValueError, match="Conv2d"):
        mint.nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="ReflectionPad2d"):
        mint.nn.ReflectionPad2d((1, 2, 3))
    with pytest.raises(TypeError, match="mindspore.mint.randint"):
        mint.randint(5)
    with pytest.raises(NotImplementedError, match="generator"):
        mint.rand(2, generator=object())
