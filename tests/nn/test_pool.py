"""MaxPool/AvgPool (2-D and 1-D) and the adaptive pools vs MindSpore 2.10 and NumPy; gradients."""
import numpy as np
import pytest

from sporax import nn, ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from tests.nn.helpers import check_gradient, oracle_layers

ORACLE = oracle_layers()

POOLS = {
    "max_valid": lambda: nn.MaxPool2d(2, 2), "max_same": lambda: nn.MaxPool2d(3, 2, pad_mode="same"),
    "max_pad_ceil": lambda: nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, ceil_mode=True),
    "max_pad_dil": lambda: nn.MaxPool2d(2, 1, pad_mode="pad", dilation=2),
    "avg_valid": lambda: nn.AvgPool2d(3, 2), "avg_same": lambda: nn.AvgPool2d(3, 2, pad_mode="same"),
    "avg_pad_incl": lambda: nn.AvgPool2d(3, 2, pad_mode="pad", padding=1),
    "avg_pad_excl_ceil": lambda: nn.AvgPool2d(3, 2, pad_mode="pad", padding=1, count_include_pad=False,
                                              ceil_mode=True),
    "avg_divisor": lambda: nn.AvgPool2d(2, 2, pad_mode="pad", divisor_override=3),
    "adaptive_avg": lambda: nn.AdaptiveAvgPool2d((3, 4)), "adaptive_max": lambda: nn.AdaptiveMaxPool2d((3, 4)),
}


@pytest.mark.parametrize("name", sorted(POOLS))
def test_pool2d_matches_mindspore(name):
    output = POOLS[name]()(Tensor(ORACLE["pool/x"])).asnumpy()
    np.testing.assert_allclose(output, ORACLE[f"pool/{name}"], rtol=1e-6, atol=1e-6)


def test_pool1d_matches_mindspore():
    x = Tensor(ORACLE["pool1d/x"])
    np.testing.assert_allclose(nn.MaxPool1d(3, 2)(x).asnumpy(), ORACLE["pool1d/max"], rtol=1e-6)
    np.testing.assert_allclose(nn.AvgPool1d(2, 2)(x).asnumpy(), ORACLE["pool1d/avg"], rtol=1e-6)
    np.testing.assert_allclose(nn.AdaptiveAvgPool1d(3)(x).asnumpy(), ORACLE["pool1d/adaptive_avg"], rtol=1e-6)


def test_pools_against_numpy_and_unbatched_inputs():
    x = np.random.default_rng(5).standard_normal((2, 3, 6, 4)).astype(np.float32)
    blocks = x.reshape(2, 3, 3, 2, 2, 2)
    np.testing.assert_array_equal(nn.MaxPool2d(2, 2)(Tensor(x)).asnumpy(), blocks.max(axis=(3, 5)))
    np.testing.assert_allclose(nn.AvgPool2d(2, 2)(Tensor(x)).asnumpy(), blocks.mean(axis=(3, 5)), rtol=1e-6)
    np.testing.assert_allclose(nn.AdaptiveAvgPool2d(1)(Tensor(x)).asnumpy(), x.mean((2, 3), keepdims=True),
                               rtol=1e-5)
    np.testing.assert_allclose(nn.AdaptiveAvgPool2d((None, 2))(Tensor(x)).asnumpy(),
                               x.reshape(2, 3, 6, 2, 2).mean(-1), rtol=1e-6)
    assert nn.MaxPool2d(2, 2)(Tensor(x[0])).shape == (3, 3, 2)
    assert nn.MaxPool2d(2, 2)(Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))).shape == (2, 1, 2)


def test_reprs_and_errors():
    assert repr(nn.MaxPool2d(2, 2)) == "MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)"
    assert repr(nn.AvgPool2d(3, 2, pad_mode="same")) == "AvgPool2d(kernel_size=3, stride=2, pad_mode=SAME)"
    assert repr(nn.MaxPool1d(2, 2)) == "MaxPool1d(kernel_size=(1, 2), stride=(1, 2), pad_mode=VALID)"
    assert repr(nn.AdaptiveAvgPool2d((2, 2))) == "AdaptiveAvgPool2d()"
    with pytest.raises(ValueError, match="pad_mode is not 'pad'"):
        nn.MaxPool2d(2, 2, ceil_mode=True)
    with pytest.raises(ValueError, match="pad_mode"):
        nn.AvgPool2d(2, 2, pad_mode="full")
    with pytest.raises(ValueError, match=r"\(N, C, H, W\)"):
        nn.MaxPool2d(2, 2)(Tensor(np.ones((4, 4), np.float32)))
    with pytest.raises(ValueError, match="pad_mode is not 'pad'"):
        nn.MaxPool2d(2, 2, return_indices=True)


def test_max_pool_return_indices_matches_mindspore():
    # MindSpore 2.10: MaxPool2d(2, 2, pad_mode='pad', return_indices=True) on arange(25) as (1, 1, 5, 5).
    values, indices = nn.MaxPool2d(2, 2, pad_mode="pad", return_indices=True)(
        Tensor(np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)))
    np.testing.assert_array_equal(values.asnumpy(), [[[[6, 8], [16, 18]]]])
    np.testing.assert_array_equal(indices.asnumpy(), [[[[6, 8], [16, 18]]]])
    assert indices.dtype == mstype.int64


@pytest.mark.parametrize("layer", [
    nn.MaxPool2d(3, 2, pad_mode="same"), nn.AvgPool2d(3, 2, pad_mode="pad", padding=1),
    nn.AdaptiveAvgPool2d((2, 3)), nn.AdaptiveMaxPool2d(2),
], ids=["max_same", "avg_pad", "adaptive_avg", "adaptive_max"])
def test_gradients_match_finite_differences(layer):
    x = np.random.default_rng(6).standard_normal((1, 2, 5, 6))
    check_gradient(layer, x)


def test_avg_pool_rounds_up_in_valid_and_same_modes():
    """AvgPool ceil_mode with pad_mode 'valid'/'same' (MindSpore runs them through AvgPool3D; MaxPool refuses).
    Values recorded from MindSpore 2.10 on x = arange(50).reshape(1, 1, 5, 10), kernel 3, stride 2: the 'valid'
    overhang is not counted; 'same' counts its padding unless count_include_pad is False."""
    x = Tensor(np.arange(50, dtype=np.float32).reshape(1, 1, 5, 10))
    out = nn.AvgPool2d(3, 2, ceil_mode=True)(x).asnumpy()
    assert out.shape == (1, 1, 2, 5)
    np.testing.assert_allclose(out.ravel()[:8], [11.0, 13.0, 15.0, 17.0, 18.5, 31.0, 33.0, 35.0])
    out = nn.AvgPool2d(3, 2, pad_mode="same", ceil_mode=True)(x).asnumpy()
    assert out.shape == (1, 1, 3, 5)
    np.testing.assert_allclose(out.ravel()[:8], [4.0, 16 / 3, 20 / 3, 8.0, 6.0, 21.0, 23.0, 25.0], rtol=1e-6)
    line = Tensor(np.arange(10, dtype=np.float32).reshape(1, 1, 10))
    np.testing.assert_allclose(nn.AvgPool1d(3, 2, ceil_mode=True)(line).asnumpy().ravel(),
                               [1.0, 3.0, 5.0, 7.0, 8.5])
    np.testing.assert_allclose(nn.AvgPool1d(3, 2, pad_mode="same", ceil_mode=True)(line).asnumpy().ravel(),
                               [1.0, 3.0, 5.0, 7.0, 17 / 3], rtol=1e-6)
    np.testing.assert_allclose(nn.AvgPool1d(3, 2, pad_mode="same", count_include_pad=False)(line).asnumpy().ravel(),
                               [1.0, 3.0, 5.0, 7.0, 8.5])
    with pytest.raises(ValueError, match="'padding'"):
        nn.AvgPool2d(3, 2, padding=1)
    with pytest.raises(ValueError, match="ceil_mode"):
        nn.MaxPool2d(3, 2, ceil_mode=True)


@pytest.mark.parametrize("shape, kernel, stride, output", [((1, 2, 1, 1), 2, 2, "1, 2, 0, 0"),
                                                            ((1, 2, 3, 1), 2, 1, "1, 2, 2, 0")])
def test_a_window_larger_than_the_input_is_refused_as_mindspore(shape, kernel, stride, output):
    # MS 2.10 (PyNative and GRAPH, recorded): no empty output; mindearth's DgmrDiscriminator on a too-small frame
    # hits this in an AvgPool.
    x = Tensor(np.ones(shape, np.float32))
    avg = r"^For 'AvgPool' op, H_out/W_out must be positive, but H_out/W_out is 0, please check input and parameters of op"
    for pool in (ops.AvgPool(kernel, stride), nn.AvgPool2d(kernel, stride)):
        with pytest.raises(RuntimeError, match=avg):
            pool(x)
    dims = ", ".join(map(str, shape))
    mx = (rf"^For 'MaxPool', the each element of the output shape must be larger than 0, but got output shape: "
          rf"\[const vector\]\{{{output}\}}\. The input shape: \[const vector\]\{{{dims}\}}, kernel size: "
          rf"\[const vector\]\{{1, 1, {kernel}, {kernel}\}}, strides: \[const vector\]\{{1, 1, {stride}, {stride}\}}\.")
    for pool in (ops.MaxPool(kernel, stride), nn.MaxPool2d(kernel, stride)):
        with pytest.raises(ValueError, match=mx):
            pool(x)
    assert ops.AvgPool(kernel, stride, "same")(x).shape == shape == nn.MaxPool2d(kernel, stride, "same")(x).shape


def test_errors_raised_by_an_ops_compiled_kernel_carry_no_jax_note():
    # PyNative runs each op as a compiled kernel; MindSpore 2.10 raises these errors with no note, where JAX's jit
    # adds "For simplicity, JAX has removed its internal frames ... JAX_TRACEBACK_FILTERING" (seen from mindearth's
    # DgmrDiscriminator on a too-small frame)
    x = Tensor(np.ones((1, 2, 1, 1), np.float32))
    for pool, error in ((ops.AvgPool(2, 2), RuntimeError), (ops.MaxPool(2, 2), ValueError)):
        with pytest.raises(error, match="^For 'AvgPool' op, H_out|^For 'MaxPool', the each element") as caught:
            pool(x)
        assert not getattr(caught.value, "__notes__", None)
