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


def _numbers(count):
    return ds.NumpySlicesDataset(np.arange(count), column_names=["x"], shuffle=False)


def test_a_dataset_feeding_two_pipelines_cannot_be_iterated():
    # Recorded on MindSpore 2.10: every operation built on a dataset is one of its consumers, whichever
    # pipeline it is in; creating an iterator over a pipeline through a node with two consumers raises.
    first, second = _numbers(3), _numbers(2)
    concatenated, added = first.concat(second), first + second
    for pipeline in (concatenated, added):
        for make in (lambda p: p.create_tuple_iterator(output_numpy=True), lambda p: p.create_dict_iterator(),
                     iter):
            with pytest.raises(ValueError) as info:
                make(pipeline)
            assert str(info.value) == "The data pipeline is not a tree (i.e., one node has 2 consumers)"
    # the shared node itself, as the root, still runs
    assert [int(row[0]) for row in first.create_tuple_iterator(output_numpy=True)] == [0, 1, 2]
    source = _numbers(2)
    repeated, batched = source.repeat(2), source.batch(1)  # noqa: F841 (batched only has to exist)
    with pytest.raises(ValueError, match=r"^The data pipeline is not a tree"):
        list(repeated)


def test_split_parts_are_separate_pipelines():
    parts = _numbers(5).map(lambda x: x, input_columns="x").split([2, 3], randomize=False)
    assert [[int(row[0]) for row in part.create_tuple_iterator(output_numpy=True)] for part in parts] == \
        [[0, 1], [2, 3, 4]]


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


def test_a_deep_copy_is_a_second_pipeline():
    # MindSpore's RandomResizeWithBBox docstring deep-copies a dataset and maps the original and the
    # copy differently; recorded on MindSpore 2.10: both run, each with its own operation.
    import copy
    source = ds.NumpySlicesDataset(np.arange(6).reshape(3, 2), column_names=["x"], shuffle=False)
    twin = copy.deepcopy(source)
    assert twin is not source
    doubled = source.map(lambda x: x * 2, input_columns=["x"])
    shifted = twin.map(lambda x: x + 1, input_columns=["x"])
    assert [row[0].tolist() for row in doubled.create_tuple_iterator(output_numpy=True)] == [[0, 2], [4, 6], [8, 10]]
    assert [row[0].tolist() for row in shifted.create_tuple_iterator(output_numpy=True)] == [[1, 2], [3, 4], [5, 6]]
    batched = copy.deepcopy(_pipeline())
    assert [int(b[0].sum()) for b in batched.create_tuple_iterator(output_numpy=True)] == [1, 5, 9]
