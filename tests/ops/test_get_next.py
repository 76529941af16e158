"""ops.GetNext / nn.GetNextSingleOp reading a dataset sent with device_que().send().

MindSpore 2.10's CPU build cannot run GetNext (its kernel exists for Ascend/GPU only), so values
are checked against the NumPy data sent; the constructor errors are MindSpore's own texts,
recorded from the oracle.
"""
import time

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax import nn, ops

X = np.arange(24, dtype=np.float32).reshape(8, 3)
Y = np.arange(8, dtype=np.int32)
TYPES, SHAPES = [ms.float32, ms.int32], [(2, 3), (2,)]


def sent(num_epochs=1, **kwargs):
    data = ds.NumpySlicesDataset((X, Y), column_names=["x", "y"], shuffle=False).batch(2)
    transfer = data.device_que(**kwargs)
    transfer.send(num_epochs)
    return transfer


@pytest.fixture
def short_timeout():
    old = ms.get_context("op_timeout")
    ms.set_context(op_timeout=1)
    yield
    ms.set_context(op_timeout=old)


def test_get_next_reads_the_batches_in_order_then_reports_the_end(each_mode):
    transfer = sent(2)
    cell = nn.GetNextSingleOp(TYPES, SHAPES, transfer.queue_name)
    for epoch in range(2):
        for step in range(4):
            x, y = cell()
            np.testing.assert_array_equal(x.asnumpy(), X[2 * step:2 * step + 2])
            np.testing.assert_array_equal(y.asnumpy(), Y[2 * step:2 * step + 2])
            assert x.dtype == ms.float32 and y.dtype == ms.int32
    with pytest.raises(Exception, match="is closed and empty"):
        cell()


def test_get_next_inside_jit_is_an_ordered_host_read():
    transfer = sent(1, queue_name="jit-queue")
    get_next = ops.GetNext(TYPES, SHAPES, 2, "jit-queue")
    weight = ms.Tensor(np.array([1.0, 10.0, 100.0], np.float32))

    @ms.jit
    def step(w):
        x, y = get_next()
        return (x * w).sum() + y.sum().astype(ms.float32)

    results = [float(step(weight).asnumpy()) for _ in range(4)]
    expected = [float((X[i:i + 2] * [1, 10, 100]).sum() + Y[i:i + 2].sum()) for i in range(0, 8, 2)]
    assert results == expected
    transfer.release()


def test_named_queue_pause_and_resume(short_timeout, monkeypatch):
    # A one-batch queue keeps the sender blocked on its second batch, so the pause lands before the
    # dataset's end whatever the thread timing (with 16 slots it could send all 4 batches first).
    monkeypatch.setattr(ds.config, "get_prefetch_size", lambda: 1)
    transfer = sent(1, queue_name="named")
    transfer.stop_send()
    get_next = ops.GetNext(TYPES, SHAPES, 2, "named")
    labels = []
    with pytest.raises(RuntimeError, match="no batch arrived in data queue 'named' within 1.0 s"):
        for _ in range(5):  # at most what was queued before the pause, then nothing comes
            labels.append(get_next()[1].asnumpy().tolist())
    transfer.continue_send()
    while len(labels) < 4:
        labels.append(get_next()[1].asnumpy().tolist())
    assert labels == [[0, 1], [2, 3], [4, 5], [6, 7]]
    transfer.release()


def test_empty_queue_times_out_with_a_clear_error(short_timeout, each_mode):
    get_next = nn.GetNextSingleOp(TYPES, SHAPES, "nobody-sends-here")
    start = time.monotonic()
    with pytest.raises(Exception, match="no data queue named 'nobody-sends-here' was created within 1.0 s"):
        get_next()
    assert time.monotonic() - start < 10


def test_mismatched_types_and_shapes(each_mode):
    transfer = sent(-1)
    with pytest.raises(Exception, match=r"column 0 of the batch .* has type float32, but types\[0\] is Float16"):
        nn.GetNextSingleOp([ms.float16, ms.int32], SHAPES, transfer.queue_name)()
    with pytest.raises(Exception, match=r"column 1 of the batch .* has shape \(2,\), but shapes\[1\] is \(3,\)"):
        nn.GetNextSingleOp(TYPES, [(2, 3), (3,)], transfer.queue_name)()
    with pytest.raises(Exception, match="have 2 columns, but 1 types were declared"):
        nn.GetNextSingleOp(TYPES[:1], SHAPES[:1], transfer.queue_name)()
    transfer.release()


def test_dynamic_dimension_eager_and_refused_when_compiled():
    transfer = sent(1)
    get_next = ops.GetNext(TYPES, [(-1, 3), (-1,)], 2, transfer.queue_name)
    assert get_next()[0].shape == (2, 3)
    with pytest.raises(NotImplementedError, match="dynamic"):
        ms.jit(lambda: get_next())()
    transfer.release()


def test_pipeline_errors_close_the_queue():
    def broken(x):
        raise ValueError("bad row")

    data = ds.NumpySlicesDataset((X, Y), column_names=["x", "y"], shuffle=False).map(broken, "x")
    transfer = data.device_que()
    transfer.send()
    with pytest.raises(RuntimeError, match="(?s)the dataset pipeline failed: .*bad row"):
        ops.GetNext(TYPES, [(3,), ()], 2, transfer.queue_name)()


def test_transfer_dataset_is_not_iterable_and_reports_data_info():
    transfer = sent(1)
    with pytest.raises(RuntimeError, match="TransferDataset is not iterable."):
        transfer.create_tuple_iterator()
    types, shapes = transfer.get_data_info()
    assert types == [np.float32, np.int32] and shapes == [[2, 3], [2]]
    assert ops.GetNext(TYPES, SHAPES, 2, transfer.queue_name)()[1].asnumpy().tolist() == [0, 1]
    transfer.release()


ORACLE_ERRORS = [
    (([ms.float32], [(2, 3), (2,)], 1, "q"), ValueError,
     "For 'GetNext', the types length should be = shapes length: 2, but got 1."),
    (("x", [(2, 3)], 1, "q"), TypeError,
     "For 'GetNext', the type of 'types' should be one of '['list', 'tuple']', but got type 'str'."),
    (([ms.float32], [[2, 3]], 1.0, "q"), TypeError,
     "For 'GetNext', the type of 'output_num' should be 'int', but got type 'float'."),
]


@pytest.mark.parametrize("arguments, error, message", ORACLE_ERRORS)
def test_constructor_errors_match_mindspore(arguments, error, message):
    with pytest.raises(error) as info:
        ops.GetNext(*arguments)
    assert str(info.value) == message
    if "output_num" not in message:  # the Cell passes len(types) as output_num itself
        with pytest.raises(error):
            nn.GetNextSingleOp(arguments[0], arguments[1], arguments[3])


def test_graph_mode_get_next_errors_arrive_inside_jax_runtime_error():
    """PyNative/Graph difference: inside compiled code the read runs as an io_callback, so its
    RuntimeError reaches the caller wrapped in JAX's runtime error (the message is kept)."""
    import jax

    transfer = sent(-1)
    cell = nn.GetNextSingleOp([ms.float16, ms.int32], SHAPES, transfer.queue_name)
    old = ms.get_context("mode")
    try:
        ms.set_context(mode=ms.PYNATIVE_MODE)
        with pytest.raises(RuntimeError, match="has type float32, but types"):
            cell()
        ms.set_context(mode=ms.GRAPH_MODE)
        with pytest.raises(jax.errors.JaxRuntimeError, match="has type float32, but types"):
            cell()
    finally:
        ms.set_context(mode=old)
        transfer.release()


def test_dataset_helper_queue_feeds_get_next_single_op():
    """MindSpore's documented flow: the helper's transfer dataset names the queue to read."""
    data = ds.NumpySlicesDataset((X, Y), column_names=["x", "y"], shuffle=False).batch(2)
    helper = ms.DatasetHelper(data, dataset_sink_mode=True)
    dataset = helper.iter.dataset
    types, shapes = helper.types_shapes()
    queue_name = dataset.__transfer_dataset__.queue_name
    x, y = nn.GetNextSingleOp(types, shapes, queue_name)()
    np.testing.assert_array_equal(x.asnumpy(), X[:2])
    np.testing.assert_array_equal(y.asnumpy(), Y[:2])
    helper.release()


def test_a_release_run_by_the_collector_inside_create_does_not_deadlock():
    """A TransferDataset dropped in a reference cycle is released by the garbage collector, which may
    run in the middle of ``data_queue.create`` (a CI run hung there): the release must not wait for
    the registry lock its own thread holds."""
    import gc
    import threading

    from sporax.core import data_queue

    class Dropped:
        def __init__(self):
            self.cycle = self
            self.queue = data_queue.create("collector_release_old", 1)

        def __del__(self):
            data_queue.remove("collector_release_old", self.queue)

    def create_while_collecting():
        Dropped()
        with data_queue._lock:  # as inside create: the collector runs the finaliser on this thread
            gc.collect()
        data_queue.create("collector_release_new", 1)

    worker = threading.Thread(target=create_while_collecting, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "releasing a queue inside create deadlocked on the registry lock"
    assert data_queue.find("collector_release_new", timeout=1).name == "collector_release_new"
    data_queue.remove("collector_release_new", data_queue.find("collector_release_new", timeout=1))


def test_a_queue_nobody_opened_fails_in_seconds(monkeypatch):
    # MindSpore 2.10 fails at once (GPU: "Queue(test) Open Failed"; CPU: GetNext unsupported); sporax
    # waits a short grace (5 s; 0.5 s here) for a sender on another thread, not op_timeout (900 s).
    from sporax.ops.operations import data_queue_ops
    monkeypatch.setattr(data_queue_ops, "_OPEN_GRACE", 0.5)
    assert ms.get_context("op_timeout") > 60
    get_next = nn.GetNextSingleOp(TYPES, SHAPES, "never-opened")
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="no data queue named 'never-opened' was created within 0.5 s"):
        get_next()
    assert time.monotonic() - start < 10
