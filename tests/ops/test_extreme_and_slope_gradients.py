"""Gradients recorded on MindSpore 2.10 (CPU) under negative cotangents, where the sign of a zero and the share of a
tie are what a printed gradient shows: ReduceMax (amax) gives every unchosen position ``0 * dy`` (-0.) and
splits ties, Max (no axis) splits ties with +0. elsewhere, ArgMaxWithValue (``max`` along an axis) gives the whole
cotangent to the index; PReLU gives ``w * dy`` at x <= 0; SmoothL1Loss gives ``d / beta * dy`` near 0, for the
target from its own difference."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, mint, nn, ops

NEG0 = "-0"


def _signed(array):
    return [NEG0 if (value == 0 and np.signbit(value)) else float(value) for value in np.asarray(array).reshape(-1)]


def _grad(function, *inputs, positions=0):
    return ms.grad(function, grad_position=positions)(*inputs)


Y = Tensor(np.array([[-2.0, 3.0, 3.0], [0.0, 1.0, 0.5]], np.float32))
SPLIT_NEG0 = [NEG0, -0.5, -0.5, NEG0, NEG0, NEG0]
SPLIT_POS0 = [0.0, -0.5, -0.5, 0.0, 0.0, 0.0]
TO_INDEX = [0.0, -1.0, 0.0, 0.0, -1.0, 0.0]


@pytest.mark.parametrize("function, expected", [
    (lambda a: ops.amax(a) * -1.0, SPLIT_NEG0),
    (lambda a: ops.amax(a, (0, 1)) * -1.0, SPLIT_NEG0),
    (lambda a: ops.amax(a, 1).sum() * -1.0, [NEG0, -0.5, -0.5, NEG0, -1.0, NEG0]),
    (lambda a: a.amax(1).sum() * -1.0, [NEG0, -0.5, -0.5, NEG0, -1.0, NEG0]),
    (lambda a: mint.amax(a, 1).sum() * -1.0, [NEG0, -0.5, -0.5, NEG0, -1.0, NEG0]),
    (lambda a: ops.ReduceMax()(a, 1).sum() * -1.0, [NEG0, -0.5, -0.5, NEG0, -1.0, NEG0]),
    (lambda a: (ops.amin(a, 0) * -1.0).sum(), [-1.0, NEG0, NEG0, NEG0, -1.0, -1.0]),
    (lambda a: a.max() * -1.0, SPLIT_POS0),
    (lambda a: ops.max(a)[0] * -1.0, SPLIT_POS0),
    (lambda a: mint.max(a) * -1.0, SPLIT_POS0),
    (lambda a: a.min() * -1.0, [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    (lambda a: a.max(axis=1).sum() * -1.0, TO_INDEX),
    (lambda a: a.max(axis=1, keepdims=True).sum() * -1.0, TO_INDEX),
    (lambda a: a.max(1)[0].sum() * -1.0, TO_INDEX),
    (lambda a: ops.max(a, 1)[0].sum() * -1.0, TO_INDEX),
    (lambda a: mint.max(a, 1)[0].sum() * -1.0, TO_INDEX),
])
def test_extreme_gradients_as_recorded(function, expected):
    assert _signed(_grad(function, Y).asnumpy()) == expected


def test_amax_gradient_over_a_row_led_by_nan_is_nan():
    x = Tensor(np.array([[-2.0, 3.0, 3.0], [np.nan, 1.0, 0.5]], np.float32))
    weight = Tensor(np.array([-1.0, -2.0], np.float32))
    gradient = _grad(lambda a: (ops.amax(a, 1) * weight).sum(), x).asnumpy()
    assert _signed(gradient[0]) == [NEG0, -0.5, -0.5]
    assert np.isnan(gradient[1]).all()


XP = Tensor(np.array([[[-2.0, 0.0], [-0.0, 1.5]], [[3.0, -1.0], [0.5, -4.0]]], np.float32))


def test_prelu_gradient_is_slope_times_cotangent_at_non_positive_inputs():
    gx, gw = _grad(lambda a, w: ops.prelu(a, w).sum() * -1.0, XP, Tensor(np.array([0.25, 0.0], np.float32)),
                   positions=(0, 1))
    assert _signed(gx.asnumpy()) == [-0.25, -0.25, NEG0, -1.0, -1.0, -0.25, -1.0, NEG0]
    assert _signed(gw.asnumpy()) == [3.0, 4.0]
    cell = nn.PReLU(2, 0.0)
    assert _signed(_grad(lambda a: cell(a).sum() * -1.0, XP).asnumpy()) == [NEG0, NEG0, NEG0, -1.0, -1.0, NEG0,
                                                                              -1.0, NEG0]


def test_smooth_l1_gradients_at_zero_difference_follow_the_cotangent():
    d = Tensor(np.array([-2.0, -0.5, 0.0, 0.5, 2.0, 0.25], np.float32))
    t = Tensor(np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.25], np.float32))
    gi, gt = _grad(lambda a, b: nn.SmoothL1Loss(beta=0.5)(a, b).sum() * -1.0, d, t, positions=(0, 1))
    assert _signed(gi.asnumpy()) == [1.0, 1.0, NEG0, -1.0, -1.0, NEG0]
    assert _signed(gt.asnumpy()) == [-1.0, -1.0, NEG0, 1.0, 1.0, NEG0]
    mean = _grad(lambda a: ops.smooth_l1_loss(a, t, reduction="mean") * -1.0, d).asnumpy()
    np.testing.assert_allclose(mean[[0, 1, 3, 4]], np.array([1.0, 0.5, -0.5, -1.0]) / 6, rtol=1e-6)
    assert _signed(mean[[2, 5]]) == [NEG0, NEG0]
    assert _signed(ops.smooth_l1_loss(d * -1.0, t * -1.0, beta=0.5).asnumpy()) == [1.75, 0.25, 0.0, 0.25, 1.75, 0.0]
