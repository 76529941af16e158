"""The Primitive objects MindSpore's layers hold as attributes (``LayerNorm.layer_norm``, ``Conv2d.conv2d``).

sporax's layers compute through the op table's kernels directly, but libraries subclass MindSpore's
layers and call these attributes in their own ``construct`` (mindcv's ``ConvNextLayerNorm`` calls
``self.layer_norm(x, self.gamma, self.beta)``; its ``StdConv2d`` calls ``self.conv2d(x, w)``). Each
is an ``InnerPrimitive`` on the layer class, all listed in ``LAYER_PRIMITIVES`` below: the Primitive is
built from the layer's own settings on first access, so it computes exactly what the layer does, and
layers that nobody reaches into pay nothing.
"""
from sporax import ops
from sporax.nn.layer import activation, basic, conv, normalization


class InnerPrimitive:
    """A layer attribute holding the Primitive ``build(cell)`` returns, made on first access.

    Non-data descriptor: the Primitive is cached in the instance's ``__dict__``, and a subclass that
    assigns its own object under the same name (a Primitive, a child Cell, a Parameter) replaces it.

    Args:
        build (Callable[[Cell], Primitive]): makes the Primitive from the layer's settings.
    """

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
        primitive = self.build(cell)
        cell.__dict__[self.name] = primitive
        return primitive


# (layer class, attribute, Primitive made from the layer's settings), as MindSpore 2.10's layers hold them.
LAYER_PRIMITIVES = [
    (normalization.LayerNorm, "layer_norm",
     lambda cell: ops.LayerNorm(cell.begin_norm_axis, cell.begin_params_axis, cell.epsilon)),
    # ``_keep`` is the constructed momentum (the moving statistics' own weight); the Primitive takes the batch's.
    (normalization._BatchNorm, "bn_train", lambda cell: ops.BatchNorm(True, cell.eps, 1.0 - cell._keep)),
    (normalization._BatchNorm, "bn_infer", lambda cell: ops.BatchNorm(False, cell.eps, 1.0 - cell._keep)),
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
]

for _layer, _name, _build in LAYER_PRIMITIVES:
    _descriptor = InnerPrimitive(_build)
    _descriptor.__set_name__(_layer, _name)
    setattr(_layer, _name, _descriptor)
