"""Reverse-mode gradients through converted ``while`` loops on traced conditions (control_flow.reverse).

Every compiled run asserts that no EagerFallbackWarning is raised; gradients are compared with
central finite differences of a NumPy reference, training with PyNative runs of the same model.
"""
import warnings

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.state import EagerFallbackWarning

rng = np.random.RandomState(1)


@pytest.fixture(autouse=True)
def pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def finite_difference(function, x, eps=1e-4):
    x = np.asarray(x, np.float64)
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[index] += eps
        minus[index] -= eps
        grad[index] = (function(plus) - function(minus)) / (2 * eps)
    return grad


class Call(nn.Cell):
    def __init__(self, function):
        super().__init__()
        self.function = function

    def construct(self, *args):
        return self.function(*args)


def compiled_value_and_grad(function, *inputs):
    """value_and_grad of ``function(...).sum()`` in GRAPH_MODE, through ms.jit and through GradOperation."""
    tensors = [Tensor(x) for x in inputs]
    results = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        ms.set_context(mode=ms.GRAPH_MODE)
        cell = Call(function)
        results.append(ms.value_and_grad(lambda *a: cell(*a).sum())(*tensors))
        ms.set_context(mode=ms.PYNATIVE_MODE)
        jitted = ms.jit(function)
        results.append(ms.value_and_grad(lambda *a: jitted(*a).sum())(*tensors))

        class Loss(nn.Cell):
            def construct(self, *args):
                return function(*args).sum()

        ms.set_context(mode=ms.GRAPH_MODE)
        grad = ops.GradOperation()(Loss())(*tensors)
        results.append((Loss()(*tensors), grad))
    return [(value.asnumpy(), grad.asnumpy()) for value, grad in results]


def doubling(x):
    while x.sum() < 10:
        x = x * 2 + ops.sin(x)
    return x


def doubling_np(x):
    while x.sum() < 10:
        x = x * 2 + np.sin(x)
    return x


def test_data_dependent_while_matches_finite_differences():
    x = np.abs(rng.randn(3)).astype(np.float32) * 0.3 + 0.1
    expected = doubling_np(x.astype(np.float64)).sum()
    fd = finite_difference(lambda a: doubling_np(a).sum(), x)
    for value, grad in compiled_value_and_grad(doubling, x):
        np.testing.assert_allclose(value, expected, rtol=1e-5)
        np.testing.assert_allclose(grad, fd, rtol=1e-3)


def counted(x, n):
    i = Tensor(0, ms.int32)
    while i < n:
        x = ops.tanh(x * 1.5) + 0.1 * i
        i = i + 1
    return x


def test_while_on_a_tensor_counter_and_for_range_tensor():
    x = rng.randn(4).astype(np.float32)
    n = np.array(6, np.int32)

    def reference(a):
        for i in range(6):
            a = np.tanh(a * 1.5) + 0.1 * i
        return a.sum()

    fd = finite_difference(reference, x)
    for value, grad in compiled_value_and_grad(counted, x, n):
        np.testing.assert_allclose(value, reference(x), rtol=1e-5)
        np.testing.assert_allclose(grad, fd, rtol=1e-3, atol=1e-5)

    def ranged(a, count):
        for i in range(count):
            a = ops.tanh(a * 1.5) + 0.1 * i
        return a

    for value, grad in compiled_value_and_grad(ranged, x, n):
        np.testing.assert_allclose(value, reference(x), rtol=1e-5)
        np.testing.assert_allclose(grad, fd, rtol=1e-3, atol=1e-5)


def nested(x):
    if x.sum() > 0:
        while x.sum() < 20:
            x = x * 1.5
            if x.max() > 4:
                break
    else:
        x = x * x
    return x


def nested_np(x):
    if x.sum() > 0:
        while x.sum() < 20:
            x = x * 1.5
            if x.max() > 4:
                break
    else:
        x = x * x
    return x


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_while_with_break_nested_in_if(sign):
    x = (np.abs(rng.randn(3)) * 0.5 + 0.2).astype(np.float32) * sign
    fd = finite_difference(lambda a: nested_np(a).sum(), x)
    for value, grad in compiled_value_and_grad(nested, x):
        np.testing.assert_allclose(value, nested_np(x.astype(np.float64)).sum(), rtol=1e-5)
        np.testing.assert_allclose(grad, fd, rtol=1e-3)


def test_long_loop_with_few_checkpoint_slots(monkeypatch):
    # 3 slots of 8 bytes (x: 1 float32, counter: 1 int32) for 40 trips: every level of the recomputation runs.
    monkeypatch.setenv("SPORAX_WHILE_CHECKPOINT_BYTES", "24")

    def slow(x, n):
        i = Tensor(0, ms.int32)
        while i < n:
            x = ops.sin(x) * 1.1 + 0.05
            i = i + 1
        return x

    def reference(a):
        for _ in range(40):
            a = np.sin(a) * 1.1 + 0.05
        return a.sum()

    x = np.array([0.7], np.float32)
    value, grad = compiled_value_and_grad(slow, x, np.array(40, np.int32))[0]
    np.testing.assert_allclose(value, reference(x), rtol=1e-5)
    np.testing.assert_allclose(grad, finite_difference(reference, x), rtol=1e-3)


class GrowNet(nn.Cell):
    """A Dense applied while the activations are small: the trip count depends on the weights."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4, weight_init="normal", bias_init="zeros")
        self.steps = ms.Parameter(Tensor(0.0, ms.float32), name="steps", requires_grad=False)

    def construct(self, x):
        while ops.abs(x).sum() < 8:
            x = self.dense(x) * 1.5 + x
            self.steps = self.steps + 1
        return x


def _grow_net():
    ms.set_seed(3)
    net = GrowNet()
    net.dense.weight.set_data(Tensor(np.random.RandomState(5).randn(4, 4).astype(np.float32) * 0.3))
    return net


def test_weight_gradients_and_parameter_writes_through_while():
    x = (rng.randn(2, 4) * 0.2).astype(np.float32)
    net = _grow_net()
    weight = net.dense.weight.asnumpy().astype(np.float64)

    def reference(w):
        a = x.astype(np.float64)
        while np.abs(a).sum() < 8:
            a = a @ w.T * 1.5 + a
        return a.sum()

    ms.set_context(mode=ms.GRAPH_MODE)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        value, (grad_w, _) = ms.value_and_grad(lambda a: net(a).sum(), None, net.trainable_params())(Tensor(x))
    np.testing.assert_allclose(value.asnumpy(), reference(weight), rtol=1e-5)
    np.testing.assert_allclose(grad_w.asnumpy(), finite_difference(reference, weight), rtol=1e-3, atol=1e-4)
    trips = 0
    a = x.astype(np.float64)
    while np.abs(a).sum() < 8:
        a, trips = a @ weight.T * 1.5 + a, trips + 1
    assert net.steps.asnumpy() == trips  # the Parameter write inside the loop went through state lifting


def test_train_one_step_through_while_matches_pynative():
    x = Tensor((rng.randn(2, 4) * 0.2).astype(np.float32))
    y = Tensor(rng.randn(2, 4).astype(np.float32))
    losses = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        net = _grow_net()
        trainer = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.01))
        with warnings.catch_warnings():
            # PyNative's TrainOneStepCell runs the loop eagerly (with a warning); GRAPH_MODE compiles it.
            warnings.simplefilter("error" if mode == ms.GRAPH_MODE else "ignore", EagerFallbackWarning)
            losses[mode] = [trainer(x, y).asnumpy() for _ in range(3)] + [net.dense.weight.asnumpy()]
    for eager, compiled in zip(losses[ms.PYNATIVE_MODE], losses[ms.GRAPH_MODE]):
        np.testing.assert_allclose(compiled, eager, rtol=1e-4, atol=1e-6)
    assert losses[ms.GRAPH_MODE][0] != losses[ms.GRAPH_MODE][2]  # the weights were updated


def test_forward_mode_jvp_through_while():
    x = np.array([0.3, 0.4], np.float32)
    tangent = np.array([1.0, 0.0], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        _, jvp = ops.jvp(ms.jit(doubling), Tensor(x), Tensor(tangent))
    fd = finite_difference(lambda a: doubling_np(a)[0], x)
    np.testing.assert_allclose(jvp.asnumpy()[0], fd[0], rtol=1e-3)


def bounded(x):
    i = 0
    while i < 5 and x.sum() < 100:
        x = x * ops.sin(x) + x
        i += 1
    return x


def bounded_np(x):
    i = 0
    while i < 5 and x.sum() < 100:
        x = x * np.sin(x) + x
        i += 1
    return x


def bounded_in_if(x):
    if x.sum() > 0:
        x = bounded(x)
    return x


@pytest.mark.parametrize("function", [bounded, bounded_in_if])
def test_second_order_gradient_through_a_counter_bounded_while(function):
    # `i < 5` bounds the trips while tracing: the loop is a masked scan, differentiable twice (also inside a
    # branch, whose trace learns that it is differentiated from the values it closes over).
    x = np.array([0.5, 0.7], np.float32)
    ms.set_context(mode=ms.GRAPH_MODE)
    # A lambda's calls are converted too; each on its own line, where MindSpore's parser finds it.
    summed = lambda a: function(a).sum()  # noqa: E731
    first = ops.grad(Call(summed))

    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        summed_first = lambda a: first(a).sum()  # noqa: E731
        second = ops.grad(Call(summed_first))(Tensor(x))
    gradient = lambda a: finite_difference(lambda b: bounded_np(b).sum(), a, eps=1e-5).sum()  # noqa: E731
    np.testing.assert_allclose(second.asnumpy(), finite_difference(gradient, x, eps=1e-3), rtol=2e-3)


def test_second_order_gradient_through_an_unbounded_while_falls_back_naming_the_line():
    x = np.array([0.5, 0.7], np.float32)
    ms.set_context(mode=ms.GRAPH_MODE)
    def doubling_sum(a):
        return doubling(a).sum()

    first = ops.grad(Call(doubling_sum))

    def first_sum(a):
        return first(a).sum()

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        second = ops.grad(Call(first_sum))(Tensor(x))
    messages = [str(w.message) for w in caught if issubclass(w.category, EagerFallbackWarning)]
    assert messages and "gradient of a gradient" in messages[0] and "'while' at line" in messages[0]
    gradient = lambda a: finite_difference(lambda b: doubling_np(b).sum(), a, eps=1e-5).sum()  # noqa: E731
    np.testing.assert_allclose(second.asnumpy(), finite_difference(gradient, x, eps=1e-3), rtol=2e-3, atol=1e-3)
