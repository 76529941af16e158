"""MindIO checkpoint acceleration: ``set_mindio_server_info`` and ``mindio_preload``.

MindIO (Huawei's ``mindio_acp`` / ``mindio`` packages) keeps checkpoints in a shared-memory file
system for fast saving and loading. Like MindSpore, sporax uses it when one of those packages is
installed and initialises; otherwise ``mindio_preload`` returns False and checkpoints go through
the ordinary file system.
"""
import importlib

from sporax import log
from sporax.core import validator

_server_info = {"memfs.data_block_pool_capacity_in_gb": "100"}


def _mindio():
    """The initialised MindIO module, or None when no MindIO package is installed or it fails to start."""
    for name, arguments in (("mindio_acp", {"server_info": _server_info}), ("mindio", {})):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        status = module.initialize(**arguments)
        if status == 0:
            return module
        log.warning(f"Failed to initialize {name}: ret = {status}")
    return None


def set_mindio_server_info(data_block_pool_capacity_in_gb=100):
    """Set the MindIO server's data-block pool size (GB), used when MindIO starts.

    Args:
        data_block_pool_capacity_in_gb (int): a positive size in GB. Default: ``100``.

    Example:
        >>> import sporax as ms
        >>> ms.set_mindio_server_info(50)
    """
    # MindSpore's checks and messages: TypeError for a non-int (bool included), ValueError for <= 0.
    validator.check_int(data_block_pool_capacity_in_gb, 0, validator.GT, "data_block_pool_capacity_in_gb")
    _server_info["memfs.data_block_pool_capacity_in_gb"] = str(data_block_pool_capacity_in_gb)


def mindio_preload(ckpt_file_name):
    """Preload a checkpoint into MindIO's memory; False when MindIO is not available.

    Args:
        ckpt_file_name (str): the checkpoint file.

    Returns:
        bool, whether MindIO preloaded it.

    Example:
        >>> import sporax as ms
        >>> ms.mindio_preload("net.ckpt")  # without MindIO installed
        False
    """
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'mindio_preload', the type of 'ckpt_file_name' should be str, "
                        f"but got {type(ckpt_file_name).__name__}.")
    module = _mindio()
    if module is None:
        return False
    if not hasattr(module, "preload"):
        log.warning("MindIO module does not have preload method")
        return False
    module.preload(ckpt_file_name)
    return True
