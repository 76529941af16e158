"""Ops whose output shape depends on input values (unique, masked_select, ListDiff): eager values, and inside
ms.jit / GRAPH mode the compiled function runs eagerly (warned) and gives the same values, as MindSpore
compiles them with dynamic shapes. ListDiff against MindSpore 2.10 (tests/fixtures/msops/record_list_diff.py)."""
import json
import os
import warnings

import numpy as np
import pytest

import sporax
from sporax import Tensor, nn, ops
from sporax.ops.operations import ListDiff
from sporax.state import EagerFallbackWarning

CASES = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "msops", "list_diff.json")))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['dtype']}-{c['out_idx']}")
def test_list_diff_matches_mindspore(case):
    out_idx = sporax.int64 if case["out_idx"] == "Int64" else sporax.int32
    out, idx = ListDiff(out_idx)(Tensor(np.array(case["x"], case["dtype"])), Tensor(np.array(case["y"], case["dtype"])))
    np.testing.assert_array_equal(out.asnumpy(), np.array(case["out"], case["dtype"]))
    np.testing.assert_array_equal(idx.asnumpy(), case["idx"])
    assert str(idx.asnumpy().dtype) == case["idx_dtype"]


def test_list_diff_rejects_mixed_dtypes():
    with pytest.raises(TypeError, match="same dtype"):
        ListDiff()(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([1], np.int64)))


def test_unique_inside_jit_runs_eagerly_with_the_same_values():
    @sporax.jit
    def gather_unique(x, indices):
        unique_indices, _ = ops.unique(indices)
        return ops.gather(x, unique_indices, 0) * 2

    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    indices = np.array([3, 1, 3, 0], np.int32)
    with pytest.warns(EagerFallbackWarning):
        out = gather_unique(Tensor(x), Tensor(indices))
    np.testing.assert_array_equal(out.asnumpy(), x[[3, 1, 0]] * 2)
    # the next call with other values (same signature) gives that call's shape
    out = gather_unique(Tensor(x), Tensor(np.array([2, 2, 2, 2], np.int32)))
    np.testing.assert_array_equal(out.asnumpy(), x[[2]] * 2)


class _DiffNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = ListDiff()

    def construct(self, x, y):
        out, idx = self.op(x, y)
        return out + 1, idx


def test_list_diff_in_graph_mode_cell():
    sporax.set_context(mode=sporax.GRAPH_MODE)
    try:
        with pytest.warns(EagerFallbackWarning):
            out, idx = _DiffNet()(Tensor(np.array([1, 2, 3, 4, 5, 6], np.int32)), Tensor(np.array([1, 3, 5], np.int32)))
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    np.testing.assert_array_equal(out.asnumpy(), [3, 5, 7])
    np.testing.assert_array_equal(idx.asnumpy(), [1, 3, 5])


class _ResizeNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.resize = ops.ResizeBicubic(False, False)

    def construct(self, images, size):
        return self.resize(images, size)


@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_resize_bicubic_with_a_tensor_size_in_a_cell(mode):
    # MindSpore 2.10 (CPU), its docstring example in both modes: size [1, 4], then [3, 3].
    images = Tensor(np.array([1, 2, 3, 4], np.float32).reshape(1, 1, 2, 2))
    net = _ResizeNet()
    sporax.set_context(mode=getattr(sporax, mode))
    try:
        wide = net(images, Tensor([1, 4], sporax.int32))
        square = net(images, Tensor([3, 3], sporax.int32))
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    np.testing.assert_allclose(wide.asnumpy(), [[[[1.0, 1.5, 2.0, 2.09375]]]], rtol=1e-5)
    np.testing.assert_allclose(square.asnumpy()[0, 0], [[1.0, 1.68554, 2.11111], [2.37108, 3.05661, 3.48219],
                                                        [3.22222, 3.90776, 4.33333]], rtol=1e-5)


class _MaskedSelectGrad(nn.Cell):
    def __init__(self):
        super().__init__()
        self.select = ops.MaskedSelect()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, x, mask, sensitivity):
        return self.grad(self.select)(x, mask, sensitivity)


@pytest.mark.parametrize("mode", [sporax.PYNATIVE_MODE, sporax.GRAPH_MODE])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_masked_select_gradient_sums_the_selected_sensitivities(mode, dtype):
    # MindSpore 2.10, both modes and both dtypes: x (4,) broadcast against mask (4, 1) -> dx = [4, 6, 8, 10].
    sporax.set_context(mode=mode)
    try:
        x = Tensor(np.array([1, 2, 3, 4], dtype))
        mask = Tensor(np.array([[0], [1], [0], [1]], np.bool_))
        sensitivity = Tensor(np.arange(8).astype(dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EagerFallbackWarning)  # GRAPH mode runs it eagerly (its shape)
            dx = _MaskedSelectGrad()(x, mask, sensitivity)[0]
        np.testing.assert_array_equal(dx.asnumpy(), np.array([4, 6, 8, 10], dtype))
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)


def test_range_of_tensors_made_inside_the_compiled_construct_compiles():
    # SimCLR's NT-Xent loss: range(Tensor(0, int32), Tensor(n, int32), Tensor(1, int32)) inside construct. MindSpore
    # folds the constant Tensors (recorded on 2.10 in GRAPH mode: x + range = [1, 2, 3, 4]); sporax reads them as the
    # constants of the program, with no eager fallback.
    class Shift(nn.Cell):
        def construct(self, x):
            steps = ops.range(Tensor(0, sporax.int32), Tensor(4, sporax.int32), Tensor(1, sporax.int32))
            return x + ops.cast(steps, sporax.float32)

    sporax.set_context(mode=sporax.GRAPH_MODE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", EagerFallbackWarning)
            out = Shift()(Tensor(np.ones(4, np.float32)))
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    np.testing.assert_array_equal(out.asnumpy(), [1.0, 2.0, 3.0, 4.0])
