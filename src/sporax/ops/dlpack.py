"""``mindspore.utils.dlpack``: ``to_dlpack``/``from_dlpack``, Tensors shared with other frameworks through DLPack.

``to_dlpack`` hands out a DLPack capsule of the Tensor's buffer, as MindSpore does. JAX reads only objects with
``__dlpack__``/``__dlpack_device__``, so ``from_dlpack`` reads a bare capsule's device from its DLTensor header
and presents it through those two methods.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.dlpack import from_dlpack, to_dlpack
    >>> from_dlpack(to_dlpack(Tensor(np.ones(2, np.float32)))).asnumpy().tolist()
    [1.0, 1.0]
"""
import ctypes

import jax

from sporax.ops._dispatch import wrap


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLTensorHead(ctypes.Structure):
    # The first fields of DLPack's DLTensor (the head of a DLManagedTensor): the data pointer, then the device.
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


class _Capsule:
    """A bare DLPack capsule in the protocol JAX reads (``__dlpack__`` and ``__dlpack_device__``)."""

    def __init__(self, capsule):
        try:
            address = _capsule_pointer(capsule, b"dltensor")
        except ValueError:
            raise RuntimeError("from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
                               "consumed only once, so you might have already constructed a tensor from it "
                               "once.") from None
        device = _DLTensorHead.from_address(address).device
        self._capsule, self._device = capsule, (device.device_type, device.device_id)

    def __dlpack__(self, stream=None, **_):
        return self._capsule

    def __dlpack_device__(self):
        return self._device


def to_dlpack(tensor):
    """A DLPack capsule sharing ``tensor``'s buffer (``mindspore.utils.dlpack.to_dlpack``, ``Tensor.to_dlpack``)."""
    return tensor._value.__dlpack__()


def from_dlpack(dlpack):
    """A Tensor sharing the memory of a DLPack capsule or of an object with ``__dlpack__``.

    Raises:
        RuntimeError: a capsule that was already consumed (MindSpore's message).
    """
    if type(dlpack).__name__ == "PyCapsule":
        dlpack = _Capsule(dlpack)
    return wrap(jax.dlpack.from_dlpack(dlpack))
