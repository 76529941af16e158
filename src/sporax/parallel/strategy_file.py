"""MindSpore's parallel strategy files, read without protobuf: ``build_searched_strategy``.

A strategy file (``strategy_ckpt_save_file``) is a protobuf ``ParallelStrategyMap`` (MindSpore's
``node_strategy.proto``) or, when the name ends in ``.json``, the same content as JSON. Only the
parameter layouts matter for checkpoints:

    ParallelStrategyMap  3: repeated ParallelLayoutItem
    ParallelLayoutItem   1: param_name (string)   2: parallel_layouts (ParallelLayouts)
    ParallelLayouts      1: dev_matrix  2: tensor_map  3: param_split_shape  4: indices_offset
                         (each repeated, a message holding ``repeated dim = 1``),
                         5: field  6: opt_weight_shard_step  7: opt_weight_shard_size (int32)

A group information file (``group_ckpt_save_file``) is a ``ParallelGroupMap``: ``1: repeated
ParallelGroupItem``, ``2: ckpt_restore_rank_list`` (a ``repeated dim = 1`` message), which
``restore_group_info_list`` returns.

``build_searched_strategy`` returns ``{param_name: ParallelLayouts}`` whose attributes read as
MindSpore's protobuf objects do (``layout.dev_matrix[0].dim``, ``layout.tensor_map[0].dim``,
``layout.field``). The fields are decoded with ``sporax.io.wire``; integer fields that are
negative (-1 in a tensor map) arrive as 64-bit two's complement varints.
"""
import json
import os

from sporax.io.wire import WireError, decode_varint, iterate_fields

_DIM_FIELDS = {1: "dev_matrix", 2: "tensor_map", 3: "param_split_shape", 4: "indices_offset"}
_INT_FIELDS = {5: "field", 6: "opt_weight_shard_step", 7: "opt_weight_shard_size"}


class Dims:
    """One ``repeated dim`` message (``DevMatrix``, ``TensorMap``, ...)."""

    def __init__(self, dim=()):
        self.dim = list(dim)

    def __repr__(self):
        return f"Dims(dim={self.dim})"


class ParallelLayouts:
    """A parameter's layout in a strategy file (MindSpore's ``ParallelLayouts`` message)."""

    def __init__(self):
        self.dev_matrix, self.tensor_map, self.param_split_shape, self.indices_offset = [], [], [], []
        self.field = self.opt_weight_shard_step = self.opt_weight_shard_size = 0

    def __repr__(self):
        return (f"ParallelLayouts(dev_matrix={[d.dim for d in self.dev_matrix]}, "
                f"tensor_map={[d.dim for d in self.tensor_map]}, field={self.field})")


def _signed(value):
    return value - (1 << 64) if value >= 1 << 63 else value


def _dims(data, span):
    values = []
    for number, wire_type, value, _ in iterate_fields(data, *span):
        if number != 1:
            continue
        if wire_type == 0:
            values.append(_signed(value))
        elif wire_type == 2:  # packed
            position, end = value
            while position < end:
                item, position = decode_varint(data, position, end)
                values.append(_signed(item))
    return Dims(values)


def _layouts(data, span):
    layouts = ParallelLayouts()
    for number, wire_type, value, _ in iterate_fields(data, *span):
        if number in _DIM_FIELDS and wire_type == 2:
            getattr(layouts, _DIM_FIELDS[number]).append(_dims(data, value))
        elif number in _INT_FIELDS and wire_type == 0:
            setattr(layouts, _INT_FIELDS[number], _signed(value))
    return layouts


def _from_protobuf(data):
    strategy = {}
    for number, wire_type, value, _ in iterate_fields(data):
        if number != 3 or wire_type != 2:
            continue
        name, layouts = None, None
        for inner, inner_type, inner_value, _ in iterate_fields(data, *value):
            if inner == 1 and inner_type == 2:
                name = bytes(data[inner_value[0]:inner_value[1]]).decode("utf-8")
            elif inner == 2 and inner_type == 2:
                layouts = _layouts(data, inner_value)
        if name is not None:
            strategy[name] = layouts or ParallelLayouts()
    return strategy


def _from_json(content):
    strategy = {}
    for name, item in content.get("parallel_layout_item", {}).items():
        layouts = ParallelLayouts()
        layouts.field = item.get("field") or 0
        layouts.opt_weight_shard_step = item.get("opt_weight_shard_step") or 0
        layouts.opt_weight_shard_size = item.get("opt_weight_shard_size") or 0
        for key in ("dev_matrix", "tensor_map", "param_split_shape", "indices_offset"):
            getattr(layouts, key).append(Dims(item.get(key, ())))
        strategy[name] = layouts
    return strategy


def build_searched_strategy(strategy_filename):
    """Read a strategy file: ``{parameter name: ParallelLayouts}`` (protobuf, or JSON for ``.json``).

    Args:
        strategy_filename (str): the file ``strategy_ckpt_save_file`` wrote.

    Returns:
        dict: parameter name -> its layout (``dev_matrix[0].dim``, ``tensor_map[0].dim``, ``field``).

    Example:
        >>> import sporax as ms
        >>> # strategy = ms.build_searched_strategy("strategy.ckpt")
    """
    if strategy_filename is None:
        return None
    if not isinstance(strategy_filename, str):
        raise TypeError("For 'build_searched_strategy', the argument 'strategy_filename' should be string, "
                        f"but got {type(strategy_filename)}.")
    if not os.path.isfile(strategy_filename):
        raise ValueError(f"For 'build_searched_strategy', no such strategy file: {strategy_filename}. "
                         "Please check whether the 'strategy_filename' exists.")
    if os.path.getsize(strategy_filename) == 0:
        raise ValueError(f"For 'build_searched_strategy', the strategy file {strategy_filename} should not be "
                         "empty. Please check whether the 'strategy_filename' is correct.")
    if strategy_filename.endswith(".json"):
        with open(strategy_filename, encoding="utf-8") as handle:
            return _from_json(json.load(handle))
    with open(strategy_filename, "rb") as handle:
        data = handle.read()
    try:
        return _from_protobuf(data)
    except (WireError, UnicodeDecodeError) as error:
        raise TypeError("The strategy file type should be one of json or protobuf. When the file name extension "
                        "is not '.json', the file is considered as a protobuf file.") from error


def restore_group_info_list(group_info_file_name):
    """The ranks whose checkpoints a group information file says to restore from.

    Args:
        group_info_file_name (str): the file ``group_ckpt_save_file`` wrote.

    Returns:
        list[int]
    """
    if not isinstance(group_info_file_name, str):
        raise TypeError("For 'restore_group_info_list', the argument 'group_info_file_name' should be str, "
                        f"but got {type(group_info_file_name)}.")
    if not os.path.isfile(group_info_file_name):
        raise ValueError(f"For 'restore_group_info_list', no such group information file: {group_info_file_name}.")
    if os.path.getsize(group_info_file_name) == 0:
        raise ValueError("For 'restore_group_info_list', the group information file should not be empty.")
    with open(group_info_file_name, "rb") as handle:
        data = handle.read()
    ranks = None
    try:
        for number, wire_type, value, _ in iterate_fields(data):
            if number == 2 and wire_type == 2:
                ranks = _dims(data, value).dim
    except WireError as error:
        raise ValueError(f"For 'restore_group_info_list', {group_info_file_name} is not a group information "
                         "file (MindSpore's ParallelGroupMap protobuf).") from error
    if not ranks:
        raise ValueError("For 'restore_group_info_list', the group information file has no restore rank list.")
    return ranks
