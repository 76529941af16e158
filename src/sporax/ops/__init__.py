"""``sporax.ops`` (``mindspore.ops``): every op once, as a function of Tensors; Primitive classes adapt onto them.

The lists are kept once each: the functional ops in ``ops/functional/__init__.py``, the Primitive
classes in ``ops/operations/__init__.py`` (both re-exported whole here), and below only the names
``mindspore.ops`` has beyond those two. Ops declared in the op table (``ops/op_table.py``) get
their faces from their entry.
"""
from sporax.ops.primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer, prim_attr_register
from sporax.ops.functional import *  # noqa: F401,F403 - the functional ops
from sporax.ops.operations import *  # noqa: F401,F403 - the Primitive classes
from sporax.ops.functional import identity  # ops.operations has an ``identity`` of its own; ops has the op
# Primitives that mindspore.ops.operations has and mindspore.ops does not.
del ConcatOffsetV1, SparseReorder, SparseSegmentMean  # noqa: F821
# --- composites, compiler helpers and custom-op registration that mindspore.ops also exports ---
from sporax.autodiff.grad_operation import GradOperation
from sporax.graph.composite import HyperMap, Map, MultitypeFuncGraph, add_flags
from sporax.graph.constants import constexpr, _primexpr
from sporax.ops.custom_op_builder import CustomOpBuilder
from sporax.ops.functional.graph_builtins import ms_hasnext, ms_next
from sporax.ops.functional.scalar import tail, zip_operation
from sporax.ops.op_info_register import TBERegOp, op_info_register
from sporax.ops.reg_op import (
    AiCPURegOp, AkgAscendRegOp, AkgGpuRegOp, CpuRegOp, CustomRegOp, DataType, custom_info_register)

# MindSpore 2.10's ops.communication (the process-group API), written on sporax.parallel.
from sporax.parallel.process_group import (  # noqa: E402
    P2POp, all_gather, all_gather_into_tensor, all_gather_into_tensor_uneven, all_gather_object, all_reduce,
    all_to_all, all_to_all_single, all_to_all_v_c, barrier, batch_isend_irecv, broadcast, broadcast_object_list,
    destroy_process_group, gather_into_tensor, gather_object, get_backend, get_global_rank, get_group_rank,
    get_process_group_ranks, get_rank, get_world_size, init_process_group, irecv, is_available, is_initialized,
    isend, new_group, recv, recv_object_list, reduce, reduce_scatter, reduce_scatter_tensor,
    reduce_scatter_tensor_uneven, scatter_object_list, scatter_tensor, send, send_object_list, set_comm_ops_inplace)
from sporax.parallel.comm_matmul import all_gather_matmul, matmul_reduce_scatter  # noqa: E402
from sporax.parallel.tcp_store import TCPStore  # noqa: E402

# Tensor methods and operators are a table onto the functions above; installed in this order
# (a later table's method of one name wins).
from sporax.ops import tensor_methods as _tensor_methods  # noqa: F401,E402
from sporax.ops import tensor_linalg_methods as _tensor_linalg_methods  # noqa: F401,E402
from sporax.ops import tensor_functional_methods as _tensor_functional_methods  # noqa: F401,E402
from sporax.ops import tensor_index_method  # noqa: F401,E402  (installs Tensor.index)
from sporax.ops import tensor_storage as _tensor_storage  # noqa: F401,E402
from sporax.ops import tensor_method_names  # noqa: F401,E402  (last: names every method Tensor.<name>)
