"""nn.FractionalMaxPool2d/3d against MindSpore 2.10 (values and indices recorded from the oracle)."""
import numpy as np
import pytest

from sporax import Tensor, nn


def test_fractional_max_pool2d_values_and_indices_match_mindspore():
    x = Tensor(np.arange(2 * 25, dtype=np.float32).reshape(1, 2, 5, 5) % 7)
    samples = Tensor(np.array([[[0.3, 0.7], [0.9, 0.1]]], np.float32))
    values, indices = nn.FractionalMaxPool2d(2, output_size=(3, 3), return_indices=True,
                                             _random_samples=samples)(x)
    np.testing.assert_array_equal(values.asnumpy(), [[[[6, 6, 4], [6, 6, 6], [6, 3, 5]],
                                                      [[5, 6, 6], [3, 4, 6], [6, 6, 6]]]])
    np.testing.assert_array_equal(indices.asnumpy(), [[[[6, 6, 4], [6, 6, 13], [20, 17, 19]],
                                                       [[1, 2, 9], [6, 7, 9], [16, 16, 23]]]])
    flat = x.asnumpy().reshape(1, 2, 25)
    np.testing.assert_array_equal(np.take_along_axis(flat, indices.asnumpy().reshape(1, 2, 9), -1).reshape(1, 2, 3, 3),
                                  values.asnumpy())


def test_fractional_max_pool3d_ratio_and_argument_errors():
    x = Tensor(np.random.RandomState(0).rand(1, 2, 4, 6, 6).astype(np.float32))
    out = nn.FractionalMaxPool3d((2, 2, 2), output_ratio=(0.5, 0.5, 0.5))(x)
    assert out.shape == (1, 2, 2, 3, 3)
    assert np.all(out.asnumpy() <= x.asnumpy().max())
    with pytest.raises(ValueError, match="output_size' or 'output_ratio"):
        nn.FractionalMaxPool2d(2)
    with pytest.raises(ValueError, match="only one"):
        nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5)
