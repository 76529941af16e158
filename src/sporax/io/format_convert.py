"""``ckpt_to_safetensors`` / ``safetensors_to_ckpt``: convert checkpoint files between the formats.

A file converts to a file of the same stem in ``save_path`` (default: beside it). A directory
converts the matching files of each of its ``rank*`` sub-directories into ``save_path/rank*``
(default: in place), as MindSpore lays distributed checkpoints out. ``name_map`` renames
parameters on the way; ``file_name_regex`` selects files. Conversion runs in this process
(``processes_num`` is validated and otherwise not needed).

Example:
    >>> import sporax as ms
    >>> ms.ckpt_to_safetensors("net.ckpt", "converted")  # doctest: +SKIP
"""
import os
import re

from sporax.io.checkpoint import load_checkpoint, save_checkpoint

_FORMATS = {"ckpt": ".ckpt", "safetensors": ".safetensors"}


def _convert_one(source, destination, name_map, source_format, target_format):
    parameters = load_checkpoint(source, format=source_format)
    if name_map is not None:
        parameters = {name_map.get(name, name): value for name, value in parameters.items()}
    save_checkpoint(parameters, destination, format=target_format)


def _convert(source_format, target_format, file_path, save_path, name_map, file_name_regex, processes_num):
    function = f"{source_format}_to_{target_format}"
    source_suffix, target_suffix = _FORMATS[source_format], _FORMATS[target_format]
    file_path = os.fspath(file_path)
    if isinstance(processes_num, bool) or not isinstance(processes_num, int) or processes_num < 1:
        raise ValueError(f"For {function}, the 'processes_num' must be a positive int, but got {processes_num!r}.")
    if not os.path.isdir(file_path) and not os.path.isfile(file_path):
        raise ValueError(f"For {function}, the input path must be a valid path or file, but got {file_path}")
    if save_path and os.path.splitext(os.fspath(save_path))[1]:
        raise ValueError(f"For {function}, the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {function}, the type of 'name_map' must be a dict, but got '{type(name_map)}'")
    if os.path.isfile(file_path):
        if not file_path.endswith(source_suffix):
            raise ValueError(f"For {function}, the input file must be a {source_suffix} file, but got {file_path}")
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise ValueError(f"For {function}, the input file does not match the regular expression.")
        target_dir = os.fspath(save_path) if save_path else os.path.dirname(file_path)
        os.makedirs(target_dir or ".", exist_ok=True)
        name = os.path.basename(file_path)[:-len(source_suffix)] + target_suffix
        _convert_one(file_path, os.path.join(target_dir, name), name_map, source_format, target_format)
        return
    rank_dirs = sorted(entry for entry in os.listdir(file_path)
                       if entry.startswith("rank") and os.path.isdir(os.path.join(file_path, entry)))
    if not rank_dirs:
        raise ValueError(f"For '{function}', no directories starting with 'rank' found in {file_path}.")
    for rank_dir in rank_dirs:
        source_dir = os.path.join(file_path, rank_dir)
        target_dir = os.path.join(os.fspath(save_path), rank_dir) if save_path else source_dir
        os.makedirs(target_dir, exist_ok=True)
        for name in sorted(os.listdir(source_dir)):
            if name.endswith(source_suffix) and (file_name_regex is None or re.search(file_name_regex, name)):
                _convert_one(os.path.join(source_dir, name),
                             os.path.join(target_dir, name[:-len(source_suffix)] + target_suffix),
                             name_map, source_format, target_format)


def ckpt_to_safetensors(file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1):
    """Convert a ``.ckpt`` file (or the ``rank*`` folders of a directory) to ``.safetensors``.

    Args:
        file_path (str): a ``.ckpt`` file or a directory with ``rank*`` sub-directories.
        save_path (str): the output directory; None writes beside the sources. Default: None.
        name_map (dict): ``{old name: new name}`` for parameters. Default: None.
        file_name_regex (str): convert only files whose name matches. Default: None.
        processes_num (int): accepted for compatibility (a positive int). Default: 1.
    """
    _convert("ckpt", "safetensors", file_path, save_path, name_map, file_name_regex, processes_num)


def safetensors_to_ckpt(file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1):
    """Convert a ``.safetensors`` file (or the ``rank*`` folders of a directory) to ``.ckpt``.

    Args: as ``ckpt_to_safetensors``, with ``file_path`` a ``.safetensors`` file or a directory of
    ``rank*`` sub-directories holding them.
    """
    _convert("safetensors", "ckpt", file_path, save_path, name_map, file_name_regex, processes_num)
