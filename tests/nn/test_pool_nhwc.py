"""nn.MaxPool2d/AvgPool2d with data_format='NHWC': MindSpore 2.10 offers it on the GPU target only (ValueError on
CPU); there it is the NCHW result, channels-last."""
import numpy as np
import pytest

from sporax import Tensor, nn, ops
from sporax.core import context


@pytest.fixture
def gpu_target(monkeypatch):
    # The GPU target's behaviour on any machine: only the data_format check reads the target.
    monkeypatch.setitem(context._context, "device_target", "GPU")


X = np.random.RandomState(0).rand(2, 3, 5, 6).astype(np.float32)


@pytest.mark.parametrize("make", [
    lambda fmt: nn.MaxPool2d(kernel_size=2, stride=2, data_format=fmt),
    lambda fmt: nn.MaxPool2d(kernel_size=3, stride=1, pad_mode="same", data_format=fmt),
    lambda fmt: nn.AvgPool2d(kernel_size=2, stride=1, pad_mode="pad", padding=1, data_format=fmt),
])
def test_nhwc_equals_transposed_nchw(make, gpu_target):
    expected = make("NCHW")(Tensor(X)).asnumpy()
    out = make("NHWC")(Tensor(X.transpose(0, 2, 3, 1).copy())).asnumpy()
    np.testing.assert_allclose(out, expected.transpose(0, 2, 3, 1), rtol=1e-6)


@pytest.mark.parametrize("make", [
    lambda fmt: ops.MaxPool(3, 2, "same", data_format=fmt),
    lambda fmt: ops.AvgPool(2, 1, "valid", data_format=fmt),
    lambda fmt: ops.AvgPool(3, 2, "same", data_format=fmt),  # 'same' pads the high end, unpadded cells averaged
])
def test_pool_primitives_nhwc_equal_transposed_nchw(make, gpu_target):
    # The zoo's ResNet-50 GPU benchmark ends in P.AvgPool(7, 1, data_format='NHWC')
    expected = make("NCHW")(Tensor(X)).asnumpy()
    out = make("NHWC")(Tensor(X.transpose(0, 2, 3, 1).copy())).asnumpy()
    np.testing.assert_allclose(out, expected.transpose(0, 2, 3, 1), rtol=1e-6)


def test_nhwc_with_indices_and_bad_format(gpu_target):
    pool = lambda fmt: nn.MaxPool2d(kernel_size=2, stride=2, pad_mode="pad", return_indices=True, data_format=fmt)
    values, indices = pool("NCHW")(Tensor(X))
    values_last, indices_last = pool("NHWC")(Tensor(X.transpose(0, 2, 3, 1).copy()))
    np.testing.assert_allclose(values_last.asnumpy(), values.asnumpy().transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(indices_last.asnumpy(), indices.asnumpy().transpose(0, 2, 3, 1))
    with pytest.raises(ValueError, match=r"MaxPool2d', the 'format' must be str and must be in '\['NCHW', 'NHWC'\]'"):
        nn.MaxPool2d(data_format="NDHWC")


@pytest.mark.parametrize("cell", [nn.MaxPool2d, nn.AvgPool2d])
def test_nhwc_on_cpu_is_refused_as_mindspore_does(cell, monkeypatch):
    # MindSpore 2.10 on CPU: "For 'MaxPool2d, the 'NHWC' format only support in GPU target" (ValueError, when made)
    monkeypatch.setitem(context._context, "device_target", "CPU")
    with pytest.raises(ValueError, match=f"For '{cell.__name__}', the 'NHWC' format is only supported on the GPU "
                                         "target.*Use data_format='NCHW'"):
        cell(kernel_size=2, stride=2, data_format="NHWC")
