"""Python objects through ``mindspore.ops``' process-group API: ``all_gather_object``, ``broadcast_object_list``,
``gather_object``, ``scatter_object_list``, ``send_object_list``/``recv_object_list``.

Objects travel as pickled bytes and are read back with an unpickler that rebuilds only plain data and
NumPy arrays (unpickling is otherwise able to run code).

Example:
    >>> from sporax import ops
    >>> gathered = [None]
    >>> ops.all_gather_object(gathered, {"loss": 0.5}); gathered  # a world of one process
    [{'loss': 0.5}]
"""
import io
import pickle

import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.parallel import collectives
from sporax.parallel.process_group import _group, _group_rank, _members, _my_index
from sporax.parallel.process_group_messages import recv, send


class _DataUnpickler(pickle.Unpickler):
    """Rebuilds plain data, and NumPy arrays, only: a received pickle can not run code."""

    _ALLOWED = {("builtins", name) for name in (
        "list", "dict", "tuple", "set", "frozenset", "int", "float", "complex", "str", "bytes", "bytearray", "bool",
        "slice", "range")} | {("collections", "OrderedDict"), ("numpy", "dtype"), ("numpy", "ndarray"),
                              ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
                              ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar")}

    def find_class(self, module, name):
        if (module, name) in self._ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"the communication functions only exchange plain data and NumPy arrays; "
                                     f"{module}.{name} is refused (convert it to plain data first).")


def _to_bytes(obj):
    return np.frombuffer(pickle.dumps(obj), dtype=np.uint8)


def _from_bytes(data):
    return _DataUnpickler(io.BytesIO(np.asarray(data, np.uint8).tobytes())).load()


def _gather_bytes(function, data, group):
    """Every member's byte string, in group-rank order."""
    sizes = collectives.all_gather(jnp.asarray([data.size], jnp.int32), group)
    sizes = [int(size) for size in np.asarray(sizes)]
    padded = np.zeros(max(sizes), np.uint8)
    padded[:data.size] = data
    blocks = np.asarray(collectives.all_gather(jnp.asarray(padded)[None], group))
    return [blocks[i, :size] for i, size in enumerate(sizes)]


def _broadcast_bytes(function, data, source, group):
    """The byte string of group rank ``source`` (``data`` there; ignored elsewhere)."""
    size = int(np.asarray(collectives.broadcast(jnp.asarray([data.size], jnp.int32), source, group))[0])
    padded = np.zeros(size, np.uint8)
    padded[:min(size, data.size)] = data[:size]
    return np.asarray(collectives.broadcast(jnp.asarray(padded), source, group)) if size else padded


def _object_list(function, name, value):
    if not isinstance(value, list):
        raise TypeError(f"For '{function}', '{name}' must be a list, but got {type(value)}.")
    return value


def all_gather_object(object_list, obj, group=None):
    """``object_list[i]`` receives the picklable ``obj`` of group rank i."""
    group = _group("all_gather_object", group)
    _object_list("all_gather_object", "object_list", object_list)
    members = _members("all_gather_object", group)
    if len(object_list) != len(members):
        raise TypeError(f"For 'all_gather_object', object_list needs one entry per member of group '{group}' "
                        f"({len(members)}), but got {len(object_list)}.")
    for index, data in enumerate(_gather_bytes("all_gather_object", _to_bytes(obj), group)):
        object_list[index] = _from_bytes(data)


def broadcast_object_list(object_list, src=0, group=None, device=None):
    """Every member's ``object_list`` receives (in place) the objects of world rank ``src``'s list."""
    group = _group("broadcast_object_list", group)
    _object_list("broadcast_object_list", "object_list", object_list)
    source = _group_rank("broadcast_object_list", src, group)
    mine = _my_index(_members("broadcast_object_list", group)) == source
    received = _from_bytes(_broadcast_bytes("broadcast_object_list", _to_bytes(list(object_list)) if mine
                                            else np.zeros(0, np.uint8), source, group))
    if len(received) != len(object_list):
        raise ValueError(f"For 'broadcast_object_list', every member's object_list must have the length of rank "
                         f"{src}'s ({len(received)}), but got {len(object_list)}.")
    object_list[:] = received


def gather_object(obj, object_gather_list=None, dst=0, group=None):
    """World rank ``dst``'s ``object_gather_list[i]`` receives the picklable ``obj`` of group rank i."""
    group = _group("gather_object", group)
    members = _members("gather_object", group)
    target = _group_rank("gather_object", dst, group)
    gathered = _gather_bytes("gather_object", _to_bytes(obj), group)
    if _my_index(members) == target:
        _object_list("gather_object", "object_gather_list", object_gather_list)
        if len(object_gather_list) != len(members):
            raise TypeError(f"For 'gather_object', object_gather_list needs one entry per member of group "
                            f"'{group}' ({len(members)}), but got {len(object_gather_list)}.")
        for index, data in enumerate(gathered):
            object_gather_list[index] = _from_bytes(data)


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0, group=None):
    """``scatter_object_output_list[0]`` of group rank i receives world rank ``src``'s
    ``scatter_object_input_list[i]``."""
    group = _group("scatter_object_list", group)
    _object_list("scatter_object_list", "scatter_object_output_list", scatter_object_output_list)
    if not scatter_object_output_list:
        raise TypeError("For 'scatter_object_list', scatter_object_output_list must be a non-empty list.")
    members = _members("scatter_object_list", group)
    source = _group_rank("scatter_object_list", src, group)
    me = _my_index(members)
    if me == source:
        _object_list("scatter_object_list", "scatter_object_input_list", scatter_object_input_list)
        if len(scatter_object_input_list) != len(members):
            raise TypeError(f"For 'scatter_object_list', scatter_object_input_list needs one object per member of "
                            f"group '{group}' ({len(members)}), but got {len(scatter_object_input_list)}.")
    payload = _to_bytes(list(scatter_object_input_list)) if me == source else np.zeros(0, np.uint8)
    scatter_object_output_list[0] = _from_bytes(_broadcast_bytes("scatter_object_list", payload, source, group))[me]


def send_object_list(object_list, dst, group=None, device=None):
    """Send the picklable objects of ``object_list`` to world rank ``dst`` (which calls ``recv_object_list``)."""
    group = _group("send_object_list", group)
    _object_list("send_object_list", "object_list", object_list)
    data = _to_bytes(list(object_list))
    send(Tensor(np.asarray([data.size], np.int32)), dst, group)
    send(Tensor(data), dst, group)


def recv_object_list(object_list, src=0, group=None, device=None):
    """Receive into ``object_list`` (its length) the objects world rank ``src`` sends with ``send_object_list``."""
    group = _group("recv_object_list", group)
    _object_list("recv_object_list", "object_list", object_list)
    size = Tensor(np.zeros(1, np.int32))
    recv(size, src, group)
    data = Tensor(np.zeros(int(size.asnumpy()[0]), np.uint8))
    recv(data, src, group)
    received = _from_bytes(data.asnumpy())
    if len(received) != len(object_list):
        raise ValueError(f"For 'recv_object_list', object_list must have the length of the sent list "
                         f"({len(received)}), but got {len(object_list)}.")
    object_list[:] = received
