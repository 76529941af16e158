"""The private pieces of MindSpore's ``build_train_network`` that libraries call to build their own train Cells.

mindarmour's differential-privacy and suppress-privacy Models build their training network from
``_config_level[level]``, ``_do_keep_batchnorm_fp32`` and ``_add_loss_network`` (MindSpore's
``mindspore.train.amp``), and reduce gradient overflow with ``_grad_overflow``
(``mindspore.nn.wrap.loss_scale``). Behaviour recorded from MindSpore 2.10.
"""
from sporax.core import dtype as mstype
from sporax.graph.composite import MultitypeFuncGraph
from sporax.nn.cell import Cell
from sporax.nn.wrap import WithLossCell
from sporax.ops.float_status import FloatStatus
from sporax.ops.functional import assign, cast, depend, reciprocal
from sporax.train.amp.loss_scale import DynamicLossScaleManager
from sporax.train.amp.mixed_precision import _BLACK_LIST, _LEVEL_DEFAULTS, _cast, _wrap_children

# Each level's settings; O2's loss-scale manager is a DynamicLossScaleManager made once, at import, as in MindSpore.
_config_level = {level: dict(settings, loss_scale_manager=DynamicLossScaleManager()
                             if settings["loss_scale_manager"] == "dynamic" else settings["loss_scale_manager"])
                 for level, settings in _LEVEL_DEFAULTS.items()}


def _do_keep_batchnorm_fp32(network):
    """Run the normalisation layers of a (float16) ``network`` in float32, handing float16 to their neighbours."""
    _wrap_children(network, _BLACK_LIST, None, mstype.float32, mstype.float16)


class _Float32LossCell(Cell):
    """``loss_fn(float32(backbone(data)), float32(label))``: the loss of a low-precision network, in float32."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(_cast(self._backbone(data), mstype.float32), _cast(label, mstype.float32))


def _add_loss_network(network, loss_fn, cast_model_type):
    """``network`` with ``loss_fn``: a float32 loss when the network runs in float16/bfloat16 (by
    ``cast_model_type`` or its ``_amp_level`` O2/O3/auto), else a plain ``WithLossCell``."""
    if not isinstance(loss_fn, Cell):
        raise TypeError(f"The type of 'loss_fn' should be 'Cell', but got type '{type(loss_fn).__name__}'.")
    if cast_model_type in (mstype.float16, mstype.bfloat16) or getattr(network, "_amp_level", None) in ("O2", "O3",
                                                                                                        "auto"):
        return _Float32LossCell(network, loss_fn)
    return WithLossCell(network, loss_fn)


_grad_overflow = MultitypeFuncGraph("_grad_overflow")


@_grad_overflow.register("Tensor")
def _tensor_grad_overflow(grad):
    """1.0 (float32, shape (1,)) when ``grad`` holds an inf or NaN, else 0.0."""
    return FloatStatus()(grad)


_grad_scale = MultitypeFuncGraph("grad_scale")


@_grad_scale.register("Tensor", "Tensor")
def _tensor_grad_scale(scale, grad):
    """``grad / scale``: the gradient times the scale's reciprocal, in the gradient's dtype."""
    return grad * cast(reciprocal(scale), grad.dtype)


# MindSpore 2.10 binds the module's public ``grad_scale`` to its pipeline version (three Tensors): the unscaled
# gradient is the accumulated one, and the accumulator is zeroed for the next micro-batch loop.
grad_scale = MultitypeFuncGraph("grad_scale")


@grad_scale.register("Tensor", "Tensor", "Tensor")
def _tensor_grad_scale_pipeline(scale, grad, accu_grad):
    """``accu_grad / scale``, after ``grad`` was computed; ``accu_grad`` (a Parameter) is set to zeros."""
    accu_grad = depend(accu_grad, grad)
    new_grad = accu_grad * reciprocal(scale)
    accu_grad = depend(accu_grad, new_grad)
    return depend(new_grad, assign(accu_grad, accu_grad * 0.0))
