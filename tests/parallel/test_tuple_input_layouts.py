"""``Primitive.shard`` with a tuple of Layouts for a tuple input, as MindSpore 2.10 accepts it.

mindformers' multi-token prediction marks its Concat ``self_define_shard`` and gives the Concat's
tuple input one Layout per Tensor; without the mark MindSpore raises TypeError. Values recorded with
MindSpore 2.10 on CPU.
"""
import numpy as np
import pytest

from sporax import Layout, Tensor, ops


def _layout():
    return Layout((2, 2), ("dp", "mp"))


def test_self_define_shard_accepts_and_records_nested_layouts():
    layout = _layout()
    concat = ops.Concat(axis=-1).add_prim_attr("self_define_shard", True)
    concat.shard(in_strategy=((layout("dp", "None"), layout("dp", "mp")),), out_strategy=(layout("dp", "None"),))
    first = {"device_matrix": (2, 2), "tensor_map": (1, -1), "interleaved_parallel": False, "alias_name": ("dp", "mp")}
    second = dict(first, tensor_map=(1, 0))
    assert concat.attrs["in_layout"] == ((first, second),)
    assert concat.attrs["out_layout"] == (first,)
    # Outside a sharding mode the strategy does not change the values.
    parts = (Tensor(np.ones((2, 2), np.float32)), Tensor(np.zeros((2, 1), np.float32)))
    np.testing.assert_array_equal(concat(parts).asnumpy(), [[1, 1, 0], [1, 1, 0]])


def test_nested_layouts_need_the_mark():
    layout = _layout()
    with pytest.raises(TypeError, match="in_strategy.*of Concat is not valid.*must be int type"):
        ops.Concat(axis=-1).shard(in_strategy=((layout("dp", "None"), layout("dp", "None")),))


def test_mixed_items_record_as_tuple_strategy():
    # MindSpore 2.10 takes the first item's kind: a tuple first records ``in_strategy``.
    layout = _layout()
    concat = ops.Concat().add_prim_attr("self_define_shard", True)
    concat.shard(in_strategy=((2, 1), layout("dp", "None")))
    assert concat.attrs["in_strategy"][0] == (2, 1) and "in_layout" not in concat.attrs
