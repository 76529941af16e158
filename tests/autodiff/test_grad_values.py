"""Gradient values vs finite differences; state threaded through grads; custom bprop; fallback."""
import warnings

import jax
import numpy as np
import pytest

import sporax.autodiff as ad
from sporax.autodiff import call_with_bprop, grad, value_and_grad
from sporax.core import random_state
from sporax.core.parameter import Parameter
from sporax.nn.cell import Cell
from sporax.state import EagerFallbackWarning
from tests.state.helpers import Linear, MovingMean, add, finite_difference, matmul, mul, tanh, tensor, total, wrap

rng = np.random.RandomState(0)
W0 = rng.randn(3, 2).astype(np.float32)
B0 = rng.randn(2).astype(np.float32)
X0 = rng.randn(4, 3).astype(np.float32)


def _forward_numpy(x, w, b):
    return np.tanh(x @ w + b)


@pytest.fixture(params=[True, False], ids=["pynative-jit", "pynative-eager"])
def pynative_jit(request):
    ad.set_pynative_jit(request.param)
    yield request.param
    ad.set_pynative_jit(True)


def test_function_gradients_match_finite_differences(pynative_jit):
    def fn(x, w, b):
        return total(tanh(add(matmul(x, w), b)))

    gradients = grad(fn, (0, 1, 2))(tensor(X0), tensor(W0), tensor(B0))
    for index, gradient in enumerate(gradients):
        expected = finite_difference(_forward_numpy, [X0, W0, B0], index)
        np.testing.assert_allclose(gradient.asnumpy(), expected, rtol=2e-3, atol=2e-4)


def test_cell_weight_gradients_match_finite_differences(pynative_jit):
    net = Linear(W0, B0)
    loss, (grad_w, grad_b) = value_and_grad(net, None, net.trainable_params())(tensor(X0))
    np.testing.assert_allclose(loss.asnumpy(), _forward_numpy(X0, W0, B0), rtol=1e-5)
    np.testing.assert_allclose(grad_w.asnumpy(), finite_difference(_forward_numpy, [X0, W0, B0], 1), rtol=2e-3,
                               atol=2e-4)
    np.testing.assert_allclose(grad_b.asnumpy(), finite_difference(_forward_numpy, [X0, W0, B0], 2), rtol=2e-3,
                               atol=2e-4)


def test_training_loop_with_closure_and_external_update(pynative_jit):
    """The PyNative pattern of the tutorials: value_and_grad(forward_fn, None, weights), update outside."""
    net = Linear(W0, B0)
    target = tensor(np.zeros((4, 2)))

    def forward_fn(x):
        out = net(x)
        diff = add(out, wrap(-target._value))
        return total(mul(diff, diff)), out

    grad_fn = value_and_grad(forward_fn, None, net.trainable_params(), has_aux=True)
    losses = []
    for _ in range(5):
        (loss, _), grads = grad_fn(tensor(X0))
        for parameter, gradient in zip(net.trainable_params(), grads):
            parameter.set_data(wrap(parameter._value - 0.1 * gradient._value))
        losses.append(float(loss.asnumpy()))
    assert losses == sorted(losses, reverse=True) and losses[-1] < losses[0]


def test_moving_statistics_update_under_grad(pynative_jit):
    cell = MovingMean(2).set_train()
    batch = tensor([[1.0, 2.0], [3.0, 4.0]])
    gradient = grad(lambda x: total(cell(x)), None, cell.trainable_params())(batch)
    np.testing.assert_allclose(gradient[0].asnumpy(), [4.0, 6.0])
    np.testing.assert_allclose(cell.moving_mean.asnumpy(), [0.2, 0.3], rtol=1e-6)
    grad(lambda x: total(cell(x)), None, cell.trainable_params())(batch)
    np.testing.assert_allclose(cell.moving_mean.asnumpy(), [0.38, 0.57], rtol=1e-6)


def test_rng_state_advances_under_grad(pynative_jit):
    random_state.set_seed(3)

    def noisy(x):
        noise = jax.random.uniform(random_state.next_key(), (2,))
        return total(mul(x, wrap(noise)))

    first = grad(noisy)(tensor([1.0, 1.0])).asnumpy()
    second = grad(noisy)(tensor([1.0, 1.0])).asnumpy()
    assert not np.allclose(first, second)
    random_state.set_seed(3)
    np.testing.assert_allclose(grad(noisy)(tensor([1.0, 1.0])).asnumpy(), first)


def _branchy(x):
    if x._value.sum() > 0:
        return total(mul(x, x))
    return total(x)


def test_untraceable_python_runs_eagerly_in_pynative_without_a_warning():
    grad_fn = grad(_branchy)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        positive = grad_fn(tensor([1.0, 2.0]))
        negative = grad_fn(tensor([-1.0, -2.0]))
        again = grad_fn(tensor([3.0, 2.0]))
    np.testing.assert_allclose(positive.asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(negative.asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(again.asnumpy(), [6.0, 4.0])
    # PyNative code is eager code: MindSpore warns of nothing.
    assert not [w for w in caught if issubclass(w.category, EagerFallbackWarning)]


class ClippedSquare(Cell):
    """x*x with a custom bprop that returns 10 * dout, whatever x is."""

    def __init__(self):
        super().__init__()
        self.scale = Parameter(tensor([1.0]), name="scale")

    def construct(self, x):
        return mul(x, x, self.scale)

    def bprop(self, x, out, dout):
        return (mul(dout, tensor(10.0)),)


def test_custom_bprop_replaces_the_gradient():
    cell = ClippedSquare()
    gradient = grad(lambda x: total(call_with_bprop(cell, (x,), {})))(tensor([1.0, 2.0]))
    np.testing.assert_allclose(gradient.asnumpy(), [10.0, 10.0])
    value = call_with_bprop(cell, (tensor([1.0, 2.0]),), {})
    np.testing.assert_allclose(value.asnumpy(), [1.0, 4.0])


def test_custom_bprop_parameters_get_zero_gradients():
    cell = ClippedSquare()
    gradient = grad(lambda x: total(call_with_bprop(cell, (x,), {})), None, [cell.scale])(tensor([1.0, 2.0]))
    np.testing.assert_allclose(gradient[0].asnumpy(), [0.0])


def test_host_read_inside_differentiated_function_raises_a_teaching_error():
    def reads_host(x):
        if float(x._value.sum()) > 0:
            return total(mul(x, x))
        return total(x)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EagerFallbackWarning)
        with pytest.raises(RuntimeError, match="reads_host.*host"):
            grad(reads_host)(tensor([1.0, 2.0]))


def test_formatted_print_in_a_pynative_grad_runs_eagerly(capsys):
    def loud(x):
        loss = total(mul(x, x))
        print(f"loss is {loss}")
        return loss

    gradient = grad(loud)(tensor([1.0, 2.0]))
    grad(loud)(tensor([1.0, 2.0]))
    np.testing.assert_allclose(gradient.asnumpy(), [2.0, 4.0])
    assert capsys.readouterr().out.splitlines() == ["loss is 5.0"] * 2


def test_plain_tensor_print_in_a_pynative_grad_stays_compiled(capfd):
    def quiet(x):
        loss = total(mul(x, x))
        print("loss:", loss)
        return loss

    grad_fn = grad(quiet)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        grad_fn(tensor([1.0, 2.0]))
        print("returned", flush=True)
        grad_fn(tensor([2.0, 2.0]))
        print("returned", flush=True)
    # the compiled grad waits for its prints, so they come before the call returns (MindSpore 2.10:
    # 'loss: 5.0', 'returned', 'loss: 8.0', 'returned')
    assert capfd.readouterr().out.split() == ["loss:", "5.0", "returned", "loss:", "8.0", "returned"]


def test_a_grad_made_inside_the_loop_compiles_once():
    net = Linear(W0, B0)
    made = []

    def step(x):
        def forward(data):
            return total(net(data))

        made.append(grad(forward, None, net.trainable_params()))
        return made[-1](x)

    first = step(tensor(X0))
    for _ in range(3):
        again = step(tensor(X0))
    assert all(gradient is made[0] for gradient in made), "equivalent function objects share the compiled program"
    assert sum(len(group.programs) for group in made[0]._cache._groups.values()) == 1
    np.testing.assert_allclose(again[0].asnumpy(), first[0].asnumpy())


def test_recompute_gives_the_same_gradients_and_is_checkpointed():
    from sporax.autodiff import recompute

    net = Linear(W0, B0)
    plain = grad(lambda x: total(net(x)), None, net.trainable_params())(tensor(X0))
    again = grad(lambda x: total(recompute(net, x)), None, net.trainable_params())(tensor(X0))
    for first, second in zip(plain, again):
        np.testing.assert_allclose(second.asnumpy(), first.asnumpy(), rtol=1e-6)
    jaxpr = jax.make_jaxpr(lambda a: recompute(net, wrap(a))._value)(X0)
    assert "checkpoint" in str(jaxpr) or "remat" in str(jaxpr)


def test_recompute_keeps_state_updates():
    from sporax.autodiff import recompute

    cell = MovingMean(2).set_train()
    recompute(cell, tensor([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_allclose(cell.moving_mean.asnumpy(), [0.2, 0.3], rtol=1e-6)
