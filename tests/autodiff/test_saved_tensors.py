"""``saved_tensors_hooks``: the tensors a gradient saves pass through pack/unpack (values as MindSpore 2.10 gives)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

X = np.array([1.0, 2.0, 3.0], np.float32)
W = np.array([4.0, 5.0, 6.0], np.float32)


def _product(x, w):
    return (x * w).sum()


def test_hooks_around_the_gradient_see_and_change_the_saved_tensors():
    packed = []

    def pack(tensor):
        packed.append(tensor.asnumpy().copy())
        return tensor

    with ms.saved_tensors_hooks(pack, lambda tensor: tensor * 2):
        dx, dw = ms.grad(_product, grad_position=(0, 1))(Tensor(X), Tensor(W))
    # MindSpore 2.10: the product saves both inputs; doubling them doubles both gradients.
    assert sorted(map(tuple, packed)) == sorted([tuple(X), tuple(W)])
    np.testing.assert_array_equal(dx.asnumpy(), 2 * W)
    np.testing.assert_array_equal(dw.asnumpy(), 2 * X)


def test_exp_saves_its_output():
    packed = []
    with ms.saved_tensors_hooks(lambda t: packed.append(t.asnumpy()) or t, lambda t: t):
        grad = ms.grad(lambda x: ops.exp(x).sum())(Tensor(X))
    np.testing.assert_allclose(grad.asnumpy(), np.exp(X), rtol=1e-6)
    assert len(packed) == 1
    np.testing.assert_allclose(packed[0], np.exp(X), rtol=1e-6)


def test_hooks_entered_inside_the_forward_function(capsys):
    def pack(tensor):
        print("packing", tensor)
        return tensor + 1

    def unpack(tensor):
        print("unpacking", tensor)
        return tensor

    def forward(x, y):
        with ms.saved_tensors_hooks(pack, unpack):
            out = x * y
        return out

    x, y = ops.ones(2, dtype=ms.float32), ops.ones(2, dtype=ms.float32)
    for _ in range(2):  # every call, not only the first
        value, (dx, dy) = ms.value_and_grad(forward, grad_position=(0, 1))(x, y)
        np.testing.assert_array_equal(dx.asnumpy(), [2.0, 2.0])  # MindSpore's example: the packed x + 1
        np.testing.assert_array_equal(value.asnumpy(), [1.0, 1.0])
        assert capsys.readouterr().out.split("\n")[:4] == ["packing [1. 1.]", "packing [1. 1.]",
                                                           "unpacking [2. 2.]", "unpacking [2. 2.]"]


def test_register_saved_tensors_hooks_under_jit():
    @ms.register_saved_tensors_hooks(lambda t: t * 3, lambda t: t)
    def forward(x, y):
        return x * y

    _, (dx, dy) = ms.jit(ms.value_and_grad(forward, grad_position=(0, 1)))(Tensor(X), Tensor(W))
    np.testing.assert_allclose(dx.asnumpy(), 3 * W)
    np.testing.assert_allclose(dy.asnumpy(), 3 * X)


def test_register_saved_tensors_hooks_is_graph_only():
    # MindSpore 2.10 (recorded): the decorator's hooks run in graphs alone; a PyNative call (here a Cell's construct
    # and a plain function) packs nothing and its gradients are the plain ones
    packed = []

    @ms.register_saved_tensors_hooks(lambda t: packed.append(t) or t * 3, lambda t: t)
    def forward(x, y):
        return x * y

    class Product(ms.nn.Cell):
        construct = staticmethod(forward)

    for function in (forward, Product()):
        _, (dx, dy) = ms.value_and_grad(function, grad_position=(0, 1))(Tensor(X), Tensor(W))
        np.testing.assert_allclose(dx.asnumpy(), W)
        np.testing.assert_allclose(dy.asnumpy(), X)
    assert packed == []
    _, (dx, _) = ms.value_and_grad(ms.jit(forward), grad_position=(0, 1))(Tensor(X), Tensor(W))
    np.testing.assert_allclose(dx.asnumpy(), 3 * W)


def test_bad_hooks():
    with pytest.raises(TypeError, match="'pack_hook' must be callable"):
        ms.saved_tensors_hooks(1, lambda t: t)
    with pytest.raises(TypeError, match="must return a Tensor"):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: 1):
            ms.grad(_product)(Tensor(X), Tensor(W))
    with pytest.raises(ValueError, match="restore the saved shape"):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: t[:1]):
            ms.grad(_product)(Tensor(X), Tensor(W))


def test_pynative_pack_hook_keeps_only_values():
    # PyNative is eager: a pack hook that keeps the tensors it is given keeps their values, once per
    # saved tensor (MindSpore 2.10: two packs, [1, 2] and [3, 5]; gradients [3, 5] and [1, 2]).
    kept = []

    def pack(tensor):
        kept.append(tensor)
        return tensor.asnumpy()

    def forward(x, y):
        with ms.saved_tensors_hooks(pack, Tensor):
            return x * y

    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 5.0], np.float32))
    for _ in range(2):
        kept.clear()
        out, (dx, dy) = ms.value_and_grad(forward, grad_position=(0, 1))(x, y)
        assert sorted(tuple(tensor.asnumpy()) for tensor in kept) == [(1.0, 2.0), (3.0, 5.0)]
        np.testing.assert_array_equal(out.asnumpy(), [3.0, 10.0])
        np.testing.assert_array_equal(dx.asnumpy(), [3.0, 5.0])
        np.testing.assert_array_equal(dy.asnumpy(), [1.0, 2.0])


def test_pynative_cell_saved_tensors_hooks_see_values():
    # Cell.register_saved_tensors_hooks in PyNative, as MindSpore 2.10 runs it: packs [1, 2] and [3, 5];
    # the doubled saved tensors give gradients [6, 10] and [2, 4].
    kept = []

    class Product(ms.nn.Cell):
        def construct(self, x, y):
            return (x * y).sum()

    net = Product()
    net.register_saved_tensors_hooks(lambda tensor: kept.append(tensor) or tensor, lambda tensor: tensor * 2)
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 5.0], np.float32))
    dx, dy = ms.grad(net, grad_position=(0, 1))(x, y)
    assert sorted(tuple(tensor.asnumpy()) for tensor in kept) == [(1.0, 2.0), (3.0, 5.0)]
    np.testing.assert_array_equal(dx.asnumpy(), [6.0, 10.0])
    np.testing.assert_array_equal(dy.asnumpy(), [2.0, 4.0])


def test_pynative_difference_pack_hook_runs_after_the_forward_on_every_saved_tensor():
    # PyNative difference, pinned: MindSpore 2.10 packs each tensor as an op inside the `with` block saves it
    # (DURING the forward) and only those ops' tensors; sporax differentiates with jax.vjp, whose residuals
    # exist only once the whole forward has run, so it packs after the forward, every residual of the function
    # (also those of ops outside the block). MindSpore's events for `forward` below (recorded):
    mindspore_events = [("pack", [2.7183, 7.3891]), "after exp", ("pack", [2.7183, 7.3891]), ("pack", [3.0, 5.0]),
                        "after with", "forward end", ("unpack", [3.7183, 8.3891]), ("unpack", [4.0, 6.0]),
                        ("unpack", [3.7183, 8.3891])]
    mindspore_grads = [[23.028, 137.614], [3.7183, 16.7781]]
    events = []

    def pack(tensor):
        events.append(("pack", np.round(tensor.asnumpy(), 4).tolist()))
        return tensor + 1

    def unpack(tensor):
        events.append(("unpack", np.round(tensor.asnumpy(), 4).tolist()))
        return tensor

    def forward(x, y):
        with ms.saved_tensors_hooks(pack, unpack):
            a = ops.exp(x)
            events.append("after exp")
            b = a * y
        events.append("after with")
        c = b * x
        events.append("forward end")
        return c.sum()

    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 5.0], np.float32))
    _, grads = ms.value_and_grad(forward, grad_position=(0, 1))(x, y)
    # sporax: the forward's prints first, then one pack per residual (x, y, exp(x) and b = exp(x) * y).
    assert events[:3] == ["after exp", "after with", "forward end"] != mindspore_events[:3]
    packed = sorted(event[1] for event in events[3:] if event[0] == "pack")
    np.testing.assert_allclose(packed, [[1.0, 2.0], [2.7183, 7.3891], [3.0, 5.0], [8.1548, 36.9453]], rtol=1e-4)
    assert [kind for kind, _ in events[3:]] == ["pack"] * 4 + ["unpack"] * 4
    # Every saved tensor comes back one more than its value: dc/dx = (b + 1) + (x + 1)(y + 1)(a + 1) with a = exp(x)
    # (exp saves its output), dc/dy = (x + 1)(a + 1).
    xs, ys = np.array([1.0, 2.0]), np.array([3.0, 5.0])
    a, b = np.exp(xs), np.exp(xs) * ys
    expected = [(b + 1) + (xs + 1) * (ys + 1) * (a + 1), (xs + 1) * (a + 1)]
    np.testing.assert_allclose([g.asnumpy() for g in grads], expected, rtol=1e-5)
    assert not np.allclose(expected, mindspore_grads, rtol=1e-3)
