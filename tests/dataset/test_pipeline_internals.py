"""Dataset's internal steps: create_ir_tree/parse_tree and hooks, input_indexs,
copy_batch_size, get_sync_notifiers, send/recv."""
import numpy as np
import pytest

import sporax.dataset as ds


def _pipeline():
    return ds.NumpySlicesDataset(np.arange(6), column_names=["x"], shuffle=False).batch(2)


def test_create_ir_tree_is_a_runnable_private_copy():
    data = _pipeline()
    root, dataset = data.create_ir_tree()
    assert root is dataset and root is not data
    assert [int(b[0].sum()) for b in root.create_tuple_iterator(output_numpy=True)] == [1, 5, 9]
    assert data.get_batch_size() == 2 and root.get_batch_size() == 2


def test_getter_mode_runs_with_one_worker():
    source = ds.GeneratorDataset(lambda: iter([(np.int32(i),) for i in range(3)]), ["x"],
                                 num_parallel_workers=2, python_multiprocessing=True)
    root, _ = source.map(lambda x: x + 1, num_parallel_workers=2).create_ir_tree(getter_mode=True)
    assert all(node.num_parallel_workers == 1 for node in root._nodes())
    assert root.children[0].python_multiprocessing is False
    assert source.python_multiprocessing is True  # the original is left alone


def test_parse_tree_refuses_a_node_with_two_consumers():
    shared = ds.NumpySlicesDataset([1, 2], column_names=["x"], shuffle=False)
    joined = shared.zip(shared.rename(["x"], ["y"]))
    with pytest.raises(ValueError, match="not a tree"):
        joined.parse_tree()
    assert _pipeline().parse_tree() is not None


def test_input_indexs_and_copy_batch_size():
    source = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"], shuffle=False)
    assert source.input_indexs == ()
    source.input_indexs = (1, 0)
    batched = source.batch(3)
    assert batched.input_indexs == (1, 0)
    batched.input_indexs = 10
    assert batched.input_indexs == 10
    batched.copy_batch_size(7)
    assert batched.get_batch_size() == 7


def test_sync_notifiers_release_the_wait():
    data = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"], shuffle=False)
    data = data.sync_wait(condition_name="policy", num_batch=1)
    notifiers = data.batch(1).get_sync_notifiers()
    assert list(notifiers) == ["policy"]
    seen = []
    for row in data.create_tuple_iterator(output_numpy=True, num_epochs=1):
        seen.append(int(row[0]))
        notifiers["policy"]()
    assert seen == [1, 2, 3]


def test_send_and_recv_explain_they_are_missing():
    with pytest.raises(NotImplementedError, match="mint.distributed"):
        _pipeline().send()
    with pytest.raises(NotImplementedError, match="num_shards"):
        _pipeline().recv()
