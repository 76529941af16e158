"""Point-to-point messages of ``mindspore.ops``' process-group API: ``send``/``recv``, ``isend``/``irecv``,
``P2POp`` and ``batch_isend_irecv`` (``src``/``dst`` are world ranks; messages follow the plans of
``sporax.parallel.point_to_point``)."""
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import wrap
from sporax.parallel import comm_func, comm_p2p
from sporax.parallel.comm_func import CommHandle
from sporax.parallel.process_group import _INPLACE, _group, _inplace_only, _store, _tensor, get_rank


def send(tensor, dst=0, group=None, tag=0):
    """Send ``tensor`` to world rank ``dst`` (which calls ``recv``)."""
    group = _group("send", group)
    _tensor("send", "tensor", tensor)
    if dst == get_rank():
        raise ValueError("For 'send', the destination rank must differ from this process's rank.")
    comm_func.send(tensor, dst, group, tag)
    return None if _INPLACE["send"] else 0


def recv(tensor, src=0, group=None, tag=0):
    """Receive into ``tensor`` (its shape and dtype) what world rank ``src`` sends; returns 0 in place."""
    group = _group("recv", group)
    _tensor("recv", "tensor", tensor)
    received = comm_func.recv(tensor, src, group, tag)
    if not _INPLACE["recv"]:
        return received
    _store("recv", tensor, received._value)
    return 0


class _ReceiveHandle:
    """The handle of an in-place ``irecv``: ``wait()`` runs the queued messages and fills the tensor."""

    def __init__(self, tensor, received, handle):
        self._tensor, self._received, self._handle = tensor, received, handle

    def wait(self):
        self._handle.wait()
        if self._received is not None:
            _store("irecv", self._tensor, self._received._value)
            self._received = None


def isend(tensor, dst=0, group=None, tag=0):
    """Queue ``tensor`` for world rank ``dst``; returns a handle whose ``wait()`` sends it."""
    group = _group("isend", group)
    if dst == get_rank():
        raise ValueError("For 'isend', the destination rank must differ from this process's rank.")
    handle = comm_p2p.isend(tensor, dst, group, tag)
    return handle if _INPLACE["isend"] else (wrap(jnp.zeros((), jnp.int32)), handle)


def irecv(tensor, src=0, group=None, tag=0):
    """Queue the receipt into ``tensor`` of what world rank ``src`` sends; the tensor holds it after ``wait()``."""
    group = _group("irecv", group)
    received, handle = comm_p2p.irecv(tensor, src, group, tag)
    return _ReceiveHandle(tensor, received, handle) if _INPLACE["irecv"] else (received, handle)


class P2POp:
    """One message of ``batch_isend_irecv``: ``op`` (``"isend"``/``"irecv"`` or ``ops.isend``/``ops.irecv``), the
    tensor to send or to receive into, the peer's world rank and the group.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.P2POp("isend", Tensor(np.ones(2, np.float32)), 0).peer
        0
    """

    def __init__(self, op, tensor, peer, group=None, tag=0):
        name = op if isinstance(op, str) else getattr(op, "__name__", None)
        if name not in ("isend", "irecv"):
            raise TypeError(f"For 'P2POp', op must be 'isend', 'irecv', ops.isend or ops.irecv, but got {op!r}.")
        if not isinstance(tensor, Tensor):
            raise TypeError(f"For 'P2POp', tensor must be a Tensor, but got {type(tensor)}.")
        if isinstance(peer, bool) or not isinstance(peer, int):
            raise TypeError(f"For 'P2POp', the peer must be an int, but got {type(peer)}.")
        if tag != 0:
            raise NotImplementedError("For 'P2POp', tag is not supported yet (nor in MindSpore 2.10): leave tag=0; "
                                      "the messages pair up in the order they are listed.")
        self.op, self.tensor, self.peer, self.group, self.tag = name, tensor, peer, group, tag


def batch_isend_irecv(p2p_op_list):
    """Run the messages of ``p2p_op_list`` together; each ``irecv`` tensor receives in place. Returns ``[handle]``."""
    _inplace_only("batch_isend_irecv")
    if not isinstance(p2p_op_list, list) or not p2p_op_list:
        raise TypeError("For 'batch_isend_irecv', p2p_op_list must be a non-empty list of P2POp.")
    if not all(isinstance(item, P2POp) for item in p2p_op_list):
        raise TypeError("For 'batch_isend_irecv', the elements in p2p_op_list must be type of P2POp.")
    if any(item.group != p2p_op_list[0].group for item in p2p_op_list):
        raise TypeError("For 'batch_isend_irecv', the group name in p2p_op_list must be consistent.")
    results = comm_p2p.batch_isend_irecv([comm_p2p.P2POp(item.op, item.tensor, item.peer, item.group)
                                          for item in p2p_op_list])
    for item, result in zip(p2p_op_list, results):
        if item.op == "irecv":
            _store("batch_isend_irecv", item.tensor, result._value)
    return [CommHandle(results[-1])]
