"""A job of 4 CPU processes: 2 pipeline stages x 2 data-parallel processes per stage (run by
tests/parallel/test_pipeline_stages.py).

World rank r is in stage r // 2 with data-parallel index r % 2 (MindSpore's layout) and feeds rows
[8 * (r % 2), 8 * (r % 2) + 8) of a global batch of 16. Every rank writes ``result_<rank>.json`` into
the folder given as argv[1]: for a GRAPH-mode and a PyNative-mode ``TrainOneStepCell`` over
``PipelineCell`` (2 micro-batches), the losses of 3 steps and the final weights; rank 0 adds the same
training in one process on the global batch (``pipeline_stages=1``), and each rank its optimised HLO
and the error that refuses zero_bubble_v on a network of one chunk; ``pipeline_1f1b``: the GRAPH-mode
training again under the ``1f1b`` scheduler (each micro-batch's backward inside the step);
``four_stages``: the network in 4 stages of one process each under ``1f1b`` with 4 micro-batches of the
global batch (losses, weights, the recorded order of the stages' work), and on rank 0 ``four_single``.
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn
from mindspore.communication import get_rank, init

from sporax.graph.cell_jit import compiled_text
from sporax.parallel import pipeline_replay

out_dir = sys.argv[1]
init()
rank = get_rank()
generator = np.random.default_rng(0)
data = generator.normal(size=(3, 16, 4)).astype(np.float32)
labels = generator.integers(0, 3, size=(3, 16)).astype(np.int32)


def network(stages):
    ms.set_seed(1)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 8), nn.Tanh(), nn.Dense(8, 3))
    if stages > 1:
        for index, cell in enumerate(net):
            cell.pipeline_stage = 0 if index < 2 else 1
    return net


def train(stages, rows, scheduler="gpipe"):
    ms.reset_auto_parallel_context()
    if stages > 1:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=stages,
                                     pipeline_config={"pipeline_scheduler": scheduler})
    net = network(stages)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.PipelineCell(nn.WithLossCell(net, loss), 2),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = [float(step(Tensor(data[i, rows]), Tensor(labels[i, rows])).asnumpy()) for i in range(3)]
    graph = ms.get_context("mode") == ms.GRAPH_MODE
    hlo = compiled_text(step, Tensor(data[0, rows]), Tensor(labels[0, rows])) if stages > 1 and graph else ""
    return losses, {p.name: p.asnumpy().tolist() for p in net.trainable_params()}, hlo


result = {}
mine = slice(8 * (rank % 2), 8 * (rank % 2) + 8)
for mode, suffix in ((ms.GRAPH_MODE, ""), (ms.PYNATIVE_MODE, "_pynative")):
    ms.set_context(mode=mode)
    result[f"pipeline{suffix}"] = train(2, mine)
    if mode == ms.GRAPH_MODE:
        result["pipeline_1f1b"] = train(2, mine, "1f1b")[:2]
    if mode == ms.GRAPH_MODE:  # a scheduler whose conditions the network does not meet is refused by name
        try:
            train(2, mine, "zero_bubble_v")
        except ValueError as error:
            result["refused_zbv"] = str(error)
    if rank == 0:
        result[f"single{suffix}"] = train(1, slice(0, 16))


def four_stages(stages):
    """The network over 4 stages (Dense, ReLU | Dense | Tanh | Dense), 4 micro-batches of the global batch."""
    ms.reset_auto_parallel_context()
    ms.set_seed(1)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 8), nn.Tanh(), nn.Dense(8, 3))
    if stages > 1:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=4,
                                     pipeline_config={"pipeline_scheduler": "1f1b"})
        for cell, stage in zip(net, (0, 0, 1, 2, 3)):
            cell.pipeline_stage = stage
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.PipelineCell(nn.WithLossCell(net, loss), 4),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = [float(step(Tensor(data[i]), Tensor(labels[i])).asnumpy()) for i in range(2)]
    return losses, {p.name: p.asnumpy().tolist() for p in net.trainable_params()}, pipeline_replay.recorded()


ms.set_context(mode=ms.GRAPH_MODE)
result["four_stages"] = four_stages(4)
if rank == 0:
    result["four_single"] = four_stages(1)
with open(os.path.join(out_dir, f"result_{rank}.json"), "w") as file:
    json.dump(result, file)
