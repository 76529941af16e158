"""Ops and Primitives added for MindSpore's own tests (issue 13), against NumPy references."""
import math

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.ops.operations import grad_ops
from sporax.ops.operations.linalg_ops import LpNorm, SquareSumAll

rng = np.random.default_rng(0)
A = rng.normal(size=(2, 3, 3)).astype(np.float64) + 3 * np.eye(3)
B = rng.normal(size=(2, 3, 2)).astype(np.float64)
X = rng.uniform(0.5, 2.0, size=(2, 3)).astype(np.float32)
Y = rng.uniform(0.5, 2.0, size=(2, 3)).astype(np.float32)


def _lgamma(values):
    return np.vectorize(math.lgamma)(values)


CASES = [
    ("mvlgamma", lambda: ops.mvlgamma(Tensor(X + 1), 3),
     sum(_lgamma(X + 1 - i / 2) for i in range(3)) + 3 * 2 / 4 * np.log(np.pi)),
    ("LpNorm p=90 keep_dims", lambda: LpNorm(axis=0, p=90, keep_dims=True)(Tensor(X * 0.1)),
     np.max(X * 0.1, 0, keepdims=True) * np.sum((X / X.max(0)) ** 90, 0, keepdims=True) ** (1 / 90)),
    ("SqrtGrad", lambda: grad_ops.SqrtGrad()(Tensor(X), Tensor(Y)), Y / (2 * X)),
    ("AsinhGrad", lambda: grad_ops.AsinhGrad()(Tensor(X), Tensor(Y)), Y / np.cosh(X)),
    ("DropoutGrad", lambda: grad_ops.DropoutGrad(0.5)(Tensor(X), Tensor((Y > 1).astype(np.float32))),
     X * (Y > 1) / 0.5),
    ("KLDivLossGrad batchmean", lambda: grad_ops.KLDivLossGrad("batchmean")(Tensor(np.float32(2.0)), Tensor(X),
                                                                            Tensor(Y)), -2.0 * Y / 2),
    # Recorded from MindSpore 2.10: labels <= 0 give a zero loss but keep the gradient -labels.
    ("kl_div labels <= 0", lambda: ops.kl_div(Tensor(np.log(np.array([[0.3, 0.7], [0.5, 0.5]], np.float32))),
                                              Tensor(np.array([[-1.0, 1.0], [1.0, 0.0]], np.float32)), "none"),
     np.array([[0.0, 0.35667494], [0.6931472, 0.0]])),
    ("kl_div gradient", lambda: ms.grad(lambda a: ops.kl_div(a, Tensor(np.array([[-1.0, 1.0], [1.0, 0.0]], np.float32)),
                                                             "sum"))(Tensor(np.zeros((2, 2), np.float32))),
     np.array([[1.0, -1.0], [-1.0, 0.0]])),
    ("max_unpool1d", lambda: ops.max_unpool1d(Tensor(np.array([[2.0, 4.0]], np.float32)),
                                              Tensor(np.array([[1, 2]])), 2), np.array([[0, 2, 4, 0]])),
    ("max_unpool2d output_size", lambda: ms.nn.MaxUnpool2d(2)(Tensor(np.ones((1, 1, 1, 1), np.float32)),
                                                              Tensor(np.array([[[[4]]]])), (3, 3)),
     np.eye(3)[None, None] * 0 + np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]])[None, None]),
]


@pytest.mark.parametrize("name,run,expected", CASES, ids=[case[0] for case in CASES])
def test_values(name, run, expected):
    result = run()
    if isinstance(expected, tuple):
        for item, want in zip(result, expected):
            np.testing.assert_allclose(item.asnumpy(), want, rtol=1e-4, atol=1e-5)
    else:
        np.testing.assert_allclose(result.asnumpy(), expected, rtol=1e-4, atol=1e-5)


def test_bad_inputs_raise_mindspore_error_types():
    with pytest.raises(TypeError, match="SquareSumAll"):
        SquareSumAll()(Tensor(X.astype(np.float64)), Tensor(Y.astype(np.float64)))
    with pytest.raises(ValueError, match="matrix_solve"):
        ops.matrix_solve(Tensor(A), Tensor(B[0]))
    with pytest.raises(ValueError, match="KLDivLossGrad"):
        grad_ops.KLDivLossGrad("avg")


def test_apply_adadelta_and_copy_with_slice():
    var = ms.Parameter(Tensor(np.array([[0.1, 0.2]], np.float32)), name="var")
    accum = ms.Parameter(Tensor(np.array([[0.2, 0.3]], np.float32)), name="accum")
    update = ms.Parameter(Tensor(np.array([[0.3, 0.4]], np.float32)), name="update")
    ops.operations.ApplyAdadelta()(var, accum, update, 0.001, 0.95, 1e-6, Tensor(np.array([[0.4, 0.5]], np.float32)))
    np.testing.assert_allclose(var.asnumpy(), [[0.09950764, 0.19942023]], rtol=1e-6)  # MindSpore's own test values
    np.testing.assert_allclose(accum.asnumpy(), [[0.198, 0.2975]], rtol=1e-6)
    target = Tensor(np.zeros((2, 3), np.float32))
    ops.operations.CopyWithSlice()(target, Tensor(X))
    np.testing.assert_array_equal(target.asnumpy(), X)


# Every method and window rule against NumPy: the op test table (the ``rolling`` entry); here the path of a
# user's own ``Rolling`` class to that kernel.
@pytest.mark.parametrize("method,closed,center", [("std", "both", True), ("max", "right", False)])
def test_rolling_kernel_by_primitive_name(method, closed, center):
    class Rolling(ms.ops.PrimitiveWithInfer):
        @ms.ops.prim_attr_register
        def __init__(self, window, min_periods, center, axis, closed, method):
            pass

    values = rng.normal(size=(2, 6))
    got = Rolling(3, 2, center, 1, closed, method)(Tensor(values)).asnumpy()
    offset = 1 if center else 0
    reduce = {"max": np.max, "min": np.min, "mean": np.mean, "sum": np.sum,
              "std": lambda a, axis: np.std(a, axis=axis, ddof=1), "var": lambda a, axis: np.var(a, axis=axis, ddof=1)}
    for position in range(6):
        end = position + 1 + offset
        start = end - 3 - (closed in ("left", "both"))
        end -= closed in ("left", "neither")
        start, end = max(start, 0), min(max(end, 0), 6)
        want = reduce[method](values[:, start:end], axis=1) if end - start >= 2 else np.full(2, np.nan)
        np.testing.assert_allclose(got[:, position], want, rtol=1e-6, equal_nan=True)


def test_contiguous_keeps_values():
    x = Tensor(X)
    np.testing.assert_array_equal(ops.contiguous(ops.transpose(x, (1, 0))).asnumpy(), X.T)


def test_max_unpool_writes_repeated_indices_once_as_mindspore():
    # MindSpore 2.10 (CPU), recorded: where indices repeat, the last value in row-major order is written.
    from sporax import mint
    x = Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]], np.float32))
    for indices, expected in (([[0, 0], [5, 5]], {0: 2.0, 5: 4.0}), ([[3, 0], [0, 3]], {0: 3.0, 3: 4.0}),
                              ([[15, 15], [15, 15]], {15: 4.0})):
        want = np.zeros(16, np.float32)
        want[list(expected)] = list(expected.values())
        index = Tensor(np.array([[indices]], np.int64))
        for result in (ops.max_unpool2d(x, index, 2, 2), ops.MaxUnpool2D(ksize=2, strides=2)(x, index),
                       mint.nn.functional.max_unpool2d(x, index, 2, 2)):
            assert result.asnumpy().reshape(-1).tolist() == want.tolist()
    line = ops.max_unpool1d(Tensor(np.array([[[1.0, 2.0, 3.0]]], np.float32)), Tensor(np.array([[[1, 1, 0]]])), 2)
    assert line.asnumpy().tolist() == [[[3.0, 2.0, 0.0, 0.0, 0.0, 0.0]]]
    volume = ops.max_unpool3d(Tensor(np.arange(1, 9, dtype=np.float32).reshape(1, 1, 2, 2, 2)),
                              Tensor(np.array([0, 0, 0, 3, 3, 1, 1, 1], np.int64).reshape(1, 1, 2, 2, 2)), 2)
    assert volume.asnumpy().reshape(-1)[:4].tolist() == [3.0, 8.0, 0.0, 5.0]
