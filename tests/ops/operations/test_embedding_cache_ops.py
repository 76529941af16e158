"""ops.MapUniform (MindSpore's documented formula and example) and ops.Reusing (a labelled function)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops


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
