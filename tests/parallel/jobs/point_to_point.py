"""A job of 2 or 4 CPU processes (run by tests/parallel/test_point_to_point.py): NeighborExchange(V2) and
comm_func's isend/irecv, batch_isend_irecv, all_to_all_with_output_shape, all_to_all_single_with_output_shape.

Every rank writes ``result_<rank>.json`` into the folder given as argv[1]: the outputs and the
gradients of its exchanges in PyNative mode, GRAPH mode (a Cell) and under ``ms.jit``. The test
computes the expected values with NumPy from the same inputs.
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.communication import comm_func, get_group_size, get_rank, init

from sporax.graph.cell_jit import compiled_cell

out_dir = sys.argv[1]
init()
rank, size = get_rank(), get_group_size()
following, preceding = (rank + 1) % size, (rank - 1) % size
x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * rank)
grid_rows, grid_columns = (2, 1) if size == 2 else (2, 2)
row, column = divmod(rank, grid_columns)


def neighbour(d_row, d_column):
    """The rank of the grid cell at (row + d_row, column + d_column), -1 outside the grid."""
    other_row, other_column = row + d_row, column + d_column
    if 0 <= other_row < grid_rows and 0 <= other_column < grid_columns:
        return other_row * grid_columns + other_column
    return -1


# Directions 0..7: top, top-right, right, bottom-right, bottom, bottom-left, left, top-left.
STEPS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]
neighbours = [neighbour(*step) for step in STEPS]
halo_input = Tensor(np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) + 100 * rank)


class Ring(nn.Cell):
    """x goes to the following rank, its column sums to the preceding one."""

    def __init__(self):
        super().__init__()
        self.exchange = ops.NeighborExchange([following, preceding], [preceding, following], ([2, 3], [3]),
                                             ([2, 3], [3]), ms.float32)

    def construct(self, t):
        return self.exchange((t, t.sum(0)))


class Halo(nn.Cell):
    def __init__(self):
        super().__init__()
        # send [top, bottom, left, right] = [1, 1, 1, 2] rows/columns; the opposite side receives them
        self.exchange = ops.NeighborExchangeV2(neighbours, [1, 1, 1, 2], neighbours, [1, 1, 2, 1], "NCHW")

    def construct(self, t):
        return self.exchange(t)


class SendOnly(nn.Cell):
    def __init__(self):
        super().__init__()
        self.exchange = ops.NeighborExchange([1], [], (), ([2, 3],), ms.float32)

    def construct(self, t):
        nothing = self.exchange((t * 2,))
        return t + 1 if nothing is None else t


class ReceiveOnly(nn.Cell):
    def __init__(self):
        super().__init__()
        self.exchange = ops.NeighborExchange([], [0], ([2, 3],), (), ms.float32)

    def construct(self, t):
        return self.exchange()[0] + t


result = {"neighbours": neighbours}
for mode_name, mode in (("pynative", ms.PYNATIVE_MODE), ("graph", ms.GRAPH_MODE)):
    ms.set_context(mode=mode)
    ring, halo_net = Ring(), Halo()
    ring_weight = float(rank + 1)

    def ring_loss(t):
        first, second = ring(t)
        return (first * ring_weight).sum() + (second ** 2).sum()

    got = {}
    got["ring"] = [value.asnumpy().tolist() for value in ring(x)]
    got["ring_grad"] = ms.grad(ring_loss)(x).asnumpy().tolist()
    got["ring_jit_grad"] = ms.jit(ms.grad(ring_loss))(x).asnumpy().tolist()
    halo = halo_net(halo_input)
    halo_weight = Tensor(np.random.default_rng(rank).normal(size=halo.shape).astype(np.float32))

    def halo_loss(t):
        return (halo_net(t) * halo_weight).sum()

    got["halo"] = halo.asnumpy().tolist()
    if mode == ms.GRAPH_MODE:  # every process's messages reach every other: one compiled program
        got["halo_one_program"] = all(program.world for program in compiled_cell(halo_net).programs)
    got["halo_weight"] = halo_weight.asnumpy().tolist()
    got["halo_grad"] = ms.grad(halo_loss)(halo_input).asnumpy().tolist()
    got["halo_jit_grad"] = ms.jit(ms.grad(halo_loss))(halo_input).asnumpy().tolist()
    # One-way: rank 0 only sends (the output is None), rank 1 only receives (no input).
    if rank == 0:
        got["send_only"] = SendOnly()(x).asnumpy().tolist()
    elif rank == 1:
        got["recv_only"] = ReceiveOnly()(x * 0).asnumpy().tolist()
    result[mode_name] = got
    ms.set_context(mode=ms.PYNATIVE_MODE)
# An empty message (a zero-width edge towards an existing neighbour) is skipped on both sides.
empty = ops.NeighborExchangeV2(neighbours, [1, 1, 0, 0], neighbours, [1, 1, 0, 0], "NCHW")(halo_input)
result["empty_edges"] = list(empty.shape)

# comm_func (PyNative): asynchronous sends/receives around the ring; odd ranks post the receive first.
send_value = Tensor(np.full((2, 2), rank + 1.0, np.float32))
if rank % 2:
    received, receive_handle = comm_func.irecv(Tensor(np.zeros((2, 2), np.float32)), preceding)
    send_handle = comm_func.isend(send_value, following)
else:
    send_handle = comm_func.isend(send_value, following)
    received, receive_handle = comm_func.irecv(Tensor(np.zeros((2, 2), np.float32)), preceding)
send_handle.wait()
receive_handle.wait()
cf = {"irecv": received.asnumpy().tolist()}
# Read without wait(): reading the tensor sends the queued messages.
comm_func.isend(send_value * 10, preceding)
unwaited, _ = comm_func.irecv(Tensor(np.zeros((2, 2), np.float32)), following)
cf["irecv_read_without_wait"] = unwaited.asnumpy().tolist()
batch = comm_func.batch_isend_irecv([comm_func.P2POp("isend", send_value, following),
                                     comm_func.P2POp(comm_func.irecv, (2, 2), preceding, recv_dtype=ms.float32)])
cf["batch"] = [batch[0].shape, batch[1].asnumpy().tolist()]
# all_to_all_with_output_shape: rank r sends to rank i a (r+1, i+1) block of 10r + i.
blocks = [Tensor(np.full((rank + 1, other + 1), 10.0 * rank + other, np.float32)) for other in range(size)]
gathered, handle = comm_func.all_to_all_with_output_shape([(other + 1, rank + 1) for other in range(size)], blocks)
cf["all_to_all"] = [value.asnumpy().tolist() for value in gathered]
cf["all_to_all_handle"] = handle
# all_to_all_single_with_output_shape, uneven: rank r sends i + 1 rows to rank i and gets r + 1 rows from each.
rows = size * (size + 1) // 2
single_input = Tensor(np.stack([np.arange(rows) + 100 * rank, -np.arange(rows)], axis=1).astype(np.float32))
single, handle = comm_func.all_to_all_single_with_output_shape(
    (size * (rank + 1), 2), single_input, output_split_sizes=[rank + 1] * size,
    input_split_sizes=list(range(1, size + 1)), async_op=True)
handle.wait()
cf["all_to_all_single_uneven"] = single.asnumpy().tolist()
even, _ = comm_func.all_to_all_single_with_output_shape((2 * size, 3), Tensor(
    np.arange(6 * size, dtype=np.float32).reshape(2 * size, 3) + 1000 * rank))
cf["all_to_all_single_even"] = even.asnumpy().tolist()
# all_to_all_v_c: rank i sends i + j + 1 rows to rank j (written into a preallocated output).
counts = [i + j + 1 for i in range(size) for j in range(size)]
v_input = Tensor(np.arange(sum(counts[rank * size:(rank + 1) * size]), dtype=np.float32) + 100 * rank)
v_output = Tensor(np.zeros(sum(counts[i * size + rank] for i in range(size)), np.float32))
cf["all_to_all_v_c_handle"] = comm_func.all_to_all_v_c(v_output, v_input, counts)
cf["all_to_all_v_c"] = v_output.asnumpy().tolist()
result["comm_func"] = cf
with open(os.path.join(out_dir, f"result_{rank}.json"), "w") as file:
    json.dump(result, file)
