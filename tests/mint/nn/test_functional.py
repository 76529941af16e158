"""mint.nn.functional where it is more than a spelling of one op (the op test table runs the spellings): the
implicit softmax dim MindSpore 2.10 takes for dim=None, and the ``inplace`` / ``*_`` forms writing their input."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, mint

F = mint.nn.functional


@pytest.mark.parametrize("shape", [(4,), (2, 3, 4), (1, 2, 3, 4)])
def test_softmax_without_dim_takes_pytorchs_implicit_dim(shape):
    # MindSpore 2.10 (CPU) on arange(n) / 10: over dim 0 for 1-d and 3-d inputs, dim 1 for 4-d ones.
    recorded = {(4,): [0.213838, 0.236328, 0.261183, 0.288652], (2, 3, 4): [0.231475] * 4,
                (1, 2, 3, 4): [0.231475] * 4}
    x = Tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / 10)
    np.testing.assert_allclose(F.softmax(x).asnumpy().ravel()[:4], recorded[shape], atol=1e-6)
    np.testing.assert_allclose(mint.nn.Softmax()(x).asnumpy().ravel()[:4], recorded[shape], atol=1e-6)


_X = np.array([-2.0, 0.5, 3.0], np.float32)
_IN_PLACE = {
    "relu_": (lambda t: F.relu_(t), np.maximum(_X, 0)),
    "sigmoid_": (lambda t: F.sigmoid_(t), 1 / (1 + np.exp(-_X))),
    "elu_": (lambda t: F.elu_(t, 0.5), np.where(_X > 0, _X, 0.5 * np.expm1(_X))),
    "elu(inplace)": (lambda t: F.elu(t, 1.0, True), np.where(_X > 0, _X, np.expm1(_X))),
    "hardtanh_": (lambda t: F.hardtanh_(t), np.clip(_X, -1, 1)),
    "hardtanh(inplace)": (lambda t: F.hardtanh(t, -0.5, 2.0, True), np.clip(_X, -0.5, 2.0)),
    "relu6(inplace)": (lambda t: F.relu6(t, True), np.clip(_X, 0, 6)),
    "silu(inplace)": (lambda t: F.silu(t, True), _X / (1 + np.exp(-_X))),
    "threshold_": (lambda t: F.threshold_(t, 1.0, 0.0), np.where(_X > 1.0, _X, 0.0)),
    "threshold(inplace)": (lambda t: F.threshold(t, 1.0, -1.0, True), np.where(_X > 1.0, _X, -1.0)),
}


@pytest.mark.parametrize("name", list(_IN_PLACE))
def test_in_place_forms_write_their_input(name):
    function, expected = _IN_PLACE[name]
    x = Tensor(_X.copy())
    assert function(x) is x
    np.testing.assert_allclose(x.asnumpy(), expected, rtol=1e-6)


def test_out_of_place_forms_leave_their_input():
    x = Tensor(_X.copy())
    for result in (F.elu(x), F.hardtanh(x), F.relu6(x), F.silu(x), F.threshold(x, 1.0, 0.0)):
        assert result is not x
    np.testing.assert_array_equal(x.asnumpy(), _X)


def test_mint_conv2d_takes_pytorchs_padding():
    x = Tensor(np.ones((1, 2, 5, 5), np.float32))
    w = Tensor(np.ones((3, 2, 3, 3), np.float32))
    assert mint.conv2d is F.conv2d
    assert F.conv2d(x, w, padding=1).shape == (1, 3, 5, 5)
    assert F.conv2d(x, w, padding="same").shape == (1, 3, 5, 5)
    assert F.conv2d(x, w, padding="valid").shape == (1, 3, 3, 3)
    assert F.conv2d(x, w, padding=(0, 1)).shape == (1, 3, 3, 5)
    assert float(F.conv2d(x, w, padding=1).asnumpy()[0, 0, 0, 0]) == 8.0  # a corner sees 2 x 2 x 2 ones


def test_in_place_forms_compile():
    x = Tensor(_X.copy())
    np.testing.assert_allclose(ms.jit(lambda t: F.relu_(t) * 1)(x).asnumpy(), np.maximum(_X, 0))


def test_dropout_with_inplace_writes_its_input():
    x = Tensor(np.ones(200, np.float32))
    assert F.dropout(x, 0.5, inplace=True) is x
    assert sorted(set(x.asnumpy().tolist())) == [0.0, 2.0]  # dropped, or kept and scaled by 1 / (1 - p)
    image = Tensor(np.ones((1, 16, 2, 2), np.float32))
    assert F.dropout2d(image, 0.5, inplace=True) is image
    channels = image.asnumpy()
    assert (channels.min(axis=(2, 3)) == channels.max(axis=(2, 3))).all()  # whole channels dropped or kept
    y = Tensor(np.ones(8, np.float32))
    assert F.dropout(y, 0.5) is not y and y.asnumpy().tolist() == [1.0] * 8
    assert F.dropout(y, 0.5, training=False, inplace=True) is y and y.asnumpy().tolist() == [1.0] * 8


def test_addr_in_place_writes_its_input():
    # mint.addr_ is MindSpore 2.10's InplaceAddr (no CPU kernel there): input = beta * input + alpha * outer.
    x = Tensor(np.ones((2, 3), np.float32))
    result = mint.addr_(x, Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([1.0, 2.0, 3.0], np.float32)),
                        beta=2, alpha=0.5)
    assert result is x
    np.testing.assert_allclose(x.asnumpy(), [[2.5, 3.0, 3.5], [3.0, 4.0, 5.0]])
    with pytest.raises(ValueError, match="addr_.*shape"):
        mint.addr_(Tensor(np.ones(3, np.float32)), Tensor(np.ones(2, np.float32)), Tensor(np.ones(3, np.float32)))


def test_activation_and_loss_functions_mindspore_exports_here():
    # MindSpore 2.10 (CPU) values, recorded; mish/selu/l1_loss have no CPU kernel there (the ops' math).
    x = Tensor(np.array([[-2.5, -0.3, 0.0, 0.4, 3.1]], np.float32))
    target = Tensor(np.array([[0.5, -1.0, 0.2, 0.4, 1.0]], np.float32))
    np.testing.assert_allclose(F.smooth_l1_loss(x, target).asnumpy(), 0.873, rtol=1e-5)  # reduction 'mean'
    np.testing.assert_allclose(F.smooth_l1_loss(x, target, "sum", 0.5).asnumpy(), 5.09, rtol=1e-5)
    np.testing.assert_allclose(F.softplus(x, 2, 1).asnumpy(), [[0.00336, 0.21874, 0.34657, 0.58555, 3.1]], atol=1e-5)
    np.testing.assert_allclose(F.softshrink(x, 0.5).asnumpy(), [[-2.0, 0.0, 0.0, 0.0, 2.6]], atol=1e-6)
    np.testing.assert_allclose(F.hardshrink(x, 0.5).asnumpy(), [[-2.5, 0.0, 0.0, 0.0, 3.1]], atol=1e-6)
    np.testing.assert_allclose(F.hardsigmoid(x).asnumpy(), [[0.08333, 0.45, 0.5, 0.56667, 1.0]], atol=1e-5)
    np.testing.assert_allclose(F.hardswish(x).asnumpy(), [[-0.20833, -0.135, 0.0, 0.22667, 3.1]], atol=1e-5)
    np.testing.assert_allclose(F.mish(input=x).asnumpy(), ms.ops.mish(x).asnumpy())
    np.testing.assert_allclose(F.selu(input=x).asnumpy(), ms.ops.selu(x).asnumpy())
    np.testing.assert_allclose(F.l1_loss(x, target).asnumpy(), 1.2, rtol=1e-6)
