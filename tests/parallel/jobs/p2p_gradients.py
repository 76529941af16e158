"""A job of 2 CPU processes (run by tests/parallel/test_p2p_gradients.py): gradients through comm_func's
isend/irecv and ops.Send/ops.Receive, as MindSpore's (a send's gradient is the receiver's gradient of what it
received, sent back).

Rank 0 sends ``tanh(x) * 3`` (and ``x * 2`` with the same tag, second) to rank 1; rank 1 receives both and
uses only the first, in ``(first * t).sum()``. Every rank writes ``result_<rank>.json`` into the folder given
as argv[1]: its input and its gradients for ms.grad (PyNative, and of a Cell in GRAPH mode),
ms.jit(ms.grad), value_and_grad, an ops.Send whose output the loss does not use (only ``ops.depend``) and a
batch_isend_irecv ring. The test computes the expected values with NumPy.
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.communication import comm_func, get_rank, init

out_dir = sys.argv[1]
init()
rank = get_rank()
value = Tensor(np.random.default_rng(rank).normal(size=(2, 3)).astype(np.float32))


def sender(x):
    comm_func.isend(ops.tanh(x) * 3, dst=1, tag=5)
    comm_func.isend(x * 2, dst=1, tag=5)  # the second message of tag 5: the receiver's second irecv
    return (x ** 2).sum()


def receiver(t):
    first, _ = comm_func.irecv(Tensor(np.zeros((2, 3), np.float32)), src=0, tag=5)
    comm_func.irecv(Tensor(np.zeros((2, 3), np.float32)), src=0, tag=5)  # not used: a zero gradient goes back
    return (first * t).sum() + (t ** 2).sum()


class SendThenDepend(nn.Cell):
    def __init__(self):
        super().__init__()
        self.send = ops.Send(sr_tag=7, dest_rank=1)

    def construct(self, x):
        loss = (x ** 2).sum()
        return ops.depend(loss, self.send(ops.tanh(x) * 3))  # the Send's output is not on the loss's path


class ReceiveOnly(nn.Cell):
    def __init__(self):
        super().__init__()
        self.receive = ops.Receive(sr_tag=7, src_rank=0, shape=[2, 3], dtype=ms.float32)

    def construct(self, t):
        return (self.receive() * t).sum() + (t ** 2).sum()


def batch_ring(x):
    """Each rank sends x * (rank + 1) to the other and receives the other's, in one batch_isend_irecv."""
    other = 1 - rank
    _, received = comm_func.batch_isend_irecv([
        comm_func.P2POp("isend", x * (rank + 1), other),
        comm_func.P2POp("irecv", (2, 3), other, recv_dtype=ms.float32)])
    return (received * x).sum()


class Exchange(nn.Cell):
    """The same exchange in a Cell, differentiated in GRAPH mode."""

    def construct(self, value):
        return sender(value) if rank == 0 else receiver(value)


function = sender if rank == 0 else receiver
cell = SendThenDepend() if rank == 0 else ReceiveOnly()
result = {"input": value.asnumpy().tolist()}
result["grad"] = ms.grad(function)(value).asnumpy().tolist()
result["jit_grad"] = ms.jit(ms.grad(function))(value).asnumpy().tolist()
loss, gradient = ms.value_and_grad(function)(value)
result["value_and_grad"] = [float(loss.asnumpy()), gradient.asnumpy().tolist()]
result["send_depend_grad"] = ms.grad(cell)(value).asnumpy().tolist()
result["batch_grad"] = ms.grad(batch_ring)(value).asnumpy().tolist()
ms.set_context(mode=ms.GRAPH_MODE)
result["graph_grad"] = ms.grad(Exchange())(value).asnumpy().tolist()
with open(os.path.join(out_dir, f"result_{rank}.json"), "w") as file:
    json.dump(result, file)
