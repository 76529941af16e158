"""AdaptiveMaxPool2d / ops.adaptive_max_pool2d with return_indices (values recorded from MindSpore 2.10)."""
import numpy as np

import sporax as ms
from sporax import Tensor, nn, ops

X = np.random.RandomState(3).rand(1, 2, 5, 5).astype(np.float32)


def test_functional_returns_int64_flat_indices():
    values, indices = ops.adaptive_max_pool2d(Tensor(X), (2, 3), True)
    assert indices.dtype == ms.int64
    assert indices.asnumpy().tolist() == [[[[5, 1, 4], [21, 21, 14]], [[5, 7, 4], [20, 11, 19]]]]
    np.testing.assert_allclose(values.asnumpy()[0, 0], [[0.896293, 0.708148, 0.892947], [0.693138, 0.693138, 0.676255]],
                               rtol=1e-5)
    np.testing.assert_array_equal(np.take_along_axis(X.reshape(1, 2, 25), indices.asnumpy().reshape(1, 2, 6), -1),
                                  values.asnumpy().reshape(1, 2, 6))


def test_cell_with_none_axis_and_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        values, indices = nn.AdaptiveMaxPool2d((None, 2), True)(Tensor(X))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert values.shape == (1, 2, 5, 2)
    assert indices.asnumpy()[0, 1].tolist() == [[0, 4], [5, 7], [11, 12], [16, 19], [20, 24]]
