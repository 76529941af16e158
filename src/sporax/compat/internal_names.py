"""Names MindSpore binds in its generated and internal modules to objects it also exports publicly
(``mindspore.ops.function.math_func.amax_ext is mindspore.mint.amax``): the ``NAMES`` rows of the compat table.

Each row: alias path -> {name: sporax object path}; the alias module (``compat.hook``) looks a name up here when
its canonical module (``compat.table.ALIASES``) lacks it.

Example:
    >>> NAMES["mindspore.ops.function.math_func"]["amax_ext"]
    'sporax.mint.amax'
"""


def _public_spellings(namespace, internal_names):
    """Rows for MindSpore's generated names of public functions: ``amax_ext`` (and ``chunk_view``,
    ``transpose_ext_view``) is ``<namespace>.amax``; a name without such a suffix is the same name."""
    rows = {}
    for internal in internal_names.split():
        public = internal
        for suffix in ("_ext_view", "_ext", "_view"):
            if public.endswith(suffix):
                public = public[:-len(suffix)]
                break
        rows[internal] = f"{namespace}.{public}"
    return rows


# Names MindSpore binds in its generated/internal modules to objects it also exports publicly
# (``mindspore.ops.function.math_func.amax_ext is mindspore.mint.amax``); user code and MindSpore's
# own docstring examples call them there. Each row: alias path -> {name: sporax object path}; the
# alias module looks a name up here when its canonical module lacks it. Recorded from MindSpore
# 2.10 (the names whose object is identical to a public one that sporax has).
_GPU_PRECISION = ("matmul_allow_tf32", "conv_allow_tf32")
_GPU_TUNING = ("conv_fprop_algo", "conv_dgrad_algo", "conv_wgrad_algo")
_AUTO_GENERATE_NAMES = {
    **_public_spellings("sporax.mint", """
        acos_ext acosh_ext argmax_ext argmin_ext argsort_ext asin_ext asinh_ext atan2_ext atan_ext
        batch_norm_elemt batch_norm_gather_stats_with_counts batch_norm_stats bincount_ext bmm_ext
        broadcast_to_view clone conv_tbc cummin_ext cumsum_ext diag_ext frac_ext histc_ext
        index_select_ext isneginf_ext kthvalue log10_ext log2_ext logaddexp_ext logsumexp_ext mm_ext
        narrow_view npu_gelu outer_ext select_ext_view stack_ext topk_ext trace_ext
        transpose_ext_view triangular_solve vdot"""),
    **_public_spellings("sporax.mint.nn.functional", """
        adaptive_avg_pool3d_ext avg_pool1d_ext elu_ext fold_ext leaky_relu_ext max_unpool2d_ext mish_ext selu_ext
        softplus_ext unfold_ext"""),
    # The generated Primitive classes sporax has (MindSpore's own tests import them from these modules).
    **_public_spellings("sporax.ops.operations", """
        AddExt AddScalar ArgMaxExt BatchMatMulExt BoolNot BroadcastToView Chunk ChunkView ClampScalar Contiguous
        Copy Divs EqualExt ExpandDimsView FlattenExt FullLike GeluExt GreaterEqualScalar GroupNorm IndexSelect LayerNormExt
        LeakyReLUExt LessScalar LinalgVectorNorm MaskedFillScalar MatMulExt Max MeanExt Min Muls Narrow NarrowView
        Norm OnesLikeExt PowScalarTensor PowTensorScalar ProdExt ScalarAdd ScalarBool ScalarDiv ScalarEq
        ScalarFloorDiv ScalarGe ScalarGt ScalarLe ScalarLog ScalarLt ScalarMax ScalarMin ScalarMod ScalarMul
        ScalarPow ScalarSub ScalarUadd ScalarUsub SiLU SoftplusExt SplitTensor SplitTensorView SplitWithSize
        SplitWithSizeView SubExt SubScalar SumExt TExt TensorToScalar TrilExt TupleToTensor View ZerosLikeExt
        StackExt OneHotExt Scatter TopkExt CumsumExt SortExt FmodScalar GroupedMatmul Swiglu Outer
        MoeFinalizeRouting MoeInitRoutingV2 MoeTokenUnpermute MoeDistributeDispatch MoeDistributeCombine
        FusedAddTopKDiv DynamicQuantExt QuantV2 QuantBatchMatmul GroupedMatmulV4 DropoutExt InplaceCopy
        MaxDim MinDim NewOnes NewZeros SliceExt SliceExtView ListToTuple TupleToList"""),
    **_public_spellings("sporax.mint", "flatten_ext"),
    "clamp_scalar": "sporax.mint.clamp",  # MindSpore's two kernels of mint.clamp (number or Tensor bounds)
    "clamp_tensor": "sporax.mint.clamp",
    "expand_dims_view": "sporax.ops.functional.expand_dims",
    "transpose_view": "sporax.ops.functional.transpose",
    "copy": "sporax.mint.clone",
    "view": "sporax.ops.functional.reshape",
    "inplace_addr": "sporax.mint.addr_",
    "inplace_elu": "sporax.ops.functional.inplace.inplace_elu",
    "inplace_silu": "sporax.ops.functional.inplace.inplace_silu",
    "inplace_hardtanh": "sporax.mint.nn.functional.hardtanh_",
    "inplace_threshold": "sporax.mint.nn.functional.threshold_",
    "linalg_qr": "sporax.mint.linalg.qr",
    "muls": "sporax.ops.tensor_muls",
    "slice_op": "sporax.ops.tensor_slice",
    # ``add_ext(input, other, alpha)`` takes ``alpha`` by position too (mint.add's is keyword-only).
    "add_ext": "sporax.ops.operations.primitive_instances.add_ext_op",
    "sub_ext": "sporax.ops.operations.primitive_instances.sub_ext_op",
}

NAMES = {
    "mindspore.ops.function.math_func": {
        **_public_spellings("sporax.mint", """
            acos_ext acosh_ext addbmm_ext addcmul_ext addmm_ext addmv_ext amax_ext amin_ext
            arccos_ext arccosh_ext arcsin_ext arcsinh_ext arctan2_ext arctan_ext argmax_ext asin_ext
            asinh_ext atan2_ext atan_ext bincount_ext bitwise_and_ext bitwise_or_ext bitwise_xor_ext
            bmm_ext frac_ext histc_ext inverse_ext linspace_ext median_ext norm_ext pow_ext std_ext
            std_mean_ext var_ext var_mean_ext"""),
        **_public_spellings("sporax.mint.linalg", "matrix_norm_ext vector_norm_ext"),
        "linalg_norm": "sporax.mint.linalg.norm",
        "muls": "sporax.ops.tensor_muls",
        "mean_ext": "sporax.ops.mean",  # (input, axis=None, keep_dims=False): ops.mean's parameters
    },
    "mindspore.ops.function.array_func": {
        **_public_spellings("sporax.mint", """
            arange_ext chunk_view full_ext full_like_ext gather_ext meshgrid_ext ones_like_ext
            scatter_add_ext sort_ext split_view tril_ext unbind_ext unique_ext unsqueeze_view
            zeros_like_ext"""),
        "slice_op": "sporax.ops.tensor_slice",
        "chunk_ext": "sporax.mint.chunk",
        "max_ext": "sporax.mint.max",
        "min_ext": "sporax.mint.min",
        "new_ones": "sporax.ops.tensor_shape.new_ones",
        "new_zeros": "sporax.ops.tensor_shape.new_zeros",
        "arg_max_with_value_": "sporax.ops.operations.reduce_ops.arg_max_with_value_",
        "arg_min_with_value_": "sporax.ops.operations.reduce_ops.arg_min_with_value_",
    },
    "mindspore.ops.function.nn_func": {
        **_public_spellings("sporax.mint.nn.functional", """
            avg_pool2d_ext avg_pool3d_ext batch_norm_ext cross_entropy_ext dropout2d_ext dropout_ext
            glu_ext interpolate_ext kl_div_ext log_softmax_ext logsigmoid_ext max_pool2d_ext
            nll_loss_ext pad_ext relu_ l1_loss_ext softmax_ext"""),
        **_public_spellings("sporax.mint", "conv2d_ext gather_ext flatten_ext"),
        "ctc_greedy_decoder": "sporax.ops.ctc_greedy_decoder",
        # interpolate_ext's size helpers (mindone's layers_compat), MindSpore's own spelling
        "_interploate_ext_make_tuple": "sporax.ops.functional.interpolate_sizes.per_spatial_axis",
        "_interpolate_ext_scale_factor_convert_size": "sporax.ops.functional.interpolate_sizes.scale_factor_to_size",
    },
    "mindspore.ops.function.random_func": _public_spellings("sporax.mint", """
        multinomial_ext normal_ext rand_ext rand_like_ext randint_ext randint_like_ext randn_ext
        randn_like_ext randperm_ext"""),
    "mindspore.ops.auto_generate": _AUTO_GENERATE_NAMES,
    # The classes of the pipeline's stages (``isinstance(ds.batch(2), BatchDataset)``), each in its own module here.
    "mindspore.dataset.engine.datasets": {
        **{name: f"sporax.dataset.engine.batching.{name}"
           for name in ("BatchDataset", "BucketBatchByLengthDataset", "PaddedBatchDataset")},
        **{name: f"sporax.dataset.engine.operations.{name}"
           for name in ("ConcatDataset", "FilterDataset", "ProjectDataset", "RenameDataset", "RepeatDataset",
                        "ShuffleDataset", "SkipDataset", "TakeDataset", "ZipDataset")},
        "MapDataset": "sporax.dataset.engine.mapping.MapDataset",
        "SyncWaitDataset": "sporax.dataset.engine.sync.SyncWaitDataset",
        "TransferDataset": "sporax.dataset.engine.transfer.TransferDataset",
    },
    # ``nn.layer``'s CosineSimilarity is a Cell; the ``mindspore.nn`` one is the metric (sporax.nn's).
    **dict.fromkeys(("mindspore.nn.layer", "mindspore.nn.layer.math"),
                    {"CosineSimilarity": "sporax.nn.layer.math_cells.CosineSimilarity"}),
    "mindspore.ops": {"Tensor": "sporax.core.tensor.Tensor"},  # MindSpore's ops re-exports the Tensor class
    # One module serves the three targets; each path's names are its target's functions.
    **{f"mindspore.device_context.{target}": {name: f"sporax.core.device_targets.{target}_{name}"
                                              for name in names}
       for target, names in (("cpu", ("device_count", "is_available", "threads_num")),
                             ("ascend", ("device_count", "is_available")))},
    "mindspore.device_context.cpu.op_tuning": {"threads_num": "sporax.core.device_targets.cpu_threads_num"},
    # The GPU's operator settings (MindSpore's gpu namespace re-exports op_precision's and op_tuning's).
    **{path: {name: f"sporax.core.device_targets.gpu_{name}" for name in names}
       for path, names in (("mindspore.device_context.gpu",
                            _GPU_PRECISION + _GPU_TUNING + ("device_count", "is_available")),
                           ("mindspore.device_context.gpu.op_precision", _GPU_PRECISION),
                           ("mindspore.device_context.gpu.op_tuning", _GPU_TUNING))},
    # Ascend's operator debugging and tuning settings, and the GPU's device queries (also in gpu's namespace).
    **{path: {name: f"sporax.core.device_targets.{target}_{name}" for name in names}
       for path, target, names in (
           ("mindspore.device_context.ascend.op_debug", "ascend",
            ("execute_timeout", "debug_option", "aclinit_config")),
           ("mindspore.device_context.ascend.op_tuning", "ascend",
            ("op_compile", "aoe_tune_mode", "aoe_job_type", "aclnn_cache")),
           ("mindspore.device_context.gpu.device", "gpu", ("device_count", "is_available")))},
    # Ascend's operator-precision settings (accepted and ignored off Ascend, as MindSpore does).
    "mindspore.device_context.ascend.op_precision": {
        name: f"sporax.core.device_targets.ascend_{name}"
        for name in ("precision_mode", "op_precision_mode", "matmul_allow_hf32", "conv_allow_hf32")},
    "mindspore.ops.auto_generate.gen_ops_def": _AUTO_GENERATE_NAMES,
    "mindspore.ops.auto_generate.gen_ops_prim": _AUTO_GENERATE_NAMES,
    "mindspore.common.api": {"flops_collection": "sporax.train.ascend_services.flops_collection"},
    "mindspore.common.seed": {"_get_graph_seed": "sporax.core.seeded_streams.graph_seed"},
    "mindspore.parallel.shard": {"_DistributedTensorInfo": "sporax.parallel.layout._DistributedTensorInfo"},
    # The C++ context object and process queries libraries read (mindformers' version_control).
    "mindspore._c_expression": {**{name: f"sporax.core.backend_context.{name}"
                                   for name in ("MSContext", "is_reboot_node", "swap_cache")},
                                # mindnlp 0.4's Parameter builds one with no arguments.
                                "ParamInfo": "sporax.core.parameter.ParamInfo"},
    # Its other names are mint's own (the row above serves the module from sporax.mint).
    "mindspore.ops.functional_overload": {
        **_public_spellings("sporax.mint.nn.functional", "conv1d conv2d conv3d gelu pixel_shuffle"),
        **_public_spellings("sporax.ops", "all_gather_matmul matmul_reduce_scatter nsa_compress"),
    },
}
