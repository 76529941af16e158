"""nn.MaxPool2d/AvgPool2d with data_format='NHWC' (MindSpore offers it on GPU): the NCHW result, channels-last."""
import numpy as np
import pytest

from sporax import Tensor, nn

X = np.random.RandomState(0).rand(2, 3, 5, 6).astype(np.float32)


@pytest.mark.parametrize("make", [
    lambda fmt: nn.MaxPool2d(kernel_size=2, stride=2, data_format=fmt),
    lambda fmt: nn.MaxPool2d(kernel_size=3, stride=1, pad_mode="same", data_format=fmt),
    lambda fmt: nn.AvgPool2d(kernel_size=2, stride=1, pad_mode="pad", padding=1, data_format=fmt),
])
def test_nhwc_equals_transposed_nchw(make):
    expected = make("NCHW")(Tensor(X)).asnumpy()
    out = make("NHWC")(Tensor(X.transpose(0, 2, 3, 1).copy())).asnumpy()
    np.testing.assert_allclose(out, expected.transpose(0, 2, 3, 1), rtol=1e-6)


def test_nhwc_with_indices_and_bad_format():
    pool = lambda fmt: nn.MaxPool2d(kernel_size=2, stride=2, pad_mode="pad", return_indices=True, data_format=fmt)
    values, indices = pool("NCHW")(Tensor(X))
    values_last, indices_last = pool("NHWC")(Tensor(X.transpose(0, 2, 3, 1).copy()))
    np.testing.assert_allclose(values_last.asnumpy(), values.asnumpy().transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(indices_last.asnumpy(), indices.asnumpy().transpose(0, 2, 3, 1))
    with pytest.raises(ValueError, match="data_format"):
        nn.MaxPool2d(data_format="NDHWC")
