"""``node_strategy_pb2``'s messages serialise to the bytes MindSpore 2.10's generated module writes."""
from sporax.parallel import communication
from sporax.parallel.strategy_file import _from_protobuf
from sporax.parallel.strategy_messages import ParallelStrategyMap

# MindSpore 2.10: ParallelStrategyMap(current_stage=0), one layout item 'w' with tensor_map [-1, 0].
MINDSPORE_BYTES = bytes.fromhex("08001a1a0a01771215120d08ffffffffffffffffff010800280030003800")


def _strategy():
    strategy = ParallelStrategyMap(current_stage=0)
    layouts = strategy.parallel_layout_item.add(param_name="w").parallel_layouts
    layouts.field = layouts.opt_weight_shard_step = layouts.opt_weight_shard_size = 0
    layouts.tensor_map.add().dim.extend([-1, 0])
    return strategy


def test_bytes_equal_mindspores_and_read_back():
    data = _strategy().SerializeToString()
    assert data == MINDSPORE_BYTES
    assert _from_protobuf(data)["w"].tensor_map[0].dim == [-1, 0]


def test_comm_helper_answers_as_mindspore_in_one_process():
    # Recorded with MindSpore 2.10, no init(): _is_initialized() False, _get_group_map() {}.
    assert communication._is_initialized() is False
    assert communication._get_group_map() == {}
    communication._remove_group_info("absent")  # MindSpore ignores an unknown group too


def test_distributed_tensor_info_counts_slices_as_mindspore():
    from sporax.parallel.layout import Layout, _DistributedTensorInfo
    layout = Layout((2, 2, 2), ("dp", "mp", "x"))
    # Recorded with MindSpore 2.10: [2, 4] and [1, 2].
    assert _DistributedTensorInfo(layout("dp", ("mp", "x"))).sharding_strategy == [2, 4]
    assert _DistributedTensorInfo(layout("None", "dp")).sharding_strategy == [1, 2]
