"""``DeviceCtx``: run a block of code on another device (``mindspore.DeviceCtx``).

Inside the block the context's device is the one named, so new tensors and the ops on them go
there (JAX's default device); leaving the block restores the previous device, also on error.
Blocks nest. A device JAX cannot reach here falls back as ``set_device`` does (with its warning).
"""
import threading

import jax

from sporax.core import context, process_setup

_VALID_NAMES = ("CPU", "GPU", "Ascend", "meta")
_stack = threading.local()


class DeviceCtx:
    """Context manager that makes ``name``/``device_id`` the current device inside it.

    Args:
        name (str): ``"CPU"``, ``"GPU"`` or ``"Ascend"`` (``"meta"``, MindSpore's storage-less
            device, is refused: JAX arrays always have storage).
        device_id (int): the device index; None for 0. Default: ``None``.

    Raises:
        ValueError: an unknown name or a negative ``device_id`` (on entering).
        NotImplementedError: ``name="meta"``.

    Example:
        >>> import sporax as ms
        >>> with ms.DeviceCtx("CPU"):
        ...     x = ms.ops.ones((2,))
        >>> x.asnumpy().tolist()
        [1.0, 1.0]
    """

    def __init__(self, name: str, device_id=None):
        self.name = name
        self.device_id = device_id

    def __enter__(self):
        if self.name not in _VALID_NAMES:
            raise ValueError(f"For DeviceCtx, the name must be one of {list(_VALID_NAMES)}, but got {self.name}.")
        if self.device_id is not None and self.device_id < 0:
            raise ValueError("For DeviceCtx, the device_id must be greater than or equal to 0.")
        if self.name == "meta":
            raise NotImplementedError("DeviceCtx('meta') creates tensors without storage in MindSpore; JAX arrays "
                                      "always live on a device. Use jax.eval_shape / mindspore.ops.zeros on CPU to "
                                      "work with shapes only.")
        saved = (context.get_context("device_target"), context.get_context("device_id"),
                 jax.config.jax_default_device)
        if not hasattr(_stack, "saved"):
            _stack.saved = []
        _stack.saved.append(saved)
        context.set_context(device_target=self.name, device_id=self.device_id or 0)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        target, device_id, default_device = _stack.saved.pop()
        context._context["device_target"], context._context["device_id"] = target, device_id
        process_setup.set_default_device(default_device)
