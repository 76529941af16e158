"""One Tensor object passed at several input positions (values recorded from MindSpore 2.10 by
tests/fixtures/autodiff/record_aliased_inputs.py).

PyNative differentiates Tensors: every position holding the Tensor gets its whole gradient, and a
hook on it runs once with that sum. GRAPH_MODE differentiates argument slots.
"""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, context, nn, ops
from sporax.autodiff.grad import set_pynative_jit

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "autodiff", "aliased_inputs.json")


class Affine(nn.Cell):
    def construct(self, x, y, z):
        return (x * 2 + y * 3 + z * z).sum()


@pytest.fixture(params=["compiled", "eager"])
def pynative(request):
    set_pynative_jit(request.param == "compiled")
    yield request.param
    set_pynative_jit(True)


def _expected(mode):
    with open(FIXTURE) as handle:
        return json.load(handle)[mode]


def _run(mode):
    context.set_context(mode=mode)
    try:
        t = Tensor(np.array([1.0, 2.0], np.float32))
        u = Tensor(np.array([-1.0, 0.5], np.float32))
        grad_all = ops.GradOperation(get_all=True)
        return {
            "same_all": [g.asnumpy().tolist() for g in grad_all(Affine())(t, t, t)],
            "first_last": [g.asnumpy().tolist() for g in grad_all(Affine())(t, u, t)],
            "copies": [g.asnumpy().tolist() for g in grad_all(Affine())(t, t.copy(), u)],
            "position_0": ms.grad(Affine(), grad_position=0)(t, u, t).asnumpy().tolist(),
        }
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)


def test_pynative_gives_each_position_the_whole_gradient_of_its_tensor(pynative):
    expected = _expected("pynative")
    for key, value in _run(context.PYNATIVE_MODE).items():
        np.testing.assert_allclose(value, expected[key], err_msg=key)


def test_graph_mode_differentiates_each_slot_pynative_difference():
    expected = _expected("graph")
    for key, value in _run(context.GRAPH_MODE).items():
        np.testing.assert_allclose(value, expected[key], err_msg=key)
    # The PyNative/Graph difference itself: the same call, two answers.
    assert expected["same_all"] != _expected("pynative")["same_all"]


def test_hook_on_an_aliased_input_runs_once_with_the_sum(pynative):
    expected = _expected("pynative")
    seen = []
    hooked = Tensor(np.array([1.0, 2.0], np.float32))
    hooked.register_hook(lambda grad: seen.append(grad.asnumpy().tolist()))
    u = Tensor(np.array([-1.0, 0.5], np.float32))
    grads = ops.GradOperation(get_all=True)(Affine())(hooked, u, hooked)
    np.testing.assert_allclose([g.asnumpy().tolist() for g in grads], expected["hooked"])
    np.testing.assert_allclose(seen, expected["hook_calls"])


def _product(a, b):
    return (a * b * b).sum()


@ms.jit
def _grad_of_second_slot(x):
    return ms.grad(_product, grad_position=1)(x, x)


def test_one_tensor_at_two_positions_of_a_product_per_mode():
    """Recorded on MindSpore 2.10 CPU: PyNative gives the second slot the Tensor's whole gradient (3x^2); under
    ms.jit and in GRAPH_MODE each slot has its own (b: 2ab = 2x^2, a: b^2 = x^2), though sporax binds the caller's
    Tensor object to a slot's primal (it bound it to both slots' before)."""
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    np.testing.assert_allclose(ms.grad(_product, grad_position=1)(x, x).asnumpy(), [3.0, 12.0, 27.0])
    np.testing.assert_allclose(_grad_of_second_slot(x).asnumpy(), [2.0, 8.0, 18.0])
    context.set_context(mode=context.GRAPH_MODE)
    try:
        first, second = ms.grad(_product, grad_position=(0, 1))(x, x)
        np.testing.assert_allclose(ms.grad(_product, grad_position=1)(x, x).asnumpy(), [2.0, 8.0, 18.0])
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    np.testing.assert_allclose(first.asnumpy(), [1.0, 4.0, 9.0])
    np.testing.assert_allclose(second.asnumpy(), [2.0, 8.0, 18.0])


_W_GRAD = [0.31896427, 0.32147628, 0.32887104]  # recorded from MindSpore 2.10 (PyNative) for the bias b below


def _bce_case():
    x = Tensor(np.ones(5), ms.float32)
    y = Tensor(np.zeros(3), ms.float32)
    w = ms.Parameter(Tensor(np.arange(15).reshape(5, 3) / 10, ms.float32), name="w")
    b = ms.Parameter(Tensor(np.array([0.1, -0.2, 0.3]), ms.float32), name="b")

    def function(x, y, w, b):
        z = ops.matmul(x, w) + b
        return ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
    return function, (x, y, w, b)


def test_a_weight_passed_as_an_input_gets_its_gradient_in_pynative(pynative):
    # MindSpore 2.10 PyNative: the Parameter given both as `weights` and as an input gets the gradient through the
    # input (sporax gave zeros); an input position holding it gets the same gradient; GRAPH_MODE gives zeros.
    function, args = _bce_case()
    b = args[3]
    np.testing.assert_allclose(ms.grad(function, None, weights=[args[2], b])(*args)[1].asnumpy(), _W_GRAD, rtol=1e-5)
    np.testing.assert_allclose(ms.value_and_grad(function, None, weights=b)(*args)[1].asnumpy(), _W_GRAD, rtol=1e-5)
    (_, position_b), weight_b = ms.grad(function, (1, 3), weights=b)(*args)
    np.testing.assert_allclose(position_b.asnumpy(), _W_GRAD, rtol=1e-5)
    np.testing.assert_allclose(weight_b.asnumpy(), _W_GRAD, rtol=1e-5)
    if pynative == "eager":
        return  # GRAPH_MODE compiles: the program's input is a copy of the weight
    context.set_context(mode=context.GRAPH_MODE)
    try:
        assert ms.grad(function, None, weights=b)(*args).asnumpy().tolist() == [0.0, 0.0, 0.0]
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
