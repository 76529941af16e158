"""A 2-process job (tests/parallel/test_launch_jobs.py runs it after collectives_and_dp.py, in the same
processes): the compiled step is one program.

Every rank writes ``result_<rank>.json`` into the folder given as argv[1]: the optimised HLO of its
data-parallel ``TrainOneStepCell`` step, the losses and weights of 3 steps on its half of the
batch, and (rank 0) the same training on the whole batch in one process; then SEMI_AUTO_PARALLEL
training where each rank feeds half of a global batch (``full_batch=False``) or the whole batch
(``full_batch=True``), and the same network on the whole batch alone.
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.communication import get_group_size, get_rank, init

from sporax.graph.cell_jit import compiled_cell, compiled_text

out_dir = sys.argv[1]
ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
result = {}
generator = np.random.default_rng(0)
data = generator.normal(size=(3, 8, 4)).astype(np.float32)
labels = generator.integers(0, 3, size=(3, 8)).astype(np.int32)


def train(parallel, rows):
    """3 steps of a Dense-ReLU-Dense net with Momentum: (losses, final weights, the step Cell)."""
    ms.reset_auto_parallel_context()
    if parallel:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    ms.set_seed(1)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = [float(step(Tensor(data[i][rows]), Tensor(labels[i][rows])).asnumpy()) for i in range(3)]
    return losses, {p.name: p.asnumpy().tolist() for p in net.trainable_params()}, step


half = slice(rank * 8 // size, (rank + 1) * 8 // size)
result["dp_losses"], result["dp_final"], step = train(True, half)
result["hlo"] = compiled_text(step, Tensor(data[0][half]), Tensor(labels[0][half]))
result["one_program"] = all(program.world for program in compiled_cell(step).programs)
if rank == 0:
    result["single_losses"], result["single_final"], _ = train(False, slice(0, 8))


class MatMulNet(nn.Cell):
    def __init__(self, strategy):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)), name="w")
        self.matmul = ops.MatMul()
        if strategy is not None:
            self.matmul.shard(strategy)

    def construct(self, x):
        return self.matmul(x, self.w)


def train_semi_auto(mode, rows, **settings):
    """3 SGD steps of a MatMul net (rows of the input split over the 2 devices): (losses, final weight)."""
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode=mode, **settings)
    net = MatMulNet(((2, 1), (1, 1)) if mode != "stand_alone" else None)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    targets = np.linspace(0, 1, 3 * 8 * 3, dtype=np.float32).reshape(3, 8, 3)
    losses = [float(step(Tensor(data[i][rows]), Tensor(targets[i][rows])).asnumpy()) for i in range(3)]
    return losses, net.w.asnumpy().tolist()


# MindSpore's default full_batch=False: each rank's half is its slice of one global batch of 8.
result["global_batch"] = train_semi_auto("semi_auto_parallel", half, device_num=size)
# full_batch=True keeps its meaning: every rank feeds the whole batch.
result["full_batch"] = train_semi_auto("semi_auto_parallel", slice(0, 8), device_num=size, full_batch=True)
result["semi_auto_single"] = train_semi_auto("stand_alone", slice(0, 8))


class SendNet(nn.Cell):
    """MindSpore's example of ops.Send: rank 0 sends x (tag 0) and x * 2 (tag 1) to rank 1."""

    def __init__(self):
        super().__init__()
        self.depend = ops.Depend()
        self.send = ops.Send(sr_tag=0, dest_rank=1)
        self.send_double = ops.Send(sr_tag=1, dest_rank=1)

    def construct(self, x):
        return self.depend(x, (self.send(x), self.send_double(x * 2)))


class ReceiveNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.receive = ops.Receive(sr_tag=0, src_rank=0, shape=[2, 8], dtype=ms.float32)
        self.receive_double = ops.Receive(sr_tag=1, src_rank=0, shape=[2, 8], dtype=ms.float32)

    def construct(self):
        received = self.receive()
        return self.receive_double() - received


message = Tensor(np.arange(16, dtype=np.float32).reshape(2, 8))
for mode_name, mode in (("pynative", ms.PYNATIVE_MODE), ("graph", ms.GRAPH_MODE)):
    ms.set_context(mode=mode)
    cell = SendNet() if rank == 0 else ReceiveNet()
    arguments = (message,) if rank == 0 else ()
    result[f"send_receive_{mode_name}"] = cell(*arguments).asnumpy().tolist()
    if mode == ms.GRAPH_MODE:
        result["send_receive_hlo"] = compiled_text(cell, *arguments)


# Gradients through ops.Send/ops.Receive: a network split by hand, rank 0 runs its first layer and sends the
# activation, rank 1 receives it and computes the loss; the gradient of Receive goes back to rank 0.
def dense(fan_in, fan_out, seed):
    weights = np.random.default_rng(seed).normal(size=(fan_out, fan_in)).astype(np.float32) / 2
    return nn.Dense(fan_in, fan_out, weight_init=Tensor(weights), bias_init=Tensor(np.full(fan_out, 0.1, np.float32)))


class FirstHalf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = dense(4, 6, 1)
        self.send = ops.Send(sr_tag=3, dest_rank=1)

    def construct(self, x):
        return self.send(ops.tanh(self.dense(x)))


class SecondHalf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.receive = ops.Receive(sr_tag=3, src_rank=0, shape=[5, 6], dtype=ms.float32)
        self.dense = dense(6, 2, 2)

    def construct(self, target):
        return ((self.dense(self.receive()) - target) ** 2).mean()


class Whole(nn.Cell):
    def __init__(self):
        super().__init__()
        self.first, self.second = dense(4, 6, 1), dense(6, 2, 2)

    def construct(self, x, target):
        return ((self.second(ops.tanh(self.first(x))) - target) ** 2).mean()


split_input, split_target = Tensor(data[0, :5]), Tensor(np.tanh(data[1, :5, :2]))
for mode_name, mode in (("pynative", ms.PYNATIVE_MODE), ("graph", ms.GRAPH_MODE)):
    ms.set_context(mode=mode)
    half = FirstHalf() if rank == 0 else SecondHalf()
    argument = split_input if rank == 0 else split_target
    grad = ms.grad(half, None, half.trainable_params())
    result[f"split_grads_{mode_name}"] = [g.asnumpy().tolist() for g in grad(argument)]
    result[f"split_jit_grads_{mode_name}"] = [g.asnumpy().tolist() for g in ms.jit(grad)(argument)]
whole = Whole()
result["whole_grads"] = [g.asnumpy().tolist()
                         for g in ms.grad(whole, None, whole.trainable_params())(split_input, split_target)]
with open(os.path.join(out_dir, f"result_{rank}.json"), "w") as file:
    json.dump(result, file)
