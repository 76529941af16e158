"""Which public functions of ``sporax.ops.functional`` are not op-table entries, and why: the table's coverage as data.

Every public function of ``sporax.ops.functional`` is an op-table entry (``sporax.ops.op_table``), or named here:

- ``PROGRAM_CONSTRUCTS``: deliberately not entries, each with its reason. They are not ops of values: transforms
  of functions (``grad``, ``vmap``), nodes of MindSpore's graph IR that only its compiler meets (``J``,
  ``environ_get``), control-flow and side-effect constructs (``switch_layer``, ``print_``), and constructors of
  sparse containers. The op test table cannot run them on sample values and compare with a reference.
- ``NOT_YET_ENTRIES``: ops that are still written by hand, by defining module: each family's migration into the
  table removes its names here.

``tests/ops/test_table_coverage.py`` checks that no public function is in neither.

Example:
    >>> from sporax.ops.table_coverage import PROGRAM_CONSTRUCTS, not_yet_entries
    >>> PROGRAM_CONSTRUCTS["vmap"]
    'a transform of a function (vectorises a Python function), not an op of values'
    >>> "rrelu" in not_yet_entries()
    True
"""

_TRANSFORM = "a transform of a function ({}), not an op of values"
_GRAPH_IR = "a node of MindSpore's graph IR ({}): only its compiler builds it; sporax traces Python instead"
_SPARSE = "builds or reads a sparse container ({}), not an op of Tensor values"

PROGRAM_CONSTRUCTS = {
    # transforms: a function in, a function out
    "vmap": _TRANSFORM.format("vectorises a Python function"),
    "jvp": _TRANSFORM.format("forward-mode derivative of a Python function"),
    "vjp": _TRANSFORM.format("reverse-mode derivative of a Python function"),
    "jacfwd": _TRANSFORM.format("Jacobian of a Python function, forward mode"),
    "jacrev": _TRANSFORM.format("Jacobian of a Python function, reverse mode"),
    "grad": _TRANSFORM.format("gradient of a Python function or Cell"),
    "value_and_grad": _TRANSFORM.format("value and gradient of a Python function or Cell"),
    "get_grad": "reads one gradient out of grad's result by a Parameter or position: a lookup, not an op",
    "linearize": _TRANSFORM.format("the value and a linear map of a Python function"),
    "derivative": _TRANSFORM.format("Taylor-mode higher derivative of a Python function"),
    "jet": _TRANSFORM.format("Taylor-mode series through a Python function"),
    "recompute_block": _TRANSFORM.format("a block whose activations are recomputed for the backward pass"),
    "partial": "binds arguments of a function: a function value, not an op",
    # MindSpore's graph IR
    "J": _GRAPH_IR.format("the gradient transform's node"),
    "array_reduce": _GRAPH_IR.format("a Tensor reduced to a broadcast source shape by a function value"),
    "array_to_scalar": _GRAPH_IR.format("a one-element Tensor read as a Python number"),
    "distribute": _GRAPH_IR.format("a value broadcast to a shape by the compiler"),
    "embed": _GRAPH_IR.format("a key for a value in the gradient environment"),
    "ref_to_embed": _GRAPH_IR.format("a key for a Parameter in the gradient environment"),
    "env_get": _GRAPH_IR.format("a read of the gradient environment"),
    "environ_create": _GRAPH_IR.format("an empty gradient environment"),
    "environ_get": _GRAPH_IR.format("a read of the gradient environment"),
    "environ_set": _GRAPH_IR.format("a write to the gradient environment"),
    "environ_add": _GRAPH_IR.format("two gradient environments merged"),
    "get_vm_impl_fn": _GRAPH_IR.format("a Primitive's Python implementation for MindSpore's VM"),
    "hastype": _GRAPH_IR.format("a type test the compiler folds"),
    "isconstant": _GRAPH_IR.format("whether a value is a compile-time constant"),
    "is_tensor_bool_cond": _GRAPH_IR.format("a check of an if-condition"),
    "is_sequence_shape_unknown": _GRAPH_IR.format("a dynamic-length query of a sequence"),
    "is_sequence_value_unknown": _GRAPH_IR.format("a dynamic-value query of a sequence"),
    "is_dynamic_sequence_element_unknown": _GRAPH_IR.format("a dynamic-element query of a sequence"),
    "iter_converter": _GRAPH_IR.format("a for-loop's iterable converted"),
    "prim_arg_register": "a decorator of Primitive __init__ methods (records their arguments), not an op",
    # control flow and side effects
    "switch_layer": "calls one of several Cells or functions chosen by an index: control flow, not an op of values",
    "geswitch": "a dataflow control-flow node (routes a value to one of two branches), not an op of values",
    "merge": "a dataflow control-flow node (takes the value of the branch that ran), not an op of values",
    "print_": "prints on the host (a side effect in program order): no value to compare",
    "tensordump": "writes a Tensor to a .npy file (a side effect): no value to compare",
    # sparse containers
    "make_sparse_tensor": _SPARSE.format("a COOTensor from indices, values and shape"),
    "make_row_tensor_inner": _SPARSE.format("a RowTensor from indices, values and shape"),
    "row_tensor_get_indices": _SPARSE.format("a RowTensor's indices"),
    "row_tensor_get_values": _SPARSE.format("a RowTensor's values"),
    "row_tensor_get_dense_shape": _SPARSE.format("a RowTensor's dense shape"),
    "row_tensor_add": _SPARSE.format("a RowTensor plus a dense Tensor, as a RowTensor"),
    "make_coo_tensor": _SPARSE.format("a COOTensor from indices, values and shape"),
    "make_csr_tensor": _SPARSE.format("a CSRTensor from indptr, indices, values and shape"),
    "make_row_tensor": _SPARSE.format("a RowTensor from indices, values and shape"),
    "coo_tensor_get_indices": _SPARSE.format("a COOTensor's indices"),
    "coo_tensor_get_values": _SPARSE.format("a COOTensor's values"),
    "coo_tensor_get_dense_shape": _SPARSE.format("a COOTensor's dense shape"),
    "csr_tensor_get_indptr": _SPARSE.format("a CSRTensor's row pointers"),
    "csr_tensor_get_indices": _SPARSE.format("a CSRTensor's column indices"),
    "csr_tensor_get_values": _SPARSE.format("a CSRTensor's values"),
    "csr_tensor_get_dense_shape": _SPARSE.format("a CSRTensor's dense shape"),
    "reshard": "places a Tensor on devices by a Layout (a sharding annotation): not an op of values",
}

# Ops not yet declared in the op table, by defining module (sporax.ops.*), at the time the list was made: a
# family's migration removes its names here (a name that became an entry is only reported stale, never an error).
NOT_YET_ENTRIES = {
    "functional.activation": """
        rrelu""",
    "functional.arithmetic": """
        float_power""",
    "functional.array": """
        cast cat dtype identity rank shape size""",
    "functional.array_embedding": """
        mirror_pad sparse_segment_mean view_as_real""",
    "functional.array_shaping": """
        contiguous numel sequence_mask take tril_indices triu_indices
        unique_consecutive unsorted_segment_max unsorted_segment_min unsorted_segment_prod unsorted_segment_sum""",
    "functional.bessel": """
        i0 igamma igammac""",
    "functional.categorical": """
        random_categorical""",
    "functional.comparison": """
        approximate_equal clip_by_value""",
    "functional.conv_pool": """
        embedding""",
    "functional.creation": """
        arange fill full full_like linspace logspace range scalar_to_tensor tuple_to_array""",
    "functional.ctc": """
        ctc_loss""",
    "functional.decompositions": """
        eig eigvals""",
    "functional.deformable": """
        deformable_conv2d""",
    "functional.factorizations": """
        lu_solve""",
    "functional.flash_attention": """
        flash_attention_score fused_infer_attention_score incre_flash_attention prompt_flash_attention""",
    "functional.fractional_pooling": """
        fractional_max_pool2d fractional_max_pool3d""",
    "functional.indexing": """
        argwhere masked_select nonzero one_hot select unique where""",
    "functional.inplace": """
        bernoulli_ bernoulli_ext clamp_ deepcopy dyn_shape erfinv_ exponential_ inplace_sigmoid""",
    "functional.linalg": """
        accumulate_n addn einsum tensor_dot""",
    "functional.linalg_products": """
        baddbmm_ext block_diag cartesian_prod cov einsum_ext""",
    "functional.math_counting": """
        angle bincount clip_by_norm diagonal_scatter diff_ext eps fills intopk is_complex is_floating_point
        is_nonzero is_tensor isreal""",
    "functional.nn_spatial": """
        affine_grid batch_to_space_nd col2im conv3d_transpose fold grid_sample""",
    "functional.normalization": """
        batch_norm""",
    "functional.norms": """
        clip_by_global_norm""",
    "functional.order_statistics": """
        nanquantile quantile top_k""",
    "functional.primitive_aliases": """
        float_power_ext isnan_ext mixed_precision_cast move_to normal_ random_ reshape_ stop_gradient_ tanh_
        tensor_exp tensor_expm1 tensor_floordiv tensor_lt tensor_range tensor_slice tensor_sub type_as uniform_
        zero_""",
    "functional.random": """
        dropout dropout1d dropout2d dropout3d""",
    "functional.sampling": """
        pad""",
    "functional.scatters": """
        scatter""",
    "functional.slicing": """
        repeat_interleave slice space_to_batch_nd strided_slice""",
    "functional.sparse_unary": """
        coo_abs coo_acos coo_acosh coo_asin coo_asinh coo_atan coo_atanh coo_ceil coo_cos coo_cosh coo_exp
        coo_expm1 coo_floor coo_inv coo_isfinite coo_isinf coo_isnan coo_log coo_log1p coo_neg coo_relu
        coo_relu6 coo_round coo_sigmoid coo_sin coo_sinh coo_softsign coo_sqrt coo_square coo_tan coo_tanh
        csr_abs csr_acos csr_acosh csr_asin csr_asinh csr_atan csr_atanh csr_ceil csr_cos csr_cosh csr_exp
        csr_expm1 csr_floor csr_inv csr_isfinite csr_isinf csr_isnan csr_log csr_log1p csr_neg csr_relu
        csr_relu6 csr_round csr_sigmoid csr_sin csr_sinh csr_softsign csr_sqrt csr_square csr_tan csr_tanh""",
    "functional.special_math": """
        ldexp polar polygamma pows""",
    "functional.speed_attention": """
        speed_fusion_attention""",
    "functional.transformer_blocks": """
        moe_init_routing_v2 multi_scale_deformable_attn_function""",
    "functional.update": """
        assign assign_add assign_sub""",
    "operations.random_distribution_ops": """
        multinomial_with_replacement poisson""",
}


def not_yet_entries():
    """Every name of ``NOT_YET_ENTRIES``, as one set."""
    return {name for names in NOT_YET_ENTRIES.values() for name in names.split()}
