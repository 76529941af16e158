"""The Primitive attributes MindSpore 2.10's Cells hold, as recorded there (``vars(cell)`` values that are
Primitives), and what those attributes compute on sporax: model-zoo code shards them (FCN8s'
``MaxPool2d.max_pool.shard(...)``) or calls them in its own construct."""
import numpy as np
import pytest

from sporax import nn, ops
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor

RNG = np.random.default_rng(1)
X = Tensor(RNG.standard_normal((2, 3, 8, 8)).astype(np.float32))
X1 = Tensor(RNG.standard_normal((2, 3, 9)).astype(np.float32))
X3 = Tensor(RNG.standard_normal((1, 3, 5, 6, 5)).astype(np.float32))
_PARAMS = [Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")]

# Recorded on MindSpore 2.10 CPU: {attribute: Primitive class} for each Cell built as below.
_LOSS = {"reduce_mean": "ReduceMean", "reduce_sum": "ReduceSum", "mul": "Mul", "cast": "Cast"}
_BATCH_NORM = {"shape": "Shape", "reduce_mean": "ReduceMean", "square": "Square", "sqrt": "Sqrt", "cast": "Cast",
               "dtype": "DType", "reshape": "Reshape", "bn_train": "BatchNorm", "bn_infer": "BatchNorm",
               "sub_mean": "Sub", "sub_var": "Sub", "mul_mean": "Mul", "mul_var": "Mul", "assign_sub_mean": "AssignSub",
               "assign_sub_var": "AssignSub"}
RECORDED = [
    (lambda: nn.Dense(3, 4), {"reshape": "Reshape", "shape_op": "Shape", "bias_add": "BiasAdd", "matmul": "MatMul"}),
    (lambda: nn.Conv1d(3, 4, 3), {"conv2d": "Conv2D", "bias_add": "BiasAdd", "expand_dims": "ExpandDims",
                                  "squeeze": "Squeeze", "shape": "Shape"}),
    (lambda: nn.Conv2d(3, 4, 3), {"conv2d": "Conv2D", "bias_add": "BiasAdd"}),
    (lambda: nn.Conv3d(3, 4, 3), {"conv3d": "Conv3D", "bias_add": "BiasAdd", "shape": "Shape", "concat": "Concat",
                                  "split_0": "Split", "split_1": "Split"}),
    (lambda: nn.Conv1dTranspose(3, 4, 3), {"shape": "Shape", "conv2d_transpose": "Conv2DBackpropInput",
                                           "bias_add": "BiasAdd", "expand_dims": "ExpandDims", "squeeze": "Squeeze"}),
    (lambda: nn.Conv2dTranspose(3, 4, 3), {"shape": "Shape", "conv2d_transpose": "Conv2DTranspose",
                                           "bias_add": "BiasAdd"}),
    (lambda: nn.Conv3dTranspose(3, 4, 3), {"conv3d_transpose": "Conv3DTranspose", "bias_add": "BiasAdd",
                                           "shape": "Shape"}),
    (lambda: nn.MaxPool1d(2), {"max_pool": "MaxPool", "reduce_mean": "ReduceMean", "expand": "ExpandDims",
                               "squeeze": "Squeeze"}),
    (lambda: nn.MaxPool2d(2), {"max_pool": "MaxPool"}),
    (lambda: nn.MaxPool2d(3, 2, "pad", padding=1), {"max_pool": "MaxPool3DWithArgmax"}),
    (lambda: nn.MaxPool3d(2), {"max_pool": "MaxPool3D"}),
    (lambda: nn.AvgPool1d(2), {"avg_pool": "AvgPool", "reduce_mean": "ReduceMean", "slice": "Slice",
                               "expand": "ExpandDims", "squeeze": "Squeeze"}),
    (lambda: nn.AvgPool2d(2), {"avg_pool": "AvgPool"}),
    (lambda: nn.AvgPool2d(3, 1, "pad", padding=1), {"avg_pool": "AvgPool3D"}),
    (lambda: nn.AvgPool3d(2), {"avg_pool": "AvgPool3D"}),
    (lambda: nn.BatchNorm1d(4), _BATCH_NORM),
    (lambda: nn.BatchNorm2d(4), _BATCH_NORM),
    (lambda: nn.Embedding(10, 4), {"expand": "ExpandDims", "reshape_flat": "Reshape", "gather": "Gather",
                                   "one_hot": "OneHot", "array_mul": "MatMul", "reshape": "Reshape",
                                   "get_shp": "Shape", "concat": "Concat"}),
    (lambda: nn.LSTM(3, 4), {"reverse": "ReverseV2", "reverse_sequence": "ReverseSequence"}),
    (lambda: nn.GRU(3, 4), {"reverse": "ReverseV2", "reverse_sequence": "ReverseSequence"}),
    (lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True),
     dict(_LOSS, softmax_cross_entropy="SoftmaxCrossEntropyWithLogits", one_hot="OneHot",
          sparse_softmax_cross_entropy="SparseSoftmaxCrossEntropyWithLogits")),
    (nn.MSELoss, _LOSS), (nn.L1Loss, _LOSS), (nn.CrossEntropyLoss, _LOSS), (nn.BCEWithLogitsLoss, _LOSS),
    (lambda: nn.Adam(_PARAMS), {"assignadd": "AssignAdd", "opt": "Adam", "sparse_opt": "FusedSparseAdam"}),
    (lambda: nn.Momentum(_PARAMS, 0.1, 0.9), {"assignadd": "AssignAdd", "opt": "ApplyMomentum"}),
    (lambda: nn.AdamWeightDecay(_PARAMS), {"assignadd": "AssignAdd", "fused_opt": "AdamWeightDecay"}),
    (lambda: nn.LazyAdam(_PARAMS), {"assignadd": "AssignAdd", "opt": "Adam", "sparse_opt": "FusedSparseLazyAdam"}),
    (lambda: nn.RMSProp(_PARAMS), {"assignadd": "AssignAdd", "opt": "ApplyRMSProp"}),
    (lambda: nn.RMSProp(_PARAMS, centered=True), {"assignadd": "AssignAdd", "opt": "ApplyCenteredRMSProp"}),
    (lambda: nn.Adagrad(_PARAMS), {"assignadd": "AssignAdd", "opt": "ApplyAdagrad"}),
    (lambda: nn.Adadelta(_PARAMS), {"assignadd": "AssignAdd", "opt": "ApplyAdadelta"}),
    (lambda: nn.AdaMax(_PARAMS), {"assignadd": "AssignAdd", "opt": "ApplyAdaMax"}),
    (lambda: nn.FTRL(_PARAMS), {"assignadd": "AssignAdd", "opt": "ApplyFtrl", "sparse_opt": "SparseApplyFtrl"}),
    (lambda: nn.ProximalAdagrad(_PARAMS), {"assignadd": "AssignAdd", "opt": "ApplyProximalAdagrad",
                                           "sparse_opt": "SparseApplyProximalAdagrad"}),
    (nn.DiceLoss, dict(_LOSS, reshape="Reshape")),
    (lambda: nn.ELU(0.5), {"elu": "Elu"}), (nn.PReLU, {"prelu": "PReLU"}), (nn.Mish, {"mish": "Mish"}),
    (lambda: nn.Dropout2d(0.3), {"dropout2d": "Dropout2D"}),
    (lambda: nn.Pad(((0, 0), (1, 2))), {"pad": "Pad"}),
    (lambda: nn.Pad(((0, 0), (1, 2)), mode="REFLECT"), {"pad": "MirrorPad"}),
    (lambda: nn.OneHot(axis=0, depth=3), {"onehot": "OneHot"}),
    (lambda: nn.AdaptiveAvgPool2d((2, 3)), {"adaptive_avgpool2d": "AdaptiveAvgPool2D"}),
    (lambda: nn.SmoothL1Loss(beta=0.5), dict(_LOSS, smooth_l1_loss="SmoothL1Loss")),
    (lambda: nn.DynamicLossScaleUpdateCell(1024.0, 2, 1000),
     {"select": "Select", "max": "Maximum", "reciprocal": "Reciprocal", "less_equal": "LessEqual",
      "logic_and": "LogicalAnd", "logic_not": "LogicalNot", "logic_or": "LogicalOr"}),
    (lambda: nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(nn.Dense(2, 2), nn.MSELoss()), nn.SGD(_PARAMS),
                                              scale_sense=Tensor(1.0)),
     {"reduce_sum": "ReduceSum", "reduce_all": "ReduceAll", "less_equal": "LessEqual", "equal": "Equal",
      "logic_not": "LogicalNot", "allreduce": "AllReduce"}),
    (lambda: nn.InstanceNorm1d(4), {"shape": "Shape", "instance_bn": "InstanceNorm"}),
    (lambda: nn.InstanceNorm2d(4), {"shape": "Shape", "instance_bn": "InstanceNorm"}),
    (lambda: nn.InstanceNorm3d(4), {"shape": "Shape", "instance_bn": "InstanceNorm"}),
    (lambda: nn.AdaptiveAvgPool1d(2), {"expand": "ExpandDims", "squeeze": "Squeeze", "dtype": "DType"}),
    (nn.LogSigmoid, {"mul": "Mul", "exp": "Exp", "add": "Add", "rec": "Reciprocal", "log": "Log"}),
    (lambda: nn.Norm(axis=1), {"reduce_sum": "ReduceSum", "sqrt": "Sqrt", "squeeze": "Squeeze"}),
    (lambda: nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1]), {"extract_image_patches": "ExtractImagePatches"}),
    (nn.MatMul, {"shape_op": "Shape", "expand_op": "ExpandDims", "squeeze_left_op": "Squeeze",
                 "squeeze_right_op": "Squeeze", "reduce_sum_op": "ReduceSum"}),
    (nn.CosineEmbeddingLoss, dict(_LOSS, maximum="Maximum")),
    (nn.FocalLoss, dict(_LOSS, expand_dims="ExpandDims", gather_d="GatherD", squeeze="Squeeze", tile="Tile",
                        dtype="DType")),
    (lambda: nn.LARS(nn.SGD(_PARAMS)), {"assignadd": "AssignAdd", "lars": "LARSUpdate", "cast": "Cast"}),
    (lambda: nn.ASGD(_PARAMS), {"assignadd": "AssignAdd", "pow": "Pow", "maximum": "Maximum", "assign": "Assign",
                                "assignsub": "AssignSub", "cast": "Cast", "squeeze": "Squeeze"}),
    (lambda: nn.Rprop(_PARAMS), {"assignadd": "AssignAdd", "sign": "Sign", "fill": "FillV2", "assign": "Assign",
                                 "cast": "Cast", "select": "Select", "ones_like": "OnesLike"}),
    (lambda: nn.EmbeddingLookup(10, 4), {"gatherv2": "SparseGatherV2", "embeddinglookup": "EmbeddingLookup",
                                         "gather_revert": "Gather", "reshape_first": "Reshape", "reshape": "Reshape",
                                         "unique": "Unique", "shape": "Shape"}),
]


@pytest.mark.parametrize("make,recorded", RECORDED)
def test_cells_hold_the_primitives_mindspore_records(make, recorded):
    cell = make()
    for name, class_name in recorded.items():
        assert type(getattr(cell, name)) is getattr(ops, class_name), (type(cell).__name__, name)


def test_three_d_convolutions_lack_the_two_d_primitives():
    # MindSpore 2.10: "AttributeError: The 'Conv3d' object has no attribute 'conv2d'."
    with pytest.raises(AttributeError, match=r"^The 'Conv3d' object has no attribute 'conv2d'\.$"):
        nn.Conv3d(3, 4, 3).conv2d
    assert not hasattr(nn.Conv3dTranspose(3, 4, 3), "conv2d_transpose")


def test_recorded_settings_of_the_primitives():
    # MindSpore's Conv2dTranspose holds the backprop form: its out_channel is the layer's in_channels.
    assert nn.Conv2dTranspose(3, 4, 3).conv2d_transpose.attrs["out_channel"] == 3
    assert nn.BatchNorm2d(4).reduce_mean.keep_dims and not nn.MSELoss().reduce_mean.keep_dims
    assert nn.Conv3d(4, 4, 3, group=2).split_1.output_num == 2
    assert nn.LSTM(3, 4).reverse_sequence.batch_dim == 1
    sparse_ftrl = nn.FTRL(_PARAMS).sparse_opt  # MindSpore: lr 0.001, l1 0.0, l2 0.0, lr_power -0.5
    assert (sparse_ftrl.lr, sparse_ftrl.l1, sparse_ftrl.l2, sparse_ftrl.lr_power) == pytest.approx((0.001, 0, 0, -0.5))
    assert nn.Adam(_PARAMS, use_nesterov=True).opt.use_nesterov
    assert nn.ELU(0.5).elu.alpha == 0.5 and nn.Dropout2d(0.3).dropout2d.keep_prob == pytest.approx(0.7)
    assert nn.OneHot(axis=0, depth=3).onehot.axis == 0 and nn.SmoothL1Loss(beta=0.5).smooth_l1_loss.beta == 0.5
    # MindSpore 2.10: Norm(axis=1, keep_dims=True) squeezes (1,) and sums with keep_dims; MatMul squeezes -2 and -1;
    # FocalLoss squeezes (1,); LARS(epsilon=1e-6, coefficient=0.01, use_clip=...) gives LARSUpdate those three.
    # (MindSpore stores Squeeze's int axis as a 1-tuple; sporax keeps the int: compared as lists here.)
    def axes(primitive):
        return np.atleast_1d(primitive.axis).tolist()

    norm = nn.Norm(axis=1, keep_dims=True)
    assert axes(norm.squeeze) == [1] and norm.reduce_sum.keep_dims and axes(nn.Norm().squeeze) == []
    assert (axes(nn.MatMul().squeeze_left_op), axes(nn.MatMul().squeeze_right_op)) == ([-2], [-1])
    assert axes(nn.FocalLoss().squeeze) == [1] and axes(nn.AdaptiveAvgPool1d(2).squeeze) == [2]
    lars = nn.LARS(nn.SGD(_PARAMS), epsilon=1e-6, coefficient=0.01).lars
    assert (lars.epsilon, lars.hyperpara, lars.attrs["use_clip"]) == (1e-6, 0.01, False)
    with pytest.raises(NotImplementedError, match=r"^LARSUpdate\(use_clip=True\)"):  # sporax's LARSUpdate lacks it
        nn.LARS(nn.SGD(_PARAMS), use_clip=True).lars


def test_activation_pad_and_pool_primitives_compute_the_layer():
    for cell, call in [(nn.ELU(0.5), lambda cell: cell.elu(X)), (nn.Mish(), lambda cell: cell.mish(X)),
                       (nn.PReLU(), lambda cell: cell.prelu(X, cell.w)),
                       (nn.AdaptiveAvgPool2d((2, 3)), lambda cell: cell.adaptive_avgpool2d(X)),
                       (nn.Pad(((0, 0), (0, 0), (1, 2), (0, 1))), lambda cell: cell.pad(X)),
                       (nn.Pad(((0, 0), (0, 0), (1, 2), (0, 1)), mode="SYMMETRIC"),
                        lambda cell: cell.pad(X, Tensor(np.array(cell.paddings, np.int64))))]:
        np.testing.assert_allclose(call(cell).asnumpy(), cell(X).asnumpy(), rtol=1e-5, atol=1e-6)
    loss = nn.SmoothL1Loss(beta=0.5)
    logits, labels = X[0], Tensor(np.zeros((3, 8, 8), np.float32))
    np.testing.assert_allclose(loss.smooth_l1_loss(logits, labels).asnumpy(), loss(logits, labels).asnumpy(),
                               rtol=1e-6)


@pytest.mark.parametrize("settings", [{"pad_mode": "same", "stride": 2}, {"pad_mode": "valid", "stride": 2},
                                      {"pad_mode": "pad", "padding": 1, "stride": 2}])
def test_fcn8s_sharded_pool_and_transposed_conv_primitives_compute_the_layer(settings):
    maximum, average = nn.MaxPool2d(3, **settings), nn.AvgPool2d(3, **settings)
    up = nn.Conv2dTranspose(3, 4, 3, has_bias=True, **settings)
    # FCN8s' parallel path: the strategies are recorded and the Primitive returned for chaining.
    assert maximum.max_pool.shard(((1, 1, 2, 1),)) is maximum.max_pool
    assert average.avg_pool.shard(((1, 1, 2, 1),)) is average.avg_pool
    assert up.conv2d_transpose.shard(((1, 1, 2, 1), (1, 1, 1, 1))) is up.conv2d_transpose
    if settings["pad_mode"] == "pad":  # the 3-D forms over (N, C, 1, H, W), as MindSpore pools then
        pooled_max = maximum.max_pool(X.expand_dims(2))[0].squeeze(2)
        pooled_average = average.avg_pool(X.expand_dims(2)).squeeze(2)
    else:
        pooled_max, pooled_average = maximum.max_pool(X), average.avg_pool(X)
    np.testing.assert_allclose(pooled_max.asnumpy(), maximum(X).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(pooled_average.asnumpy(), average(X).asnumpy(), rtol=1e-5, atol=1e-6)
    expected = up(X)
    out = up.bias_add(up.conv2d_transpose(X, up.weight, expected.shape), up.bias)
    np.testing.assert_allclose(out.asnumpy(), expected.asnumpy(), rtol=1e-5, atol=1e-5)


def test_one_and_three_d_primitives_compute_the_layer():
    settings = {"pad_mode": "pad", "padding": 1, "stride": 2}  # 'same' pads are covered by the 2-D test
    conv = nn.Conv1d(3, 4, 3, **settings)
    out = conv.squeeze(conv.conv2d(conv.expand_dims(X1, 2), conv.weight))
    np.testing.assert_allclose(out.asnumpy(), conv(X1).asnumpy(), rtol=1e-5, atol=1e-5)
    up = nn.Conv1dTranspose(3, 4, 3, **settings)
    expected = up(X1)
    out = up.squeeze(up.conv2d_transpose(up.expand_dims(X1, 2), up.weight, (2, 4, 1, expected.shape[-1])))
    np.testing.assert_allclose(out.asnumpy(), expected.asnumpy(), rtol=1e-5, atol=1e-5)
    for cell, name in [(nn.Conv3d(3, 4, 3, **settings), "conv3d"),
                       (nn.Conv3dTranspose(3, 4, 3, **settings), "conv3d_transpose")]:
        np.testing.assert_allclose(getattr(cell, name)(X3, cell.weight).asnumpy(), cell(X3).asnumpy(),
                                   rtol=1e-5, atol=1e-5)
    for cell, name in [(nn.MaxPool3d(3, **settings), "max_pool"), (nn.AvgPool3d(3, **settings), "avg_pool")]:
        np.testing.assert_allclose(getattr(cell, name)(X3).asnumpy(), cell(X3).asnumpy(), rtol=1e-5, atol=1e-6)
    for cell, name in [(nn.MaxPool1d(3, 2), "max_pool"), (nn.AvgPool1d(3, 2), "avg_pool")]:
        out = cell.squeeze(getattr(cell, name)(cell.expand(X1, 2)))
        np.testing.assert_allclose(out.asnumpy(), cell(X1).asnumpy(), rtol=1e-5, atol=1e-6)


def test_momentum_opt_applies_the_update():
    weight = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="weight")
    moment = Parameter(Tensor(np.array([0.5, -0.5], np.float32)), name="moment")
    optimizer = nn.Momentum([weight], 0.1, 0.9)
    gradient = Tensor(np.array([0.2, 0.4], np.float32))
    optimizer.opt(weight, moment, Tensor(np.float32(0.1)), gradient, Tensor(np.float32(0.9)))
    accumulated = 0.9 * np.array([0.5, -0.5]) + np.array([0.2, 0.4])
    np.testing.assert_allclose(moment.asnumpy(), accumulated, rtol=1e-6)
    np.testing.assert_allclose(weight.asnumpy(), np.array([1.0, 2.0]) - 0.1 * accumulated, rtol=1e-6)


def test_norm_unfold_and_log_sigmoid_primitives_compute_the_cell():
    norm = nn.Norm(axis=1)
    np.testing.assert_allclose(norm.sqrt(norm.reduce_sum(X * X, 1)).asnumpy(), norm(X).asnumpy(), rtol=1e-6)
    unfold = nn.Unfold([1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1])
    np.testing.assert_array_equal(unfold.extract_image_patches(X).asnumpy(), unfold(X).asnumpy())
    log_sigmoid = nn.LogSigmoid()  # MindSpore's construct: log(1 / (1 + exp(-x)))
    out = log_sigmoid.log(log_sigmoid.rec(log_sigmoid.add(log_sigmoid.exp(log_sigmoid.mul(X, -1.0)), 1.0)))
    np.testing.assert_allclose(out.asnumpy(), log_sigmoid(X).asnumpy(), rtol=1e-5, atol=1e-6)


def test_loss_reduction_primitives():
    loss = nn.MSELoss()
    values = Tensor(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32))
    assert float(loss.reduce_mean(values).asnumpy()) == 3.0 and float(loss.reduce_sum(values, 1)[1].asnumpy()) == 9.0
    cross = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    logits = Tensor(RNG.standard_normal((4, 5)).astype(np.float32))
    labels = Tensor(np.array([0, 3, 4, 1], np.int32))
    np.testing.assert_allclose(cross.sparse_softmax_cross_entropy(logits, labels).asnumpy(),
                               cross(logits, labels).asnumpy(), rtol=1e-5)


def test_avg_pool3d_same_follows_count_include_pad_as_recorded():
    # AvgPool3d's Primitive: MindSpore 2.10 CPU, ops.AvgPool3D(3, 2, 'same') on arange(64) / 8 as (1, 1, 4, 4, 4).
    x = Tensor((np.arange(64, dtype=np.float32) / 8).reshape(1, 1, 4, 4, 4))
    whole_kernel = [2.625, 1.875, 2.25, 1.5833334, 3.75, 2.5833333, 2.8333333, 1.9444444]
    input_only = [2.625, 2.8125, 3.375, 3.5625, 5.625, 5.8125, 6.375, 6.5625]
    np.testing.assert_allclose(ops.AvgPool3D(3, 2, "same")(x).asnumpy().ravel(), whole_kernel, rtol=1e-6)
    np.testing.assert_allclose(ops.AvgPool3D(3, 2, "same", count_include_pad=False)(x).asnumpy().ravel(), input_only,
                               rtol=1e-6)
    cell = nn.AvgPool3d(3, 2, "same")
    np.testing.assert_allclose(cell.avg_pool(x).asnumpy().ravel(), whole_kernel, rtol=1e-6)
