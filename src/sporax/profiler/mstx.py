"""``mstx``: user markers and ranges in the profiler trace (MindSpore's MSTX API).

MindSpore sends them to the Ascend tools extension; sporax writes them into the JAX trace that
``Profiler`` records (``jax.profiler.TraceAnnotation``), where TensorBoard and Perfetto show a mark
as an instant event and a range as a span on the calling thread. Outside a recording they cost a
dictionary entry and are dropped, as MSTX calls are when no profiler listens. ``stream`` (an
Ascend stream) is accepted and not needed.
"""
import itertools
import threading

import jax


class mstx:  # noqa: N801  (MindSpore's class name)
    """Mark instants and ranges in the profiler trace.

    Example:
        >>> from sporax.profiler import mstx
        >>> mstx.mark("data loaded")
        >>> range_id = mstx.range_start("forward")
        >>> mstx.range_end(range_id)
    """

    _ids = itertools.count(1)
    _open = {}
    _lock = threading.Lock()
    _enabled = True

    @staticmethod
    def _check(function, message, domain):
        if not isinstance(message, str) or not message:
            raise TypeError(f"For 'mstx.{function}', the 'message' must be a non-empty str, but got {message!r}.")
        if not isinstance(domain, str) or not domain:
            raise TypeError(f"For 'mstx.{function}', the 'domain' must be a non-empty str, but got {domain!r}.")

    @staticmethod
    def enable(value=True):
        """Switch the markers on or off (on by default)."""
        mstx._enabled = bool(value)

    @staticmethod
    def mark(message, stream=None, domain="default"):
        """Record an instant event named ``message`` (in ``domain``)."""
        mstx._check("mark", message, domain)
        if mstx._enabled:
            with jax.profiler.TraceAnnotation(message, domain=domain):
                pass

    @staticmethod
    def range_start(message, stream=None, domain="default"):
        """Open a range named ``message``; returns its id for ``range_end`` (0 when disabled)."""
        mstx._check("range_start", message, domain)
        if not mstx._enabled:
            return 0
        annotation = jax.profiler.TraceAnnotation(message, domain=domain)
        annotation.__enter__()
        with mstx._lock:
            range_id = next(mstx._ids)
            mstx._open[range_id] = (annotation, domain)
        return range_id

    @staticmethod
    def range_end(range_id, domain="default"):
        """Close the range ``range_id`` that ``range_start`` opened (unknown ids are ignored)."""
        if isinstance(range_id, bool) or not isinstance(range_id, int):
            raise TypeError(f"For 'mstx.range_end', the 'range_id' must be an int, but got {type(range_id).__name__}.")
        with mstx._lock:
            entry = mstx._open.pop(range_id, None)
        if entry is not None:
            entry[0].__exit__(None, None, None)
