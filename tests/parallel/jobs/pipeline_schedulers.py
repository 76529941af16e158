"""A job of 2 CPU processes, one per pipeline stage, for each of MindSpore's schedulers beyond GPipe
(run by tests/parallel/test_pipeline_schedulers.py).

Every rank writes ``result_<rank>.json`` into the folder given as argv[1]: for ``1f1b``, ``seqpipe``, ``seqvpp``,
``seqsmartvpp`` and ``zero_bubble_v`` (GRAPH mode, ``TrainOneStepCell`` over ``PipelineCell`` with 2
micro-batches), the losses of 2 steps, the final weights and the recorded order of the pieces' work
(``pipeline_replay.recorded``); rank 0 adds the same training in one process. ``memory``: for ``gpipe`` and
``1f1b`` with 8 micro-batches of a wider network, the compiled step's temporary bytes and its recorded order.
``squared``: under ``1f1b`` (and in one process on rank 0, ``squared_single``), the loss of a ``PipelineCell``
called without a gradient, then ``value_and_grad`` of its square and the gradients of every weight.
``normalised``: a BatchNorm network under the default scheduler (1f1b), which runs in GPipe's order, and
(``normalised_single``, rank 0) in one process.
``zero_bubble_v`` uses its V placement: segment 0 runs stage 0 -> 1, segment 1 back from stage 1 to 0, so
its loss is on stage 0.
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.communication import get_rank, init

from sporax.graph import cell_jit
from sporax.parallel import pipeline_replay

out_dir = sys.argv[1]
ms.set_context(mode=ms.GRAPH_MODE)
init()
rank = get_rank()
generator = np.random.default_rng(0)
data = generator.normal(size=(2, 8, 4)).astype(np.float32)
labels = generator.integers(0, 3, size=(2, 8)).astype(np.int32)
# {scheduler: (pipeline_interleave, {cell: (stage, segment)})}
PLACEMENTS = {
    "1f1b": (False, {"layer1": (0, 0), "layer2": (1, 0), "layer3": (1, 0)}),
    "seqpipe": (False, {"layer1": (0, 0), "layer2": (1, 0), "layer3": (1, 0)}),
    "seqvpp": (True, {"layer1": (0, 0), "layer2": (1, 0), "layer3": (1, 0)}),
    "seqsmartvpp": (True, {"layer1": (0, 0), "layer2": (1, 0), "layer3": (1, 0)}),
    "zero_bubble_v": (True, {"layer1": (0, 0), "layer2": (1, 0), "layer3": (0, 1)}),
}


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Dense(4, 8)
        self.layer2 = nn.Dense(8, 8)
        self.layer3 = nn.Dense(8, 3)

    def construct(self, x):
        return self.layer3(ops.tanh(self.layer2(ops.relu(self.layer1(x)))))


def train(scheduler=None):
    ms.reset_auto_parallel_context()
    ms.set_seed(1)
    net = Net()
    if scheduler is not None:  # the one-process reference stays stand-alone
        interleave, placement = PLACEMENTS[scheduler]
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=2,
                                     pipeline_config={"pipeline_scheduler": scheduler,
                                                      "pipeline_interleave": interleave})
        for name, (stage, segment) in placement.items():
            getattr(net, name).pipeline_stage = stage
            getattr(net, name).pipeline_segment = segment
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.PipelineCell(nn.WithLossCell(net, loss), 2),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = [float(step(Tensor(data[i]), Tensor(labels[i])).asnumpy()) for i in range(2)]
    return losses, {p.name: p.asnumpy().tolist() for p in net.trainable_params()}, pipeline_replay.recorded()


def compiled_memory(cell, *args):
    """The temporary bytes XLA's buffer assignment gives the step's compiled program (as ``compiled_text`` finds it)."""
    program, arrays = cell_jit.compiled_cell(cell).lookup(args, {}, cell_jit._build(cell),
                                                         prepare=cell_jit.global_batch)
    return program.lower(arrays).compile().memory_analysis().temp_size_in_bytes


class Wide(nn.Cell):
    """Two stages of wide layers: each micro-batch's activations dominate the step's temporary memory."""

    def __init__(self):
        super().__init__()
        self.first = nn.SequentialCell(nn.Dense(16, 256), nn.Tanh(), nn.Dense(256, 256), nn.Tanh())
        self.second = nn.SequentialCell(nn.Dense(256, 256), nn.Tanh(), nn.Dense(256, 3))
        self.first.pipeline_stage, self.second.pipeline_stage = 0, 1

    def construct(self, x):
        return self.second(self.first(x))


def temporary_bytes(scheduler, micro=8):
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=2,
                                 pipeline_config={"pipeline_scheduler": scheduler})
    ms.set_seed(1)
    net = Wide()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.PipelineCell(nn.WithLossCell(net, loss), micro),
                               nn.SGD(net.trainable_params(), 0.01))
    x = Tensor(generator.normal(size=(micro * 512, 16)).astype(np.float32))
    y = Tensor(generator.integers(0, 3, size=(micro * 512,)).astype(np.int32))
    step(x, y)
    return compiled_memory(step, x, y), pipeline_replay.recorded()


def squared(scheduler=None):
    """The loss without a gradient, then the square of the loss and its gradients: the last stage's cotangent
    (2 x loss) is not the other stage's (2 x 0, its output being zeros)."""
    ms.reset_auto_parallel_context()
    ms.set_seed(1)
    net = Net()
    if scheduler is not None:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=2,
                                     pipeline_config={"pipeline_scheduler": scheduler})
        for name, (stage, _) in PLACEMENTS[scheduler][1].items():
            getattr(net, name).pipeline_stage = stage
    pipeline = nn.PipelineCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")), 4)
    alone = float(pipeline(Tensor(data[0]), Tensor(labels[0])).asnumpy())
    value, grads = ms.value_and_grad(lambda x, y: pipeline(x, y) ** 2, None, net.trainable_params())(
        Tensor(data[0]), Tensor(labels[0]))
    return alone, float(value.asnumpy()), {p.name: g.asnumpy().tolist() for p, g in zip(net.trainable_params(), grads)}


class Normalised(nn.Cell):
    """A BatchNorm on stage 1: its moving statistics are assigned in the step."""

    def __init__(self):
        super().__init__()
        self.layer1 = nn.Dense(4, 8)
        self.norm = nn.BatchNorm1d(8)
        self.layer3 = nn.Dense(8, 3)

    def construct(self, x):
        return self.layer3(self.norm(ops.relu(self.layer1(x))))


def normalised(pipelined):
    """MindSpore's default scheduler (1f1b) on a network that assigns Parameters: GPipe's order runs it."""
    ms.reset_auto_parallel_context()
    ms.set_seed(1)
    net = Normalised()
    if pipelined:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=2)
        net.layer1.pipeline_stage, net.norm.pipeline_stage, net.layer3.pipeline_stage = 0, 1, 1
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.PipelineCell(nn.WithLossCell(net, loss), 2), nn.SGD(net.trainable_params(), 0.1))
    losses = [float(step(Tensor(data[i]), Tensor(labels[i])).asnumpy()) for i in range(2)]
    return losses, {p.name: p.asnumpy().tolist() for p in net.get_parameters()}


result = {scheduler: train(scheduler) for scheduler in PLACEMENTS}
result["normalised"] = normalised(True)
if rank == 0:
    result["normalised_single"] = normalised(False)
result["squared"] = squared("1f1b")
if rank == 0:
    result["squared_single"] = squared()
result["memory"] = {scheduler: temporary_bytes(scheduler) for scheduler in ("gpipe", "1f1b")}
if rank == 0:
    result["single"] = train()
with open(os.path.join(out_dir, f"result_{rank}.json"), "w") as file:
    json.dump(result, file)
