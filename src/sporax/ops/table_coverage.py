"""Which public functions of ``sporax.ops.functional`` are not op-table entries, and why: the table's coverage as data.

Every public function of ``sporax.ops.functional`` is an op-table entry (``sporax.ops.op_table``), or named here:

- ``PROGRAM_CONSTRUCTS``: deliberately not entries, each with its reason. They are not ops of values: transforms
  of functions (``grad``, ``vmap``), nodes of MindSpore's graph IR that only its compiler meets (``J``,
  ``environ_get``), control-flow and side-effect constructs (``switch_layer``, ``print_``), and constructors of
  sparse containers. The op test table cannot run them on sample values and compare with a reference.
- ``OTHER_SPELLINGS``: MindSpore's other names of an entry (``tensor_exp`` for ``exp``), with their own parameter
  names or argument forms: each calls the entry, so the kernel is still declared once.
- ``NOT_YET_ENTRIES``: ops still written by hand, each with what keeps it out of the table today.

``tests/ops/test_table_coverage.py`` checks that every public function is in exactly one of the four, and that no
listed name has become an entry (the lists stay true).

Example:
    >>> from sporax.ops.table_coverage import OTHER_SPELLINGS, PROGRAM_CONSTRUCTS, not_yet_entries
    >>> PROGRAM_CONSTRUCTS["vmap"]
    'a transform of a function (vectorises a Python function), not an op of values'
    >>> OTHER_SPELLINGS["tensor_exp"]
    'exp'
    >>> sorted(not_yet_entries())  # every functional op of values is an entry
    []
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
    "is_tensor": "isinstance(obj, Tensor) of any Python object (a number answers False), in MindSpore too: a type "
                 "test, not an op of Tensor values",
    "reshard": "places a Tensor on devices by a Layout (a sharding annotation): not an op of values",
}

# MindSpore's other spellings of an entry (their own parameter names, keyword-only settings or a list form of the
# operands): each calls the entry's functional face (``faces.renamed`` or a one-line wrapper), so the kernel, its
# dtype rule and its checks are the entry's. Name -> the entry it calls.
OTHER_SPELLINGS = {
    "tensor_exp": "exp", "tensor_expm1": "expm1", "tensor_floordiv": "floor_div", "tensor_lt": "lt",
    "tensor_sub": "sub", "tensor_range": "range", "tensor_slice": "slice", "float_power_ext": "float_power",
    "isnan_ext": "isnan", "einsum": "einsum_operands", "einsum_ext": "einsum_operands", "baddbmm_ext": "baddbmm",
    "diff_ext": "diff",
}

# Ops still written by hand, each with what keeps it out of the table today (none now: a new hand-written op
# names its reason here).
NOT_YET_ENTRIES = {}


def not_yet_entries():
    """Every name of ``NOT_YET_ENTRIES``, as one set."""
    return set(NOT_YET_ENTRIES)
