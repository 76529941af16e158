"""A job of 2 CPU processes, one per pipeline stage (run by tests/parallel/test_pipeline_stages.py).

Every rank writes ``result_<rank>.json`` into the folder given as argv[1]: for each way to ask for
pipeline stages (``set_auto_parallel_context(pipeline_stages=2)`` with ``TrainOneStepCell``, and
``AutoParallel(...).pipeline(stages=2)`` with ``PipelineGradReducer`` in a functional step) and
each micro-batch count (GRAPH mode; 2 micro-batches in PyNative mode too), the losses of 3 steps
and the final weights; rank 0 adds the same training in one process (``pipeline_stages=1``); and
each rank the optimised HLO of its GRAPH-mode ``TrainOneStepCell`` step.
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.communication import get_rank, init
from mindspore.parallel.auto_parallel import AutoParallel

from sporax.graph.cell_jit import compiled_text

out_dir = sys.argv[1]
ms.set_context(mode=ms.GRAPH_MODE)
init()
rank = get_rank()
generator = np.random.default_rng(0)
data = generator.normal(size=(3, 8, 4)).astype(np.float32)
labels = generator.integers(0, 3, size=(3, 8)).astype(np.int32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Dense(4, 16)
        self.relu1 = nn.ReLU()
        self.layer2 = nn.Dense(16, 16)
        self.relu2 = nn.ReLU()
        self.layer3 = nn.Dense(16, 3)

    def construct(self, x):
        x = self.relu1(self.layer1(x))
        x = ops.tanh(x) * 2  # code between the staged Cells runs on the stage that ran last
        return self.layer3(self.relu2(self.layer2(x)))


def network(stages, interleave=False):
    ms.set_seed(1)
    net = Net()
    if stages > 1:
        net.layer1.pipeline_stage = 0
        net.relu1.pipeline_stage = 0
        net.layer2.pipeline_stage = 1
        net.relu2.pipeline_stage = 1
        net.layer3.pipeline_stage = 1
    if interleave:  # segment 1: relu2 back on stage 0, then layer3 on stage 1
        net.relu2.pipeline_stage = 0
        for cell, segment in ((net.layer1, 0), (net.relu1, 0), (net.layer2, 0), (net.relu2, 1), (net.layer3, 1)):
            cell.pipeline_segment = segment
    return net


def train_one_step_cell(stages, micro, interleave=False):
    ms.reset_auto_parallel_context()
    if stages > 1:  # the one-process reference stays stand-alone: this rank alone, no collective
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=stages,
                                     pipeline_config={"pipeline_scheduler": "gpipe",
                                                      "pipeline_interleave": interleave})
    net = network(stages, interleave)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.PipelineCell(nn.WithLossCell(net, loss), micro),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = [float(step(Tensor(data[i]), Tensor(labels[i])).asnumpy()) for i in range(3)]
    graph = ms.get_context("mode") == ms.GRAPH_MODE
    hlo = compiled_text(step, Tensor(data[0]), Tensor(labels[0])) if stages > 1 and graph else ""
    return losses, {p.name: p.asnumpy().tolist() for p in net.trainable_params()}, hlo


class FunctionalStep(nn.Cell):
    """MindSpore's functional pipeline step: value_and_grad, PipelineGradReducer, the optimizer."""

    def __init__(self, net, micro, reduce):
        super().__init__()
        self.net_with_loss = nn.PipelineCell(nn.WithLossCell(net, nn.MSELoss()), micro)
        self.optimizer = nn.SGD(net.trainable_params(), 0.1)
        self.grad_fn = ms.value_and_grad(self.net_with_loss, None, self.optimizer.parameters)
        self.reducer = nn.PipelineGradReducer(self.optimizer.parameters) if reduce else None

    def construct(self, x, y):
        loss, grads = self.grad_fn(x, y)
        # Stand-alone, MindSpore's PipelineGradReducer returns its (never filled) accu_grads: the
        # one-process reference applies the gradients as they are.
        self.optimizer(self.reducer(grads) if self.reducer is not None else grads)
        return loss


def auto_parallel_pipeline(stages, micro):
    ms.reset_auto_parallel_context()
    net = network(stages)
    step = FunctionalStep(net, micro, reduce=stages > 1)
    if stages > 1:
        step = AutoParallel(step, parallel_mode="semi_auto")
        step.pipeline(stages=stages, scheduler="gpipe")
    targets = np.tanh(data[..., :3])
    losses = [float(step(Tensor(data[i]), Tensor(targets[i])).asnumpy()) for i in range(3)]
    return losses, {p.name: p.asnumpy().tolist() for p in net.trainable_params()}


result = {}
for mode, micros, suffix in ((ms.GRAPH_MODE, (2, 4), ""), (ms.PYNATIVE_MODE, (2,), "_pynative")):
    ms.set_context(mode=mode)
    if mode == ms.GRAPH_MODE:
        result["interleave_2"] = train_one_step_cell(2, 2, interleave=True)
    for micro in micros:
        result[f"cell_{micro}{suffix}"] = train_one_step_cell(2, micro)
        result[f"auto_{micro}{suffix}"] = auto_parallel_pipeline(2, micro)
        if rank == 0:
            result[f"cell_{micro}{suffix}_single"] = train_one_step_cell(1, micro)
            result[f"auto_{micro}{suffix}_single"] = auto_parallel_pipeline(1, micro)
with open(os.path.join(out_dir, f"result_{rank}.json"), "w") as file:
    json.dump(result, file)
