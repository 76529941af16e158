"""mindspore._Function (custom autograd functions): behaviours recorded from MindSpore 2.10 and gradients
checked by finite differences."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.core import context


class Mul(ms._Function):
    @staticmethod
    def forward(ctx, x, y, k=2.0):
        ctx.save_for_backward(x, y)
        ctx.k = k
        ctx.seen_needs = ctx.needs_input_grad
        return x * y * k

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return grad * y * ctx.k, grad * x * ctx.k, None


class Cube(ms._Function):
    """A forward whose backward is written by hand (used for the finite-difference check)."""

    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return ops.sin(x) * x * x

    @staticmethod
    def backward(ctx, grad):
        x = ctx.x
        return grad * (ops.cos(x) * x * x + 2 * x * ops.sin(x))


X = Tensor(np.array([1.0, 2.0], np.float32))
Y = Tensor(np.array([3.0, 4.0], np.float32))


def test_saved_tensors_and_ctx_values_reach_backward():
    out = Mul.apply(X, Y)
    np.testing.assert_allclose(out.asnumpy(), [6.0, 16.0])
    grads = ms.grad(lambda a, b: Mul.apply(a, b, 3.0).sum(), (0, 1))(X, Y)
    # MindSpore 2.10: (9, 12) and (3, 6).
    np.testing.assert_allclose(grads[0].asnumpy(), [9.0, 12.0])
    np.testing.assert_allclose(grads[1].asnumpy(), [3.0, 6.0])


def test_backward_matches_finite_differences_in_both_modes():
    x = np.array([0.3, -1.2, 2.0], np.float64)
    for mode in (context.PYNATIVE_MODE, context.GRAPH_MODE):
        previous = context.get_context("mode")
        context.set_context(mode=mode)
        try:
            grad = ms.jit(ms.grad(lambda t: Cube.apply(t).sum()))(Tensor(x.astype(np.float32))).asnumpy()
        finally:
            context.set_context(mode=previous)
        eps = 1e-6
        numeric = [(np.sum(np.sin(x + eps * e) * (x + eps * e) ** 2) - np.sum(np.sin(x - eps * e) * (x - eps * e) ** 2))
                   / (2 * eps) for e in np.eye(3)]
        np.testing.assert_allclose(grad, numeric, rtol=1e-5)


def test_non_differentiable_outputs_get_zero_gradients_and_unused_ones_none():
    seen = []

    class Two(ms._Function):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.mark_non_differentiable(b)
            return a, b

        @staticmethod
        def backward(ctx, grad_a, grad_b):
            # grad_b arrives as zeros (not the ones the loss sends), so it adds nothing.
            return grad_a * 2 + grad_b * 100

    grad = ms.grad(lambda a: sum(o.sum() for o in Two.apply(a)))(X)
    np.testing.assert_allclose(grad.asnumpy(), [2.0, 2.0])

    class Unused(ms._Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, grad_a, grad_b):
            seen.append(grad_b)
            return grad_a * 2

    grad = ms.grad(lambda a: Unused.apply(a)[0].sum())(X)
    assert seen[-1] is None
    np.testing.assert_allclose(grad.asnumpy(), [2.0, 2.0])


def test_setup_context_form_and_needs_input_grad():
    class Power(ms._Function):
        @staticmethod
        def forward(x, n):
            return x ** n

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, n = inputs
            ctx.save_for_backward(x)
            ctx.n = n

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * ctx.n * x ** (ctx.n - 1), None

    np.testing.assert_allclose(ms.grad(lambda a: Power.apply(a, 3).sum())(X).asnumpy(), [3.0, 12.0])
    holder = {}

    class Probe(ms._Function):
        @staticmethod
        def forward(ctx, x, k):
            holder["needs"] = ctx.needs_input_grad
            return x * k

        @staticmethod
        def backward(ctx, grad):
            return grad, None

    Probe.apply(X, 2.0)
    assert holder["needs"] == (True, False)


def test_wrong_number_of_gradients_is_named():
    class Bad(ms._Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, grad):
            return grad

    with pytest.raises(RuntimeError, match="wrong number of gradients, expect: 2"):
        ms.grad(lambda a, b: Bad.apply(a, b).sum(), (0, 1))(X, Y)
    with pytest.raises(NotImplementedError, match="forward"):
        ms._Function.apply(X)
