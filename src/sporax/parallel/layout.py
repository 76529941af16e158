"""``mindspore.Layout``: a named device matrix and the map of a tensor's dimensions onto it.

``Layout((2, 2, 2), ("dp", "sp", "mp"))`` names an 8-device matrix; calling it with one alias
(or a tuple of aliases, or ``"None"``) per tensor dimension, ``layout("dp", "None")``, says which
device axes split each dimension. As in MindSpore the call records the tensor map on the layout
itself and returns a copy, and ``to_dict()`` gives the map in MindSpore's numbering (device axes
counted from the right, -1 for an unsplit dimension).

``sporax.parallel.strategy.layout_sharding`` turns a called Layout into a
``jax.sharding.NamedSharding`` on ``Mesh(devices.reshape(device_matrix), alias_name)``.

Example:
    >>> from sporax.parallel import Layout
    >>> layout = Layout((2, 4), ("dp", "mp"))
    >>> layout("dp", "None").to_dict()["tensor_map"]
    (1, -1)
"""
import copy

import numpy as np

_INTERLEAVED = "interleaved_parallel"
_UNSPLIT = "None"


def _check_matrix(device_matrix, alias_name):
    if not isinstance(device_matrix, tuple):
        raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
    if not isinstance(alias_name, tuple):
        raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
    if len(device_matrix) != len(alias_name):
        raise ValueError("device_matrix length should be equal to alias_name length")
    for size in device_matrix:
        if not isinstance(size, int):
            raise TypeError(f"The element of device_matrix must be int type, but got:{type(size)}")
    for name in alias_name:
        if not isinstance(name, str):
            raise TypeError(f"The element of alias_name must be str type, but got:{type(name)}")
        if not name:
            raise ValueError("The element of alias_name can not be empty.")
        if name == _UNSPLIT:
            raise ValueError("The element of alias_name can not set 'None', because 'None' means no sharding.")
    if len(set(alias_name)) != len(alias_name):
        raise ValueError(f"Each element of alias_name {alias_name} should be different")
    if _INTERLEAVED in alias_name and alias_name.index(_INTERLEAVED) != len(alias_name) - 1:
        raise ValueError(f"When alias_name {alias_name} contains keyword 'interleaved_parallel', it should be at "
                         "the last dim of alias_name, which means the virtual sharding.")


def _check_rank_list(rank_list, device_count):
    if not isinstance(rank_list, list):
        raise TypeError(f"The rank_list should be a list, but got {type(rank_list).__name__}.")
    for rank in rank_list:
        if not isinstance(rank, int):
            raise TypeError(f"The element of rank_list should be int, but got {type(rank).__name__}.")
    if len(rank_list) != device_count:
        raise ValueError("The length of rank_list should be equal to the product of device_matrix, "
                         f"but got {len(rank_list)} and {device_count}.")


class Layout:
    """A device matrix with named axes; call it to map a tensor's dimensions onto the axes.

    Args:
        device_matrix (tuple[int]): the number of devices along each axis.
        alias_name (tuple[str]): one distinct name per axis (not ``"None"``, which means unsplit).
        rank_list (list[int], optional): the device ranks in matrix order. Default: ``None``
            (ranks ``0 .. prod(device_matrix) - 1``).

    Example:
        >>> layout = Layout((2, 2), ("dp", "mp"))
        >>> layout(("dp", "mp"), "None").to_dict()["tensor_map"]
        ((1, 0), -1)
    """

    def __init__(self, device_matrix, alias_name, rank_list=None):
        _check_matrix(device_matrix, alias_name)
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._tensor_map = None
        count = int(np.prod(device_matrix))
        if rank_list is not None:
            _check_rank_list(rank_list, count)
        self._rank_list = list(range(count)) if rank_list is None else rank_list

    def _axis_index(self, name, used):
        if name not in self._alias_name:
            raise ValueError(f"The axis {name} is not found in {self._alias_name}")
        if name in used:
            raise ValueError(f"The axis {name} has been set more than one in {self._alias_name}")
        used.add(name)
        # MindSpore numbers device axes from the right: the last alias is axis 0.
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map):
        """Map each tensor dimension to an alias, a tuple of aliases, or ``"None"``; returns a copy."""
        used = set()
        mapped = []
        for entry in tensor_map:
            if isinstance(entry, tuple):
                mapped.append(tuple(-1 if name == _UNSPLIT else self._axis_index(name, used) for name in entry))
            elif entry == _UNSPLIT:
                mapped.append(-1)
            else:
                mapped.append(self._axis_index(entry, used))
        self._tensor_map = tuple(mapped)
        return copy.deepcopy(self)

    def to_dict(self):
        """The layout as MindSpore describes it: device_matrix, tensor_map, interleaved_parallel, alias_name, rank_list."""
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": _INTERLEAVED in self._alias_name, "alias_name": self._alias_name,
                "rank_list": self._rank_list}

    def partition_spec(self):
        """The tensor map as alias names for ``jax.sharding.PartitionSpec`` (None for an unsplit dim)."""
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None: call the Layout with one alias per tensor "
                             "dimension, e.g. layout('dp', 'None'), before using it as a strategy.")
        names = self._alias_name

        def name_of(index):
            return None if index == -1 else names[len(names) - 1 - index]

        spec = []
        for entry in self._tensor_map:
            if isinstance(entry, tuple):
                axes = tuple(name for name in map(name_of, entry) if name is not None)
                spec.append(axes if len(axes) > 1 else (axes[0] if axes else None))
            else:
                spec.append(name_of(entry))
        return tuple(spec)


class _DistributedTensorInfo:
    """A tensor's distribution (MindSpore's private ``parallel.shard._DistributedTensorInfo``): its Layout and
    ``sharding_strategy``, the number of slices of each dimension."""

    def __init__(self, distributed_info):
        if not isinstance(distributed_info, Layout):
            raise TypeError("DistributedTensorInfo only supports Layout or DeviceMesh as input, but got "
                            f"{type(distributed_info)}")
        self.layout = self.distributed_info = distributed_info

    @property
    def sharding_strategy(self):
        """Slices per tensor dimension: the product of the device-matrix axes mapped to it (1 where none)."""
        layout = self.layout.to_dict()
        matrix = layout["device_matrix"]
        strategy = []
        for mapped in layout["tensor_map"]:
            count = 1
            for axis in (mapped if isinstance(mapped, tuple) else (mapped,)):
                count *= 1 if axis == -1 else matrix[len(matrix) - 1 - axis]
            strategy.append(count)
        return strategy
