"""Tensor.register_hook (the oracle scenarios are in tests/nn/test_hooks.py; these pin the rest)."""
import warnings

import numpy as np
import pytest

import sporax as ms
from sporax.autodiff.grad import set_pynative_jit
from sporax.core import context
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor


def _pair():
    return Tensor(np.array([1.0, 2.0], np.float32))


def _square_sum(data):
    return (data * data).sum()


@pytest.fixture(params=["compiled", "eager"])
def pynative(request):
    """sporax's PyNative grads run compiled (the default) or op by op: both must agree."""
    set_pynative_jit(request.param == "compiled")
    yield request.param
    set_pynative_jit(True)


def test_leaf_hook_replaces_the_gradient_and_remove_undoes_it(pynative):
    leaf = _pair()
    handle = leaf.register_hook(lambda gradient: gradient * 3)
    np.testing.assert_allclose(ms.grad(_square_sum)(leaf).asnumpy(), [6.0, 12.0])
    handle.remove()
    handle.remove()
    np.testing.assert_allclose(ms.grad(_square_sum)(leaf).asnumpy(), [2.0, 4.0])


def test_leaf_hook_applies_only_to_its_own_tensor(pynative):
    hooked, other = _pair(), _pair()
    hooked.register_hook(lambda gradient: gradient * 0)
    np.testing.assert_allclose(ms.grad(_square_sum)(other).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(ms.grad(_square_sum)(hooked).asnumpy(), [0.0, 0.0])


def test_intermediate_hook_inside_a_compiled_function():
    def function(data):
        data = data * 2
        data.register_hook(lambda gradient: gradient * 3)
        return (data * data).sum()

    np.testing.assert_allclose(ms.jit(ms.grad(function))(_pair()).asnumpy(), [24.0, 48.0])
    context.set_context(mode=context.GRAPH_MODE)
    try:
        np.testing.assert_allclose(ms.grad(function)(_pair()).asnumpy(), [24.0, 48.0])
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)


def test_several_hooks_on_one_intermediate_chain_in_registration_order(pynative):
    seen = []

    def function(data):
        data = data * 1
        data.register_hook(lambda gradient: (seen.append("first"), gradient * 2)[1])
        data.register_hook(lambda gradient: (seen.append("second"), gradient + 1)[1])
        return data.sum()

    np.testing.assert_allclose(ms.grad(function)(_pair()).asnumpy(), [3.0, 3.0])
    assert seen[:2] == ["first", "second"]


def test_parameter_hook_in_a_cell_gradient(pynative):
    weight = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="hooked_weight")
    handle = weight.register_hook(lambda gradient: gradient * 2)

    def function(data):
        return (weight * data).sum()

    grads = ms.grad(function, grad_position=None, weights=[weight])(Tensor(np.array([3.0, -1.0], np.float32)))
    np.testing.assert_allclose(grads[0].asnumpy(), [6.0, -2.0])
    handle.remove()
    grads = ms.grad(function, grad_position=None, weights=[weight])(Tensor(np.array([3.0, -1.0], np.float32)))
    np.testing.assert_allclose(grads[0].asnumpy(), [3.0, -1.0])


def test_hook_errors_are_clear():
    with pytest.raises(TypeError, match="Expected a callable hook function, but got int"):
        _pair().register_hook(3)
    bad = _pair()
    bad.register_hook(lambda gradient: Tensor(np.ones(3, np.float32)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"shape \(3,\) for a Tensor of shape \(2,\)"):
            ms.grad(_square_sum)(bad)


def test_integer_tensor_accepts_a_hook():
    handle = Tensor(np.array([1, 2], np.int32)).register_hook(lambda gradient: gradient)
    handle.remove()


def test_uses_before_registration_bypass_the_hook():
    """Known difference: MindSpore's hook sees the Tensor's whole gradient (here 3 + 2b = [7, 11],
    so the input gradient is [28, 44]); in sporax only the uses after register_hook pass through
    it, so register hooks right after the Tensor is made."""
    def function(data):
        b = data * 2
        c = b * 3
        b.register_hook(lambda gradient: gradient * 2)
        return (c + b * b).sum()

    np.testing.assert_allclose(ms.grad(function)(_pair()).asnumpy(), [22.0, 38.0])


def test_leaf_hook_under_jit_of_grad():
    # MindSpore 2.10: [6, 12]. ms.jit rebuilds its input Tensors from the traced values; they take the
    # caller's hooks. (MindSpore's compiled graph then keeps them for any input of that shape, even after
    # remove(): sporax keys the program on the hooks, so another Tensor gets its own gradient.)
    leaf, plain = _pair(), _pair()
    handle = leaf.register_hook(lambda gradient: gradient * 3)
    compiled = ms.jit(ms.grad(_square_sum))
    np.testing.assert_allclose(compiled(leaf).asnumpy(), [6.0, 12.0])
    np.testing.assert_allclose(compiled(plain).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(compiled(leaf).asnumpy(), [6.0, 12.0])
    handle.remove()
    np.testing.assert_allclose(compiled(leaf).asnumpy(), [2.0, 4.0])


def test_intermediate_hook_runs_again_in_a_second_order_gradient(pynative):
    # MindSpore 2.10 (recorded): b = a * a hooked by a doubling hook, f = sum(b * b) and f = sum(sin(b)),
    # a = [1, 2]. The outer gradient differentiates the inner backward pass, which reads b again through
    # its hook: one call for the first order, two more for the second (not 24a^2 / [-4.57, 21.60]).
    calls = []

    def double(gradient):
        calls.append(1)
        return gradient * 2

    def make(outer):
        def function(a):
            b = a * a
            b.register_hook(double)
            return outer(b).sum()
        return function

    for outer, first, second in [(lambda b: b * b, [8.0, 64.0], [40.0, 160.0]),
                                 (ms.ops.sin, [2.1612, -5.2291], [-11.3023, 45.8208])]:
        calls.clear()
        function = make(outer)
        np.testing.assert_allclose(ms.grad(function)(_pair()).asnumpy(), first, rtol=1e-4)
        assert len(calls) == 1
        np.testing.assert_allclose(ms.grad(lambda a: ms.grad(function)(a).sum())(_pair()).asnumpy(), second,
                                   rtol=1e-4)
        assert len(calls) == 3


def test_hook_removed_by_an_earlier_hook_of_the_pass_is_skipped():
    # MindSpore 2.10 (recorded): hooks 0, 1, 2 on one intermediate (and 0, 1 on a Parameter), hook 0 removing
    # hook 1 runs [0, 2] ([0] then [0] on the Parameter's two gradients); a later hook removing an earlier one
    # changes nothing in that pass.
    def run(count, remover, victim):
        log, handles = [], []

        def make(index):
            def hook(gradient):
                log.append(index)
                if index == remover:
                    handles[victim].remove()
            return hook

        def function(a):
            b = a * 2
            for index in range(count):
                handles.append(b.register_hook(make(index)))
            return b.sum()

        ms.grad(function)(_pair())
        return log

    assert run(3, 0, 1) == [0, 2]
    assert run(3, 1, 0) == [0, 1, 2]
    log, handles = [], []
    weight = Parameter(_pair(), name="weight")
    handles.append(weight.register_hook(lambda gradient: log.append(0) or handles[1].remove()))
    handles.append(weight.register_hook(lambda gradient: log.append(1)))
    for _ in range(2):
        ms.grad(lambda a: (a * weight).sum(), grad_position=None, weights=[weight])(_pair())
    assert log == [0, 0]
