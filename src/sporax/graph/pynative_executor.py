"""MindSpore's PyNative executor handle (``mindspore.common.api._pynative_executor``).

MindSpore's own tests and some user code call ``_pynative_executor.sync()`` to wait until every
eagerly launched kernel has finished, and mark view tensors with ``set_creation_type``. In sporax
the eager executor is JAX's asynchronous dispatch: ``sync`` blocks on it. sporax never raises
MindSpore's view-inplace errors, so a creation type is recorded on the tensor for inspection only.

Example:
    >>> from sporax.graph.pynative_executor import _pynative_executor
    >>> _pynative_executor.sync()
"""
import enum
import weakref

import jax


class CreationType(enum.IntEnum):
    """How a (view) tensor was created; MindSpore checks it before in-place updates."""

    DEFAULT = 0
    NO_GRAD_MODE = 1
    CUSTOM_BPROP = 2
    MULTI_OUTPUT = 3


class PyNativeExecutor:
    """The eager executor: waits for launched work and records tensor creation types."""

    def __init__(self):
        # id -> (weak reference, type): Tensors have no instance dict and compare elementwise.
        self._creation_types = {}
        self.async_for_graph = False

    def sync(self):
        """Block until every op dispatched so far has run (MindSpore's ``sync``)."""
        jax.effects_barrier()
        for array in jax.live_arrays():
            array.block_until_ready()

    def set_async_for_graph(self, flag=False):
        """Let compiled graphs run asynchronously (``True``) or not (MindSpore's ``set_async_for_graph``).

        mindformers' ``generate`` brackets each decoding step with ``True``/``False``. JAX always
        dispatches compiled programs asynchronously and every read of a value (``asnumpy``) waits
        for it, so the flag only has to be accepted; it is kept for inspection.
        """
        if not isinstance(flag, bool):
            raise TypeError("For 'set_async_for_graph', 'flag' must be a bool, "
                            f"but got {type(flag).__name__}.")
        self.async_for_graph = flag

    def set_creation_type(self, tensor, creation_type):
        """Record ``creation_type`` (a ``CreationType``) on ``tensor``."""
        if not isinstance(creation_type, CreationType):
            raise TypeError("For 'set_creation_type', 'creation_type' must be a CreationType, "
                            f"but got {type(creation_type).__name__}.")
        key = id(tensor)
        self._creation_types[key] = (
            weakref.ref(tensor, lambda _ref: self._creation_types.pop(key, None)), creation_type)

    def get_creation_type(self, tensor):
        """The creation type recorded for ``tensor`` (``CreationType.DEFAULT`` when none)."""
        entry = self._creation_types.get(id(tensor))
        if entry is None or entry[0]() is not tensor:
            return CreationType.DEFAULT
        return entry[1]

    def __repr__(self):
        return "<PyNativeExecutor (JAX asynchronous dispatch)>"


_pynative_executor = PyNativeExecutor()
