"""ops.MapUniform (MindSpore's documented formula and example), ops.Reusing (a labelled function) and
UpdateCache (rows written into a cache Parameter, against values recorded from MindSpore 2.10)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.ops.operations import UpdateCache


def test_map_uniform_spreads_keys_over_the_groups():
    keys = np.array([0, 1, 2, 3, 4, 5, 6, 7, 11], np.int64)
    out = ops.MapUniform()(Tensor(keys), 4, 2)
    assert out.asnumpy().tolist() == (keys % 2 * 4 + keys // 2).tolist()
    assert out.asnumpy()[:8].tolist() == [0, 4, 1, 5, 2, 6, 3, 7]  # MindSpore's documented example
    with pytest.raises(ValueError, match="'group_num'"):
        ops.MapUniform()(Tensor(keys), 4, 0)


def test_reusing_keeps_the_function_values_under_jit():
    body = ops.Reusing()(lambda i, value: value * value * i)

    @ms.jit
    def loop(x):
        for i in range(1, 4):
            x = body(i, x)
        return x

    expected = np.array([1.5], np.float32)
    for i in range(1, 4):
        expected = expected * expected * i
    assert body.no_inline
    np.testing.assert_allclose(loop(Tensor(np.array([1.5], np.float32))).asnumpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("indices, max_num, rows", [
    # MindSpore 2.10: -1 is skipped; an index >= max_num is skipped; a repeated index keeps the last row
    ([[-1, 3, 4]], 9999, {3: 1, 4: 2}),
    ([[1, 7, 2]], 2, {1: 0}),
    ([[0, 0, 4]], 9999, {0: 1, 4: 2}),
])
def test_update_cache_writes_the_rows_mindspore_writes(indices, max_num, rows):
    start = np.arange(20).reshape(5, 4).astype(np.float32)
    cache = ms.Parameter(Tensor(start), name="cache")
    update = np.arange(100, 112).reshape(3, 4).astype(np.float32)
    out = UpdateCache()(cache, Tensor(np.array(indices, np.int32)), Tensor(update), max_num)
    expected = start.copy()
    for row, source in rows.items():
        expected[row] = update[source]
    np.testing.assert_array_equal(cache.asnumpy(), expected)
    assert out.asnumpy().tolist() == [0.0] and out.dtype == ms.float32
    assert not hasattr(ops, "UpdateCache")  # MindSpore serves it from ops.operations only
