"""Which lowering an op takes: XLA's plain form, or a backend-specific fast form.

Contract: ``fast_lowering(name)`` answers, at trace time, whether the op family ``name``
('conv', 'pool', 'rnn', 'optimizer') may use its CPU-specific form. It is true only when JAX's default backend is
CPU (a GPU/TPU program never sees these forms) and the user has not asked for the plain form.

The plain form is forced by the environment variable ``SPORAX_PLAIN_LOWERING`` (``1``/``all``
or a comma list of families, read at each trace) or, for a block of code, by the context
manager ``plain_lowering()`` (tests compare both forms with it). The choice is made while a
function is traced, so a ``jit`` already compiled keeps the form it was traced with.

Example:
    >>> from sporax.ops.lowering import plain_lowering, fast_lowering
    >>> with plain_lowering():
    ...     fast_lowering("conv")
    False
"""
import contextlib
import functools
import os
import threading

import jax

_FORCED = threading.local()


@functools.lru_cache(maxsize=16)
def _plain_families(setting):
    """The op families ``SPORAX_PLAIN_LOWERING`` names (``None``: all of them)."""
    setting = setting.strip().lower()
    if setting in ("1", "all", "true", "yes"):
        return None
    return frozenset(part.strip() for part in setting.split(","))


def fast_lowering(name):
    """True when op family ``name`` may take its CPU-specific lowering in the current trace."""
    if getattr(_FORCED, "plain", 0):
        return False
    setting = os.environ.get("SPORAX_PLAIN_LOWERING")
    if setting:  # an eager hot path: the parsed setting is cached per value
        families = _plain_families(setting)
        if families is None or name in families:
            return False
    return jax.default_backend() == "cpu"


@contextlib.contextmanager
def plain_lowering():
    """Within this block, every op traces with XLA's plain lowering (for comparisons and tests)."""
    _FORCED.plain = getattr(_FORCED, "plain", 0) + 1
    try:
        yield
    finally:
        _FORCED.plain -= 1
