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


def ref_cross_entropy(logits, target, weight=None, ignore_index=-100, smoothing=0.0):
    logp = ref_log_softmax(logits, 1)
    classes = logits.shape[1]
    w = np.ones(classes) if weight is None else weight
    losses, weights = [], []
    for row, t in zip(logp, target):
        if t == ignore_index:
            continue
        nll = -row[t] * w[t]
        smooth = -(row * w).sum() / classes
        losses.append((1 - smoothing) * nll + smoothing * smooth)
        weights.append(w[t])
    return np.sum(losses) / np.sum(weights)


# --- gradient check ---------------------------------------------------------------------------
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
    # Away from the borders (where MindSpore drops the outside taps) cubic reproduces a ramp.
    np.testing.assert_allclose(wide[0, 0, 0, 2:-2], np.linspace(0, 7, 15)[2:-2], atol=1e-12)
    np.testing.assert_allclose(wide[0, 0, 0, [0, -1]], [0.0, 7.0], atol=1e-12)


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


def test_activation_keeps_float16_and_rejects_ints():
    assert ops.gelu(Tensor([1.0], mstype.float16)).dtype == mstype.float16
    with pytest.raises(TypeError, match="softmax.*float"):
        ops.softmax(Tensor([1, 2, 3]))
    with pytest.raises(ValueError, match="approximate"):
        ops.gelu(Tensor([1.0]), approximate="fast")


# --- losses -----------------------------------------------------------------------------------
def test_cross_entropy_matches_numpy():
    logits = RNG.standard_normal((5, 4))
    target = np.array([0, 3, -100, 1, 3])
    weight = np.array([1.0, 2.0, 0.5, 3.0])
    for kwargs in (dict(), dict(weight=weight), dict(weight=weight, label_smoothing=0.2), dict(label_smoothing=0.1)):
        tensor_kwargs = {k: T(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
        out = ops.cross_entropy(T(logits), T(target), **tensor_kwargs)
        expected = ref_cross_entropy(logits, target, kwargs.get("weight"), -100, kwargs.get("label_smoothing", 0.0))
        np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-10)


def test_loss_gradients():
    logits = RNG.standard_normal((4, 3))
    target = T(np.array([0, 2, 1, 2]))
    check_grad(lambda a: ops.cross_entropy(a, target, label_smoothing=0.1), logits)
    check_grad(lambda a: ops.nll_loss(ops.log_softmax(a, 1), target), logits)
    other = RNG.standard_normal((4, 3))
    check_grad(lambda a: ops.mse_loss(a, T(other)), logits)
    check_grad(lambda a: ops.smooth_l1_loss(a, T(other), reduction="mean"), logits)
    check_grad(lambda a: ops.binary_cross_entropy_with_logits(a, T((other > 0) * 1.0)), logits)
    check_grad(lambda a: ops.kl_div(ops.log_softmax(a, 1), T(np.full((4, 3), 1 / 3))), logits)


def test_loss_errors():
    with pytest.raises(ValueError, match="reduction"):
        ops.mse_loss(T(np.ones(2)), T(np.ones(2)), reduction="avg")
    with pytest.raises(ValueError, match="target"):
        ops.cross_entropy(T(np.ones((2, 3))), T(np.array([0, 1, 2])))
    with pytest.raises(ValueError, match="weight"):
        ops.cross_entropy(T(np.ones((2, 3))), T(np.array([0, 1])), weight=T(np.ones(2)))


# --- normalisation ----------------------------------------------------------------------------
def test_layer_norm_and_gradient():
    x = RNG.standard_normal((2, 3, 4))
    gamma, beta = RNG.standard_normal(4), RNG.standard_normal(4)
    out = ops.layer_norm(T(x), (4,), T(gamma), T(beta)).asnumpy()
    expected = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * gamma + beta
    np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-9)
    check_grad(lambda a: ops.layer_norm(a, (3, 4), T(np.ones((3, 4))), None) * T(np.arange(24.0).reshape(2, 3, 4)), x)


def test_batch_norm_training_updates_running_statistics():
    x = RNG.standard_normal((4, 3, 2, 2))
    mean, var = T(np.zeros(3)), T(np.ones(3))
    out = ops.batch_norm(T(x), mean, var, T(np.ones(3)), T(np.zeros(3)), training=True, momentum=0.1)
    axes = (0, 2, 3)
    expected = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + 1e-5)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(mean.asnumpy(), 0.1 * x.mean(axes), rtol=1e-10)
    np.testing.assert_allclose(var.asnumpy(), 0.9 + 0.1 * x.var(axes, ddof=1), rtol=1e-10)


def test_batch_norm_gradient():
    x = RNG.standard_normal((3, 2, 2, 2))

    def train_norm(a):
        return ops.batch_norm(a, T(np.zeros(2)), T(np.ones(2)), T(np.array([1.5, 0.5])), T(np.zeros(2)),
                              training=True) * T(np.arange(24.0).reshape(3, 2, 2, 2))

    check_grad(train_norm, x)


def test_group_norm_matches_numpy():
    x = RNG.standard_normal((2, 4, 3))
    out = ops.group_norm(T(x), 2).asnumpy()
    grouped = x.reshape(2, 2, -1)
    expected = ((grouped - grouped.mean(-1, keepdims=True)) / np.sqrt(grouped.var(-1, keepdims=True) + 1e-5))
    np.testing.assert_allclose(out, expected.reshape(x.shape), rtol=1e-6, atol=1e-9)


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


def test_margin_losses_match_numpy():
    a, p, n = (RNG.standard_normal((4, 3)) for _ in range(3))
    def dist(u, v):
        return np.sqrt(np.sum((u - v + 1e-6) ** 2, -1))
    expected = np.maximum(dist(a, p) - dist(a, n) + 1.0, 0).mean()
    np.testing.assert_allclose(ops.triplet_margin_loss(T(a), T(p), T(n)).asnumpy(), expected, rtol=1e-10)
    y = np.sign(RNG.standard_normal((4, 3)))
    np.testing.assert_allclose(ops.soft_margin_loss(T(a), T(y)).asnumpy(), np.log1p(np.exp(-y * a)).mean(), rtol=1e-10)
    np.testing.assert_allclose(ops.SoftMarginLoss("sum")(T(a), T(y)).asnumpy(), np.log1p(np.exp(-y * a)).sum(),
                               rtol=1e-10)
    check_grad(lambda u: ops.triplet_margin_loss(u, T(p), T(n)), a)


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
