"""Dense, Flatten, Unflatten, Identity, Dropout, Pad, Embedding and the activations vs NumPy/MindSpore."""
import math

import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops
from sporax.core import dtype as mstype
from sporax.core.random_state import set_seed
from sporax.core.tensor import Tensor
from tests.nn.helpers import check_gradient, oracle_layers

ORACLE = oracle_layers()
RNG = np.random.default_rng(0)


def test_dense_forward_matches_numpy_for_any_leading_shape():
    layer = nn.Dense(3, 4)
    weight, bias = layer.weight.asnumpy(), layer.bias.asnumpy()
    for shape in ((5, 3), (2, 5, 3), (3,)):
        x = RNG.standard_normal(shape).astype(np.float32)
        np.testing.assert_allclose(layer(Tensor(x)).asnumpy(), x @ weight.T + bias, rtol=1e-5, atol=1e-6)


def test_dense_defaults_and_initial_values():
    layer = nn.Dense(100, 50)
    assert layer.weight.shape == (50, 100) and layer.bias.shape == (50,)
    bound = 1 / math.sqrt(100)  # HeUniform(sqrt(5)) and the bias's uniform share this bound
    assert np.abs(layer.weight.asnumpy()).max() <= bound and np.abs(layer.bias.asnumpy()).max() <= bound
    assert layer.weight.asnumpy().std() == pytest.approx(bound / math.sqrt(3), rel=0.1)
    weight = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    given = nn.Dense(3, 2, weight_init=weight, bias_init="zeros")
    np.testing.assert_array_equal(given.weight.asnumpy(), weight.asnumpy())
    np.testing.assert_array_equal(given.bias.asnumpy(), np.zeros(2))
    assert nn.Dense(3, 4, dtype=mstype.float16).weight.dtype == mstype.float16
    assert nn.Dense(3, 4, has_bias=False).bias is None


def test_dense_activation_and_errors():
    layer = nn.Dense(2, 3, activation="relu")
    x = RNG.standard_normal((4, 2)).astype(np.float32)
    expected = np.maximum(x @ layer.weight.asnumpy().T + layer.bias.asnumpy(), 0)
    np.testing.assert_allclose(layer(Tensor(x)).asnumpy(), expected, rtol=1e-5, atol=1e-6)
    assert isinstance(nn.Dense(2, 3, activation=nn.Tanh()).activation, nn.Tanh)
    # a Primitive is an activation as well (mindflow's get_activation('sin') gives ops.Sin())
    layer = nn.Dense(2, 3, activation=ops.Sin())
    expected = np.sin(x @ layer.weight.asnumpy().T + layer.bias.asnumpy())
    np.testing.assert_allclose(layer(Tensor(x)).asnumpy(), expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match="must be str or Cell or Primitive, but got int"):
        nn.Dense(2, 2, activation=3)
    with pytest.raises(ValueError, match="weight init shape"):
        nn.Dense(3, 4, weight_init=Tensor(np.ones((3, 4), np.float32)))
    with pytest.raises(ValueError, match="in_channels=3"):
        nn.Dense(3, 4)(Tensor(np.ones((2, 5), np.float32)))
    with pytest.raises(KeyError):
        nn.Dense(2, 2, activation="nope")
    with pytest.raises(TypeError, match="Tensor"):
        nn.Dense(2, 2)(np.ones((1, 2), np.float32))


def test_dense_gradients_match_finite_differences():
    layer = nn.Dense(3, 2, dtype=mstype.float64)
    x = RNG.standard_normal((4, 3))
    check_gradient(layer, x, [layer.weight, layer.bias])


def test_flatten_unflatten_identity():
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    assert nn.Flatten()(x).shape == (2, 12)
    assert nn.Flatten(0, 1)(x).shape == (6, 4)
    np.testing.assert_array_equal(nn.Flatten()(x).asnumpy(), np.arange(24).reshape(2, 12))
    with pytest.raises(ValueError, match="out of range"):
        nn.Flatten()(Tensor(np.ones(3, np.float32)))
    assert nn.Unflatten(1, (3, 1))(x).shape == (2, 3, 1, 4)
    assert nn.Identity(1, a=2)(x) is x


def test_dropout_train_eval_and_arguments():
    x = Tensor(np.ones((200, 50), np.float32))
    drop = nn.Dropout(p=0.2)
    assert repr(drop) == "Dropout(p=0.2)" and repr(nn.Dropout()) == "Dropout(keep_prob=0.5)"
    assert drop(x) is x  # not training: the input itself
    # MindSpore's layer takes its kernel's seeds when built: a layer built after the same set_seed repeats
    set_seed(1)
    drop = nn.Dropout(p=0.2).set_train()
    values = drop(x).asnumpy()
    assert set(np.unique(values)) <= {0.0, np.float32(1 / 0.8)}
    assert (values == 0).mean() == pytest.approx(0.2, abs=0.02)
    set_seed(1)
    np.testing.assert_array_equal(nn.Dropout(p=0.2).set_train()(x).asnumpy(), values)
    keep_all = nn.Dropout(p=0.0).set_train()
    np.testing.assert_array_equal(keep_all(x).asnumpy(), x.asnumpy())
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        nn.Dropout(p=1.0)
    with pytest.raises(TypeError, match="keep_prob"):
        nn.Dropout(keep_prob=0)


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad_matches_mindspore(mode):
    paddings = ((1, 1), (2, 1)) if mode == "CONSTANT" else ((0, 1), (2, 2))
    output = nn.Pad(paddings, mode)(Tensor(ORACLE["pad/x"])).asnumpy()
    np.testing.assert_array_equal(output, ORACLE[f"pad/{mode}"])


def test_pad_errors():
    with pytest.raises(ValueError, match="rank"):
        nn.Pad(((1, 1),))(Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(ValueError, match="mode"):
        nn.Pad(((1, 1),), "WRAP")


def test_embedding_lookup_one_hot_and_padding_idx():
    layer = nn.Embedding(10, 3, padding_idx=2)
    table = layer.embedding_table.asnumpy()
    assert layer.embedding_table.shape == (10, 3) and np.all(table[2] == 0)
    assert table.std() == pytest.approx(0.01, rel=0.5)
    ids = np.array([[1, 2], [9, 0]], np.int32)
    np.testing.assert_array_equal(layer(Tensor(ids)).asnumpy(), table[ids])
    one_hot = nn.Embedding(10, 3, use_one_hot=True, embedding_table=Tensor(table))
    np.testing.assert_allclose(one_hot(Tensor(ids)).asnumpy(), table[ids], rtol=1e-6)
    with pytest.raises(TypeError, match="integer"):
        layer(Tensor(np.ones(2, np.float32)))
    lookup = nn.Embedding(4, 2, embedding_table=Tensor(RNG.standard_normal((4, 2))), dtype=mstype.float64)
    gradient = check_gradient(lookup, np.array([1, 1, 3]), [lookup.embedding_table], wrt_input=False)[0]
    assert np.all(gradient[[0, 2]] == 0)



def test_embedding_negative_ids_wrap_in_the_lookup_and_give_zero_rows_one_hot():
    # MindSpore 2.10 (PYNATIVE and GRAPH): the gather lookup reads id -1 as the last row; the one-hot lookup's
    # row for a negative id is all zeros, so its output and its table gradient there are zeros
    table = Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    ids = Tensor(np.array([-1, 0, 3, -4, -1], np.int32))
    weights = Tensor(np.arange(10, dtype=np.float32).reshape(5, 2))
    gather = nn.Embedding(4, 2, embedding_table=table)
    np.testing.assert_array_equal(gather(ids).asnumpy(), [[6, 7], [0, 1], [6, 7], [0, 1], [6, 7]])
    one_hot = nn.Embedding(4, 2, use_one_hot=True, embedding_table=table)
    np.testing.assert_array_equal(one_hot(ids).asnumpy(), [[0, 0], [0, 1], [6, 7], [0, 0], [0, 0]])
    grad = ms.grad(lambda i: (one_hot(i) * weights).sum(), None, one_hot.trainable_params())(ids)[0]
    np.testing.assert_array_equal(grad.asnumpy(), [[2, 3], [0, 0], [0, 0], [4, 5]])

ACTIVATIONS = {
    "ReLU": nn.ReLU, "ReLU6": nn.ReLU6, "LeakyReLU": nn.LeakyReLU, "LeakyReLU_0.1": lambda: nn.LeakyReLU(0.1),
    "GELU": nn.GELU, "GELU_exact": lambda: nn.GELU(False), "SiLU": nn.SiLU, "Sigmoid": nn.Sigmoid, "Tanh": nn.Tanh,
    "Softmax": nn.Softmax, "Softmax_0": lambda: nn.Softmax(0), "LogSoftmax": nn.LogSoftmax, "ELU": nn.ELU,
    "HSwish": nn.HSwish, "HSigmoid": nn.HSigmoid, "Mish": nn.Mish, "LogSigmoid": nn.LogSigmoid,
    "Hardtanh": nn.Hardtanh, "Softsign": nn.Softsign, "Tanhshrink": nn.Tanhshrink, "Softmin": nn.Softmin,
    "SeLU": nn.SeLU, "CELU": lambda: nn.CELU(0.5), "PReLU": nn.PReLU,
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_matches_mindspore_and_keeps_dtype(name):
    layer = ACTIVATIONS[name]()
    output = layer(Tensor(ORACLE["act/x"]))
    # MindSpore's CPU tanh is accurate to about 5e-5; everything else agrees to float32 rounding.
    tolerance = 1e-4 if name in ("Tanh", "Tanhshrink") else 3e-6
    np.testing.assert_allclose(output.asnumpy(), ORACLE[f"act/{name}"], rtol=tolerance, atol=tolerance)
    assert output.dtype == mstype.float32
    assert repr(layer) == f"{type(layer).__name__}()"


@pytest.mark.parametrize("name", ["GELU", "SiLU", "Softmax", "LogSoftmax", "ELU", "Mish", "LeakyReLU", "PReLU"])
def test_activation_gradient_matches_finite_differences(name):
    layer = ACTIVATIONS[name]()
    x = RNG.standard_normal((3, 4)) + 0.01  # float64, away from kinks
    check_gradient(layer, x)


def test_activation_dtypes_and_errors():
    ints = Tensor(np.array([-7, -2, 0, 3], np.int32))
    np.testing.assert_array_equal(nn.ReLU()(ints).asnumpy(), [0, 0, 0, 3])
    # MindSpore 2.10 casts alpha (0.2) to the integer dtype first: 0, so negatives give 0 (recorded: [-5, -1, 0, 3] -> [0, 0, 0, 3])
    np.testing.assert_array_equal(nn.LeakyReLU()(ints).asnumpy(), [0, 0, 0, 3])
    half = nn.GELU()(Tensor(np.ones(3, np.float16)))
    assert half.dtype == mstype.float16
    with pytest.raises(TypeError, match="must be a float or complex Tensor"):
        nn.Sigmoid()(ints)
    assert isinstance(nn.get_activation("relu"), nn.ReLU) and nn.get_activation(None) is None
    prelu = nn.PReLU(3, 0.1)
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    np.testing.assert_allclose(prelu(Tensor(x)).asnumpy(), np.where(x >= 0, x, 0.1 * x), rtol=1e-6)
    assert prelu.w.name == "a" and prelu.w.shape == (3,)


def test_linear_dropout2d_pixel_shuffle():
    linear = nn.Linear(3, 4)
    assert repr(linear) == "Linear(input_features=3, output_features=4, has_bias=True)"
    assert repr(nn.Linear(3, 4, bias=False)) == "Linear(input_features=3, output_features=4)"
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    np.testing.assert_allclose(linear(Tensor(x)).asnumpy(), x @ linear.weight.asnumpy().T + linear.bias.asnumpy(),
                               rtol=1e-5, atol=1e-6)
    drop = nn.Dropout2d(0.5)
    ones = Tensor(np.ones((8, 16, 2, 2), np.float32))
    assert drop(ones) is ones and repr(drop) == "Dropout2d(p=0.5)"
    values = drop.set_train()(ones).asnumpy()
    assert set(np.unique(values)) <= {0.0, 2.0} and np.all(values == values[:, :, :1, :1])
    assert 0.3 < (values == 0).mean() < 0.7
    shuffled = nn.PixelShuffle(2)(Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2))).asnumpy()
    np.testing.assert_array_equal(shuffled[0, 0], [[0, 4, 1, 5], [8, 12, 9, 13], [2, 6, 3, 7], [10, 14, 11, 15]])
    with pytest.raises(ValueError, match="PixelShuffle"):
        nn.PixelShuffle(2)(Tensor(np.ones((1, 3, 2, 2), np.float32)))


def test_upsample_matches_mindspore():
    x = Tensor(np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4))
    nearest = nn.Upsample(size=(6, 8))(x).asnumpy()
    np.testing.assert_array_equal(nearest[0, 0, :2], [[0, 0, 1, 1, 2, 2, 3, 3]] * 2)
    # Row 1 of MindSpore 2.10's outputs for size (5, 6):
    corners = nn.Upsample(size=(5, 6), mode="bilinear", align_corners=True)(x).asnumpy()
    np.testing.assert_allclose(corners[0, 0, 1], [2.0, 2.6, 3.2, 3.8, 4.4, 5.0], rtol=1e-6)
    half_pixel = nn.Upsample(size=(5, 6), mode="bilinear")(x).asnumpy()
    np.testing.assert_allclose(half_pixel[0, 0, 1], [1.6, 2.1, 2.766667, 3.4333334, 4.1, 4.6], rtol=1e-6)
    assert repr(nn.Upsample(scale_factor=2.0)) == "Upsample()"


@pytest.mark.parametrize("mode", [0, 1])
def test_float16_dense_rounds_once_in_graph_mode(mode):
    """A Float16 Dense (to_float): MindSpore 2.10's GRAPH_MODE fuses MatMul and BiasAdd, adding the bias to the
    Float32 product and rounding once; PyNative rounds the product, then the sum (recorded on CPU: 5x16 -> 8,
    plain and with relu, and a 2x5x16 input; GRAPH agreed with the once-rounded value everywhere, PyNative with
    the twice-rounded one, and they differ in 35% of the outputs). Named PyNative/Graph difference."""
    import sporax as ms

    rng = np.random.default_rng(0)
    weight, bias = rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal(8).astype(np.float32)
    x = rng.standard_normal((5, 16)).astype(np.float16)
    product = x.astype(np.float32) @ weight.astype(np.float16).astype(np.float32).T
    once = (product + bias.astype(np.float16).astype(np.float32)).astype(np.float16)
    twice = product.astype(np.float16) + bias.astype(np.float16)
    assert (once != twice).mean() > 0.3
    expected = once if mode == ms.GRAPH_MODE else twice
    ms.set_context(mode=mode)
    try:
        for activation, data, reference in [(None, x, expected), ("relu", x, np.maximum(expected, 0)),
                                            (None, np.stack([x, x]), np.stack([expected, expected]))]:
            layer = nn.Dense(16, 8, weight_init=Tensor(weight), bias_init=Tensor(bias), activation=activation)
            output = layer.to_float(mstype.float16)(Tensor(data))
            assert output.dtype == mstype.float16
            np.testing.assert_array_equal(output.asnumpy(), reference)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("mode", ["PYNATIVE", "GRAPH"])
def test_dense_and_its_ops_promote_no_dtype(mode):
    """Recorded on MindSpore 2.10 CPU (the mixed-precision tutorial's NetworkFP16Manual feeds Float16 into a
    Float32 nn.Dense): every dtype mismatch of Dense / ops.dense / ops.bias_add is a TypeError, both modes."""
    from sporax.core import context

    previous = context.get_context("mode")
    context.set_context(mode=getattr(context, f"{mode}_MODE"))
    ones = lambda shape, dtype: Tensor(np.ones(shape), dtype)  # noqa: E731
    try:
        with pytest.raises(TypeError, match=r"^For 'MatMul', the type of 'x2' should be same as 'x1', but got 'x1' "
                                            r"with type Tensor\[Float16\] and 'x2' with type Tensor\[Float32\]\."):
            nn.Dense(4, 3)(ones((2, 4), mstype.float16))
        with pytest.raises(TypeError, match=r"'x1' with type Tensor\[Int32\] and 'x2' with type Tensor\[Float32\]"):
            nn.Dense(4, 3, has_bias=False)(ones((2, 4), mstype.int32))
        with pytest.raises(TypeError, match=r"'x1' with type Tensor\[Float32\] and 'x2' with type Tensor\[Float16\]"):
            nn.Dense(4, 3, dtype=mstype.float16)(ones((2, 4), mstype.float32))
        with pytest.raises(TypeError, match=r"^For 'Dense', the type of 'x2' should be same as 'x1', but got 'x1' "
                                            r"with type Tensor\[Float32\] and 'x2' with type Tensor\[Float16\]\."):
            ops.dense(ones((2, 4), mstype.float32), ones((3, 4), mstype.float16))
        with pytest.raises(TypeError, match=r"^For Dense, all dtypes should be the same, but got 'input' with "
                                            r"dtype: Float32 and 'bias' with dtype: Float16\."):
            ops.dense(ones((2, 4), mstype.float32), ones((3, 4), mstype.float32), ones((3,), mstype.float16))
        with pytest.raises(TypeError, match=r"^For primitive\[BiasAdd\], the input type must be same\."):
            ops.bias_add(ones((2, 3), mstype.float32), ones((3,), mstype.float16))
        # to_float casts the input and computes in Float16 (no error), as MindSpore
        assert nn.Dense(4, 3).to_float(mstype.float16)(ones((2, 4), mstype.float32)).dtype == mstype.float16
    finally:
        context.set_context(mode=previous)


def test_mint_linear_names_the_dense_kernel_in_its_dtype_error():
    # recorded from MindSpore 2.10 (a fresh process): mint.nn.Linear(2, 2) on a Float64 input
    with pytest.raises(TypeError, match=r"^For 'Dense', the type of 'x2' should be same as 'x1', but got 'x1' with "
                                        r"type Tensor\[Float64\] and 'x2' with type Tensor\[Float32\]\."):
        ms.mint.nn.Linear(2, 2)(Tensor(np.ones((1, 2)), mstype.float64))


def test_channel_dropouts_print_the_kept_share_as_mindspore():
    # recorded from MindSpore 2.10: Dropout2d/Dropout3d print p as 1 - p; Dropout1d prints nothing
    shown = [repr(nn.Dropout2d(0.2)), repr(nn.Dropout3d(0.1)), repr(nn.Dropout3d()), repr(nn.Dropout1d(0.25)),
             repr(nn.Dropout(p=0.3)), repr(nn.Dropout(keep_prob=0.6))]
    assert shown == ["Dropout2d(p=0.8)", "Dropout3d(p=0.9)", "Dropout3d(p=0.5)", "Dropout1d()", "Dropout(p=0.3)",
                     "Dropout(keep_prob=0.6)"]
