"""MindSpore's parallel tutorial pages as one msrun job script: ``msrun --worker_num=8 --local_worker_num=8
--master_port=... --join=True tutorial_pages.py OUT_DIR FLOW`` (run by tests/parallel/test_tutorial_pages.py).

Each flow is written as the pages write it: ``init()``, the parallel settings (AutoParallel or
set_auto_parallel_context), shard strategies, two training steps on a fixed small dataset of which each
rank feeds its slice of the global batch (the pages' ``num_shards``/``shard_id`` dataset). Every rank
writes ``result_<rank>.json`` into OUT_DIR: its losses and the final weights (whole, gathered); rank 0
adds the same flow run stand-alone in one process on the global batch (``single``). Flows:

    operator_tuple, operator_layout  operator-level parallel: MatMul/ReLU strategies as split tuples or Layouts
    optimizer_parallel               AutoParallel.hsdp on a jit training function
    recompute                        Cell.recompute on the recompute page's attention blocks, in a training step
    pipeline_2, pipeline_4           Pipeline + PipelineGradReducer + AutoParallel.pipeline: 2 stages x 2
                                     micro-batches, 4 stages x 4 micro-batches (the ranks of a stage data parallel)
    sharding_propagation,            AutoParallel's searches on TrainOneStepCell, with save_param_strategy_file
    recursive_programming
    checkpoint_save                  train with the weights laid out by a strategy file, save each rank's slice
                                     (integrated_save=False) and the strategy file; rank 0 merges the slices
                                     with transform_checkpoints
    checkpoint_load                  (any number of ranks) load the merged checkpoint into another layout, train on
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore.common.initializer import initializer
from mindspore.communication import get_group_size, get_rank, init
from mindspore.nn.utils import no_init_parameters
from mindspore.parallel.auto_parallel import AutoParallel
from mindspore.parallel.nn import Pipeline, PipelineGradReducer

from tutorial_networks import DenseNetwork, OperatorNetwork, hsdp, propagated_step

OUT, FLOW = sys.argv[1], sys.argv[2]
ms.set_context(mode=ms.GRAPH_MODE)
init()
RANK, SIZE = get_rank(), get_group_size()
GLOBAL_BATCH = 16
generator = np.random.default_rng(0)
IMAGES = generator.random((2, GLOBAL_BATCH, 1, 8, 8)).astype(np.float32)
LABELS = generator.integers(0, 10, (2, GLOBAL_BATCH)).astype(np.int32)


def batches(shard_id=None, num_shards=None):
    """The two batches this rank feeds: its rows of each global batch (None: the whole batch)."""
    if shard_id is None:
        rows = slice(0, GLOBAL_BATCH)
    else:
        size = GLOBAL_BATCH // num_shards
        rows = slice(shard_id * size, (shard_id + 1) * size)
    return [(Tensor(IMAGES[step, rows]), Tensor(LABELS[step, rows])) for step in range(2)]


def weights(net):
    return {param.name: param.asnumpy().tolist() for param in net.trainable_params()}


def held(net):
    """The shape of each weight's slice on this rank (whole where the weight is not split)."""
    return {param.name: list(param._value.addressable_shards[0].data.shape) for param in net.trainable_params()}


def train(make_network, parallel, configure=None, jit=True, shard=(None, None)):
    """The pages' value_and_grad training step (GRAPH mode; under AutoParallel when ``parallel``)."""
    ms.reset_auto_parallel_context()
    ms.set_seed(1)
    with no_init_parameters():
        net = make_network()
        optimizer = nn.SGD(net.trainable_params(), 1e-1)
    loss_fn = nn.CrossEntropyLoss()

    def forward_fn(data, target):
        return loss_fn(net(data), target)

    grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())

    def train_step(inputs, targets):
        loss_value, grads = grad_fn(inputs, targets)
        optimizer(grads)
        return loss_value

    step = ms.jit(train_step) if jit else train_step
    if parallel:
        step = AutoParallel(step, parallel_mode="semi_auto")
        step.save_param_strategy_file(os.path.join(OUT, f"strategy_{RANK}.json"))  # written at the first call
        if configure:
            configure(step, net)
    else:
        net.init_parameters_data()
    losses = [float(step(image, label).asnumpy()) for image, label in batches(*shard)]
    return {"losses": losses, "weights": weights(net), "held": held(net)}


def compare(make_network, configure=None, jit=True):
    """The flow on this job's ranks (each its slice of the global batch); rank 0 also alone on the whole batch."""
    result = {"parallel": train(make_network, True, configure, jit, (RANK, SIZE))}
    if RANK == 0:
        result["single"] = train(make_network, False, jit=jit)
    return result


class Block(nn.Cell):
    """The recompute page's attention-like block (smaller), its MatMuls split over the batch."""

    def __init__(self):
        super().__init__()
        self.transpose = ops.Transpose()
        self.real_div = ops.RealDiv()
        self.batch_matmul = ops.BatchMatMul().shard(((8, 1, 1, 1), (8, 1, 1, 1)))
        self.softmax = ops.Softmax(-1)
        self.y = Parameter(initializer("ones", [8, 8], ms.float32))

    def construct(self, x):
        query = self.real_div(self.transpose(x, (0, 2, 1, 3)), Tensor(2.37891))
        key = self.real_div(self.transpose(x, (0, 2, 3, 1)), Tensor(2.37891))
        scores = self.batch_matmul(query, key) + (1.0 - self.y) * -0.0001
        return self.transpose(self.batch_matmul(self.softmax(scores), self.transpose(x, (0, 2, 1, 3))), (0, 2, 1, 3))


class RecomputeNetwork(nn.Cell):
    """Three recomputed blocks between a Dense in and a Dense out (images as (batch, 8, 4, 2) sequences)."""

    def __init__(self):
        super().__init__()
        self.reshape = ops.Reshape()
        self.blocks = nn.CellList()
        for _ in range(3):
            block = Block()
            block.recompute()
            self.blocks.append(block)
        self.head = nn.Dense(64, 10)

    def construct(self, x):
        x = self.reshape(x, (x.shape[0], 8, 4, 2))
        for block in self.blocks:
            x = block(x)
        return self.head(self.reshape(x, (x.shape[0], 64)))


class StageNetwork(nn.Cell):
    """The pipeline page's network, four Dense layers (one per stage with 4 stages)."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layer1 = nn.Dense(64, 32, activation="relu")
        self.layer2 = nn.Dense(32, 32, activation="relu")
        self.layer3 = nn.Dense(32, 16, activation="relu")
        self.layer4 = nn.Dense(16, 10)

    def construct(self, x):
        return self.layer4(self.layer3(self.layer2(self.layer1(self.flatten(x)))))


def pipeline(stages, micro, parallel):
    """Pipeline(WithLossCell) + PipelineGradReducer + AutoParallel.pipeline; each stage's processes are data
    parallel inside the stage and feed the rows of their place in it."""
    ms.reset_auto_parallel_context()
    ms.set_seed(1)
    with no_init_parameters():
        net = StageNetwork()
        optimizer = nn.SGD(net.trainable_params(), 1e-1)
        reducer = PipelineGradReducer(optimizer.parameters, opt_shard=False) if parallel else None
    layers = ("layer1", "layer2", "layer3", "layer4")
    stage_config = {f"_backbone.{name}": index * stages // len(layers) for index, name in enumerate(layers)}
    net_with_loss = Pipeline(nn.WithLossCell(net, nn.CrossEntropyLoss()), micro, stage_config=stage_config)
    net_with_loss.set_train()
    grad_fn = ops.value_and_grad(net_with_loss, None, optimizer.parameters)

    @ms.jit
    def train_one_step(inputs, target):
        loss, grads = grad_fn(inputs, target)
        # Stand-alone, MindSpore's PipelineGradReducer returns its (never filled) accumulators: the one-process
        # run applies the gradients as they are.
        optimizer(reducer(grads) if reducer is not None else grads)
        return loss

    step, shard = train_one_step, (None, None)
    if parallel:
        step = AutoParallel(train_one_step, parallel_mode="semi_auto")
        step.pipeline(stages=stages, scheduler="gpipe")
        per_stage = SIZE // stages
        shard = (RANK % per_stage, per_stage)
    else:
        net.init_parameters_data()
    losses = [float(step(image, label).asnumpy()) for image, label in batches(*shard)]
    return {"losses": losses, "weights": weights(net)}


def searched(mode, parallel):
    ms.reset_auto_parallel_context()
    ms.set_seed(1)
    net, step = propagated_step()
    shard = (None, None)
    if parallel:
        step = AutoParallel(step, parallel_mode=mode)
        step.save_param_strategy_file(os.path.join(OUT, f"strategy_{RANK}.json"))
        shard = (RANK, SIZE)
    else:
        net.init_parameters_data()
    losses = [float(step(image, label).asnumpy()) for image, label in batches(*shard)]
    return {"losses": losses, "weights": weights(net)}


def write_strategy(path, layouts):
    """A MindSpore JSON strategy file giving each weight a ``(dev_matrix, tensor_map)``."""
    items = {name: {"dev_matrix": list(dev_matrix), "tensor_map": list(tensor_map), "param_split_shape": [],
                    "indices_offset": [], "field": 0, "opt_weight_shard_step": 0, "opt_weight_shard_size": 0}
             for name, (dev_matrix, tensor_map) in layouts.items()}
    with open(path, "w", encoding="utf-8") as file:
        json.dump({"parallel_layout_item": items}, file)


# The weights' layouts of the checkpoint flows: 8 ranks as a (2, 4) device matrix (layer1's weight split
# 4 x 2, layer2's 2 ways by rows), then 4 ranks with other splits.
SAVE_LAYOUTS = {"layer1.weight": ([2, 4], [0, 1]), "layer1.bias": ([2, 4], [0]), "layer2.weight": ([2, 4], [1, -1]),
                "layer3.weight": ([2, 4], [-1, 0])}
LOAD_LAYOUTS = {"layer1.weight": ([4], [0, -1]), "layer2.weight": ([2, 2], [0, 1]), "layer3.weight": ([4], [-1, 0])}


def checkpoint_network(checkpoint):
    """The checkpoint flows' network (loaded from ``checkpoint`` when given) and its TrainOneStepCell."""
    ms.reset_auto_parallel_context()
    ms.set_seed(1)
    net = DenseNetwork()
    if checkpoint:
        ms.load_param_into_net(net, ms.load_checkpoint(checkpoint))
    return net, nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), nn.SGD(net.trainable_params(), 1e-1))


def laid_out(layouts, strategy_path, checkpoint=None):
    """AutoParallel whose weights are laid out by a strategy file, trained on this rank's slices:
    (losses, net, the AutoParallel)."""
    net, step = checkpoint_network(checkpoint)
    if RANK == 0:
        write_strategy(strategy_path, layouts)
    ops.AllReduce()(Tensor(np.zeros(1, np.float32))).asnumpy()  # every rank waits for rank 0's file
    parallel = AutoParallel(step, parallel_mode="semi_auto")
    parallel.load_param_strategy_file(strategy_path)
    return [float(parallel(image, label).asnumpy()) for image, label in batches(RANK, SIZE)], net, parallel


def single(checkpoint=None):
    """The checkpoint flows' network trained stand-alone on the whole batch (rank 0 only)."""
    net, step = checkpoint_network(checkpoint)
    return {"losses": [float(step(image, label).asnumpy()) for image, label in batches()], "weights": weights(net)}


def checkpoint_save():
    losses, net, parallel = laid_out(SAVE_LAYOUTS, os.path.join(OUT, "load_strategy.json"))
    source = os.path.join(OUT, "src_checkpoints")
    os.makedirs(os.path.join(source, f"rank_{RANK}"), exist_ok=True)
    ms.save_checkpoint(net, os.path.join(source, f"rank_{RANK}", "checkpoint_0.ckpt"), integrated_save=False)
    result = {"parallel": {"losses": losses, "weights": weights(net), "held": held(net)}}
    ops.AllReduce()(Tensor(np.zeros(1, np.float32))).asnumpy()  # every slice is saved
    if RANK == 0:
        # the layouts the ranks hold (the strategy file's and XLA's propagated ones), as MindSpore writes them
        strategy_file = os.path.join(OUT, "src_strategy.json")
        parallel.save_param_strategy_file(strategy_file)
        with open(strategy_file, encoding="utf-8") as file:
            result["strategy"] = {name: [item["dev_matrix"], item["tensor_map"]]
                                  for name, item in json.load(file)["parallel_layout_item"].items()}
        ms.transform_checkpoints(source, os.path.join(OUT, "merged"), "checkpoint_",
                                 src_strategy_file=strategy_file, dst_strategy_file=None)
        merged = os.path.join(OUT, "merged", "rank_0", "checkpoint_0.ckpt")
        loaded = DenseNetwork()
        ms.load_param_into_net(loaded, ms.load_checkpoint(merged))
        result["merged"] = weights(loaded)
        result["single"] = single()
    return result


def checkpoint_load():
    merged = os.path.join(OUT, "merged", "rank_0", "checkpoint_0.ckpt")
    losses, net, _ = laid_out(LOAD_LAYOUTS, os.path.join(OUT, "load_strategy.json"), merged)
    result = {"parallel": {"losses": losses, "weights": weights(net), "held": held(net)}}
    if RANK == 0:
        result["single"] = single(merged)
    return result


FLOWS = {
    "operator_tuple": lambda: compare(lambda: OperatorNetwork(False)),
    "operator_layout": lambda: compare(lambda: OperatorNetwork(True)),
    "optimizer_parallel": lambda: compare(DenseNetwork, hsdp),
    "recompute": lambda: compare(RecomputeNetwork),
    "pipeline_2": lambda: {"parallel": pipeline(2, 2, True), **({"single": pipeline(2, 2, False)} if RANK == 0 else {})},
    "pipeline_4": lambda: {"parallel": pipeline(4, 4, True), **({"single": pipeline(4, 4, False)} if RANK == 0 else {})},
    "sharding_propagation": lambda: {"parallel": searched("sharding_propagation", True),
                                     **({"single": searched("sharding_propagation", False)} if RANK == 0 else {})},
    "recursive_programming": lambda: {"parallel": searched("recursive_programming", True),
                                      **({"single": searched("recursive_programming", False)} if RANK == 0 else {})},
    "checkpoint_save": checkpoint_save,
    "checkpoint_load": checkpoint_load,
}
outcome = FLOWS[FLOW]()
with open(os.path.join(OUT, f"result_{RANK}.json"), "w", encoding="utf-8") as file:
    json.dump(outcome, file)
