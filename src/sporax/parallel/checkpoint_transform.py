"""Re-slicing distributed checkpoints from one strategy to another (MindSpore's checkpoint_transform).

For each parameter, the blocks of the source ranks are placed into the whole tensor
(``checkpoint.assemble``) and the destination rank's block is cut out of it
(``checkpoint.region``). ``rank_list_for_transform`` names the source ranks whose blocks
overlap a destination rank's blocks: a block that several source ranks repeat is taken from a
rank already chosen for another parameter, else from the lowest such rank (MindSpore lists the
ranks in descending order). A strategy of None means whole tensors (every source rank holds
everything, so rank 0 suffices; a destination rank gets everything).
"""
import glob
import os
import re

import numpy as np

from sporax.core.tensor import Tensor
from sporax.io.checkpoint import load_checkpoint, save_checkpoint
from sporax.parallel.checkpoint import assemble, blocks, layout_lists, region
from sporax.parallel.strategy_file import build_searched_strategy


def _layouts(strategy_file, function):
    strategy = build_searched_strategy(strategy_file) or {}
    return {name: layout_lists(layout, function) for name, layout in strategy.items()}


def _device_count(layouts):
    return int(np.prod(next(iter(layouts.values()))[0])) if layouts else 1


def _overlaps(source, target):
    """True when block ``source`` = [(block, parts), ...] overlaps block ``target`` in every dimension."""
    return all(b1 * p2 < (b2 + 1) * p1 and b2 * p1 < (b1 + 1) * p2 for (b1, p1), (b2, p2) in zip(source, target))


def rank_list_for_transform(rank_id, src_strategy_file=None, dst_strategy_file=None):
    """The source ranks whose checkpoints destination rank ``rank_id`` needs (descending order).

    Args:
        rank_id (int): the destination rank.
        src_strategy_file, dst_strategy_file (str): strategy files; None for whole tensors.

    Returns:
        list[int]

    Example:
        >>> from sporax.parallel import rank_list_for_transform
        >>> rank_list_for_transform(0)
        [0]
    """
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError(f"The rank_id should be a int, but got {type(rank_id).__name__}.")
    src = _layouts(src_strategy_file, "rank_list_for_transform")
    if not src:
        return [0]
    dst = _layouts(dst_strategy_file, "rank_list_for_transform")
    chosen = set()
    for name, (src_matrix, src_map) in src.items():
        if name in dst:
            target = blocks(rank_id, *dst[name])
        else:
            target = [(0, 1)] * len(src_map)
        holders = {}
        for rank in range(int(np.prod(src_matrix))):
            source = tuple(blocks(rank, src_matrix, src_map))
            if _overlaps(source, target):
                holders.setdefault(source, []).append(rank)
        for ranks in holders.values():
            if not chosen.intersection(ranks):
                chosen.add(min(ranks))
    return sorted(chosen, reverse=True)


def _transform_rank(rank_id, values_by_rank, src, dst):
    """The checkpoint entries of destination rank ``rank_id`` from ``{source rank: {name: Parameter}}``."""
    any_values = next(iter(values_by_rank.values()))
    entries = []
    for name, parameter in any_values.items():
        if isinstance(parameter, str):
            continue
        if name in src:
            pieces = {rank: values[name].asnumpy() for rank, values in values_by_rank.items() if name in values}
            whole, covered = assemble(pieces, *src[name])
        else:
            whole = parameter.asnumpy()
            covered = np.ones(whole.shape, dtype=bool)
        index = region(rank_id, *dst[name], whole.shape) if name in dst else ()
        if not covered[index].all():
            raise ValueError(f"For parameter '{name}' of destination rank {rank_id}, the checkpoints given (ranks "
                             f"{sorted(values_by_rank)}) do not hold every slice it needs; pass the ranks "
                             "rank_list_for_transform(rank_id, src_strategy_file, dst_strategy_file) names.")
        entries.append({"name": name, "data": Tensor(np.ascontiguousarray(whole[index]))})
    return entries


def transform_checkpoint_by_rank(rank_id, checkpoint_files_map, save_checkpoint_file_name, src_strategy_file=None,
                                 dst_strategy_file=None):
    """Write destination rank ``rank_id``'s checkpoint from source checkpoints ``{rank: file}``.

    Args:
        rank_id (int): the destination rank.
        checkpoint_files_map (dict[int, str]): source rank -> its checkpoint (at least the ranks
            ``rank_list_for_transform`` names).
        save_checkpoint_file_name (str): the ``.ckpt`` file to write.
        src_strategy_file, dst_strategy_file (str): strategy files; None for whole tensors.
    """
    if not isinstance(checkpoint_files_map, dict) or not checkpoint_files_map:
        raise TypeError("The checkpoint_files_map should be a non-empty dict of {rank: checkpoint file}.")
    for rank, path in checkpoint_files_map.items():
        if not isinstance(rank, int) or not isinstance(path, str) or not os.path.isfile(path):
            raise ValueError(f"In checkpoint_files_map, the rank {rank!r} must be an int and {path!r} an existing "
                             "checkpoint file.")
    if not isinstance(save_checkpoint_file_name, str) or not save_checkpoint_file_name.endswith(".ckpt"):
        raise TypeError("The save_checkpoint_file_name should be a str ending with '.ckpt', "
                        f"but got {save_checkpoint_file_name!r}.")
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError(f"The rank_id should be a int, but got {type(rank_id).__name__}.")
    src = _layouts(src_strategy_file, "transform_checkpoint_by_rank")
    dst = _layouts(dst_strategy_file, "transform_checkpoint_by_rank")
    values = {rank: load_checkpoint(path) for rank, path in sorted(checkpoint_files_map.items())}
    save_checkpoint(_transform_rank(rank_id, values, src, dst), save_checkpoint_file_name)


def _rank_files(src_checkpoints_dir):
    """``{rank: the lexicographically last .ckpt in src/rank_{rank}/}`` (MindSpore's choice)."""
    files = {}
    for folder in glob.glob(os.path.join(src_checkpoints_dir, "rank_*")):
        match = re.fullmatch(r"rank_(\d+)", os.path.basename(folder))
        candidates = sorted(glob.glob(os.path.join(folder, "*.ckpt")))
        if match and candidates:
            files[int(match.group(1))] = candidates[-1]
    return files


def transform_checkpoints(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix, src_strategy_file=None,
                          dst_strategy_file=None, process_num=1, output_format="ckpt"):
    """Re-slice the checkpoints of ``src_checkpoints_dir/rank_*/`` from one strategy to another.

    Writes ``dst_checkpoints_dir/rank_{r}/{ckpt_prefix}{r}.ckpt`` for every destination rank.

    Args:
        src_checkpoints_dir (str): folder with one ``rank_{r}`` sub-folder per source rank.
        dst_checkpoints_dir (str): where the per-rank folders go.
        ckpt_prefix (str): file name prefix of the written checkpoints.
        src_strategy_file, dst_strategy_file (str): strategy files; None for whole tensors.
        process_num (int): accepted; sporax transforms in one process.
        output_format (str): 'ckpt'.
    """
    if not isinstance(ckpt_prefix, str):
        raise TypeError("The ckpt_prefix should be a str.")
    if output_format != "ckpt":
        raise NotImplementedError("transform_checkpoints: sporax writes 'ckpt' output only "
                                  f"(got output_format={output_format!r}).")
    if not os.path.isdir(src_checkpoints_dir):
        raise NotADirectoryError(f"src_checkpoints_dir {src_checkpoints_dir} is not a directory.")
    sources = _rank_files(src_checkpoints_dir)
    if not sources:
        raise ValueError("For 'transform_checkpoints', the 'src_checkpoints_dir' can not be empty.")
    src = _layouts(src_strategy_file, "transform_checkpoints")
    dst = _layouts(dst_strategy_file, "transform_checkpoints")
    values = {rank: load_checkpoint(path) for rank, path in sorted(sources.items())}
    for rank in range(_device_count(dst)):
        folder = os.path.join(dst_checkpoints_dir, f"rank_{rank}")
        os.makedirs(folder, exist_ok=True)
        save_checkpoint(_transform_rank(rank, values, src, dst), os.path.join(folder, f"{ckpt_prefix}{rank}.ckpt"))


# MindSpore 2.10's newer names for the same operations (mindspore.parallel.checkpoint_convert).
rank_list_for_convert = rank_list_for_transform
convert_checkpoint_by_rank = transform_checkpoint_by_rank
convert_checkpoints = transform_checkpoints
