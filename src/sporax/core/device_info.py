"""``get_current_device`` and ``frombuffer``: small top-level helpers of MindSpore 2.10.

``get_current_device()`` returns the ``(device_target, device_id)`` the context runs on (set by
``set_device``/``set_context``), as a named tuple. ``frombuffer`` makes a 1-D Tensor from any
object with the buffer protocol; a JAX array owns its memory, so the Tensor holds a copy of the
bytes at the time of the call (later writes to the buffer do not show in it).
"""
import collections

import numpy as np

from sporax.core import context
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor

DeviceInfo = collections.namedtuple("DeviceInfo", ["device_target", "device_id"])


def get_current_device():
    """The current device as ``DeviceInfo(device_target, device_id)``.

    Example:
        >>> import sporax as ms
        >>> ms.get_current_device().device_target
        'CPU'
    """
    return DeviceInfo(context.get_context("device_target"), context.get_context("device_id"))


def frombuffer(buffer, dtype, count=-1, offset=0):
    """A 1-D Tensor of ``count`` items of ``dtype`` read from ``buffer`` starting ``offset`` bytes in.

    Args:
        buffer (buffer): bytes, bytearray, memoryview, array.array, a NumPy array ...
        dtype (mindspore.dtype): the element type.
        count (int): the number of items; -1 for all that remain. Default: -1.
        offset (int): where to start, in bytes. Default: 0.

    Returns:
        Tensor.

    Example:
        >>> import sporax as ms
        >>> ms.frombuffer(bytearray([1, 2, 3, 4]), ms.uint8, count=2, offset=1).asnumpy().tolist()
        [2, 3]
    """
    numpy_dtype = np.dtype(mstype.to_numpy_dtype(mstype.normalize(dtype)))
    view = memoryview(buffer).cast("B")
    length = view.nbytes
    if isinstance(count, bool) or not isinstance(count, int) or count < -1:
        raise RuntimeError(f"For 'frombuffer', count must be -1 or a non-negative int, but got {count!r}.")
    if length <= 0 or count == 0:
        raise RuntimeError(f"For 'frombuffer', both the buffer length ({length}) and count ({count}) must be "
                           "positive.")
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset < length:
        raise RuntimeError(f"For 'frombuffer', offset must be in [0, {length - 1}], but got {offset!r}.")
    remaining = length - offset
    if count == -1:
        if remaining % numpy_dtype.itemsize:
            raise RuntimeError(f"For 'frombuffer', the {remaining} bytes after offset {offset} are not a multiple "
                               f"of the element size {numpy_dtype.itemsize}.")
        count = remaining // numpy_dtype.itemsize
    elif count * numpy_dtype.itemsize > remaining:
        raise RuntimeError(f"For 'frombuffer', {count} items of {numpy_dtype.itemsize} bytes need "
                           f"{count * numpy_dtype.itemsize} bytes, but only {remaining} remain after offset {offset}.")
    return Tensor(np.frombuffer(view, numpy_dtype, count, offset).copy())
