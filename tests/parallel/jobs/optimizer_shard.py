"""A 2-process job (run by tests/parallel/test_optimizer_shard.py): the parallel optimizer across processes.

SEMI_AUTO_PARALLEL with enable_parallel_optimizer=True (threshold 0): each rank feeds half of a global batch;
the weights of the first Dense, (8, 4) and (8,), and their Momentum slots are split over the two processes
(each holds 4 rows); the second Dense's (3, 8) and (3,) have a first dimension 2 does not divide and stay
whole. The losses and final weights equal one process on the whole batch. In data_parallel the option
keeps every state whole, with a warning. Every rank writes ``result_<rank>.json`` into argv[1].
"""
import json
import os
import sys
import warnings

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn
from mindspore.communication import get_group_size, get_rank, init

out_dir = sys.argv[1]
ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
generator = np.random.default_rng(0)
data = generator.normal(size=(3, 8, 4)).astype(np.float32)
labels = generator.integers(0, 3, size=(3, 8)).astype(np.int32)


def train(sharded, rows):
    """3 steps of a Dense-ReLU-Dense net with Momentum: (losses, final weights, the layouts each rank holds)."""
    ms.reset_auto_parallel_context()
    if sharded:
        ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=size,
                                     enable_parallel_optimizer=True,
                                     parallel_optimizer_config={"parallel_optimizer_threshold": 0})
    ms.set_seed(1)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
    losses = [float(step(Tensor(data[i][rows]), Tensor(labels[i][rows])).asnumpy()) for i in range(3)]
    held = {p.name: list(p._value.addressable_shards[0].data.shape) for p in optimizer.get_parameters() if p.ndim}
    return losses, {p.name: p.asnumpy().tolist() for p in net.trainable_params()}, held


half = slice(rank * 8 // size, (rank + 1) * 8 // size)
result = dict(zip(("losses", "final", "held"), train(True, half)))
result["single_losses"], result["single_final"], _ = train(False, slice(0, 8))
# data_parallel (one program per rank) keeps the states whole and says so
ms.reset_auto_parallel_context()
ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True, enable_parallel_optimizer=True)
net = nn.Dense(4, 3)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    step(Tensor(data[0][half]), Tensor(data[0][half][:, :3]))
result["data_parallel_warnings"] = [str(item.message) for item in caught if "enable_parallel_optimizer" in
                                    str(item.message)]
with open(os.path.join(out_dir, f"result_{rank}.json"), "w", encoding="utf-8") as file:
    json.dump(result, file)
