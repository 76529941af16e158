"""Neighbour exchanges on arrays: the engine of ``ops.NeighborExchange`` and ``ops.NeighborExchangeV2``.

Contract:
    * ``neighbor_exchange(values, ...)``: this process sends ``values[k]`` to group rank
      ``send_rank_ids[k]`` and receives one array of ``recv_shapes[j]`` and ``recv_type`` from group
      rank ``recv_rank_ids[j]``. The k-th message from a process to a given peer is the k-th
      message that peer receives from it (several messages to one peer keep their list order).
    * ``neighbor_exchange_v2(x, ...)``: halo exchange of an NCHW array with up to 8 neighbours,
      directions ``0`` top, ``1`` top-right, ``2`` right, ``3`` bottom-right, ``4`` bottom,
      ``5`` bottom-left, ``6`` left, ``7`` top-left (``-1``: no neighbour). ``send_lens`` /
      ``recv_lens`` are ``[top, bottom, left, right]`` widths. The rows/columns at an edge are sent
      to the neighbour in that direction; what arrives from direction d is placed on side d of the
      output, which grows by ``recv_lens`` on the sides that have a neighbour. A block sent towards
      direction d arrives on the opposite side of the receiver.
    * The checks are MindSpore's (its shape inference), with its error types and messages.
    * Gradients are the reverse exchange (``sporax.parallel.point_to_point``).

Example:
    >>> import jax.numpy as jnp
    >>> from sporax.parallel.neighbor_exchange import neighbor_exchange
    >>> neighbor_exchange((jnp.ones(2, jnp.float32),), [0], [0], ([2],), ([2],), jnp.float32,
    ...                   "hccl_world_group")[0].tolist()  # a world of one: a message to oneself
    [1.0, 1.0]
"""
import jax.numpy as jnp

from sporax.parallel.point_to_point import Receive, Send, exchange_messages


def _occurrences(ranks):
    """The tag of each entry: how many earlier entries name the same peer."""
    seen = {}
    tags = []
    for rank in ranks:
        tags.append(seen.get(rank, 0))
        seen[rank] = tags[-1] + 1
    return tags


def neighbor_exchange(values, send_rank_ids, recv_rank_ids, recv_shapes, send_shapes, recv_dtype, group):
    """Send ``values`` to ``send_rank_ids``, receive from ``recv_rank_ids`` (group ranks); a tuple of arrays."""
    for index, (value, shape) in enumerate(zip(values, send_shapes)):
        if tuple(value.shape) != tuple(shape):
            raise RuntimeError(f"For 'NeighborExchange', input[{index}] shape must be equal to attr shape, but got "
                               f"input[{index}] shape: {_shape_text(value.shape)}, attr shape : {_shape_text(shape)}.")
    sends = tuple(Send(rank, tag) for rank, tag in zip(send_rank_ids, _occurrences(send_rank_ids)))
    receives = tuple(Receive(rank, tag, tuple(shape), recv_dtype)
                     for rank, tag, shape in zip(recv_rank_ids, _occurrences(recv_rank_ids), recv_shapes))
    return exchange_messages(values, sends, receives, group)


def _shape_text(shape):
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


# Direction d of the 8: which of [top, bottom, left, right] bound it vertically / horizontally.
_VERTICAL = {0: 0, 1: 0, 7: 0, 3: 1, 4: 1, 5: 1}
_HORIZONTAL = {6: 2, 5: 2, 7: 2, 1: 3, 2: 3, 3: 3}


def _edge(x, direction, lens):
    """The block of ``x`` (N, C, H, W) at the edge of ``direction``, ``lens`` wide."""
    height, width = x.shape[2], x.shape[3]
    rows = slice(None)
    columns = slice(None)
    side = _VERTICAL.get(direction)
    if side == 0:
        rows = slice(0, lens[0])
    elif side == 1:
        rows = slice(height - lens[1], height)
    side = _HORIZONTAL.get(direction)
    if side == 2:
        columns = slice(0, lens[2])
    elif side == 3:
        columns = slice(width - lens[3], width)
    return x[:, :, rows, columns]


def _halo_shape(x_shape, direction, lens):
    """The shape of the block received from ``direction`` (``lens`` = recv_lens)."""
    batch, channels, height, width = x_shape
    side = _VERTICAL.get(direction)
    rows = height if side is None else lens[side]
    side = _HORIZONTAL.get(direction)
    columns = width if side is None else lens[side]
    return (batch, channels, rows, columns)


def check_v2_attributes(send_rank_ids, send_lens, recv_rank_ids, recv_lens, data_format):
    """MindSpore's checks of NeighborExchangeV2's attributes (the ones that do not need the input)."""
    for name, value, size in (("send_rank_ids", send_rank_ids, 8), ("recv_rank_ids", recv_rank_ids, 8),
                              ("send_lens", send_lens, 4), ("recv_lens", recv_lens, 4)):
        if not isinstance(value, list) or not all(isinstance(item, int) and not isinstance(item, bool)
                                                  for item in value):
            raise TypeError(f"For 'NeighborExchangeV2', attr '{name}' must be a list[int, int, ...].")
        if len(value) != size:
            raise ValueError(f"For 'NeighborExchangeV2', attr '{name}' size must be equal to attr_value size, "
                             f"but got attr {name} size: {size}, attr_value size: {len(value)}.")
    for ranks in (send_rank_ids, recv_rank_ids):
        seen = set()
        for rank in ranks:
            if rank < -1:
                raise ValueError(f"For 'NeighborExchangeV2', all the rank id must be >= 0 or = -1, but got invalid "
                                 f"id:{rank}.")
            if rank != -1 and rank in seen:
                raise ValueError(f"For 'NeighborExchangeV2', 'send_rank_ids' or 'recv_rank_ids' can not be repeated, "
                                 f"but got id :{rank} repeated.")
            seen.add(rank)
    for length in send_lens + recv_lens:
        if length < 0:
            raise ValueError(f"For 'NeighborExchangeV2', 'send_lens' or 'recv_lens' must be >=0, but got invalid "
                             f"len:{length}.")
    for first, second, corner in ((0, 2, 1), (2, 4, 3), (4, 6, 5), (6, 0, 7)):
        got = (f"But got recv_rank_ids[{first}]: {recv_rank_ids[first]}, recv_rank_ids[{second}]: "
               f"{recv_rank_ids[second]}, and recv_rank_ids[{corner}]: {recv_rank_ids[corner]}.")
        sides = recv_rank_ids[first] != -1 and recv_rank_ids[second] != -1
        if sides and recv_rank_ids[corner] == -1:
            raise ValueError(f"For 'NeighborExchangeV2', recv_rank_ids[{first}] or recv_rank_ids[{second}] must be "
                             f"-1, or recv_rank_ids[{corner}] can not be -1. {got}")
        if not sides and recv_rank_ids[corner] != -1:
            raise ValueError(f"For 'NeighborExchangeV2', recv_rank_ids[{first}] and recv_rank_ids[{second}] can not "
                             f"be -1, or recv_rank_ids[{corner}] must be -1. {got}")
    if not isinstance(data_format, str):
        raise TypeError("For 'NeighborExchangeV2', attr 'format' must be a str.")
    if data_format != "NCHW":
        raise ValueError(f"For 'NeighborExchangeV2', attr 'data_format' only support NCHW now, but got "
                         f"{data_format}.")


def neighbor_exchange_v2(x, send_rank_ids, send_lens, recv_rank_ids, recv_lens, group):
    """The halo exchange of ``x`` (N, C, H, W): ``x`` grown by the blocks of its neighbours."""
    if x.ndim != 4:
        raise ValueError(f"For 'NeighborExchangeV2', input shape size must be 4, but got {x.ndim}, and only support "
                         f"NCHW now.")
    for index, dim in ((0, 2), (1, 2), (2, 3), (3, 3)):
        if send_lens[index] > x.shape[dim]:
            raise ValueError(f"For 'NeighborExchangeV2', attr send_lens[{index}] must be less than or equal to input "
                             f"size in {'H' if dim == 2 else 'W'} dim, but got send_lens[{index}]: "
                             f"{send_lens[index]}, input size in {'H' if dim == 2 else 'W'} dim: {x.shape[dim]}.")
    send_directions = [d for d in range(8) if send_rank_ids[d] != -1]
    recv_directions = [d for d in range(8) if recv_rank_ids[d] != -1]
    # The tag of a message is the direction it was sent towards: the receiver's side d faces the
    # sender's side d + 4.
    sends = tuple(Send(send_rank_ids[d], d) for d in send_directions)
    receives = tuple(Receive(recv_rank_ids[d], (d + 4) % 8, _halo_shape(x.shape, d, recv_lens), x.dtype)
                     for d in recv_directions)
    received = dict(zip(recv_directions, exchange_messages(
        tuple(_edge(x, d, send_lens) for d in send_directions), sends, receives, group, "NeighborExchangeV2")))

    def band(left, middle, right):
        return jnp.concatenate([block for block in (received.get(left), middle, received.get(right))
                                if block is not None], axis=3)

    bands = []
    if 0 in received:
        bands.append(band(7, received[0], 1))
    bands.append(band(6, x, 2))
    if 4 in received:
        bands.append(band(5, received[4], 3))
    return jnp.concatenate(bands, axis=2) if len(bands) > 1 else bands[0]
