"""The Primitive objects MindSpore's Cells hold as attributes (``LayerNorm.layer_norm``, ``Conv2d.conv2d``,
``MaxPool2d.max_pool``, a loss's ``reduce_mean``, an optimizer's ``opt``).

sporax's layers compute through the op table's kernels directly, but libraries subclass MindSpore's
layers and call these attributes in their own ``construct`` (mindcv's ``ConvNextLayerNorm`` calls
``self.layer_norm(x, self.gamma, self.beta)``; its ``StdConv2d`` calls ``self.conv2d(x, w)``) or shard
them (FCN8s' parallel path: ``nn.MaxPool2d(...).max_pool.shard(...)``). Each
is an ``InnerPrimitive`` on the layer class, all listed in ``LAYER_PRIMITIVES`` below: the Primitive is
built from the layer's own settings on first access, so it computes exactly what the layer does, and
layers that nobody reaches into pay nothing.
"""
from sporax import ops
from sporax.nn import cell_registry
from sporax.nn.layer import (activation, basic, conv, conv3d, embedding, instance_norm, math_cells, matmul,
                             normalization, patches, pooling, pooling3d, rnn)
from sporax.nn.loss import base as loss_base, losses, pair_losses, segmentation_losses
from sporax.nn.optim import adamax_adadelta, adaptive, ftrl, lars, momentum, proximal_rprop_asgd
from sporax.nn.wrap import loss_scale


class InnerPrimitive:
    """A layer attribute holding the Primitive ``build(cell)`` returns, made on first access.

    Non-data descriptor: the Primitive is cached in the instance's ``__dict__``, and a subclass that
    assigns its own object under the same name (a Primitive, a child Cell, a Parameter) replaces it.

    Args:
        build (Callable[[Cell], Primitive]): makes the Primitive from the layer's settings; None where a
            subclass lacks what its base holds (MindSpore's Conv3d has no ``conv2d``).
    """

    # MindSpore's layers set these in __init__: a subclass may put a child Cell under the name (cell_registry)
    instance_attribute_in_mindspore = True

    def __init__(self, build):
        self.build = build
        self.name = None

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, cell, owner=None):
        if cell is None:
            return self
        state = cell.__dict__
        for registry in ("_cells", "_params", "_buffers"):
            # A subclass's own child Cell or Parameter of that name (``self.dropout = nn.Dropout()``).
            members = state.get(registry)
            if members is not None and self.name in members:
                return members[self.name]
        if self.build is None:
            raise cell_registry.missing_attribute_error(cell, self.name)
        primitive = self.build(cell)
        cell.__dict__[self.name] = primitive
        return primitive


def _plain(layer, **makers):
    """Rows for Primitives that take no setting from the layer: ``attribute=make``."""
    return [(layer, name, lambda cell, make=make: make()) for name, make in makers.items()]


# (layer class, attribute, Primitive made from the layer's settings), as MindSpore 2.10's layers hold them.
LAYER_PRIMITIVES = [
    (normalization.LayerNorm, "layer_norm",
     lambda cell: ops.LayerNorm(cell.begin_norm_axis, cell.begin_params_axis, cell.epsilon)),
    # ``_keep`` is the constructed momentum (the moving statistics' own weight); the Primitive takes the batch's.
    (normalization._BatchNorm, "bn_train", lambda cell: ops.BatchNorm(True, cell.eps, 1.0 - cell._keep)),
    (normalization._BatchNorm, "bn_infer", lambda cell: ops.BatchNorm(False, cell.eps, 1.0 - cell._keep)),
    # The moving-statistics update MindSpore's BatchNorm spells out with its own Primitives.
    *_plain(normalization._BatchNorm, shape=ops.Shape, reduce_mean=lambda: ops.ReduceMean(keep_dims=True),
            square=ops.Square, sqrt=ops.Sqrt, cast=ops.Cast, dtype=ops.DType, reshape=ops.Reshape, sub_mean=ops.Sub,
            sub_var=ops.Sub, mul_mean=ops.Mul, mul_var=ops.Mul, assign_sub_mean=ops.AssignSub,
            assign_sub_var=ops.AssignSub),
    (conv.Conv2d, "conv2d", lambda cell: ops.Conv2D(cell.out_channels, cell.kernel_size, 1, cell.pad_mode,
                                                     cell._pads, cell.stride, cell.dilation, cell.group)),
    (conv.Conv2d, "bias_add", lambda cell: ops.BiasAdd()),
    (basic.Dense, "matmul", lambda cell: ops.MatMul(transpose_b=True)),
    (basic.Dense, "bias_add", lambda cell: ops.BiasAdd()),
    (basic.Dense, "reshape", lambda cell: ops.Reshape()),
    (basic.Dense, "shape_op", lambda cell: ops.Shape()),
    (basic.Dropout, "dropout", lambda cell: ops.Dropout(keep_prob=cell.keep_prob)),
    (activation.ReLU, "relu", lambda cell: ops.ReLU()),
    (activation.ReLU6, "relu6", lambda cell: ops.ReLU6()),
    (activation.Sigmoid, "sigmoid", lambda cell: ops.Sigmoid()),
    (activation.Tanh, "tanh", lambda cell: ops.Tanh()),
    (activation.HSwish, "hswish", lambda cell: ops.HSwish()),
    (activation.HSigmoid, "hsigmoid", lambda cell: ops.HSigmoid()),
    (activation.Softmax, "softmax", lambda cell: ops.Softmax(cell.axis)),
    (activation.LogSoftmax, "log_softmax", lambda cell: ops.LogSoftmax(cell.axis)),
    # FCN8s' parallel path shards these three.
    (pooling.MaxPool2d, "max_pool", lambda cell: _max_pool_2d(cell)),
    (pooling.AvgPool2d, "avg_pool", lambda cell: _avg_pool_2d(cell)),
    (conv.Conv2dTranspose, "conv2d_transpose", lambda cell: ops.Conv2DTranspose(
        cell.in_channels, cell.kernel_size, cell.pad_mode, cell._pads, None, 1, cell.stride, cell.dilation,
        cell.group)),
    (conv.Conv2dTranspose, "bias_add", lambda cell: ops.BiasAdd()),
    (conv.Conv2dTranspose, "shape", lambda cell: ops.Shape()),
    # MindSpore's Conv1dTranspose holds the backprop-input form under the same name.
    (conv.Conv1dTranspose, "conv2d_transpose", lambda cell: ops.Conv2DBackpropInput(
        cell.in_channels, cell.kernel_size, cell.pad_mode, cell._pads, None, 1, cell.stride, cell.dilation,
        cell.group)),
    (conv.Conv1dTranspose, "expand_dims", lambda cell: ops.ExpandDims()),
    (conv.Conv1dTranspose, "squeeze", lambda cell: ops.Squeeze(2)),
    (conv.Conv1d, "expand_dims", lambda cell: ops.ExpandDims()),
    (conv.Conv1d, "squeeze", lambda cell: ops.Squeeze(2)),
    (conv.Conv1d, "shape", lambda cell: ops.Shape()),
    (conv3d.Conv3d, "conv3d", lambda cell: ops.Conv3D(cell.out_channels, cell.kernel_size, 1, cell.pad_mode,
                                                      cell._pads, cell.stride, cell.dilation, cell.group)),
    (conv3d.Conv3d, "conv2d", None),
    (conv3d.Conv3dTranspose, "conv2d_transpose", None),
    (conv3d.Conv3d, "shape", lambda cell: ops.Shape()),
    (conv3d.Conv3d, "concat", lambda cell: ops.Concat(1)),
    (conv3d.Conv3d, "split_0", lambda cell: ops.Split(0, cell.group)),
    (conv3d.Conv3d, "split_1", lambda cell: ops.Split(1, cell.group)),
    (conv3d.Conv3dTranspose, "bias_add", lambda cell: ops.BiasAdd("NCDHW")),
    (conv3d.Conv3dTranspose, "conv3d_transpose", lambda cell: ops.Conv3DTranspose(
        cell.in_channels, cell.out_channels, cell.kernel_size, 1, cell.pad_mode, cell._pads, cell.stride,
        cell.dilation, cell.group, cell.output_padding)),
    (pooling.MaxPool1d, "max_pool", lambda cell: ops.MaxPool(cell.kernel_size, cell.stride, cell.pad_mode)),
    (pooling.AvgPool1d, "avg_pool", lambda cell: ops.AvgPool(cell.kernel_size, cell.stride, cell.pad_mode)),
    (pooling._Pool1d, "reduce_mean", lambda cell: ops.ReduceMean(keep_dims=True)),
    (pooling._Pool1d, "expand", lambda cell: ops.ExpandDims()),
    (pooling._Pool1d, "squeeze", lambda cell: ops.Squeeze(2)),
    (pooling.AvgPool1d, "slice", lambda cell: ops.Slice()),
    (pooling3d.MaxPool3d, "max_pool", lambda cell: ops.MaxPool3D(
        cell.kernel_size, cell.stride, cell.pad_mode, cell.padding, cell.ceil_mode)),
    (pooling3d.AvgPool3d, "avg_pool", lambda cell: ops.AvgPool3D(
        cell.kernel_size, cell.stride, cell.pad_mode, cell.padding, cell.ceil_mode, cell.count_include_pad,
        cell.divisor_override)),
    *_plain(embedding.Embedding, gather=ops.Gather, one_hot=ops.OneHot, array_mul=ops.MatMul, expand=ops.ExpandDims,
            reshape_flat=ops.Reshape, reshape=ops.Reshape, get_shp=ops.Shape, concat=lambda: ops.Concat(0)),
    (rnn._RNNBase, "reverse", lambda cell: ops.ReverseV2([0])),
    (rnn._RNNBase, "reverse_sequence", lambda cell: ops.ReverseSequence(0, 1)),
    # Every loss's reduction helpers (``LossBase.get_loss`` in MindSpore).
    *_plain(loss_base.LossBase, reduce_mean=ops.ReduceMean, reduce_sum=ops.ReduceSum, mul=ops.Mul, cast=ops.Cast),
    (losses.SoftmaxCrossEntropyWithLogits, "softmax_cross_entropy", lambda cell: ops.SoftmaxCrossEntropyWithLogits()),
    (losses.SoftmaxCrossEntropyWithLogits, "sparse_softmax_cross_entropy",
     lambda cell: ops.SparseSoftmaxCrossEntropyWithLogits()),
    (losses.SoftmaxCrossEntropyWithLogits, "one_hot", lambda cell: ops.OneHot()),
    # The optimizers' fused update Primitives (``opt``), as MindSpore's optimizers hold them.
    (adaptive.Adam, "opt", lambda cell: ops.Adam(cell.use_locking, cell.use_nesterov)),
    (adaptive.Adam, "sparse_opt", lambda cell: ops.FusedSparseAdam(cell.use_locking, cell.use_nesterov)),
    (momentum.Momentum, "opt", lambda cell: ops.ApplyMomentum(cell.use_nesterov)),
    (adaptive.AdamWeightDecay, "fused_opt", lambda cell: ops.AdamWeightDecay()),
    (adaptive.LazyAdam, "sparse_opt", lambda cell: ops.FusedSparseLazyAdam(cell.use_locking, cell.use_nesterov)),
    (adaptive.RMSProp, "opt", lambda cell: (ops.ApplyCenteredRMSProp if cell.centered else ops.ApplyRMSProp)(
        getattr(cell, "use_locking", False))),
    (adaptive.Adagrad, "opt", lambda cell: ops.ApplyAdagrad(cell.update_slots)),
    (adamax_adadelta.Adadelta, "opt", lambda cell: ops.ApplyAdadelta()),
    (adamax_adadelta.AdaMax, "opt", lambda cell: ops.ApplyAdaMax()),
    (ftrl.FTRL, "opt", lambda cell: ops.ApplyFtrl(cell.use_locking)),
    # FTRL takes one fixed rate (no schedule): the sparse form holds it, as MindSpore's does.
    (ftrl.FTRL, "sparse_opt", lambda cell: ops.SparseApplyFtrl(
        float(cell.learning_rate.asnumpy()), cell.l1, cell.l2, cell.lr_power, cell.use_locking)),
    (proximal_rprop_asgd.ProximalAdagrad, "opt", lambda cell: ops.ApplyProximalAdagrad()),
    (proximal_rprop_asgd.ProximalAdagrad, "sparse_opt", lambda cell: ops.SparseApplyProximalAdagrad()),
    (segmentation_losses.DiceLoss, "reshape", lambda cell: ops.Reshape()),
    (activation.ELU, "elu", lambda cell: ops.Elu(cell.alpha)),
    (activation.PReLU, "prelu", lambda cell: ops.PReLU()),
    (activation.Mish, "mish", lambda cell: ops.Mish()),
    (basic.Dropout2d, "dropout2d", lambda cell: ops.Dropout2D(1.0 - cell.p)),
    (basic.Pad, "pad", lambda cell: ops.Pad(cell.paddings) if cell.mode == "CONSTANT" else ops.MirrorPad(cell.mode)),
    (math_cells.OneHot, "onehot", lambda cell: ops.OneHot(cell.axis)),
    (pooling.AdaptiveAvgPool2d, "adaptive_avgpool2d", lambda cell: ops.AdaptiveAvgPool2D(cell.output_size)),
    (losses.SmoothL1Loss, "smooth_l1_loss", lambda cell: ops.SmoothL1Loss(cell.beta)),
    # The loss-scale cells' overflow and scale-update logic.
    *_plain(loss_scale.DynamicLossScaleUpdateCell, select=ops.Select, max=ops.Maximum, reciprocal=ops.Reciprocal,
            less_equal=ops.LessEqual, logic_and=ops.LogicalAnd, logic_not=ops.LogicalNot, logic_or=ops.LogicalOr),
    *_plain(loss_scale.TrainOneStepWithLossScaleCell, reduce_sum=ops.ReduceSum, reduce_all=ops.ReduceAll,
            less_equal=ops.LessEqual, equal=ops.Equal, logic_not=ops.LogicalNot, allreduce=ops.AllReduce),
    (instance_norm._InstanceNorm, "shape", lambda cell: ops.Shape()),
    (instance_norm._InstanceNorm, "instance_bn", lambda cell: ops.InstanceNorm(cell.eps, cell.momentum)),
    *_plain(pooling.AdaptiveAvgPool1d, expand=ops.ExpandDims, squeeze=lambda: ops.Squeeze(2), dtype=ops.DType),
    *_plain(activation.LogSigmoid, mul=ops.Mul, exp=ops.Exp, add=ops.Add, rec=ops.Reciprocal, log=ops.Log),
    (math_cells.Norm, "reduce_sum", lambda cell: ops.ReduceSum(cell.keep_dims)),
    (math_cells.Norm, "sqrt", lambda cell: ops.Sqrt()),
    (math_cells.Norm, "squeeze", lambda cell: ops.Squeeze(() if cell.axis is None else cell.axis)),
    (patches.Unfold, "extract_image_patches", lambda cell: ops.ExtractImagePatches(
        cell.ksizes, cell.strides, cell.rates, cell.padding)),
    *_plain(matmul.MatMul, shape_op=ops.Shape, expand_op=ops.ExpandDims, squeeze_left_op=lambda: ops.Squeeze(-2),
            squeeze_right_op=lambda: ops.Squeeze(-1), reduce_sum_op=ops.ReduceSum),
    *_plain(pair_losses.CosineEmbeddingLoss, reduce_mean=ops.ReduceMean, reduce_sum=ops.ReduceSum, mul=ops.Mul,
            cast=ops.Cast, maximum=ops.Maximum),
    *_plain(segmentation_losses.FocalLoss, expand_dims=ops.ExpandDims, gather_d=ops.GatherD,
            squeeze=lambda: ops.Squeeze(1), tile=ops.Tile, dtype=ops.DType),
    (lars.LARS, "lars", lambda cell: ops.LARSUpdate(cell.epsilon, cell.coefficient, cell.use_clip)),
    (lars.LARS, "cast", lambda cell: ops.Cast()),
    *_plain(proximal_rprop_asgd.ASGD, pow=ops.Pow, maximum=ops.Maximum, assign=ops.Assign, assignsub=ops.AssignSub,
            cast=ops.Cast, squeeze=ops.Squeeze),
    *_plain(proximal_rprop_asgd.Rprop, sign=ops.Sign, fill=ops.FillV2, assign=ops.Assign, cast=ops.Cast,
            select=ops.Select, ones_like=ops.OnesLike),
    *_plain(embedding.EmbeddingLookup, gatherv2=ops.SparseGatherV2, embeddinglookup=ops.EmbeddingLookup,
            gather_revert=ops.Gather, reshape_first=ops.Reshape, reshape=ops.Reshape, unique=ops.Unique,
            shape=ops.Shape),
]


def _max_pool_2d(cell):
    """MaxPool2d's ``max_pool``: ``MaxPool`` for 'same'/'valid', ``MaxPool3DWithArgmax`` for 'pad'."""
    if cell.pad_mode != "PAD":
        return ops.MaxPool(cell._kernel, cell._stride, cell.pad_mode, cell.format)
    # MindSpore 2.10's padded MaxPool2d pools (N, C, 1, H, W) through the 3-D form with indices.
    return ops.MaxPool3DWithArgmax((1,) + cell._kernel, (1,) + cell._stride, (0,) + cell._padding,
                                   (1,) + cell._dilation, cell.ceil_mode)


def _avg_pool_2d(cell):
    """AvgPool2d's ``avg_pool``: ``AvgPool`` for 'same'/'valid', ``AvgPool3D`` for 'pad'."""
    if cell.pad_mode != "PAD":
        return ops.AvgPool(cell._kernel, cell._stride, cell.pad_mode, cell.format)
    # MindSpore 2.10's padded AvgPool2d pools (N, C, 1, H, W) through the 3-D form.
    return ops.AvgPool3D((1,) + cell._kernel, (1,) + cell._stride, "pad", (0, 0) + tuple(
        size for size in cell._padding for _ in range(2)), cell.ceil_mode, cell.count_include_pad,
        cell.divisor_override or 0)


for _layer, _name, _build in LAYER_PRIMITIVES:
    _descriptor = InnerPrimitive(_build)
    _descriptor.__set_name__(_layer, _name)
    setattr(_layer, _name, _descriptor)
