"""A 2-process job (tests/parallel/test_launch_jobs.py runs it, then world_program.py): collectives, comm_func,
data parallel training.

Every rank writes ``result_<rank>.json`` into the folder given as argv[1]: its collective results
and, after DATA_PARALLEL training on its shard, its final weights; rank 0 also trains the same
network on the whole batch in one process (STAND_ALONE) for comparison.
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.communication import comm_func, get_group_size, get_local_rank, get_local_rank_size, get_rank, init
from mindspore.communication.management import (GlobalComm, create_group, destroy_group,
                                                 get_group_rank_from_world_rank, get_world_rank_from_group_rank)
from mindspore.train import CheckpointConfig, Model, ModelCheckpoint

out_dir = sys.argv[1]
ms.set_context(device_target="CPU")
init()
ms.set_context(device_id=int(os.environ["DEVICE_ID"]))  # as model-zoo scripts do after init()
rank, size = get_rank(), get_group_size()
result = {"rank": rank, "size": size, "local": [get_local_rank(), get_local_rank_size()],
          "backend": GlobalComm.BACKEND, "inited": GlobalComm.INITED}

x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * rank)
for mode_name, mode in (("pynative", ms.PYNATIVE_MODE), ("graph", ms.GRAPH_MODE)):
    ms.set_context(mode=mode)

    class Collectives(nn.Cell):
        def __init__(self):
            super().__init__()
            self.all_reduce = ops.AllReduce()
            self.all_reduce_max = ops.AllReduce(ops.ReduceOp.MAX)
            self.all_gather = ops.AllGather()
            self.reduce_scatter = ops.ReduceScatter()
            self.broadcast = ops.Broadcast(1)
            self.all_to_all = ops.AlltoAll(2, 1, 0)

        def construct(self, t):
            return (self.all_reduce(t), self.all_reduce_max(t), self.all_gather(t), self.reduce_scatter(t),
                    self.broadcast((t,))[0], self.all_to_all(t[:, :2] if t.shape[1] % 2 else t))

    names = ("all_reduce", "all_reduce_max", "all_gather", "reduce_scatter", "broadcast", "all_to_all")
    outputs = Collectives()(x)
    result[mode_name] = {name: value.asnumpy().tolist() for name, value in zip(names, outputs)}
    grad = ms.grad(lambda t: (ops.AllReduce()(t) ** 2).sum() + ops.AllGather()(t).sum())(x)
    result[mode_name]["grad"] = grad.asnumpy().tolist()
# A large fused gradient reduced inside a compiled Cell, then more device work right away: the
# collective's host callback must not wait for a device its own program holds.
big = tuple(Tensor(np.full((700, 700), rank + 1.0, np.float32)) for _ in range(2))
reducer = nn.DistributedGradReducer(big, mean=True, degree=size)
result["big_reduced"] = [float(g.asnumpy().mean()) for _ in range(3) for g in reducer(big)] + \
    [float((Tensor(np.ones(3, np.float32)) + 1).asnumpy().sum())]
ms.set_context(mode=ms.PYNATIVE_MODE)

cf = {}
cf["all_reduce"] = comm_func.all_reduce(x)[0].asnumpy().tolist()
cf["all_reduce_handle"] = comm_func.all_reduce(x)[1] is None
out, handle = comm_func.all_reduce(x, "max", async_op=True)
handle.wait()
cf["all_reduce_max_async"] = out.asnumpy().tolist()
cf["all_gather_into_tensor"] = comm_func.all_gather_into_tensor(x)[0].asnumpy().tolist()
cf["reduce_scatter_tensor"] = comm_func.reduce_scatter_tensor(x)[0].asnumpy().tolist()
cf["broadcast"] = comm_func.broadcast(x, 1).asnumpy().tolist()
cf["reduce_to_1"] = comm_func.reduce(x, 1).asnumpy().tolist()
cf["gather_into_tensor_to_0"] = comm_func.gather_into_tensor(x, 0).asnumpy().tolist()
cf["scatter_tensor_from_1"] = comm_func.scatter_tensor(x, 1).asnumpy().tolist()
comm_func.barrier()
if rank == 0:
    cf["send"] = comm_func.send(x, 1)
else:
    cf["recv"] = comm_func.recv(Tensor(np.zeros((2, 3), np.float32)), 0).asnumpy().tolist()
result["comm_func"] = cf

# A group with the ranks in reverse order: group rank 0 is world rank 1.
create_group("reversed", [1, 0])
result["group"] = {
    "rank": get_rank("reversed"), "size": get_group_size("reversed"),
    "world_rank_of_group_rank_0": get_world_rank_from_group_rank("reversed", 0),
    "group_rank_of_world_rank_0": get_group_rank_from_world_rank(0, "reversed"),
    "all_gather": ops.AllGather("reversed")(x).asnumpy().tolist(),
    "broadcast_from_group_rank_0": ops.Broadcast(0, "reversed")((x,))[0].asnumpy().tolist(),
}
destroy_group("reversed")


def train(parallel, data, labels, batch, num_shards=None, shard_id=None, seed=1, broadcast=False, sink=False):
    """Train a small MLP with Model on (data, labels); return its initial and final weights."""
    ms.reset_auto_parallel_context()
    if parallel:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                     parameter_broadcast=broadcast)
    ms.set_seed(seed)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3))
    initial = {p.name: p.asnumpy().tolist() for p in net.trainable_params()}
    dataset = ms.dataset.NumpySlicesDataset({"data": data, "label": labels}, shuffle=False,
                                            num_shards=num_shards, shard_id=shard_id).batch(batch)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(3, dataset, dataset_sink_mode=sink)
    return initial, {p.name: p.asnumpy().tolist() for p in net.trainable_params()}


generator = np.random.default_rng(0)
data = generator.normal(size=(32, 4)).astype(np.float32)
labels = generator.integers(0, 3, size=(32,)).astype(np.int32)
result["dp_initial"], result["dp_final"] = train(True, data, labels, 8 // size, num_shards=size, shard_id=rank)
# Different seeds per rank: parameter_broadcast makes rank 0's initial weights everybody's.
_, result["dp_broadcast_final"] = train(True, data, labels, 8 // size, num_shards=size, shard_id=rank,
                                        seed=1 + rank, broadcast=True)
_, result["dp_sink_final"] = train(True, data, labels, 8 // size, num_shards=size, shard_id=rank, sink=True)
if rank == 0:
    result["single_initial"], result["single_final"] = train(False, data, labels, 8)
# tests/fixtures/parallel/record_checkpoint_names.py's training: both ranks save into one folder.
ms.reset_auto_parallel_context()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
rows = generator.normal(size=(64, 4)).astype(np.float32)
dataset = ms.dataset.NumpySlicesDataset({"data": rows, "label": (rows.sum(axis=1) > 0).astype(np.int32)},
                                        shuffle=False, num_shards=size, shard_id=rank).batch(8)
net = nn.Dense(4, 2)
checkpoints = os.path.join(out_dir, "ckpt")
Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), nn.SGD(net.trainable_params(), 0.1)).train(
    1, dataset, callbacks=[ModelCheckpoint(prefix="net", directory=checkpoints,
                                           config=CheckpointConfig(save_checkpoint_steps=4))])
comm_func.barrier()
result["checkpoint_files"] = sorted(os.listdir(checkpoints))
with open(os.path.join(out_dir, f"result_{rank}.json"), "w") as file:
    json.dump(result, file)
