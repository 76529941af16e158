"""MindSpore's quantisation-aware-training Primitives (its private ``_quant_ops``): importable, refused when called.

MindSpore 2.10 has GPU/Ascend kernels only for these (fake quantisation, min/max updates, BatchNorm
folding): on CPU a call raises RuntimeError "Unsupported op [FakeQuantPerLayer] on CPU". Compression
libraries (MindSpore Golden Stick) import them at module level and build them while rewriting a
network, so sporax provides the classes with MindSpore's constructor signatures and recorded
attributes (``input_names``/``output_names`` included), and a call raises NotImplementedError (a
RuntimeError, as MindSpore's) that names the Primitive.

Example:
    >>> from sporax.ops.operations.quant_ops import FakeQuantPerLayer
    >>> FakeQuantPerLayer(num_bits=4).attrs["num_bits"]
    4
"""
from sporax.ops.operations.ascend_fused_ops import refused_primitive

# name -> (__init__ attributes, call inputs, outputs): as MindSpore records them in ``attrs`` (outputs None: it
# records none, and the inputs are those its shape inference names).
_TABLE = {
    "FakeQuantPerLayer": ("num_bits=8 ema=False ema_decay=0.999 quant_delay=0 symmetric=False narrow_range=False "
                          "training=True", "x min max", "out"),
    "FakeQuantPerLayerGrad": ("num_bits=8 quant_delay=0 symmetric=False narrow_range=False", "dout x min max", "dx"),
    "FakeQuantPerChannel": ("num_bits=8 ema=False ema_decay=0.999 quant_delay=0 symmetric=False narrow_range=False "
                            "training=True channel_axis=1", "x min max", "out"),
    "FakeQuantPerChannelGrad": ("num_bits=8 quant_delay=0 symmetric=False narrow_range=False channel_axis=1",
                                "dout x min max", "dx"),
    "FakeLearnedScaleQuantPerLayer": ("quant_delay=0 neg_trunc=False training=True", "input_x alpha quant_max",
                                      "out"),
    "FakeLearnedScaleQuantPerLayerGrad": ("quant_delay=0 neg_trunc=False", "dout x alpha quant_max", "dx dalpha"),
    "FakeLearnedScaleQuantPerChannel": ("quant_delay=0 neg_trunc=False training=True channel_axis=1",
                                        "input_x alpha quant_max", "out"),
    "FakeLearnedScaleQuantPerChannelGrad": ("quant_delay=0 neg_trunc=False channel_axis=1",
                                            "dout x alpha quant_max", "dx dalpha"),
    "FakeQuantWithMinMaxVars": ("num_bits=8 narrow_range=False", "x min max", None),
    "FakeQuantWithMinMaxVarsGradient": ("num_bits=8 narrow_range=False", "dout x min max", None),
    "FakeQuantWithMinMaxVarsPerChannel": ("num_bits=8 narrow_range=False", "x min max", None),
    "FakeQuantWithMinMaxVarsPerChannelGradient": ("num_bits=8 narrow_range=False", "dout x min max", None),
    "MinMaxUpdatePerLayer": ("ema=False ema_decay=0.999", "x min max", "min_up max_up"),
    "MinMaxUpdatePerChannel": ("ema=False ema_decay=0.999 channel_axis=1", "x min max", "min_up max_up"),
    "BatchNormFold": ("momentum=0.9 epsilon=1e-05 is_training=True freeze_bn=0", "x mean variance global_step",
                      "batch_mean batch_std running_mean running_std"),
    "BatchNormFoldGrad": ("epsilon=1e-05 is_training=True freeze_bn=0",
                          "d_batch_mean d_batch_std x batch_mean batch_std global_step", "dx"),
    "BatchNormFold2": ("freeze_bn=0", "x beta gamma batch_std batch_mean running_std running_mean global_step", "y"),
    "BatchNormFold2Grad": ("freeze_bn=0", "dout x gamma batch_std batch_mean running_std running_mean global_step",
                           "d_batch_std d_batch_mean d_beta d_gamma dx"),
    "CorrectionMul": ("channel_axis=0", "x batch_std running_std", "out"),
    "CorrectionMulGrad": ("channel_axis=0", "dout x gamma running_std", "dx mul_dx"),
    "CorrectionMulGradReduce": ("channel_axis=0", "mul_dx", "d_gamma"),
    "ActsULQ": ("fixed_min=False num_bits=8", "x clamp_min clamp_max", None),
    "WtsARQ": ("num_bits offset_flag", "w w_min w_max", None),
    "IFMR": ("min_percentile=0.999999 max_percentile=0.999999 search_range=(0.7,1.3) search_step=0.01 "
             "with_offset=True", "data data_min data_max cumsum", "scale offset"),
}
# The bit widths MindSpore 2.10's fake-quantisation kernels take (others: ValueError at construction).
_SUPPORTED_BITS = (4, 7, 8)


def _make(name, attribute_spec, input_spec, output_spec):
    message = (f"Unsupported op [{name}] on CPU: MindSpore 2.10 has a kernel for this quantisation Primitive on "
               "GPU/Ascend only, and sporax has none on any backend. Train the float network, or quantise after "
               "training.")
    base = refused_primitive(name, attribute_spec, input_spec, message,
                             f"MindSpore's quantisation Primitive ``{name}`` (GPU/Ascend kernels only)", __name__)
    base_init = base.__init__

    def __init__(self, *values, **settings):
        base_init(self, *values, **settings)
        if name in ("FakeQuantPerLayer", "FakeQuantPerChannel") and self.num_bits not in _SUPPORTED_BITS:
            raise ValueError(f"For '{name}' attr 'num_bits' is not support.")
        if output_spec is not None:
            self.add_prim_attr("input_names", input_spec.split())
            self.add_prim_attr("output_names", output_spec.split())

    __init__.__signature__ = base_init.__signature__
    base.__init__ = __init__
    return base


for _name, (_attributes, _inputs, _outputs) in _TABLE.items():
    globals()[_name] = _make(_name, _attributes, _inputs, _outputs)


class FakeQuantParam(_make("FakeQuantParam", "quant_dtype quant_algo_name is_per_channel", "x", None)):
    """MindSpore's marker of quantisation parameters on a tensor (``linear_quant_param``): the extra keyword
    arguments are recorded as attributes and together under ``kwargs``; ``quant_dtype`` as its number."""

    attr_key_linear_quant_scale = "linear_quant_scale"
    attr_key_linear_quant_zero_point = "linear_quant_zero_point"
    attr_value_linear_quant_algo_name = "linear_quant_algo"

    def __init__(self, quant_dtype, quant_algo_name, is_per_channel, **kwargs):
        super().__init__(quant_dtype.value(), quant_algo_name, is_per_channel)
        self.add_prim_attr("kwargs", kwargs)
        for key, value in kwargs.items():
            self.add_prim_attr(key, value)

    @classmethod
    def linear_quant_param(cls, quant_dtype, scale, zp, is_per_channel=False, **kwargs):
        """The marker of a linear quantisation: ``scale`` and ``zp`` (a number or a list, stored as lists)."""
        kwargs[cls.attr_key_linear_quant_scale] = scale if isinstance(scale, list) else [scale]
        kwargs[cls.attr_key_linear_quant_zero_point] = zp if isinstance(zp, list) else [zp]
        return cls(quant_dtype, cls.attr_value_linear_quant_algo_name, is_per_channel, **kwargs)


__all__ = [*_TABLE, "FakeQuantParam"]
