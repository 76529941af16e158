"""CellList / SequentialCell / tuples of Cells or functions indexed by a traced Tensor (control_flow.switch).

GRAPH_MODE and ms.jit compile the call into ``lax.switch`` (no EagerFallbackWarning), giving the
PyNative values; gradients through it match finite differences; Parameter writes in the chosen
Cell are kept.
"""
import inspect
import warnings

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from sporax.state import EagerFallbackWarning

X = np.random.RandomState(2).randn(2, 3).astype(np.float32)


@pytest.fixture(autouse=True)
def pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def triple(x):
    return x * 3


class Selecting(nn.Cell):
    def __init__(self):
        super().__init__()
        ms.set_seed(0)
        self.layers = nn.CellList([nn.Dense(3, 3), nn.ReLU(), nn.Dense(3, 3, activation="tanh")])
        self.sequence = nn.SequentialCell([nn.Tanh(), nn.Sigmoid(), nn.Softsign()])
        self.functions = (ops.sin, ops.cos, triple)

    def construct(self, x, i):
        return self.layers[i](x) + self.functions[i](x) * self.sequence[i](x)


def selecting_np(net, x, i):
    dense = [(layer.weight.asnumpy(), layer.bias.asnumpy()) for layer in (net.layers[0], net.layers[2])]
    layer = [x @ dense[0][0].T + dense[0][1], np.maximum(x, 0), np.tanh(x @ dense[1][0].T + dense[1][1])][i]
    function = [np.sin(x), np.cos(x), x * 3][i]
    sequence = [np.tanh(x), 1 / (1 + np.exp(-x)), x / (1 + np.abs(x))][i]
    return layer + function * sequence


@pytest.mark.parametrize("index", [0, 1, 2, -1])
def test_traced_index_selects_like_pynative_and_numpy(index):
    net = Selecting()
    expected = selecting_np(net, X.astype(np.float64), index)
    i = Tensor(index, ms.int32)
    np.testing.assert_allclose(net(Tensor(X), i).asnumpy(), expected, rtol=1e-5, atol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        ms.set_context(mode=ms.GRAPH_MODE)
        np.testing.assert_allclose(net(Tensor(X), i).asnumpy(), expected, rtol=1e-5, atol=1e-6)
        ms.set_context(mode=ms.PYNATIVE_MODE)
        np.testing.assert_allclose(ms.jit(net.construct)(Tensor(X), i).asnumpy(), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("index", [0, 2])
def test_gradients_through_the_selected_cell(index):
    net = Selecting()
    i = Tensor(index, ms.int32)
    ms.set_context(mode=ms.GRAPH_MODE)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        grad_x, grads = ms.value_and_grad(lambda a, b: net(a, b).sum(), 0, net.trainable_params())(Tensor(X), i)[1]
    eps = 1e-4
    fd = np.zeros(X.shape)
    base = X.astype(np.float64)
    for position in np.ndindex(X.shape):
        plus, minus = base.copy(), base.copy()
        plus[position] += eps
        minus[position] -= eps
        fd[position] = (selecting_np(net, plus, index).sum() - selecting_np(net, minus, index).sum()) / (2 * eps)
    np.testing.assert_allclose(grad_x.asnumpy(), fd, rtol=1e-3, atol=1e-4)
    chosen = 0 if index == 0 else 2
    other = 2 - chosen
    names = [parameter.name for parameter in net.trainable_params()]
    gradients = dict(zip(names, grads))
    assert np.abs(gradients[f"layers.{chosen}.weight"].asnumpy()).sum() > 0
    np.testing.assert_array_equal(gradients[f"layers.{other}.weight"].asnumpy(), 0)


class Counter(nn.Cell):
    def __init__(self, step):
        super().__init__()
        self.step = step
        self.count = Parameter(Tensor(0.0, ms.float32), name="count", requires_grad=False)

    def construct(self, x):
        ops.assign(self.count, self.count + self.step)
        return x + self.step


class Looping(nn.Cell):
    """The CellList call inside a while loop on a tensor counter (as MindSpore's MAPPO-style tests do)."""

    def __init__(self):
        super().__init__()
        self.counters = nn.CellList([Counter(1.0), Counter(10.0), Counter(100.0)])
        self.zero = Tensor(0, ms.int32)

    def construct(self, x):
        agent = self.zero
        while agent < 3:
            x = self.counters[agent](x)
            agent += 1
        return x


def test_parameter_writes_in_selected_cells_inside_a_loop():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Looping()
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        out = net(Tensor(X))
        out = net(Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), X + 111, rtol=1e-6)
    assert [counter.count.asnumpy().item() for counter in net.counters] == [2.0, 20.0, 200.0]


def test_selected_cell_is_only_callable():
    net = Selecting()

    @ms.jit
    def reach(i):
        return net.layers[i].weight

    with pytest.raises(AttributeError, match="can only be called"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EagerFallbackWarning)
            reach(Tensor(0, ms.int32))


def test_out_of_range_index_raises_in_pynative_and_clamps_in_graph_mode():
    # A known PyNative/GRAPH difference: a compiled program cannot raise on a run-time value without a host
    # callback (which jax.export cannot serialise), so GRAPH_MODE selects the nearest end; MindSpore 2.10's
    # graph mode raises IndexError at run time instead.
    class Pick(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])

        def construct(self, x, i):
            return self.layers[i](x)

    net = Pick()
    x = Tensor(np.array([-1.0, 0.5], np.float32))
    with pytest.raises(IndexError, match="range"):
        net(x, Tensor(3, ms.int32))
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(net(x, Tensor(3, ms.int32)).asnumpy(), 1 / (1 + np.exp([1.0, -0.5])), rtol=1e-6)
    np.testing.assert_allclose(net(x, Tensor(-1, ms.int32)).asnumpy(), 1 / (1 + np.exp([1.0, -0.5])), rtol=1e-6)


class _Relu(nn.Cell):
    def construct(self, x):
        return nn.ReLU()(x)


class _Raising(nn.Cell):
    def construct(self, x):
        raise ValueError("The input should not be ", x)


class _PicksOrRaises(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([_Relu(), _Raising()])

    def construct(self, index, x):
        return self.layers[index](x)


def test_a_candidate_that_raises_raises_only_when_selected():
    # MindSpore 2.10 (GRAPH_MODE): index 0 gives [0. 2.]; index 1 raises ValueError ('The input should not be ', x).
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _PicksOrRaises()
    x = Tensor(np.array([-1.0, 2.0], np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EagerFallbackWarning)  # the raising candidate cannot be compiled
        np.testing.assert_array_equal(net(Tensor(0, ms.int32), x).asnumpy(), [0.0, 2.0])
        with pytest.raises(ValueError, match="The input should not be "):
            net(Tensor(1, ms.int32), x)


class _ReturnsPair(nn.Cell):
    def construct(self, x):
        return x, Tensor(10)


class _Squares(nn.Cell):
    def construct(self, x):
        return x**2


class _SwitchJoinFails(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = (nn.ReLU(), _ReturnsPair(), _Squares())

    def construct(self, x, index):
        return self.layers[index](x)


def test_candidates_that_cannot_join_raise_mindspores_error_listing_their_return_lines():
    # MindSpore 2.10 (GRAPH_MODE) raises TypeError: "Cannot join the return values of different branches, ...
    # Type Join Failed: Abstract type AbstractTensor cannot join with AbstractTuple." and lists each
    # branch's `return` line with its file and line number.
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(TypeError) as error:
        _SwitchJoinFails()(Tensor(X), Tensor(1, ms.int32))
    message = str(error.value)
    assert message.startswith("Cannot join the return values of different branches")
    assert "Abstract type AbstractTensor cannot join with AbstractTuple" in message
    assert "candidate 1" in message
    for cell in (_ReturnsPair, _Squares):
        lines, first = inspect.getsourcelines(cell.construct)
        assert f"{__file__}, line {first + 1}: {lines[1].strip()}" in message
