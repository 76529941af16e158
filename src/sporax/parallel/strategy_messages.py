"""MindSpore's parallel strategy protobuf messages (``node_strategy.proto``), as message classes.

``mindspore.train.node_strategy_pb2`` is the generated module of this schema; libraries build
``ParallelStrategyMap`` messages with it and write strategy files (``SerializeToString``) that
``build_searched_strategy`` reads. The classes are made from the schema table below with the
descriptor-pool builder of the MindIR messages; field numbers, labels and types are MindSpore 2.10's.

Example:
    >>> from sporax.parallel.strategy_messages import ParallelStrategyMap
    >>> strategy = ParallelStrategyMap(current_stage=0)
    >>> item = strategy.parallel_strategy_item.add(node_name="w")
    >>> item.parallel_strategys.stage = 0
    >>> item.parallel_strategys.parallel_strategy.add().dim.extend([2, 1])
    >>> ParallelStrategyMap.FromString(strategy.SerializeToString()).parallel_strategy_item[0].node_name
    'w'
"""
from sporax.io.mindir.proto import REPEATED, REQUIRED, build_messages




def _dims(kind):
    return [(1, "dim", REPEATED, kind)]


_MESSAGES = {
    "ParallelStrategy": _dims("uint32"),
    "ParallelStrategys": [(1, "stage", REQUIRED, "uint32"), (2, "parallel_strategy", REPEATED, "ParallelStrategy")],
    "ParallelStrategyItem": [(1, "node_name", REQUIRED, "string"),
                             (2, "parallel_strategys", REQUIRED, "ParallelStrategys")],
    "DevMatrix": _dims("uint32"),
    "TensorMap": _dims("int32"),
    "ParamSplitShape": _dims("int64"),
    "IndicesOffset": _dims("int64"),
    "ParallelLayouts": [(1, "dev_matrix", REPEATED, "DevMatrix"), (2, "tensor_map", REPEATED, "TensorMap"),
                        (3, "param_split_shape", REPEATED, "ParamSplitShape"),
                        (4, "indices_offset", REPEATED, "IndicesOffset"), (5, "field", REQUIRED, "int32"),
                        (6, "opt_weight_shard_step", REQUIRED, "int32"),
                        (7, "opt_weight_shard_size", REQUIRED, "int32")],
    "ParallelLayoutItem": [(1, "param_name", REQUIRED, "string"), (2, "parallel_layouts", REQUIRED, "ParallelLayouts")],
    "ParallelGroupRanks": _dims("uint32"),
    "ParallelGroupItem": [(1, "group_name", REQUIRED, "string"),
                          (2, "parallel_group_ranks", REQUIRED, "ParallelGroupRanks")],
    "ParallelGroupMap": [(1, "parallel_group_item", REPEATED, "ParallelGroupItem"),
                         (2, "ckpt_restore_rank_list", REQUIRED, "ParallelGroupRanks")],
    "ParallelStrategyMap": [(1, "current_stage", REQUIRED, "uint32"),
                            (2, "parallel_strategy_item", REPEATED, "ParallelStrategyItem"),
                            (3, "parallel_layout_item", REPEATED, "ParallelLayoutItem")],
}
globals().update(build_messages("sporax_node_strategy.proto", "mindspore.straspb", _MESSAGES))
__all__ = list(_MESSAGES)
