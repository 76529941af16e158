"""``mindspore.ops._primitive_cache._get_cache_prim`` (values recorded from MindSpore 2.10)."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops
from sporax.ops.primitive import _get_cache_prim
from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)

_X = np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], np.float32)


def test_equal_arguments_share_one_instance():
    # MindSpore 2.10 (PyNative): same keep_dims -> the same object; other keep_dims -> another one
    first = _get_cache_prim(ops.ReduceSum)(keep_dims=True)
    assert _get_cache_prim(ops.ReduceSum)(keep_dims=True) is first
    other = _get_cache_prim(ops.ReduceSum)(keep_dims=False)
    assert other is not first and first.keep_dims is True and other.keep_dims is False


def test_cached_primitive_computes():
    # MindSpore 2.10: _get_cache_prim(P.LpNorm)([0, 1], 2, keep_dims=False, epsilon=1e-12)(x) -> [9.165152 10.954452]
    norm = _get_cache_prim(ops.LpNorm)([0, 1], 2, keep_dims=False, epsilon=1e-12)
    np.testing.assert_allclose(norm(ms.Tensor(_X)).asnumpy(), [9.165152, 10.954452], rtol=1e-6)


def test_used_inside_a_graph_mode_cell():
    class SumRows(nn.Cell):
        def construct(self, x):
            return _get_cache_prim(ops.ReduceSum)(keep_dims=False)(x, 1)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = SumRows()(ms.Tensor(_X))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), _X.sum(axis=1))


def test_rejects_a_non_primitive():
    with pytest.raises(TypeError, match="_get_cache_prim"):
        _get_cache_prim(len)


def test_served_under_the_mindspore_path(hook):
    from mindspore.ops._primitive_cache import _get_cache_prim as served
    assert served is _get_cache_prim
