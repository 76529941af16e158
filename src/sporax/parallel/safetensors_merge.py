"""``unified_safetensors``: merge the per-rank safetensors of a sharded training into whole tensors.

The source folder holds one ``rank_{r}`` sub-folder per rank, each with that rank's safetensors
file; the strategy file (``.ckpt``, written by the parallel context's ``strategy_ckpt_config``)
says how each parameter was split. Each parameter's slices are placed into the whole tensor
(``checkpoint.assemble``), then the whole parameters are written, balanced by size, into
``part{i}.safetensors`` files of about 3 GiB, with MindSpore's index ``param_name_map.json``
(``{"metadata": {"total_size": bytes}, "weight_map": {name: file}}``) and, for the entries of
rank 0 that have no layout (step counters, learning rates), ``hyper_param.safetensors``.
Files saved with redundancy removed (each replicated slice stored by one rank only) merge the
same way: a slice is taken from whichever rank stored it, and a slice no rank stored is an error.
"""
import glob
import json
import math
import os
import re

import numpy as np
from safetensors import safe_open

from sporax.io.atomic import write_atomic
from sporax.io.safetensors_codec import encode
from sporax.parallel.checkpoint import assemble, layout_lists
from sporax.parallel.strategy_file import build_searched_strategy

_PART_BYTES = 3 * 1024 ** 3


def _rank_files(src_dir, file_suffix):
    files = {}
    pattern = f"*{file_suffix}.safetensors" if file_suffix is not None else "*.safetensors"
    for folder in glob.glob(os.path.join(src_dir, "rank_[0-9]*")):
        match = re.fullmatch(r"rank_(\d+)", os.path.basename(folder))
        if not match or not os.path.isdir(folder):
            continue
        candidates = sorted(glob.glob(os.path.join(folder, pattern)))
        if candidates:
            files[int(match.group(1))] = candidates[-1]
        elif file_suffix is not None:
            raise ValueError(f"No safetensors files found in directory '{folder}' with suffix '{file_suffix}'. Check "
                             "the folder, or set file_suffix to the end the rank files share.")
    return files


def _read(path):
    with safe_open(path, framework="np") as handle:
        return {name: handle.get_tensor(name) for name in handle.keys()}


def _split(sizes, groups):
    """Names split into ``groups`` lists of nearly equal bytes (largest first, each to the lightest list)."""
    lists, totals = [[] for _ in range(groups)], [0] * groups
    for name, size in sorted(sizes.items(), key=lambda item: -item[1]):
        lightest = totals.index(min(totals))
        lists[lightest].append(name)
        totals[lightest] += size
    return lists


def _check_arguments(src_dir, src_strategy_file, dst_dir, merge_with_redundancy, max_process_num, choice_func,
                     split_dst_file):
    if not isinstance(src_dir, str) or not os.path.isdir(src_dir):
        raise ValueError(f"For 'unified_safetensors', the 'src_dir' must be an existing directory, "
                         f"but got {src_dir!r}.")
    if not isinstance(src_strategy_file, str) or not os.path.isfile(src_strategy_file):
        raise ValueError(f"For 'unified_safetensors', the 'src_strategy_file' must be an existing strategy file, "
                         f"but got {src_strategy_file!r}.")
    if not isinstance(dst_dir, str):
        raise ValueError(f"For 'unified_safetensors', the 'dst_dir' must be a str, but got {type(dst_dir)}.")
    if not isinstance(merge_with_redundancy, bool):
        raise TypeError("For 'unified_safetensors', the 'merge_with_redundancy' must be bool.")
    if isinstance(max_process_num, bool) or not isinstance(max_process_num, int) or max_process_num < 1:
        raise ValueError(f"For 'unified_safetensors', the 'max_process_num' must be a positive int, "
                         f"but got {max_process_num!r}.")
    if choice_func is not None and not callable(choice_func):
        raise TypeError("For 'unified_safetensors', the 'choice_func' must be callable or None.")
    if split_dst_file and (not isinstance(split_dst_file, tuple) or len(split_dst_file) != 2
                           or not 1 <= split_dst_file[0] <= split_dst_file[1]):
        raise ValueError("For 'unified_safetensors', the 'split_dst_file' must be () or (current task, total tasks) "
                         f"with 1 <= current <= total, but got {split_dst_file!r}.")


def unified_safetensors(src_dir, src_strategy_file, dst_dir, merge_with_redundancy=True, file_suffix=None,
                        max_process_num=64, choice_func=None, split_dst_file=()):
    """Merge the per-rank safetensors of ``src_dir/rank_*/`` into whole parameters in ``dst_dir``.

    Args:
        src_dir (str): the folder of ``rank_{r}`` sub-folders.
        src_strategy_file (str): the strategy file (``.ckpt``) the ranks were split with.
        dst_dir (str): where ``part{i}.safetensors``, ``param_name_map.json`` and
            ``hyper_param.safetensors`` go (created if missing).
        merge_with_redundancy (bool): whether the rank files are complete (True) or were saved with
            redundancy removed; a file's own ``remove_redundancy`` metadata wins. Both merge alike.
            Default: ``True``.
        file_suffix (str): merge only the rank files ending with this suffix. Default: ``None``.
        max_process_num (int): MindSpore's worker-process cap; sporax merges in this process. Default: ``64``.
        choice_func (Callable): per parameter name, False to leave it out or a str to rename it.
            Default: ``None``.
        split_dst_file (tuple): ``(i, n)``: write only the i-th of n shares of the parts (to spread
            the work over machines). Default: ``()``.

    Raises:
        ValueError: a folder or the strategy file is missing, or a rank's slice a parameter needs is missing.

    Example:
        >>> import sporax as ms
        >>> ms.unified_safetensors("./src", "./strategy.ckpt", "./merged")  # doctest: +SKIP
    """
    _check_arguments(src_dir, src_strategy_file, dst_dir, merge_with_redundancy, max_process_num, choice_func,
                     split_dst_file)
    files = _rank_files(src_dir, file_suffix)
    if not files:
        raise ValueError(f"For 'unified_safetensors', no rank_*/ safetensors files were found in '{src_dir}'.")
    if glob.glob(os.path.join(src_dir, "rank_[0-9]*", "*.ckpt")):
        raise ValueError("For 'unified_safetensors', the 'src_dir' cannot contain both ckpt file and safetensors file "
                         "simultaneously")
    strategy = build_searched_strategy(src_strategy_file) or {}
    layouts = {name: layout_lists(layout, "unified_safetensors") for name, layout in strategy.items()}
    device_count = int(np.prod(next(iter(layouts.values()))[0])) if layouts else 1
    missing = sorted(set(range(device_count)) - set(files))
    if missing and merge_with_redundancy:
        raise ValueError(f"The safetensor file of rank{missing[0]} is needed for merging, but it is missing "
                         f"(found ranks {sorted(files)} in '{src_dir}').")
    values = {rank: _read(path) for rank, path in sorted(files.items())}
    names = sorted(name for name in set().union(*values.values()) & set(layouts) if not name.startswith("accu_grads"))
    renamed = {}
    for name in names:
        choice = choice_func(name) if choice_func is not None else True
        if choice is False:
            continue
        renamed[name] = choice if isinstance(choice, str) else name
    merged, sizes = {}, {}
    for name in renamed:
        pieces = {rank: tensors[name] for rank, tensors in values.items() if name in tensors}
        whole, covered = assemble(pieces, *layouts[name])
        if not covered.all():
            raise ValueError(f"For 'unified_safetensors', the slices of parameter '{name}' in ranks {sorted(pieces)} "
                             "do not cover the whole tensor: a rank's file is missing or incomplete.")
        merged[name] = whole
        sizes[name] = whole.nbytes
    total = sum(sizes.values())
    groups = max(1, min(math.ceil(total / _PART_BYTES), len(sizes)))
    parts = _split(sizes, groups)
    chosen = range(len(parts))
    if split_dst_file:
        current, tasks = split_dst_file
        share, extra = divmod(len(parts), tasks)
        start = share * (current - 1) + min(current - 1, extra)
        chosen = range(start, start + share + (1 if current <= extra else 0))
    os.makedirs(dst_dir, exist_ok=True)
    first_task = not split_dst_file or split_dst_file[0] == 1
    for index in chosen:
        entries = [(renamed[name], merged[name]) for name in parts[index]]
        write_atomic(os.path.join(dst_dir, f"part{index}.safetensors"), encode(entries), mode=0o600)
    if first_task:
        hyper = [(name, value) for name, value in values[min(values)].items() if name not in layouts]
        if hyper:
            write_atomic(os.path.join(dst_dir, "hyper_param.safetensors"), encode(sorted(hyper)), mode=0o600)
        index_map = {"metadata": {"total_size": total},
                     "weight_map": {renamed[name]: f"part{index}.safetensors"
                                    for index, part in enumerate(parts) for name in part}}
        write_atomic(os.path.join(dst_dir, "param_name_map.json"), json.dumps(index_map, indent=4).encode(),
                     mode=0o600)
