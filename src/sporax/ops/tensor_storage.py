"""Tensor's storage, device and bookkeeping methods (``storage``, ``set_``, ``offload``, ``pin_memory``, ``to_``,
``wait_pipeline``, ``remove_hook``, ``const_arg``, ``init_flag`` …) and its random/deprecated op methods.

A sporax Tensor holds one immutable ``jax.Array``; "storage" is that array's buffer. ``set_``
makes a tensor hold (a strided view's copy of) another's values, ``offload`` moves the values to
a file and drops the device buffer (the next read loads them back), ``delete_`` drops the buffer
for good, ``wait_pipeline`` blocks until the pending computation of the tensor is done. The
bookkeeping flags MindSpore keeps on its C++ tensor (``const_arg``, ``init_flag``, ``virtual_flag``,
the cast dtype) live in a side table keyed by the tensor's identity, since Tensor has fixed slots.
``install()`` runs when ``sporax.ops`` imports this module.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> x = Tensor(np.array([1.0, 2.0], np.float32))
    >>> x.untyped_storage().nbytes()
    8
    >>> x.set_(Tensor(np.arange(4.0, dtype=np.float32)), 1, (2,), (2,)).asnumpy().tolist()
    [1.0, 3.0]
"""
import os
import weakref

import jax
import jax.numpy as jnp
import numpy as np

from sporax.autodiff import tensor_hooks
from sporax.core import dtype as mstype
from sporax.core.initializer import Initializer
from sporax.core.tensor import Tensor
from sporax.ops import tensor_functional_methods
from sporax.ops.functional.padded_unique import unique_with_pad as _unique_with_pad
from sporax.ops.functional.random import multinomial as _multinomial
from sporax.state.assign import rebind

_flags = {}  # id(tensor) -> {flag: value}; entries leave with their tensor


def _flags_of(tensor):
    key = id(tensor)
    if key not in _flags:
        _flags[key] = {}
        weakref.finalize(tensor, _flags.pop, key, None)
    return _flags[key]


def _flag(name, default):
    return property(lambda self: _flags.get(id(self), {}).get(name, default))


class UntypedStorage:
    """The byte buffer behind a Tensor (MindSpore's ``UntypedStorage``): its size in bytes, device, address; ``copy_``
    writes another storage's bytes into it."""

    def __init__(self, tensor):
        self._tensor = tensor

    @property
    def device(self):
        return "CPU" if jax.default_backend() == "cpu" else jax.default_backend().upper()

    @property
    def dtype(self):
        return self._tensor.dtype

    def element_size(self):
        return 1

    def nbytes(self):
        return int(self._tensor.nbytes)

    def size(self):
        return self.nbytes()

    def data_ptr(self):
        return tensor_functional_methods.data_ptr(self._tensor)

    def is_shared(self):
        return False

    def copy_(self, source, non_blocking=False):
        """Write the bytes of ``source`` (a storage of as many bytes) into this storage's tensor; returns self."""
        if not isinstance(source, UntypedStorage):
            raise TypeError(f"UntypedStorage.copy_: source must be an UntypedStorage, but got {type(source).__name__}.")
        if source.nbytes() != self.nbytes():
            raise RuntimeError(f"UntypedStorage.copy_: the source has {source.nbytes()} bytes, this storage "
                               f"{self.nbytes()}.")
        target = self._tensor
        raw = np.ascontiguousarray(np.asarray(source._tensor._value)).view(np.uint8)
        values = raw.view(np.dtype(target._value.dtype)).reshape(target.shape)
        rebind(target, jnp.asarray(values), "UntypedStorage.copy_")
        return self

    def resize_(self, size):
        """``resize_(0)`` releases the buffer (as MindSpore's memory-saving recipes use it); other sizes refuse."""
        if size == 0:
            delete_(self._tensor)
            return self
        if size != self.nbytes():
            raise NotImplementedError(f"UntypedStorage.resize_({size}): sporax tensors have a fixed size "
                                      f"({self.nbytes()} bytes); only resize_(0), which releases the memory, is "
                                      f"supported. Make a new Tensor of the size you need.")
        return self


def storage(self):
    """The tensor's storage (an ``UntypedStorage``: dtype-agnostic bytes)."""
    return UntypedStorage(self)


def set_(self, source=None, storage_offset=0, size=None, stride=None):
    """Make this tensor hold ``source``'s values: all of them, or the view of ``size`` with ``stride`` (elements)
    starting ``storage_offset`` elements into ``source``'s flattened data. ``None`` empties it. Returns self."""
    if source is None:
        return rebind(self, jnp.zeros((0,), self._value.dtype), "Tensor.set_")
    if isinstance(source, UntypedStorage):
        source = source._tensor
    if not isinstance(source, Tensor):
        raise TypeError(f"For 'Tensor.set_', source must be a Tensor or storage, but got {type(source).__name__}.")
    if size is None:
        return rebind(self, source._value, "Tensor.set_")
    size = tuple(size)
    if stride is None:  # contiguous
        stride, step = [], 1
        for dim in reversed(size):
            stride.insert(0, step)
            step *= dim
    stride = tuple(stride)
    if len(stride) != len(size):
        raise ValueError(f"For 'Tensor.set_', size {size} and stride {stride} must have the same length.")
    flat = source._value.reshape(-1)
    index = np.full(size, storage_offset, np.int64)
    for axis, (dim, step) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[axis] = dim
        index = index + (np.arange(dim) * step).reshape(shape)
    if index.size and (index.min() < 0 or index.max() >= flat.shape[0]):
        raise ValueError(f"For 'Tensor.set_', the view (offset {storage_offset}, size {size}, stride {stride}) "
                         f"reaches outside the source's {flat.shape[0]} elements.")
    return rebind(self, flat[jnp.asarray(index)], "Tensor.set_")


class _OffloadedFile(Initializer):
    """Reads an offloaded tensor's values back from its file on the next use."""

    def __init__(self, path):
        super().__init__()
        self.path = path

    def _generate(self, shape, np_dtype):
        return jnp.asarray(np.load(self.path, allow_pickle=False))


def offload(self, file_path):
    """Write the values to ``file_path`` (NumPy ``.npy`` format) and release the device buffer; the next read loads
    them back. Returns True."""
    if not isinstance(file_path, str) or not file_path:
        raise TypeError(f"For 'Tensor.offload', file_path must be a non-empty str, but got {file_path!r}.")
    values = np.asarray(self._value)
    temporary = file_path + ".partial"
    with open(temporary, "wb") as file:
        np.save(file, values, allow_pickle=False)
    os.replace(temporary, file_path)
    self._array, self._init = None, (_OffloadedFile(file_path), tuple(values.shape), self.dtype)
    _flags_of(self)["offload_file_path"] = file_path
    return True


def offload_file_path(self):
    """The file of the last ``offload``, '' when the tensor was never offloaded."""
    return _flags.get(id(self), {}).get("offload_file_path", "")


class _Released(Initializer):
    """The place of values ``delete_`` released: reading them raises."""

    def _generate(self, shape, np_dtype):
        raise RuntimeError("This tensor's memory was released by Tensor.delete_() (or storage().resize_(0)), so it "
                           "holds no values: keep a copy (tensor.copy()) before releasing it if you need them.")


def delete_(self, non_blocking=False):
    """Release the tensor's memory now; reading it afterwards raises."""
    array = self._array
    shape, dtype = tuple(self.shape), self.dtype
    if isinstance(array, jax.Array) and not isinstance(array, jax.core.Tracer):
        array.delete()
    self._array, self._init = None, (_Released(), shape, dtype)


def pin_memory(self):
    """A copy of the tensor in host memory the device can read directly (page-locked where the backend has
    such memory; otherwise a host copy)."""
    values = self._value
    try:
        device = values.devices().pop() if hasattr(values, "devices") else jax.devices()[0]
        pinned = jax.sharding.SingleDeviceSharding(device, memory_kind="pinned_host")
        return Tensor._wrap(jax.device_put(values, pinned))
    except (ValueError, RuntimeError, jax.errors.JaxRuntimeError):  # no pinned memory kind on this backend
        return Tensor._wrap(jnp.array(values, copy=True))


def _device_of(device):
    if device is None or isinstance(device, jax.Device):
        return device
    name = str(device).split(":")[0].lower()
    index = int(str(device).split(":")[1]) if ":" in str(device) else 0
    platform = {"ascend": None, "npu": None, "gpu": "gpu", "cuda": "gpu", "cpu": "cpu"}.get(name, name)
    try:
        return jax.devices(platform)[index] if platform else None
    except RuntimeError:
        return None


def to_(self, device=None, non_blocking=False):
    """Move the tensor's values to ``device`` ('CPU', 'GPU:0', a ``jax.Device`` …) in place; returns self. A device
    this process does not have keeps the values where they are (as MindSpore falls back to the default device)."""
    target = _device_of(device)
    if target is not None and not isinstance(self._value, jax.core.Tracer):
        rebind(self, jax.device_put(self._value, target), "Tensor.to_")
    return self


def wait_pipeline(self):
    """Block until the computation that produces the tensor is done."""
    if not isinstance(self._value, jax.core.Tracer):
        self._value.block_until_ready()


def flush_from_cache(self):
    """Write the tensor's cached values back to the host (sporax keeps no device cache: nothing to do)."""


def remove_hook(handle_id):
    """Remove the backward hook whose handle has ``handle_id`` (``handle.id``); returns whether one was found."""
    return tensor_hooks.remove_hook_by_id(handle_id)


def set_const_arg(self, const_arg=True):
    """Mark the tensor as a constant when it is a network's argument (GRAPH mode then folds its values); returns
    self."""
    if not isinstance(const_arg, bool):
        raise TypeError(f"For 'Tensor.set_const_arg', const_arg must be a bool, but got {type(const_arg).__name__}.")
    _flags_of(self)["const_arg"] = const_arg
    return self


def set_init_flag(self, flag):
    """Record whether the tensor's values were initialised on the device (``init_flag``)."""
    _flags_of(self)["init_flag"] = bool(flag)


def is_init(self):
    return self.init_flag


def set_cast_dtype(self, dtype=None):
    """Record the dtype the tensor is cast to when it enters a network (``None`` for its own)."""
    _flags_of(self)["cast_dtype"] = None if dtype is None else mstype.normalize(dtype)


def assign_value_cpp(self, value):
    """Make this tensor hold ``value``'s values (MindSpore's C++ form of ``assign_value``); returns self."""
    return self.assign_value(value)


def multinomial(self, num_samples, replacement=True, seed=None):
    """``ops.multinomial(self, num_samples, replacement, seed)``."""
    return _multinomial(self, num_samples, replacement, seed)


def unique_with_pad(self, pad_num):
    """``ops.unique_with_pad(self, pad_num)``."""
    return _unique_with_pad(self, pad_num)


def __req__(self, other):  # noqa: N807 - MindSpore's name
    """``other == self``."""
    return self.__eq__(other)


_METHODS = (storage, set_, offload, offload_file_path, delete_, pin_memory, to_, wait_pipeline, flush_from_cache,
            set_const_arg, set_init_flag, is_init, set_cast_dtype, assign_value_cpp, multinomial,
            unique_with_pad, __req__)


def install():
    """Set the methods and properties on ``Tensor`` (idempotent)."""
    for function in _METHODS:
        setattr(Tensor, function.__name__, function)
    Tensor.untyped_storage = storage
    Tensor.remove_hook = staticmethod(remove_hook)
    Tensor.const_arg = _flag("const_arg", False)
    Tensor.init_flag = _flag("init_flag", False)
    Tensor.init_finished = property(lambda self: True)
    Tensor.virtual_flag = _flag("virtual_flag", False)
    # sporax tensors are never views into another tensor, and their shapes are concrete.
    Tensor.parent_tensor_ = property(lambda self: None)
    Tensor.index_of_parent_ = property(lambda self: None)
    Tensor.symbolic_shape = property(lambda self: None)
    Tensor.delta_seed = 0
    Tensor.param_info = property(lambda self: None)  # a Parameter has its own (its name, requires_grad ...)


install()
