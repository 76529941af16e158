"""MindSpore's fused Ascend Primitives (MoE routing and dispatch, quantisation): importable, refused when called.

MindSpore 2.10 registers kernels for these on Ascend only: on CPU calling one raises a
RuntimeError ("The kernel ... unregistered"). Libraries import them at module level and choose
them only on Ascend, so sporax provides the classes with MindSpore's call signatures, and a call
raises NotImplementedError (a RuntimeError, so code catching MindSpore's error still does) that
names the Primitive and the unfused ops to use instead.

Example:
    >>> from sporax.ops.operations.ascend_fused_ops import MoeFinalizeRouting
    >>> try:
    ...     MoeFinalizeRouting()(None, None)
    ... except NotImplementedError as error:
    ...     print(str(error).split(":")[0])
    MoeFinalizeRouting
"""
import inspect

from sporax.ops.operations.ext_ops import spec_parameters
from sporax.ops.primitive import Primitive

# name -> (__init__ attributes, call inputs as "name" or "name=default", what to use instead)
_TABLE = {
    "MoeFinalizeRouting": ("", "expanded_x x1 x2=None bias=None scales=None expanded_row_idx=None "
                               "expanded_expert_idx=None", "gather the expert outputs and sum them weighted"),
    "MoeInitRoutingV2": ("", "x expert_idx active_num expert_capacity expert_num drop_pad_mode "
                             "expert_tokens_count_or_cumsum_flag expert_tokens_before_capacity_flag",
                         "sort the tokens by expert (ops.sort) and gather them"),
    "MoeTokenUnpermute": ("", "permuted_tokens sorted_indices probs=None padded_mode=False restore_shape=None",
                          "scatter the tokens back to their positions"),
    "MoeDistributeDispatch": ("", "x expert_ids ep_world_size ep_rank_id moe_expert_num expert_scales=None "
                                  "scales=None x_active_mask=None group_ep=None group_tp=None tp_world_size=0 "
                                  "tp_rank_id=0 expert_shard_type=0 shared_expert_num=0 shared_expert_rank_num=0 "
                                  "quant_mode=0 global_bs=0 expert_token_nums_type=0",
                              "ops.AlltoAll over the expert-parallel group"),
    "MoeDistributeCombine": ("", "expand_x expert_ids expand_idx ep_send_counts expert_scales ep_world_size "
                                 "ep_rank_id moe_expert_num tp_send_counts=None x_active_mask=None "
                                 "activate_scale=None weight_scale=None group_list=None expand_scales=None "
                                 "group_ep=None group_tp=None tp_world_size=0 tp_rank_id=0 expert_shard_type=0 "
                                 "shared_expert_num=0 shared_export_rank_num=0 global_bs=0 out_dtype=0 "
                                 "common_quant_mode=0 group_list_type=0",
                             "ops.AlltoAll over the expert-parallel group"),
    "FusedAddTopKDiv": ("", "x add_num group_num group_topk n k activate_type=0 is_norm=True scale=2.5 "
                            "mapping_num=None mapping_table=None enable_expert_mapping=False",
                        "ops.sigmoid, an add, ops.topk and a division"),
    "DynamicQuantExt": ("", "x smooth_scales=None", "float computation (no int8 quantisation)"),
    "QuantV2": ("", "x scale offset sqrt_mode=False rounding_mode='ROUND' dst_type=None",
                "float computation (no int8 quantisation)"),
    "QuantBatchMatmul": ("transpose_x1=False transpose_x2=False dtype=None",
                         "x1 x2 scale offset=None bias=None pertokenScaleOptional=None", "ops.matmul on floats"),
    "ApplyRotaryPosEmb": ("cos_format=0", "query key cos sin position_ids",
                          "the rotary embedding written with ops (halves rotated, times cos and sin)"),
    "GroupedMatmulV4": ("", "x weight bias=None scale=None offset=None antiquant_scale=None antiquant_offset=None "
                            "pre_token_scale=None group_list=None activation_input=None activation_quant_scale=None "
                            "activation_quant_offset=None split_item=0 group_type=-1 group_list_type=0 act_type=0 "
                            "output_dtype=None", "GroupedMatmul"),
}


def _parameters(spec):
    return inspect.Signature([inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
                              *spec_parameters(spec)])


def refused_primitive(name, attribute_spec, input_spec, message, summary, module=__name__):
    """A Primitive class with MindSpore's ``__init__`` (its attributes recorded) and call signature, whose call
    raises NotImplementedError(``message``): for Primitives MindSpore has no kernel for where sporax runs."""
    init_signature = _parameters(attribute_spec)

    def __init__(self, *values, **settings):
        Primitive.__init__(self, name)
        bound = init_signature.bind(self, *values, **settings)
        bound.apply_defaults()
        for attribute, value in list(bound.arguments.items())[1:]:
            setattr(self, attribute, value)
            self.add_prim_attr(attribute, value)

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(message)

    __init__.__signature__ = init_signature
    __call__.__signature__ = _parameters(input_spec)
    doc = (f"{summary}: calling it raises NotImplementedError.\n\n"
           f"    Inputs:\n        As MindSpore's ({input_spec.replace(' ', ', ')}).\n\n"
           f"    Outputs:\n        None: the call raises.\n")
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": module})


def _make(name, attribute_spec, input_spec, instead):
    message = (f"{name}: a fused Primitive that MindSpore 2.10 runs on Ascend only (on CPU its kernel is "
               f"unregistered), and sporax has no kernel for it. Use {instead} instead, or the library's "
               "non-fused code path (most choose it off Ascend).")
    return refused_primitive(name, attribute_spec, input_spec, message,
                             f"MindSpore's fused Ascend Primitive ``{name}`` (use {instead})")


for _name, (_attributes, _inputs, _instead) in _TABLE.items():
    globals()[_name] = _make(_name, _attributes, _inputs, _instead)
__all__ = list(_TABLE)
