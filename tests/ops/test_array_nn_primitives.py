"""Each array/nn Primitive class gives what its functional op gives, and records its attributes.

Primitives generated from op-table entries (Reshape, Transpose, Concat ...) are checked by the op
test table (``test_op_table.py``).
"""
import warnings

import numpy as np
import pytest

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core import random_state
from sporax.core.tensor import Tensor

RNG = np.random.default_rng(1)
X = Tensor(RNG.standard_normal((2, 3, 4, 4)).astype(np.float32))
M = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
W = Tensor(RNG.standard_normal((5, 3, 3, 3)).astype(np.float32))
IDX = Tensor(np.array([2, 0], np.int32))
LOGITS = Tensor(RNG.standard_normal((4, 3)).astype(np.float32))
LABELS = Tensor(np.array([0, 2, 1, 1], np.int32))
ONEHOT = Tensor(np.eye(3, dtype=np.float32)[[0, 2, 1, 1]])

PAIRS = [
    ("Flatten", lambda: ops.Flatten()(X), lambda: ops.flatten(X)),
    ("Split", lambda: ops.Split(1, 2)(M), lambda: ops.split(M, 2, 1)),
    ("Unstack", lambda: ops.Unstack(1)(M), lambda: ops.unstack(M, 1)),
    ("Meshgrid", lambda: ops.Meshgrid("ij")((IDX, IDX)), lambda: ops.meshgrid(IDX, IDX, indexing="ij")),
    ("Eye", lambda: ops.Eye()(2, 3, mstype.float32), lambda: ops.eye(2, 3, mstype.float32)),
    ("Identity", lambda: ops.Identity()(M), lambda: M),
    ("ReLU", lambda: ops.ReLU()(X), lambda: ops.relu(X)),
    ("ReLU6", lambda: ops.ReLU6()(X * 4), lambda: ops.relu6(X * 4)),
    ("GeLU", lambda: ops.GeLU()(X), lambda: ops.gelu(X, approximate="tanh")),
    ("HSwish", lambda: ops.HSwish()(X), lambda: ops.hardswish(X)),
    ("Softmax", lambda: ops.Softmax(1)(X), lambda: ops.softmax(X, 1)),
    ("LogSoftmax", lambda: ops.LogSoftmax()(X), lambda: ops.log_softmax(X)),
    ("Elu", lambda: ops.Elu(0.5)(X), lambda: ops.elu(X, 0.5)),
    ("BiasAdd", lambda: ops.BiasAdd()(X, Tensor([1.0, 2.0, 3.0])), lambda: ops.bias_add(X, Tensor([1.0, 2.0, 3.0]))),
    ("Conv2D", lambda: ops.Conv2D(5, 3, pad_mode="same", stride=2)(X, W), lambda: ops.conv2d(X, W, stride=2, pad_mode="same")),
    ("Conv2D_pad", lambda: ops.Conv2D(5, 3, pad_mode="pad", pad=1)(X, W), lambda: ops.conv2d(X, W, pad_mode="pad", padding=1)),
    ("MaxPool", lambda: ops.MaxPool(2, 2)(X), lambda: ops.max_pool2d(X, 2, 2)),
    ("AvgPool", lambda: ops.AvgPool(2, 2)(X), lambda: ops.avg_pool2d(X, 2, 2)),
    ("AdaptiveAvgPool2D", lambda: ops.AdaptiveAvgPool2D(2)(X), lambda: ops.adaptive_avg_pool2d(X, 2)),
    ("ResizeNearestNeighbor", lambda: ops.ResizeNearestNeighbor((8, 8))(X), lambda: ops.interpolate(X, size=(8, 8))),
    ("Pad", lambda: ops.Pad(((0, 0), (1, 2)))(M), lambda: ops.pad(M, (1, 2))),
    ("SigmoidCrossEntropyWithLogits", lambda: ops.SigmoidCrossEntropyWithLogits()(LOGITS, ONEHOT),
     lambda: ops.binary_cross_entropy_with_logits(LOGITS, ONEHOT, reduction="none")),
    ("SoftmaxCrossEntropyWithLogits", lambda: ops.SoftmaxCrossEntropyWithLogits()(LOGITS, ONEHOT)[0],
     lambda: ops.cross_entropy(LOGITS, LABELS, reduction="none")),
    ("SparseSoftmaxCrossEntropyWithLogits", lambda: ops.SparseSoftmaxCrossEntropyWithLogits()(LOGITS, LABELS),
     lambda: ops.cross_entropy(LOGITS, LABELS)),
    ("BinaryCrossEntropy", lambda: ops.BinaryCrossEntropy("sum")(ops.sigmoid(LOGITS) if hasattr(ops, "sigmoid") else ops.softmax(LOGITS), ONEHOT),
     lambda: ops.binary_cross_entropy(ops.sigmoid(LOGITS) if hasattr(ops, "sigmoid") else ops.softmax(LOGITS), ONEHOT, reduction="sum")),
    ("SmoothL1Loss", lambda: ops.SmoothL1Loss(0.5)(LOGITS, ONEHOT), lambda: ops.smooth_l1_loss(LOGITS, ONEHOT, 0.5)),
    ("KLDivLoss", lambda: ops.KLDivLoss("sum")(ops.log_softmax(LOGITS), ONEHOT), lambda: ops.kl_div(ops.log_softmax(LOGITS), ONEHOT, "sum")),
]


def _values(result):
    if isinstance(result, (tuple, list)) and any(isinstance(item, Tensor) for item in result):
        return [_values(item) for item in result]
    if isinstance(result, Tensor):
        return (str(result.dtype), result.asnumpy())
    return result


@pytest.mark.parametrize("name,primitive,function", PAIRS, ids=[p[0] for p in PAIRS])
def test_primitive_matches_function(name, primitive, function):
    got, want = _values(primitive()), _values(function())
    if isinstance(want, tuple) and len(want) == 2 and isinstance(want[1], np.ndarray):
        got, want = [got], [want]
    if isinstance(want, list):
        assert len(got) == len(want), name
        for (got_dtype, got_array), (want_dtype, want_array) in zip(got, want):
            assert got_dtype == want_dtype, name
            np.testing.assert_allclose(got_array, want_array, rtol=1e-5, atol=1e-6, err_msg=name)
    else:
        assert got == want, name


def test_stateful_and_random_primitives():
    mean, var = Tensor(np.zeros(3, np.float32)), Tensor(np.ones(3, np.float32))
    y, new_mean, new_var, batch_mean, batch_var = ops.BatchNorm(is_training=True)(
        X, Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32)), mean, var)
    axes = (0, 2, 3)
    np.testing.assert_allclose(batch_mean.asnumpy(), X.asnumpy().mean(axes), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mean.asnumpy(), 0.1 * X.asnumpy().mean(axes), rtol=1e-5, atol=1e-6)
    assert new_mean is mean and y.shape == X.shape
    out, mean_out, var_out = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1)(
        M, Tensor(np.ones(4, np.float32)), Tensor(np.zeros(4, np.float32)))
    np.testing.assert_allclose(out.asnumpy(), ops.layer_norm(M, (4,), eps=1e-7).asnumpy(), rtol=1e-5, atol=1e-5)
    assert mean_out.shape == (3, 1) and var_out.shape == (3, 1)
    random_state.set_seed(4)
    first = ops.StandardNormal(seed=2)((3, 2))
    random_state.set_seed(4)
    np.testing.assert_array_equal(first.asnumpy(), ops.StandardNormal(seed=2)((3, 2)).asnumpy())
    assert ops.UniformReal()((2, 2)).dtype == mstype.float32
    ints = ops.UniformInt()((100,), Tensor(1, mstype.int32), Tensor(4, mstype.int32)).asnumpy()
    assert ints.min() >= 1 and ints.max() <= 3
    dropped, mask = ops.Dropout(keep_prob=0.8)(Tensor(np.ones((50, 50), np.float32)))
    np.testing.assert_allclose(dropped.asnumpy(), mask.asnumpy() / 0.8)
    assert mask.dtype == mstype.float32
    dropped2d, mask2d = ops.Dropout2D(0.5)(X)
    assert mask2d.dtype == mstype.bool_ and dropped2d.shape == X.shape


def test_primitive_attributes_and_print(capsys):
    conv = ops.Conv2D(out_channel=5, kernel_size=3, pad_mode="same")
    assert conv.name == "Conv2D" and conv.attrs["out_channel"] == 5 and conv.attrs["pad_mode"] == "same"
    assert ops.Softmax(axis=0).attrs["axis"] == (0,)  # MindSpore 2.10 stores the axis as a tuple
    assert repr(ops.ReLU()) == "Prim[ReLU]"
    ops.Print()("value:", 3)
    ops.print_("done")
    assert capsys.readouterr().out == "value:\n3\ndone\n"
    with pytest.raises(ValueError, match="Split.*divisible"):
        ops.Split(1, 3)(M)
    with pytest.raises(ValueError, match="pad_mode"):
        ops.MaxPool(2, 2, "full")
    # MindSpore 2.10 on CPU refuses NHWC (GPU-only) and unknown formats with ValueError.
    with pytest.raises(ValueError, match="Conv2D.*'NHWC' format is only supported on the GPU target"):
        ops.Conv2D(5, 3, data_format="NHWC")
    with pytest.raises(ValueError, match="Conv2D.*'format' must be str"):
        ops.Conv2D(5, 3, data_format="HWCN")


def test_primitive_placement_attributes_as_mindspore():
    # MindSpore 2.10 (the docstring examples of Primitive.set_device/set_stage/place and add_prim_attr):
    # each records an attribute, readable on the instance and shown in the repr.
    add = ops.Add()
    assert add.set_device("GPU") is add and add.primitive_target == "GPU"
    assert repr(add) == "Prim[Add]<primitive_target=GPU>"
    assert repr(ops.Add().set_stage(0)) == "Prim[Add]<stage=0>"
    assert ops.ReLU().add_prim_attr("foo", 3).foo == 3
    matmul = ops.MatMul(transpose_a=True)
    assert matmul.place("MS_WORKER", 0) is None
    assert repr(matmul) == "Prim[MatMul]<transpose_a=True, transpose_b=False, ms_role=MS_WORKER, rank_id=0>"
    assert matmul.del_prim_attr("rank_id") is matmul and not hasattr(matmul, "rank_id")
    with pytest.raises(RuntimeError, match=r"^Call 'add_attr' to add attribute to primitive 'Add' failed, value "
                                           r"of attribute 'primitive_target' must be CPU\|GPU\|Ascend but got TPU$"):
        ops.Add().set_device("TPU")
    with pytest.raises(ValueError, match=r"^For 'Primitive.place', the 'role' must be str and must be in "
                                         r"'MS_WORKER', but got 'MS_X'.$"):
        ops.MatMul().place("MS_X", 0)
    with pytest.raises(ValueError, match=r"^For 'Primitive.place', the 'rank_id' must be int and must >= 0, "
                                         r"but got '-1' with type 'int'.$"):
        ops.MatMul().place("MS_WORKER", -1)
    with pytest.raises(TypeError, match=r"^For 'Primitive.place', the 'rank_id' must be int, but got 'str'$"):
        ops.MatMul().place("MS_WORKER", "a")


def test_in_place_scatter_updates_the_parameter():
    from sporax.core.parameter import Parameter

    weight = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="w")
    result = ops.scatter_add(weight, Tensor(np.array([0, 0], np.int32)), Tensor(np.ones((2, 2), np.float32)))
    assert type(result) is Tensor and result is not weight  # MindSpore 2.10: a new Tensor of the stored value
    np.testing.assert_array_equal(result.asnumpy(), [[2, 2], [0, 0], [0, 0]])
    np.testing.assert_array_equal(weight.asnumpy(), [[2, 2], [0, 0], [0, 0]])
    ops.ScatterNdUpdate()(weight, Tensor(np.array([[2, 1]], np.int32)), Tensor(np.array([7.0], np.float32)))
    ops.scatter_update(weight, Tensor(np.array([1], np.int32)), Tensor(np.full((1, 2), 3.0, np.float32)))
    np.testing.assert_array_equal(weight.asnumpy(), [[2, 2], [3, 3], [0, 7]])
    with pytest.raises(TypeError, match="scatter_add.*Parameter"):
        ops.scatter_add(np.zeros(2), Tensor(np.array([0])), Tensor(np.ones(1)))


def test_print_inside_jit_prints_when_the_program_runs(capsys):
    import jax
    import jax.numpy as jnp

    def body(array):
        ops.print_("value:", Tensor._wrap(array))
        return array + 1

    jax.jit(body)(jnp.arange(2, dtype=jnp.int32)).block_until_ready()
    jax.effects_barrier()
    out = capsys.readouterr().out
    assert out.startswith("value:\n") and "Int32" in out


@pytest.mark.parametrize("call, match", [
    (lambda: ops.MaxPool(2, 2, data_format="NHWC")(Tensor(np.ones((1, 4, 4, 2), np.float32))), "'NHWC' format"),
    (lambda: ops.AvgPool(2, 2, data_format="NHWC")(Tensor(np.ones((1, 4, 4, 2), np.float32))), "'NHWC' format"),
    (lambda: ops.MaxPool3D(2, 2, data_format="NDHWC")(Tensor(np.ones((1, 1, 2, 2, 2), np.float32))), "NCDHW"),
    (lambda: ops.AvgPool3D(2, 2, data_format="NDHWC")(Tensor(np.ones((1, 1, 2, 2, 2), np.float32))), "NCDHW"),
    # MindSpore refuses these when they are made: MaxPool/MaxPoolWithArgmax and the Conv2D family name themselves
    (lambda: ops.MaxPool(2, 2, data_format="NHWC"), "For 'MaxPool', the 'NHWC' format .* GPU target"),
    (lambda: ops.MaxPoolWithArgmax(2, 2, data_format="NHWC"), "For 'MaxPoolWithArgmax', the 'NHWC' format"),
    (lambda: ops.Conv2DTranspose(3, 2, data_format="NHWC"), "For 'Conv2DTranspose', the 'NHWC' format"),
    (lambda: ops.Conv2DBackpropInput(3, 2, data_format="NHWC"), "For 'Conv2DBackpropInput', the 'NHWC' format"),
    (lambda: ops.Conv3D(3, 2, data_format="NDHWC"), r"For 'Conv3D', the 'data_format' must be .*\['NCDHW'\]"),
    (lambda: ops.MaxUnpool2D(2, data_format="NCDHW"), r"MaxUnpool2D.*must be in '\['NCHW', 'NHWC'\]'"),
    # BatchNorm's CPU kernel fails when it runs (RuntimeError there); sporax refuses it then, saying why
    (lambda: ops.BatchNorm(data_format="NHWC")(*[Tensor(np.ones(shape, np.float32))
                                                 for shape in ((1, 2, 2, 3), (3,), (3,), (3,), (3,))]),
     "For 'BatchNorm', the 'NHWC' format .* GPU target.*data_format='NCHW'"),
])
def test_pool_data_format_refusals_match_mindspore_on_cpu(call, match):
    # MindSpore 2.10 on CPU: MaxPool 'NHWC' is GPU-only (ValueError; AvgPool's kernel raises RuntimeError, sporax
    # refuses it up front with the same ValueError); the 3-D pools take 'NCDHW' only (ValueError).
    with pytest.raises(ValueError, match=match):
        call()


def _numpy_unpool_nchw(values, argmax, out_hw):
    out = np.zeros(values.shape[:2] + (out_hw[0] * out_hw[1],), values.dtype)
    for n, c in np.ndindex(*values.shape[:2]):
        out[n, c, argmax[n, c].ravel()] = values[n, c].ravel()
    return out.reshape(values.shape[:2] + tuple(out_hw))


def test_max_unpool_channels_last_runs_as_mindspore_does_on_cpu():
    # MindSpore 2.10 runs MaxUnpool2D/3D with 'NHWC'/'NDHWC' on CPU: x, argmax, output_shape and the result are
    # channels-last, argmax counts positions within each channel's plane (its values equal NCHW's, transposed).
    rng = np.random.default_rng(1)
    values = rng.random((2, 3, 2, 2)).astype(np.float32)
    argmax = np.stack([rng.permutation(25)[:4] for _ in range(6)]).reshape(2, 3, 2, 2).astype(np.int64)
    last = lambda a: Tensor(np.ascontiguousarray(a.transpose(0, 2, 3, 1)))
    out = ops.MaxUnpool2D(2, 2, output_shape=(2, 5, 5, 3), data_format="NHWC")(last(values), last(argmax))
    expected = _numpy_unpool_nchw(values, argmax, (5, 5)).transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    values3 = rng.random((1, 2, 1, 1, 1)).astype(np.float32)
    argmax3 = np.array([5, 2], np.int64).reshape(1, 2, 1, 1, 1)
    out3 = ops.MaxUnpool3D(2, 2, data_format="NDHWC")(Tensor(values3.reshape(1, 1, 1, 1, 2)),
                                                       Tensor(argmax3.reshape(1, 1, 1, 1, 2))).asnumpy()
    assert out3.shape == (1, 2, 2, 2, 2)
    assert out3.reshape(8, 2)[5, 0] == values3.ravel()[0] and out3.reshape(8, 2)[2, 1] == values3.ravel()[1]
    assert np.count_nonzero(out3) == 2


def test_batch_norm_channels_last_on_the_gpu_target(monkeypatch):
    # MindSpore offers BatchNorm 'NHWC' on GPU: the normalisation over the last axis
    from sporax.core import context
    monkeypatch.setitem(context._context, "device_target", "GPU")
    x = np.random.default_rng(2).random((2, 3, 3, 4)).astype(np.float32)
    ones, zeros = Tensor(np.ones(4, np.float32)), Tensor(np.zeros(4, np.float32))
    y, *_, batch_mean, _ = ops.BatchNorm(is_training=True, data_format="NHWC")(Tensor(x), ones, zeros, zeros, ones)
    mean, var = x.mean((0, 1, 2)), x.var((0, 1, 2))
    np.testing.assert_allclose(y.asnumpy(), (x - mean) / np.sqrt(var + 1e-5), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(batch_mean.asnumpy(), mean, rtol=1e-5)


def test_bce_with_logits_rounds_large_logits_as_mindspore_cpu():
    """Recorded on MindSpore 2.10 (CPU): nn.BCEWithLogitsLoss(reduction='none') with target 0 on these logits
    gives 11, 10, 3 and 7 steps of 2**-20 (its softplus takes log(1 + exp(-|x|)), no log1p; log1p gives
    12, 11, 4 and 8 steps). mindyolo's YOLOv8 classification loss sums ~1e5 of them."""
    from sporax import nn as sporax_nn

    logits = np.array([-11.418175, -11.510628, -12.606115, -11.847788], np.float32)
    loss = sporax_nn.BCEWithLogitsLoss(reduction="none")(Tensor(logits), Tensor(np.zeros(4, np.float32)))
    np.testing.assert_array_equal(loss.asnumpy(), np.array([11, 10, 3, 7], np.float32) * 2.0 ** -20)


def test_softplus_primitive_has_no_threshold_and_prints_no_overflow_warning_in_float16():
    # mindchemistry's float16 Matformer applies ops.Softplus(); MindSpore 2.10 (recorded, CPU) prints nothing.
    # sporax's "no threshold" was 1e30, whose cast to Float16 printed NumPy's "overflow encountered in cast".
    x = Tensor(np.array([-2, 0, 3, 20, 30, 60000], np.float16))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = ops.Softplus()(x)
    assert result.dtype == mstype.float16
    assert result.asnumpy().tolist() == [0.126953125, 0.693359375, 3.048828125, 20.0, 30.0, 60000.0]
