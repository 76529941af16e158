"""Conv1d, Conv2d, Conv2dTranspose vs MindSpore 2.10 outputs and NumPy references; gradients vs finite differences."""
import numpy as np
import pytest

from sporax import nn
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from tests.nn.helpers import FIXTURES, check_gradient, oracle_layers

ORACLE = oracle_layers()

CASES = {
    "conv_same_s2": (nn.Conv2d, dict(in_channels=3, out_channels=4, kernel_size=3, stride=2, has_bias=True)),
    "conv_pad_dil_group": (nn.Conv2d, dict(in_channels=4, out_channels=6, kernel_size=(3, 2), pad_mode="pad",
                                           padding=(1, 2, 3, 0), dilation=2, group=2)),
    "conv_valid_s2": (nn.Conv2d, dict(in_channels=2, out_channels=3, kernel_size=3, stride=(2, 1), pad_mode="valid")),
    "conv1d_same_s2": (nn.Conv1d, dict(in_channels=3, out_channels=2, kernel_size=4, stride=2, has_bias=True)),
    "convT_same_s2": (nn.Conv2dTranspose, dict(in_channels=3, out_channels=2, kernel_size=3, stride=2,
                                               has_bias=True)),
    "convT_same_s3_k2": (nn.Conv2dTranspose, dict(in_channels=2, out_channels=2, kernel_size=2, stride=3)),
    "convT_valid_dil": (nn.Conv2dTranspose, dict(in_channels=2, out_channels=3, kernel_size=3, stride=2,
                                                 pad_mode="valid", dilation=2)),
}


def build(name):
    cls, kwargs = CASES[name]
    layer = cls(**kwargs)
    layer.weight.set_data(Tensor(ORACLE[f"{name}/weight"]))
    if layer.bias is not None:
        layer.bias.set_data(Tensor(ORACLE[f"{name}/bias"]))
    return layer


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    output = build(name)(Tensor(ORACLE[f"{name}/x"])).asnumpy()
    np.testing.assert_allclose(output, ORACLE[f"{name}/y"], rtol=1e-5, atol=1e-5)


def numpy_conv2d(x, weight, stride, pads, dilation, group):
    """Direct NumPy convolution (NCHW, OIHW) with explicit (top, bottom, left, right) padding."""
    x = np.pad(x, ((0, 0), (0, 0), pads[:2], pads[2:]))
    batch, channels, height, width = x.shape
    out_channels, per_group, kernel_h, kernel_w = weight.shape
    out_h = (height - dilation[0] * (kernel_h - 1) - 1) // stride[0] + 1
    out_w = (width - dilation[1] * (kernel_w - 1) - 1) // stride[1] + 1
    output = np.zeros((batch, out_channels, out_h, out_w))
    per_out = out_channels // group
    for o in range(out_channels):
        first = (o // per_out) * per_group
        for i in range(out_h):
            for j in range(out_w):
                patch = x[:, first:first + per_group,
                          i * stride[0]: i * stride[0] + dilation[0] * (kernel_h - 1) + 1: dilation[0],
                          j * stride[1]: j * stride[1] + dilation[1] * (kernel_w - 1) + 1: dilation[1]]
                output[:, o, i, j] = np.sum(patch * weight[o], axis=(1, 2, 3))
    return output


def numpy_conv2d_transpose(x, weight, stride, pad, output_padding, group):
    """Scatter form of the transposed convolution; weight (in, out / group, kh, kw)."""
    batch, in_channels, height, width = x.shape
    _, per_out, kernel_h, kernel_w = weight.shape
    per_in = in_channels // group
    full = np.zeros((batch, per_out * group, (height - 1) * stride + kernel_h + output_padding,
                     (width - 1) * stride + kernel_w + output_padding))
    for c in range(in_channels):
        g = c // per_in
        for a in range(per_out):
            for i in range(height):
                for j in range(width):
                    full[:, g * per_out + a, i * stride:i * stride + kernel_h, j * stride:j * stride + kernel_w] += \
                        x[:, c, i, j][:, None, None] * weight[c, a]
    out_h = (height - 1) * stride - 2 * pad + kernel_h + output_padding
    out_w = (width - 1) * stride - 2 * pad + kernel_w + output_padding
    return full[:, :, pad:pad + out_h, pad:pad + out_w]


def test_conv2d_matches_numpy_reference():
    rng = np.random.default_rng(1)
    layer = nn.Conv2d(4, 6, (3, 2), stride=(1, 2), pad_mode="pad", padding=(0, 1, 2, 1), dilation=(2, 1), group=2,
                      has_bias=True)
    x = rng.standard_normal((2, 4, 7, 6)).astype(np.float32)
    expected = numpy_conv2d(x, layer.weight.asnumpy(), (1, 2), (0, 1, 2, 1), (2, 1), 2)
    expected += layer.bias.asnumpy().reshape(1, -1, 1, 1)
    np.testing.assert_allclose(layer(Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)


def test_grouped_conv2d_transpose_matches_mindspore():
    # MindSpore 2.10's Cell appends output_padding as zero rows/columns (pad_mode 'pad'); the rest is the
    # definition (the input-gradient of the grouped Conv2d), as PyTorch's ConvTranspose2d.
    name = "convT_pad_outpad_group"
    x, weight = ORACLE[f"{name}/x"], ORACLE[f"{name}/weight"]
    layer = nn.Conv2dTranspose(4, 6, 3, stride=2, pad_mode="pad", padding=1, output_padding=1, group=2)
    layer.weight.set_data(Tensor(weight))
    output = layer(Tensor(x)).asnumpy()
    np.testing.assert_allclose(output, ORACLE[f"{name}/y"], rtol=1e-4, atol=1e-5)
    expected = numpy_conv2d_transpose(x, weight, 2, 1, 0, 2)
    np.testing.assert_allclose(output[..., :-1, :-1], expected, rtol=1e-4, atol=1e-5)


def test_output_shapes_for_each_pad_mode():
    x = Tensor(np.ones((1, 2, 6, 6), np.float32))
    assert nn.Conv2d(2, 3, 3, stride=2)(x).shape == (1, 3, 3, 3)
    assert nn.Conv2d(2, 3, 3, pad_mode="valid")(x).shape == (1, 3, 4, 4)
    assert nn.Conv2d(2, 3, 3, pad_mode="pad", padding=(1, 2, 3, 4))(x).shape == (1, 3, 7, 11)
    transposed = nn.Conv2dTranspose(2, 3, 3, stride=2, pad_mode="pad", padding=1, output_padding=1)
    assert transposed(Tensor(np.ones((1, 2, 5, 5), np.float32))).shape == (1, 3, 10, 10)
    assert nn.Conv2dTranspose(2, 3, 3, stride=2)(x).shape == (1, 3, 12, 12)
    assert nn.Conv1d(2, 3, 3)(Tensor(np.ones((1, 2, 9), np.float32))).shape == (1, 3, 9)
    assert nn.Conv1dTranspose(2, 3, 3, stride=2)(Tensor(np.ones((1, 2, 9), np.float32))).shape == (1, 3, 18)


def test_parameters_defaults_and_repr():
    layer = nn.Conv2d(2, 4, 3)
    assert [(p.name, p.shape) for p in layer.get_parameters()] == [("weight", (4, 2, 3, 3))]
    text = repr(layer)
    assert text.startswith("Conv2d(input_channels=2, output_channels=4, kernel_size=(3, 3), stride=(1, 1), "
                           "pad_mode=same, padding=0, dilation=(1, 1), group=1, has_bias=False, weight_init=<")
    assert text.endswith("HeUniform object at " + text.split("HeUniform object at ")[1].split(">")[0]
                         + ">, bias_init=None, format=NCHW)")
    assert "weight_init=normal," in repr(nn.Conv2d(2, 4, (3, 2), weight_init="normal"))
    biased = nn.Conv2d(2, 4, 3, has_bias=True, pad_mode="pad", padding=1)
    assert biased.bias.shape == (4,) and "padding=1," in repr(biased) and "Uniform object" in repr(biased)
    assert nn.Conv1d(2, 3, 3).weight.shape == (3, 2, 1, 3)
    assert "padding=(0, 0, 1, 1)" in repr(nn.Conv1d(2, 3, 3, pad_mode="pad", padding=1))
    assert nn.Conv2dTranspose(2, 4, 3).weight.shape == (2, 4, 3, 3)
    bound = 1 / np.sqrt(2 * 9)
    assert np.abs(layer.weight.asnumpy()).max() <= bound


def test_layers_keep_their_arguments_under_mindspores_attribute_names():
    """Subclasses in user code (the model zoo's PointNet++ Conv2d) rebuild the primitive from these attributes;
    the values are those MindSpore 2.10's layers hold."""
    expected = {nn.Conv1d: ((1, 3), (0, 0, 0, 0), "NCHW"), nn.Conv2d: ((3, 3), 0, "NCHW"),
                nn.Conv3d: ((3, 3, 3), 0, "NCDHW"), nn.Conv2dTranspose: ((3, 3), 0, "NCHW"),
                nn.Conv1dTranspose: ((1, 3), (0, 0, 0, 0), "NCHW"), nn.Conv3dTranspose: ((3, 3, 3), 0, "NCDHW")}
    for cls, (kernel_size, padding, data_format) in expected.items():
        layer = cls(2, 4, 3)
        assert (layer.kernel_size, layer.padding, layer.data_format) == (kernel_size, padding, data_format), cls
        assert (layer.in_channels, layer.out_channels, layer.pad_mode, layer.group, layer.has_bias) == (
            2, 4, "same", 1, False), cls


def test_errors_teach():
    with pytest.raises(ValueError, match="'pad' must be zero"):
        nn.Conv2d(2, 3, 3, pad_mode="same", padding=1)
    with pytest.raises(ValueError, match="pad_mode"):
        nn.Conv2d(2, 3, 3, pad_mode="foo")
    with pytest.raises(ValueError, match="tuple of 4"):
        nn.Conv2d(2, 3, 3, pad_mode="pad", padding=(1, 2))
    with pytest.raises(ValueError, match="divisible"):
        nn.Conv2d(3, 4, 3, group=2)
    with pytest.raises(TypeError, match="dtype"):
        nn.Conv2d(2, 3, 3)(Tensor(np.ones((1, 2, 6, 6), np.float16)))
    with pytest.raises(ValueError, match=r"\(N, 2, ...\)"):  # MindSpore 2.10: ValueError for the rank
        nn.Conv2d(2, 3, 3)(Tensor(np.ones((3, 6, 6), np.float32)))
    # a channel mismatch, MindSpore 2.10 on CPU: RuntimeError from Conv2D's kernel (Conv1d, Conv2dTranspose too),
    # ValueError from Conv3D's shape inference
    for cls, shape in ((nn.Conv2d, (1, 3, 6, 6)), (nn.Conv1d, (1, 3, 6)), (nn.Conv2dTranspose, (1, 3, 6, 6))):
        with pytest.raises(RuntimeError, match=r"has 3 channels but in_channels is 2.*\(N, 2, ...\)"):
            cls(2, 3, 3)(Tensor(np.ones(shape, np.float32)))
    with pytest.raises(ValueError, match="has 3 channels but in_channels is 2"):
        nn.Conv3d(2, 3, 3)(Tensor(np.ones((1, 3, 4, 4, 4), np.float32)))
    # MindSpore 2.10 on CPU: ValueError "the "NHWC" format only support in GPU target"; other formats: ValueError.
    with pytest.raises(ValueError, match="'NHWC' format is only supported on the GPU target"):
        nn.Conv2d(2, 3, 3, data_format="NHWC")
    with pytest.raises(ValueError, match="'format' must be str and must be in"):
        nn.Conv2d(2, 3, 3, data_format="NDHWC")


@pytest.mark.parametrize("cls, kwargs, shape", [
    (nn.Conv2d, dict(stride=2, has_bias=True), (2, 2, 5, 5)),
    (nn.Conv2dTranspose, dict(stride=2, has_bias=True), (1, 2, 3, 3)),
])
def test_gradients_match_finite_differences(cls, kwargs, shape):
    layer = cls(2, 3, 3, dtype=mstype.float64, **kwargs)
    x = np.random.default_rng(2).standard_normal(shape)
    check_gradient(layer, x, [layer.weight, layer.bias])


ORACLE_3D = np.load(f"{FIXTURES}/nn/oracle_conv3d.npz")
CASES_3D = {
    "conv3d_same_s2": (nn.Conv3d, dict(in_channels=2, out_channels=3, kernel_size=3, stride=2, has_bias=True)),
    "conv3d_pad_dil": (nn.Conv3d, dict(in_channels=2, out_channels=2, kernel_size=(2, 3, 2), pad_mode="pad",
                                       padding=(1, 0, 2, 1, 0, 1), dilation=(1, 2, 1))),
    "conv3dT_pad_out": (nn.Conv3dTranspose, dict(in_channels=2, out_channels=3, kernel_size=3, stride=2,
                                                 pad_mode="pad", padding=1, output_padding=1, has_bias=True)),
    "conv3dT_same": (nn.Conv3dTranspose, dict(in_channels=2, out_channels=2, kernel_size=2, stride=2)),
}


@pytest.mark.parametrize("name", ["conv3d_pad_dil", "conv3dT_pad_out"])  # the same-padding cases run in 2-D
def test_conv3d_matches_mindspore(name):
    cls, kwargs = CASES_3D[name]
    layer = cls(**kwargs)
    layer.weight.set_data(Tensor(ORACLE_3D[f"{name}/weight"]))
    if layer.bias is not None:
        layer.bias.set_data(Tensor(ORACLE_3D[f"{name}/bias"]))
    output = layer(Tensor(ORACLE_3D[f"{name}/x"])).asnumpy()
    np.testing.assert_allclose(output, ORACLE_3D[f"{name}/y"], rtol=1e-5, atol=2e-5)
    assert "format=NCDHW" in repr(layer)
    with pytest.raises(ValueError, match="shape"):
        layer(Tensor(np.ones((1, 2, 4, 4), np.float32)))


@pytest.mark.parametrize("mode", [0, 1])
def test_float16_conv2d_bias_rounds_once_in_graph_mode(mode):
    """A Float16 Conv2d with a bias (to_float): MindSpore 2.10's GRAPH_MODE fuses Conv2D and BiasAdd, adding the
    bias to the Float32 convolution and rounding once; PyNative rounds the convolution, then the sum (recorded on
    CPU, 2x3x6x6 input, 3x3 'same' kernel, 4 channels: GRAPH agreed with the once-rounded value everywhere,
    PyNative with the twice-rounded one; they differ in 90 of 288 outputs). Named PyNative/Graph difference."""
    import sporax as ms

    rng = np.random.default_rng(0)
    weight = (rng.standard_normal((4, 3, 3, 3)) * 0.5).astype(np.float32)
    bias = rng.standard_normal(4).astype(np.float32)
    x = rng.standard_normal((2, 3, 6, 6)).astype(np.float16)
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))
    convolution = np.einsum("nchwij,ocij->nohw", windows, weight.astype(np.float16).astype(np.float64))
    channel_bias = bias.astype(np.float16).astype(np.float64)[None, :, None, None]
    once = (convolution + channel_bias).astype(np.float32).astype(np.float16)
    twice = convolution.astype(np.float32).astype(np.float16) + bias.astype(np.float16)[None, :, None, None]
    assert (once != twice).mean() > 0.2
    ms.set_context(mode=mode)
    try:
        layer = nn.Conv2d(3, 4, 3, has_bias=True, weight_init=Tensor(weight), bias_init=Tensor(bias))
        output = layer.to_float(mstype.float16)(Tensor(x))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert output.dtype == mstype.float16
    np.testing.assert_array_equal(output.asnumpy(), once if mode == ms.GRAPH_MODE else twice)


def test_conv2d_transpose_pad_mode_appends_output_padding_as_zeros():
    """MindSpore 2.10's Conv2dTranspose with pad_mode 'pad' appends the output_padding rows/columns as zeros,
    after the bias (values recorded there); the other rows are the transposed convolution."""
    x = Tensor(np.ones((1, 1, 3, 3), np.float32))
    out = nn.Conv2dTranspose(1, 1, 3, 2, "pad", 1, output_padding=(1, 0), has_bias=True, weight_init="ones",
                             bias_init="ones")(x).asnumpy()[0, 0]
    row = [2.0, 3.0, 2.0, 3.0, 2.0]
    other = [3.0, 5.0, 3.0, 5.0, 3.0]
    np.testing.assert_array_equal(out, [row, other, row, other, row, [0.0] * 5])
    out = nn.Conv2dTranspose(1, 1, 3, 2, "pad", (1, 0, 0, 1), output_padding=1, weight_init="ones")(x).asnumpy()[0, 0]
    assert out.shape == (7, 7)
    np.testing.assert_array_equal(out[0], [1.0, 1.0, 2.0, 1.0, 2.0, 1.0, 0.0])
    np.testing.assert_array_equal(out[-1], np.zeros(7))
    np.testing.assert_array_equal(out[:, -1], np.zeros(7))
