"""``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net``: MindSpore's checkpoint API.

Files are MindSpore's own ``.ckpt`` wire format (or safetensors with ``format="safetensors"``),
so checkpoints move both ways between sporax and MindSpore. Writes are atomic; loading never
executes code.

Example:
    >>> import sporax as ms
    >>> net = ms.nn.Dense(3, 2)
    >>> ms.save_checkpoint(net, "dense.ckpt")
    >>> sorted(ms.load_checkpoint("dense.ckpt"))
    ['bias', 'weight']
"""
import errno
import os

import numpy as np

from sporax import temporary_files
from sporax.core import dtype as mstype
from sporax.core import validator
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.io import ckpt_codec, encryption, safetensors_codec
from sporax.io.atomic import background_saves, write_atomic

_FORMATS = ("ckpt", "safetensors")


def _check_format(format, function):
    """MindSpore 2.10's messages for a ``format`` other than 'ckpt' / 'safetensors'."""
    if format in _FORMATS:
        return
    if function == "load_checkpoint":
        raise ValueError("For 'load_checkpoint', the checkpoint file should end with '.ckpt' or '.safetensors', "
                         "please input the correct 'format'.")
    raise ValueError(f"For '{function}', the format must be 'safetensors' or 'ckpt', but got {format}.")


def _file_name(name, format):
    if not isinstance(name, (str, os.PathLike)):
        raise TypeError(f"For 'save_checkpoint', the parameter {name} for checkpoint file name is invalid,"
                        f"'ckpt_file_name' must be string, but got {type(name)}.")
    name = os.fspath(name)
    return name if name.endswith(format) else f"{name}.{format}"


def _as_numpy(value, name, integrated=True):
    if isinstance(value, Tensor):
        array = value._value
        if not integrated and getattr(array, "is_fully_addressable", True) is False:
            # integrated_save=False in a job across processes: this rank's slice, as the strategy file lays it
            # out (with one device per process, the process's shard is its rank's block).
            return np.asarray(array.addressable_shards[0].data)
        return value.asnumpy()
    if isinstance(value, np.ndarray):
        return value
    raise TypeError(f"For 'save_checkpoint', the data of {name!r} must be a Tensor or Parameter, "
                    f"got {type(value).__name__}.")


def _append_value(name, value):
    """MindSpore's typing of ``append_dict`` values: int -> Int64, float -> Float32, bool -> Bool."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return np.asarray(value, np.bool_)
    if isinstance(value, int):
        return np.asarray(value, np.int64)
    if isinstance(value, float):
        return np.asarray(value, np.float32)
    return _as_numpy(value, name)


def _check_append_dict(append_dict):
    """MindSpore 2.10's check of ``append_dict``: str keys; int, float, bool, str or Tensor values."""
    if append_dict is None:
        return
    if not isinstance(append_dict, dict):
        raise TypeError("For 'save_checkpoint', the argument 'append_dict' must be dict, but got "
                        f"{type(append_dict)}.")
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Tensor)):
            raise TypeError("For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: "
                            f"int, float, bool or Generator, but got key: {type(key)}, value: {type(value)}")


def _get_merged_param_data(net, parameter_layout_dict, param_name, param_data, integrated_save):
    """The data of ``net``'s Parameter ``param_name`` as a checkpoint saves it (MindSpore's internal helper).

    A sporax Parameter holds one global array, so its value is already whole: ``integrated_save=True`` keeps
    ``param_data``; ``False`` gives this process's slice of a Parameter split across processes.
    """
    if integrated_save or param_name not in parameter_layout_dict:
        return param_data
    parameter = net.parameters_dict().get(param_name)
    if parameter is None:
        raise ValueError(f"For '_get_merged_param_data', the network has no Parameter named {param_name!r} "
                         "(its parameter_layout_dict names it).")
    return Tensor(_as_numpy(parameter, param_name, integrated=False))


def _collect(save_obj, append_dict, choice_func, integrated=True):
    """The ``(name, ndarray | str)`` records to save, in MindSpore's order."""
    entries = []
    if hasattr(save_obj, "parameters_and_names"):
        seen = set()
        for _, parameter in save_obj.parameters_and_names():
            if id(parameter) in seen:
                continue
            seen.add(id(parameter))
            entries.append((parameter.name, parameter))
    elif isinstance(save_obj, dict):
        entries = list(save_obj.items())
        for key, value in entries:
            if not isinstance(key, str):
                raise TypeError("For save_checkpoint, when save_obj is made up by dict, the key should be str and "
                                f"value should be Parameter, but got the type of key is {type(key)} and the type "
                                f"of value is {type(value)}")
    elif isinstance(save_obj, (list, tuple)) and save_obj and isinstance(save_obj[0], Parameter):
        # A list of Parameters (net.trainable_params()) saves each under its own name.
        for item in save_obj:
            if not isinstance(item, Parameter):
                raise TypeError("For 'save_checkpoint', a list save_obj that starts with a Parameter must hold "
                                f"Parameters only, but it also holds a {type(item).__name__}.")
            entries.append((item.name, item))
    elif isinstance(save_obj, (list, tuple)):
        for item in save_obj:
            if not isinstance(item, dict) or "name" not in item or "data" not in item:
                raise TypeError("For 'save_checkpoint', a list save_obj must hold Parameters or dicts "
                                "{'name': str, 'data': Tensor}.")
            entries.append((item["name"], item["data"]))
    else:
        raise TypeError("For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, but got "
                        f"{type(save_obj)}.")
    if choice_func is not None:
        entries = [(name, value) for name, value in entries if choice_func(name)]
    records = [(name, value if isinstance(value, str) else _as_numpy(value, name, integrated))
               for name, value in entries]
    index_of = {name: index for index, (name, _) in enumerate(records)}
    for name, value in (append_dict or {}).items():
        if name in index_of:
            # MindSpore keeps one record per name: an appended value replaces the saved one in place
            # (its fault-recovery tutorial appends 'momentum' while nn.Momentum saves its own).
            records[index_of[name]] = (name, _append_value(name, value))
        else:
            index_of[name] = len(records)
            records.append((name, _append_value(name, value)))
    return records


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode="AES-GCM", choice_func=None,
                    crc_check=False, format="ckpt", **kwargs):
    """Save the parameters of a Cell (or a list of ``{'name', 'data'}`` dicts, or a dict) to a file.

    Args:
        save_obj (Union[Cell, list, dict]): what to save.
        ckpt_file_name (str): the file; ``.ckpt`` (or ``.safetensors``) is appended when missing.
        integrated_save (bool): save each split Parameter whole (gathered from every process). ``False``: in a
            job across processes, each rank saves its own slice (one device per process), which
            ``transform_checkpoints`` merges with the strategy file.
        async_save (bool): write in a background thread; the next save and exit wait for it.
        append_dict (dict): extra entries (str, int, float, bool, Tensor) saved after the parameters.
        enc_key (bytes): encrypt with ``enc_mode`` ('AES-GCM', 'AES-CBC', 'SM4-CBC').
        choice_func (Callable[[str], bool]): keep only the parameters whose name it accepts.
        crc_check (bool): append MindSpore's CRC-32 trailer.
        format (str): 'ckpt' or 'safetensors'.
    """
    _check_format(format, "save_checkpoint")
    validator.check_bool(integrated_save, "integrated_save", "save_checkpoint")
    if not isinstance(async_save, (bool, str)):
        raise TypeError("For 'save_checkpoint', the parameter 'async_save' must be bool or str, "
                        f"but got {type(async_save)}.")
    _check_append_dict(append_dict)
    validator.check_isinstance("enc_key", enc_key, (type(None), bytes))
    validator.check_isinstance("crc_check", crc_check, bool)
    file_name = _file_name(ckpt_file_name, format)
    folder = os.path.dirname(os.path.abspath(file_name))
    if not os.path.isdir(folder):  # MindSpore 2.10 makes no folders: its write fails
        raise FileNotFoundError(errno.ENOENT, f"No such file or directory (for 'save_checkpoint', the folder "
                                f"{folder} does not exist)", file_name)
    records = _collect(save_obj, append_dict, choice_func, integrated_save)
    if format == "safetensors" and enc_key is not None:
        raise ValueError("For 'save_checkpoint', when format is 'safetensors', the parameter 'enc_key' must be set to "
                         f"default value 'None', but got '{enc_key}'.")
    if enc_key is not None:
        encryption._check(enc_key, enc_mode, "save_checkpoint(enc_key=...)")

    def write():
        if format == "safetensors":
            data = safetensors_codec.encode(records, crc_check, **kwargs)
        else:
            data = ckpt_codec.encode(records)
            if enc_key is not None:
                data = encryption.encrypt(data, enc_key, enc_mode)
            if crc_check:
                data = ckpt_codec.add_crc(data)
        write_atomic(file_name, data)

    if async_save:
        background_saves.start(write)
    else:
        background_saves.wait()
        write()


def _read(file_name, dec_key, dec_mode, crc_check, format):
    if not os.path.isfile(file_name):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {file_name} "
                         "does not exist, please check whether the 'ckpt_file_name' is correct.")
    background_saves.wait()
    temporary_files.remove_stale(file_name)
    with open(file_name, "rb") as handle:
        data = handle.read()
    if format == "safetensors":
        return safetensors_codec.decode(data, file_name, crc_check)
    if encryption.is_encrypted(data):
        # MindSpore 2.10's first lines, then what sporax knows of the cause
        if dec_key is None:
            raise ValueError(f"Failed to read the checkpoint file {file_name}. The file may be corrupted, and the "
                             f"content cannot be parsed.\nFor 'load_checkpoint', {file_name} is encrypted: pass "
                             "dec_key= (and dec_mode=) to load it.")
        try:
            data = encryption.decrypt(data, dec_key, dec_mode, file_name)
        except ValueError as error:
            raise ValueError(f"Failed to read the checkpoint file {file_name}. The file may be encrypted or tempered "
                             "with, please pass in the correct 'dec_key' or check the file integrity.\n"
                             f"{error}") from None
    elif dec_key is not None and len(data) and data[:1] != b"\x0a":
        raise ValueError(f"For 'load_checkpoint', {file_name} is neither a plain nor an encrypted checkpoint.")
    data = ckpt_codec.strip_crc(data, crc_check, file_name)
    return ckpt_codec.decode(data, file_name)


def _prefixes(value):
    """``filter_prefix`` / ``specify_prefix`` as a tuple, checked as MindSpore 2.10 checks them."""
    if value is None:
        return ()
    if not isinstance(value, (str, list, tuple)):
        raise TypeError("For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be string, "
                        f"list[string] or tuple[string], but got {type(value)}.")
    prefixes = (value,) if isinstance(value, str) else tuple(value)
    if not prefixes:
        raise ValueError("For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be empty "
                         "when 'specify_prefix' or 'filter_prefix' is list or tuple.")
    for index, prefix in enumerate(prefixes):
        if not isinstance(prefix, str):
            raise TypeError("For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list or tuple, "
                            f"the element in it must be string, but got {type(prefix)} at index {index}.")
        if not prefix:
            raise ValueError("For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' "
                             "can't include ''.")
    return prefixes


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None, crc_check=False,
                    remove_redundancy=False, format="ckpt"):
    """Load a checkpoint file into ``{name: Parameter}`` (string entries come back as ``str``).

    Args:
        ckpt_file_name (str): a ``.ckpt`` (or ``.safetensors`` with ``format='safetensors'``) file.
        net (Cell): when given, the parameters are also loaded into it (``load_param_into_net``).
        filter_prefix / specify_prefix (Union[str, list[str]]): drop / keep only names with these prefixes.
        choice_func (Callable[[str], bool]): keep only the names it accepts.
        dec_key (bytes), dec_mode (str): decrypt a file saved with ``enc_key``.
        crc_check (bool): verify the CRC-32 trailer.
    """
    _check_format(format, "load_checkpoint")
    drop, keep = _prefixes(filter_prefix), _prefixes(specify_prefix)
    validator.check_isinstance("dec_key", dec_key, (type(None), bytes))
    validator.check_isinstance("crc_check", crc_check, bool)
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError("For 'load_checkpoint', the argument 'ckpt_file_name' must be string, "
                        f"but got {type(ckpt_file_name)}.")
    file_name = os.fspath(ckpt_file_name)
    if not file_name.endswith(format):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file format must same with 'format', "
                         f"but got file_name:'{file_name}', format:'{format}'")
    # MindSpore names the file by its real path in its messages from here on
    values = _read(os.path.realpath(file_name), dec_key, dec_mode, crc_check, format)
    result = {}
    for name, value in values.items():
        if drop and name.startswith(drop):
            continue
        if keep and not name.startswith(keep):
            continue
        if choice_func is not None and not choice_func(name):
            continue
        result[name] = value if isinstance(value, str) else Parameter(Tensor(value), name=name)
    if not result:
        # MindSpore's message, whether the file held nothing or the filters kept nothing.
        raise ValueError("The loaded parameter dict is empty after filter or specify, please check whether "
                         "'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, result, strict_load)
    return result


def _update_param(param, new_param, strict_load):
    """Set ``param`` to the value of ``new_param`` (a Parameter or Tensor from a checkpoint dict).

    MindSpore's internal step of ``load_param_into_net`` (libraries that load with their own filters call
    it): the shapes must agree; a float value of another float dtype is converted, other dtypes refused.
    """
    name = param.name
    if isinstance(new_param, str):
        raise TypeError(f"For 'load_param_into_net', the checkpoint entry {name!r} is a string, not a tensor.")
    new = new_param if isinstance(new_param, Tensor) else Tensor(new_param)
    if tuple(new.shape) != tuple(param.shape):
        raise RuntimeError(
            f"For 'load_param_into_net', {name} in the argument 'net' should have the same shape as "
            f"{name} in the argument 'parameter_dict'. But got its shape {tuple(param.shape)} in "
            f"the argument 'net' and shape {tuple(new.shape)} in the argument 'parameter_dict'. "
            "Check that the checkpoint belongs to this network.")
    if new.dtype != param.dtype:
        # MindSpore converts between float dtypes and between int dtypes, unless strict_load
        kinds = [(mstype.Float, mstype.BFloat), mstype.Int]
        if strict_load or not any(isinstance(new.dtype, kind) and isinstance(param.dtype, kind) for kind in kinds):
            raise RuntimeError(
                f"For 'load_param_into_net', {name} in the argument 'net' should have the same type "
                f"as {name} in the argument 'parameter_dict'. but got its type {param.dtype} in "
                f"the argument 'net' and type {new.dtype} in the argument 'parameter_dict'. "
                "Check that the checkpoint belongs to this network"
                + (" (strict_load=True converts no dtype)." if strict_load else "."))
        new = Tensor(new, param.dtype)
    param.set_data(Tensor(new))


def _load_dismatch_prefix_params(net, parameter_dict, param_not_load, strict_load):
    """Load the Parameters ``param_not_load`` names from entries named ``<prefix><name>``.

    MindSpore's fallback for a checkpoint saved from a wrapper (``network.dense.weight`` for ``dense.weight``):
    the first prefix that makes an entry end with a missing name is stripped and every missing Parameter
    with a ``prefix + name`` entry is loaded and removed from ``param_not_load`` (in place); repeated while
    a new prefix turns up.
    """
    prefix = None
    while param_not_load:
        found = next((entry[:-len(name)] for name in param_not_load for entry in parameter_dict
                      if entry.endswith(name) and entry != name), None)
        if found is None or found == prefix:
            return
        prefix = found
        for _, param in net.parameters_and_names():
            if param.name in param_not_load and prefix + param.name in parameter_dict:
                _update_param(param, parameter_dict[prefix + param.name], strict_load)
                param_not_load.remove(param.name)


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Copy the values of ``parameter_dict`` into the Parameters of ``net`` with the same names.

    Unless ``strict_load``, Parameters still missing are then looked up under a wrapper's prefix (a
    checkpoint saved from ``TrainOneStepCell`` or an EMA copy names ``dense.weight`` as
    ``network.dense.weight`` or ``ema.network.dense.weight``), as MindSpore does.

    Returns:
        tuple[list, list]: ``(param_not_load, ckpt_not_load)``: the net's parameters that found no
        value, and the dict's entries whose names matched no parameter (entries loaded through a prefix
        included, as in MindSpore).
    """
    validator.check_bool(strict_load, "strict_load", "load_param_into_net")
    if not hasattr(net, "parameters_and_names"):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError("For 'load_param_into_net', the argument 'parameter_dict' should be a dict, "
                        f"but got {type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            # MindSpore 2.10 refuses a dict of plain Tensors (``{name: p.data}``) before loading anything; the
            # str entries load_checkpoint returns for an append_dict's strings pass (and end in ckpt_not_load)
            raise TypeError("For 'parameter_dict', the element in the argument 'parameter_dict' should be a 'str' "
                            f"and 'Parameter' , but got {type(key)} and {type(value)}.")
    param_not_load, used = [], set()
    seen = set()
    for _, parameter in net.parameters_and_names():
        if id(parameter) in seen:
            continue
        seen.add(id(parameter))
        name = parameter.name
        if name not in parameter_dict:
            param_not_load.append(name)
            continue
        used.add(name)
        _update_param(parameter, parameter_dict[name], strict_load)
    # listed before the prefix fallback: MindSpore 2.10 still reports the entries that fallback loads
    ckpt_not_load = [name for name in parameter_dict if name not in used]
    if param_not_load and not strict_load:
        _load_dismatch_prefix_params(net, parameter_dict, param_not_load, strict_load)
    return param_not_load, ckpt_not_load
