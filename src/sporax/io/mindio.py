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


class FileSystem:
    """How checkpoints are written and read (``mindspore.common.file_system.FileSystem``): ``create(path,
    *create_args)`` and ``open(path, *open_args)`` give file objects, ``backend`` names the provider.

    A new one is the ordinary file system: Python's ``open`` with ``"ab"`` and ``"rb"``, backend ``"basic"``.
    """

    def __init__(self):
        self.create = open
        self.create_args = ("ab",)
        self.open = open
        self.open_args = ("rb",)
        self.backend = "basic"


def init_ckpt_file_system(fs):
    """Point ``fs`` (a ``FileSystem``) at MindIO's files when MindIO is installed and starts, else at Python's.

    As MindSpore's: with MindIO, ``create``/``open`` become its ``create_file``/``open_file`` (no extra
    arguments) and ``backend`` becomes ``"mindio"``; otherwise ``create``/``open`` are ``open`` with ``"ab"``/``"rb"``
    and ``backend`` is left as it was.

    Args:
        fs (FileSystem): the object to set up, changed in place.

    Example:
        >>> from sporax.io.mindio import FileSystem, init_ckpt_file_system
        >>> fs = FileSystem()
        >>> init_ckpt_file_system(fs)
        >>> fs.open_args, fs.backend
        (('rb',), 'basic')
    """
    module = _mindio()
    if module is not None:
        fs.create, fs.create_args = module.create_file, ()
        fs.open, fs.open_args = module.open_file, ()
        fs.backend = "mindio"
        log.info("The weights are stored using MindIO as the backend.")
        return
    fs.create, fs.create_args = open, ("ab",)
    fs.open, fs.open_args = open, ("rb",)
