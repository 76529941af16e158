"""MindSpore 2.10's generated Primitive instances: ``mindspore.ops.auto_generate.cast_op`` is a ``Cast()``.

MindSpore's generated modules bind one instance of many Primitives at module level (``cast_op``, ``div_op``,
``upsample_nearest2d_op``); its own code and libraries call them. Each is made from the Primitive class sporax has,
with its default attributes, at first use (making them all at import would slow every import), and then kept:
``auto_generate.cast_op is auto_generate.cast_op``. ``sporax.compat`` serves them at MindSpore's paths.

Example:
    >>> from sporax.ops.operations import primitive_instances
    >>> primitive_instances.cast_op.name, primitive_instances.cast_op is primitive_instances.cast_op
    ('Cast', True)
"""
from sporax.ops import operations

# instance name: Primitive class name, as MindSpore 2.10's ops.auto_generate binds them
INSTANCES = dict(row.split(":") for row in """
    abs_op:Abs acos_op:ACos acosh_op:Acosh add_ext_op:AddExt add_op:Add add_scalar_op:AddScalar addcdiv_op:Addcdiv
    addcmul_op:Addcmul addn_op:AddN angle_op:Angle argmax_ext_op:ArgMaxExt asin_op:Asin asinh_op:Asinh
    assign_add_op:AssignAdd assign_op:Assign assign_sub_op:AssignSub atan2_op:Atan2 atan_op:Atan atanh_op:Atanh
    betainc_op:Betainc bmm_ext_op:BatchMatMulExt bool_not_op:BoolNot broadcast_to_view_op:BroadcastToView
    cast_op:Cast ceil_op:Ceil chunk_op:Chunk chunk_view_op:ChunkView clamp_scalar_op:ClampScalar complex_op:Complex
    conj_op:Conj contiguous_op:Contiguous copy_op:Copy cos_op:Cos cosh_op:Cosh count_nonzero_op:CountNonZero
    cumsum_ext_op:CumsumExt dense_op:Dense diag_op:Diag div_op:Div divs_op:Divs dropout_ext_op:DropoutExt
    dtype_to_type_id:DtypeToEnum dump_gradient_op:DumpGradient dynamic_quant_ext_op:DynamicQuantExt
    equal_ext_op:EqualExt equal_op:Equal erf_op:Erf erfc_op:Erfc erfinv_op:Erfinv exp_op:Exp
    expand_dims_op:ExpandDims expand_dims_view_op:ExpandDimsView expm1_op:Expm1 eye_op:Eye fast_gelu_op:FastGeLU
    flatten_ext_op:FlattenExt flatten_op:Flatten floor_div_op:FloorDiv floor_mod_op:FloorMod floor_op:Floor
    fmod_scalar_op:FmodScalar full_like_op:FullLike fused_add_topk_div_op:FusedAddTopKDiv gather_d_op:GatherD
    gather_nd_op:GatherNd gcd_op:Gcd gelu_ext_op:GeluExt gelu_op:GeLU geqrf_op:Geqrf greater_equal_op:GreaterEqual
    greater_equal_scalar_op:GreaterEqualScalar greater_op:Greater group_topk_op:GroupTopk
    grouped_matmul_v4_op:GroupedMatmulV4 hsigmoid_op:HSigmoid hswish_op:HSwish identity_op:Identity
    index_select_op:IndexSelect inplace_copy_op:InplaceCopy isfinite_op:IsFinite isinf_op:IsInf
    layer_norm_ext_op:LayerNormExt leaky_relu_ext_op:LeakyReLUExt left_shift_op:LeftShift lerp_op:Lerp
    lerp_scalar_op:LerpScalar less_equal_op:LessEqual less_op:Less less_scalar_op:LessScalar lin_space_op:LinSpace
    linalg_vector_norm_op:LinalgVectorNorm log1p_op:Log1p log_matrix_determinant_op:LogMatrixDeterminant log_op:Log
    log_softmax_ext_op:LogSoftmaxExt logical_and_op:LogicalAnd logical_not_op:LogicalNot logical_or_op:LogicalOr
    logical_xor_op:LogicalXor masked_fill_op:MaskedFill masked_fill_scalar_op:MaskedFillScalar
    masked_scatter_op:MaskedScatter masked_select_op:MaskedSelect matmul_ext_op:MatMulExt
    matrix_determinant_op:MatrixDeterminant matrix_exp_op:MatrixExp max_op:Max maximum_op:Maximum
    mean_ext_op:MeanExt min_op:Min minimum_op:Minimum moe_distribute_combine_op:MoeDistributeCombine
    moe_distribute_dispatch_op:MoeDistributeDispatch moe_finalize_routing_op:MoeFinalizeRouting
    moe_init_routing_v2_op:MoeInitRoutingV2 moe_token_unpermute_op:MoeTokenUnpermute mul_op:Mul muls_op:Muls
    narrow_op:Narrow narrow_view_op:NarrowView neg_op:Neg next_after_op:NextAfter non_zero_op:NonZero norm_op:Norm
    not_equal_op:NotEqual ones_like_ext_op:OnesLikeExt ones_like_op:OnesLike ones_op:Ones outer_op:Outer
    polar_op:Polar pow_op:Pow pow_scalar_tensor_op:PowScalarTensor pow_tensor_scalar_op:PowTensorScalar
    prelu_op:PReLU prod_ext_op:ProdExt quant_v2_op:QuantV2 real_div_op:RealDiv real_op:Real reciprocal_op:Reciprocal
    relu6_op:ReLU6 relu_op:ReLU reshape_and_cache_op:ReshapeAndCache reshape_op:Reshape right_shift_op:RightShift
    round_op:Round rsqrt_op:Rsqrt scalar_bool:ScalarBool scalar_cast_op:ScalarCast
    scalar_to_tensor_op:ScalarToTensor scatter_nd_op:ScatterNd scatter_op:Scatter select_op:Select
    sigmoid_op:Sigmoid sign_op:Sign silu_op:SiLU sin_op:Sin sinc_op:Sinc sinh_op:Sinh softplus_ext_op:SoftplusExt
    sort_ext_op:SortExt split_tensor_op:SplitTensor split_tensor_view_op:SplitTensorView
    split_with_size_op:SplitWithSize split_with_size_view_op:SplitWithSizeView sqrt_op:Sqrt square_op:Square
    sub_ext_op:SubExt sub_op:Sub sub_scalar_op:SubScalar sum_ext_op:SumExt swiglu_op:Swiglu t_ext_op:TExt tan_op:Tan
    tanh_op:Tanh tensor_copy_slices_op:TensorCopySlices tensor_scatter_add_op:TensorScatterAdd
    tensor_shape_op:TensorShape tensor_to_scalar_:TensorToScalar tensor_to_tuple_:TensorToTuple topk_ext_op:TopkExt
    trace_op:Trace transpose_ext_view_op:TransposeExtView transpose_op:Transpose transpose_view_op:TransposeView
    tril_ext_op:TrilExt trunc_op:Trunc tuple_to_tensor_op:TupleToTensor unsorted_segment_sum_op:UnsortedSegmentSum
    upsample_nearest1d_op:UpsampleNearest1D upsample_nearest2d_op:UpsampleNearest2D
    upsample_nearest3d_op:UpsampleNearest3D view_op:View xlogy_op:Xlogy zeros_like_ext_op:ZerosLikeExt
    zeros_like_op:ZerosLike zeros_op:Zeros
""".split())
_MADE = {}


def __getattr__(name):
    """The instance called ``name``, made on first use (PEP 562: only names not yet bound reach here)."""
    class_name = INSTANCES.get(name)
    if class_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name not in _MADE:
        _MADE[name] = getattr(operations, class_name)()
    return _MADE[name]


def __dir__():
    return sorted([*globals(), *INSTANCES])
