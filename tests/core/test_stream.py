"""Streams and events over JAX's one ordered dispatch queue."""
import time

import numpy as np
import pytest

import sporax as ms
from sporax.core import stream as stream_module


def test_default_current_and_communication_streams():
    assert ms.current_stream() == ms.default_stream()
    assert ms.default_stream().stream_id() == 0
    assert ms.communication_stream().stream_id() == 1
    assert repr(ms.default_stream()) == "Stream(device_name=CPU, device_id:0, stream id:0)"
    stream = ms.Stream()
    assert stream.stream_id() > 1 and stream != ms.default_stream()
    assert ms.Stream(stream=stream) == stream and hash(ms.Stream(stream=stream)) == hash(stream)


def test_stream_ctx_and_set_cur_stream_restore_the_previous_stream():
    stream = ms.Stream()
    with ms.StreamCtx(stream):
        assert ms.current_stream() == stream
        with ms.StreamCtx(None):
            assert ms.current_stream() == stream
    assert ms.current_stream() == ms.default_stream()
    ms.set_cur_stream(stream)
    try:
        assert ms.current_stream() == stream
        ms.set_cur_stream(None)  # no-op
        assert ms.current_stream() == stream
    finally:
        ms.set_cur_stream(ms.default_stream())


def test_events_mark_work_and_time_it():
    start, end = ms.Event(enable_timing=True), ms.Event(enable_timing=True)
    start.record()
    x = ms.ops.ones((256, 256))
    for _ in range(3):
        x = ms.ops.matmul(x, x) / 256
    end.record(ms.current_stream())
    end.synchronize()
    assert end.query() and start.query()
    elapsed = start.elapsed_time(end)
    assert elapsed >= 0.0
    np.testing.assert_allclose(x.asnumpy(), np.ones((256, 256)))


def test_synchronize_and_query_wait_for_pending_work():
    stream = ms.Stream()
    y = ms.ops.matmul(ms.ops.ones((128, 128)), ms.ops.ones((128, 128)))
    stream.synchronize()
    assert stream.query()
    event = stream.record_event()
    stream.wait_event(event)
    ms.default_stream().wait_stream(stream)
    assert event.query()
    assert float(y.asnumpy()[0, 0]) == 128.0


def test_elapsed_time_needs_timing_and_records():
    with pytest.raises(RuntimeError, match="enable_timing"):
        ms.Event().elapsed_time(ms.Event())
    with pytest.raises(RuntimeError, match="recorded"):
        ms.Event(enable_timing=True).elapsed_time(ms.Event(enable_timing=True))
    assert ms.Event().query()  # never recorded: nothing to wait for
    started = time.perf_counter()
    ms.Event().synchronize()
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("call, message", [
    (lambda: ms.Event(enable_timing=1), "'enable_timing' must be a bool"),
    (lambda: ms.Stream(priority="high"), "'priority' must be int"),
    (lambda: ms.set_cur_stream(0), "'stream' should be Stream"),
    (lambda: ms.StreamCtx("s"), "'ctx_stream' should be Stream"),
    (lambda: ms.default_stream().record_event(3), "'event' should be Event"),
    (lambda: ms.default_stream() == 3, "'other' should be Stream"),
])
def test_bad_arguments_name_the_argument(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_ai_core_limits_read_unset_and_partitions_have_no_effect():
    # MindSpore 2.10 on CPU (its docstrings' calls): set_stream_limit(s, 8, 8) and set_device_limit(0, 8, 8)
    # return None and change nothing; the device is an id (int), a name is a TypeError.
    stream = ms.current_stream()
    assert ms.get_stream_limit(stream) == {"cube_core_num": -1, "vector_core_num": -1}
    assert ms.get_device_limit(0) == {"cube_core_num": -1, "vector_core_num": -1}
    ms.set_stream_limit(stream)
    ms.reset_stream_limit(stream)
    ms.set_device_limit(0, -1, -1)
    with ms.StreamLimitCtx(stream):
        pass
    assert ms.set_stream_limit(ms.Stream(), 8, 8) is None
    assert ms.set_device_limit(0, 8, 8) is None
    with ms.StreamLimitCtx(stream, 4, 8):
        pass
    assert ms.get_device_limit(0) == {"cube_core_num": -1, "vector_core_num": -1}
    assert ms.get_stream_limit(stream) == {"cube_core_num": -1, "vector_core_num": -1}
    with pytest.raises(TypeError, match="'device' must be the device id"):
        ms.get_device_limit("CPU")
    with pytest.raises(TypeError, match="'device' must be the device id"):
        ms.set_device_limit(1.5, 8, 8)



def test_query_answers_from_the_work_before_the_watcher_stamps_it(monkeypatch):
    # MindSpore's hal.Event.query example: record on a stream, synchronize it, `assert ev.query()`. The watcher
    # thread that stamps the finish may not have run yet (here: never starts); the finished work answers.
    class IdleThread:
        def __init__(self, *args, **kwargs):
            pass

        def start(self):
            pass

    class Work:  # a device array still computing, then done
        ready = False

        def is_ready(self):
            return self.ready

        def is_deleted(self):
            return False

    work = Work()
    monkeypatch.setattr(stream_module.threading, "Thread", IdleThread)
    monkeypatch.setattr(stream_module, "_pending_arrays", lambda: [work])
    event = ms.Event()
    event.record()
    assert not event.query()
    work.ready = True
    assert event.query()
