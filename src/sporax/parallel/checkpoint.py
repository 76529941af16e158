"""Distributed checkpoints: merge per-rank slices into whole tensors, split them for new layouts.

A parameter trained under a sharding strategy is saved by each rank as its slice. Its layout
(from the strategy file, ``build_searched_strategy``) is a device matrix and a tensor map:
``tensor_map[d]`` names the device axis that splits tensor dimension ``d``, counted from the
right of the device matrix, -1 for an unsplit dimension. Rank ``r`` sits at coordinates
``unravel_index(r, dev_matrix)``, so along dimension ``d`` it holds block number
``coordinates[len(dev_matrix) - 1 - tensor_map[d]]`` of ``dev_matrix[...]`` equal blocks.

Merging places every rank's block in a whole array (ranks that repeat a block write the same
values); splitting takes the block of one rank. ``load_distributed_checkpoint`` and
``sporax.parallel.checkpoint_transform`` are built from these steps and sporax's ``.ckpt`` codec.
Uneven slices (``param_split_shape``) and embedding ``field`` layouts raise NotImplementedError.
"""
import glob
import os

import numpy as np

from sporax.core import context
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.io.checkpoint import load_checkpoint, load_param_into_net
from sporax.parallel.strategy_file import build_searched_strategy


# --- one parameter's layout ---------------------------------------------------------------------
def layout_lists(layout, function):
    """``(dev_matrix, tensor_map)`` of a ParallelLayouts or a ``[dev_matrix, tensor_map, split, field, ...]`` list."""
    try:
        if isinstance(layout, (list, tuple)):
            dev_matrix, tensor_map = list(layout[0]), list(layout[1])
            split_shape = list(layout[2]) if len(layout) > 2 and layout[2] else []
            field = int(layout[3]) if len(layout) > 3 else 0
        else:
            dev_matrix, tensor_map = list(layout.dev_matrix[0].dim), list(layout.tensor_map[0].dim)
            split_shape = list(layout.param_split_shape[0].dim) if layout.param_split_shape else []
            field = int(layout.field)
    except (AttributeError, IndexError, TypeError) as error:
        raise ValueError(f"{error}. For '{function}', please make sure that 'strategy' is correct.") from error
    if split_shape or field > 0:
        raise NotImplementedError(f"For '{function}', uneven slices (param_split_shape) and embedding field layouts "
                                  "are not supported by sporax; only evenly split layouts can be merged.")
    return dev_matrix, tensor_map


def blocks(rank, dev_matrix, tensor_map):
    """Per tensor dimension: ``(block number, number of blocks)`` that ``rank`` holds."""
    coordinates = np.unravel_index(rank, dev_matrix)
    blocks = []
    for axis in tensor_map:
        if axis == -1:
            blocks.append((0, 1))
        else:
            position = len(dev_matrix) - 1 - axis
            blocks.append((int(coordinates[position]), int(dev_matrix[position])))
    return blocks


def region(rank, dev_matrix, tensor_map, full_shape):
    """The index (a tuple of slices) of the block ``rank`` holds in a whole tensor of ``full_shape``."""
    index = []
    for dim, (block, parts) in enumerate(blocks(rank, dev_matrix, tensor_map)):
        if full_shape[dim] % parts:
            raise ValueError(f"Dimension {dim} of shape {tuple(full_shape)} cannot be split into {parts} equal slices.")
        size = full_shape[dim] // parts
        index.append(slice(block * size, (block + 1) * size))
    return tuple(index)


def assemble(pieces, dev_matrix, tensor_map):
    """``(whole, covered)`` from ``{rank: block}``: the blocks placed, and a mask of what they cover.

    Ranks that repeat a block write the same values; a rank left out leaves its block uncovered.
    """
    first = next(iter(pieces.values()))
    counts = [parts for _, parts in blocks(0, dev_matrix, tensor_map)]
    shape = tuple(size * parts for size, parts in zip(first.shape, counts))
    whole = np.zeros(shape, dtype=first.dtype)
    covered = np.zeros(shape, dtype=bool)
    for rank, piece in pieces.items():
        index = region(rank, dev_matrix, tensor_map, shape)
        whole[index] = piece
        covered[index] = True
    return whole, covered


def merge_slices(slices, dev_matrix, tensor_map):
    """The whole array from ``slices`` (one per rank, in rank order) of an even layout."""
    return assemble(dict(enumerate(slices)), dev_matrix, tensor_map)[0]


def slice_for_rank(full, dev_matrix, tensor_map, rank):
    """The block of ``full`` that ``rank`` holds under an even layout."""
    return full[region(rank, dev_matrix, tensor_map, full.shape)]


# --- merge_sliced_parameter ---------------------------------------------------------------------
def _check_slices(sliced_parameters):
    if not isinstance(sliced_parameters, list):
        raise TypeError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should be list, "
                        f"but got {type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should not be empty.")
    first = sliced_parameters[0]
    for index, parameter in enumerate(sliced_parameters):
        if not isinstance(parameter, Parameter):
            raise TypeError("For 'merge_sliced_parameter', the element in 'sliced_parameters' should be "
                            f"'Parameter', but got {type(parameter)} at index {index}.")
        if parameter.name != first.name or len(parameter.shape) != len(first.shape) \
                or tuple(parameter.shape[1:]) != tuple(first.shape[1:]):
            raise ValueError("For 'merge_sliced_parameter', please make sure that the elements in "
                             "'slice_parameters' have the same name, dimension length and shape except 0 axis. The "
                             f"name, dimension length, shape except 0 axis should be {first.name}, {len(first.shape)},"
                             f" {tuple(first.shape[1:])}, but got name: {parameter.name}, dimension length: "
                             f"{len(parameter.shape)}, shape except 0 axis: {tuple(parameter.shape[1:])} at index "
                             f"{index}.")


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """Merge the slices of one parameter (one per rank, in rank order) into the whole parameter.

    Args:
        sliced_parameters (list[Parameter]): the slices, same name.
        strategy (dict): parameter name -> layout (``build_searched_strategy``). Default: ``None``
            (the slices are concatenated along axis 0).

    Returns:
        Parameter: the whole parameter.

    Example:
        >>> import numpy as np
        >>> import sporax as ms
        >>> halves = [ms.Parameter(ms.Tensor(np.ones((1, 2), np.float32)), "w") for _ in range(2)]
        >>> ms.merge_sliced_parameter(halves).shape
        (2, 2)
    """
    _check_slices(sliced_parameters)
    if strategy and not isinstance(strategy, dict):
        raise TypeError(f"For 'merge_sliced_parameter', the argument 'strategy' should be dict, but got {type(strategy)}.")
    first = sliced_parameters[0]
    data = [parameter.asnumpy() for parameter in sliced_parameters]
    if not strategy:
        merged = np.concatenate(data)
    else:
        if first.name not in strategy:
            raise KeyError(f"For 'merge_sliced_parameter', the parameter name {first.name} should be a key in the "
                           "'strategy'. Please check 'sliced_parameter' and 'strategy'.")
        dev_matrix, tensor_map = layout_lists(strategy[first.name], "merge_sliced_parameter")
        device_count = int(np.prod(dev_matrix))
        if len(data) != device_count:
            raise ValueError("For 'merge_sliced_parameter', the length of 'sliced_parameters' should be equal to "
                             f"device_count. The length of 'sliced_parameters' is {len(data)}, but device_count is "
                             f"{device_count}.")
        if any(piece.shape != data[0].shape for piece in data):
            raise ValueError("For 'merge_sliced_parameter', the shape of every parameter in 'sliced_parameters' "
                             "should be the same when slice manner is even.")
        merged = merge_slices(data, dev_matrix, tensor_map)
    return Parameter(Tensor(merged), first.name, first.requires_grad, first.layerwise_parallel)


# --- load_distributed_checkpoint ----------------------------------------------------------------
def _check_files(checkpoint_filenames, format):
    if not isinstance(checkpoint_filenames, (list, tuple)):
        checkpoint_filenames = [checkpoint_filenames]
    for index, name in enumerate(checkpoint_filenames):
        if not isinstance(name, str) or not name.endswith("." + format) or not os.path.isfile(name) \
                or os.path.getsize(name) == 0:
            raise ValueError(f"For 'load_distributed_checkpoint', please check 'checkpoint_filenames', and make sure "
                             f"the {name} at index {index} is a valid checkpoint file, it must be a string ending with "
                             f"'.{format}', and the checkpoint file it represents must be exist and not empty.")
    return list(checkpoint_filenames)


def _rank(rank_id):
    return context.get_auto_parallel_context("global_rank") if rank_id is None else rank_id


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None, dec_mode="AES-GCM",
                                format="ckpt", unified_safetensors_dir=None, dst_safetensors_dir=None, rank_id=None,
                                output_format="safetensors", name_map=None, max_process_num=64,
                                return_param_dict=False):
    """Load per-rank checkpoints into ``network``, merging each parameter's slices by the training strategy.

    Args:
        network (Cell): the network to load into.
        checkpoint_filenames (list[str]): one checkpoint per training rank, in rank order.
        predict_strategy (dict): parameter name -> ``[dev_matrix, tensor_map, ...]`` for the loading
            rank (``rank_id``, else ``global_rank``): each whole tensor is split to that rank's block.
            Default: ``None`` (whole tensors).
        train_strategy_filename (str): the training strategy file. Default: ``None``: every rank
            saved whole tensors (data parallel), so rank 0's file is loaded.
        strict_load (bool), dec_key (bytes), dec_mode (str): as ``load_checkpoint``.
        format (str): 'ckpt' or 'safetensors'.
        return_param_dict (bool): return the ``{name: Parameter}`` instead of loading it.

    Returns:
        True, or the parameter dict with ``return_param_dict``.
    """
    if format not in ("ckpt", "safetensors") or output_format not in ("ckpt", "safetensors"):
        raise ValueError("For 'load_distributed_checkpoint', 'format' and 'output_format' must be 'ckpt' or "
                         f"'safetensors', but got {format}.")
    if unified_safetensors_dir is not None or dst_safetensors_dir is not None or name_map is not None:
        raise NotImplementedError("load_distributed_checkpoint: the unified safetensors workflow "
                                  "(unified_safetensors_dir, dst_safetensors_dir, name_map) is not supported by "
                                  "sporax; pass checkpoint_filenames and a training strategy file.")
    if predict_strategy is not None and not isinstance(predict_strategy, dict):
        raise ValueError(f"The parameter 'predict_strategy' must be isinstance of {dict}, but got {predict_strategy}.")
    files = _check_files(checkpoint_filenames, format)
    train_strategy = build_searched_strategy(train_strategy_filename)
    if not train_strategy:
        files = files[:1]
    else:
        layouts = {name: layout_lists(layout, "load_distributed_checkpoint") for name, layout in train_strategy.items()}
        device_count = int(np.prod(next(iter(layouts.values()))[0]))
        if device_count != len(files):
            raise ValueError("For 'Load_distributed_checkpoint', the length of 'checkpoint_filenames' should be equal "
                             "to the device count of training process. But got the length of 'checkpoint_filenames' "
                             f"is {len(files)} and the device count is {device_count}.")
    per_rank = [load_checkpoint(name, dec_key=dec_key, dec_mode=dec_mode, format=format) for name in files]
    param_dict = {}
    for _, param in network.parameters_and_names():
        name = param.name
        if name not in per_rank[0]:
            continue
        if train_strategy and name in layouts:
            dev_matrix, tensor_map = layouts[name]
            whole = merge_slices([ranks[name].asnumpy() for ranks in per_rank], dev_matrix, tensor_map)
        else:
            whole = per_rank[0][name].asnumpy()
        if predict_strategy and name in predict_strategy:
            dev_matrix, tensor_map = layout_lists(predict_strategy[name], "load_distributed_checkpoint")
            whole = slice_for_rank(whole, dev_matrix, tensor_map, _rank(rank_id))
        param_dict[name] = Parameter(Tensor(whole), name)
    if return_param_dict:
        return param_dict
    load_param_into_net(network, param_dict, strict_load=strict_load)
    return True


def load_segmented_checkpoints(ckpt_file_dir, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                               dec_mode="AES-GCM", specify_prefix=None, choice_func=None):
    """Load every ``.ckpt`` of ``ckpt_file_dir`` (a checkpoint saved in segments) into one parameter dict.

    Args:
        ckpt_file_dir (str): the folder of segment files.
        net (Cell): when given, each segment is also loaded into it.
        Others: as ``load_checkpoint``.

    Returns:
        dict: name -> Parameter (str for appended string entries).
    """
    if not isinstance(ckpt_file_dir, str):
        raise TypeError("The ckpt_file_dir should be a str.")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"The dst_strategy_file: {ckpt_file_dir} doesn't exist. Or it's not a directory")
    parameters = {}
    for name in sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt"))):
        parameters.update(load_checkpoint(name, net, strict_load, filter_prefix, dec_key, dec_mode, specify_prefix,
                                          choice_func))
    return parameters
