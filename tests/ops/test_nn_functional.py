"""nn functional ops against NumPy references, and their gradients against finite differences."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor

RNG = np.random.default_rng(0)


def T(array):
    return Tensor(np.asarray(array))


# --- NumPy references -------------------------------------------------------------------------
def ref_log_softmax(x, axis):
    shifted = x - x.max(axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis, keepdims=True))


def check_grad(function, *arrays, argnum=0, rtol=1e-4):
    """Directional derivatives of ``function`` (arrays -> scalar Tensor) vs central differences."""
    arrays = [jnp.asarray(a, jnp.float64) for a in arrays]

    def scalar(*values):
        return jnp.sum(function(*[Tensor._wrap(v) for v in values])._value)

    grad = jax.jit(jax.grad(scalar, argnums=argnum))(*arrays)
    scalar = jax.jit(scalar)
    for _ in range(2):
        direction = RNG.standard_normal(arrays[argnum].shape)
        eps = 1e-6
        plus = list(arrays)
        minus = list(arrays)
        plus[argnum] = arrays[argnum] + eps * direction
        minus[argnum] = arrays[argnum] - eps * direction
        numeric = (float(scalar(*plus)) - float(scalar(*minus))) / (2 * eps)
        analytic = float(jnp.sum(grad * direction))
        np.testing.assert_allclose(analytic, numeric, rtol=rtol, atol=1e-6)


# --- convolution and pooling (values, gradients and faces: tests/ops/test_op_table.py) ------------
def test_conv2d_errors_name_the_argument():
    x, w = T(np.ones((1, 3, 5, 5))), T(np.ones((4, 2, 3, 3)))
    with pytest.raises(ValueError, match="conv2d.*channels"):
        ops.conv2d(x, w)
    with pytest.raises(ValueError, match="pad_mode"):
        ops.conv2d(x, T(np.ones((4, 3, 3, 3))), pad_mode="full")
    with pytest.raises(TypeError, match="'input'"):
        ops.conv2d(np.ones(3).tolist(), w)
    with pytest.raises(ValueError, match="conv2d.*larger than the padded input"):
        ops.conv2d(T(np.ones((1, 2, 3, 3))), T(np.ones((1, 2, 5, 5))))
    with pytest.raises(ValueError, match="conv2d.*'stride' must be at least 1"):
        ops.conv2d(x, T(np.ones((4, 3, 3, 3))), stride=0)
    with pytest.raises(ValueError, match="max_pool2d.*does not fit"):
        ops.max_pool2d(x, 7)


def test_max_pool2d_refuses_an_input_without_batch_and_channels():
    with pytest.raises(ValueError, match="max_pool2d"):
        ops.max_pool2d(T(RNG.standard_normal((3, 7, 7))), 2)


def test_interpolate_bicubic_is_smooth_and_exact_on_identity():
    img = RNG.standard_normal((1, 1, 5, 5))
    same = ops.interpolate(T(img), size=(5, 5), mode="bicubic")
    np.testing.assert_allclose(same.asnumpy(), img, atol=1e-12)
    ramp = np.arange(8.0).reshape(1, 1, 1, 8).repeat(3, 2)
    wide = ops.interpolate(T(ramp), size=(3, 15), mode="bicubic", align_corners=True).asnumpy()
    # Away from the borders (where MindSpore reads the edge pixel) cubic reproduces a ramp.
    np.testing.assert_allclose(wide[0, 0, 0, 2:-2], np.linspace(0, 7, 15)[2:-2], atol=1e-12)
    np.testing.assert_allclose(wide[0, 0, 0, [0, -1]], [0.0, 7.0], atol=1e-12)


def test_interpolate_bicubic_matches_mindspore_with_and_without_aligned_corners():
    # MindSpore 2.10: aligned corners use a = -0.75 and the edge pixel for outside taps; otherwise a = -0.5
    # with outside taps dropped
    row = T(np.cos(np.arange(6) * 0.7).astype(np.float32).reshape(1, 1, 1, 6))
    aligned = ops.interpolate(row, size=(1, 11), mode="bicubic", align_corners=True).asnumpy()[0, 0, 0]
    np.testing.assert_allclose(aligned, [1.0, 0.938191, 0.764842, 0.508622, 0.169967, -0.182205, -0.504846,
                                         -0.787338, -0.942222, -0.980344, -0.936457], atol=2e-6)
    half_pixel = ops.interpolate(row, size=(1, 4), mode="bicubic", align_corners=False).asnumpy()[0, 0, 0]
    np.testing.assert_allclose(half_pixel, [0.968398, 0.332737, -0.641271, -0.947129], atol=2e-6)


# --- activations ------------------------------------------------------------------------------
ACTIVATIONS = [
    ("relu", ops.relu, lambda x: np.maximum(x, 0)),
    ("relu6", ops.relu6, lambda x: np.clip(x, 0, 6)),
    ("leaky_relu", lambda x: ops.leaky_relu(x, 0.1), lambda x: np.where(x > 0, x, 0.1 * x)),
    ("silu", ops.silu, lambda x: x / (1 + np.exp(-x))),
    ("elu", ops.elu, lambda x: np.where(x > 0, x, np.exp(x) - 1)),
    ("selu", ops.selu, lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * (np.exp(x) - 1))),
    ("softplus", ops.softplus, lambda x: np.log1p(np.exp(x))),
    ("mish", ops.mish, lambda x: x * np.tanh(np.log1p(np.exp(x)))),
    ("hardswish", ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6),
    ("hardsigmoid", ops.hardsigmoid, lambda x: np.clip(x + 3, 0, 6) / 6),
    ("hardtanh", ops.hardtanh, lambda x: np.clip(x, -1, 1)),
    ("logsigmoid", ops.logsigmoid, lambda x: -np.log1p(np.exp(-x))),
    ("softsign", ops.softsign, lambda x: x / (1 + np.abs(x))),
    ("celu", ops.celu, lambda x: np.maximum(x, 0) + np.minimum(0, np.exp(x) - 1)),
    ("softmax", ops.softmax, lambda x: np.exp(ref_log_softmax(x, -1))),
    ("log_softmax", ops.log_softmax, lambda x: ref_log_softmax(x, -1)),
    ("softmin", ops.softmin, lambda x: np.exp(ref_log_softmax(-x, -1))),
    ("glu", ops.glu, lambda x: x[:, :2] / (1 + np.exp(-x[:, 2:]))),
    ("prelu", lambda x: ops.prelu(x, T(np.array([0.1, 0.2, 0.3, 0.4]))),
     lambda x: np.where(x > 0, x, x * np.array([0.1, 0.2, 0.3, 0.4]))),
]


@pytest.mark.parametrize("name,function,reference", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_activation_matches_numpy(name, function, reference):
    x = np.array([[-3.0, -0.5, 0.2, 2.5], [1.0, -1.5, 0.0, 7.0]])
    out = function(T(x))
    assert out.dtype == mstype.float64
    np.testing.assert_allclose(out.asnumpy(), reference(x), rtol=1e-6, atol=1e-7)
    if name not in ("relu", "relu6", "hardtanh", "hardswish", "hardsigmoid", "leaky_relu", "prelu"):
        check_grad(function, x + 0.01)


def test_leaky_relu_of_integers_scales_by_the_truncated_slope():
    # recorded on MindSpore 2.10 CPU: alpha is cast to the integer dtype (2.5 -> 2, 0.2 -> 0, -1.5 -> -1)
    x = Tensor(np.array([-6, -11, -1, 3, 0], np.int32))
    for alpha, expected in ((0.2, [0, 0, 0, 3, 0]), (2.5, [-12, -22, -2, 3, 0]), (-1.5, [6, 11, 1, 3, 0])):
        result = ops.leaky_relu(x, alpha)
        assert result.dtype == mstype.int32 and result.asnumpy().tolist() == expected
    assert ops.leaky_relu(x.astype(mstype.int64), 2.5).asnumpy().tolist() == [-12, -22, -2, 3, 0]


def test_activation_keeps_float16_and_rejects_ints():
    assert ops.gelu(Tensor([1.0], mstype.float16)).dtype == mstype.float16
    with pytest.raises(TypeError, match="softmax.*float"):
        ops.softmax(Tensor([1, 2, 3]))
    with pytest.raises(ValueError, match="approximate"):
        ops.gelu(Tensor([1.0]), approximate="fast")


# --- losses -----------------------------------------------------------------------------------
def test_loss_errors():
    with pytest.raises(ValueError, match="reduction"):
        ops.mse_loss(T(np.ones(2)), T(np.ones(2)), reduction="avg")
    with pytest.raises(ValueError, match="target"):
        ops.cross_entropy(T(np.ones((2, 3))), T(np.array([0, 1, 2])))
    with pytest.raises(ValueError, match="weight"):
        ops.cross_entropy(T(np.ones((2, 3))), T(np.array([0, 1])), weight=T(np.ones(2)))
    # a class index out of range is refused eagerly (a compiled gather would clamp it), ignore_index passes
    with pytest.raises(RuntimeError, match=r"'nll_loss'.*\[-3, 3\)"):
        ops.nll_loss(T(np.zeros((2, 3))), T(np.array([0, 3])))
    assert float(ops.nll_loss(T(-np.ones((2, 3))), T(np.array([0, -100]))).asnumpy()) == 1.0
    with pytest.raises(TypeError, match="nll_loss.*integer"):
        ops.nll_loss(T(np.zeros((2, 3))), T(np.array([0.0, 1.0])))


# --- normalisation ----------------------------------------------------------------------------
def test_batch_norm_training_updates_running_statistics():
    x = RNG.standard_normal((4, 3, 2, 2))
    mean, var = T(np.zeros(3)), T(np.ones(3))
    out = ops.batch_norm(T(x), mean, var, T(np.ones(3)), T(np.zeros(3)), training=True, momentum=0.1)
    axes = (0, 2, 3)
    expected = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + 1e-5)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(mean.asnumpy(), 0.1 * x.mean(axes), rtol=1e-10)
    np.testing.assert_allclose(var.asnumpy(), 0.9 + 0.1 * x.var(axes, ddof=1), rtol=1e-10)


# --- linear layers, padding, embedding --------------------------------------------------------
def test_embedding_and_bias_add_errors():
    x, b = RNG.standard_normal((2, 3)), RNG.standard_normal(4)
    table = RNG.standard_normal((5, 2))
    np.testing.assert_allclose(ops.embedding(T(np.array([[4, 0]])), T(table)).asnumpy(), table[[[4, 0]]])
    with pytest.raises(ValueError, match="bias_add"):
        ops.bias_add(T(x), T(b))


def test_ops_work_under_jit():
    x = jnp.asarray(RNG.standard_normal((1, 2, 6, 6)))
    w = jnp.asarray(RNG.standard_normal((3, 2, 3, 3)))

    def net(a, b):
        y = ops.conv2d(Tensor._wrap(a), Tensor._wrap(b), pad_mode="same")
        y = ops.max_pool2d(ops.relu(y), 2)
        y = ops.flatten(y)
        return ops.cross_entropy(y, Tensor._wrap(jnp.array([1])))._value

    np.testing.assert_allclose(float(jax.jit(net)(x, w)), float(net(x, w)), rtol=1e-10)


def test_max_pool_gradient_goes_to_the_first_maximum():
    # MindSpore's MaxPoolGrad routes each window's gradient to one (the first) maximum.
    x = jnp.zeros((1, 1, 2, 4))
    grad = jax.grad(lambda a: jnp.sum(ops.max_pool2d(Tensor._wrap(a), 2)._value))(x)
    np.testing.assert_array_equal(np.asarray(grad)[0, 0], [[1, 0, 1, 0], [0, 0, 0, 0]])
    y = RNG.standard_normal((1, 2, 4, 4, 4))
    np.testing.assert_allclose(ops.max_pool3d(T(y), 2).asnumpy(), y.reshape(1, 2, 2, 2, 2, 2, 2, 2).max(axis=(3, 5, 7)))


def test_mish_half_precision_rounds_once_like_mindspore():
    # tests/fixtures/msops/record_mish_half.py: MindSpore computes float16 Mish in float32 and rounds once
    # (its vectorised exp differs by an ulp on a few inputs, depending on the array length)
    import json
    import os

    data = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "msops", "mish_half.json")))
    x = np.array(data["x"], np.float16)
    out = ops.mish(Tensor(x))
    assert out.dtype == mstype.float16
    expect = np.array(data["out"], np.float16)
    assert np.mean(out.asnumpy() == expect) > 0.99
    np.testing.assert_allclose(out.asnumpy().astype(np.float32), expect.astype(np.float32), rtol=2e-3, atol=1e-6)
