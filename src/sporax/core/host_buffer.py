"""A Tensor over a NumPy array's memory (``Tensor.from_numpy``), as MindSpore shares it on the CPU.

MindSpore's ``Tensor.from_numpy(a)`` keeps ``a``'s buffer: a later ``a[0] = 5`` shows in the Tensor,
``t[0] = 8``, ``ops.assign`` and ``copy_`` write into ``a``, and ``t.asnumpy()`` is a view of ``a``.
XLA adopts a host buffer only at 64-byte alignment, which NumPy's allocator gives about one array in
four; so the Tensor keeps the array beside its jax array (``_init = (HostBuffer, shape, dtype)`` with
``_array`` set, a combination no other Tensor has) and ``Tensor._value`` re-reads the array when its
bytes no longer match the jax array. Writes made by ``rebind`` go through to the array;
``assign_value`` (a new storage, as in MindSpore) and a compiled program's write-back (which clears
``_init``) end the sharing.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> a = np.ones(3, np.float32)
    >>> t = Tensor.from_numpy(a)
    >>> a[0] = 5
    >>> t.asnumpy().tolist()
    [5.0, 1.0, 1.0]
"""
import jax
import jax.core
import numpy as np


class HostBuffer:
    """The NumPy ``array`` a Tensor shares, and ``synced``: the jax array last made from (or written to) it."""

    __slots__ = ("array", "synced", "zero_copy")

    def __init__(self, array, synced):
        self.array, self.synced = array, synced
        # XLA adopted the buffer itself: the jax array reads the array's memory, no check is needed
        self.zero_copy = array.size > 0 and array.ctypes.data == synced.unsafe_buffer_pointer()

    @classmethod
    def over(cls, array):
        """A HostBuffer for ``array``, or None where a Tensor cannot share it (then it gets a copy).

        Shared: C-contiguous, writable arrays of numbers or bools on the CPU backend whose dtype JAX keeps."""
        if not array.flags.c_contiguous or not array.flags.writeable or array.dtype.kind not in "biufc":
            return None
        if jax.default_backend() != "cpu" or jax.config.jax_default_device is not None:
            return None  # the Tensor would live on another device than the array
        if array.dtype.itemsize == 8 and not jax.config.jax_enable_x64:
            return None  # JAX would narrow it: not the array's values any more
        try:
            synced = jax.dlpack.from_dlpack(array)  # the array's own buffer where aligned, else a copy
        except (BufferError, TypeError, ValueError, RuntimeError):
            return None
        return cls(array, synced)

    def current(self):
        """The array's values as a jax array, re-made when its bytes changed since the last call."""
        if not (self.zero_copy or _same_bytes(self.array, self.synced)):
            self.synced = jax.device_put(np.array(self.array, copy=True))
        return self.synced

    def read(self, tensor):
        """``tensor``'s current jax array (a value being traced stays in the slot for the trace)."""
        if isinstance(tensor._array, jax.core.Tracer):
            return tensor._array
        tensor._array = self.current()
        return tensor._array

    def write(self, tensor, array):
        """Store ``array`` into the NumPy array and the Tensor; False (nothing done) where it cannot: a value being
        traced, another shape or dtype."""
        if isinstance(array, jax.core.Tracer) or array.shape != self.array.shape or array.dtype != self.array.dtype:
            return False
        np.copyto(self.array, np.asarray(array))
        if not self.zero_copy:  # else the synced array reads the written memory already
            self.synced = array
        tensor._array = self.synced
        return True


class HostView:
    """A view (``t[0]``, ``t.reshape``) of a Tensor sharing a NumPy array: ``select`` of the array's values.

    Writes into the view reach the array through the view links (``sporax.state.views``) and the root's
    HostBuffer; this only keeps the view's reads current with the array."""

    __slots__ = ("buffer", "select", "seen")

    def __init__(self, buffer, select):
        self.buffer, self.select, self.seen = buffer, select, buffer.synced

    def read(self, tensor):
        array = tensor._array
        if isinstance(array, jax.core.Tracer):
            return array
        root = self.buffer.current()
        if root is not self.seen or self.buffer.zero_copy:  # (a zero-copy root's memory changes under one object)
            self.seen = root
            try:
                values = self.select(root)
            except (TypeError, ValueError, IndexError):
                values = None
            if values is None or values.shape != array.shape:
                tensor._init = None  # the array no longer fits the view: it keeps its values
                return array
            tensor._array = array = values.astype(array.dtype) if values.dtype != array.dtype else values
        return array

    def write(self, tensor, array):
        tensor._array = array  # the view links carry it into the root's array
        return not isinstance(array, jax.core.Tracer)


SHARING = (HostBuffer, HostView)


def buffer_of(tensor):
    """The HostBuffer (or HostView) ``tensor`` shares, or None."""
    init = tensor._init
    return init[0] if init is not None and type(init[0]) in SHARING else None


def view_of(base, view, select):
    """Make ``view`` (``select`` of ``base``'s values, recorded as a view of it) follow the NumPy array ``base``
    shares, if it shares one."""
    buffer = buffer_of(base)
    if type(buffer) is HostBuffer and view._init is None:
        view._init = (HostView(buffer, select), tuple(view._array.shape), base._init[2])


def current_array(tensor):
    """``tensor._array``, first brought up to date with a shared NumPy array's changes (for code that reads the slot
    where a lazily initialised Tensor must stay unfilled: printing)."""
    buffer = buffer_of(tensor)
    return tensor._array if buffer is None else buffer.read(tensor)


def private_value(tensor):
    """``tensor``'s values in a jax array nobody else writes (a Parameter made from a shared Tensor copies, as in
    MindSpore)."""
    value = tensor._value
    if buffer_of(tensor) is None:
        return value
    return jax.device_put(np.array(value, copy=True))  # not the buffer's array: a Parameter's is donated to its steps


def detach(tensor):
    """End ``tensor``'s sharing (``assign_value`` gives it storage of its own): later writes to either side stay
    there."""
    buffer = buffer_of(tensor)
    if buffer is not None:
        if type(buffer) is HostBuffer and buffer.zero_copy:  # the slot reads the array's memory: give it a copy
            tensor._array = jax.device_put(np.array(buffer.array, copy=True))
        tensor._init = None


def _same_bytes(host, array):
    return np.array_equal(host.reshape(-1).view(np.uint8), np.asarray(array).reshape(-1).view(np.uint8))
