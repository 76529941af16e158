"""Replica groups of a parameter layout: the ranks holding the very same slice of a parameter.

Under a layout (``dev_matrix``, ``tensor_map``) the ranks that differ only along the device axes a
parameter is not split over hold identical slices: its data-parallel replicas. Two MindSpore
helpers work on them:

- ``parameter_broadcast``: every replica group takes the values of its lowest rank (so replicas
  initialised with different seeds start equal), by a broadcast within the group;
- ``get_ckpt_path_with_strategy``: a rank whose own checkpoint is missing may load a replica's.
"""
import os
import re

import numpy as np

from sporax.core.tensor import Tensor
from sporax.parallel import comm_func, communication
from sporax.parallel.checkpoint import blocks, layout_lists
from sporax.parallel.strategy_file import build_searched_strategy


def replica_groups(layout, initial_rank=0):
    """``{name: ((ranks), ...)}``: per parameter, the groups of ranks holding identical slices.

    Args:
        layout (dict): name -> layout (a strategy file's ParallelLayouts or a ``parameter_layout_dict``
            entry ``[dev_matrix, tensor_map, ...]``).
        initial_rank (int): the first rank of the pipeline stage the layout describes. Default: 0.

    Example:
        >>> from sporax.parallel.replicas import replica_groups
        >>> replica_groups({"w": [[2, 2], [1, -1]]})
        {'w': ((0, 1), (2, 3))}
    """
    groups = {}
    for name in sorted(layout):
        dev_matrix, tensor_map = layout_lists(layout[name], "replica_groups")
        by_block = {}
        for rank in range(int(np.prod(dev_matrix))):
            by_block.setdefault(tuple(blocks(rank, dev_matrix, tensor_map)), []).append(rank + initial_rank)
        groups[name] = tuple(sorted(tuple(ranks) for ranks in by_block.values()))
    return groups


def _check_rank(name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For parameter broadcast, the '{name}' must be a non-negative int, but got {value!r}.")


def parameter_broadcast(net, layout, cur_rank=0, initial_rank=0):
    """Give every data-parallel replica of each parameter the values of the group's lowest rank.

    Args:
        net (Cell): the network whose parameters are broadcast.
        layout (dict): name -> layout (``net.parameter_layout_dict`` or ``build_searched_strategy(file)``).
        cur_rank (int): this process's rank. Default: ``0``.
        initial_rank (int): the first rank of this pipeline stage. Default: ``0``.

    Raises:
        ValueError: ``cur_rank`` is not this process's rank, ``initial_rank`` is after it, or a
            parameter of ``layout`` is not in ``net``.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(2, 2)
        >>> ms.parameter_broadcast(net, {"weight": [[1], [-1, -1]]})  # one process: nothing to do
    """
    if not layout or communication.get_group_size() <= 1:
        return
    _check_rank("cur_rank", cur_rank)
    _check_rank("initial_rank", initial_rank)
    if cur_rank != communication.get_rank():
        raise ValueError(f"For parameter broadcast, the cur_rank {cur_rank} is not the rank of this process "
                         f"({communication.get_rank()}).")
    if initial_rank > cur_rank:
        raise ValueError(f"For parameter broadcast, the initial_rank {initial_rank} must be the first rank of the "
                         f"pipeline stage of rank {cur_rank}.")
    parameters = net.parameters_dict()
    for name in layout:
        if name not in parameters:
            raise ValueError(f"For parameter broadcast, the param: {name} can not be found.")
    by_group = {}
    for name, groups in replica_groups(layout, initial_rank).items():
        for group in groups:
            if len(group) > 1 and cur_rank in group:
                by_group.setdefault(group, []).append(name)
    for group, names in sorted(by_group.items()):
        group_name = "replicas_" + "_".join(map(str, group))
        communication.create_group(group_name, list(group))
        for name in names:
            parameter = parameters[name]
            received = comm_func.broadcast(Tensor(parameter.value()), src=group[0], group=group_name)
            parameter.set_data(received)


def _current_rank_replicas(layouts, rank):
    """The replicas of ``rank`` shared by every parameter (just ``rank`` when parameters disagree)."""
    smallest = None
    for name, groups in layouts.items():
        if name.startswith(("accu_grads", "inputs")):
            continue
        for group in groups:
            if rank not in group:
                continue
            if smallest is None or len(group) < len(smallest):
                if smallest is not None and not set(group).issubset(smallest):
                    return (rank,)
                smallest = group
            elif not set(smallest).issubset(group):
                return (rank,)
    return smallest or (rank,)


def get_ckpt_path_with_strategy(cur_ckpt_path, cur_strategy_path):
    """A checkpoint this rank can load: its own, else the existing one of a data-parallel replica.

    The path names its rank as ``rank_{id}``; the replicas come from the strategy file.

    Args:
        cur_ckpt_path (str): this rank's checkpoint path (containing ``rank_{id}``).
        cur_strategy_path (str): this rank's strategy file.

    Returns:
        str, the path found, or None when no replica's checkpoint exists.

    Example:
        >>> import sporax as ms
        >>> ms.get_ckpt_path_with_strategy("./rank_0/net.ckpt", "./strategy.ckpt")  # doctest: +SKIP
    """
    rank = communication.get_rank()
    if f"rank_{rank}" in cur_ckpt_path and os.path.isfile(cur_ckpt_path):
        return cur_ckpt_path
    strategy = build_searched_strategy(cur_strategy_path) or {}
    for replica in _current_rank_replicas(replica_groups(strategy), rank):
        candidate = re.sub(r"rank_\d+", f"rank_{replica}", cur_ckpt_path)
        if os.path.isfile(candidate):
            return candidate
    return None
