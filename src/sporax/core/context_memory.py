"""The context's memory, path and device-specific keys, stored as MindSpore 2.10's ``get_context`` returns them.

``set_context(max_device_memory="3.5GB")`` reads back as ``3.5`` (GB, a float), ``memory_optimize_level="O1"``
as ``1``, ``save_graphs_path="./g"`` as the absolute path (the directory is created). Keys for a device
target sporax does not run on are ignored with MindSpore's warning: ``variable_memory_max_size`` and
``print_file_path`` are Ascend-only; ``mempool_block_size`` and ``max_device_memory`` apply on the GPU only.
So are ``ascend_config`` (Ascend) and ``disable_format_transform`` (GPU): on the CPU ``get_context`` still
returns their defaults, ``{}`` and False. ``env_config_path`` must name an existing file.
"""
import os
import re

from sporax import log

# A size in GB as MindSpore reads it: "5GB", "3.5GB", "0.5GB" (matched from the start, as MindSpore does).
_SIZE = r'[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB'
_TARGETS = {"print_file_path": ["Ascend"], "variable_memory_max_size": ["Ascend"],
            "max_device_memory": ["Ascend", "GPU"], "mempool_block_size": ["GPU", "Ascend"],
            "ascend_config": ["Ascend"], "disable_format_transform": ["GPU"]}


def _applies(target, name):
    """Whether ``name`` applies to the device ``target``; MindSpore warns and ignores it otherwise."""
    if name not in _TARGETS or target in _TARGETS[name]:
        return True
    log.warning(f"For 'context.set_context', when set the argument '{name}', the argument 'device_target' only "
                f"supports devices in '{_TARGETS[name]}', but got '{target}', ignore it.")
    return False


def _require_type(name, value, kind):
    if not isinstance(value, kind):
        raise TypeError(f"The parameter '{name}' must be {kind}, but got {type(value)}")


def _gigabytes(name, value):
    _require_type(name, value, str)
    if re.match(_SIZE, value, re.ASCII) is None:
        raise ValueError(f"The '{value}' is illegal, it must be match regular'{_SIZE}' by flags'{re.ASCII}.'")
    return float(value[:-2])


def _max_device_memory(value):
    size = _gigabytes("max_device_memory", value)
    if size == 0:
        raise ValueError("For 'context.set_context', the argument 'max_device_memory' should not be \"0GB\".")
    return size


def _mempool_block_size(value):
    size = _gigabytes("mempool_block_size", value)
    if size < 1.0:
        raise ValueError("For 'context.set_context',  the argument 'mempool_block_size' should be greater or "
                         f"equal to \"1GB\", but got {size}GB")
    return size


def _memory_optimize_level(value):
    if value not in ("O0", "O1"):
        raise ValueError("For 'context.set_context', the argument 'memory_optimize_level' must be one of "
                         f"['O0', 'O1'], but got {value}.")
    return int(value == "O1")


def _save_graphs_path(value):
    _require_type("save_graphs_path", value, str)
    if not value.strip():
        raise ValueError("For 'context.set_context', the 'save_graphs_path' or the 'print_file_path' is invalid "
                         f"type, it should be Non-empty string, but got '{value}'.")
    path = os.path.realpath(value)
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def _env_config_path(value):
    if not os.path.exists(value):
        raise ValueError(f"For 'context.set_context', the 'env_config_path' file '{value}' is not exists, please "
                         "check whether 'env_config_path' is correct.")
    return value


# The keys whose value is read (and checked) before it is stored; the Ascend-only ones are never stored.
_READERS = {"max_device_memory": _max_device_memory, "mempool_block_size": _mempool_block_size,
            "memory_optimize_level": _memory_optimize_level, "save_graphs_path": _save_graphs_path,
            "env_config_path": _env_config_path, "disable_format_transform": bool,
            "variable_memory_max_size": None, "print_file_path": None, "ascend_config": None}
SETTINGS = tuple(_READERS)
# Keys whose type MindSpore checks first, whatever the device target.
_TYPES = {"env_config_path": str, "disable_format_transform": bool}


def set_setting(store, target, name, value):
    """Store key ``name`` of the context dict ``store`` as MindSpore reads it back, or warn and ignore it
    when it does not apply to the device ``target`` (a callable: the target resolves on first use).

    Raises:
        TypeError, ValueError: ``value`` is not a size such as ``"3.5GB"``, a level ``"O0"``/``"O1"``, or
            a non-empty path (MindSpore's messages).
    """
    if name in _TYPES:
        _require_type(name, value, _TYPES[name])
    if _applies(target(), name):
        store[name] = _READERS[name](value)
