"""Streams and events of ``mindspore.runtime`` (``Stream``, ``Event``, ``StreamCtx`` ...) on JAX.

A MindSpore stream is an ordered queue of device work. JAX dispatches all of a device's work
asynchronously in one program order and exposes no streams; the work "submitted so far" is
what the live device arrays still wait for. So here:

- a :class:`Stream` is a named handle (id, priority, device) of that one ordered queue;
  ``synchronize`` blocks until every live array of the device is ready, ``query`` says whether
  they all are;
- :meth:`Event.record` marks the work submitted until now (the arrays live at that moment): a
  watcher thread waits for them and stamps the moment they are all done, so ``query``,
  ``synchronize`` and ``elapsed_time`` (milliseconds between two events' completions) are real;
- ``wait`` (work on a stream waits for an event) holds the host until the event completes, so no
  later work is dispatched before it: the ordering MindSpore gives, made stricter.

The Ascend AI-Core partitioning of a stream (``set_stream_limit``) and of the device
(``set_device_limit``) does not exist on XLA's backends: the limits read "not set" (-1); setting
one warns and changes nothing, as MindSpore's CPU backend accepts it and changes nothing.
"""
import itertools
import threading
import time

import jax

from sporax import log
from sporax.core import context
from sporax.core.memory import current_device

_stream_ids = itertools.count(2)  # 0: the default stream, 1: the communication stream


def _device_name():
    return context.get_context("device_target") or {"gpu": "GPU"}.get(jax.default_backend(), "CPU")


def _pending_arrays():
    device = current_device()
    return [array for array in jax.live_arrays()
            if not array.is_deleted() and any(shard.device == device for shard in array.addressable_shards)]


def _check_stream(stream, where, argument="stream", allow_none=False):
    if (stream is None and allow_none) or isinstance(stream, Stream):
        return
    raise TypeError(f"For '{where}', the argument '{argument}' should be Stream, but got {type(stream)}.")


class Stream:
    """A handle of the device's ordered work queue (``mindspore.runtime.Stream``).

    Args:
        priority (int): the stream's priority; lower is higher. XLA orders the work itself, so the
            priority is kept for the user only. Default: ``0``.
        kwargs: ``stream`` (another Stream: a handle of the same stream) or ``stream_id`` (int).

    Example:
        >>> import sporax as ms
        >>> s = ms.Stream()
        >>> with ms.StreamCtx(s):
        ...     y = ms.ops.ones((2, 2)) + 1
        >>> s.synchronize()
        >>> s.query()
        True
    """

    def __init__(self, priority=0, **kwargs):
        if isinstance(priority, bool) or not isinstance(priority, int):
            raise TypeError(f"For 'Stream', the argument 'priority' must be int, but got {type(priority)}.")
        other = kwargs.get("stream")
        if other is not None:
            _check_stream(other, "Stream")
            self.priority, self.id, self.device_id = other.priority, other.id, other.device_id
            return
        stream_id = kwargs.get("stream_id")
        if stream_id is not None and (isinstance(stream_id, bool) or not isinstance(stream_id, int)):
            raise TypeError(f"For 'Stream', the argument 'stream_id' must be int, but got {type(stream_id)}.")
        self.priority = priority
        self.id = next(_stream_ids) if stream_id is None else stream_id
        self.device_id = context.get_context("device_id")

    def stream_id(self):
        """The stream's id (int)."""
        return self.id

    def record_event(self, event=None):
        """Record ``event`` (a new :class:`Event` if None) on this stream and return it."""
        if event is None:
            event = Event()
        if not isinstance(event, Event):
            raise TypeError(f"For 'record_event', the argument 'event' should be Event, but got {type(event)}.")
        event.record(self)
        return event

    def wait_event(self, event):
        """Make the work submitted from now on wait for ``event``."""
        if not isinstance(event, Event):
            raise TypeError(f"For 'wait_event', the argument 'event' should be Event, but got {type(event)}.")
        event.wait(self)

    def wait_stream(self, stream):
        """Make the work submitted from now on wait for all the work submitted to ``stream`` so far."""
        _check_stream(stream, "wait_stream")
        self.wait_event(stream.record_event())

    def synchronize(self):
        """Block until all the work submitted so far has finished."""
        for array in _pending_arrays():
            array.block_until_ready()

    def query(self):
        """Whether all the work submitted so far has finished (bool)."""
        return all(array.is_ready() for array in _pending_arrays())

    def __eq__(self, other):
        if not isinstance(other, Stream):
            raise TypeError(f"For '__eq__', the argument 'other' should be Stream, but got {type(other)}.")
        return (self.id, self.device_id) == (other.id, other.device_id)

    def __hash__(self):
        return hash((self.id, self.device_id))

    def __repr__(self):
        return f"Stream(device_name={_device_name()}, device_id:{self.device_id}, stream id:{self.id})"


_default = Stream(stream_id=0)
_communication = Stream(stream_id=1)
_current = [_default]


class Event:
    """A marker of the work submitted to a stream up to a point (``mindspore.runtime.Event``).

    Args:
        enable_timing (bool): whether :meth:`elapsed_time` may be asked. Default: ``False``.
        blocking (bool): whether :meth:`wait` blocks (sporax's ``wait`` always holds the host until
            the event completes, so both values order work the same). Default: ``False``.

    Example:
        >>> import sporax as ms
        >>> start, end = ms.Event(enable_timing=True), ms.Event(enable_timing=True)
        >>> start.record()
        >>> y = ms.ops.matmul(ms.ops.ones((64, 64)), ms.ops.ones((64, 64)))
        >>> end.record()
        >>> end.synchronize()
        >>> start.elapsed_time(end) >= 0
        True
    """

    def __init__(self, enable_timing=False, blocking=False):
        for name, value in (("enable_timing", enable_timing), ("blocking", blocking)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'Event', the '{name}' must be a bool, but got {type(value).__name__}.")
        self.enable_timing = enable_timing
        self.blocking = blocking
        self._done = None  # set once the recorded work has finished
        self._finished_at = None
        self._pending = []

    def record(self, stream=None):
        """Mark the work submitted to ``stream`` (the current stream if None) until now."""
        _check_stream(stream, "record", allow_none=True)
        pending = [array for array in _pending_arrays() if not array.is_ready()]
        done = threading.Event()
        self._done, self._finished_at, self._pending = done, None, pending

        def watch():
            for array in pending:
                array.block_until_ready()
            pending.clear()  # let the arrays go as soon as they are ready
            self._finished_at = time.perf_counter()
            done.set()

        if pending:
            threading.Thread(target=watch, name="sporax-event", daemon=True).start()
        else:
            watch()

    def wait(self, stream=None):
        """Make the work submitted to ``stream`` (the current stream if None) from now on wait for this event."""
        _check_stream(stream, "wait", allow_none=True)
        self.synchronize()

    def synchronize(self):
        """Block until the work this event marks has finished (at once if it was never recorded)."""
        if self._done is not None:
            self._done.wait()

    def query(self):
        """Whether the work this event marks has finished (bool; True if never recorded)."""
        if self._done is None or self._done.is_set():
            return True
        # The watcher thread may not have stamped the finish yet although the work is done (a
        # ``stream.synchronize()`` just returned): ask the arrays themselves.
        return all(array.is_deleted() or array.is_ready() for array in list(self._pending))

    def elapsed_time(self, end_event):
        """Milliseconds from this event's completion to ``end_event``'s (float); both need ``enable_timing``."""
        if not isinstance(end_event, Event):
            raise TypeError(f"For 'elapsed_time', the argument 'end_event' should be Event, "
                            f"but got {type(end_event)}.")
        for event in (self, end_event):
            if not event.enable_timing:
                raise RuntimeError("For 'elapsed_time', both events must be created with enable_timing=True.")
            if event._done is None:
                raise RuntimeError("For 'elapsed_time', both events must be recorded before the elapsed time is "
                                   "asked: call event.record() first.")
            event.synchronize()
        return (end_event._finished_at - self._finished_at) * 1000.0


def current_stream():
    """The stream work is submitted to now (a :class:`Stream`).

    Example:
        >>> import sporax as ms
        >>> ms.current_stream() == ms.default_stream()
        True
    """
    return _current[0]


def default_stream():
    """The device's default stream (id 0).

    Example:
        >>> import sporax as ms
        >>> ms.default_stream().stream_id()
        0
    """
    return _default


def communication_stream():
    """The stream collectives are submitted to (id 1).

    Example:
        >>> import sporax as ms
        >>> ms.communication_stream().stream_id()
        1
    """
    return _communication


def set_cur_stream(stream):
    """Make ``stream`` the current stream (no-op for None); prefer :class:`StreamCtx`.

    Example:
        >>> import sporax as ms
        >>> ms.set_cur_stream(ms.default_stream())
    """
    if stream is None:
        return
    _check_stream(stream, "set_cur_stream")
    _current[0] = stream


class StreamCtx:
    """Context manager making ``ctx_stream`` the current stream inside it (no-op for None).

    Args:
        ctx_stream (Stream): the stream.

    Example:
        >>> import sporax as ms
        >>> s = ms.Stream()
        >>> with ms.StreamCtx(s):
        ...     ms.current_stream() == s
        True
    """

    def __init__(self, ctx_stream):
        _check_stream(ctx_stream, "StreamCtx", "ctx_stream", allow_none=True)
        self.stream = ctx_stream
        self.prev_stream = None

    def __enter__(self):
        if self.stream is not None:
            self.prev_stream = current_stream()
            set_cur_stream(self.stream)

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self.stream is not None:
            set_cur_stream(self.prev_stream)


# --- Ascend AI-Core partitioning: not set (-1) on XLA's backends ---
_NO_LIMIT = {"cube_core_num": -1, "vector_core_num": -1}


def _refuse_limit(api, cube_num, vector_num):
    """Check the limits' types; a limit asked for has no effect here, as on MindSpore's CPU backend.

    MindSpore 2.10 on CPU accepts ``set_stream_limit(s, 8, 8)``/``set_device_limit(0, 8, 8)`` and
    changes nothing (its docstrings call them so): sporax accepts them too, with a warning, as XLA's
    backends have no cube/vector units to partition.
    """
    for name, value in (("cube_num", cube_num), ("vector_num", vector_num)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"For '{api}', the argument '{name}' must be int, but got {type(value)}.")
    if (cube_num, vector_num) != (-1, -1):
        log.warning(f"mindspore.{api}(cube_num={cube_num}, vector_num={vector_num}) has no effect: it partitions "
                    "Ascend AI Cores (cube and vector units), which XLA's CPU/GPU/TPU backends do not have; they "
                    "schedule the device themselves. To restrict GPU memory use mindspore.set_memory(max_size=...).")


def get_stream_limit(stream):
    """The AI-Core limits of ``stream``: ``{"cube_core_num": -1, "vector_core_num": -1}`` (never set here).

    Example:
        >>> import sporax as ms
        >>> ms.get_stream_limit(ms.current_stream())
        {'cube_core_num': -1, 'vector_core_num': -1}
    """
    _check_stream(stream, "get_stream_limit")
    return dict(_NO_LIMIT)


def set_stream_limit(stream, cube_num=-1, vector_num=-1):
    """Limit the Ascend AI Cores of ``stream``: no effect on XLA's backends (a limit asked for warns).

    Example:
        >>> import sporax as ms
        >>> ms.set_stream_limit(ms.current_stream())
    """
    _check_stream(stream, "set_stream_limit")
    _refuse_limit("set_stream_limit", cube_num, vector_num)


def reset_stream_limit(stream):
    """Remove the AI-Core limits of ``stream`` (there are none on XLA's backends).

    Example:
        >>> import sporax as ms
        >>> ms.reset_stream_limit(ms.current_stream())
    """
    _check_stream(stream, "reset_stream_limit")


class StreamLimitCtx:
    """Context manager limiting the AI Cores of ``stream`` inside it: no effect here (a limit warns).

    Args:
        stream (Stream): the stream.
        cube_num (int): cube cores; -1 for no limit. Default: ``-1``.
        vector_num (int): vector cores; -1 for no limit. Default: ``-1``.

    Example:
        >>> import sporax as ms
        >>> with ms.StreamLimitCtx(ms.current_stream()):
        ...     pass
    """

    def __init__(self, stream, cube_num=-1, vector_num=-1):
        _check_stream(stream, "StreamLimitCtx")
        _refuse_limit("StreamLimitCtx", cube_num, vector_num)
        self.stream, self.cube_num, self.vector_num = stream, cube_num, vector_num

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        return None


def _check_device(api, device):
    # MindSpore takes the device id (an int; its CPU build accepts any, -1 too) and refuses a name.
    if isinstance(device, bool) or not isinstance(device, int):
        raise TypeError(f"For '{api}', the argument 'device' must be the device id (int), but got {device!r} "
                        f"({type(device).__name__}).")


def get_device_limit(device):
    """The AI-Core limits of ``device``: ``{"cube_core_num": -1, "vector_core_num": -1}`` (never set here).

    Example:
        >>> import sporax as ms
        >>> ms.get_device_limit(0)
        {'cube_core_num': -1, 'vector_core_num': -1}
    """
    _check_device("get_device_limit", device)
    return dict(_NO_LIMIT)


def set_device_limit(device, cube_num=-1, vector_num=-1):
    """Limit the Ascend AI Cores device ``device`` (its id) uses: no effect on XLA's backends (a limit warns).

    Example:
        >>> import sporax as ms
        >>> ms.set_device_limit(0)
    """
    _check_device("set_device_limit", device)
    _refuse_limit("set_device_limit", cube_num, vector_num)
